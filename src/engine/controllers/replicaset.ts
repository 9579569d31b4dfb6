// The ReplicaSet controller: it creates the pods a ReplicaSet is missing in slow-start batches, deletes the surplus
// in getPodsToDelete's order, and reports the ReplicaSet's status. The same code runs ReplicationControllers, through
// the kind adapter of replication.ts (pkg/controller/replication is this controller behind a conversion layer).
// See pkg/controller/replicaset/replica_set.go (syncReplicaSet, manageReplicas, getPodsToDelete) and replica_set_utils.go.
import { podGenerateName } from '../api/naming';
import { jsonEqual } from '../api/json-equal';
import { deepClone, type KubeObject, type Pod, podKey, type ReplicaSet } from '../api/types';
import type { EngineContext } from '../context';
import type { Steps } from '../runtime/step';
import { parallel } from '../runtime/parallel';
import { ControllerClient } from './client';
import { claimObjects } from './controller-ref';
import { controllerRef } from './owner';
import { asObject, isPodActive, isPodAvailable, mergeByName, rankPodsForDeletion } from './pods';
import type { ApiServer } from '../apiserver/server';
import { keyOf } from '../cluster/store';
import type { ReplicaSetTallies } from './replicaset-tally';
import type { ControllerExpectations } from './expectations';
import { NAMESPACE_TERMINATING_CAUSE } from '../apiserver/admission/namespace-lifecycle';
import { STATUS_MANAGERS, updateStatus } from '../apiserver/status-write';

/** REPLICASET_CONTROLLER is the source of its events and the service account it acts as. */
export const REPLICASET_CONTROLLER = 'replicaset-controller';

/** SLOW_START_INITIAL_BATCH_SIZE is the first batch of pod creations (controller.SlowStartInitialBatchSize). */
export const SLOW_START_INITIAL_BATCH_SIZE = 1;

/** BURST_REPLICAS is how many pods one sync creates or deletes at most (replicaset.BurstReplicas). */
export const BURST_REPLICAS = 500;

/** podFromTemplate builds a pod from a controller's template, as GetPodFromTemplate does. */
export function podFromTemplate(owner: KubeObject, template: { metadata?: Pod['metadata']; spec?: Pod['spec'] } | undefined, prefix = owner.metadata?.name ?? ''): Pod {
  const t = deepClone(template ?? {});
  return {
    apiVersion: 'v1', kind: 'Pod',
    metadata: {
      generateName: podGenerateName(prefix), namespace: owner.metadata?.namespace,
      ...(t.metadata?.labels ? { labels: t.metadata.labels } : {}),
      ...(t.metadata?.annotations ? { annotations: t.metadata.annotations } : {}),
      ...(t.metadata?.finalizers ? { finalizers: t.metadata.finalizers } : {}),
      ownerReferences: [controllerRef(owner)],
    },
    spec: t.spec ?? { containers: [] },
  };
}

/** CreatePodsResult is slowStartBatch's answer: the calls that succeeded and the first error, if any. */
export interface CreatePodsResult {
  successes: number;
  error?: string;
}

/**
 * createPods creates `count` pods in slow-start batches of 1, 2, 4...; a batch with a failure ends the run, the
 * rest waits for the next sync. Events as RealPodControl records them: SuccessfulCreate "Created pod: <name>",
 * FailedCreate "Error creating: <err>" — none for a namespace being terminated, whose refusal the controllers count
 * as a success ("any creation will fail"). See pkg/controller/replicaset/replica_set.go (manageReplicas,
 * slowStartBatch) and pkg/controller/controller_utils.go (RealPodControl.createPods) at kubernetes v1.36.3.
 */
