// Typed Kubernetes API objects as the engine stores and passes them around.
// The shapes come from the `kubernetes-types` package (generated from the Kubernetes OpenAPI spec).
import type { ObjectMeta, OwnerReference, LabelSelector, LabelSelectorRequirement } from 'kubernetes-types/meta/v1';
import type {
  Pod, PodSpec, PodStatus, PodCondition, Container, ContainerStatus, ContainerState, ContainerPort,
  Node, NodeSpec, NodeStatus, Taint, Toleration, Namespace, ServiceAccount, Service, ResourceQuota,
  LimitRange, PersistentVolume, PersistentVolumeClaim, ResourceRequirements, Volume, VolumeMount, Probe,
  NodeSelector, NodeSelectorTerm, NodeSelectorRequirement, Affinity, PodTemplateSpec, EnvVar, Lifecycle,
  LifecycleHandler, Event as CoreEvent,
} from 'kubernetes-types/core/v1';
import type { Deployment, DeploymentSpec, ReplicaSet, ReplicaSetSpec } from 'kubernetes-types/apps/v1';
import type { Role, ClusterRole, RoleBinding, ClusterRoleBinding, PolicyRule, Subject, RoleRef } from 'kubernetes-types/rbac/v1';
import type { PriorityClass } from 'kubernetes-types/scheduling/v1';

export type {
  ObjectMeta, OwnerReference, LabelSelector, LabelSelectorRequirement,
  Pod, PodSpec, PodStatus, PodCondition, Container, ContainerStatus, ContainerState, ContainerPort,
  Node, NodeSpec, NodeStatus, Taint, Toleration, Namespace, ServiceAccount, Service, ResourceQuota,
  LimitRange, PersistentVolume, PersistentVolumeClaim, ResourceRequirements, Volume, VolumeMount, Probe,
  NodeSelector, NodeSelectorTerm, NodeSelectorRequirement, Affinity, PodTemplateSpec, EnvVar, Lifecycle,
  LifecycleHandler, CoreEvent, Deployment, DeploymentSpec, ReplicaSet, ReplicaSetSpec,
  Role, ClusterRole, RoleBinding, ClusterRoleBinding, PolicyRule, Subject, RoleRef, PriorityClass,
};

/** KubeObject is any API object: apiVersion, kind and metadata, with the rest left open. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  [field: string]: unknown;
}

/** Meta is what every API object has: the part that functions reading only metadata accept. */
export interface Meta {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata?: ObjectMeta;
}

/** Mutable strips the `readonly` of the generated types, for code that edits its own clone of an object. */
export type Mutable<T> = T extends readonly (infer U)[] ? Mutable<U>[] : T extends object ? { -readonly [K in keyof T]: Mutable<T[K]> } : T;

/** ObjectRef names one stored object the way the trace and events do: `Pod/default/web`, `Node/worker-1`. */
export type ObjectRef = string;

/** objectRef builds the `Kind/namespace/name` (or `Kind/name` when cluster-scoped) reference of an object. */
export function objectRef(kind: string, namespace: string | undefined, name: string): ObjectRef {
  return namespace ? `${kind}/${namespace}/${name}` : `${kind}/${name}`;
}

/** refOf is objectRef for a stored object. */
export function refOf(obj: Meta): ObjectRef {
  return objectRef(obj.kind ?? 'Unknown', obj.metadata?.namespace, obj.metadata?.name ?? obj.metadata?.generateName ?? '');
}

/** podKey is a pod's `namespace/name`, as cache.MetaNamespaceKeyFunc and controller.PodKey make it. */
export function podKey(pod: Meta): string {
  return `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`;
}

/** isObject tells a plain JSON object (not an array, not null) apart from other values. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * sameShape copies an object's own fields one by one, in their order. Objects that have the same fields in the same
 * order then share one hidden class in V8; an object literal that spreads another (`{ ...input, at }`, or a field
 * spread in only when set) gets a hidden class of its own, about 200 bytes more for every one of the thousands of
 * Events and statuses a big run keeps.
 */
export function sameShape<T extends object>(from: T): T {
  const to = {} as Record<string, unknown>;
  for (const key of Object.keys(from)) to[key] = (from as Record<string, unknown>)[key];
  return to as T;
}

/** deepFreeze freezes a value and everything in it (a part frozen already is taken as frozen throughout). */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    // for-in walks the own keys without making a list of them (the object's prototype has no enumerable ones).
    if (Array.isArray(value)) for (let i = 0; i < value.length; i++) deepFreeze(value[i]);
    else for (const key in value) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

/** deepClone copies a JSON value. Stored objects are never mutated in place: writers clone first. */
export function deepClone<T>(value: T): T {
  return cloneValue(value) as T;
}

/**
 * cloneValue copies JSON-like data field by field, several times faster than structuredClone's serialization for the
 * objects the store rewrites on every status update. Anything but plain objects and arrays (a Map, a Date) goes
 * through structuredClone; a `__proto__` key stays an own field, as JSON.parse and structuredClone keep it.
 */
function cloneValue(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = cloneValue(value[i]);
    return out;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return structuredClone(value);
  const out: Record<string, unknown> = {};
  // A plain object's prototype (Object.prototype or none) has no enumerable keys: for-in walks its own, in order.
  for (const key in value) {
    const v = cloneValue((value as Record<string, unknown>)[key]);
    if (key === '__proto__') Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
    else out[key] = v;
  }
  return out;
}
