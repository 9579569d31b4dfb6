// HorizontalPodAutoscaler create validation: the metadata, the replica bounds, the scale target reference, the
// metrics and the behavior (autoscaling-behavior.ts), in that order. Why: validateHorizontalPodAutoscalerSpec and
// ValidateCrossVersionObjectReference in pkg/apis/autoscaling/validation/validation.go (v1.36.3), with minReplicas'
// lower bound 1 (HPAScaleToZero is off). The behavior is checked as defaulting left it (pkg/apis/autoscaling/v2/defaults.go).
import type { KubeObject } from '../../api/types';
import { type Behavior, validateBehavior } from './autoscaling-behavior';
import { validateCrossVersionObjectReference, validateMetrics } from './autoscaling-metrics';
import { type FieldError, invalidValue, required } from './field-errors';
import { nameIsDNSSubdomain, validateObjectMeta } from './metadata';

interface HpaSpec {
  minReplicas?: number;
  maxReplicas?: number;
  scaleTargetRef?: { kind?: string; name?: string; apiVersion?: string };
  metrics?: Parameters<typeof validateMetrics>[0];
  behavior?: Behavior | null;
}

/** validateHorizontalPodAutoscaler is ValidateHorizontalPodAutoscaler on create. */
export function validateHorizontalPodAutoscaler(hpa: KubeObject): FieldError[] {
  const errs = validateObjectMeta(hpa, true, nameIsDNSSubdomain);
  const spec = (hpa['spec'] ?? {}) as HpaSpec;
  const min = spec.minReplicas;
  const max = spec.maxReplicas ?? 0;
  if (typeof min === 'number' && min < 1) errs.push(invalidValue('spec.minReplicas', min, 'must be greater than or equal to 1'));
  if (max === 0) errs.push(required('spec.maxReplicas', 'must be set and greater than 0'));
  else if (max < 0) errs.push(invalidValue('spec.maxReplicas', max, 'must be greater than or equal to 1'));
  if (typeof min === 'number' && max < min) errs.push(invalidValue('spec.maxReplicas', max, 'must be greater than or equal to `minReplicas`'));
  // ScaleTargetRefValidationOptions on create: the apiVersion must name a group, except a ReplicationController's
  // (validationOptionsForHorizontalPodAutoscaler in pkg/registry/autoscaling/horizontalpodautoscaler/strategy.go, v1.36.3).
  errs.push(...validateCrossVersionObjectReference(spec.scaleTargetRef, 'spec.scaleTargetRef', { allowInvalidAPIVersion: false, allowEmptyAPIGroup: spec.scaleTargetRef?.kind === 'ReplicationController' }));
  errs.push(...validateMetrics(spec.metrics, 'spec.metrics', typeof min === 'number' ? min : undefined));
  errs.push(...validateBehavior(spec.behavior, 'spec.behavior'));
  return errs;
}
