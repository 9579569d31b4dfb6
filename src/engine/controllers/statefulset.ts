// The StatefulSet controller: it records the template as a ControllerRevision, creates each missing ordinal's claims
// and then its pod — one at a time, each once the ones below it are Running and Ready (OrderedReady), or all at once
// (Parallel) — deletes the pods a scale-down leaves outside its ordinals (from the highest, one at a time once the
// others are Running and Ready, or all at once), rolls a new template out (statefulset-update.ts: RollingUpdate with
// its partition, or OnDelete), keeps revisionHistoryLimit old revisions (statefulset-history.ts) and reports the set's
// status; the claims get the owner references their persistentVolumeClaimRetentionPolicy asks for
// (statefulset-claims.ts).
// See pkg/controller/statefulset/stateful_set.go (sync, getPodsForStatefulSet, syncStatefulSet) and
// stateful_set_control.go (UpdateStatefulSet, performUpdate, updateStatefulSet, processReplica, processCondemned,
// runForAll, slowStartBatch, computeReplicaStatus, updateStatefulSetStatus) at kubernetes v1.36.3.
import type { Pod } from '../api/types';
import type { ApiServer } from '../apiserver/server';
import type { EngineContext } from '../context';
import type { Steps } from '../runtime/step';
import { ControllerClient } from './client';
import { claimObjects } from './controller-ref';
import { asObject, isPodAvailable, isPodReady, mergeByName } from './pods';
import { k8sEqual } from './replicaset';
import { statefulSetRevisions, truncateHistory } from './statefulset-history';
import {
  identityMatches, inOrdinalRange, isMemberOf, ordinalOf, replicasOf, startOrdinal, type StatefulSet, storageMatches,
} from './statefulset-identity';
import { claimsMatchRetentionPolicy, podClaimIsStale, updatePodClaimForRetentionPolicy } from './statefulset-claims';
import { createMissingClaims, createStatefulPod, deleteStatefulPod, setRef, STATEFULSET_CONTROLLER, updateStatefulPodClaims } from './statefulset-pods';
import { type ControllerRevision, STATEFULSET_REVISION_LABEL } from './statefulset-revision';
import { newVersionedPod, rollingUpdate } from './statefulset-update';
import { STATUS_MANAGERS, updateStatus } from '../apiserver/status-write';

const PHASE = 'controllers.statefulset' as const;

/** MAX_BATCH_SIZE is MaxBatchSize: the largest slow-start batch of the Parallel policy. */
const MAX_BATCH_SIZE = 500;

/** StatefulSetSyncResult: the sync's error (requeued rate-limited), or a later resync for minReadySeconds. */
export interface StatefulSetSyncResult {
  error?: string;
  requeueAfterMs?: number;
}

