// The warnings each kind's registry strategy gives on create (WarningsOnCreate), which kube-apiserver sends with the
// created object and kubectl prints as `Warning: ...`. See pkg/registry/core/pod/strategy.go,
// pkg/registry/apps/{deployment,replicaset,statefulset,daemonset}/strategy.go, pkg/registry/batch/{job,cronjob}/strategy.go,
// pkg/registry/core/{podtemplate,replicationcontroller}/strategy.go, pkg/api/job/warnings.go (WarningsForJobSpec),
// pkg/registry/core/endpoint/strategy.go, pkg/registry/discovery/endpointslice/strategy.go,
// pkg/registry/storage/{csidriver,csistoragecapacity}/strategy.go and
// pkg/registry/admissionregistration/{*webhookconfiguration,validatingadmissionpolicy{,binding}}/strategy.go, v1.36.3.
import { isObject, type KubeObject } from '../../api/types';
import { isDNS1123Label } from '../validation/names';
import { ipWarnings } from './ip';
import { DEPRECATED_NODE_LABELS, fractional, podSpecWarnings } from './pod';

type Rec = Record<string, unknown>;

const rec = (v: unknown): Rec => (isObject(v) ? v : {});

/** templateWarnings is GetWarningsForPodTemplate at `path`. */
const templateWarnings = (path: string, template: unknown): string[] => (isObject(template) ? podSpecWarnings(path, rec(template['spec']), rec(template['metadata'])) : []);

/** nameWarning is the DNS-label advice for a name pods are made from (`%v` of the messages: `[a b]`). */
function nameWarning(name: string, usedIn: string): string[] {
  const msgs = isDNS1123Label(name);
  return msgs.length ? [`metadata.name: this is used in ${usedIn}, which can result in surprising behavior; a DNS label is recommended: [${msgs.join(' ')}]`] : [];
}

/** jobSpecWarnings is WarningsForJobSpec: a huge Indexed Job, then its template's warnings. */
function jobSpecWarnings(path: string, spec: Rec): string[] {
  const out: string[] = [];
  const n = (v: unknown): number => (typeof v === 'number' ? v : 0);
  if (spec['completionMode'] === 'Indexed' && n(spec['completions']) > 100_000 && n(spec['parallelism']) > 10_000) {
    out.push(`${path}: In Indexed Jobs with a number of completions higher than 10^5 and a parallelism higher than 10^4, Kubernetes might not be able to track completedIndexes when a big number of indexes fail`);
  }
  return [...out, ...templateWarnings(`${path}.template`, spec['template'])];
}

/** recs reads a JSON list of objects (anything else as empty). */
const recs = (v: unknown): Rec[] => (Array.isArray(v) ? v.map(rec) : []);

/**
 * endpointsWarnings is endpointsWarnings: GetWarningsForIP of every address, ready or not; none when the endpoints
 * controller wrote the object (label endpoints.kubernetes.io/managed-by: endpoint-controller).
 */
function endpointsWarnings(obj: KubeObject): string[] {
  if (obj.metadata?.labels?.['endpoints.kubernetes.io/managed-by'] === 'endpoint-controller') return [];
  const out: string[] = [];
  recs(obj['subsets']).forEach((subset, i) => {
    for (const field of ['addresses', 'notReadyAddresses']) {
      recs(subset[field]).forEach((a, j) => out.push(...ipWarnings(`subsets[${i}].${field}[${j}].ip`, typeof a['ip'] === 'string' ? a['ip'] : '')));
    }
  });
  return out;
}

/** ENDPOINTSLICE_MANAGERS are the controllers whose slices warnOnBadIPs skips (endpointslice and its mirroring). */
const ENDPOINTSLICE_MANAGERS = ['endpointslice-controller.k8s.io', 'endpointslicemirroring-controller.k8s.io'];

/** endpointSliceWarnings is WarningsOnCreate: warnOnDeprecatedAddressType (at `spec.addressType`, as Go names it), then warnOnBadIPs. */
function endpointSliceWarnings(obj: KubeObject): string[] {
  const out = obj['addressType'] === 'FQDN' ? ['spec.addressType: FQDN endpoints are deprecated'] : [];
  if (ENDPOINTSLICE_MANAGERS.includes(obj.metadata?.labels?.['endpointslice.kubernetes.io/managed-by'] ?? '')) return out;
  recs(obj['endpoints']).forEach((e, i) => {
    (Array.isArray(e['addresses']) ? e['addresses'] : []).forEach((a, j) => out.push(...ipWarnings(`endpoints[${i}].addresses[${j}]`, typeof a === 'string' ? a : '')));
  });
  return out;
}

