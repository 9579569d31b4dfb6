// What hover tells beside the schema: where the field's type is described in the Kubernetes API reference. (The phases
// that read a field come from the engine's map, src/engine/runtime/field-readers.ts, which line breakpoints use too.)
import { SCHEMA_TYPES } from '../engine/api/schema/schema.generated';

/** REFERENCE_ROOT is the Kubernetes API reference. */
const REFERENCE_ROOT = 'https://kubernetes.io/docs/reference/kubernetes-api';

/** SECTIONS are the reference's sections, by the kinds they hold. */
const SECTIONS: Readonly<Record<string, readonly string[]>> = {
  'workload-resources': ['Pod', 'Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob', 'PriorityClass'],
  'service-resources': ['Service', 'Endpoints', 'EndpointSlice'],
  'config-and-storage-resources': ['ConfigMap', 'Secret', 'PersistentVolume', 'PersistentVolumeClaim', 'StorageClass'],
  'authentication-resources': ['ServiceAccount'],
  'authorization-resources': ['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding'],
  'policy-resources': ['LimitRange', 'ResourceQuota', 'PodDisruptionBudget'],
  'cluster-resources': ['Node', 'Namespace', 'Event', 'RuntimeClass'],
};

/** kebab writes a kind as the reference's page names do: ReplicaSet → replica-set. */
function kebab(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
}

/** pageOf is the reference page of a kind: workload-resources/pod-v1/. */
function pageOf(kind: string, version: string): string | undefined {
  const section = Object.entries(SECTIONS).find(([, kinds]) => kinds.includes(kind))?.[0];
  return section ? `${REFERENCE_ROOT}/${section}/${kebab(kind)}-${version}/` : undefined;
}

let podTypes: Set<string> | undefined;

/** reachableFrom lists the ids of the types a type reaches through its fields. */
function reachableFrom(id: string, seen = new Set<string>()): Set<string> {
  if (seen.has(id)) return seen;
  seen.add(id);
  for (const prop of Object.values(SCHEMA_TYPES[id]?.properties ?? {})) {
    const ref = /#(.+)$/.exec(prop.type)?.[1];
    if (ref && !ref.startsWith('meta.')) reachableFrom(ref, seen);
  }
  return seen;
}

/**
 * referenceLink is the address of a type's description in the API reference: the types of a pod on the Pod page,
 * metadata types in the common definitions, others on their kind's page; the anchor is the type's name.
 */
export function referenceLink(typeId: string, kind: string, version: string): string | undefined {
  const name = typeId.slice(typeId.lastIndexOf('.') + 1);
  if (typeId.startsWith('meta.')) return `${REFERENCE_ROOT}/common-definitions/${kebab(name)}/#${name}`;
  if (typeId === 'core.v1.PodTemplateSpec') return `${REFERENCE_ROOT}/workload-resources/pod-template-v1/#${name}`;
  podTypes ??= reachableFrom('core.v1.PodSpec');
  const page = podTypes.has(typeId) ? pageOf('Pod', 'v1') : pageOf(kind, version);
  return page ? `${page}#${name}` : undefined;
}