export function* createPods(ctx: EngineContext, client: ControllerClient, owner: KubeObject, count: number, make: () => Pod, phase: 'controllers.replicaset' | 'controllers.job' | 'controllers.daemonset', source: string): Steps<CreatePodsResult> {
  const ref = `${owner.kind}/${owner.metadata?.namespace}/${owner.metadata?.name}`;
  let successes = 0;
  let remaining = count;
  // One create, as each goroutine of a batch makes it: the pod, its create, the event (RealPodControl.createPods).
  function* createOne(batch: number, errors: string[]): Steps<boolean> {
    const outcome = yield* client.create(make() as unknown as KubeObject);
    if (outcome.ok) {
      const podName = outcome.object?.metadata?.name ?? '';
      ctx.recorder.event({ type: 'Normal', reason: 'SuccessfulCreate', object: ref, source, message: `Created pod: ${podName}` });
      yield { phase, object: ref, step: { kind: 'object', name: podName }, result: `created pod ${podName} (batch of ${batch})`, detail: { pod: podName, batch } };
      return true;
    }
    if (outcome.error.status.details?.causes?.some((c) => c.reason === NAMESPACE_TERMINATING_CAUSE)) {
      // apierrors.HasStatusCause(err, v1.NamespaceTerminatingCause): no event, and no failure of the batch.
      yield { phase, object: ref, result: `${outcome.error.message}: the namespace is being terminated, so no FailedCreate event and no failure (any creation will fail)`, detail: { status: outcome.error.status } };
      return true;
    }
    ctx.recorder.event({ type: 'Warning', reason: 'FailedCreate', object: ref, source, message: `Error creating: ${outcome.error.message}` });
    // Sent on the batch's errCh as it happens: the sync returns the first one sent.
    errors.push(outcome.error.message);
    yield { phase, object: ref, result: `Error creating: ${outcome.error.message}`, detail: { status: outcome.error.status }, outcome: 'failed' };
    return false;
  }
  for (let batch = Math.min(remaining, SLOW_START_INITIAL_BATCH_SIZE); batch > 0; batch = Math.min(2 * batch, remaining)) {
    // The batch's creates go from as many goroutines at once, and the sync waits for them all (slowStartBatch): a
    // create that waits (its client's rate limiter, a slow webhook) holds up the batch, not each create after it.
    const size = batch;
    const errors: string[] = [];
    const counted = yield* parallel(Array.from({ length: size }, () => createOne(size, errors)), () => ctx.clock.now);
    successes += counted.filter(Boolean).length;
    const error = errors[0];
    remaining -= batch;
    if (error !== undefined) {
      if (remaining > 0) yield { phase, object: ref, result: `slow start: a create of this batch failed, so the ${remaining} left are skipped until the next sync`, detail: { skipped: remaining } };
      return { successes, error };
    }
  }
  return { successes };
}

/** deletePods deletes pods through the API server; event SuccessfulDelete "Deleted pod: <name>" (RealPodControl.DeletePod). */
export function* deletePods(
  ctx: EngineContext, client: ControllerClient, owner: KubeObject, pods: readonly Pod[], phase: 'controllers.replicaset' | 'controllers.job' | 'controllers.daemonset', source: string, why: string,
  failed: (pod: Pod, message: string | undefined) => void = () => undefined,
): Steps<void> {
  const ref = `${owner.kind}/${owner.metadata?.namespace}/${owner.metadata?.name}`;
  for (const pod of pods) {
    const name = pod.metadata?.name ?? '';
    yield { phase, object: ref, step: { kind: 'object', name }, result: `deleting pod ${name}: ${why}`, detail: { pod: name } };
    const outcome = yield* client.delete(asObject(pod));
    // A pod already gone (404) is no error of the sync; any other failure is (manageReplicas' errCh).
    if (!outcome.ok) failed(pod, outcome.error.status.code === 404 ? undefined : outcome.error.message);
    if (outcome.ok) ctx.recorder.event({ type: 'Normal', reason: 'SuccessfulDelete', object: ref, source, message: `Deleted pod: ${name}` });
    else if (outcome.error.status.code !== 404) ctx.recorder.event({ type: 'Warning', reason: 'FailedDelete', object: ref, source, message: `Error deleting: ${outcome.error.message}` });
  }
}

