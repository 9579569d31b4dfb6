// A DaemonSet's revisions as its controller keeps them: constructHistory finds the revision of the current template
// (a new one for a new template, numbered one past the old; an earlier one brought back by a rollback gets that
// number), dedupCurHistories keeps one of several, and cleanupHistory cuts the old ones to revisionHistoryLimit.
// See pkg/controller/daemon/update.go (constructHistory, cleanupHistory, maxRevision, dedupCurHistories,
// controlledHistories, Match, getPatch, snapshot) at kubernetes v1.36.3.
import { computePodTemplateHash } from '../api/naming';
import type { KubeObject, Pod } from '../api/types';
import type { Store } from '../cluster/store';
import type { EngineContext } from '../context';
import type { Steps } from '../runtime/step';
import type { ControllerClient } from './client';
import { DAEMONSET_HASH_LABEL, type DaemonSet, dsRef, PHASE } from './daemonset-pods';
import { controllerRef } from './owner';
import { asObject } from './pods';
import { controlledRevisions, type ControllerRevision, revisionRaw, statefulSetPatch } from './statefulset-revision';

/** daemonSetHash is controller.ComputeHash(&ds.Spec.Template, ds.Status.CollisionCount), the revision's hash. */
function daemonSetHash(ds: DaemonSet): string {
  const collisions = typeof ds.status?.['collisionCount'] === 'number' ? ds.status['collisionCount'] : undefined;
  return computePodTemplateHash(ds.spec?.template ?? {}, collisions);
}


/** hashOf is a revision's controller-revision-hash label (constructHistory gives every revision one: its name). */
const hashOf = (r: ControllerRevision): string => r.metadata?.labels?.[DAEMONSET_HASH_LABEL] ?? r.metadata?.name ?? '';

/** maxRevision is maxRevision: the largest revision number, 0 for none. */
const maxRevision = (histories: readonly ControllerRevision[]): number => histories.reduce((m, h) => Math.max(m, h.revision ?? 0), 0);

/**
 * currentDaemonSetHash is the hash constructHistory would answer for the stored DaemonSet without writing anything:
 * the newest revision whose data is the template's patch (Match), or undefined when the controller has not made it.
 */
export function currentDaemonSetHash(store: Store, ds: DaemonSet): string | undefined {
  const patch = statefulSetPatch(ds);
  const current = controlledRevisions(store, ds).filter((h) => revisionRaw(h) === patch);
  return current.length ? hashOf(current.reduce((a, b) => ((b.revision ?? 0) >= (a.revision ?? 0) ? b : a))) : undefined;
}

/** History is constructHistory's answer: the current revision's hash and the old revisions, or its error. */
export type History = { hash: string; old: ControllerRevision[] } | { error: string };

/**
 * constructHistory: a revision missing the hash label gets its name as one; those whose data is the template's patch
 * (Match) are current, the rest old. With no current one, snapshot makes it, numbered maxRevision(old) + 1; with
 * several, dedupCurHistories keeps one; a current one numbered below maxRevision(old) + 1 (the template is back to
 * an earlier revision: a rollback) is renumbered.
 */
export function* constructHistory(ctx: EngineContext, client: ControllerClient, ds: DaemonSet): Steps<History> {
  const current: ControllerRevision[] = [];
  const old: ControllerRevision[] = [];
  const patch = statefulSetPatch(ds);
  for (let history of controlledRevisions(ctx.store, ds)) {
    // "We use history name instead of computing hash, so that we don't need to worry about hash collision".
    if (history.metadata?.labels?.[DAEMONSET_HASH_LABEL] === undefined) {
      const labelled = { ...history, metadata: { ...history.metadata, labels: { ...history.metadata?.labels, [DAEMONSET_HASH_LABEL]: history.metadata?.name ?? '' } } };
      const out = yield* client.update(labelled as KubeObject, dsRef(ds));
      if (!out.ok) return { error: out.error.message };
      history = (out.object ?? labelled) as ControllerRevision;
    }
    (revisionRaw(history) === patch ? current : old).push(history);
  }
  const next = maxRevision(old) + 1;
  if (current.length === 0) {
    const made = yield* snapshot(ctx, client, ds, next, old.length);
    return 'error' in made ? made : { hash: made.hash, old };
  }
  const deduped = yield* dedupCurHistories(ctx, client, ds, current);
  if ('error' in deduped) return deduped;
  const cur = deduped.keep;
  if ((cur.revision ?? 0) < next) {
    const name = cur.metadata?.name ?? '';
    const out = yield* client.update({ ...(cur as KubeObject), revision: next } as KubeObject, dsRef(ds));
    if (!out.ok) return { error: out.error.message };
    yield {
      phase: PHASE, object: dsRef(ds), field: 'spec.template', step: { kind: 'object', name },
      result: `the pod template is back to ControllerRevision ${name}: a rollback, so it becomes revision ${next} (was ${cur.revision})`,
      detail: { revision: name, from: cur.revision, to: next },
    };
  }
  return { hash: hashOf(cur), old };
}

/**
 * snapshot: a revision `<ds>-<hash>` with the template's labels plus controller-revision-hash, the DaemonSet's
 * annotations and the template's patch. An AlreadyExists of a revision with this very patch is the current one;
 * another is a hash collision, which bumps status.collisionCount and fails the sync.
 */
