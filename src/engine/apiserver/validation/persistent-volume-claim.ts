// PersistentVolumeClaim validation on create: the persistentvolumeclaim strategy's Validate, ValidatePersistentVolumeClaim
// with ValidationOptionsForPersistentVolumeClaim(pvc, nil) (pkg/apis/core/validation/validation.go and
// pkg/registry/core/persistentvolumeclaim/strategy.go, kubernetes v1.36.3). The claim spec rules are pod-pvc-template.ts's,
// shared with ephemeral volumes and StatefulSet claim templates.
import type { KubeObject } from '../../api/types';
import type { FieldError } from './field-errors';
import { validateObjectMeta } from './metadata';
import { nameIsDNSSubdomain } from './names';
import { validateClaimSpec } from './pod-pvc-template';

/** validatePersistentVolumeClaim is ValidatePersistentVolumeClaim: the metadata (ValidatePersistentVolumeName), then the spec. */
export function validatePersistentVolumeClaim(pvc: KubeObject): FieldError[] {
  const spec = pvc['spec'];
  const errs = validateObjectMeta(pvc, true, nameIsDNSSubdomain);
  errs.push(...validateClaimSpec(typeof spec === 'object' && spec !== null ? (spec as Record<string, unknown>) : {}, 'spec'));
  return errs;
}
