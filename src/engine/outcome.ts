// The outcome of a run: what became of the workload the manifest described.
import type { Deployment, KubeObject, Pod, ReplicaSet } from './api/types';
import type { Store } from './cluster/store';
import type { PhaseName } from './runtime/phases';
import type { DaemonSet } from './controllers/daemonset';

/**
 * Outcome is the run's verdict, as the CLI's JSON reports it. CrashLoopBackOff is a workload that is not Running because
 * a container keeps failing (what `kubectl get pods` shows); NotSimulated is a workload stored whose controller the
 * engine does not run, which therefore did nothing a real cluster would have done; DryRun is a kubectl command run with
 * --dry-run, which stores nothing, so nothing ran.
 */
export type Outcome = 'Running' | 'Succeeded' | 'Failed' | 'Pending' | 'CrashLoopBackOff' | 'Rejected' | 'Deleted' | 'Terminating' | 'NotSimulated' | 'DryRun';

/** OUTCOMES are the values of Outcome, in the order the README explains them. */
export const OUTCOMES: readonly Outcome[] = ['Running', 'Succeeded', 'Failed', 'Pending', 'CrashLoopBackOff', 'Rejected', 'Deleted', 'Terminating', 'NotSimulated', 'DryRun'];

/**
 * NOT_SIMULATED names, by kind, the controller a real cluster runs for objects of that kind and the engine does not:
 * such an object is stored and validated as kube-apiserver does, and nothing more happens to it. None is left: the
 * ReplicationController, the last, is run by the ReplicaSet controller's code as kube-controller-manager runs it
 * (controllers/replication.ts), and judged as a ReplicaSet is. A PodDisruptionBudget
 * is not among them: the disruption controller runs, and a budget is no workload (it runs no pod), so the outcome
 * speaks of the workloads beside it (a budget alone is Succeeded once stored, as a ConfigMap is). A
 * HorizontalPodAutoscaler is the same: the autoscaler runs, and the outcome speaks of its target (the Deployment,
 * ReplicaSet or StatefulSet beside it, with the pods it scaled to).
 */
export const NOT_SIMULATED: ReadonlyMap<string, string> = new Map<string, string>();

/** WorkloadOutcome is the verdict on one workload the manifest applied. */
export interface WorkloadOutcome {
  object: string;
  outcome: Outcome;
  /** note says why, for a workload the engine did not run. */
  note?: string;
}

/** Rejection says which phase refused a request, with the API server's status. */
export interface Rejection {
  phase: PhaseName;
  code: number;
  reason: string;
  message: string;
  object?: string;
}

const WORKLOAD_KINDS = new Set(['Pod', 'Deployment', 'ReplicaSet', 'ReplicationController', 'Job', 'CronJob', 'StatefulSet', 'DaemonSet']);