function* snapshot(ctx: EngineContext, client: ControllerClient, ds: DaemonSet, revision: number, olds: number): Steps<{ hash: string } | { error: string }> {
  const patch = statefulSetPatch(ds);
  const hash = daemonSetHash(ds);
  const name = `${ds.metadata?.name}-${hash}`;
  const annotations = ds.metadata?.annotations ?? {};
  const history: ControllerRevision = {
    apiVersion: 'apps/v1', kind: 'ControllerRevision',
    metadata: {
      name, namespace: ds.metadata?.namespace,
      labels: { ...(ds.spec?.template?.metadata?.labels ?? {}), [DAEMONSET_HASH_LABEL]: hash },
      ...(Object.keys(annotations).length ? { annotations: { ...annotations } } : {}),
      ownerReferences: [controllerRef(ds)],
    },
    data: JSON.parse(patch) as unknown,
    revision,
  };
  const out = yield* client.create(history, dsRef(ds));
  if (out.ok) {
    yield {
      phase: PHASE, object: dsRef(ds), field: 'spec.template', step: { kind: 'object', name },
      result: olds
        ? `the pod template matches none of the ${olds} earlier revision(s): created ControllerRevision ${name} (revision ${revision}); pods without controller-revision-hash ${hash} are now out of date`
        : `created ControllerRevision ${name} (revision ${revision}): the template's history, named for its hash (controller-revision-hash ${hash})`,
      detail: { revision: name, hash, number: revision },
    };
    return { hash };
  }
  if (out.error.status.reason === 'AlreadyExists') {
    const existing = ctx.store.get<ControllerRevision>('ControllerRevision', ds.metadata?.namespace, name);
    if (existing && revisionRaw(existing) === patch) return { hash: hashOf(existing) };
    const collisionCount = (typeof ds.status?.['collisionCount'] === 'number' ? ds.status['collisionCount'] : 0) + 1;
    ctx.store.update<DaemonSet>('DaemonSet', ds.metadata?.namespace, ds.metadata?.name ?? '', (o) => { o.status = { ...(o.status ?? {}), collisionCount }; });
    yield { phase: PHASE, object: dsRef(ds), field: 'status.collisionCount', result: `hash collision on ControllerRevision ${name}: collisionCount is now ${collisionCount}`, detail: { collisionCount } };
  }
  return { error: out.error.message };
}

/**
 * dedupCurHistories: of several current revisions the last with the largest number is kept; the DaemonSet's pods
 * labelled with another hash are relabelled with its hash first, then the others are deleted.
 */
function* dedupCurHistories(ctx: EngineContext, client: ControllerClient, ds: DaemonSet, current: ControllerRevision[]): Steps<{ keep: ControllerRevision } | { error: string }> {
  if (current.length === 1) return { keep: current[0]! };
  let keep = current[0]!;
  for (const cur of current) if ((cur.revision ?? 0) >= (keep.revision ?? 0)) keep = cur;
  const hash = hashOf(keep);
  // getDaemonPods: the pods it controls (adoption is claimObjects' work in the sync; here the owned ones).
  for (const pod of ctx.store.byIndex<Pod>('controller', ds.metadata?.uid ?? '', 'Pod')) {
    if (pod.metadata?.labels?.[DAEMONSET_HASH_LABEL] === hash) continue;
    const out = yield* client.patch(asObject(pod), { metadata: { labels: { [DAEMONSET_HASH_LABEL]: hash } } }, dsRef(ds));
    if (!out.ok) return { error: out.error.message };
  }
  for (const cur of current) {
    if (cur.metadata?.name === keep.metadata?.name) continue;
    const out = yield* client.delete(cur, {}, dsRef(ds));
    if (!out.ok) return { error: out.error.message };
    yield { phase: PHASE, object: dsRef(ds), field: 'spec.template', step: { kind: 'object', name: cur.metadata?.name ?? '' }, result: `deleted ControllerRevision ${cur.metadata?.name}: a duplicate of ${keep.metadata?.name}`, detail: { revision: cur.metadata?.name, kept: keep.metadata?.name } };
  }
  return { keep };
}

/**
 * cleanupHistory: with more old revisions than revisionHistoryLimit (defaulted to 10), those no pod of the DaemonSet
 * is labelled with (deleted terminal pods included) are deleted from the lowest revision up until the limit is met.
 * A failed delete stops it: the sync's error "failed to clean up revisions of DaemonSet: ...".
 */
export function* cleanupHistory(ctx: EngineContext, client: ControllerClient, ds: DaemonSet, old: readonly ControllerRevision[], pods: readonly Pod[]): Steps<string | undefined> {
  const limit = ds.spec?.revisionHistoryLimit ?? 10;
  let toKill = old.length - limit;
  if (toKill <= 0) return undefined;
  const live = new Set(pods.map((p) => p.metadata?.labels?.[DAEMONSET_HASH_LABEL] ?? '').filter((h) => h.length > 0));
  for (const history of [...old].sort((a, b) => (a.revision ?? 0) - (b.revision ?? 0))) {
    if (toKill <= 0) break;
    if (live.has(history.metadata?.labels?.[DAEMONSET_HASH_LABEL] ?? '')) continue;
    const name = history.metadata?.name ?? '';
    const out = yield* client.delete(history, {}, dsRef(ds));
    if (!out.ok) return `failed to clean up revisions of DaemonSet: ${out.error.message}`;
    yield {
      phase: PHASE, object: dsRef(ds), field: 'spec.revisionHistoryLimit', step: { kind: 'object', name },
      result: `deleted ControllerRevision ${name} (revision ${history.revision}): no pod is at it, and only revisionHistoryLimit ${limit} old revisions are kept`,
      detail: { revision: name, revisionHistoryLimit: limit },
    };
    toKill--;
  }
  return undefined;
}
