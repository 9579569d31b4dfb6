// The resources kube-apiserver serves and the versions of each group (the first preferred): what discovery lists and
// what serve routes requests to. See pkg/controlplane/instance.go (DefaultAPIResourceConfigSource) at v1.36.3.
import { RESOURCES } from '../../cluster/store';

/** ResourceInfo is one served resource: its kind, group and whether it lives in a namespace. */
export interface ResourceInfo {
  kind: string;
  group: string;
  resource: string;
  namespaced: boolean;
}

/** VERSIONS are the versions served of each group; the first is the preferred one. */
export const VERSIONS: Readonly<Record<string, readonly string[]>> = {
  '': ['v1'], apps: ['v1'], batch: ['v1'], autoscaling: ['v2', 'v1'], policy: ['v1'], 'discovery.k8s.io': ['v1'],
  'rbac.authorization.k8s.io': ['v1'], 'scheduling.k8s.io': ['v1'], 'node.k8s.io': ['v1'], 'storage.k8s.io': ['v1'],
  'admissionregistration.k8s.io': ['v1'], 'authorization.k8s.io': ['v1'],
};

const BY_RESOURCE = new Map<string, ResourceInfo>();
for (const [kind, r] of Object.entries(RESOURCES)) BY_RESOURCE.set(`${r.group}/${r.resource}`, { kind, ...r });

/** resourceInfo finds a served resource by its group and plural name. */
export function resourceInfo(group: string, resource: string): ResourceInfo | undefined {
  return BY_RESOURCE.get(`${group}/${resource}`);
}

/** servedResources are the resources of one group, in kind order. */
export function servedResources(group: string): ResourceInfo[] {
  return [...BY_RESOURCE.values()].filter((r) => r.group === group);
}