/** jobOutcome reads a Job's terminal condition: Succeeded when Complete, Failed when Failed, else undefined. */
export function jobOutcome(job: KubeObject): 'Succeeded' | 'Failed' | undefined {
  const conditions = ((job['status'] as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? []);
  if (conditions.some((c) => c.type === 'Complete' && c.status === 'True')) return 'Succeeded';
  if (conditions.some((c) => c.type === 'Failed' && c.status === 'True')) return 'Failed';
  return undefined;
}

/**
 * noteFinishedJob remembers a Job's verdict the first time it is seen finished, and, for a Job a CronJob controls,
 * the same verdict under the CronJob's uid: the CronJob's last finished Job, which outlives a Job its history limit
 * deletes.
 */
export function noteFinishedJob(finishedJobs: Map<string, 'Succeeded' | 'Failed'>, job: KubeObject): void {
  const verdict = jobOutcome(job);
  const uid = job.metadata?.uid ?? '';
  if (!verdict || finishedJobs.has(uid)) return;
  finishedJobs.set(uid, verdict);
  const owner = (job.metadata?.ownerReferences ?? []).find((r) => r.controller);
  if (owner?.kind === 'CronJob') finishedJobs.set(owner.uid, verdict);
}

/**
 * cronJobOutcome judges a CronJob by the verdict of its last Job to finish: Succeeded or Failed; Pending until one has
 * finished (before the first schedule time, while the first Job runs, or suspended). A CronJob never finishes, and a
 * Job that runs now is not a verdict yet, so the last one that finished is the most honest word on it.
 */
function cronJobOutcome(cj: KubeObject, finishedJobs: ReadonlyMap<string, 'Succeeded' | 'Failed'>): 'Succeeded' | 'Failed' | 'Pending' {
  return finishedJobs.get(cj.metadata?.uid ?? '') ?? 'Pending';
}

/** cronJobPods lists the pods of the Jobs a CronJob controls. */
function cronJobPods(store: Store, cj: KubeObject): Pod[] {
  return store.byIndex('controller', cj.metadata?.uid ?? '', 'Job').flatMap((j) => store.byIndex<Pod>('controller', j.metadata?.uid ?? '', 'Pod'));
}

/** workloadPods lists the live pods the applied objects stand for: themselves, or those their ReplicaSets (or they, as ReplicationControllers) own. */
export function workloadPods(store: Store, applied: KubeObject[]): Pod[] {
  const out: Pod[] = [];
  for (const obj of applied) {
    const ns = obj.metadata?.namespace;
    const uid = obj.metadata?.uid ?? '';
    if (obj.kind === 'Pod') {
      const pod = store.get<Pod>('Pod', ns, obj.metadata?.name ?? '');
      if (pod && pod.metadata?.uid === uid) out.push(pod);
    } else if (obj.kind === 'Job' || obj.kind === 'StatefulSet' || obj.kind === 'DaemonSet') {
      out.push(...store.byIndex<Pod>('controller', uid, 'Pod'));
    } else if (obj.kind === 'CronJob') {
      out.push(...cronJobPods(store, obj));
    } else if (obj.kind === 'Deployment' || obj.kind === 'ReplicaSet' || obj.kind === 'ReplicationController') {
      const sets = obj.kind === 'Deployment' ? store.byIndex('owner', uid, 'ReplicaSet') : [obj];
      for (const rs of sets) out.push(...store.byIndex<Pod>('owner', rs.metadata?.uid ?? '', 'Pod'));
    }
  }
  return out;
}

/** isWorkloadPod tells whether workloadPods would list this pod, without listing the others. */
export function isWorkloadPod(store: Store, applied: ReadonlyMap<string, KubeObject>, pod: Pod): boolean {
  const appliedUids = new Set<string>();
  for (const obj of applied.values()) appliedUids.add(obj.metadata?.uid ?? '');
  const p = pod as unknown as KubeObject;
  if (appliedUids.has(pod.metadata?.uid ?? '')) return true;
  const owners = p.metadata?.ownerReferences ?? [];
  for (const ref of owners) {
    if (ref.controller && (ref.kind === 'Job' || ref.kind === 'StatefulSet' || ref.kind === 'DaemonSet') && appliedUids.has(ref.uid)) return true;
    // A pod of a Job an applied CronJob made.
    if (ref.controller && ref.kind === 'Job') {
      const job = store.byIndex('uid', ref.uid)[0];
      if (job && (job.metadata?.ownerReferences ?? []).some((r) => r.controller && r.kind === 'CronJob' && appliedUids.has(r.uid))) return true;
    }
    if (ref.kind === 'ReplicationController' && appliedUids.has(ref.uid)) return true;
    if (ref.kind !== 'ReplicaSet') continue;
    if (appliedUids.has(ref.uid)) return true;
    const rs = store.byIndex('uid', ref.uid)[0];
    if (rs && (rs.metadata?.ownerReferences ?? []).some((r) => r.kind === 'Deployment' && appliedUids.has(r.uid))) return true;
  }
  return false;
}

function isReady(pod: Pod): boolean {
  return pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}

function desiredReplicas(store: Store, obj: KubeObject): number {
  if (obj.kind === 'Pod') return 1;
  // A DaemonSet wants one pod per node that should run one: status.desiredNumberScheduled, as its controller wrote it.
  if (obj.kind === 'DaemonSet') {
    const live = store.get<DaemonSet>('DaemonSet', obj.metadata?.namespace, obj.metadata?.name ?? '');
    const desired = live?.status?.['desiredNumberScheduled'];
    return typeof desired === 'number' ? desired : 0;
  }
  const live = store.get<Deployment | ReplicaSet>(String(obj.kind), obj.metadata?.namespace, obj.metadata?.name ?? '');
  return live?.spec?.replicas ?? 1;
}

/**
 * computeOutcome judges the workload: Rejected when a request was refused; after a delete, Deleted
 * once every applied object and pod is gone, else Terminating; otherwise Deleted when the workloads are gone all the
 * same (a bare pod a drain evicted), Running when every replica
 * runs and is Ready, Succeeded when all completed, Failed when one failed, Terminating when every pod is being
 * deleted (a taint eviction no kubelet confirms), else Pending.
 */
export function computeOutcome(
  store: Store, applied: KubeObject[], rejection: Rejection | undefined, deleting: boolean, knownPodUids: ReadonlySet<string> = new Set(),
  orphanDependents = false, finishedJobs: ReadonlyMap<string, 'Succeeded' | 'Failed'> = new Map(), allowUnsimulated = false,
): Outcome {
  if (rejection) return 'Rejected';
  // Nothing is a success for a workload no controller acted on, unless asked to judge the rest alone.
  // With no other object to judge by, it stays NotSimulated even then.
  const unsimulated = deleting ? [] : applied.filter((o) => NOT_SIMULATED.has(String(o.kind)));
  if (unsimulated.length > 0) {
    if (!allowUnsimulated || unsimulated.length === applied.length) return 'NotSimulated';
    applied = applied.filter((o) => !unsimulated.includes(o));
  }
  const workloads = applied.filter((o) => WORKLOAD_KINDS.has(String(o.kind)));
  const pods = workloadPods(store, applied);
  if (deleting) {
    const remaining = applied.filter((o) => {
      const live = store.get(String(o.kind), o.metadata?.namespace, o.metadata?.name ?? '');
      return live && live.metadata?.uid === o.metadata?.uid;
    });
    // Pods whose ReplicaSet is already gone are still the workload's until they are gone too.
    const orphans = [...knownPodUids].filter((uid) => store.byIndex('uid', uid).some((o) => o.kind === 'Pod'));
    if (orphanDependents) return remaining.length === 0 ? 'Deleted' : 'Terminating';
    return remaining.length === 0 && pods.length === 0 && orphans.length === 0 ? 'Deleted' : 'Terminating';
  }
  if (workloads.length === 0) return applied.length > 0 ? 'Succeeded' : 'Pending';
  // A CronJob speaks by its last finished Job (cronJobOutcome); the rest are judged beside it.
  const cronJobs = workloads.filter((w) => w.kind === 'CronJob');
  if (cronJobs.length > 0) {
    const verdicts = cronJobs.map((c) => cronJobOutcome(c, finishedJobs));
    if (verdicts.includes('Failed')) return 'Failed';
    if (!verdicts.every((v) => v === 'Succeeded')) return 'Pending';
    if (cronJobs.length === workloads.length) return 'Succeeded';
  }
  // A Job speaks by its terminal condition (remembered once the TTL controller has deleted it).
  const jobs = workloads.filter((w) => w.kind === 'Job');
  if (jobs.length > 0) {
    const verdicts = jobs.map((j) => {
      const live = store.get(String(j.kind), j.metadata?.namespace, j.metadata?.name ?? '');
      return (live && live.metadata?.uid === j.metadata?.uid ? jobOutcome(live) : undefined) ?? finishedJobs.get(j.metadata?.uid ?? '');
    });
    if (verdicts.includes('Failed')) return 'Failed';
    if (!verdicts.every((v) => v === 'Succeeded')) return 'Pending';
    if (jobs.length === workloads.length) return 'Succeeded';
  }
  const others = workloads.filter((w) => w.kind !== 'Job' && w.kind !== 'CronJob');
  // A workload deleted by something other than the run's own delete (a bare pod a drain evicted) wants no pod any more;
  // when every one is gone with its pods, the workload is Deleted.
  const live = others.filter((w) => store.get(String(w.kind), w.metadata?.namespace, w.metadata?.name ?? '')?.metadata?.uid === w.metadata?.uid);
  if (others.length > 0 && live.length === 0 && workloadPods(store, others).length === 0) return 'Deleted';
  const want = live.reduce((n, w) => n + desiredReplicas(store, w), 0);
  const podsOf = jobs.length || cronJobs.length || live.length < others.length ? workloadPods(store, live) : pods;
  const phases = podsOf.map((p) => p.status?.phase);
  if (phases.includes('Failed')) return 'Failed';
  if (podsOf.length === want && phases.every((p) => p === 'Succeeded')) return 'Succeeded';
  if (podsOf.length === want && podsOf.every((p) => p.status?.phase === 'Running' && isReady(p) && !p.metadata?.deletionTimestamp)) return 'Running';
  // Pods deleted without a delete of ours (a taint eviction) that nothing confirms stay Terminating.
  if (podsOf.length > 0 && podsOf.every((p) => p.metadata?.deletionTimestamp)) return 'Terminating';
  // A pod whose container keeps failing is not waiting to start: kubectl get pods shows it as CrashLoopBackOff, or as
  // the exit (Error) until the kubelet's next sync.
  if (podsOf.some(crashLooping)) return 'CrashLoopBackOff';
  return 'Pending';
}

/**
 * crashLooping tells whether a container or init container of the pod waits in CrashLoopBackOff, or has exited again
 * after a restart in a pod that is not done: the kubelet sends the status before each sync acts (kubelet.go SyncPod),
 * so an exit shows as terminated until the sync after the one that found the back-off.
 */
function crashLooping(pod: Pod): boolean {
  const statuses = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])];
  const done = pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
  return statuses.some((c) => c.state?.waiting?.reason === 'CrashLoopBackOff' || (!done && c.state?.terminated !== undefined && c.restartCount > 0));
}

