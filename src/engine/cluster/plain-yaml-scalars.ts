// The pieces of the plain-YAML reader (plain-yaml.ts) that read one value on one line: plain scalars resolved as go-yaml
// v2 does, quoted scalars, one-line flow collections; and the signal that the full parser must read the file instead.
import { resolvePlain } from './go-yaml';
import { goMapKey } from './go-yaml-json';
import type { RangeKeeper } from './plain-yaml-ranges';

/** Json is a value the reader builds. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Unsupported stops the fast reader: the file needs the full parser. */
export class Unsupported extends Error {}

export const unsupported = (): never => {
  throw new Unsupported();
};

/**
 * KEYWORDS are the plain scalars, lower-cased, that go-yaml may read as null or a boolean: every other plain scalar
 * starting with a letter is a string (resolve.go: only y, n, t, f, o and ~ start words of resolveMap, and a letter
 * never starts a number).
 */
const KEYWORDS = new Set(['null', 'true', 'false', 'yes', 'no', 'on', 'off', 'y', 'n']);

/** PLAIN_START is a character a plain scalar may not start with (an indicator). */
export const PLAIN_START = /^[-?:,[\]{}#&*!|>'"%@`]/;

/** ScalarResolver resolves a plain scalar as go-yaml does (resolvePlain), remembering each answer. */
export class ScalarResolver {
  private readonly known = new Map<string, Json>();

  /** resolve is the value of a plain scalar (never empty). */
  resolve(source: string): Json {
    if (startsWord(source)) return source;
    const known = this.known.get(source);
    if (known !== undefined || this.known.has(source)) return known!;
    const value = resolvePlain(source).value;
    // NaN and the infinities have a message of their own in the full reader.
    if (typeof value === 'number' && !Number.isFinite(value)) return unsupported();
    this.known.set(source, value);
    return value;
  }

  /** key is a plain map key as sigs.k8s.io/yaml writes it out (goMapKey); a null or uint64 key needs the full reader. */
  key(source: string): string {
    if (startsWord(source)) return source;
    const key = goMapKey(resolvePlain(source), { tag: 'null', value: null });
    return typeof key === 'string' ? key : unsupported();
  }
}

/** startsWord: a plain scalar starting with a letter is a string unless it is one of the keywords. */
function startsWord(source: string): boolean {
  const c = source.charCodeAt(0);
  return ((c >= 97 && c <= 122) || (c >= 65 && c <= 90)) && !(source.length <= 5 && KEYWORDS.has(source.toLowerCase()));
}

/** plainEnd is where a one-line plain scalar ends: before a ` #` comment or trailing spaces. */
export function plainEnd(text: string, from: number, end: number): number {
  let stop = end;
  for (let i = from + 1; i < end; i++) {
    if (text.charCodeAt(i) === 35 && (text.charCodeAt(i - 1) === 32 || text.charCodeAt(i - 1) === 9)) {
      stop = i;
      break;
    }
  }
  while (stop > from && (text.charCodeAt(stop - 1) === 32 || text.charCodeAt(stop - 1) === 9)) stop--;
  return stop;
}

/** restIsComment requires nothing but spaces and a comment after a value. */
export function restIsComment(text: string, from: number, end: number): void {
  let i = from;
  while (i < end && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++;
  if (i < end && !(text.charCodeAt(i) === 35 && i > from)) unsupported();
}

/** quoted reads a one-line quoted scalar at `from`, returning its value and the offset after the closing quote. */
export function quoted(text: string, from: number, end: number): [string, number] {
  const q = text[from];
  if (q === "'") {
    let i = from + 1;
    for (;;) {
      const close = text.indexOf("'", i);
      if (close < 0 || close >= end) return unsupported();
      if (text[close + 1] === "'") {
        i = close + 2;
        continue;
      }
      return [text.slice(from + 1, close).replaceAll("''", "'"), close + 1];
    }
  }
  let i = from + 1;
  let escaped = false;
  for (; i < end; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 92) {
      escaped = true;
      i++;
    } else if (ch === 34) break;
  }
  if (i >= end) return unsupported();
  const inner = text.slice(from + 1, i);
  if (!escaped) {
    if (inner.includes('\t')) unsupported();
    return [inner, i + 1];
  }
  // JSON's escapes mean the same in YAML; YAML's others (\x, \e, \N, \_, a line break) need the full parser.
  let value: unknown;
  try {
    value = JSON.parse(`"${inner}"`);
  } catch {
    return unsupported();
  }
  return [value as string, i + 1];
}

/**
 * FlowReader reads a flow collection that ends on its line: `[a, b]`, `{k: v}`, nested, with one-line scalars; with a
 * RangeKeeper, it records their ranges on that line (`line`).
 */
export class FlowReader {
  /** stop is where the value item() read last ends, before the spaces after it. */
  private stop = 0;

  constructor(
    private readonly text: string,
    private readonly end: number,
    private readonly scalars: ScalarResolver,
    private readonly ranges?: RangeKeeper,
    private readonly line = 0,
  ) {}

  /** read reads the collection opening at `from`, whose field path is `path`; it gives the offset after its end. */
  read(from: number, path = ''): [Json, number] {
    const open = this.text[from];
    const close = open === '[' ? ']' : '}';
    const list: Json[] = [];
    const map: { [key: string]: Json } = {};
    let i = this.space(from + 1);
    if (this.text[i] === close) return [open === '[' ? list : map, i + 1];
    for (;;) {
      if (open === '[') {
        const child = this.ranges ? this.ranges.reserve(path, list.length) : '';
        const [item, after] = this.item(i, false, child);
        this.ranges?.flowItem(child, this.line, i, this.stop);
        list.push(item);
        i = after;
      } else {
        const [key, afterKey] = this.item(i, true);
        const keyStop = this.stop;
        if (this.text[afterKey] !== ':' || this.text.charCodeAt(afterKey + 1) !== 32) unsupported();
        if (typeof key !== 'string' || Object.hasOwn(map, key)) unsupported();
        const child = this.ranges ? this.ranges.reserve(path, key as string) : '';
        const valueFrom = this.space(afterKey + 1);
        const [value, after] = this.item(valueFrom, false, child);
        this.ranges?.flowField(child, this.line, i, keyStop, valueFrom, this.stop);
        Object.defineProperty(map, String(key), { value, enumerable: true, writable: true, configurable: true });
        i = after;
      }
      i = this.space(i);
      if (this.text[i] === close) return [open === '[' ? list : map, i + 1];
      if (this.text[i] !== ',') unsupported();
      i = this.space(i + 1);
      // A trailing comma or an empty entry needs the full parser.
      if (this.text[i] === close || this.text[i] === ',') unsupported();
    }
  }

  /** space skips spaces from `from`; the collection must go on after them. */
  private space(from: number): number {
    let i = from;
    while (i < this.end && this.text.charCodeAt(i) === 32) i++;
    if (i >= this.end) unsupported();
    return i;
  }

  /** item reads one flow value (or key) at `from`, whose path is `path`: a nested collection, a quoted or a plain scalar. */
  private item(from: number, isKey = false, path = ''): [Json, number] {
    const c = this.text[from]!;
    if (c === '[' || c === '{') {
      if (isKey) unsupported();
      const read = this.read(from, path);
      this.stop = read[1];
      return read;
    }
    if (c === '"' || c === "'") {
      const [value, after] = quoted(this.text, from, this.end);
      this.stop = after;
      return [value, this.space(after)];
    }
    if (PLAIN_START.test(c)) unsupported();
    let i = from;
    for (; i < this.end; i++) {
      const ch = this.text[i]!;
      if (ch === ',' || ch === ']' || ch === '}' || ch === '[' || ch === '{') break;
      if (ch === ':' && (i + 1 >= this.end || ' ,[]{}'.includes(this.text[i + 1]!))) break;
      if (ch === '#' && this.text.charCodeAt(i - 1) === 32) unsupported();
    }
    let stop = i;
    while (stop > from && this.text.charCodeAt(stop - 1) === 32) stop--;
    const source = this.text.slice(from, stop);
    // A colon inside stays (`containerd://2.1`); one before a space or a flow indicator ended the scalar above.
    if (source === '' || source.includes('\t') || source.endsWith(':')) unsupported();
    this.stop = stop;
    return [isKey ? this.scalars.key(source) : this.scalars.resolve(source), this.space(i)];
  }
}
