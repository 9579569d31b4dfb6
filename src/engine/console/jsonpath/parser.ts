// The JSONPath template language of kubectl -o jsonpath, parsed as client-go's jsonpath parser does.
// See staging/src/k8s.io/client-go/util/jsonpath/parser.go.

/** ArrayParam is one of a slice's start, end and step (ParamsEntry): known when written, derived for `[i]`. */
export interface ArrayParam {
  value: number;
  known: boolean;
  derived: boolean;
}

/** JsonPathNode is one node of a parsed template; `start`/`end` locate it in the action's text. */
export type JsonPathNode = (
  | { type: 'text'; text: string }
  | { type: 'list'; nodes: JsonPathNode[] }
  | { type: 'field'; name: string }
  | { type: 'array'; params: [ArrayParam, ArrayParam, ArrayParam] }
  | { type: 'filter'; left: JsonPathNode & { type: 'list' }; right: JsonPathNode & { type: 'list' }; op: string }
  | { type: 'int'; value: number }
  | { type: 'float'; value: number }
  | { type: 'bool'; value: boolean }
  | { type: 'wildcard' }
  | { type: 'recursive' }
  | { type: 'union'; lists: (JsonPathNode & { type: 'list' })[] }
  | { type: 'identifier'; name: 'range' | 'end' }
) & { start?: number; end?: number };

/** ListNode is an action's sequence of nodes. */
export type ListNode = JsonPathNode & { type: 'list' };

/** JsonPathError is a parse or evaluation error, worded as client-go words it. */
export class JsonPathError extends Error {
  /** executing is set for an error met while running the template rather than parsing it. */
  executing = false;
}

const isSpace = (r: string) => r === ' ' || r === '\t';
const isEndOfLine = (r: string) => r === '\r' || r === '\n';
const isAlphaNumeric = (r: string) => r === '_' || /^[\p{L}\p{Nd}]$/u.test(r);
const isTerminator = (r: string) => r === '' || isSpace(r) || isEndOfLine(r) || '.,[]$@{}'.includes(r);

/** goRune prints a character as Go's %#U: `U+0026 '&'`. */
function goRune(r: string): string {
  const cp = r.codePointAt(0) ?? 0;
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')} '${r}'`;
}

/** parseTemplate parses a whole template: text, and actions in braces. Throws JsonPathError. */
export function parseTemplate(input: string): JsonPathNode[] {
  const root: JsonPathNode[] = [];
  let pos = 0;
  while (pos < input.length) {
    const open = input.indexOf('{', pos);
    if (open < 0) {
      root.push({ type: 'text', text: input.slice(pos) });
      break;
    }
    if (open > pos) root.push({ type: 'text', text: input.slice(pos, open) });
    const p = new ActionParser(input, open + 1);
    const list = p.parseAction();
    root.push(list);
    pos = p.pos;
  }
  return root;
}

/** parseAction parses the inside of one action (`.status.phase`) on its own, as client-go's parseAction does. */
export function parseAction(text: string): ListNode {
  const p = new ActionParser(`${text}}`, 0);
  return p.parseAction();
}

class ActionParser {
  constructor(readonly input: string, public pos: number) {}

  private peek(offset = 0): string {
    return this.input[this.pos + offset] ?? '';
  }

  parseAction(): ListNode {
    const list: ListNode = { type: 'list', nodes: [], start: this.pos };
    for (;;) {
      if (this.input.startsWith('}', this.pos)) {
        this.pos++;
        list.end = this.pos - 1;
        return list;
      }
      if (this.input.startsWith('..', this.pos)) {
        this.parseRecursive(list);
        continue;
      }
      const r = this.peek();
      if (r === '' || isEndOfLine(r)) throw new JsonPathError('unclosed action');
      if (r === ' ' || r === '@' || r === '$') {
        this.pos++;
      } else if (r === '[') {
        this.parseArray(list);
      } else if (r === '"' || r === "'") {
        this.parseQuote(list, r);
      } else if (r === '.') {
        this.pos++;
        this.parseField(list, this.pos - 1);
      } else if (r === '+' || r === '-' || /\d/.test(r)) {
        this.parseNumber(list);
      } else if (isAlphaNumeric(r)) {
        this.parseIdentifier(list);
      } else {
        throw new JsonPathError(`unrecognized character in action: ${goRune(r)}`);
      }
    }
  }

  private parseRecursive(list: ListNode): void {
    if (list.nodes.at(-1)?.type === 'recursive') throw new JsonPathError('invalid multiple recursive descent');
    const start = this.pos;
    this.pos += 2;
    list.nodes.push({ type: 'recursive', start, end: this.pos });
    if (isAlphaNumeric(this.peek())) this.parseField(list, this.pos);
  }

  private parseField(list: ListNode, start: number): void {
    let value = '';
    while (this.pos < this.input.length) {
      const r = this.peek();
      if (r === '\\') {
        value += this.peek(1);
        this.pos += 2;
        continue;
      }
      if (isTerminator(r)) break;
      value += r;
      this.pos++;
    }
    list.nodes.push(value === '*' ? { type: 'wildcard', start, end: this.pos } : { type: 'field', name: value, start, end: this.pos });
  }

