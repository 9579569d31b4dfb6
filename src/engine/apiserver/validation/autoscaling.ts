// HorizontalPodAutoscaler create validation: the metadata, the replica bounds and the scale target reference.
// Why: validateHorizontalPodAutoscalerSpec and ValidateCrossVersionObjectReference in
// pkg/apis/autoscaling/validation/validation.go (v1.36.3), with minReplicas' lower bound 1 (HPAScaleToZero is off).
// The metrics and behavior rules (validateMetrics, validateBehavior) are not checked.
import type { KubeObject } from '../../api/types';
import { type FieldError, invalidValue, required } from './field-errors';
import { nameIsDNSSubdomain, validateObjectMeta } from './metadata';

interface HpaSpec {
  minReplicas?: number;
  maxReplicas?: number;
  scaleTargetRef?: { kind?: string; name?: string };
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
  if (!spec.scaleTargetRef?.kind) errs.push(required('spec.scaleTargetRef.kind'));
  if (!spec.scaleTargetRef?.name) errs.push(required('spec.scaleTargetRef.name'));
  return errs;
}