/** warningsOnCreate lists the strategy's warnings for an object about to be stored, in the order the strategy gives them. */
export function warningsOnCreate(obj: KubeObject): string[] {
  const name = obj.metadata?.name ?? '';
  const spec = rec(obj['spec']);
  switch (obj.kind) {
    case 'Pod': return [...nameWarning(name, "the Pod's hostname"), ...podSpecWarnings(null, spec, rec(obj.metadata))];
    case 'Deployment':
    case 'ReplicaSet':
    case 'ReplicationController': return [...nameWarning(name, 'Pod names and hostnames'), ...templateWarnings('spec.template', spec['template'])];
    case 'DaemonSet': return templateWarnings('spec.template', spec['template']);
    case 'StatefulSet': {
      const out = templateWarnings('spec.template', spec['template']);
      // GetWarningsForPersistentVolumeClaimSpec of each claim template, at spec.volumeClaimTemplates[i] (its spec not named).
      (Array.isArray(spec['volumeClaimTemplates']) ? spec['volumeClaimTemplates'] : []).forEach((t, i) => {
        const resources = rec(rec(rec(t)['spec'])['resources']);
        for (const kind of ['requests', 'limits']) {
          const value = rec(resources[kind])['storage'];
          if (fractional(value)) out.push(`spec.volumeClaimTemplates[${i}].resources.${kind}[storage]: fractional byte value ${JSON.stringify(String(value))} is invalid, must be an integer`);
        }
      });
      const limit = spec['revisionHistoryLimit'];
      if (typeof limit === 'number' && limit < 0) out.push('spec.revisionHistoryLimit: a negative value retains all historical revisions; a value >= 0 is recommended');
      return out;
    }
    case 'Job': return [...nameWarning(name, 'Pod names and hostnames'), ...jobSpecWarnings('spec', spec)];
    case 'CronJob': return [...nameWarning(name, 'Pod names and hostnames'), ...jobSpecWarnings('spec.jobTemplate.spec', rec(rec(spec['jobTemplate'])['spec']))];
    case 'PodTemplate': return templateWarnings('template', obj['template']);
    case 'Endpoints': return endpointsWarnings(obj);
    case 'EndpointSlice': return endpointSliceWarnings(obj);
    case 'CSIDriver': return csiDriverWarnings(spec);
    case 'CSIStorageCapacity': return nodeSelectorWarnings(obj['nodeTopology'], 'nodeTopology');
    case 'ValidatingWebhookConfiguration':
    case 'MutatingWebhookConfiguration':
    case 'ValidatingAdmissionPolicy':
    case 'ValidatingAdmissionPolicyBinding': return staticSuffixWarnings(name);
    default: return [];
  }
}

/** STATIC_CONFIG_SUFFIX is StaticConfigSuffix (pkg/apis/admissionregistration/validation/static_suffix.go). */
const STATIC_CONFIG_SUFFIX = '.static.k8s.io';

/** staticSuffixWarnings is WarningsForStaticSuffix (ManifestBasedAdmissionControlConfig is alpha and off, so a warning, not an error). */
function staticSuffixWarnings(name: string): string[] {
  return name.endsWith(STATIC_CONFIG_SUFFIX)
    ? [`metadata.name: names ending with "${STATIC_CONFIG_SUFFIX}" are reserved for static manifest-based configurations and cannot be managed via the API`]
    : [];
}

/** csiDriverWarnings: token requests without serviceAccountTokenInSecrets (CSIServiceAccountTokenSecrets is on). */
function csiDriverWarnings(spec: Rec): string[] {
  const requests = Array.isArray(spec['tokenRequests']) ? spec['tokenRequests'] : [];
  if (requests.length === 0 || typeof spec['serviceAccountTokenInSecrets'] === 'boolean') return [];
  return ['spec.serviceAccountTokenInSecrets is unset; if supported by this CSI driver, set to true to prevent possible logging of tokens in volume attributes'];
}

/** nodeSelectorWarnings is GetWarningsForNodeSelector: deprecated node labels in the expressions, then in matchLabels. */
function nodeSelectorWarnings(selector: unknown, path: string): string[] {
  if (!isObject(selector)) return [];
  const out: string[] = [];
  (Array.isArray(selector['matchExpressions']) ? selector['matchExpressions'] : []).forEach((e, i) => {
    const key = typeof rec(e)['key'] === 'string' ? (rec(e)['key'] as string) : '';
    if (DEPRECATED_NODE_LABELS[key]) out.push(`${path}.matchExpressions[${i}].key: ${key} is ${DEPRECATED_NODE_LABELS[key]}`);
  });
  for (const label of Object.keys(rec(selector['matchLabels']))) {
    if (DEPRECATED_NODE_LABELS[label]) out.push(`${path}.matchLabels.${label}: ${DEPRECATED_NODE_LABELS[label]}`);
  }
  return out;
}
