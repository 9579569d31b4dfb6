// What the store files objects under: each kind's resource, and the etcd key an object is kept at.
import type { Meta } from '../api/types';

/** RESOURCES maps a kind to its resource (plural) name and whether it lives in a namespace. */
export const RESOURCES: Readonly<Record<string, { resource: string; group: string; namespaced: boolean }>> = {
  Pod: { resource: 'pods', group: '', namespaced: true },
  Node: { resource: 'nodes', group: '', namespaced: false },
  Namespace: { resource: 'namespaces', group: '', namespaced: false },
  ServiceAccount: { resource: 'serviceaccounts', group: '', namespaced: true },
  Service: { resource: 'services', group: '', namespaced: true },
  Endpoints: { resource: 'endpoints', group: '', namespaced: true },
  ReplicationController: { resource: 'replicationcontrollers', group: '', namespaced: true },
  ConfigMap: { resource: 'configmaps', group: '', namespaced: true },
  Secret: { resource: 'secrets', group: '', namespaced: true },
  ResourceQuota: { resource: 'resourcequotas', group: '', namespaced: true },
  LimitRange: { resource: 'limitranges', group: '', namespaced: true },
  PersistentVolume: { resource: 'persistentvolumes', group: '', namespaced: false },
  PersistentVolumeClaim: { resource: 'persistentvolumeclaims', group: '', namespaced: true },
  Event: { resource: 'events', group: '', namespaced: true },
  Deployment: { resource: 'deployments', group: 'apps', namespaced: true },
  ReplicaSet: { resource: 'replicasets', group: 'apps', namespaced: true },
  StatefulSet: { resource: 'statefulsets', group: 'apps', namespaced: true },
  ControllerRevision: { resource: 'controllerrevisions', group: 'apps', namespaced: true },
  DaemonSet: { resource: 'daemonsets', group: 'apps', namespaced: true },
  Job: { resource: 'jobs', group: 'batch', namespaced: true },
  CronJob: { resource: 'cronjobs', group: 'batch', namespaced: true },
  HorizontalPodAutoscaler: { resource: 'horizontalpodautoscalers', group: 'autoscaling', namespaced: true },
  EndpointSlice: { resource: 'endpointslices', group: 'discovery.k8s.io', namespaced: true },
  Role: { resource: 'roles', group: 'rbac.authorization.k8s.io', namespaced: true },
  ClusterRole: { resource: 'clusterroles', group: 'rbac.authorization.k8s.io', namespaced: false },
  RoleBinding: { resource: 'rolebindings', group: 'rbac.authorization.k8s.io', namespaced: true },
  ClusterRoleBinding: { resource: 'clusterrolebindings', group: 'rbac.authorization.k8s.io', namespaced: false },
  PriorityClass: { resource: 'priorityclasses', group: 'scheduling.k8s.io', namespaced: false },
  RuntimeClass: { resource: 'runtimeclasses', group: 'node.k8s.io', namespaced: false },
  StorageClass: { resource: 'storageclasses', group: 'storage.k8s.io', namespaced: false },
  PodDisruptionBudget: { resource: 'poddisruptionbudgets', group: 'policy', namespaced: true },
  CSINode: { resource: 'csinodes', group: 'storage.k8s.io', namespaced: false },
  CSIDriver: { resource: 'csidrivers', group: 'storage.k8s.io', namespaced: false },
  CSIStorageCapacity: { resource: 'csistoragecapacities', group: 'storage.k8s.io', namespaced: true },
  VolumeAttachment: { resource: 'volumeattachments', group: 'storage.k8s.io', namespaced: false },
  MutatingWebhookConfiguration: { resource: 'mutatingwebhookconfigurations', group: 'admissionregistration.k8s.io', namespaced: false },
  ValidatingWebhookConfiguration: { resource: 'validatingwebhookconfigurations', group: 'admissionregistration.k8s.io', namespaced: false },
  ValidatingAdmissionPolicy: { resource: 'validatingadmissionpolicies', group: 'admissionregistration.k8s.io', namespaced: false },
  ValidatingAdmissionPolicyBinding: { resource: 'validatingadmissionpolicybindings', group: 'admissionregistration.k8s.io', namespaced: false },
};

/**
 * ETCD_PREFIXES are the resources etcd keeps under a name other than their own.
 * See test/integration/etcd/data.go (ExpectedEtcdPath) and pkg/registry/core/{node,service}/storage.
 */
const ETCD_PREFIXES: Readonly<Record<string, string>> = { nodes: 'minions', services: 'services/specs', endpoints: 'services/endpoints', replicationcontrollers: 'controllers' };

/**
 * storageKey is the etcd key of an object: `/registry/pods/default/web`. Built-in kinds are keyed by
 * resource alone, whatever their API group (`/registry/clusterroles/admin`); cluster-scoped objects
 * have no namespace segment.
 */
export function storageKey(kind: string, namespace: string | undefined, name: string): string {
  const info = RESOURCES[kind];
  const resource = info?.resource ?? `${kind.toLowerCase()}s`;
  const prefix = ETCD_PREFIXES[resource] ?? resource;
  return namespace && (info?.namespaced ?? true) ? `/registry/${prefix}/${namespace}/${name}` : `/registry/${prefix}/${name}`;
}

/** keyOf is storageKey for an object. */
export function keyOf(obj: Meta): string {
  return storageKey(obj.kind ?? 'Unknown', obj.metadata?.namespace, obj.metadata?.name ?? '');
}

/**
 * objectPath is the request path of a kind's collection, or of one object and its subresource:
 * `/api/v1/namespaces/default/pods/web/status`, `/api/v1/persistentvolumes/pv-1`,
 * `/apis/apps/v1/namespaces/default/deployments`.
 */
export function objectPath(kind: string, apiVersion: string, namespace: string | undefined, name?: string, subresource?: string): string {
  const r = RESOURCES[kind];
  const collection = `${r?.group ? '/apis' : '/api'}/${apiVersion}${r?.namespaced ? `/namespaces/${namespace ?? ''}` : ''}/${r?.resource ?? kind.toLowerCase()}`;
  return name === undefined ? collection : `${collection}/${name}${subresource ? `/${subresource}` : ''}`;
}

/** podPath is the request path of a pod, or of one of its subresources (`status`, `binding`, `eviction`). */
export function podPath(namespace: string | undefined, name: string, subresource?: string): string {
  return objectPath('Pod', 'v1', namespace, name, subresource);
}
