// ServiceAccount validation on create: ValidateServiceAccount of pkg/apis/core/validation/validation.go, which checks
// the metadata only (ValidateServiceAccountName: a DNS subdomain), as pkg/registry/core/serviceaccount/strategy.go
// runs it, k8s.io/kubernetes v1.36.3. Its secrets and imagePullSecrets are not validated.
import type { KubeObject } from '../../api/types';
import type { FieldError } from './field-errors';
import { validateObjectMeta } from './metadata';
import { nameIsDNSSubdomain } from './names';

/** validateServiceAccount is ValidateServiceAccount. */
export function validateServiceAccount(serviceAccount: KubeObject): FieldError[] {
  return validateObjectMeta(serviceAccount, true, nameIsDNSSubdomain);
}
