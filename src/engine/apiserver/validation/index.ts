// Validation on create, by kind: the registry strategy's Validate. Kinds without rules here only get their metadata checked.
import type { KubeObject, Pod } from '../../api/types';
import { RESOURCES } from '../../cluster/store';
import type { FieldError } from './field-errors';
import { validateObjectMeta } from './metadata';
import { validatePod } from './pod';

/** validateObject runs the create validation of an object's kind. */
export function validateObject(obj: KubeObject): FieldError[] {
  if (obj.kind === 'Pod') return validatePod(obj as Pod);
  return validateObjectMeta(obj, RESOURCES[obj.kind ?? '']?.namespaced ?? true);
}
