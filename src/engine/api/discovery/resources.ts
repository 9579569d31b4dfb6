// Discovery as kube-apiserver serves it to kubectl: /version, the legacy group (/api, /api/v1), the named groups
// (/apis, /apis/GROUP/VERSION) with each resource's verbs, short names and categories. These tables are also what
// the aggregated documents (aggregated.ts) are built from, so both forms agree.
// See staging/src/k8s.io/apiserver/pkg/endpoints/discovery and pkg/registry/*/rest/storage_*.go (ShortNames, Categories).
import { type ResourceInfo, servedResources, VERSIONS } from './served';

/** SERVER_VERSION is /version: the release the engine follows. See staging/src/k8s.io/apimachinery/pkg/version/types.go (Info). */
export const SERVER_VERSION = {
  major: '1', minor: '36', emulationMajor: '1', emulationMinor: '36', minCompatibilityMajor: '1', minCompatibilityMinor: '35',
  gitVersion: 'v1.36.0', gitCommit: '', gitTreeState: 'clean', buildDate: '2026-01-01T00:00:00Z', goVersion: 'go1.26.0', compiler: 'gc', platform: 'linux/amd64',
} as const;

/** SHORT_NAMES are the resources' short names, as each registry's ShortNames returns them. */
const SHORT_NAMES: Readonly<Record<string, readonly string[]>> = {
  pods: ['po'], nodes: ['no'], namespaces: ['ns'], serviceaccounts: ['sa'], services: ['svc'], endpoints: ['ep'],
  replicationcontrollers: ['rc'], configmaps: ['cm'], resourcequotas: ['quota'], limitranges: ['limits'],
  persistentvolumes: ['pv'], persistentvolumeclaims: ['pvc'], events: ['ev'], deployments: ['deploy'], replicasets: ['rs'],
  statefulsets: ['sts'], daemonsets: ['ds'], cronjobs: ['cj'], horizontalpodautoscalers: ['hpa'], poddisruptionbudgets: ['pdb'],
  priorityclasses: ['pc'], storageclasses: ['sc'],
};

/** ALL are the resources in the `all` category (`kubectl get all`), as their registries' Categories say. */
const ALL = new Set(['pods', 'services', 'replicationcontrollers', 'deployments', 'replicasets', 'statefulsets', 'daemonsets', 'jobs', 'cronjobs', 'horizontalpodautoscalers']);
/** API_EXTENSIONS are the resources in the `api-extensions` category. See the storage of each in pkg/registry/admissionregistration (Categories, v1.36.3). */
const API_EXTENSIONS = new Set(['mutatingwebhookconfigurations', 'validatingwebhookconfigurations', 'validatingadmissionpolicies', 'validatingadmissionpolicybindings']);

const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
/** NAMESPACE_VERBS are a namespace's: its registry deletes one at a time (no deletecollection). See pkg/registry/core/namespace/storage (v1.36.3). */
const NAMESPACE_VERBS = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];

/**
 * GROUP_PRIORITY is each served group's APIService priority (GroupPriorityMinimum): /apis lists the groups by it,
 * highest first, then by name, in the legacy and the aggregated form alike. See cmd/kube-apiserver/app/aggregator.go
 * (apiVersionPriorities) and pkg/controlplane/apiserver/aggregator.go (DefaultGenericAPIServicePriorities), v1.36.3.
 */
const GROUP_PRIORITY: Readonly<Record<string, number>> = {
  apps: 17800, 'authorization.k8s.io': 17600, autoscaling: 17500, batch: 17400, policy: 17100, 'rbac.authorization.k8s.io': 17000,
  'storage.k8s.io': 16800, 'admissionregistration.k8s.io': 16700, 'scheduling.k8s.io': 16600, 'node.k8s.io': 16300, 'discovery.k8s.io': 16200,
};

/** APIResource is one entry of an APIResourceList (metav1.APIResource): a resource or, named `RESOURCE/SUB`, a subresource. */
export interface APIResource {
  name: string;
  singularName: string;
  namespaced: boolean;
  /** group and version are written only where they differ from the list's (a subresource's Scale, Eviction). */
  group?: string;
  version?: string;
  kind: string;
  verbs: readonly string[];
  shortNames?: readonly string[];
  categories?: readonly string[];
}

/** APIResourceList is /api/v1 or /apis/GROUP/VERSION (metav1.APIResourceList). */
export interface APIResourceList {
  kind: 'APIResourceList';
  apiVersion: 'v1';
  groupVersion: string;
  resources: APIResource[];
}

