// The DaemonSet controller: it records the template as a ControllerRevision (daemonset-history.ts), works out which
// nodes should run a daemon pod (the node's taints against the pod's tolerations, the template's nodeSelector and
// required node affinity, spec.nodeName), creates one pod per such node that has none — pinned to its node by a
// matchFields node affinity, with the daemon tolerations added — in slow-start batches, deletes the pods a node should
// not keep (succeeded, surplus, no longer fitting the node), rolls a new template out (daemonset-update.ts:
// RollingUpdate with maxUnavailable and maxSurge, or OnDelete), keeps revisionHistoryLimit old revisions and reports
// the DaemonSet's status. The deletion of failed pods (with its back-off) is not simulated: a sync that would need it
// says so and leaves the pod.
// See pkg/controller/daemon/daemon_controller.go (syncDaemonSet, updateDaemonSet, manage, podsShouldBeOnNode,
// getUnscheduledPodsWithoutNode, getNodesToDaemonPods, updateDaemonSetStatus, storeDaemonSetStatus) at kubernetes v1.36.3.
import type { Node, Pod } from '../api/types';
import type { ApiServer } from '../apiserver/server';
import type { EngineContext } from '../context';
import type { Steps } from '../runtime/step';
import { ControllerClient } from './client';
import { claimObjects } from './controller-ref';
import { cleanupHistory, constructHistory } from './daemonset-history';
import {
  DAEMONSET_CONTROLLER, DAEMONSET_HASH_LABEL, DAEMONSET_SERVICE_ACCOUNT, type DaemonSet, type DaemonSetSyncResult, dsRef,
  nodeShouldRunDaemonPod, PHASE, type PodToDelete, sortDaemonPods, syncNodes, type SyncNodesResult, targetNodeName, templateGeneration,
} from './daemonset-pods';
import { allowsSurge, isPodUpdated, rollingUpdate } from './daemonset-update';
import { asObject, isPodAvailable, isPodReady, isPodTerminal, mergeByName } from './pods';

export {
  DAEMONSET_CONTROLLER, DAEMONSET_HASH_LABEL, DAEMONSET_SERVICE_ACCOUNT, type DaemonSet, type DaemonSetSyncResult, daemonPodTemplate,
  daemonTolerations, dsRef, nodeShouldRunDaemonPod, replaceNodeNameAffinity, targetNodeName, TEMPLATE_GENERATION_LABEL,
} from './daemonset-pods';
import { STATUS_MANAGERS, updateStatus as writeStatusOf } from '../apiserver/status-write';

