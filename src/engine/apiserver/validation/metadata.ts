// Object metadata validation: names, namespace, generateName. See staging/src/k8s.io/apimachinery/pkg/api/validation/objectmeta.go.
import type { Meta } from '../../api/types';
import { type FieldError, invalidValue, required } from './field-errors';
import { isDNS1123Subdomain } from './names';

/** validateObjectMeta checks name and namespace as ValidateObjectMeta does (name as a DNS subdomain). */
export function validateObjectMeta(obj: Meta, namespaced: boolean, nameRule = isDNS1123Subdomain): FieldError[] {
  const errs: FieldError[] = [];
  const meta = obj.metadata ?? {};
  if (!meta.name && !meta.generateName) {
    errs.push(required('metadata.name', 'name or generateName is required'));
  } else if (meta.name) {
    for (const msg of nameRule(meta.name)) errs.push(invalidValue('metadata.name', meta.name, msg));
  }
  if (namespaced && !meta.namespace) errs.push(required('metadata.namespace'));
  return errs;
}

