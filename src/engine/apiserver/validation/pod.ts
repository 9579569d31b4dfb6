// Pod validation: the rules of pkg/apis/core/validation/validation.go that the foundation checks.
// The full rule set grows here; every message is the API server's own.
import type { Container, Pod, PodSpec } from '../../api/types';
import { duplicate, type FieldError, invalidValue, notSupported, required } from './field-errors';
import { validateObjectMeta } from './metadata';
import { isDNS1123Label } from './names';

/** validatePod checks a Pod on create. See pkg/apis/core/validation/validation.go (ValidatePodCreate, ValidatePodSpec). */
export function validatePod(pod: Pod): FieldError[] {
  return [...validateObjectMeta(pod, true), ...(pod.spec ? validatePodSpec(pod.spec, 'spec') : [required('spec.containers')])];
}

/** validatePodSpec checks a pod spec at a field path (`spec`, or `spec.template.spec` in a workload). */
export function validatePodSpec(spec: PodSpec, path: string): FieldError[] {
  const errs: FieldError[] = [];
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
  checkContainers(spec.initContainers, `${path}.initContainers`);
  if (!spec.containers || spec.containers.length === 0) errs.push(required(`${path}.containers`));
  checkContainers(spec.containers, `${path}.containers`);
  if (spec.restartPolicy && !['Always', 'OnFailure', 'Never'].includes(spec.restartPolicy)) {
    errs.push(notSupported(`${path}.restartPolicy`, spec.restartPolicy, ['Always', 'OnFailure', 'Never']));
  }
  if (spec.dnsPolicy && !['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'].includes(spec.dnsPolicy)) {
    errs.push(notSupported(`${path}.dnsPolicy`, spec.dnsPolicy, ['ClusterFirst', 'ClusterFirstWithHostNet', 'Default', 'None']));
  }
  if (spec.terminationGracePeriodSeconds !== undefined && spec.terminationGracePeriodSeconds < 0) {
    errs.push(invalidValue(`${path}.terminationGracePeriodSeconds`, spec.terminationGracePeriodSeconds, 'must be greater than or equal to 0'));
  }
  return errs;
}