/**
 * workloadOutcomes judges each workload the manifest applied on its own (its kind runs pods, or its controller is not
 * simulated), so that a manifest of several says what became of each.
 */
export function workloadOutcomes(
  store: Store, applied: KubeObject[], rejection: Rejection | undefined, deleting: boolean, finishedJobs: ReadonlyMap<string, 'Succeeded' | 'Failed'>,
): WorkloadOutcome[] {
  const out: WorkloadOutcome[] = [];
  for (const obj of applied) {
    const kind = String(obj.kind);
    const object = `${kind}/${obj.metadata?.namespace ? `${obj.metadata.namespace}/` : ''}${obj.metadata?.name ?? ''}`;
    const controller = NOT_SIMULATED.get(kind);
    if (controller && !deleting && !rejection) out.push({ object, outcome: 'NotSimulated', note: notSimulatedNote(kind, controller) });
    else if (WORKLOAD_KINDS.has(kind) || controller) out.push({ object, outcome: computeOutcome(store, [obj], rejection, deleting, new Set(), false, finishedJobs) });
  }
  return out;
}

/** notSimulatedNote says, for every front, what did not happen to an object of a kind the engine does not run. */
export function notSimulatedNote(kind: string, controller: string): string {
  return `${kind} is stored, but ${controller} is not simulated: nothing it would do in a cluster happened`;
}