/** syncDaemonSet is syncDaemonSet for one key (phase controllers.daemonset). */
export function* syncDaemonSet(ctx: EngineContext, api: ApiServer, namespace: string, name: string): Steps<DaemonSetSyncResult> {
  const ds = ctx.store.get<DaemonSet>('DaemonSet', namespace, name);
  if (!ds) return {};
  const ref = dsRef(ds);
  const client = new ControllerClient(api, DAEMONSET_SERVICE_ACCOUNT, 'controllers.daemonset');
  const nodes = ctx.store.list<Node>('Node');
  const selector = ds.spec?.selector;
  if (!selector || (Object.keys(selector.matchLabels ?? {}).length === 0 && (selector.matchExpressions ?? []).length === 0)) {
    ctx.recorder.event({ type: 'Warning', reason: 'SelectingAll', object: ref, source: DAEMONSET_CONTROLLER, message: 'This daemon set is selecting all pods. A non-empty selector is required.' });
    return {};
  }
  if (ds.metadata?.deletionTimestamp) return {};

  const history = yield* constructHistory(ctx, client, ds);
  if ('error' in history) return { error: `failed to construct revisions of DaemonSet: ${history.error}` };
  const { hash, old } = history;

  // getDaemonPods: the pods it controls and the namespace's orphans go through ClaimPods; getNodesToDaemonPods maps
  // them by target node, leaving out those terminal and being deleted (cleanupHistory keeps them: includeDeletedTerminal).
  const owned = ctx.store.byIndex<Pod>('controller', ds.metadata?.uid ?? '', 'Pod');
  const orphans = ctx.store.byIndex<Pod>('orphan', `Pod/${namespace}`, 'Pod');
  const claim = { ctx, client, controller: asObject(ds), selector, phase: PHASE, ref };
  const claimed = ((yield* claimObjects(claim, mergeByName(owned, orphans).map(asObject))) as unknown as Pod[]).filter((p) => targetNodeName(p) !== undefined);
  const byNode = new Map<string, Pod[]>();
  for (const pod of claimed) {
    if (isPodTerminal(pod) && pod.metadata?.deletionTimestamp) continue;
    const node = targetNodeName(pod)!;
    byNode.set(node, [...(byNode.get(node) ?? []), pod]);
  }

  // updateDaemonSet: manage, then — only when manage wrote nothing, so that SatisfiedExpectations holds — the
  // rolling update; then cleanupHistory. Each error ends it.
  let result: SyncNodesResult = yield* manage(ctx, client, ds, nodes, byNode, hash);
  const type = ds.spec?.updateStrategy?.type;
  if (result.error === undefined && result.requests === 0 && type === 'RollingUpdate') result = yield* rollingUpdate(ctx, client, ds, nodes, byNode, hash);
  if (result.error === undefined && result.requests === 0 && type === 'OnDelete') {
    const stale = claimed.filter((p) => !p.metadata?.deletionTimestamp && !isPodUpdated(p, hash, templateGeneration(ds)));
    if (stale.length) yield { phase: PHASE, object: ref, field: 'spec.updateStrategy', result: `OnDelete: ${stale.map((p) => p.metadata?.name).join(', ')} stay${stale.length === 1 ? 's' : ''} out of date until deleted; a deleted pod is made again at controller-revision-hash ${hash}`, detail: { pods: stale.map((p) => p.metadata?.name), hash } };
  }
  let error = result.error;
  if (error === undefined) error = yield* cleanupHistory(ctx, client, ds, old, claimed);
  const { ready, available } = yield* updateStatus(ctx, ds, nodes, byNode, hash);
  if (error !== undefined) return { error };
  // "Resync the DaemonSet after MinReadySeconds as a last line of defense to guard against clock-skew."
  const minReady = ds.spec?.minReadySeconds ?? 0;
  return minReady > 0 && ready !== available ? { requeueAfterMs: minReady * 1000 } : {};
}

/**
 * manage: podsShouldBeOnNode for every node, and the unscheduled pods of nodes gone from the list; syncNodes then
 * creates and deletes. A node that should run a daemon pod and has none needs one.
 */
function* manage(ctx: EngineContext, client: ControllerClient, ds: DaemonSet, nodes: readonly Node[], byNode: ReadonlyMap<string, Pod[]>, hash: string): Steps<SyncNodesResult> {
  const ref = dsRef(ds);
  const needing: string[] = [];
  const toDelete: PodToDelete[] = [];
  const failed: string[] = [];
  const eligibility: Record<string, string> = {};
  for (const node of nodes) {
    const nodeName = node.metadata?.name ?? '';
    const [shouldRun] = nodeShouldRunDaemonPod(node, ds);
    eligibility[nodeName] = shouldRun ? (byNode.has(nodeName) ? 'has its daemon pod' : 'needs a daemon pod') : 'should not run a daemon pod';
    const decided = podsShouldBeOnNode(ctx, node, byNode, ds, hash);
    if (decided.needsPod) needing.push(nodeName);
    toDelete.push(...decided.toDelete);
    failed.push(...decided.failed);
  }
  // getUnscheduledPodsWithoutNode: a pod not yet bound to a node that is gone would never be scheduled.
  const known = new Set(nodes.map((n) => n.metadata?.name ?? ''));
  for (const [nodeName, pods] of byNode) {
    if (known.has(nodeName)) continue;
    for (const pod of pods) if (!pod.spec?.nodeName) toDelete.push({ pod, why: `it is unscheduled and its node ${nodeName} does not exist` });
  }
  if (needing.length > 0) {
    yield { phase: PHASE, object: ref, field: 'spec.template.spec', result: `${needing.length} of ${nodes.length} nodes need a daemon pod: ${needing.join(', ')}`, detail: { nodes: eligibility, needing } };
  }
  if (failed.length) {
    yield {
      phase: PHASE, object: ref, field: 'spec.template.spec',
      result: `the failed daemon pod(s) ${failed.join(', ')} would be deleted (FailedDaemonPod, with a back-off per node): deleting failed daemon pods is not simulated yet`,
      detail: { pods: failed }, outcome: 'waiting',
    };
  }
  if (needing.length === 0 && toDelete.length === 0) return { requests: 0 };
  return yield* syncNodes(ctx, client, ds, hash, toDelete, needing);
}

