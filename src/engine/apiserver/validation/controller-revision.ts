// ControllerRevision validation on create and update: ValidateControllerRevisionCreate and the data rule of
// ValidateControllerRevisionUpdate, as pkg/registry/apps/controllerrevision/strategy.go runs them. See
// pkg/apis/apps/validation/validation.go (k8s.io/kubernetes v1.36.3).
import { isObject, type KubeObject } from '../../api/types';
import { asJSON, FIELD_IMMUTABLE, type FieldError, invalidValue, required } from './field-errors';
import { nonNegative, validateObjectMeta } from './metadata';
import { nameIsDNSSubdomain } from './names';

/**
 * validateControllerRevision is ValidateControllerRevisionCreate: validateControllerRevision (the metadata with
 * ValidateControllerRevisionName, NameIsDNSSubdomain; a revision of 0 or more), then the data: a RawExtension, nil
 * when absent or null (`data is mandatory`), and a JSON object when given (`data must be a valid JSON object`, a
 * Required error in Go too).
 */
export function validateControllerRevision(revision: KubeObject): FieldError[] {
  const errs = validateRevisionFields(revision);
  const data = revision['data'];
  if (data === undefined || data === null) errs.push(required('data', 'data is mandatory'));
  else if (!isObject(data)) errs.push(required('data', 'data must be a valid JSON object'));
  return errs;
}

/** validateRevisionFields is validateControllerRevision: ValidateObjectMeta, then ValidateNonnegativeField(revision). */
function validateRevisionFields(revision: KubeObject): FieldError[] {
  const errs = validateObjectMeta(revision, true, nameIsDNSSubdomain);
  errs.push(...nonNegative(typeof revision['revision'] === 'number' ? revision['revision'] : 0, 'revision'));
  return errs;
}

/**
 * validateControllerRevisionUpdate is ValidateControllerRevisionUpdate's data rule: ValidateImmutableField of the
 * RawExtension, printed with its MarshalJSON (the raw JSON, `null` when nil).
 */
export function validateControllerRevisionUpdate(next: KubeObject, old: KubeObject): FieldError[] {
  const data = next['data'] ?? null;
  return JSON.stringify(data) === JSON.stringify(old['data'] ?? null) ? [] : [invalidValue('data', asJSON(data), FIELD_IMMUTABLE)];
}