/**
 * ReplicaSetKind is what one instance of the ReplicaSet controller is run for (NewBaseController's arguments): the kind
 * it syncs, its event source, the service account it acts as, how it reads a stored object as a ReplicaSet, and
 * whether its status has terminatingReplicas. kube-controller-manager runs one instance for ReplicaSets and one for
 * ReplicationControllers (pkg/controller/replication/replication_controller.go, v1.36.3).
 */
export interface ReplicaSetKind {
  kind: 'ReplicaSet' | 'ReplicationController';
  source: string;
  serviceAccount: string;
  /** read returns the stored object and the ReplicaSet it reads as (itself for a ReplicaSet). */
  read(ctx: EngineContext, namespace: string, name: string): { owner: KubeObject; rs: ReplicaSet } | undefined;
  /** writeStatus orders the status counts and conditions as the kind's API type serializes them. */
  writeStatus(counts: ReplicaSetStatusCounts, conditions: ReplicaSetCondition[], observedGeneration: number): Record<string, unknown>;
}

/** ReplicaSetStatusCounts are calculateStatus' counts. */
export interface ReplicaSetStatusCounts {
  replicas: number;
  fullyLabeledReplicas: number;
  readyReplicas: number;
  availableReplicas: number;
  terminatingReplicas: number;
}

/** REPLICA_SET is the ReplicaSet controller's own instance (NewReplicaSetController). */
export const REPLICA_SET: ReplicaSetKind = {
  kind: 'ReplicaSet', source: REPLICASET_CONTROLLER, serviceAccount: REPLICASET_CONTROLLER,
  read: (ctx, namespace, name) => {
    const rs = ctx.store.get<ReplicaSet>('ReplicaSet', namespace, name);
    return rs && { owner: asObject(rs), rs };
  },
  writeStatus: (counts, conditions, observedGeneration) => {
    const status: Record<string, unknown> = {};
    const { terminatingReplicas, ...rest } = counts;
    // Zero counts are omitted, as the API's omitempty fields are.
    for (const [k, v] of Object.entries(rest)) if (v) status[k] = v;
    if (conditions.length) status['conditions'] = conditions;
    // replicas is not omitempty in ReplicaSetStatus.
    status['replicas'] = counts.replicas;
    // terminatingReplicas, a pointer always set while DeploymentReplicaSetTerminatingReplicas is on (beta and on since
    // 1.35): the pods being deleted that are not yet Succeeded or Failed (controller.FilterTerminatingPods).
    status['terminatingReplicas'] = terminatingReplicas;
    status['observedGeneration'] = observedGeneration;
    return status;
  },
};

/** ReplicaSetController is what one instance of the ReplicaSet controller keeps between syncs: its pods' counts and its expectations. */
export interface ReplicaSetController {
  kind: ReplicaSetKind;
  tallies: ReplicaSetTallies;
  expectations: ControllerExpectations;
}

/**
 * ReplicaSetSyncResult says whether the controller should sync the ReplicaSet again later (minReadySeconds), or
 * whether manageReplicas failed: syncReplicaSet then returns its error and the key is requeued rate-limited.
 */
export interface ReplicaSetSyncResult {
  requeueAfterMs?: number;
  error?: string;
}

