// The state store, the simulation's etcd: objects by key, resourceVersions, watches and cheap snapshots.
import { deepClone, type KubeObject, type Meta, type Mutable } from '../api/types';

/** WatchEventType is the type of a watch event, as the API server sends them. */
export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** WatchListener is told of every change to the store. */
export type WatchListener = (type: WatchEventType, obj: KubeObject, old: KubeObject | undefined) => void;

/** RESOURCES maps a kind to its resource (plural) name and whether it lives in a namespace. */
export const RESOURCES: Readonly<Record<string, { resource: string; group: string; namespaced: boolean }>> = {
  Pod: { resource: 'pods', group: '', namespaced: true },
  Node: { resource: 'nodes', group: '', namespaced: false },
  Namespace: { resource: 'namespaces', group: '', namespaced: false },
  ServiceAccount: { resource: 'serviceaccounts', group: '', namespaced: true },
  Service: { resource: 'services', group: '', namespaced: true },
  Endpoints: { resource: 'endpoints', group: '', namespaced: true },
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
  DaemonSet: { resource: 'daemonsets', group: 'apps', namespaced: true },
  Job: { resource: 'jobs', group: 'batch', namespaced: true },
  CronJob: { resource: 'cronjobs', group: 'batch', namespaced: true },
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

/** StoreSnapshot is the store's content at one moment: stored objects are never mutated, so sharing them is safe. */
export interface StoreSnapshot {
  objects: ReadonlyMap<string, KubeObject>;
  resourceVersion: number;
}

/**
 * Store keeps the objects by etcd key. Objects handed out are frozen: a writer passes a new
 * object (update() clones for it), so a snapshot is a copy of the map, not of the objects.
 */
export class Store {
  private objects = new Map<string, KubeObject>();
  /** keys are the keys in order, kept until a key is added or removed (lists are read far more often than that). */
  private keys: string[] | undefined;
  private listeners: WatchListener[] = [];
  /** resourceVersion is etcd's revision: it grows by one with every write. */
  resourceVersion = 1000;

  /** get returns the stored object of a kind, namespace and name. */
  get<T = KubeObject>(kind: string, namespace: string | undefined, name: string): T | undefined {
    return this.objects.get(storageKey(kind, namespace, name)) as T | undefined;
  }

  /** list returns the stored objects of a kind, in key order, optionally in one namespace. */
  list<T = KubeObject>(kind: string, namespace?: string): T[] {
    const out: T[] = [];
    for (const obj of this.sorted()) {
      if (obj.kind === kind && (namespace === undefined || obj.metadata?.namespace === namespace)) out.push(obj as T);
    }
    return out;
  }

  /** all returns every stored object in key order. */
  all(): KubeObject[] {
    return this.sorted();
  }

  /** put stores an object (create or replace), gives it the next resourceVersion and tells the watchers. */
  put<T extends Meta>(obj: T): T {
    const key = keyOf(obj);
    const old = this.objects.get(key);
    this.resourceVersion++;
    const stored = deepFreeze({ ...obj, metadata: { ...obj.metadata, resourceVersion: String(this.resourceVersion) } }) as T;
    if (!old) this.keys = undefined;
    this.objects.set(key, stored as unknown as KubeObject);
    for (const l of this.listeners) l(old ? 'MODIFIED' : 'ADDED', stored as unknown as KubeObject, old);
    return stored;
  }

  /** update applies a change to a clone of the stored object and stores the result; undefined when absent. */
  update<T extends Meta = KubeObject>(kind: string, namespace: string | undefined, name: string, change: (obj: Mutable<T>) => void): T | undefined {
    const current = this.get<T>(kind, namespace, name);
    if (!current) return undefined;
    const next = deepClone(current) as Mutable<T>;
    change(next);
    return this.put(next as T);
  }

  /** remove deletes an object and tells the watchers. */
  remove(kind: string, namespace: string | undefined, name: string): KubeObject | undefined {
    const key = storageKey(kind, namespace, name);
    const old = this.objects.get(key);
    if (!old) return undefined;
    this.objects.delete(key);
    this.keys = undefined;
    this.resourceVersion++;
    for (const l of this.listeners) l('DELETED', old, old);
    return old;
  }

  /** watch registers a listener for every later change. */
  watch(listener: WatchListener): void {
    this.listeners.push(listener);
  }

  /** snapshot captures the store's content now. */
  snapshot(): StoreSnapshot {
    return { objects: new Map(this.objects), resourceVersion: this.resourceVersion };
  }

  private sorted(): KubeObject[] {
    this.keys ??= [...this.objects.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return this.keys.map((k) => this.objects.get(k) as KubeObject);
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
