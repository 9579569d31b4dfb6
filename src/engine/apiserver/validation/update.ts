// Validation on update, by kind: the registry strategy's ValidateUpdate, which adds the immutable fields to the
// create rules. See pkg/registry/apps/deployment/strategy.go, pkg/registry/apps/replicaset/strategy.go,
// pkg/registry/batch/job/strategy.go and pkg/apis/batch/validation/validation.go (ValidateJobSpecUpdate).
import type { KubeObject, LabelSelector } from '../../api/types';
import { labelSelectorJSON } from './apps';
import { asJSON, type FieldError, invalidValue } from './field-errors';
import { invalidShown } from './metadata';

/** FIELD_IMMUTABLE is apimachinery's FieldImmutableErrorMsg (staging/src/k8s.io/apimachinery/pkg/api/validation/generic.go). */
export const FIELD_IMMUTABLE = 'field is immutable';

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

type Spec = { selector?: LabelSelector; template?: unknown; completions?: number; completionMode?: string; podFailurePolicy?: unknown };

/**
 * validateUpdate is the update-only part of ValidateUpdate: apps/v1 Deployments and ReplicaSets may not change
 * their selector (ValidateImmutableField in the strategies' ValidateUpdate); a Job may change neither its selector,
 * its pod template, its completions (outside the Indexed elastic case) nor its completionMode.
 */
export function validateUpdate(next: KubeObject, old: KubeObject): FieldError[] {
  const n = (next['spec'] ?? {}) as Spec;
  const o = (old['spec'] ?? {}) as Spec;
  const errs: FieldError[] = [];
  switch (next.kind) {
    case 'Deployment':
    case 'ReplicaSet':
      if (!same(n.selector, o.selector)) errs.push(invalidShown('spec.selector', labelSelectorJSON(n.selector ?? {}), FIELD_IMMUTABLE));
      return errs;
    case 'Job':
      // ValidateJobSpecUpdate: the selector first, then the template, then completions and completionMode.
      if (!same(n.selector, o.selector)) errs.push(invalidShown('spec.selector', labelSelectorJSON(n.selector ?? {}), FIELD_IMMUTABLE));
      if (!same(n.template, o.template)) errs.push(invalidValue('spec.template', asJSON(n.template), FIELD_IMMUTABLE));
      // Elastic Indexed Jobs may change completions together with parallelism (pkg/apis/batch/validation).
      if (!same(n.completions, o.completions) && n.completionMode !== 'Indexed') errs.push(invalidValue('spec.completions', n.completions ?? null, FIELD_IMMUTABLE));
      if (!same(n.completionMode, o.completionMode)) errs.push(invalidValue('spec.completionMode', n.completionMode ?? null, FIELD_IMMUTABLE));
      return errs;
    default:
      return errs;
  }
}
