// A fast reader for the YAML that `kubectl get -o yaml` and most hand-written cluster files use: block mappings and
// sequences, plain and quoted one-line scalars, literal block scalars and one-line flow collections, with go-yaml v2's
// scalar resolution (go-yaml.ts, the same the full reader's tags use). It builds values only (no source ranges, which the
// loader computes with the full parser when a message needs a line). Anything else — anchors, tags, multi-line plain
// or quoted scalars, folded scalars, duplicate or merge keys, any syntax error — makes it return undefined, and the
// loader reads the file with the full parser instead, so the result is always the full parser's.
import {
  FlowReader, PLAIN_START, plainEnd, quoted, restIsComment, ScalarResolver, Unsupported, unsupported, type Json,
} from './plain-yaml-scalars';

/** PlainDocument is one non-empty document: its position among the file's `---` sections and its value. */
export interface PlainDocument {
  index: number;
  value: Json;
}
/**
 * readPlainYaml reads every non-empty document of the text, each a block mapping at its top; undefined when the text
 * uses anything beyond this reader's subset (the caller then uses the full parser).
 */
export function readPlainYaml(text: string): PlainDocument[] | undefined {
  // Carriage returns (CRLF files) are left to the full parser.
  if (text.includes('\r')) return undefined;
  try {
    return new PlainReader(text, new ScalarResolver()).documents();
  } catch (err) {
    if (err instanceof Unsupported || err instanceof RangeError) return undefined;
    throw err;
  }
}

/** Line is one line of the text: where its content starts (after the indentation) and ends (before the break). */
interface Line {
  start: number;
  indent: number;
  end: number;
}

class PlainReader {
  private readonly lines: Line[] = [];
  private at = 0;

  constructor(
    private readonly text: string,
    private readonly scalars: ScalarResolver,
  ) {
    let start = 0;
    while (start <= text.length) {
      let end = text.indexOf('\n', start);
      if (end < 0) end = text.length;
      let i = start;
      while (text.charCodeAt(i) === 32) i++;
      const contentEnd = end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
      // A tab or a carriage return inside the indentation needs the full parser.
      if (i < contentEnd && (text.charCodeAt(i) === 9 || text.charCodeAt(i) === 13)) unsupported();
      // The empty rest after a final line break is not a line.
      if (!(start === end && end === text.length && end > 0)) this.lines.push({ start, indent: i - start, end: contentEnd });
      if (end === text.length) break;
      start = end + 1;
    }
  }

  documents(): PlainDocument[] {
    const out: PlainDocument[] = [];
    let index = 0;
    let started = false;
    for (;;) {
      this.skipBlank();
      if (this.at >= this.lines.length) break;
      const line = this.lines[this.at]!;
      const content = this.text.slice(line.start, line.end);
      if (content.startsWith('%') || content.startsWith('...')) unsupported();
      if (content.startsWith('---')) {
        if (content.trimEnd() !== '---') unsupported();
        if (started) index++;
        started = true;
        this.at++;
        continue;
      }
      if (line.indent !== 0) unsupported();
      started = true;
      const value = this.mapping(this.at, 0, -1);
      out.push({ index, value });
      this.skipBlank();
      // The next line must open another document.
      if (this.at < this.lines.length && !this.isSeparator(this.lines[this.at]!)) unsupported();
    }
    return out;
  }

  private isSeparator(line: Line): boolean {
    return line.indent === 0 && this.text.startsWith('---', line.start);
  }

  /** skipBlank moves past empty and comment-only lines. */
  private skipBlank(): void {
    while (this.at < this.lines.length && this.isBlank(this.lines[this.at]!)) this.at++;
  }

  private isBlank(line: Line): boolean {
    const i = line.start + line.indent;
    return i >= line.end || this.text.charCodeAt(i) === 35;
  }

  /** nextContent is the next non-blank line at or after `from` (this.lines.length when none). */
  private nextContent(from: number): number {
    let i = from;
    while (i < this.lines.length && this.isBlank(this.lines[i]!)) i++;
    return i;
  }

