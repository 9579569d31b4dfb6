// How many pods a PodDisruptionBudget expects: the scale of the controllers of its pods, found through the
// ReplicationController, Deployment (by way of its ReplicaSet), ReplicaSet and StatefulSet listers, then the scale
// subresource of any other kind; and the budget's numbers from minAvailable or maxUnavailable, rounded up.
// See pkg/controller/disruption/disruption.go (finders, getPodReplicationController, getPodDeployment,
// getPodReplicaSet, getPodStatefulSet, getScaleController, getExpectedScale, getExpectedPodCount) at v1.36.3 and
// staging/src/k8s.io/apimachinery/pkg/util/intstr/intstr.go (GetScaledValueFromIntOrPercent) at v0.36.3.
import type { PodDisruptionBudget } from '../api/pod-disruption-budget';
import type { KubeObject, OwnerReference, Pod } from '../api/types';
import { mappingFor } from '../apiserver/server';
import type { Store } from '../cluster/store';
import { controllerOf } from './owner';

/** ExpectedCount is what getExpectedPodCount found, or the error that stops the sync. */
export interface ExpectedCount {
  expectedCount: number;
  desiredHealthy: number;
  /** unmanagedPods are the selected pods with no controller, by name. */
  unmanagedPods: string[];
  error?: string;
}

/** SCALED_RESOURCES are the engine's resources with a scale subresource (the others answer /scale with 404). */
const SCALED_RESOURCES = new Set(['replicationcontrollers', 'deployments.apps', 'replicasets.apps', 'statefulsets.apps']);

interface ControllerAndScale {
  uid: string;
  scale: number;
}

type Finder = (store: Store, ref: OwnerReference, namespace: string) => ControllerAndScale | undefined;

/** groupOf is schema.ParseGroupVersion's group: `apps/v1` is apps, `v1` the core group. */
function groupOf(apiVersion: string): string {
  return apiVersion.includes('/') ? apiVersion.split('/')[0]! : '';
}

/** verifyGroupKind: the reference names the kind in one of the groups. */
function verifyGroupKind(ref: OwnerReference, kind: string, groups: readonly string[]): boolean {
  return ref.kind === kind && groups.includes(groupOf(ref.apiVersion));
}

const replicasOf = (obj: KubeObject): number => (obj['spec'] as { replicas?: number } | undefined)?.replicas ?? 1;

/** lookUp is a lister's Get followed by the uid check: the object the reference names, or nothing. */
function lookUp(store: Store, kind: string, namespace: string, ref: OwnerReference): KubeObject | undefined {
  const obj = store.get<KubeObject>(kind, namespace, ref.name);
  return obj && obj.metadata?.uid === ref.uid ? obj : undefined;
}

const getPodReplicationController: Finder = (store, ref, ns) => {
  if (!verifyGroupKind(ref, 'ReplicationController', [''])) return undefined;
  const rc = lookUp(store, 'ReplicationController', ns, ref);
  return rc && { uid: ref.uid, scale: replicasOf(rc) };
};

const getPodDeployment: Finder = (store, ref, ns) => {
  if (!verifyGroupKind(ref, 'ReplicaSet', ['apps', 'extensions'])) return undefined;
  const rs = lookUp(store, 'ReplicaSet', ns, ref);
  const owner = rs && controllerOf(rs);
  if (!owner || !verifyGroupKind(owner, 'Deployment', ['apps', 'extensions'])) return undefined;
  const deployment = lookUp(store, 'Deployment', ns, owner);
  return deployment && { uid: owner.uid, scale: replicasOf(deployment) };
};

const getPodReplicaSet: Finder = (store, ref, ns) => {
  if (!verifyGroupKind(ref, 'ReplicaSet', ['apps', 'extensions'])) return undefined;
  const rs = lookUp(store, 'ReplicaSet', ns, ref);
  // "Skip RS if it's controlled by a Deployment."
  if (!rs || controllerOf(rs)?.kind === 'Deployment') return undefined;
  return { uid: ref.uid, scale: replicasOf(rs) };
};

const getPodStatefulSet: Finder = (store, ref, ns) => {
  if (!verifyGroupKind(ref, 'StatefulSet', ['apps'])) return undefined;
  const set = lookUp(store, 'StatefulSet', ns, ref);
  return set && { uid: ref.uid, scale: replicasOf(set) };
};

/** ScaleError is getScaleController's error: the kind is unknown, or its resource has no scale subresource. */
class ScaleError extends Error {}

/**
 * getScaleController is the fallback: the RESTMapper maps the reference's kind (`no matches for kind ...` when it
 * cannot), then GET .../scale; a 404 from a resource that has the subresource means the object is gone, from one
 * that has none an error: `jobs.batch does not implement the scale subresource`.
 */