/** syncStatefulSet is sync for one key (phase controllers.statefulset). */
export function* syncStatefulSet(ctx: EngineContext, api: ApiServer, namespace: string, name: string): Steps<StatefulSetSyncResult> {
  const set = ctx.store.get<StatefulSet>('StatefulSet', namespace, name);
  if (!set) return {};
  const ref = setRef(set);
  const client = new ControllerClient(api, STATEFULSET_CONTROLLER, 'controllers.statefulset');
  // getPodsForStatefulSet: the pods it controls and the namespace's orphans go through ClaimPods, whose filter also
  // wants the pod's name to be `<set>-<ordinal>` (isMemberOf).
  const owned = ctx.store.byIndex<Pod>('controller', set.metadata?.uid ?? '', 'Pod');
  const orphans = ctx.store.byIndex<Pod>('orphan', `Pod/${namespace}`, 'Pod');
  const claim = { ctx, client, controller: asObject(set), selector: set.spec?.selector, phase: PHASE, ref };
  const pods = (yield* claimObjects(claim, mergeByName(owned, orphans).map(asObject), (p) => isMemberOf(set, p as unknown as Pod))) as unknown as Pod[];

  const revisions = yield* statefulSetRevisions(ctx, client, set);
  if ('error' in revisions) {
    // UpdateStatefulSet truncates the history even when performUpdate fails, with no current or update revision.
    const truncated = yield* truncateHistory(ctx, client, set, pods, revisions.listed, undefined, undefined);
    return { error: truncated === undefined ? revisions.error : `[${revisions.error}, ${truncated}]` };
  }
  const { current, update, collisionCount } = revisions;

  // updateStatefulSet: the pods in the ordinal range by ordinal, the others (with an ordinal) condemned.
  const start = startOrdinal(set);
  const want = replicasOf(set);
  const replicas: (Pod | undefined)[] = new Array<Pod | undefined>(want).fill(undefined);
  const condemned: Pod[] = [];
  for (const pod of pods) {
    if (inOrdinalRange(pod, set)) replicas[ordinalOf(pod) - start] = pod;
    else if (ordinalOf(pod) >= 0) condemned.push(pod);
  }
  // Condemned pods go in decreasing ordinal order (descendingOrdinal).
  condemned.sort((a, b) => ordinalOf(b) - ordinalOf(a));
  const known = replicas.filter((p): p is Pod => p !== undefined);
  const missing = replicas.flatMap((p, i) => (p ? [] : [start + i]));
  // Missing ordinals get a new pod at the current revision below the partition, else at the update revision.
  const all = replicas.map((p, i) => p ?? newVersionedPod(set, current, update, start + i));

  let error: string | undefined;
  let deleted = 0;
  if (!set.metadata?.deletionTimestamp) {
    const monotonic = set.spec?.podManagementPolicy !== 'Parallel';
    if (missing.length > 0) {
      yield {
        phase: PHASE, object: ref, field: 'spec.replicas',
        result: `${known.length} of ${want} pods exist; ${monotonic ? 'OrderedReady: each ordinal waits for the ones below it to be Running and Ready' : 'Parallel: every missing pod is created at once'}`,
        detail: { replicas: want, existing: known.map((p) => p.metadata?.name), missing, podManagementPolicy: monotonic ? 'OrderedReady' : 'Parallel' },
      };
    }
    const minReady = set.spec?.minReadySeconds ?? 0;
    // The first unavailable pod: of the replicas in ordinal order, else of the condemned from the lowest ordinal up.
    const unavailable = (p: Pod) => !isPodAvailable(ctx.clock, p, minReady) || !!p.metadata?.deletionTimestamp;
    const firstUnavailable = all.find(unavailable) ?? [...condemned].reverse().find(unavailable);
    const replicasDone = yield* runForAll(all, (i) => processReplica(ctx, client, set, all, i, monotonic), monotonic);
    error = replicasDone.error;
    let exit = replicasDone.exit;
    // Fix pod claims for condemned pods (fixPodClaim): their claims' owner references, as the retention policy asks.
    if (!exit && condemned.length > 0) {
      ({ exit, error } = yield* runForAll(condemned, (i) => fixPodClaim(ctx, client, set, condemned[i]!), monotonic));
    }
    // Scale-down only once every replica is processed (in OrderedReady: Running, Ready and available).
    if (!exit && condemned.length > 0) {
      yield {
        phase: PHASE, object: ref, field: 'spec.replicas',
        result: `${condemned.length === 1 ? 'pod' : 'pods'} ${condemned.map((p) => p.metadata?.name).join(', ')} ${condemned.length === 1 ? 'is' : 'are'} outside ordinals ${start}..${start + want - 1}: ${monotonic ? 'OrderedReady deletes them one at a time from the highest ordinal, each once the others are Running and Ready' : 'Parallel deletes them all at once'}`,
        detail: { condemned: condemned.map((p) => p.metadata?.name), podManagementPolicy: monotonic ? 'OrderedReady' : 'Parallel' },
      };
      ({ exit, error } = yield* runForAll(condemned, (i) => processCondemned(ctx, client, set, condemned, i, firstUnavailable, monotonic), monotonic));
    }
    // Scaling takes precedence over updates: the rolling update only once no replica or condemned pod stopped the sync.
    if (!exit) ({ deleted, error } = yield* rollingUpdate(ctx, client, set, all, update));
  }

  // The status counts the pods the sync started with: those it just created are not seen yet (isCreated).
  const status = replicaStatus(ctx, set, [...known, ...condemned], current, update, collisionCount, deleted);
  if (inconsistentStatus(set, status)) {
    updateStatus<StatefulSet>(ctx, STATUS_MANAGERS.controllers, 'StatefulSet', namespace, name, (o) => { o.status = status; });
    yield {
      phase: PHASE, object: ref, field: 'status',
      result: `status: ${status['replicas']} replicas, ${status['readyReplicas'] ?? 0} ready, ${status['availableReplicas']} available, ${revisionsSaid(status)}`,
      detail: { status },
    };
  }
  // UpdateStatefulSet: then the history is cut to revisionHistoryLimit, whatever the update did; its error joins the sync's.
  const truncated = yield* truncateHistory(ctx, client, set, pods, revisions.listed, current, update);
  if (error !== undefined || truncated !== undefined) return { error: error === undefined ? truncated! : truncated === undefined ? error : `[${error}, ${truncated}]` };
  // syncStatefulSet: with minReadySeconds, a resync when a ready pod is not available yet.
  const minReady = set.spec?.minReadySeconds ?? 0;
  if (minReady > 0 && status['readyReplicas'] !== status['availableReplicas']) return { requeueAfterMs: nextAvailabilityCheck(ctx, known, minReady) };
  return {};
}

