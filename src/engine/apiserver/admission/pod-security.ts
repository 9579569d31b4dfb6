// PodSecurity: the Pod Security Standards (privileged, baseline, restricted) enforced, audited and warned per namespace.
// See plugin/pkg/admission/security/podsecurity/admission.go and staging/src/k8s.io/pod-security-admission.
import { configurePodSecurity, podSecurityConfiguration } from './pod-security/config';
import { hasPodSpec, validateNamespace, validatePod, validatePodController } from './pod-security/requests';
import type { PodSecurityResponse } from './pod-security/evaluate';
import { AUDIT_ANNOTATION_PREFIX } from './pod-security/levels';
import type { AdmissionPlugin, AdmissionResult } from './plugin';

export { configurePodSecurity };

/** toAdmissionResult turns the plugin's response into the chain's result: the error, the warnings, the trace. */
function toAdmissionResult(response: PodSecurityResponse): AdmissionResult {
  return {
    ...(response.error ? { error: response.error } : {}),
    ...(response.warnings.length ? { warnings: response.warnings } : {}),
    note: response.note,
    // Why: kube-apiserver records the plugin's audit annotations with the pod-security.kubernetes.io/ prefix (admission.go Validate).
    detail: { ...response.trace, auditAnnotations: Object.fromEntries(Object.entries(response.auditAnnotations).map(([k, v]) => [AUDIT_ANNOTATION_PREFIX + k, v])) },
  };
}

/**
 * podSecurity is the PodSecurity validating plugin. It acts on creates and updates of namespaces, pods and the
 * objects that hold a pod template; its configuration comes from configurePodSecurity, else privileged:latest
 * everywhere (plugin/pkg/admission/security/podsecurity/admission.go).
 */
export const podSecurity: AdmissionPlugin = {
  name: 'PodSecurity',
  source: 'plugin/pkg/admission/security/podsecurity/admission.go',
  // Why: admission.NewHandler(admission.Create, admission.Update), and only pods, namespaces and pod-spec resources (applicableResources).
  handles: (a) => (a.operation === 'CREATE' || a.operation === 'UPDATE')
    && ((a.group === '' && (a.resource === 'pods' || a.resource === 'namespaces')) || hasPodSpec(a.group, a.resource)),
  validate(a, ctx) {
    const config = podSecurityConfiguration(ctx);
    if (a.group === '' && a.resource === 'namespaces') return toAdmissionResult(validateNamespace(ctx, config, a));
    if (a.group === '' && a.resource === 'pods') return toAdmissionResult(validatePod(ctx, config, a));
    return toAdmissionResult(validatePodController(ctx, config, a));
  },
};
