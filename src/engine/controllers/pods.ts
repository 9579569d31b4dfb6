// What the workload controllers ask of pods: active, ready, available, and which to delete first on a scale-down.
// See pkg/controller/controller_utils.go (FilterActivePods, ActivePodsWithRanks) and pkg/api/v1/pod/util.go (IsPodAvailable).
import type { KubeObject, Pod } from '../api/types';
import type { VirtualClock } from '../runtime/clock';

/** timeOf reads an RFC 3339 timestamp as virtual milliseconds of the clock; undefined when absent. */
export function timeOf(clock: VirtualClock, timestamp: string | undefined): number | undefined {
  if (!timestamp) return undefined;
  const t = Date.parse(timestamp);
  return Number.isNaN(t) ? undefined : t - clock.epoch.getTime();
}

/** readyCondition is the pod's Ready condition. */
export function readyCondition(pod: Pod): { status: string; lastTransitionTime?: string } | undefined {
  return pod.status?.conditions?.find((c) => c.type === 'Ready');
}

/** isPodReady is podutil.IsPodReady: the Ready condition is True. */
export function isPodReady(pod: Pod): boolean {
  return readyCondition(pod)?.status === 'True';
}

/**
 * isPodAvailable is podutil.IsPodAvailable: Ready, and, with minReadySeconds, Ready for that long (the condition's
 * lastTransitionTime plus minReadySeconds is before now).
 */
export function isPodAvailable(clock: VirtualClock, pod: Pod, minReadySeconds: number): boolean {
  if (!isPodReady(pod)) return false;
  if (minReadySeconds === 0) return true;
  const since = timeOf(clock, readyCondition(pod)?.lastTransitionTime);
  // Go compares with Before on the second-truncated lastTransitionTime; a real clock is always a little past the
  // instant the pod became ready, so "not after" stands in for it on whole virtual seconds.
  return since !== undefined && since + minReadySeconds * 1000 <= clock.now;
}

/** isPodTerminal tells whether a pod Succeeded or Failed. */
export function isPodTerminal(pod: Pod): boolean {
  return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
}

/** isPodActive is controller.IsPodActive: not terminal and not being deleted. */
export function isPodActive(pod: Pod): boolean {
  return !isPodTerminal(pod) && !pod.metadata?.deletionTimestamp;
}

/** controlledPods lists the pods of a namespace whose controller reference names this owner uid. */
export function controlledPods(pods: readonly Pod[], ownerUid: string | undefined): Pod[] {
  return pods.filter((p) => (p.metadata?.ownerReferences ?? []).some((r) => r.controller && r.uid === ownerUid));
}

/** mergeByName merges two lists of one namespace's objects, each in name order, into one in name order (store key order). */
export function mergeByName<T extends { metadata?: { name?: string } }>(a: readonly T[], b: readonly T[]): T[] {
  const out: T[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) out.push((a[i]!.metadata?.name ?? '') <= (b[j]!.metadata?.name ?? '') ? a[i++]! : b[j++]!);
  while (i < a.length) out.push(a[i++]!);
  while (j < b.length) out.push(b[j++]!);
  return out;
}

const PHASE_RANK: Readonly<Record<string, number>> = { Pending: 0, Unknown: 1, Running: 2 };

/**
 * rankPodsForDeletion orders pods as ActivePodsWithRanks.Less does, the first to delete first: unassigned before
 * assigned; Pending, Unknown, Running; not ready before ready; lower pod-deletion-cost first; more pods of the same
 * owner on the node first; ready for less time first (in log2 buckets, LogarithmicScaleDown); more container restarts
 * first; created more recently first (log2 buckets); then as listed.
 */
export function rankPodsForDeletion(clock: VirtualClock, pods: readonly Pod[], related: readonly Pod[]): Pod[] {
  const onNode = new Map<string, number>();
  for (const p of related) {
    const node = p.spec?.nodeName;
    if (node && !isPodTerminal(p)) onNode.set(node, (onNode.get(node) ?? 0) + 1);
  }
  const rank = (p: Pod) => (p.spec?.nodeName ? onNode.get(p.spec.nodeName) ?? 0 : 0);
  const cost = (p: Pod) => Number(p.metadata?.annotations?.['controller.kubernetes.io/pod-deletion-cost'] ?? 0) || 0;
  const restarts = (p: Pod) => (p.status?.containerStatuses ?? []).reduce((n, s) => Math.max(n, s.restartCount ?? 0), 0);
  // logarithmicRankDiff: floor(log2) of the durations in nanoseconds; a shared bucket falls back to the UIDs.
  const bucket = (since: number) => {
    const ns = (clock.now - since) * 1e6;
    return ns > 0 ? Math.floor(Math.log2(ns)) : -1;
  };
  const byTime = (x: Pod, y: Pod, tx: number | undefined, ty: number | undefined): number => {
    if (tx === ty) return 0;
    // afterOrZero: a missing time first, else the later one first.
    if (tx === undefined || ty === undefined) return tx === undefined ? -1 : 1;
    const diff = bucket(tx) - bucket(ty);
    if (diff === 0) return (x.metadata?.uid ?? '') < (y.metadata?.uid ?? '') ? -1 : 1;
    return diff;
  };
  const readySince = (p: Pod) => timeOf(clock, readyCondition(p)?.lastTransitionTime);
  const created = (p: Pod) => timeOf(clock, p.metadata?.creationTimestamp);
  const keyed = pods.map((p, i) => ({ p, i }));
  keyed.sort((a, b) => {
    const x = a.p;
    const y = b.p;
    const assigned = Number(!!x.spec?.nodeName) - Number(!!y.spec?.nodeName);
    if (assigned) return assigned;
    const phase = (PHASE_RANK[x.status?.phase ?? 'Pending'] ?? 0) - (PHASE_RANK[y.status?.phase ?? 'Pending'] ?? 0);
    if (phase) return phase;
    const ready = Number(isPodReady(x)) - Number(isPodReady(y));
    if (ready) return ready;
    const c = cost(x) - cost(y);
    if (c) return c;
    const doubled = rank(y) - rank(x);
    if (doubled) return doubled;
    if (isPodReady(x) && isPodReady(y)) {
      const r = byTime(x, y, readySince(x), readySince(y));
      if (r) return r;
    }
    const restart = restarts(y) - restarts(x);
    if (restart) return restart;
    const c2 = byTime(x, y, created(x), created(y));
    if (c2) return c2;
    return a.i - b.i;
  });
  return keyed.map((k) => k.p);
}

/** asObject views a typed object as a KubeObject. */
export function asObject<T>(obj: T): KubeObject {
  return obj as unknown as KubeObject;
}
