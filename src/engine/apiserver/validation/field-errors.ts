// Field errors as apimachinery's field.Error prints them: `spec.containers[0].image: Required value`.
import type { StatusCause } from '../request';

/** FieldErrorType is field.ErrorType: the reason of a cause and the words its body starts with. */
export type FieldErrorType = 'FieldValueRequired' | 'FieldValueInvalid' | 'FieldValueNotSupported' | 'FieldValueDuplicate' | 'FieldValueForbidden' | 'FieldValueTooLong';

/** FieldError is one validation error. See staging/src/k8s.io/apimachinery/pkg/util/validation/field/errors.go. */
export interface FieldError {
  type: FieldErrorType;
  field: string;
  /** body is ErrorBody(): the type's words, the value when it has one, and the detail. */
  body: string;
}

/** required is field.Required: `Required value`, or `Required value: <detail>`. */
export function required(field: string, detail = ''): FieldError {
  return { type: 'FieldValueRequired', field, body: detail ? `Required value: ${detail}` : 'Required value' };
}

/** invalidValue is field.Invalid: `Invalid value: "Web": <detail>` (strings quoted, numbers bare). */
export function invalidValue(field: string, value: unknown, detail: string): FieldError {
  return { type: 'FieldValueInvalid', field, body: `Invalid value: ${formatValue(value)}${detail ? `: ${detail}` : ''}` };
}

/** notSupported is field.NotSupported: `Unsupported value: "x": supported values: "a", "b"`. */
export function notSupported(field: string, value: unknown, supported: string[]): FieldError {
  const list = supported.map((s) => JSON.stringify(s)).join(', ');
  return { type: 'FieldValueNotSupported', field, body: `Unsupported value: ${formatValue(value)}${supported.length ? `: supported values: ${list}` : ''}` };
}

/** duplicate is field.Duplicate: `Duplicate value: "app"`. */
export function duplicate(field: string, value: unknown): FieldError {
  return { type: 'FieldValueDuplicate', field, body: `Duplicate value: ${formatValue(value)}` };
}

/** toCauses turns field errors into the causes of an Invalid status. */
export function toCauses(errors: FieldError[]): StatusCause[] {
  return errors.map((e) => ({ reason: e.type, message: e.body, field: e.field }));
}

/** formatValue prints a value as field errors do: strings quoted with Go's %q, numbers and booleans bare. */
export function formatValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === null || value === undefined) return 'null';
  return JSON.stringify(value);
}
