// A StatefulSet's template change: the set at each revision, the revision a new pod is made at, and the rolling
// update — with RollingUpdate, the pod of the highest ordinal not at the update revision is deleted, its successor made
// at the update revision by a later sync, and the next ordinal waits until it is Running and available; ordinals below
// rollingUpdate.partition keep the current revision; OnDelete replaces nothing.
// See pkg/controller/statefulset/stateful_set_control.go (updateStatefulSet, updateStatefulSetAfterInvariantEstablished)
// and stateful_set_utils.go (ApplyRevision, newVersionedStatefulSetPod, setPodRevision, getPodRevision, isUnavailable)
// at kubernetes v1.36.3.
import type { Pod } from '../api/types';
import type { EngineContext } from '../context';
import type { Steps } from '../runtime/step';
import type { ControllerClient } from './client';
import { isPodAvailable } from './pods';
import { newStatefulPod, ordinalOf, startOrdinal, type StatefulSet } from './statefulset-identity';
import { deleteStatefulPod, setRef } from './statefulset-pods';
import { type ControllerRevision, STATEFULSET_REVISION_LABEL } from './statefulset-revision';

const PHASE = 'controllers.statefulset' as const;

/**
 * MAX_UNAVAILABLE_STATEFULSET is the MaxUnavailableStatefulSet feature gate: Beta but off by default in 1.36
 * (pkg/features/kube_features.go, v1.36.3: {1.24 Alpha false}, {1.35 Beta false}). With it off the API server drops
 * spec.updateStrategy.rollingUpdate.maxUnavailable (pkg/registry/apps/statefulset/strategy.go,
 * dropStatefulSetDisabledFields) and updateStatefulSet never reaches updateStatefulSetAfterInvariantEstablished:
 * one pod at a time, whatever maxUnavailable says. So updateStatefulSetAfterInvariantEstablished is not modelled.
 */
export const MAX_UNAVAILABLE_STATEFULSET = false;

/** podRevision is getPodRevision: the pod's controller-revision-hash label, "" without one. */
export function podRevision(pod: Pod): string {
  return pod.metadata?.labels?.[STATEFULSET_REVISION_LABEL] ?? '';
}

/** isTerminating: the pod has a deletionTimestamp. */
const isTerminating = (pod: Pod): boolean => !!pod.metadata?.deletionTimestamp;

/** isUnavailable: not available for minReadySeconds (podutil.IsPodAvailable), or terminating. */
export function isUnavailable(ctx: EngineContext, set: StatefulSet, pod: Pod): boolean {
  return !isPodAvailable(ctx.clock, pod, set.spec?.minReadySeconds ?? 0) || isTerminating(pod);
}

/**
 * applyRevision is ApplyRevision: the set with the revision's strategic merge patch applied. The patch is
 * {"spec":{"template":{"$patch":"replace",...}}}, so the set's template is replaced whole by the revision's.
 */
export function applyRevision(set: StatefulSet, revision: ControllerRevision): StatefulSet {
  const data = revision.data as { spec?: { template?: Record<string, unknown> } } | undefined;
  const { $patch: _replace, ...template } = data?.spec?.template ?? {};
  return { ...set, spec: { ...set.spec, template: template as NonNullable<StatefulSet['spec']>['template'] } };
}

/**
 * newVersionedPod is newVersionedStatefulSetPod: a pod made from the current revision's set when its ordinal is below
 * the partition, else from the update revision's. Go's condition is
 *   Type == RollingUpdate && (RollingUpdate == nil && ordinal < start + status.currentReplicas) ||
 *   (RollingUpdate != nil && ordinal < start + *Partition)
 * — && binds tighter than ||, so the partition test holds for any strategy type, and a RollingUpdate set stored
 * without rollingUpdate (type given, the field left out: SetDefaults_StatefulSet only adds it when type is empty)
 * makes its first status.currentReplicas ordinals at the current revision.
 */
export function newVersionedPod(set: StatefulSet, current: ControllerRevision, update: ControllerRevision, ordinal: number): Pod {
  const strategy = set.spec?.updateStrategy;
  const start = startOrdinal(set);
  const currentReplicas = typeof set.status?.['currentReplicas'] === 'number' ? set.status['currentReplicas'] : 0;
  const atCurrent = (strategy?.type === 'RollingUpdate' && strategy.rollingUpdate === undefined && ordinal < start + currentReplicas)
    || (strategy?.rollingUpdate !== undefined && ordinal < start + (strategy.rollingUpdate.partition ?? 0));
  // The update revision is the set's own template (getStatefulSetRevisions made or found it from this set), so
  // ApplyRevision(set, updateRevision) gives the set back; the current revision's template is read from its data.
  if (atCurrent && current.metadata?.name !== update.metadata?.name) return newStatefulPod(applyRevision(set, current), ordinal, current.metadata?.name ?? '');
  return newStatefulPod(set, ordinal, (atCurrent ? current : update).metadata?.name ?? '');
}

