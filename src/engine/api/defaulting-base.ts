// The tools scheme defaulting is written with: a Recorder that sets fields on plain JSON objects and writes down each
// path it set, and the readers of loosely typed JSON the defaulting functions share.
import { isObject } from './types';

/** Defaulted is a defaulted copy of an object and the field paths (`spec.containers[0].imagePullPolicy`) defaulting set. */
export interface Defaulted<T> {
  object: T;
  changes: string[];
}

export type Rec = Record<string, unknown>;

/** Recorder sets defaults on plain JSON objects and writes down the path of every field it sets. */
export class Recorder {
  readonly changes: string[] = [];

  /** ifNil sets a field that is absent or null: a nil pointer in the Go type. */
  ifNil(o: Rec, key: string, value: unknown, path: string): void {
    if (o[key] === undefined || o[key] === null) this.set(o, key, value, path);
  }

  /** ifZero sets a field that holds its Go zero value: absent, null, "" or 0. */
  ifZero(o: Rec, key: string, value: unknown, path: string): void {
    const v = o[key];
    if (v === undefined || v === null || v === '' || v === 0) this.set(o, key, value, path);
  }

  set(o: Rec, key: string, value: unknown, path: string): void {
    o[key] = value;
    this.changes.push(`${path}.${key}`);
  }
}

export function rec(value: unknown): Rec | undefined {
  return isObject(value) ? value : undefined;
}

export function list(value: unknown): Rec[] {
  return Array.isArray(value) ? value.filter(isObject) : [];
}

/** ensure returns o[key] as an object, creating an empty one (unrecorded) when it is missing. */
export function ensure(o: Rec, key: string): Rec {
  const existing = rec(o[key]);
  if (existing) return existing;
  const created: Rec = {};
  o[key] = created;
  return created;
}