/** NodeDecision is podsShouldBeOnNode's answer, with the failed pods it would delete (not simulated). */
interface NodeDecision {
  needsPod: boolean;
  toDelete: PodToDelete[];
  failed: string[];
}

/**
 * podsShouldBeOnNode: a node that should run a pod and has none needs one. One that may keep running its pods
 * deletes the Succeeded ones (event SucceededDaemonPod) and, without surge, all running pods but the oldest; with
 * surge it keeps the oldest updated and the oldest old pod, deleting the old one once it is not Ready or the new one is
 * available, and needs a pod when none is left. One that may not keep running them deletes them all.
 */
function podsShouldBeOnNode(ctx: EngineContext, node: Node, byNode: ReadonlyMap<string, Pod[]>, ds: DaemonSet, hash: string): NodeDecision {
  const nodeName = node.metadata?.name ?? '';
  const [shouldRun, shouldContinueRunning] = nodeShouldRunDaemonPod(node, ds);
  const daemonPods = byNode.get(nodeName);
  const out: NodeDecision = { needsPod: false, toDelete: [], failed: [] };
  if (shouldRun && !daemonPods) return { ...out, needsPod: true };
  if (shouldContinueRunning) {
    const running: Pod[] = [];
    for (const pod of daemonPods ?? []) {
      if (pod.metadata?.deletionTimestamp) continue;
      if (pod.status?.phase === 'Failed') out.failed.push(pod.metadata?.name ?? '');
      else if (pod.status?.phase === 'Succeeded') {
        // daemon_controller.go podsShouldBeOnNode, v1.36.3: SucceededDaemonPodReason, Normal.
        const message = `Found succeeded daemon pod ${pod.metadata?.namespace}/${pod.metadata?.name} on node ${nodeName}, will try to delete it`;
        ctx.recorder.event({ type: 'Normal', reason: 'SucceededDaemonPod', object: dsRef(ds), source: DAEMONSET_CONTROLLER, message });
        out.toDelete.push({ pod, why: 'it Succeeded: a daemon pod is to keep running' });
      } else running.push(pod);
    }
    const sorted = sortDaemonPods(running);
    if (!allowsSurge(ds)) {
      for (const pod of sorted.slice(1)) out.toDelete.push({ pod, why: `${sorted[0]!.metadata?.name} is the oldest daemon pod on ${nodeName}: a node runs one` });
      return out;
    }
    if (sorted.length <= 1) return { ...out, needsPod: sorted.length === 0 && shouldRun };
    // "we allow 2 pods if and only if the oldest pod matching the current hash state is not ready AND the oldest pod
    // that doesn't match the current hash state is ready."
    let oldestNew: Pod | undefined;
    let oldestOld: Pod | undefined;
    for (const pod of sorted) {
      const isNew = pod.metadata?.labels?.[DAEMONSET_HASH_LABEL] === hash;
      if (isNew && !oldestNew) oldestNew = pod;
      else if (!isNew && !oldestOld) oldestOld = pod;
      else out.toDelete.push({ pod, why: `a node surging keeps one new and one old daemon pod, the oldest of each` });
    }
    if (oldestNew && oldestOld) {
      if (!isPodReady(oldestOld)) out.toDelete.push({ pod: oldestOld, why: `it is not Ready: the new pod ${oldestNew.metadata?.name} on ${nodeName} replaces it` });
      else if (isPodAvailable(ctx.clock, oldestNew, ds.spec?.minReadySeconds ?? 0)) out.toDelete.push({ pod: oldestOld, why: `the new pod ${oldestNew.metadata?.name} on ${nodeName} is available: it replaces the old one` });
    }
    return out;
  }
  if (daemonPods) {
    for (const pod of daemonPods) if (!pod.metadata?.deletionTimestamp) out.toDelete.push({ pod, why: `the node ${nodeName} should no longer run a daemon pod` });
  }
  return out;
}