  private parseIdentifier(list: ListNode): void {
    const start = this.pos;
    while (isAlphaNumeric(this.peek())) this.pos++;
    const value = this.input.slice(start, this.pos);
    if (value === 'range' || value === 'end') list.nodes.push({ type: 'identifier', name: value, start, end: this.pos });
    else if (value === 'true' || value === 'false') list.nodes.push({ type: 'bool', value: value === 'true', start, end: this.pos });
    else throw new JsonPathError(`unrecognized identifier ${value}`);
  }

  private parseNumber(list: ListNode): void {
    const start = this.pos;
    if (this.peek() === '+' || this.peek() === '-') this.pos++;
    while (/[\d.]/.test(this.peek())) this.pos++;
    const text = this.input.slice(start, this.pos);
    const n = Number(text);
    if (text.includes('.')) {
      if (Number.isNaN(n)) throw new JsonPathError(`cannot parse number ${text}`);
      list.nodes.push({ type: 'float', value: n, start, end: this.pos });
    } else {
      if (!Number.isInteger(n)) throw new JsonPathError(`cannot parse number ${text}`);
      list.nodes.push({ type: 'int', value: n, start, end: this.pos });
    }
  }

  private parseQuote(list: ListNode, quote: string): void {
    const start = this.pos;
    this.pos++;
    let raw = '';
    for (;;) {
      const r = this.peek();
      if (r === '' || isEndOfLine(r)) throw new JsonPathError('unterminated quoted string');
      if (r === '\\') {
        raw += r + this.peek(1);
        this.pos += 2;
        continue;
      }
      this.pos++;
      if (r === quote) break;
      raw += r;
    }
    list.nodes.push({ type: 'text', text: unquote(raw, quote), start, end: this.pos });
  }

  private parseArray(list: ListNode): void {
    const start = this.pos;
    if (this.input.startsWith('[?(', this.pos)) {
      this.parseFilter(list);
      return;
    }
    const close = this.input.indexOf(']', this.pos);
    const nl = this.input.slice(this.pos, close < 0 ? undefined : close).search(/\n/);
    if (close < 0 || nl >= 0) throw new JsonPathError('unterminated array');
    let text = this.input.slice(this.pos + 1, close);
    this.pos = close + 1;
    if (text === '*') text = ':';
    const parts = text.split(',');
    if (parts.length > 1) {
      list.nodes.push({ type: 'union', lists: parts.map((s) => parseAction(`[${s.trim()}]`)), start, end: this.pos });
      return;
    }
    const dict = /^'([^']*)'$/.exec(text);
    if (dict) {
      for (const n of parseAction(`.${dict[1]}`).nodes) list.nodes.push({ ...n, start, end: this.pos });
      return;
    }
    const m = /^(-?\d*)(:-?\d*)?(:-?\d*)?$/.exec(text);
    if (!m) throw new JsonPathError(`invalid array index ${text}`);
    const params: [ArrayParam, ArrayParam, ArrayParam] = [
      { value: 0, known: false, derived: false }, { value: 0, known: false, derived: false }, { value: 0, known: false, derived: false },
    ];
    for (let i = 0; i < 3; i++) {
      let v = m[i + 1] ?? '';
      if (v !== '') {
        if (i > 0) v = v.slice(1);
        if (i > 0 && v === '') params[i]!.known = false;
        else {
          const n = Number(v);
          if (!Number.isInteger(n)) throw new JsonPathError(`array index ${v} is not a number`);
          params[i] = { value: n, known: true, derived: false };
        }
      } else if (i === 1) {
        params[1] = { value: params[0].value + 1, known: true, derived: true };
      }
    }
    list.nodes.push({ type: 'array', params, start, end: this.pos });
  }

  private parseFilter(list: ListNode): void {
    const start = this.pos;
    this.pos += 3;
    const bodyStart = this.pos;
    let begin = false;
    let end = false;
    let pair = '';
    for (;;) {
      const r = this.peek();
      this.pos++;
      if (r === '' || r === '\n') throw new JsonPathError('unterminated filter');
      if (r === '"' || r === "'") {
        if (!begin) {
          begin = true;
          pair = r;
          continue;
        }
        if (this.input[this.pos - 2] !== '\\' && r === pair) end = true;
      } else if (r === ')' && begin === end) {
        break;
      }
    }
    if (this.peek() !== ']') throw new JsonPathError('unclosed array expect ]');
    this.pos++;
    const text = this.input.slice(bodyStart, this.pos - 2);
    const m = /^([^!<>=]+)([!<>=]+)(.+?)$/s.exec(text);
    const node: JsonPathNode = m
      ? { type: 'filter', left: parseAction(m[1]!), right: parseAction(m[3]!), op: m[2]!, start, end: this.pos }
      : { type: 'filter', left: parseAction(text), right: { type: 'list', nodes: [] }, op: 'exists', start, end: this.pos };
    list.nodes.push(node);
  }
}

/** unquote reads a quoted string's escapes as strconv.Unquote does for the common ones. */
function unquote(raw: string, quote: string): string {
  return raw.replace(/\\(u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)/g, (_m, e: string) => {
    switch (e[0]) {
      case 'n': return '\n';
      case 't': return '\t';
      case 'r': return '\r';
      case 'u': case 'x': return String.fromCharCode(parseInt(e.slice(1), 16));
      default: return e === quote || e === '\\' || e === '"' || e === "'" ? e : `\\${e}`;
    }
  });
}
