// Which of a file's other documents a workload is checked with: those the create, admission and first scheduling of
// its pod can read (namespaces, service accounts, quotas, priority classes...). Data a workload only consumes once
// it runs (ConfigMaps, Secrets, Services) is left out, so that a file of many of them does not cost each check the
// time to store them all, nor an edit of one of them every check again.
import type { ClusterInput, SourceDocument } from '../../engine/cluster/inputs';

/** LIFECYCLE_KINDS are the kinds whose lifecycle the simulation runs: their pods meet admission and the scheduler. */
export const LIFECYCLE_KINDS = new Set(['Pod', 'Deployment', 'ReplicaSet']);

/**
 * RUNTIME_KINDS are read only after a pod is bound: by the kubelet (volumes, environment, service links), by the
 * endpoints controllers, or for scoring alone (a Service's selector in PodTopologySpread's default constraints).
 * See pkg/kubelet/kubelet_pods.go, pkg/controller/endpointslice, plugins/podtopologyspread/common.go.
 */
export const RUNTIME_KINDS = new Set(['ConfigMap', 'Secret', 'Service', 'Endpoints', 'EndpointSlice', 'Ingress', 'IngressClass', 'NetworkPolicy', 'HorizontalPodAutoscaler']);

/**
 * ADMISSION_CONFIG_KINDS configure admission that may read any object: a webhook's Service, a policy's params
 * (paramKind, often a ConfigMap). Where one is present, every document stays in the context.
 */
export const ADMISSION_CONFIG_KINDS = new Set([
  'ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding',
  'MutatingAdmissionPolicy', 'MutatingAdmissionPolicyBinding',
]);

/** clusterContext picks, among a file's documents that passed the API server's checks, those a workload is checked with. */
export function clusterContext(docs: readonly SourceDocument[], cluster: ClusterInput): SourceDocument[] {
  const named = docs.filter((d) => !LIFECYCLE_KINDS.has(String(d.object.kind)) && d.object.metadata?.name);
  const admissionConfigured = [...named, ...cluster.objects].some((d) => ADMISSION_CONFIG_KINDS.has(String(d.object.kind)));
  return admissionConfigured ? named : named.filter((d) => !RUNTIME_KINDS.has(String(d.object.kind)));
}
