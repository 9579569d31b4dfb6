// The small, safe expression language of breakpoint conditions and logpoint interpolation:
// `node == "worker-2" && plugin != "TaintToleration"`, `!ready`, `exitCode >= 1`. No calls, no assignment.
import type { PathSegment } from '../engine/api/fieldpath';

/** Expression is a parsed expression, ready to evaluate against any scope. */
export type Expression =
  | { kind: 'literal'; value: string | number | boolean | null }
  | { kind: 'path'; path: PathSegment[]; text: string }
  | { kind: 'not'; operand: Expression }
  | { kind: 'binary'; op: BinaryOp; left: Expression; right: Expression };

type BinaryOp = '==' | '!=' | '<' | '<=' | '>' | '>=' | '&&' | '||';

/** Resolve gives the value of an identifier path (`node`, `detail.nodes.worker-1.code`), undefined when it has none. */
export type Resolve = (path: readonly PathSegment[]) => unknown;

/** ExpressionError is an expression that does not parse: the message says where and what was expected. */
export class ExpressionError extends Error {
  constructor(readonly text: string, readonly at: number, problem: string) {
    super(`${problem} at column ${at + 1} of ${JSON.stringify(text)}`);
    this.name = 'ExpressionError';
  }
}

/** ExpressionLimitError is a condition over the size or depth limits; it names the column, not the whole text. */
export class ExpressionLimitError extends ExpressionError {
  constructor(text: string, at: number, problem: string) {
    super(text, at, problem);
    this.message = `${problem} (at column ${at + 1})`;
    this.name = 'ExpressionLimitError';
  }
}

type Token = { kind: 'op' | 'string' | 'number' | 'ident' | 'end'; text: string; value?: string | number; at: number };

const OPERATORS = ['==', '!=', '<=', '>=', '&&', '||', '<', '>', '!', '(', ')', '.', '[', ']'];

/** tokenize splits an expression into operators, literals and identifiers. */
function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (/\s/.test(ch)) { i++; continue; }
    if (ch === '"' || ch === "'") {
      let j = i + 1;
      let value = '';
      while (j < text.length && text[j] !== ch) {
        if (text[j] === '\\' && j + 1 < text.length) j++;
        value += text[j];
        j++;
      }
      if (j >= text.length) throw new ExpressionError(text, i, 'unterminated string');
      tokens.push({ kind: 'string', text: text.slice(i, j + 1), value, at: i });
      i = j + 1;
      continue;
    }
    const number = /^-?\d+(\.\d+)?/.exec(text.slice(i));
    if (number && (ch !== '-' || tokens.at(-1)?.kind === 'op' || tokens.length === 0)) {
      tokens.push({ kind: 'number', text: number[0], value: Number(number[0]), at: i });
      i += number[0].length;
      continue;
    }
    const ident = /^[A-Za-z_][A-Za-z0-9_-]*/.exec(text.slice(i));
    if (ident) {
      tokens.push({ kind: 'ident', text: ident[0], at: i });
      i += ident[0].length;
      continue;
    }
    const op = OPERATORS.find((o) => text.startsWith(o, i));
    if (!op) throw new ExpressionError(text, i, `unexpected ${JSON.stringify(ch)}`);
    tokens.push({ kind: 'op', text: op, at: i });
    i += op.length;
  }
  tokens.push({ kind: 'end', text: '', at: text.length });
  return tokens;
}

/** MAX_NESTING and MAX_TOKENS bound what a condition may hold, so that reading and evaluating it stay shallow. */
const MAX_NESTING = 64;
const MAX_TOKENS = 1000;

