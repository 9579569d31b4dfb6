// The schema checker of our own kinds: typed reads of a document's fields whose errors name the line and the problem.
import { appendFieldPath, nearestName, parentPaths } from '../api/fieldpath';
import { isObject } from '../api/types';
import { InputError, OWN_API_VERSION } from './inputs';
import type { SecondsOrNever, SourceDocument } from './inputs';

/** Fields is a mapping read from YAML. */
export type Fields = Record<string, unknown>;

/** Checker reads the typed fields of one document, throwing InputError at the offending line. */
export class Checker {
  constructor(readonly doc: SourceDocument) {}

  /** line is the one-based line of a field (its key or value), or of its nearest ancestor that has a range. */
  line(path: string, at: 'key' | 'value' = 'value'): number {
    for (const candidate of path === '' ? [] : [path, ...parentPaths(path)]) {
      const range = this.doc.fields.get(candidate);
      if (range) return ((at === 'key' && range.key) || range.value).start.line + 1;
    }
    return this.doc.range.start.line + 1;
  }

  /** raise throws the problem as it is, at the field's value. */
  raise(path: string, problem: string): never {
    throw new InputError(this.doc.file, this.line(path), problem);
  }

  /** fail throws `path: problem` at the field's value. */
  fail(path: string, problem: string): never {
    return this.raise(path, path === '' ? problem : `${path}: ${problem}`);
  }

  /** expect throws the standard type mismatch message. */
  expect(path: string, wanted: string, value: unknown): never {
    return this.fail(path, `expected ${wanted}, got ${describeValue(value)}`);
  }

  /** kind requires the document to be the given own kind. */
  kind(expected: string): void {
    const { apiVersion, kind } = this.doc.object;
    if (apiVersion !== OWN_API_VERSION || kind !== expected) {
      this.fail('kind', `expected a ${expected} (apiVersion: ${OWN_API_VERSION}), got ${kind ?? ''} (apiVersion: ${apiVersion ?? ''})`);
    }
  }

  /** known rejects fields outside `allowed`, suggesting the nearest valid name. */
  known(path: string, value: Fields, allowed: readonly string[]): void {
    for (const name of Object.keys(value)) {
      if (allowed.includes(name)) continue;
      const near = nearestName(name, allowed);
      const problem = `unknown field ${JSON.stringify(name)}${near ? ` (did you mean ${JSON.stringify(near)}?)` : ''}`;
      throw new InputError(this.doc.file, this.line(appendFieldPath(path, name), 'key'), path === '' ? problem : `${path}: ${problem}`);
    }
  }

  /** mapping checks an optional mapping (null counts as absent). */
  mapping(path: string, value: unknown): Fields | undefined {
    if (value === null || value === undefined) return undefined;
    return isObject(value) ? value : this.expect(path, 'a mapping', value);
  }

  /** named reads a mapping of name → entry, each entry a mapping of `allowed` fields read by `read`. */
  named<T>(path: string, value: unknown, allowed: readonly string[], read: (path: string, entry: Fields) => T): Record<string, T> | undefined {
    const map = this.mapping(path, value);
    if (!map) return undefined;
    const out: Record<string, T> = {};
    for (const [name, raw] of Object.entries(map)) {
      const entryPath = appendFieldPath(path, name);
      const entry = this.mapping(entryPath, raw) ?? {};
      this.known(entryPath, entry, allowed);
      Object.defineProperty(out, name, { value: read(entryPath, entry), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }

  /** string checks an optional string. */
  string(path: string, value: unknown): string | undefined {
    if (value === null || value === undefined) return undefined;
    return typeof value === 'string' ? value : this.expect(path, 'a string', value);
  }

  /** boolean checks an optional boolean. */
  boolean(path: string, value: unknown): boolean | undefined {
    if (value === null || value === undefined) return undefined;
    return typeof value === 'boolean' ? value : this.expect(path, 'a boolean', value);
  }

  /** number checks an optional number (any sign). */
  number(path: string, value: unknown): number | undefined {
    if (value === null || value === undefined) return undefined;
    return typeof value === 'number' && Number.isFinite(value) ? value : this.expect(path, 'a number', value);
  }

  /** seconds checks an optional non-negative number of seconds. */
  seconds(path: string, value: unknown): number | undefined {
    if (value === null || value === undefined) return undefined;
    if (typeof value !== 'number') return this.expect(path, 'a number', value);
    return value >= 0 ? value : this.expect(path, 'a non-negative number', value);
  }

  /** secondsOrNever checks seconds, or the word `never`. */
  secondsOrNever(path: string, value: unknown): SecondsOrNever | undefined {
    if (value === 'never') return 'never';
    return typeof value === 'string' ? this.expect(path, 'a number or never', value) : this.seconds(path, value);
  }

  /** strings checks an optional sequence of strings. */
  strings(path: string, value: unknown): string[] | undefined {
    if (value === null || value === undefined) return undefined;
    if (!Array.isArray(value)) return this.expect(path, 'a sequence of strings', value);
    return value.map((item: unknown, i) => this.string(appendFieldPath(path, i), item) ?? this.expect(appendFieldPath(path, i), 'a string', item));
  }

  /** oneOf checks an optional string from a fixed set. */
  oneOf<T extends string>(path: string, value: unknown, choices: readonly T[]): T | undefined {
    if (value === null || value === undefined) return undefined;
    if (typeof value === 'string' && (choices as readonly string[]).includes(value)) return value as T;
    return this.expect(path, `one of ${choices.map((choice) => JSON.stringify(choice)).join(', ')}`, value);
  }
}

/** compact drops the keys whose value is undefined, so that a merge keeps what came before. */

/** compact drops the fields left undefined. */
export function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** describeValue names a value's type and content for messages: `string "three"`, `number 3`, `a mapping`. */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'a sequence';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return `string ${JSON.stringify(value)}`;
  return `${typeof value} ${String(value)}`;
}

/** guard turns anything unexpected thrown while reading a document into an InputError at its start. */
export function guard<T>(doc: SourceDocument, read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw new InputError(doc.file, doc.range.start.line + 1, err instanceof Error ? err.message : String(err));
  }
}
