// A StatefulSet's revisions as its controller keeps them: the current and update revisions of a sync (the template's
// revision made, or an earlier one brought back by a rollback), and the history cut to revisionHistoryLimit.
// See pkg/controller/statefulset/stateful_set_control.go (getStatefulSetRevisions, setMatchesLatestExistingRevision,
// truncateHistory), stateful_set_utils.go (nextRevision) and pkg/controller/history/controller_history.go
// (SortControllerRevisions, EqualRevision, FindEqualRevisions, CreateControllerRevision, UpdateControllerRevision,
// DeleteControllerRevision) at kubernetes v1.36.3.
import type { KubeObject, Pod } from '../api/types';
import type { EngineContext } from '../context';
import type { Steps } from '../runtime/step';
import type { ControllerClient } from './client';
import type { StatefulSet } from './statefulset-identity';
import { setRef } from './statefulset-pods';
import { controlledRevisions, type ControllerRevision, newRevision, revisionRaw, STATEFULSET_REVISION_LABEL } from './statefulset-revision';

const PHASE = 'controllers.statefulset' as const;

/** Revisions is getStatefulSetRevisions' answer; `listed` is the sorted list it started from, which truncateHistory reads. */
export type Revisions =
  | { current: ControllerRevision; update: ControllerRevision; collisionCount: number; listed: ControllerRevision[] }
  | { error: string; listed: ControllerRevision[] };

/**
 * sortRevisions is history.SortControllerRevisions (sort.Stable by byRevision): by revision, then by creation time,
 * then by name.
 */
function sortRevisions(revisions: ControllerRevision[]): ControllerRevision[] {
  const time = (r: ControllerRevision): number => Date.parse(r.metadata?.creationTimestamp ?? '') || 0;
  const name = (r: ControllerRevision): string => r.metadata?.name ?? '';
  return revisions.sort((a, b) => (a.revision ?? 0) - (b.revision ?? 0) || time(a) - time(b) || (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0));
}

/** listRevisions is ListRevisions: the revisions the set controls that match its selector, sorted. */
export function listRevisions(ctx: EngineContext, set: StatefulSet): ControllerRevision[] {
  return sortRevisions(controlledRevisions(ctx.store, set));
}

/**
 * statefulSetRevisions is getStatefulSetRevisions. The proposed revision (number nextRevision) is compared by its
 * Data.Raw bytes (EqualRevision): equal to the latest, the update revision is the latest; equal to an earlier one, that
 * one is rolled back to (UpdateControllerRevision gives it the next number); else it is created. The current revision
 * is the one status.currentRevision names, else the update revision.
 * setMatchesLatestExistingRevision (StatefulSetSemanticRevisionComparison, on by default in 1.36) also takes the
 * latest when restoring it and defaulting gives the proposed revision: here every revision is made from a defaulted
 * stored set, so that rebuilt revision is the latest's own bytes and the byte comparison already decides it.
 */
export function* statefulSetRevisions(ctx: EngineContext, client: ControllerClient, set: StatefulSet): Steps<Revisions> {
  const listed = listRevisions(ctx, set);
  const collisionCount = typeof set.status?.['collisionCount'] === 'number' ? set.status['collisionCount'] : 0;
  // nextRevision: one past the largest revision number, 1 for the first.
  const next = listed.length ? (listed[listed.length - 1]!.revision ?? 0) + 1 : 1;
  const proposed = newRevision(set, next, collisionCount);
  const equal = listed.filter((r) => revisionRaw(r) === proposed.raw);
  const latest = listed[listed.length - 1];
  let update: ControllerRevision;
  let collisions = collisionCount;
  if (latest && equal.length && revisionRaw(latest) === proposed.raw) update = latest;
  else if (equal.length) {
    const back = yield* rollBack(ctx, client, set, equal[equal.length - 1]!, next);
    if ('error' in back) return { error: back.error, listed };
    update = back.revision;
  } else {
    const made = yield* createRevision(ctx, client, set, proposed, next, collisionCount, latest);
    if ('error' in made) return { error: made.error, listed };
    ({ revision: update, collisionCount: collisions } = made);
  }
  const current = listed.find((r) => r.metadata?.name === set.status?.['currentRevision']) ?? update;
  return { current, update, collisionCount: collisions, listed };
}

/**
 * createRevision is CreateControllerRevision: the name is hashed again with the collision count on each try; a name
 * held by a revision of the same bytes is that revision, one of other bytes raises the count. The labels keep the
 * hash of the first try, as newRevision made them.
 */
