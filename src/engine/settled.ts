// When a run's create stage is over: the cluster file's own workloads are up, and the manifest's workload has
// reached a state nothing scripted will change (the Behavior has no exit, liveness failure or kubelet stop to come).
import type { KubeObject, Pod } from './api/types';
import type { Behavior } from './cluster/inputs';
import type { Store } from './cluster/store';
import { computeOutcome, type Rejection } from './outcome';
import { ordinalOf, startOrdinal, type StatefulSet } from './controllers/statefulset-identity';
import { STATEFULSET_REVISION_LABEL } from './controllers/statefulset-revision';
import type { DaemonSet } from './controllers/daemonset';
import { currentDaemonSetHash } from './controllers/daemonset-history';
import { isPodUpdated } from './controllers/daemonset-update';
import { templateGeneration } from './controllers/daemonset-pods';

/** clusterSettled: every ReplicaSet and ReplicationController has its replicas ready and every Deployment has observed its generation. */
export function clusterSettled(store: Store): boolean {
  const sets = [...store.list('ReplicaSet'), ...store.list('ReplicationController')] as unknown as { spec?: { replicas?: number }; status?: { readyReplicas?: number; replicas?: number } }[];
  const deployments = store.list('Deployment') as unknown as { metadata?: { generation?: number }; spec?: { replicas?: number }; status?: { observedGeneration?: number; updatedReplicas?: number; availableReplicas?: number } }[];
  return sets.every((rs) => (rs.status?.readyReplicas ?? 0) === (rs.spec?.replicas ?? 1) && (rs.status?.replicas ?? 0) === (rs.spec?.replicas ?? 1))
    && deployments.every((d) => (d.status?.observedGeneration ?? 0) >= (d.metadata?.generation ?? 1) && (d.status?.updatedReplicas ?? 0) === (d.spec?.replicas ?? 1));
}

/**
 * changeScripted tells whether something is still to happen to a running pod: activeDeadlineSeconds, a container or
 * sidecar whose Behavior makes it exit or fail its liveness probe, or (without a delete) its node's kubelet stopping.
 */
export function changeScripted(pod: Pod, behavior: Behavior, deleting: boolean): boolean {
  const name = pod.metadata?.name ?? '';
  // activeDeadlineSeconds will fail a running pod; sidecars (restartPolicy Always init containers) run beside the containers.
  if (pod.spec?.activeDeadlineSeconds !== undefined) return true;
  const sidecars = (pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always');
  return [...(pod.spec?.containers ?? []), ...sidecars].some((c) => {
    const b = behavior.containers[`${name}/${c.name}`] ?? behavior.containers[c.name];
    const statuses = [...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? [])];
    const terminated = statuses.find((s) => s.name === c.name)?.state?.terminated;
    return !terminated && (b?.exitAfterSeconds !== undefined || b?.livenessFailsAfterSeconds !== undefined);
  }) || nodeGoesDown(pod, behavior, deleting);
}

/** nodeGoesDown: without a delete, the Behavior stops the kubelet of the pod's node and the pod was not yet evicted for it. */
function nodeGoesDown(pod: Pod, behavior: Behavior, deleting: boolean): boolean {
  const node = pod.spec?.nodeName;
  return !deleting && node !== undefined && behavior.nodes[node]?.kubelet === 'down' && !pod.metadata?.deletionTimestamp;
}

/** UNOBSERVED stands for a set whose controller has not yet seen its latest generation (a new template just applied). */
const UNOBSERVED = 'unobserved';

/**
 * rollingSet is the live set an applied object of the kind names, when it updates with RollingUpdate; UNOBSERVED when
 * its controller has not seen its latest generation yet; undefined for any other object.
 */
function rollingSet<T extends KubeObject & { spec?: { updateStrategy?: { type?: string } } }>(store: Store, o: KubeObject, kind: string): T | typeof UNOBSERVED | undefined {
  if (o.kind !== kind) return undefined;
  const set = store.get<T>(kind, o.metadata?.namespace, o.metadata?.name ?? '');
  if (!set || set.metadata?.uid !== o.metadata?.uid || set.spec?.updateStrategy?.type !== 'RollingUpdate') return undefined;
  return ((set['status'] as { observedGeneration?: number } | undefined)?.observedGeneration ?? 0) < (set.metadata?.generation ?? 1) ? UNOBSERVED : set;
}

/**
 * statefulRolloutPending: an applied StatefulSet whose RollingUpdate has not yet reached every ordinal from its
 * partition up (a pod there is not at status.updateRevision, or the controller has not seen the new template). With
 * minReadySeconds every pod can be Running and Ready while the controller waits to delete the next one.
 */
