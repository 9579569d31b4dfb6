// Pod validation: the rules of pkg/apis/core/validation/validation.go that the foundation checks.
// The full rule set grows here; every message is the API server's own.
import type { Container, Meta, Pod } from '../../api/types';
import { duplicate, type FieldError, invalidValue, notSupported, required } from './field-errors';
import { isDNS1123Label, isDNS1123Subdomain } from './names';

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

/** validatePod checks a Pod on create. See pkg/apis/core/validation/validation.go (ValidatePodCreate, ValidatePodSpec). */
export function validatePod(pod: Pod): FieldError[] {
  const errs = validateObjectMeta(pod, true);
  const spec = pod.spec;
  if (!spec) return [...errs, required('spec.containers')];
  const names = new Set<string>();
  const checkContainers = (list: Container[] | undefined, path: string): void => {
    (list ?? []).forEach((c, i) => {
      const p = `${path}[${i}]`;
      if (!c.name) errs.push(required(`${p}.name`));
      else {
        for (const msg of isDNS1123Label(c.name)) errs.push(invalidValue(`${p}.name`, c.name, msg));
        if (names.has(c.name)) errs.push(duplicate(`${p}.name`, c.name));
        names.add(c.name);
      }
      // An image is required of containers; the API allows templates without one. See validateContainers.
      if (!c.image) errs.push(required(`${p}.image`));
      else if (c.image.trim() !== c.image) errs.push(invalidValue(`${p}.image`, c.image, 'must not have leading or trailing whitespace'));
      if (c.imagePullPolicy && !['Always', 'IfNotPresent', 'Never'].includes(c.imagePullPolicy)) {
        errs.push(notSupported(`${p}.imagePullPolicy`, c.imagePullPolicy, ['Always', 'IfNotPresent', 'Never']));
      }
    });
  };
  checkContainers(spec.initContainers, 'spec.initContainers');
  if (!spec.containers || spec.containers.length === 0) errs.push(required('spec.containers'));
  checkContainers(spec.containers, 'spec.containers');
  if (spec.restartPolicy && !['Always', 'OnFailure', 'Never'].includes(spec.restartPolicy)) {
    errs.push(notSupported('spec.restartPolicy', spec.restartPolicy, ['Always', 'OnFailure', 'Never']));
  }
  if (spec.dnsPolicy && !['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'].includes(spec.dnsPolicy)) {
    errs.push(notSupported('spec.dnsPolicy', spec.dnsPolicy, ['ClusterFirst', 'ClusterFirstWithHostNet', 'Default', 'None']));
  }
  if (spec.terminationGracePeriodSeconds !== undefined && spec.terminationGracePeriodSeconds < 0) {
    errs.push(invalidValue('spec.terminationGracePeriodSeconds', spec.terminationGracePeriodSeconds, 'must be greater than or equal to 0'));
  }
  return errs;
}
