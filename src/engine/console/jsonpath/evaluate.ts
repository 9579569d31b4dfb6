// Evaluating a parsed JSONPath template over unstructured JSON, and printing its results as kubectl does.
// See staging/src/k8s.io/client-go/util/jsonpath/jsonpath.go and text/template's comparison functions (funcs.go).
import { goJson } from '../format';
import { type JsonPathNode, JsonPathError, type ListNode, parseTemplate } from './parser';

/** Value is a JSON value, or a float written in the template (Go keeps its float64 kind apart from int64). */
export type Value = unknown;

class GoFloat {
  constructor(readonly value: number) {}
}

/** EvalOptions: allowMissingKeys is kubectl's --allow-missing-template-keys (on by default); missingField may throw instead. */
export interface EvalOptions {
  allowMissingKeys: boolean;
  /** missingField is called when a map lacks a field; it may throw a more helpful error than client-go's. */
  missingField?: (map: Record<string, unknown>, node: JsonPathNode & { type: 'field' }) => void;
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof GoFloat);

/** goType names a value's Go type as it appears in client-go's errors. */
export function goType(v: unknown): string {
  if (Array.isArray(v)) return '[]interface {}';
  if (isMap(v)) return 'map[string]interface {}';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  if (v instanceof GoFloat) return 'float64';
  return 'interface {}';
}

/** evalList walks an action's nodes over the current values. */
export function evalList(input: Value[], list: ListNode, opts: EvalOptions): Value[] {
  let cur = input;
  for (const node of list.nodes) cur = evalNode(cur, node, opts);
  return cur;
}

/** evalNode applies one node to every current value. */
export function evalNode(input: Value[], node: JsonPathNode, opts: EvalOptions): Value[] {
  switch (node.type) {
    case 'list': return evalList(input, node, opts);
    case 'text': return [node.text];
    case 'int': return [node.value];
    case 'float': return [new GoFloat(node.value)];
    case 'bool': return [node.value];
    case 'field': return evalField(input, node, opts);
    case 'array': return evalArray(input, node.params);
    case 'filter': return evalFilter(input, node, opts);
    case 'wildcard': return evalWildcard(input);
    case 'recursive': return evalRecursive(input);
    case 'union': return node.lists.flatMap((l) => evalList(input, l, opts));
    case 'identifier': return input;
  }
}

function evalField(input: Value[], node: JsonPathNode & { type: 'field' }, opts: EvalOptions): Value[] {
  const out: Value[] = [];
  if (input.length === 0) return out;
  for (const v of input) {
    if (v === null || v === undefined) continue;
    if (isMap(v)) {
      if (Object.prototype.hasOwnProperty.call(v, node.name)) out.push(v[node.name]);
      else opts.missingField?.(v, node);
    }
  }
  if (out.length === 0 && !opts.allowMissingKeys) throw new JsonPathError(`${node.name} is not found`);
  return out;
}

function evalArray(input: Value[], params: readonly [{ value: number; known: boolean; derived: boolean }, { value: number; known: boolean; derived: boolean }, { value: number; known: boolean; derived: boolean }]): Value[] {
  const out: Value[] = [];
  for (const v of input) {
    if (v === null || v === undefined) continue;
    if (!Array.isArray(v)) throw new JsonPathError(`${goType(v)} is not array or slice`);
    const len = v.length;
    let start = params[0].known ? params[0].value : 0;
    if (start < 0) start += len;
    let end = params[1].known ? params[1].value : len;
    if (end < 0 || (end === 0 && params[1].derived)) end += len;
    if (end === start) return out;
    if (start >= len || start < 0) throw new JsonPathError(`array index out of bounds: index ${start}, length ${len}`);
    if (end > len || end < 0) throw new JsonPathError(`array index out of bounds: index ${end - 1}, length ${len}`);
    if (start > end) throw new JsonPathError(`starting index ${start} is greater than ending index ${end}`);
    let step = 1;
    if (params[2].known) {
      if (params[2].value <= 0) throw new JsonPathError('step must be > 0');
      step = params[2].value;
    }
    for (let i = start; i < end; i += step) out.push(v[i]);
  }
  return out;
}

function evalWildcard(input: Value[]): Value[] {
  const out: Value[] = [];
  for (const v of input) {
    if (Array.isArray(v)) out.push(...v);
    else if (isMap(v)) for (const k of Object.keys(v).sort()) out.push(v[k]);
  }
  return out;
}

function evalRecursive(input: Value[]): Value[] {
  const out: Value[] = [];
  for (const v of input) {
    const children = Array.isArray(v) ? v : isMap(v) ? Object.keys(v).sort().map((k) => v[k]) : [];
    if (children.length === 0) continue;
    out.push(v, ...evalRecursive(children));
  }
  return out;
}