function statefulRolloutPending(store: Store, applied: KubeObject[]): boolean {
  return applied.some((o) => {
    const set = rollingSet<StatefulSet>(store, o, 'StatefulSet');
    if (set === undefined || set === UNOBSERVED) return set === UNOBSERVED;
    const update = set.status?.['updateRevision'];
    const from = startOrdinal(set) + (set.spec?.updateStrategy?.rollingUpdate?.partition ?? 0);
    // The set's own pods, from the store's controller index: the test costs the set's pods, not the namespace's.
    return store.byIndex<Pod>('controller', set.metadata?.uid ?? '', 'Pod')
      .some((p) => ordinalOf(p) >= from && p.metadata?.labels?.[STATEFULSET_REVISION_LABEL] !== update);
  });
}

/**
 * daemonRolloutPending: an applied DaemonSet whose RollingUpdate has not yet reached every pod (one of its pods not
 * being deleted is not updated — IsPodUpdated against the current revision's hash — or the controller has not seen the
 * new template). With minReadySeconds every pod can be Running and Ready while the controller waits to delete the
 * next old one.
 */
function daemonRolloutPending(store: Store, applied: KubeObject[]): boolean {
  return applied.some((o) => {
    const ds = rollingSet<DaemonSet>(store, o, 'DaemonSet');
    if (ds === undefined || ds === UNOBSERVED) return ds === UNOBSERVED;
    const hash = currentDaemonSetHash(store, ds);
    if (hash === undefined) return true;
    const generation = templateGeneration(ds);
    return store.byIndex<Pod>('controller', ds.metadata?.uid ?? '', 'Pod')
      .some((p) => !p.metadata?.deletionTimestamp && !isPodUpdated(p, hash, generation));
  });
}

/**
 * workloadSettled: Succeeded or Failed, or Running and Ready with no container whose Behavior still has it exit or fail
 * its liveness probe later (that change is what the user wants to see), or nothing but objects no controller of the
 * engine acts on. `pods` lists the workload's pods, read only when it is Running.
 */
export function workloadSettled(
  store: Store, applied: KubeObject[], rejection: Rejection | undefined, finishedJobs: ReadonlyMap<string, 'Succeeded' | 'Failed'>,
  pods: () => Pod[], behavior: Behavior, deleting: boolean,
): boolean {
  // A CronJob that is not suspended never settles: it starts a Job at every schedule time, so the run goes on to --for
  // or to its time limit (10 minutes without --for). An autoscaler likewise.
  if (cronJobScheduling(store, applied)) return false;
  // A HorizontalPodAutoscaler never settles either: it reads the metrics and may rescale every 15 s.
  if (applied.some((o) => o.kind === 'HorizontalPodAutoscaler' && store.get('HorizontalPodAutoscaler', o.metadata?.namespace, o.metadata?.name ?? '')?.metadata?.uid === o.metadata?.uid)) return false;
  // A workload the engine does not run never settles by itself: the rest decides.
  const outcome = computeOutcome(store, applied, rejection, false, new Set(), false, finishedJobs, true);
  if (outcome === 'NotSimulated') return true;
  // A workload deleted from under the run (a bare pod a drain evicted) has nothing more to come.
  if (outcome === 'Deleted') return true;
  if (outcome === 'Running') return !pods().some((p) => changeScripted(p, behavior, deleting)) && !statefulRolloutPending(store, applied) && !daemonRolloutPending(store, applied);
  // A finished Job with ttlSecondsAfterFinished is not settled until the TTL controller has deleted it.
  const ttlPending = applied.some((o) => {
    const live = o.kind === 'Job' ? store.get(String(o.kind), o.metadata?.namespace, o.metadata?.name ?? '') : undefined;
    return live && live.metadata?.uid === o.metadata?.uid && (live['spec'] as { ttlSecondsAfterFinished?: number } | undefined)?.ttlSecondsAfterFinished !== undefined;
  });
  return (outcome === 'Succeeded' || outcome === 'Failed') && !ttlPending;
}

/** cronJobScheduling: an applied CronJob is still stored, not being deleted and not suspended. */
function cronJobScheduling(store: Store, applied: KubeObject[]): boolean {
  return applied.some((o) => {
    if (o.kind !== 'CronJob') return false;
    const live = store.get(String(o.kind), o.metadata?.namespace, o.metadata?.name ?? '');
    return live !== undefined && live.metadata?.uid === o.metadata?.uid && !live.metadata?.deletionTimestamp
      && (live['spec'] as { suspend?: boolean } | undefined)?.suspend !== true;
  });
}
