// Field errors as apimachinery's field.Error prints them (`spec.containers[0].image: Required value`), and the
// field.Path helpers that build their paths. See staging/src/k8s.io/apimachinery/pkg/util/validation/field/errors.go.
import type { StatusCause } from '../request';
import { goJsonStringBody, goQuote } from '../decode-go';

/** FieldErrorType is field.ErrorType: the reason of a cause and the words its body starts with. */
export type FieldErrorType =
  | 'FieldValueRequired' | 'FieldValueInvalid' | 'FieldValueNotSupported' | 'FieldValueDuplicate' | 'FieldValueForbidden'
  | 'FieldValueTooLong' | 'FieldValueNotFound' | 'FieldValueTooMany';

/** FieldError is one validation error. See staging/src/k8s.io/apimachinery/pkg/util/validation/field/errors.go. */
export interface FieldError {
  type: FieldErrorType;
  field: string;
  /** body is ErrorBody(): the type's words, the value when it has one, and the detail. */
  body: string;
}

/**
 * GoJSONValue wraps a bad value Go holds as something other than a plain string, an integer or a bool: a named string
 * type (core.Protocol), a pointer, a slice or a struct. ErrorBody prints those with json.Marshal, so a named string is
 * JSON-quoted (`"UDPX"`, HTML characters escaped) where a plain string is %q-quoted.
 */
export class GoJSONValue {
  constructor(readonly value: unknown) {}
}

/** asJSON marks a bad value that ErrorBody renders with json.Marshal (see GoJSONValue). */
export function asJSON(value: unknown): GoJSONValue {
  return new GoJSONValue(value);
}

/** required is field.Required: `Required value`, or `Required value: <detail>`. */
/** FIELD_IMMUTABLE is apimachinery's FieldImmutableErrorMsg (staging/src/k8s.io/apimachinery/pkg/api/validation/generic.go, v0.36.3). */
export const FIELD_IMMUTABLE = 'field is immutable';

export function required(field: string, detail = ''): FieldError {
  return { type: 'FieldValueRequired', field, body: withDetail('Required value', detail) };
}

/** invalidValue is field.Invalid: `Invalid value: "Web": <detail>` (strings %q-quoted, numbers bare). */
export function invalidValue(field: string, value: unknown, detail: string): FieldError {
  return { type: 'FieldValueInvalid', field, body: withDetail(`Invalid value: ${formatValue(value)}`, detail) };
}

/** notSupported is field.NotSupported: `Unsupported value: "x": supported values: "a", "b"`, values as strconv.Quote writes them. */
export function notSupported(field: string, value: unknown, supported: readonly string[]): FieldError {
  const detail = supported.length ? `supported values: ${supported.map(goQuote).join(', ')}` : '';
  return { type: 'FieldValueNotSupported', field, body: withDetail(`Unsupported value: ${formatValue(value)}`, detail) };
}

/** duplicate is field.Duplicate: `Duplicate value: "app"`. */
export function duplicate(field: string, value: unknown): FieldError {
  return { type: 'FieldValueDuplicate', field, body: `Duplicate value: ${formatValue(value)}` };
}

/** forbidden is field.Forbidden: `Forbidden: <detail>`; the value is never printed. */
export function forbidden(field: string, detail: string): FieldError {
  return { type: 'FieldValueForbidden', field, body: withDetail('Forbidden', detail) };
}

/** notFound is field.NotFound: `Not found: "data"`; detail is what a caller sets on the error afterwards. */
export function notFound(field: string, value: unknown, detail = ''): FieldError {
  return { type: 'FieldValueNotFound', field, body: withDetail(`Not found: ${formatValue(value)}`, detail) };
}

/** tooLong is field.TooLong: `Too long: may not be more than 4095 bytes` (the value is omitted). */
export function tooLong(field: string, maxLength: number): FieldError {
  const detail = maxLength >= 0 ? `may not be more than ${maxLength} ${maxLength === 1 ? 'byte' : 'bytes'}` : 'value is too long';
  return { type: 'FieldValueTooLong', field, body: withDetail('Too long', detail) };
}

/** tooMany is field.TooMany: `Too many: 21: must have at most 20 items`. */
export function tooMany(field: string, actual: number, max: number): FieldError {
  const detail = max >= 0 ? `must have at most ${max} ${max === 1 ? 'item' : 'items'}` : 'has too many items';
  const head = actual >= 0 ? `Too many: ${actual}` : 'Too many';
  return { type: 'FieldValueTooMany', field, body: withDetail(head, detail) };
}

/** toCauses turns field errors into the causes of an Invalid status. */
export function toCauses(errors: FieldError[]): StatusCause[] {
  return errors.map((e) => ({ reason: e.type, message: e.body, field: e.field }));
}

/**
 * formatValue prints a bad value as ErrorBody does: a string with %q, an integer or a bool with %v, a missing value as
 * null, and anything else (GoJSONValue, arrays, objects) with json.Marshal.
 */
export function formatValue(value: unknown): string {
  if (value instanceof GoJSONValue) return goJSONMarshal(value.value);
  if (typeof value === 'string') return goQuote(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return goJSONMarshal(value);
}

/** goJSONMarshal is encoding/json's Marshal of a JSON value: compact, strings with <, > and & escaped. */
export function goJSONMarshal(value: unknown): string {
  if (value === undefined || value === null) return 'null';
  if (typeof value === 'string') return `"${goJsonStringBody(value)}"`;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (Array.isArray(value)) return `[${value.map(goJSONMarshal).join(',')}]`;
  if (typeof value === 'object') {
    const fields = Object.entries(value as Record<string, unknown>).map(([k, v]) => `"${goJsonStringBody(k)}":${goJSONMarshal(v)}`);
    return `{${fields.join(',')}}`;
  }
  return 'null';
}

function withDetail(head: string, detail: string): string {
  return detail ? `${head}: ${detail}` : head;
}

// field.Path printing: Child adds `.name`, Index `[i]`, Key `[key]` (unquoted).
/** child is Path.Child: `spec.containers`. */
export const child = (path: string, name: string, ...more: string[]): string => (more.length === 0 ? `${path}.${name}` : `${path}.${name}.${more.join('.')}`);
/** index is Path.Index: `spec.containers[0]`. */
export const index = (path: string, i: number): string => `${path}[${i}]`;
/** key is Path.Key: `spec.nodeSelector[disktype]`. */
export const key = (path: string, k: string): string => `${path}[${k}]`;