function evalFilter(input: Value[], node: JsonPathNode & { type: 'filter' }, opts: EvalOptions): Value[] {
  const out: Value[] = [];
  for (const v of input) {
    if (!Array.isArray(v)) throw new JsonPathError(`${goValue(v)} is not array or slice and cannot be filtered`);
    for (const item of v) {
      const temp = [item];
      if (node.op === 'exists') {
        let lefts: Value[] = [];
        try {
          lefts = evalList(temp, node.left, { allowMissingKeys: opts.allowMissingKeys });
        } catch {
          lefts = [];
        }
        if (lefts.length > 0) out.push(item);
        continue;
      }
      const lefts = evalList(temp, node.left, { allowMissingKeys: opts.allowMissingKeys });
      if (lefts.length === 0) continue;
      if (lefts.length > 1) throw new JsonPathError('can only compare one element at a time');
      const rights = evalList(temp, node.right, { allowMissingKeys: opts.allowMissingKeys });
      if (rights.length === 0) continue;
      if (rights.length > 1) throw new JsonPathError('can only compare one element at a time');
      if (compare(node.op, lefts[0], rights[0])) out.push(item);
    }
  }
  return out;
}

type BasicKind = 'bool' | 'int' | 'float' | 'string';

function basicKind(v: Value): BasicKind {
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  if (v instanceof GoFloat) return 'float';
  throw new JsonPathError('invalid type for comparison');
}

const num = (v: Value): number => (v instanceof GoFloat ? v.value : (v as number));

/** compare is text/template's eq, ne, lt, le, gt, ge on basic kinds; mixed kinds are incompatible. */
function compare(op: string, a: Value, b: Value): boolean {
  const ka = basicKind(a);
  const kb = basicKind(b);
  if (ka !== kb) {
    if (op === '==' || op === '!=') throw new JsonPathError('incompatible types for comparison');
    throw new JsonPathError('incompatible types for comparison');
  }
  const x = ka === 'int' || ka === 'float' ? num(a) : a;
  const y = kb === 'int' || kb === 'float' ? num(b) : b;
  switch (op) {
    case '==': return x === y;
    case '!=': return x !== y;
  }
  if (ka === 'bool') throw new JsonPathError('invalid type for comparison');
  const lt = (x as number | string) < (y as number | string);
  switch (op) {
    case '<': return lt;
    case '<=': return lt || x === y;
    case '>': return !lt && x !== y;
    case '>=': return !lt;
    default: throw new JsonPathError(`unrecognized filter operator ${op}`);
  }
}

/** goValue prints a value as Go's %v of an unstructured value, for client-go's error messages. */
function goValue(v: Value): string {
  if (v instanceof GoFloat) return String(v.value);
  if (isMap(v)) return `map[${Object.keys(v).sort().map((k) => `${k}:${goValue(v[k])}`).join(' ')}]`;
  if (Array.isArray(v)) return `[${v.map(goValue).join(' ')}]`;
  if (v === null || v === undefined) return '<nil>';
  return String(v);
}

/** findResults runs the template's actions over the data, expanding range ... end blocks. */
export function findResults(nodes: readonly JsonPathNode[], data: Value, opts: EvalOptions): Value[][] {
  const out: Value[][] = [];
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i]!;
    const isRange = node.type === 'list' && node.nodes.some((n) => n.type === 'identifier' && n.name === 'range');
    const isEnd = node.type === 'list' && node.nodes.some((n) => n.type === 'identifier' && n.name === 'end');
    if (isEnd) continue;
    const results = evalNode([data], node, opts);
    if (!isRange) {
      out.push(results);
      continue;
    }
    const close = matchingEnd(nodes, i);
    const body = nodes.slice(i + 1, close);
    for (const value of results) out.push(...findResults(body, value, opts));
    i = close;
  }
  return out;
}

function matchingEnd(nodes: readonly JsonPathNode[], open: number): number {
  let depth = 0;
  for (let k = open + 1; k < nodes.length; k++) {
    const n = nodes[k]!;
    if (n.type !== 'list') continue;
    if (n.nodes.some((x) => x.type === 'identifier' && x.name === 'range')) depth++;
    if (n.nodes.some((x) => x.type === 'identifier' && x.name === 'end')) {
      if (depth === 0) return k;
      depth--;
    }
  }
  return nodes.length;
}

/**
 * printResults prints one action's results as JSONPath.PrintResults does: maps and lists as compact JSON,
 * everything else as text (null as `null`), several results separated by a space.
 */
export function printResults(results: readonly Value[]): string {
  return results.map((r) => {
    if (Array.isArray(r) || isMap(r)) return goJson(r);
    if (r instanceof GoFloat) return String(r.value);
    if (r === null || r === undefined) return 'null';
    return String(r);
  }).join(' ');
}

/** executeTemplate parses and runs a kubectl -o jsonpath template over an object; throws JsonPathError. */
export function executeTemplate(template: string, data: Value, opts: EvalOptions = { allowMissingKeys: true }): string {
  const nodes = parseTemplate(template);
  try {
    return findResults(nodes, data, opts).map(printResults).join('');
  } catch (e) {
    if (e instanceof JsonPathError) e.executing = true;
    throw e;
  }
}