  /** node reads the block node whose content starts at column `col` of line `lineNo`, inside a parent at `parentIndent`. */
  private node(lineNo: number, col: number, parentIndent: number): Json {
    const line = this.lines[lineNo]!;
    const from = line.start + col;
    if (this.isSequenceEntry(from, line.end)) return this.sequence(lineNo, col, parentIndent);
    if (this.keyEnd(from, line.end) !== undefined) return this.mapping(lineNo, col, parentIndent);
    return this.inline(lineNo, from, parentIndent);
  }

  private isSequenceEntry(from: number, end: number): boolean {
    return this.text.charCodeAt(from) === 45 && (from + 1 >= end || this.text.charCodeAt(from + 1) === 32);
  }

  /** mapping reads a block mapping whose first key is at column `col` of line `lineNo`; later keys are lines indented `col`. */
  private mapping(lineNo: number, col: number, parentIndent: number): Json {
    if (col <= parentIndent) unsupported();
    const out: { [key: string]: Json } = {};
    let i = lineNo;
    let from = this.lines[i]!.start + col;
    for (;;) {
      const line = this.lines[i]!;
      const colon = this.keyEnd(from, line.end) ?? unsupported();
      const key = this.key(from, colon);
      if (Object.hasOwn(out, key)) unsupported();
      this.at = i + 1;
      const value = this.value(i, colon + 1, col);
      Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      const next = this.sibling(col);
      if (next === undefined) break;
      i = next;
      from = this.lines[i]!.start + col;
    }
    return out;
  }

  /** value reads a mapping value that starts after the colon at `from` on line `lineNo`, for a key at `keyIndent`. */
  private value(lineNo: number, from: number, keyIndent: number): Json {
    const line = this.lines[lineNo]!;
    let i = from;
    while (i < line.end && this.text.charCodeAt(i) === 32) i++;
    if (i >= line.end || this.text.charCodeAt(i) === 35) return this.below(lineNo, keyIndent, true);
    return this.inline(lineNo, i, keyIndent);
  }

  /** below reads the value on the lines after a key or `-` with nothing after it: a nested node, or null. */
  private below(lineNo: number, indent: number, sequenceMayAlign: boolean): Json {
    const i = this.nextContent(lineNo + 1);
    if (i >= this.lines.length) {
      this.at = i;
      return null;
    }
    const next = this.lines[i]!;
    if (next.indent > indent && !(next.indent === 0 && this.isSeparator(next))) return this.node(i, next.indent, indent);
    // A mapping's sequence value may start at the key's own indentation.
    if (sequenceMayAlign && next.indent === indent && this.isSequenceEntry(next.start + indent, next.end)) return this.sequence(i, indent, indent - 1);
    this.at = lineNo + 1;
    return null;
  }

  /** sequence reads a block sequence whose first `-` is at column `col` of line `lineNo`. */
  private sequence(lineNo: number, col: number, parentIndent: number): Json {
    if (col <= parentIndent) unsupported();
    const out: Json[] = [];
    let i = lineNo;
    let from = this.lines[i]!.start + col;
    for (;;) {
      const line = this.lines[i]!;
      if (!this.isSequenceEntry(from, line.end)) break;
      let j = from + 1;
      while (j < line.end && this.text.charCodeAt(j) === 32) j++;
      if (j >= line.end || this.text.charCodeAt(j) === 35) {
        out.push(this.below(i, col, false));
      } else {
        this.at = i + 1;
        out.push(this.node(i, j - line.start, col));
      }
      const next = this.sibling(col);
      if (next === undefined) break;
      i = next;
      from = this.lines[i]!.start + col;
    }
    return out;
  }

  /**
   * sibling finds the next entry of a block at column `col`: the next content line, unless it ends the block (less
   * indented, or a document separator). The reader is left on that line either way.
   */
  private sibling(col: number): number | undefined {
    const i = this.nextContent(this.at);
    this.at = i;
    if (i >= this.lines.length) return undefined;
    const next = this.lines[i]!;
    if (next.indent < col || (next.indent === 0 && this.isSeparator(next))) return undefined;
    if (next.indent > col) unsupported();
    return i;
  }

