// When a run's create stage is over: the cluster file's own workloads are up, and the manifest's workload has
// reached a state nothing scripted will change (the Behavior has no exit, liveness failure or kubelet stop to come).
import type { Pod } from './api/types';
import type { Behavior } from './cluster/inputs';
import type { Store } from './cluster/store';

/** clusterSettled: every ReplicaSet has its replicas ready and every Deployment has observed its generation. */
export function clusterSettled(store: Store): boolean {
  const sets = store.list('ReplicaSet') as unknown as { spec?: { replicas?: number }; status?: { readyReplicas?: number; replicas?: number } }[];
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