function* createRevision(
  ctx: EngineContext, client: ControllerClient, set: StatefulSet, proposed: ReturnType<typeof newRevision>, next: number, collisionCount: number,
  latest: ControllerRevision | undefined,
): Steps<{ revision: ControllerRevision; collisionCount: number } | { error: string }> {
  for (let count = collisionCount; ; count++) {
    const candidate = newRevision(set, next, count).revision;
    candidate.metadata = { ...candidate.metadata, labels: proposed.revision.metadata?.labels };
    const name = candidate.metadata?.name ?? '';
    const out = yield* client.create(candidate, setRef(set));
    if (out.ok) {
      yield {
        phase: PHASE, object: setRef(set), field: 'spec.template', step: { kind: 'object', name },
        result: latest
          ? `the pod template is no longer revision ${latest.metadata?.name}: created ControllerRevision ${name} (revision ${next}), the update revision`
          : `created ControllerRevision ${name} (revision ${next}): the template's history, named for the FNV hash of its patch`,
        detail: { revision: name, data: proposed.raw },
      };
      return { revision: (out.object ?? candidate) as ControllerRevision, collisionCount: count };
    }
    if (out.error.status.reason !== 'AlreadyExists') return { error: out.error.message };
    const exists = ctx.store.get<ControllerRevision>('ControllerRevision', set.metadata?.namespace, name);
    if (!exists) return { error: out.error.message };
    if (revisionRaw(exists) === proposed.raw) return { revision: exists, collisionCount: count };
  }
}

/**
 * rollBack is UpdateControllerRevision on the latest revision equal to the proposed one: it is given the next
 * revision number and becomes the update revision (RetryOnConflict is not needed: nothing else writes it here).
 */
function* rollBack(ctx: EngineContext, client: ControllerClient, set: StatefulSet, earlier: ControllerRevision, next: number): Steps<{ revision: ControllerRevision } | { error: string }> {
  const name = earlier.metadata?.name ?? '';
  if (earlier.revision === next) return { revision: earlier };
  const out = yield* client.update({ ...(earlier as KubeObject), revision: next } as KubeObject, setRef(set));
  if (!out.ok) return { error: out.error.message };
  yield {
    phase: PHASE, object: setRef(set), field: 'spec.template', step: { kind: 'object', name },
    result: `the pod template is back to ControllerRevision ${name}: a rollback, so it becomes the update revision as revision ${next} (was ${earlier.revision})`,
    detail: { revision: name, from: earlier.revision, to: next },
  };
  return { revision: (out.object ?? { ...earlier, revision: next }) as ControllerRevision };
}

/**
 * truncateHistory: the revisions listed at the start of the sync that are not live — not the current or update
 * revision, nor the revision of a pod the sync started with — are deleted from the oldest until revisionHistoryLimit
 * (default 10; a negative limit keeps all) remain. A failed delete stops it, and is the sync's error.
 */
export function* truncateHistory(
  ctx: EngineContext, client: ControllerClient, set: StatefulSet, pods: readonly Pod[], listed: readonly ControllerRevision[],
  current: ControllerRevision | undefined, update: ControllerRevision | undefined,
): Steps<string | undefined> {
  const live = new Set<string>();
  if (current) live.add(current.metadata?.name ?? '');
  if (update) live.add(update.metadata?.name ?? '');
  // getPodRevision: a pod without the label makes "" live, which names no revision.
  for (const pod of pods) live.add(pod.metadata?.labels?.[STATEFULSET_REVISION_LABEL] ?? '');
  const history = listed.filter((r) => !live.has(r.metadata?.name ?? ''));
  const limit = set.spec?.revisionHistoryLimit ?? 10;
  if (limit < 0 || history.length <= limit) return undefined;
  for (const revision of history.slice(0, history.length - limit)) {
    const name = revision.metadata?.name ?? '';
    const out = yield* client.delete(revision, {}, setRef(set));
    if (!out.ok) return out.error.message;
    yield {
      phase: PHASE, object: setRef(set), field: 'spec.revisionHistoryLimit', step: { kind: 'object', name },
      result: `deleted ControllerRevision ${name} (revision ${revision.revision}): no pod or status names it, and only revisionHistoryLimit ${limit} old revisions are kept`,
      detail: { revision: name, revisionHistoryLimit: limit },
    };
  }
  return undefined;
}
