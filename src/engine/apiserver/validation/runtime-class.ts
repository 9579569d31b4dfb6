// RuntimeClass validation on create and update: ValidateRuntimeClass (handler, overhead, scheduling) and the handler
// rule of ValidateRuntimeClassUpdate, as pkg/registry/node/runtimeclass/strategy.go runs them. See
// pkg/apis/node/validation/validation.go (k8s.io/kubernetes v1.36.3).
import { isObject, type KubeObject } from '../../api/types';
import type { Toleration } from 'kubernetes-types/core/v1';
import { asJSON, duplicate, FIELD_IMMUTABLE, type FieldError, index, invalidValue, required } from './field-errors';
import { nameIsDNSLabel, validateLabels, validateObjectMeta } from './metadata';
import { nameIsDNSSubdomain } from './names';
import { validateOverhead } from './pod-resources';
import { validateTolerations } from './pod-scheduling';

type Rec = Record<string, unknown>;

/** validateRuntimeClass is ValidateRuntimeClass: metadata, the handler (a DNS label), then overhead and scheduling. */
export function validateRuntimeClass(rc: KubeObject): FieldError[] {
  const errs = validateObjectMeta(rc, false, nameIsDNSSubdomain);
  const handler = typeof rc['handler'] === 'string' ? rc['handler'] : '';
  if (handler === '') errs.push(required('handler'));
  else errs.push(...nameIsDNSLabel(handler, false).map((msg) => invalidValue('handler', handler, msg)));
  const overhead = rc['overhead'];
  // validateOverhead: ValidateContainerResourceRequirements with overhead.podFixed as the limits.
  if (isObject(overhead)) errs.push(...validateOverhead(isObject(overhead['podFixed']) ? overhead['podFixed'] : {}, 'overhead'));
  const scheduling = rc['scheduling'];
  if (isObject(scheduling)) errs.push(...validateScheduling(scheduling, 'scheduling'));
  return errs;
}

/** validateScheduling is validateScheduling: the nodeSelector as labels, then the tolerations. */
function validateScheduling(s: Rec, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (isObject(s['nodeSelector'])) errs.push(...validateLabels(s['nodeSelector'] as Record<string, string>, `${path}.nodeSelector`));
  const tolerations = Array.isArray(s['tolerations']) ? (s['tolerations'] as Toleration[]) : [];
  errs.push(...validateRuntimeClassTolerations(tolerations, `${path}.tolerations`));
  return errs;
}

/**
 * validateRuntimeClassTolerations is validateTolerations: ValidateTolerations, then each toleration whose key,
 * operator, value and effect repeat an earlier one's is a duplicate, printed as the internal core.Toleration (Go
 * field names, json.Marshal).
 */
function validateRuntimeClassTolerations(tolerations: Toleration[], path: string): FieldError[] {
  const errs = validateTolerations(tolerations, path);
  const seen = new Set<string>();
  tolerations.forEach((t, i) => {
    const listKey = JSON.stringify([t.key ?? '', t.operator ?? '', t.value ?? '', t.effect ?? '']);
    if (seen.has(listKey)) {
      const shown = { Key: t.key ?? '', Operator: t.operator ?? '', Value: t.value ?? '', Effect: t.effect ?? '', TolerationSeconds: t.tolerationSeconds ?? null };
      errs.push(duplicate(index(path, i), asJSON(shown)));
    } else {
      seen.add(listKey);
    }
  });
  return errs;
}

/** validateRuntimeClassUpdate is ValidateRuntimeClassUpdate's handler rule (ValidateImmutableField). */
export function validateRuntimeClassUpdate(next: KubeObject, old: KubeObject): FieldError[] {
  const handler = typeof next['handler'] === 'string' ? next['handler'] : '';
  const oldHandler = typeof old['handler'] === 'string' ? old['handler'] : '';
  return handler === oldHandler ? [] : [invalidValue('handler', handler, FIELD_IMMUTABLE)];
}