/**
 * updateStatus is updateDaemonSetStatus with storeDaemonSetStatus: the counts of the pods the sync started with (the
 * informer has not seen its writes yet), the oldest pod of each node standing for it; written when a count changed
 * or the generation is not yet observed.
 */
function* updateStatus(ctx: EngineContext, ds: DaemonSet, nodes: readonly Node[], byNode: ReadonlyMap<string, Pod[]>, hash: string): Steps<{ ready: number; available: number }> {
  const minReady = ds.spec?.minReadySeconds ?? 0;
  let desired = 0, current = 0, misscheduled = 0, ready = 0, updated = 0, available = 0;
  const generation = templateGeneration(ds);
  for (const node of nodes) {
    const [shouldRun] = nodeShouldRunDaemonPod(node, ds);
    const daemonPods = byNode.get(node.metadata?.name ?? '') ?? [];
    if (!shouldRun) {
      if (daemonPods.length > 0) misscheduled++;
      continue;
    }
    desired++;
    if (daemonPods.length === 0) continue;
    current++;
    const pod = sortDaemonPods(daemonPods)[0]!;
    if (isPodReady(pod)) {
      ready++;
      if (isPodAvailable(ctx.clock, pod, minReady)) available++;
    }
    if (isPodUpdated(pod, hash, generation)) updated++;
  }
  const unavailable = desired - available;
  const old = ds.status ?? {};
  const num = (k: string): number => (typeof old[k] === 'number' ? old[k] : 0);
  const observed = ds.metadata?.generation ?? 0;
  if (num('desiredNumberScheduled') === desired && num('currentNumberScheduled') === current && num('numberMisscheduled') === misscheduled
    && num('numberReady') === ready && num('updatedNumberScheduled') === updated && num('numberAvailable') === available
    && num('numberUnavailable') === unavailable && num('observedGeneration') >= observed) return { ready, available };
  // DaemonSetStatus as json.Marshal writes it: the four counts always, the rest omitempty, in the struct's order.
  const status: Record<string, unknown> = { currentNumberScheduled: current, numberMisscheduled: misscheduled, desiredNumberScheduled: desired, numberReady: ready };
  if (observed) status['observedGeneration'] = observed;
  if (updated) status['updatedNumberScheduled'] = updated;
  if (available) status['numberAvailable'] = available;
  if (unavailable) status['numberUnavailable'] = unavailable;
  if (old['collisionCount'] !== undefined) status['collisionCount'] = old['collisionCount'];
  if (old['conditions'] !== undefined) status['conditions'] = old['conditions'];
  writeStatusOf<DaemonSet>(ctx, STATUS_MANAGERS.controllers, 'DaemonSet', ds.metadata?.namespace, ds.metadata?.name ?? '', (o) => { o.status = status; });
  yield {
    phase: PHASE, object: dsRef(ds), field: 'status',
    result: `status: ${desired} desired, ${current} scheduled, ${ready} ready, ${available} available, ${updated} updated, ${misscheduled} misscheduled`,
    detail: { status },
  };
  return { ready, available };
}
