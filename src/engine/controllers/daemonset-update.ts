// A DaemonSet's rolling update: which pods are updated (IsPodUpdated), how many nodes may be without an available
// pod (maxUnavailable) or run a second one (maxSurge), and rollingUpdate itself — without surge, the old pods of at most
// maxUnavailable nodes are deleted at a time and manage makes their successors once they are gone; with surge, a new
// pod is made beside the old one on at most maxSurge nodes, and the old one is deleted once the new one is available.
// OnDelete replaces nothing (updateDaemonSet does not call rollingUpdate).
// See pkg/controller/daemon/update.go (rollingUpdate, findUpdatedPodsOnNode, updatedDesiredNodeCounts) and
// util/daemonset_util.go (AllowsSurge, SurgeCount, UnavailableCount, IsPodUpdated) at kubernetes v1.36.3, and
// staging/src/k8s.io/apimachinery/pkg/util/intstr/intstr.go (GetScaledValueFromIntOrPercent).
import type { Node, Pod } from '../api/types';
import type { EngineContext } from '../context';
import type { Steps } from '../runtime/step';
import type { ControllerClient } from './client';
import {
  DAEMONSET_HASH_LABEL, type DaemonSet, dsRef, nodeShouldRunDaemonPod, PHASE, type PodToDelete, syncNodes, type SyncNodesResult,
  TEMPLATE_GENERATION_LABEL, templateGeneration,
} from './daemonset-pods';
import { isPodAvailable } from './pods';

/**
 * scaled is GetScaledValueFromIntOrPercent with roundUp (SurgeCount and UnavailableCount both round up): an int as
 * is, "<n>%" of total rounded up, anything else an error with intstr's words.
 */
function scaled(value: number | string | undefined, total: number): number | { error: string } {
  if (value === undefined || value === null) return { error: 'nil value for IntOrString' };
  if (typeof value === 'number') return value;
  if (!value.endsWith('%')) return { error: 'invalid value for IntOrString: invalid type: string is not a percentage' };
  const digits = value.slice(0, -1);
  if (!/^[+-]?\d+$/.test(digits)) return { error: `invalid value for IntOrString: invalid value "${value}": strconv.Atoi: parsing "${digits}": invalid syntax` };
  return Math.ceil((Number.parseInt(digits, 10) * total) / 100);
}

/** surgeCount is SurgeCount: 0 unless a RollingUpdate with rollingUpdate.maxSurge, else maxSurge of numberToSchedule. */
function surgeCount(ds: DaemonSet, numberToSchedule: number): number | { error: string } {
  const strategy = ds.spec?.updateStrategy;
  if (strategy?.type !== 'RollingUpdate' || !strategy.rollingUpdate || strategy.rollingUpdate.maxSurge === undefined) return 0;
  return scaled(strategy.rollingUpdate.maxSurge, numberToSchedule);
}

/** unavailableCount is UnavailableCount: 0 unless a RollingUpdate with rollingUpdate, else maxUnavailable of numberToSchedule. */
function unavailableCount(ds: DaemonSet, numberToSchedule: number): number | { error: string } {
  const strategy = ds.spec?.updateStrategy;
  if (strategy?.type !== 'RollingUpdate' || !strategy.rollingUpdate) return 0;
  return scaled(strategy.rollingUpdate.maxUnavailable, numberToSchedule);
}

/** allowsSurge is AllowsSurge: the surge of one node to schedule is valid and above 0. */
export function allowsSurge(ds: DaemonSet): boolean {
  const surge = surgeCount(ds, 1);
  return typeof surge === 'number' && surge > 0;
}

/** isPodUpdated is IsPodUpdated: the pod's controller-revision-hash is the hash, or its pod-template-generation the DaemonSet's. */
export function isPodUpdated(pod: Pod, hash: string, generation: number | undefined): boolean {
  const labels = pod.metadata?.labels ?? {};
  return (hash.length > 0 && labels[DAEMONSET_HASH_LABEL] === hash) || (generation !== undefined && labels[TEMPLATE_GENERATION_LABEL] === String(generation));
}

/**
 * findUpdatedPodsOnNode: of a node's pods not being deleted, the updated one and the old one; undefined when there
 * are two of either (manage prunes them first).
 */
function findUpdatedPodsOnNode(ds: DaemonSet, pods: readonly Pod[], hash: string): { newPod?: Pod; oldPod?: Pod } | undefined {
  let newPod: Pod | undefined;
  let oldPod: Pod | undefined;
  const generation = templateGeneration(ds);
  for (const pod of pods) {
    if (pod.metadata?.deletionTimestamp) continue;
    if (isPodUpdated(pod, hash, generation)) {
      if (newPod) return undefined;
      newPod = pod;
    } else {
      if (oldPod) return undefined;
      oldPod = pod;
    }
  }
  return { newPod, oldPod };
}