/** RollingResult: the pods the update deleted (status.currentReplicas counts one less for each), and its error. */
export interface RollingResult {
  deleted: number;
  error?: string;
}

/**
 * rollingUpdate is the end of updateStatefulSet, reached once every replica is processed and no condemned pod is
 * left to delete. OnDelete stops here. Otherwise, from the highest ordinal down to the partition: a pod not at the
 * update revision and not terminating is deleted and the sync ends (the next sync makes it again at the update
 * revision); a pod at the update revision, or terminating, that is not available (Running, Ready for minReadySeconds)
 * ends the sync too. So one pod at a time, each Running and available before the next.
 */
export function* rollingUpdate(ctx: EngineContext, client: ControllerClient, set: StatefulSet, replicas: readonly Pod[], update: ControllerRevision): Steps<RollingResult> {
  const ref = setRef(set);
  const strategy = set.spec?.updateStrategy;
  const updateName = update.metadata?.name ?? '';
  const stale = replicas.filter((p) => podRevision(p) !== updateName);
  if (strategy?.type === 'OnDelete') {
    // updateStatefulSet: "for the OnDelete strategy we short circuit. Pods will be updated when they are manually deleted."
    if (stale.length) yield { phase: PHASE, object: ref, field: 'spec.updateStrategy', result: `OnDelete: ${names(stale)} ${stale.length === 1 ? 'stays' : 'stay'} at ${revisionList(stale)} until deleted; a deleted pod is made again at the update revision ${updateName}`, detail: { pods: stale.map((p) => p.metadata?.name), updateRevision: updateName } };
    return { deleted: 0 };
  }
  // MAX_UNAVAILABLE_STATEFULSET is off: updateStatefulSetAfterInvariantEstablished is not taken, maxUnavailable is not read.
  const updateMin = strategy?.rollingUpdate ? strategy.rollingUpdate.partition ?? 0 : 0;
  if (stale.length && updateMin > 0) {
    const kept = stale.filter((p) => ordinalOf(p) - startOrdinal(set) < updateMin);
    if (kept.length) yield { phase: PHASE, object: ref, field: 'spec.updateStrategy.rollingUpdate.partition', result: `partition ${updateMin}: ${names(kept)} ${kept.length === 1 ? 'keeps' : 'keep'} ${revisionList(kept)}`, detail: { partition: updateMin, pods: kept.map((p) => p.metadata?.name) } };
  }
  for (let target = replicas.length - 1; target >= updateMin; target--) {
    const pod = replicas[target]!;
    const name = pod.metadata?.name ?? '';
    if (podRevision(pod) !== updateName && !isTerminating(pod)) {
      const error = yield* deleteStatefulPod(ctx, client, set, pod, `it is at revision ${podRevision(pod) || '(none)'}, not the update revision ${updateName}: the rolling update replaces the highest ordinal first, one at a time`);
      // A failed delete returns before status.CurrentReplicas-- (a NotFound counts as deleted).
      return error === undefined ? { deleted: 1 } : { deleted: 0, error };
    }
    if (isUnavailable(ctx, set, pod)) {
      yield { phase: PHASE, object: ref, field: 'spec.updateStrategy', step: { kind: 'object', name }, result: `rolling update: waiting for pod ${name} to be ${isTerminating(pod) ? 'gone and made again at the update revision' : 'Ready and available at the update revision'} before updating the next ordinal`, detail: { pod: name, updateRevision: updateName }, outcome: 'waiting' };
      return { deleted: 0 };
    }
  }
  return { deleted: 0 };
}

/** names lists pods by name: "a", "a and b", "a, b and c". */
function names(pods: readonly Pod[]): string {
  const n = pods.map((p) => p.metadata?.name ?? '');
  return n.length <= 1 ? n.join('') : `${n.slice(0, -1).join(', ')} and ${n[n.length - 1]}`;
}

/** revisionList names the revisions the pods are at. */
function revisionList(pods: readonly Pod[]): string {
  const revisions = [...new Set(pods.map((p) => podRevision(p) || '(no revision)'))];
  return `${revisions.length === 1 ? 'revision' : 'revisions'} ${revisions.join(', ')}`;
}