/** syncReplicaSet brings a ReplicaSet's pods to its replicas and writes its status (phase controllers.replicaset). */
export function* syncReplicaSet(ctx: EngineContext, api: ApiServer, rsc: ReplicaSetController, namespace: string, name: string): Steps<ReplicaSetSyncResult> {
  const key = `${namespace}/${name}`;
  const read = rsc.kind.read(ctx, namespace, name);
  if (!read) {
    rsc.expectations.forget(key);
    return {};
  }
  const { owner, rs } = read;
  const { tallies, expectations, kind } = rsc;
  const ref = `${kind.kind}/${namespace}/${name}`;
  const client = new ControllerClient(api, kind.serviceAccount, 'controllers.replicaset');
  // replica_set.go syncReplicaSet: every active pod of the namespace goes through claimPods, which adopts the
  // matching orphans and releases owned pods that stopped matching; the claimed ones are counted. The pods it
  // controls that still match are claimed as they are: only the orphans and the mismatched ones need a decision.
  const counts = tallies.counts(rs);
  const mismatched = new Set(counts.mismatched);
  const ownedMatching = counts.active - mismatched.size;
  const toRelease = [...mismatched].map((k) => ctx.store.getByKey<Pod>(k)).filter((p): p is Pod => p !== undefined).sort(byName);
  const candidates = mergeByName(toRelease, ctx.store.byIndex<Pod>('orphan', `Pod/${namespace}`, 'Pod').filter(isPodActive));
  const claim = { ctx, client, controller: owner, selector: rs.spec?.selector, phase: 'controllers.replicaset' as const, ref };
  const adopted = (yield* claimObjects(claim, candidates.map(asObject))) as unknown as Pod[];
  const active = ownedMatching + adopted.length;
  const want = rs.spec?.replicas ?? 1;
  const diff = active - want;
  // A ReplicaSet being deleted only reports its status, and so does one still waiting to see the pods it last created
  // or deleted. See syncReplicaSet (rsNeedsSync: SatisfiedExpectations and rs.DeletionTimestamp == nil).
  let error: string | undefined;
  if (!rs.metadata?.deletionTimestamp && diff !== 0 && expectations.satisfied(key)) {
    yield {
      phase: 'controllers.replicaset', object: ref, field: 'spec.replicas',
      result: diff < 0 ? `${active} of ${want} pods exist: creating ${Math.min(-diff, BURST_REPLICAS)}` : `${active} pods for ${want} replicas: deleting ${Math.min(diff, BURST_REPLICAS)}`,
      detail: { replicas: want, active, diff },
    };
    if (diff < 0) {
      // manageReplicas: the creations are expected before they are asked for; those never attempted (a batch failed)
      // or failed are observed at once, since the informer will never see them.
      const count = Math.min(-diff, BURST_REPLICAS);
      expectations.expectCreations(key, count);
      const created = yield* createPods(ctx, client, owner, count, () => podFromTemplate(owner, rs.spec?.template as never), 'controllers.replicaset', kind.source);
      // "Any skipped pods that we never attempted to start shouldn't be expected": diff - successfulCreations.
      for (let i = created.successes; i < count; i++) expectations.creationObserved(key);
      error = created.error;
    } else {
      // The claimed pods in key order: those it controlled that match, and those it adopted.
      const adoptedUids = new Set(adopted.map((a) => a.metadata?.uid));
      const owned = ctx.store.byIndex<Pod>('controller', rs.metadata?.uid ?? '', 'Pod').filter((p) => isPodActive(p) && !mismatched.has(keyOf(p)) && !adoptedUids.has(p.metadata?.uid));
      const claimed = mergeByName(owned, adopted);
      // getPodsToDelete ranks the pods against the pods of the same owner on each node (getPodsRankedByRelatedPodsOnSameNode).
      const victims = rankPodsForDeletion(ctx.clock, claimed, claimed).slice(0, Math.min(diff, BURST_REPLICAS));
      // The deletions are expected by pod; one that fails is observed at once (manageReplicas).
      expectations.expectDeletions(key, victims.map(podKey));
      yield* deletePods(ctx, client, owner, victims, 'controllers.replicaset', kind.source, `the ${kind.kind} wants ${want}`, (pod, message) => {
        expectations.deletionObserved(key, podKey(pod));
        if (message !== undefined) error ??= message;
      });
    }
  }
  const result = yield* updateReplicaSetStatus(ctx, rsc, client, namespace, name, error === undefined ? undefined : { message: error, reason: diff < 0 ? 'FailedCreate' : 'FailedDelete' });
  return error === undefined ? result : { error };
}