/**
 * runForAll: OrderedReady processes the replicas in ordinal order and stops at the first that blocks; Parallel runs
 * them in slow-start batches (1, 2, 4... up to MaxBatchSize) and stops after a batch with an error.
 */
function* runForAll(pods: readonly Pod[], fn: (i: number) => Steps<{ exit: boolean; error?: string }>, monotonic: boolean): Steps<{ exit: boolean; error?: string }> {
  if (monotonic) {
    for (let i = 0; i < pods.length; i++) {
      const r = yield* fn(i);
      if (r.exit || r.error !== undefined) return { exit: true, ...(r.error !== undefined ? { error: r.error } : {}) };
    }
    return { exit: false };
  }
  let j = 0;
  let remaining = pods.length;
  for (let batch = Math.min(remaining, 1); batch > 0; batch = Math.min(2 * batch, remaining, MAX_BATCH_SIZE)) {
    const errors: string[] = [];
    for (let k = 0; k < batch; k++, j++) {
      const r = yield* fn(j);
      if (r.error !== undefined) errors.push(r.error);
    }
    if (errors.length) return { exit: true, error: errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]` };
    remaining -= batch;
  }
  return { exit: false };
}

/**
 * processCondemned: a terminating pod is waited for (OrderedReady) or passed over (Parallel); in OrderedReady a pod
 * not Running and Ready, or not available, blocks unless it is the first unavailable pod; otherwise it is deleted, and
 * OrderedReady stops there until the next sync. See stateful_set_control.go (processCondemned) at v1.36.3.
 */
function* processCondemned(
  ctx: EngineContext, client: ControllerClient, set: StatefulSet, condemned: readonly Pod[], i: number, firstUnavailable: Pod | undefined, monotonic: boolean,
): Steps<{ exit: boolean; error?: string }> {
  const pod = condemned[i]!;
  const name = pod.metadata?.name ?? '';
  const ref = setRef(set);
  if (pod.metadata?.deletionTimestamp) {
    if (!monotonic) return { exit: false };
    yield { phase: PHASE, object: ref, step: { kind: 'object', name }, result: `waiting for pod ${name} to terminate before the next scale-down`, detail: { pod: name }, outcome: 'waiting' };
    return { exit: true };
  }
  const first = firstUnavailable?.metadata?.name;
  if (monotonic && name !== first && !(pod.status?.phase === 'Running' && isPodReady(pod))) {
    yield { phase: PHASE, object: ref, step: { kind: 'object', name }, result: `waiting for pod ${first} to be Running and Ready before scaling down`, detail: { pod: name, waitingFor: first }, outcome: 'waiting' };
    return { exit: true };
  }
  if (monotonic && name !== first && !isPodAvailable(ctx.clock, pod, set.spec?.minReadySeconds ?? 0)) {
    yield { phase: PHASE, object: ref, step: { kind: 'object', name }, result: `waiting for pod ${first} to be available before scaling down`, detail: { pod: name, waitingFor: first }, outcome: 'waiting' };
    return { exit: true };
  }
  const error = yield* deleteStatefulPod(ctx, client, set, pod, 'its ordinal is outside the StatefulSet\'s: scale down');
  return { exit: true, ...(error !== undefined ? { error } : {}) };
}

/**
 * processReplica for the creation path: a Failed or Succeeded pod is deleted, to be made again next sync; a missing
 * one is created (OrderedReady then waits for it); a Pending one gets its missing claims; OrderedReady waits on a pod
 * terminating, not Running and Ready, or not available for minReadySeconds.
 */
function* processReplica(ctx: EngineContext, client: ControllerClient, set: StatefulSet, replicas: readonly Pod[], i: number, monotonic: boolean): Steps<{ exit: boolean; error?: string }> {
  const pod = replicas[i]!;
  const name = pod.metadata?.name ?? '';
  const ref = setRef(set);
  const phase = pod.status?.phase;
  if (phase === 'Failed' || phase === 'Succeeded') {
    if (pod.metadata?.deletionTimestamp) return { exit: true };
    const error = yield* deleteStatefulPod(ctx, client, set, pod, `it is ${phase}; the next sync creates it again`);
    return { exit: true, ...(error !== undefined ? { error } : {}) };
  }
  if (!phase) {
    // PodClaimIsStale: a claim still owned by an earlier pod of this name (whenScaled Delete) waits for the collector.
    if (podClaimIsStale(ctx, set, pod)) {
      yield { phase: PHASE, object: ref, step: { kind: 'object', name }, result: `a claim of pod ${name} still belongs to an earlier pod ${name}: waiting for the garbage collector to delete it`, detail: { pod: name }, outcome: 'waiting' };
      return { exit: true };
    }
    const error = yield* createStatefulPod(ctx, client, set, pod);
    if (error !== undefined) return { exit: true, error };
    if (monotonic) return { exit: true };
    return { exit: false };
  }
  if (phase === 'Pending') {
    const error = yield* createMissingClaims(ctx, client, set, pod);
    if (error !== undefined) return { exit: true, error };
  }
  if (monotonic && pod.metadata?.deletionTimestamp) {
    yield { phase: PHASE, object: ref, step: { kind: 'object', name }, result: `waiting for pod ${name} to terminate`, detail: { pod: name }, outcome: 'waiting' };
    return { exit: true };
  }
  if (monotonic && !(phase === 'Running' && isPodReady(pod))) {
    yield { phase: PHASE, object: ref, step: { kind: 'object', name }, result: `waiting for pod ${name} to be Running and Ready before the next ordinal`, detail: { pod: name, phase }, outcome: 'waiting' };
    return { exit: true };
  }
  if (monotonic && !isPodAvailable(ctx.clock, pod, set.spec?.minReadySeconds ?? 0)) {
    yield { phase: PHASE, object: ref, step: { kind: 'object', name }, result: `waiting for pod ${name} to be available (Ready for minReadySeconds ${set.spec?.minReadySeconds})`, detail: { pod: name }, outcome: 'waiting' };
    return { exit: true };
  }
  // Enforce the StatefulSet invariants: claims out of step with the retention policy are brought in step.
  if (identityMatches(set, pod) && storageMatches(set, pod) && !claimsMatchRetentionPolicy(ctx, set, pod)) {
    const error = yield* updateStatefulPodClaims(ctx, client, set, pod);
    return { exit: false, ...(error !== undefined ? { error } : {}) };
  }
  if (!identityMatches(set, pod) || !storageMatches(set, pod)) {
    // UpdateStatefulPod would rewrite the pod's identity or volumes: not simulated.
    yield { phase: PHASE, object: ref, step: { kind: 'object', name }, result: `pod ${name} does not carry its StatefulSet identity or volumes; updating it (UpdateStatefulPod) is not simulated`, detail: { pod: name }, outcome: 'waiting' };
  }
  return { exit: false };
}

/** fixPodClaim: a condemned pod's claims get the owner references the retention policy asks for. */
function* fixPodClaim(ctx: EngineContext, client: ControllerClient, set: StatefulSet, pod: Pod): Steps<{ exit: boolean; error?: string }> {
  if (claimsMatchRetentionPolicy(ctx, set, pod)) return { exit: false };
  const error = yield* updatePodClaimForRetentionPolicy(ctx, client, set, pod);
  return error !== undefined ? { exit: true, error } : { exit: false };
}

/**
 * replicaStatus is updateStatefulSet's status: observedGeneration, the revisions and collision count, and
 * computeReplicaStatus' counts — replicas (created), readyReplicas (Running and Ready), availableReplicas (and Ready
 * for minReadySeconds), currentReplicas and updatedReplicas (created, not terminating, by revision label), less one
 * current replica for the pod the rolling update deleted (status.CurrentReplicas--: the pods counted are the sync's
 * own, read before the delete) — then completeRollingUpdate. Fields are written as the API's JSON writes them (omitempty).
 */
function replicaStatus(
  ctx: EngineContext, set: StatefulSet, pods: readonly Pod[], current: ControllerRevision, update: ControllerRevision, collisionCount: number, deleted: number,
): Record<string, unknown> {
  const minReady = set.spec?.minReadySeconds ?? 0;
  let replicas = 0, ready = 0, available = 0, currentReplicas = 0, updated = 0;
  for (const pod of pods) {
    const created = !!pod.status?.phase;
    if (created) replicas++;
    if (pod.status?.phase === 'Running' && isPodReady(pod)) {
      ready++;
      if (isPodAvailable(ctx.clock, pod, minReady)) available++;
    }
    if (created && !pod.metadata?.deletionTimestamp) {
      const revision = pod.metadata?.labels?.[STATEFULSET_REVISION_LABEL];
      if (revision === current.metadata?.name) currentReplicas++;
      if (revision === update.metadata?.name) updated++;
    }
  }
  currentReplicas -= deleted;
  let currentRevision = current.metadata?.name ?? '';
  const want = replicasOf(set);
  // completeRollingUpdate: a RollingUpdate whose every replica is updated and ready makes the update revision current.
  if (set.spec?.updateStrategy?.type === 'RollingUpdate' && updated === want && ready === want && replicas === want) {
    currentReplicas = updated;
    currentRevision = update.metadata?.name ?? '';
  }
  const status: Record<string, unknown> = {};
  const omitEmpty = (k: string, v: number | string): void => { if (v) status[k] = v; };
  omitEmpty('observedGeneration', set.metadata?.generation ?? 0);
  status['replicas'] = replicas;
  omitEmpty('readyReplicas', ready);
  omitEmpty('currentReplicas', currentReplicas);
  omitEmpty('updatedReplicas', updated);
  omitEmpty('currentRevision', currentRevision);
  omitEmpty('updateRevision', update.metadata?.name ?? '');
  status['collisionCount'] = collisionCount;
  status['availableReplicas'] = available;
  return status;
}

/** revisionsSaid: one revision, or during an update how many pods are current and how many updated. */
function revisionsSaid(status: Record<string, unknown>): string {
  if (status['currentRevision'] === status['updateRevision']) return `revision ${status['updateRevision']}`;
  return `${status['currentReplicas'] ?? 0} at current revision ${status['currentRevision']}, ${status['updatedReplicas'] ?? 0} at update revision ${status['updateRevision']}`;
}

/** inconsistentStatus: a newer observedGeneration, or any count or revision changed (collisionCount is not compared). */
function inconsistentStatus(set: StatefulSet, status: Record<string, unknown>): boolean {
  const old = set.status ?? {};
  const num = (o: Record<string, unknown>, k: string): number => (typeof o[k] === 'number' ? o[k] : 0);
  if (num(status, 'observedGeneration') > num(old, 'observedGeneration')) return true;
  return ['replicas', 'currentReplicas', 'readyReplicas', 'updatedReplicas', 'currentRevision', 'availableReplicas', 'updateRevision']
    .some((k) => !k8sEqual(status[k] ?? (k.endsWith('Revision') ? '' : 0), old[k] ?? (k.endsWith('Revision') ? '' : 0)));
}

/**
 * nextAvailabilityCheck is FindMinNextPodAvailabilityCheck, else minReadySeconds: the soonest time a ready pod
 * becomes available (pkg/controller/controller_utils.go).
 */
function nextAvailabilityCheck(ctx: EngineContext, pods: readonly Pod[], minReady: number): number {
  let soonest: number | undefined;
  for (const pod of pods) {
    if (!isPodReady(pod) || isPodAvailable(ctx.clock, pod, minReady)) continue;
    const since = Date.parse(pod.status?.conditions?.find((c) => c.type === 'Ready')?.lastTransitionTime ?? '') - ctx.clock.epoch.getTime();
    if (!Number.isFinite(since)) continue;
    const wait = Math.max(0, since + minReady * 1000 - ctx.clock.now);
    soonest = soonest === undefined ? wait : Math.min(soonest, wait);
  }
  return soonest ?? minReady * 1000;
}