/** Counts is updatedDesiredNodeCounts' answer. */
interface Counts {
  maxSurge: number;
  maxUnavailable: number;
  desired: number;
  /** byNode is nodeToDaemonPods with an empty entry for every node that should run a pod and has none. */
  byNode: Map<string, Pod[]>;
}

/**
 * updatedDesiredNodeCounts: the nodes that should run a daemon pod (desiredNumberScheduled), maxUnavailable and
 * maxSurge of them rounded up; both 0 with nodes to run on is taken as maxUnavailable 1.
 * Go ranges over its nodeToDaemonPods map in random order; here the nodes go in the node list's order (by name), then
 * the nodes a pod targets that are not in the list: which of several candidates is taken first is the real order's
 * chance, how many is not.
 */
function updatedDesiredNodeCounts(ds: DaemonSet, nodes: readonly Node[], podsByNode: ReadonlyMap<string, Pod[]>): Counts | { error: string } {
  const byNode = new Map<string, Pod[]>();
  let desired = 0;
  for (const node of nodes) {
    const name = node.metadata?.name ?? '';
    const pods = podsByNode.get(name);
    if (pods) byNode.set(name, pods);
    if (!nodeShouldRunDaemonPod(node, ds)[0]) continue;
    desired++;
    if (!pods) byNode.set(name, []);
  }
  for (const name of [...podsByNode.keys()].sort()) if (!byNode.has(name)) byNode.set(name, podsByNode.get(name)!);
  let maxUnavailable = unavailableCount(ds, desired);
  if (typeof maxUnavailable !== 'number') return { error: `couldn't get unavailable numbers: invalid value for MaxUnavailable: ${maxUnavailable.error}` };
  const maxSurge = surgeCount(ds, desired);
  if (typeof maxSurge !== 'number') return { error: `couldn't get unavailable numbers: invalid value for MaxSurge: ${maxSurge.error}` };
  // "if the daemonset returned with an impossible configuration, obey the default of unavailable=1".
  if (desired > 0 && maxUnavailable === 0 && maxSurge === 0) maxUnavailable = 1;
  return { maxSurge, maxUnavailable, desired, byNode };
}

/** Decision is what one branch of rollingUpdate decides: the pods to delete, the nodes to get a new pod, and a summary. */
type Decision = { toDelete: PodToDelete[]; toCreate: string[]; summary: string } | { error: string };

/**
 * rollingUpdate: updatedDesiredNodeCounts, then the branch for maxSurge 0 or above, then syncNodes with what it
 * decided. `podsByNode` is getNodesToDaemonPods as the sync read it (the informer has not seen this sync's writes).
 */
export function* rollingUpdate(
  ctx: EngineContext, client: ControllerClient, ds: DaemonSet, nodes: readonly Node[], podsByNode: ReadonlyMap<string, Pod[]>, hash: string,
): Steps<SyncNodesResult> {
  const counts = updatedDesiredNodeCounts(ds, nodes, podsByNode);
  if ('error' in counts) return { error: counts.error, requests: 0 };
  const decision = counts.maxSurge === 0 ? withoutSurge(ctx, ds, counts, hash) : withSurge(ctx, ds, nodes, counts, hash);
  if ('error' in decision) return { error: decision.error, requests: 0 };
  const stale = [...counts.byNode.values()].flat().filter((p) => !p.metadata?.deletionTimestamp && !isPodUpdated(p, hash, templateGeneration(ds)));
  const idle = decision.toDelete.length === 0 && decision.toCreate.length === 0;
  if (stale.length > 0 || !idle) {
    yield {
      phase: PHASE, object: dsRef(ds), field: 'spec.updateStrategy.rollingUpdate',
      result: `rolling update (maxUnavailable ${counts.maxUnavailable}, maxSurge ${counts.maxSurge} of ${counts.desired} nodes): ${decision.summary}`,
      detail: { maxUnavailable: counts.maxUnavailable, maxSurge: counts.maxSurge, desired: counts.desired, delete: decision.toDelete.map((d) => d.pod.metadata?.name), create: decision.toCreate, outOfDate: stale.map((p) => p.metadata?.name) },
      ...(idle ? { outcome: 'waiting' as const } : {}),
    };
  }
  if (idle) return { requests: 0 };
  return yield* syncNodes(ctx, client, ds, hash, decision.toDelete, decision.toCreate);
}

/**
 * withoutSurge is rollingUpdate's maxSurge 0 branch. A node with excess pods, with none (or only deleted ones), with
 * an old and a new one, or whose new pod is not available counts as unavailable; an old pod that is not available is
 * replaced at once (and counts too); an available old pod is a candidate while fewer than maxUnavailable are counted.
 * Of the candidates, maxUnavailable minus the unavailable ones are deleted; manage makes the new pods once they are gone.
 */
