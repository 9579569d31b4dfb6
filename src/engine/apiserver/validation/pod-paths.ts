// Relative paths inside volumes (subPath, items, localhost profiles) and file modes, as the pod spec checks them.
// See pkg/apis/core/validation/validation.go (validateLocalDescendingPath, validatePathNoBacksteps,
// ValidateLocalNonReservedPath, validateKeyToPath).
import type { KeyToPath } from 'kubernetes-types/core/v1';
import { child, type FieldError, invalidValue, required } from './field-errors';

/** MAX_FILE_MODE is 0777, the largest file mode. */
const MAX_FILE_MODE = 0o777;
/** FILE_MODE_ERROR is fileModeErrorMsg. */
const FILE_MODE_ERROR = 'must be a number between 0 and 0777 (octal), both inclusive';

/** validatePathNoBacksteps is validatePathNoBacksteps: no `..` element (one error however many there are). */
export function validatePathNoBacksteps(target: string, path: string): FieldError[] {
  return target.split('/').includes('..') ? [invalidValue(path, target, "must not contain '..'")] : [];
}

/** validateLocalDescendingPath is validateLocalDescendingPath: relative, and no `..` element. */
export function validateLocalDescendingPath(target: string, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (target.startsWith('/')) errs.push(invalidValue(path, target, 'must be a relative path'));
  errs.push(...validatePathNoBacksteps(target, path));
  return errs;
}

/** validateLocalNonReservedPath is ValidateLocalNonReservedPath: a local descending path not starting with `..`. */
export function validateLocalNonReservedPath(target: string, path: string): FieldError[] {
  const errs = validateLocalDescendingPath(target, path);
  // Why: "Don't report this error if the check for .. elements already caught it."
  if (target.startsWith('..') && !target.startsWith('../')) errs.push(invalidValue(path, target, "must not start with '..'"));
  return errs;
}

/** validateFileMode checks a defaultMode or mode: 0 to 0777 when set. */
export function validateFileMode(mode: number | undefined | null, path: string): FieldError[] {
  if (mode === undefined || mode === null) return [];
  return mode > MAX_FILE_MODE || mode < 0 ? [invalidValue(path, mode, FILE_MODE_ERROR)] : [];
}

/** validateKeyToPath is validateKeyToPath: a key, a local non-reserved path and a valid mode. */
export function validateKeyToPath(kp: KeyToPath, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!kp.key) errs.push(required(child(path, 'key')));
  if (!kp.path) errs.push(required(child(path, 'path')));
  errs.push(...validateLocalNonReservedPath(kp.path ?? '', child(path, 'path')));
  errs.push(...validateFileMode(kp.mode, child(path, 'mode')));
  return errs;
}