  /** inline reads a value that sits on one line from `from`: a block scalar header, a flow collection or a scalar. */
  private inline(lineNo: number, from: number, parentIndent: number): Json {
    const line = this.lines[lineNo]!;
    const c = this.text[from]!;
    this.at = lineNo + 1;
    if (c === '|') return this.literal(lineNo, from, parentIndent);
    let value: Json;
    let end: number;
    if (c === '[' || c === '{') [value, end] = new FlowReader(this.text, line.end, this.scalars).read(from);
    else if (c === '"' || c === "'") [value, end] = quoted(this.text, from, line.end);
    else {
      // `-5` and `-foo` are plain scalars; every other indicator needs the full parser.
      if (PLAIN_START.test(c) && !(c === '-' && from + 1 < line.end && this.text.charCodeAt(from + 1) !== 32)) unsupported();
      end = plainEnd(this.text, from, line.end);
      const source = this.text.slice(from, end);
      if (source.includes(': ') || source.endsWith(':') || source.includes('\t')) unsupported();
      value = this.scalars.resolve(source);
    }
    restIsComment(this.text, end, line.end);
    // A more indented line after a one-line value would continue it (a multi-line scalar): the full parser's job.
    const next = this.nextContent(lineNo + 1);
    if (next < this.lines.length && this.lines[next]!.indent > parentIndent) unsupported();
    return value;
  }

  /** literal reads a `|`, `|-` or `|+` block scalar; its lines are those indented more than the parent. */
  private literal(lineNo: number, from: number, parentIndent: number): Json {
    const line = this.lines[lineNo]!;
    let h = from + 1;
    const chomp = this.text[h] === '-' || this.text[h] === '+' ? this.text[h++] : '';
    restIsComment(this.text, h, line.end);
    const body: string[] = [];
    let contentIndent = -1;
    let i = lineNo + 1;
    for (; i < this.lines.length; i++) {
      const l = this.lines[i]!;
      if (l.start + l.indent >= l.end) {
        // A line of spaces only: empty, unless it has more spaces than the indentation (content, or before the first
        // line an indentation hint): the full parser's job.
        if (l.indent > Math.max(contentIndent, 0)) unsupported();
        body.push('');
        continue;
      }
      if (contentIndent < 0) {
        if (l.indent <= parentIndent) break;
        contentIndent = l.indent;
      } else if (l.indent < contentIndent) break;
      body.push(this.text.slice(l.start + contentIndent, l.end));
    }
    // The scalar's last line break must be in the text (a file ending inside it keeps the full parser's reading).
    if (i >= this.lines.length && !this.text.endsWith('\n')) unsupported();
    let last = body.length;
    while (last > 0 && body[last - 1] === '') last--;
    const kept = body.slice(0, last);
    this.at = i;
    if (kept.length === 0) return chomp === '+' ? body.map(() => '\n').join('') : '';
    const text = kept.join('\n');
    if (chomp === '-') return text;
    if (chomp === '+') return `${text}\n${body.slice(last).map(() => '\n').join('')}`;
    return `${text}\n`;
  }

  /**
   * keyEnd finds the colon that ends a mapping key starting at `from` (a plain or quoted key followed by `: ` or a
   * colon at the end of the line); undefined when the line is not a mapping entry.
   */
  private keyEnd(from: number, end: number): number | undefined {
    const c = this.text[from];
    if (c === '"' || c === "'") {
      let close: number;
      try {
        close = quoted(this.text, from, end)[1];
      } catch {
        return undefined;
      }
      return this.text[close] === ':' && (close + 1 >= end || this.text.charCodeAt(close + 1) === 32) ? close : undefined;
    }
    for (let i = from; i < end; i++) {
      const ch = this.text.charCodeAt(i);
      if (ch === 35 && i > from && this.text.charCodeAt(i - 1) === 32) return undefined;
      if (ch === 58 && (i + 1 >= end || this.text.charCodeAt(i + 1) === 32)) return i;
    }
    return undefined;
  }

  /** key reads the key between `from` and its colon, as the string JSON holds. */
  private key(from: number, colon: number): string {
    const c = this.text[from]!;
    if (c === '"' || c === "'") return quoted(this.text, from, colon)[0] as string;
    const source = this.text.slice(from, colon).trimEnd();
    if (source === '' || PLAIN_START.test(source) || source === '<<' || source.includes('\t') || source.includes(' #')) unsupported();
    return this.scalars.key(source);
  }
}