/** SUBRESOURCES are the subresources served, by resource: their kind (and group/version when not the parent's) and verbs. */
const SUBRESOURCES: Readonly<Record<string, readonly { name: string; kind: string; verbs: string[]; group?: string; version?: string }[]>> = {
  pods: [
    { name: 'binding', kind: 'Binding', verbs: ['create'] },
    { name: 'eviction', kind: 'Eviction', verbs: ['create'], group: 'policy', version: 'v1' },
    { name: 'log', kind: 'Pod', verbs: ['get'] },
    { name: 'status', kind: 'Pod', verbs: ['get', 'patch', 'update'] },
  ],
  deployments: [{ name: 'scale', kind: 'Scale', verbs: ['get', 'patch', 'update'], group: 'autoscaling', version: 'v1' }, { name: 'status', kind: 'Deployment', verbs: ['get', 'patch', 'update'] }],
  replicasets: [{ name: 'scale', kind: 'Scale', verbs: ['get', 'patch', 'update'], group: 'autoscaling', version: 'v1' }, { name: 'status', kind: 'ReplicaSet', verbs: ['get', 'patch', 'update'] }],
  statefulsets: [{ name: 'scale', kind: 'Scale', verbs: ['get', 'patch', 'update'], group: 'autoscaling', version: 'v1' }, { name: 'status', kind: 'StatefulSet', verbs: ['get', 'patch', 'update'] }],
  nodes: [{ name: 'status', kind: 'Node', verbs: ['get', 'patch', 'update'] }],
};

/** apiVersions is /api: the legacy group's versions. */
export function apiVersions(): object {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '192.168.49.2:6443' }] };
}

/** groupOf is one named group with its versions, the first preferred (metav1.APIGroup). */
function groupOf(name: string, versions: readonly string[]): { name: string; versions: object[]; preferredVersion: object | undefined } {
  const list = versions.map((v) => ({ groupVersion: `${name}/${v}`, version: v }));
  return { name, versions: list, preferredVersion: list[0] };
}

/** namedGroups are the named groups served with their versions (the preferred first), in /apis' order: by priority, then name. */
export function namedGroups(): [name: string, versions: readonly string[]][] {
  const priority = (g: string): number => GROUP_PRIORITY[g] ?? 0;
  return Object.entries(VERSIONS).filter(([g]) => g !== '').sort(([a], [b]) => priority(b) - priority(a) || (a < b ? -1 : a > b ? 1 : 0));
}

/** apiGroupList is /apis: every named group with its versions, the first preferred. */
export function apiGroupList(): object {
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: namedGroups().map(([name, versions]) => groupOf(name, versions)) };
}

/** apiGroup is /apis/GROUP: the group's versions, the first preferred; undefined for a group not served. See discovery/group.go (v0.36.3). */
export function apiGroup(name: string): object | undefined {
  const versions = name !== '' ? VERSIONS[name] : undefined;
  return versions ? { kind: 'APIGroup', apiVersion: 'v1', ...groupOf(name, versions) } : undefined;
}

/** apiResourceList is /api/v1 or /apis/GROUP/VERSION: the group's resources and subresources; undefined for a version not served. */
export function apiResourceList(group: string, version: string): APIResourceList | undefined {
  if (!(VERSIONS[group] ?? []).includes(version)) return undefined;
  const resources: APIResource[] = [];
  for (const r of servedResources(group).sort((a, b) => a.resource.localeCompare(b.resource))) {
    resources.push(resourceEntry(r));
    for (const sub of SUBRESOURCES[r.resource] ?? []) {
      resources.push({ name: `${r.resource}/${sub.name}`, singularName: '', namespaced: r.namespaced, ...(sub.group ? { group: sub.group, version: sub.version } : {}), kind: sub.kind, verbs: sub.verbs });
    }
  }
  if (group === 'authorization.k8s.io') {
    resources.push({ name: 'selfsubjectaccessreviews', singularName: 'selfsubjectaccessreview', namespaced: false, kind: 'SelfSubjectAccessReview', verbs: ['create'] });
    resources.push({ name: 'selfsubjectrulesreviews', singularName: 'selfsubjectrulesreview', namespaced: false, kind: 'SelfSubjectRulesReview', verbs: ['create'] });
  }
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: group ? `${group}/${version}` : version, resources };
}

function resourceEntry(r: ResourceInfo): APIResource {
  return {
    name: r.resource, singularName: r.kind.toLowerCase(), namespaced: r.namespaced, kind: r.kind, verbs: r.resource === 'namespaces' ? NAMESPACE_VERBS : VERBS,
    ...(SHORT_NAMES[r.resource] ? { shortNames: SHORT_NAMES[r.resource] } : {}),
    ...(ALL.has(r.resource) ? { categories: ['all'] } : API_EXTENSIONS.has(r.resource) ? { categories: ['api-extensions'] } : {}),
  };
}