/** parseExpression parses a condition; it throws ExpressionError naming the column of the first problem. */
export function parseExpression(text: string): Expression {
  const tokens = tokenize(text);
  if (tokens.length > MAX_TOKENS) throw new ExpressionLimitError(text, tokens[MAX_TOKENS]!.at, `the expression is too long (more than ${MAX_TOKENS} names, values and operators)`);
  let pos = 0;
  let depth = 0;
  const peek = () => tokens[pos]!;
  const isOp = (op: string) => peek().kind === 'op' && peek().text === op;
  const expect = (op: string) => {
    if (!isOp(op)) throw new ExpressionError(text, peek().at, `expected "${op}"`);
    pos++;
  };
  const binary = (next: () => Expression, ops: BinaryOp[]) => (): Expression => {
    let left = next();
    for (let op = ops.find(isOp); op; op = ops.find(isOp)) {
      pos++;
      left = { kind: 'binary', op, left, right: next() };
    }
    return left;
  };
  const primary = (): Expression => {
    const token = peek();
    if (isOp('(') || isOp('!')) {
      if (++depth > MAX_NESTING) throw new ExpressionLimitError(text, token.at, `the expression nests too deeply (more than ${MAX_NESTING} parentheses or "!")`);
      pos++;
      let inner: Expression;
      if (token.text === '(') {
        inner = or();
        expect(')');
      } else inner = { kind: 'not', operand: primary() };
      depth--;
      return inner;
    }
    pos++;
    if (token.kind === 'string' || token.kind === 'number') return { kind: 'literal', value: token.value! };
    if (token.kind !== 'ident') throw new ExpressionError(text, token.at, token.kind === 'end' ? 'expected a value' : `unexpected "${token.text}"`);
    if (token.text === 'true' || token.text === 'false') return { kind: 'literal', value: token.text === 'true' };
    if (token.text === 'null' || token.text === 'undefined') return { kind: 'literal', value: null };
    const path: PathSegment[] = [token.text];
    for (;;) {
      if (isOp('.')) {
        pos++;
        const key = peek();
        if (key.kind !== 'ident' && key.kind !== 'number') throw new ExpressionError(text, key.at, 'expected a field name after "."');
        path.push(key.text);
        pos++;
      } else if (isOp('[')) {
        pos++;
        const key = peek();
        if (key.kind !== 'string' && key.kind !== 'number') throw new ExpressionError(text, key.at, 'expected an index or a quoted key');
        path.push(key.value!);
        pos++;
        expect(']');
      } else break;
    }
    return { kind: 'path', path, text: text.slice(token.at, peek().at).trim() };
  };
  const comparison = binary(primary, ['==', '!=', '<=', '>=', '<', '>']);
  const and = binary(comparison, ['&&']);
  const or = binary(and, ['||']);
  const result = or();
  if (peek().kind !== 'end') throw new ExpressionError(text, peek().at, `unexpected "${peek().text}"`);
  return result;
}

/** evaluate computes an expression's value; identifiers come from `resolve`, unknown ones are undefined. */
export function evaluate(expr: Expression, resolve: Resolve): unknown {
  switch (expr.kind) {
    case 'literal': return expr.value;
    case 'path': return resolve(expr.path);
    case 'not': return !truthy(evaluate(expr.operand, resolve));
    case 'binary': {
      if (expr.op === '&&') return truthy(evaluate(expr.left, resolve)) && truthy(evaluate(expr.right, resolve));
      if (expr.op === '||') return truthy(evaluate(expr.left, resolve)) || truthy(evaluate(expr.right, resolve));
      return compare(expr.op, evaluate(expr.left, resolve), evaluate(expr.right, resolve));
    }
  }
}

/** truthy: false, 0, "", null, undefined and empty lists are false; everything else is true. */
export function truthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  return Boolean(value);
}

/**
 * compare applies a comparison. `==` between a list and a value asks whether the list holds it, so
 * `node == "worker-2"` holds on a filter plugin's entry whose node table has worker-2; a number and a
 * numeric string compare as numbers.
 */
function compare(op: BinaryOp, left: unknown, right: unknown): boolean {
  if (op === '==' || op === '!=') {
    const equal = Array.isArray(left) ? left.some((v) => same(v, right)) : Array.isArray(right) ? right.some((v) => same(left, v)) : same(left, right);
    return op === '==' ? equal : !equal;
  }
  const a = toNumber(left);
  const b = toNumber(right);
  if (a === undefined || b === undefined) return false;
  return op === '<' ? a < b : op === '<=' ? a <= b : op === '>' ? a > b : a >= b;
}

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if ((a === undefined || a === null) && (b === undefined || b === null)) return true;
  if (typeof a === 'number' || typeof b === 'number') {
    const x = toNumber(a);
    return x !== undefined && x === toNumber(b);
  }
  return false;
}

function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value))) return Number(value);
  return undefined;
}

/** display renders a value for a logpoint: strings as they are, other values as JSON. */
export function display(value: unknown): string {
  if (value === undefined) return 'undefined';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** interpolate fills the `{expression}` parts of a logpoint message; a bad expression shows its error in place. */
export function interpolate(template: string, resolve: Resolve): string {
  return template.replace(/\{([^{}]+)\}/g, (_m, source: string) => {
    try {
      return display(evaluate(parseExpression(source), resolve));
    } catch (err) {
      return `<${err instanceof Error ? err.message : String(err)}>`;
    }
  });
}

/** walk follows a path into a JSON value. */
export function walk(value: unknown, path: readonly PathSegment[]): unknown {
  let at: unknown = value;
  for (const segment of path) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string | number, unknown>)[segment];
  }
  return at;
}