function byName(a: Pod, b: Pod): number {
  const x = a.metadata?.name ?? '';
  const y = b.metadata?.name ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * updateReplicaSetStatus writes the status calculateStatus computes, when it changed: replicas, fullyLabeledReplicas,
 * readyReplicas, availableReplicas (pods Ready for minReadySeconds), observedGeneration, in the kind's own form.
 * Asks for a resync after minReadySeconds while ready pods are not yet available.
 */
function* updateReplicaSetStatus(
  ctx: EngineContext, rsc: ReplicaSetController, client: ControllerClient, namespace: string, name: string, failure?: { message: string; reason: 'FailedCreate' | 'FailedDelete' },
): Steps<ReplicaSetSyncResult> {
  const read = rsc.kind.read(ctx, namespace, name);
  if (!read) return {};
  const { owner, rs } = read;
  const tally = rsc.tallies.counts(rs);
  const minReady = rs.spec?.minReadySeconds ?? 0;
  // Available is Ready for minReadySeconds: the same as Ready without it, else a matter of each pod's time.
  const available = minReady === 0 ? tally.ready
    : ctx.store.byIndex<Pod>('controller', rs.metadata?.uid ?? '', 'Pod').filter((p) => isPodActive(p) && isPodAvailable(ctx.clock, p, minReady)).length;
  const counts = { replicas: tally.active, fullyLabeledReplicas: tally.fullyLabeled, readyReplicas: tally.ready, availableReplicas: available, terminatingReplicas: tally.terminating };
  // calculateStatus: a failed manageReplicas adds the ReplicaFailure condition (once); a sync without one removes it.
  const conditions = replicaFailure(ctx, rs.status?.conditions ?? [], failure);
  const status = rsc.kind.writeStatus(counts, conditions, rs.metadata?.generation ?? 1);
  if (!k8sEqual(status, owner['status'] ?? {})) {
    yield* client.writesStatus(owner, `${rsc.kind.kind}/${namespace}/${name}`);
    updateStatus<KubeObject>(ctx, STATUS_MANAGERS.controllers, rsc.kind.kind, namespace, name, (o) => { o['status'] = status; });
    yield {
      phase: 'controllers.replicaset', object: `${rsc.kind.kind}/${namespace}/${name}`,
      result: `status: ${counts.replicas} replicas, ${counts.readyReplicas} ready, ${counts.availableReplicas} available`,
      detail: { status },
    };
  }
  const want = rs.spec?.replicas ?? 1;
  if (minReady > 0 && counts.readyReplicas === want && counts.availableReplicas !== want) return { requeueAfterMs: minReady * 1000 };
  return {};
}

/** ReplicaSetCondition is one condition of a ReplicaSet's status (a ReplicationController's has the same fields). */
export type ReplicaSetCondition = NonNullable<NonNullable<ReplicaSet['status']>['conditions']>[number];

/**
 * replicaFailure is calculateStatus' ReplicaFailure rule (pkg/controller/replicaset/replica_set_utils.go, v1.36.3):
 * NewReplicaSetCondition(ReplicaFailure, True, FailedCreate or FailedDelete, err.Error()) when manageReplicas failed
 * and the condition is not there yet; RemoveCondition when it did not fail.
 */
function replicaFailure(ctx: EngineContext, conditions: ReplicaSetCondition[], failure: { message: string; reason: string } | undefined): ReplicaSetCondition[] {
  const present = conditions.some((c) => c.type === 'ReplicaFailure');
  if (failure && !present) return [...conditions, { type: 'ReplicaFailure', status: 'True', lastTransitionTime: ctx.clock.timestamp(), reason: failure.reason, message: failure.message }];
  if (!failure && present) return conditions.filter((c) => c.type !== 'ReplicaFailure');
  return conditions;
}

/** k8sEqual compares two JSON values: equal when their JSON, keys sorted, is. */
export const k8sEqual = jsonEqual;