const getScaleController: Finder = (store, ref, ns) => {
  const mapping = mappingFor(ref.apiVersion, ref.kind);
  if (!mapping) throw new ScaleError(`no matches for kind ${JSON.stringify(ref.kind)} in version ${JSON.stringify(ref.apiVersion)}`);
  const gr = mapping.group ? `${mapping.resource}.${mapping.group}` : mapping.resource;
  if (!SCALED_RESOURCES.has(gr)) throw new ScaleError(`${gr} does not implement the scale subresource`);
  const obj = lookUp(store, ref.kind, ns, ref);
  return obj && { uid: ref.uid, scale: replicasOf(obj) };
};

/** FINDERS are tried in the order of DisruptionController.finders(). */
const FINDERS: readonly Finder[] = [getPodReplicationController, getPodDeployment, getPodReplicaSet, getPodStatefulSet, getScaleController];

/**
 * getExpectedScale sums the scale of every controller of the pods (each counted once); a pod without a controller is
 * unmanaged, one whose controller no finder finds is an error: `found no controllers for pod "web-0"`.
 */
export function getExpectedScale(store: Store, pods: readonly Pod[]): { expectedCount: number; unmanagedPods: string[]; error?: string } {
  const scales = new Map<string, number>();
  const unmanagedPods: string[] = [];
  for (const pod of pods) {
    const ref = controllerOf(pod as KubeObject);
    if (!ref) {
      unmanagedPods.push(pod.metadata?.name ?? '');
      continue;
    }
    if (scales.has(ref.uid)) continue;
    let found: ControllerAndScale | undefined;
    try {
      for (const finder of FINDERS) {
        found = finder(store, ref, pod.metadata?.namespace ?? '');
        if (found) break;
      }
    } catch (err) {
      if (err instanceof ScaleError) return { expectedCount: 0, unmanagedPods, error: err.message };
      throw err;
    }
    if (!found) return { expectedCount: 0, unmanagedPods, error: `found no controllers for pod ${JSON.stringify(pod.metadata?.name ?? '')}` };
    scales.set(found.uid, found.scale);
  }
  let expectedCount = 0;
  for (const n of scales.values()) expectedCount += n;
  return { expectedCount, unmanagedPods };
}

/**
 * scaledValue is GetScaledValueFromIntOrPercent with roundUp: an int as it is, a percentage of total rounded up; any
 * other string is an error (`invalid value for IntOrString: invalid type: string is not a percentage`).
 */
export function scaledValue(value: number | string, total: number): { value: number } | { error: string } {
  if (typeof value === 'number') return { value };
  if (!value.endsWith('%')) return { error: 'invalid value for IntOrString: invalid type: string is not a percentage' };
  const digits = value.slice(0, -1);
  // strconv.Atoi: an optional sign and decimal digits, within int64.
  if (!/^[+-]?\d+$/.test(digits) || !Number.isSafeInteger(Number(digits))) {
    return { error: `invalid value for IntOrString: invalid value ${JSON.stringify(value)}: strconv.Atoi: parsing ${JSON.stringify(digits)}: invalid syntax` };
  }
  return { value: Math.ceil((Number(digits) * total) / 100) };
}

/**
 * getExpectedPodCount: with maxUnavailable, the controllers' scale less maxUnavailable (at least 0); with an integer
 * minAvailable, that many out of the selected pods; with a percentage, that share of the controllers' scale.
 */
export function getExpectedPodCount(store: Store, pdb: PodDisruptionBudget, pods: readonly Pod[]): ExpectedCount {
  const spec = pdb.spec ?? {};
  if (spec.maxUnavailable !== undefined && spec.maxUnavailable !== null) {
    const scale = getExpectedScale(store, pods);
    if (scale.error !== undefined) return { ...scale, desiredHealthy: 0 };
    const max = scaledValue(spec.maxUnavailable, scale.expectedCount);
    if ('error' in max) return { ...scale, desiredHealthy: 0, error: max.error };
    return { ...scale, desiredHealthy: Math.max(0, scale.expectedCount - max.value) };
  }
  if (spec.minAvailable !== undefined && spec.minAvailable !== null) {
    if (typeof spec.minAvailable === 'number') return { expectedCount: pods.length, desiredHealthy: spec.minAvailable, unmanagedPods: [] };
    const scale = getExpectedScale(store, pods);
    if (scale.error !== undefined) return { ...scale, desiredHealthy: 0 };
    const min = scaledValue(spec.minAvailable, scale.expectedCount);
    if ('error' in min) return { ...scale, desiredHealthy: 0, error: min.error };
    return { ...scale, desiredHealthy: min.value };
  }
  return { expectedCount: 0, desiredHealthy: 0, unmanagedPods: [] };
}