function withoutSurge(ctx: EngineContext, ds: DaemonSet, counts: Counts, hash: string): Decision {
  const minReady = ds.spec?.minReadySeconds ?? 0;
  let numUnavailable = 0;
  const allowed: PodToDelete[] = [];
  const candidates: PodToDelete[] = [];
  for (const [node, pods] of counts.byNode) {
    const found = findUpdatedPodsOnNode(ds, pods, hash);
    if (!found || (!found.oldPod && !found.newPod) || (found.oldPod && found.newPod)) {
      numUnavailable++;
      continue;
    }
    if (found.newPod) {
      if (!isPodAvailable(ctx.clock, found.newPod, minReady)) numUnavailable++;
      continue;
    }
    const oldPod = found.oldPod!;
    if (!isPodAvailable(ctx.clock, oldPod, minReady)) {
      allowed.push({ pod: oldPod, why: `it is out of date on ${node} and not available, so replacing it costs nothing (update.go rollingUpdate)` });
      numUnavailable++;
    } else if (numUnavailable < counts.maxUnavailable) {
      candidates.push({ pod: oldPod, why: `it is out of date on ${node}: the rolling update deletes old pods on at most maxUnavailable ${counts.maxUnavailable} node(s) at a time, and the next sync makes the new pod there once it is gone` });
    }
  }
  const remaining = Math.min(Math.max(counts.maxUnavailable - numUnavailable, 0), candidates.length);
  const toDelete = [...allowed, ...candidates.slice(0, remaining)];
  const summary = toDelete.length
    ? `${numUnavailable} node(s) unavailable; deleting the old pod(s) ${toDelete.map((d) => d.pod.metadata?.name).join(', ')}`
    : `${numUnavailable} node(s) unavailable of at most ${counts.maxUnavailable}: no old pod is deleted until one becomes available`;
  return { toDelete, toCreate: [], summary };
}

/**
 * withSurge is rollingUpdate's maxSurge branch. A node with an old pod only gets a new one beside it at once when the
 * old is not available (or the old is deleted, if the node should no longer run one), else it is a candidate while
 * fewer than maxSurge nodes are surging; a node whose new pod is not yet available is surging; one whose new pod is
 * available loses its old pod. Old pods on nodes that should not run one go only while more pods are available than
 * desired.
 */
function withSurge(ctx: EngineContext, ds: DaemonSet, nodes: readonly Node[], counts: Counts, hash: string): Decision {
  const minReady = ds.spec?.minReadySeconds ?? 0;
  const available = (p: Pod) => isPodAvailable(ctx.clock, p, minReady);
  const node = (name: string): Node | undefined => nodes.find((n) => n.metadata?.name === name);
  const toDelete: PodToDelete[] = [];
  const shouldNotRun: PodToDelete[] = [];
  const candidates: string[] = [];
  const allowed: string[] = [];
  let numSurge = 0;
  let numAvailable = 0;
  for (const [name, pods] of counts.byNode) {
    const found = findUpdatedPodsOnNode(ds, pods, hash);
    if (!found) {
      numSurge++;
      continue;
    }
    const { newPod, oldPod } = found;
    if (oldPod ? available(oldPod) : newPod && available(newPod)) numAvailable++;
    if (!oldPod) continue;
    if (!newPod) {
      // dsc.nodeLister.Get: a node gone from the list fails the sync.
      const n = node(name);
      if (!n) return { error: `couldn't get node for nodeName "${name}": node "${name}" not found` };
      const shouldRun = nodeShouldRunDaemonPod(n, ds)[0];
      if (!available(oldPod)) {
        if (!shouldRun) toDelete.push({ pod: oldPod, why: `it is out of date on ${name}, not available, and the node should no longer run a daemon pod` });
        else allowed.push(name);
      } else if (!shouldRun) {
        shouldNotRun.push({ pod: oldPod, why: `the node ${name} should no longer run a daemon pod, and more pods are available than desired` });
      } else if (numSurge < counts.maxSurge) {
        candidates.push(name);
      }
      continue;
    }
    if (!available(newPod)) {
      numSurge++;
      continue;
    }
    toDelete.push({ pod: oldPod, why: `the new pod ${newPod.metadata?.name} on ${name} is available, so the old one goes` });
  }
  // "With maxSurge, the application owner expects 100% availability."
  const deletable = Math.min(numAvailable - counts.desired, shouldNotRun.length);
  if (deletable > 0) toDelete.push(...shouldNotRun.slice(0, deletable));
  const remaining = Math.min(Math.max(counts.maxSurge - numSurge, 0), candidates.length);
  const toCreate = [...allowed, ...candidates.slice(0, remaining)];
  const parts = [
    ...(toCreate.length ? [`a new pod beside the old one on ${toCreate.join(', ')}`] : []),
    ...(toDelete.length ? [`deleting the old pod(s) ${toDelete.map((d) => d.pod.metadata?.name).join(', ')}`] : []),
  ];
  const summary = parts.length ? `${numSurge} node(s) surging; ${parts.join('; ')}` : `${numSurge} node(s) surging of at most ${counts.maxSurge}: waiting for a new pod to become available`;
  return { toDelete, toCreate, summary };
}
