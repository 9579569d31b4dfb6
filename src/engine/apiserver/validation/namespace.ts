// Namespace validation on create: ValidateNamespace of pkg/apis/core/validation/validation.go (the name a DNS label,
// no namespace, and spec.finalizers), as pkg/registry/core/namespace/strategy.go (Validate) runs it after
// PrepareForCreate has added the kubernetes finalizer, k8s.io/kubernetes v1.36.3.
import { isObject, type KubeObject } from '../../api/types';
import { type FieldError, invalidValue } from './field-errors';
import { nameIsDNSLabel, validateObjectMeta } from './metadata';
import { isQualifiedName } from './names';

/** STANDARD_FINALIZERS is helper.standardFinalizers: kubernetes, orphan and foregroundDeletion. */
const STANDARD_FINALIZERS = ['kubernetes', 'orphan', 'foregroundDeletion'];

/** validateNamespace is ValidateNamespace. */
export function validateNamespace(namespace: KubeObject): FieldError[] {
  const errs = validateObjectMeta(namespace, false, nameIsDNSLabel);
  const spec = isObject(namespace['spec']) ? namespace['spec'] : {};
  for (const finalizer of Array.isArray(spec['finalizers']) ? spec['finalizers'] : []) {
    errs.push(...validateFinalizerName(String(finalizer), 'spec.finalizers'));
  }
  return errs;
}

/**
 * validateFinalizerName is validateFinalizerName: apimachinery's ValidateFinalizerName (a qualified name), then
 * validateKubeFinalizerName (a name without a domain must be a standard one). Errors sit at the list's path.
 */
function validateFinalizerName(name: string, path: string): FieldError[] {
  const errs = isQualifiedName(name).map((msg) => invalidValue(path, name, msg));
  if (!name.includes('/') && !STANDARD_FINALIZERS.includes(name)) {
    errs.push(invalidValue(path, name, 'name is neither a standard finalizer name nor is it fully qualified'));
  }
  return errs;
}
