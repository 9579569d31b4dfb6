// The Deployment controller: the ReplicaSet of the current template, scaling (proportional mid-rollout), the
// RollingUpdate and Recreate rollouts, and the Deployment's status, revision and conditions.
// See pkg/controller/deployment/{deployment_controller.go,sync.go,rolling.go,recreate.go,progress.go}.
import { computePodTemplateHash, POD_TEMPLATE_HASH_LABEL, replicaSetName } from '../api/naming';
import { deepClone, type Deployment, type KubeObject, type Pod, type ReplicaSet } from '../api/types';
import type { ApiServer } from '../apiserver/server';
import type { EngineContext } from '../context';
import type { Steps } from '../runtime/step';
import { ControllerClient } from './client';
import {
  activeSets, byCreation, deploymentComplete, type DeploymentStatus, DESIRED_REPLICAS_ANNOTATION,
  FOUND_NEW_RS_REASON, maxSurge, maxUnavailable, NEW_RS_REASON, newCondition, newRSNewReplicas, replicaSetProportion,
  replicasOf, revisionOf, REVISION_ANNOTATION, setCondition, setNewReplicaSetAnnotations, setReplicasAnnotations,
  sumSpec, templateEqualIgnoreHash,
} from './deployment-util';
import { claimObjects } from './controller-ref';
import { PAUSED_NO_ROLLOUT, pausedConditions } from './deployment-pause';
import { controllerRef } from './owner';
import { asObject, isPodTerminal } from './pods';
import { syncRolloutStatus, syncStatusOnly } from './deployment-progress';
import { fresh, remember, writeStatus, type Rollout } from './deployment-rollout';

/** DEPLOYMENT_CONTROLLER is the source of its events and the service account it acts as. */
export const DEPLOYMENT_CONTROLLER = 'deployment-controller';

/** syncDeployment is syncDeployment: status only while deleted; a scaling event; else the strategy's rollout. */
export function* syncDeployment(ctx: EngineContext, api: ApiServer, namespace: string, name: string): Steps<number | void> {
  const d = ctx.store.get<Deployment>('Deployment', namespace, name);
  if (!d) return;
  const r: Rollout = { ctx, client: new ControllerClient(api, DEPLOYMENT_CONTROLLER, 'controllers.deployment'), d, ref: `Deployment/${namespace}/${name}`, sets: [] };
  // getReplicaSetsForDeployment: every ReplicaSet of the namespace through ClaimReplicaSets (adopt, release).
  const claim = { ctx, client: r.client, controller: asObject(d), selector: d.spec?.selector, phase: 'controllers.deployment' as const, ref: r.ref };
  r.sets = (yield* claimObjects(claim, ctx.store.list<ReplicaSet>('ReplicaSet', namespace).map(asObject))) as unknown as ReplicaSet[];
  if (d.metadata?.deletionTimestamp) {
    const { newRS, oldRSs } = yield* getAllReplicaSets(r, false);
    yield* syncStatusOnly(r, newRS, oldRSs);
    return;
  }
  const paused = pausedConditions(r.d, ctx.clock.timestamp());
  if (paused) yield* writeStatus(r, { ...((r.d.status ?? {}) as DeploymentStatus), conditions: paused });
  if (r.d.spec?.paused || (yield* isScalingEvent(r))) {
    // sync.go sync: a paused Deployment, or a scaling event; no new ReplicaSet is made.
    const { newRS, oldRSs } = yield* getAllReplicaSets(r, false);
    // The trace says so once per spec change: on the sync that has not yet observed this generation.
    if (r.d.spec?.paused && !newRS && (((r.d.status ?? {}) as DeploymentStatus).observedGeneration ?? 0) < (r.d.metadata?.generation ?? 1)) yield { phase: 'controllers.deployment', object: r.ref, field: 'spec.paused', result: PAUSED_NO_ROLLOUT, detail: { paused: true } };
    yield* scale(r, newRS, oldRSs);
    if (r.d.spec?.paused) yield* cleanupDeployment(r, oldRSs);
    yield* syncStatusOnly(r, r.sets.find((s) => s.metadata?.uid === newRS?.metadata?.uid), oldRSs.map((o) => fresh(r, o)));
    return;
  }
  if (d.spec?.strategy?.type === 'Recreate') yield* rolloutRecreate(r);
  else yield* rolloutRolling(r);
  return r.requeueAfter;
}

/** getAllReplicaSets is getAllReplicaSetsAndSyncRevision: the new ReplicaSet (made when asked) and the old ones. */
function* getAllReplicaSets(r: Rollout, createIfNotExisted: boolean): Steps<{ newRS: ReplicaSet | undefined; oldRSs: ReplicaSet[] }> {
  const sorted = [...r.sets].sort(byCreation);
  const existing = sorted.find((rs) => templateEqualIgnoreHash(rs.spec?.template, r.d.spec?.template));
  const oldRSs = sorted.filter((rs) => rs !== existing);
  const newRevision = Math.max(0, ...oldRSs.map(revisionOf)) + 1;
  if (existing) return { newRS: yield* syncExistingNewReplicaSet(r, existing, newRevision), oldRSs };
  if (!createIfNotExisted) return { newRS: undefined, oldRSs };
  return { newRS: yield* createNewReplicaSet(r, oldRSs, newRevision), oldRSs };
}

/** syncExistingNewReplicaSet is getNewReplicaSet's first half: the found ReplicaSet's annotations and minReadySeconds, the Deployment's revision. */
function* syncExistingNewReplicaSet(r: Rollout, existing: ReplicaSet, newRevision: number): Steps<ReplicaSet> {
  const annotations = { ...(existing.metadata?.annotations ?? {}) };
  const annotationsUpdated = setNewReplicaSetAnnotations(r.d, annotations, newRevision, true);
  const minReady = r.d.spec?.minReadySeconds ?? 0;
  if (annotationsUpdated || (existing.spec?.minReadySeconds ?? 0) !== minReady) {
    const copy = deepClone(existing) as ReplicaSet & KubeObject;
    copy.metadata = { ...copy.metadata, annotations };
    copy.spec = { ...copy.spec!, minReadySeconds: minReady };
    // minReadySeconds is `omitempty`: a zero is not written (apps/v1 ReplicaSetSpec).
    if (!minReady) delete copy.spec.minReadySeconds;
    const out = yield* r.client.update(copy, r.ref);
    // The Deployment's revision follows on the next sync, as in getNewReplicaSet, which returns right after this update.
    return out.ok && out.object ? remember(r, out.object as unknown as ReplicaSet) : existing;
  }
  const dAnnotations = { ...(r.d.metadata?.annotations ?? {}) };
  let needsUpdate = false;
  const revision = existing.metadata?.annotations?.[REVISION_ANNOTATION];
  if (revision !== undefined && dAnnotations[REVISION_ANNOTATION] !== revision) {
    dAnnotations[REVISION_ANNOTATION] = revision;
    needsUpdate = true;
  }
  let conditions = [...(((r.d.status ?? {}) as DeploymentStatus).conditions ?? [])];
  if (!conditions.some((c) => c.type === 'Progressing')) {
    conditions = setCondition(conditions, newCondition('Progressing', 'True', FOUND_NEW_RS_REASON, `Found new replica set "${existing.metadata?.name}"`, r.ctx.clock.timestamp()));
    needsUpdate = true;
  }
  if (needsUpdate) yield* writeStatus(r, { ...(r.d.status as DeploymentStatus), conditions }, dAnnotations);
  return existing;
}

/**
 * createNewReplicaSet is getNewReplicaSet's second half: `<deployment>-<pod-template-hash>` with the template's
 * labels plus the hash, replicas by NewRSNewReplicas, then the event "Scaled up replica set <rs> from 0 to <n>"
 * and the condition Progressing NewReplicaSetCreated `Created new replica set "<rs>"`.
 */
function* createNewReplicaSet(r: Rollout, oldRSs: ReplicaSet[], newRevision: number): Steps<ReplicaSet | undefined> {
  const d = r.d;
  const template = deepClone(d.spec?.template ?? {});
  const hash = computePodTemplateHash(template, ((d.status ?? {}) as DeploymentStatus).collisionCount);
  const labels = { ...(template.metadata?.labels ?? {}), [POD_TEMPLATE_HASH_LABEL]: hash };
  const name = replicaSetName(d.metadata?.name ?? '', hash);
  const draft: ReplicaSet = {
    apiVersion: 'apps/v1', kind: 'ReplicaSet',
    metadata: { name, namespace: d.metadata?.namespace, labels, ownerReferences: [controllerRef(asObject(d))] },
    spec: {
      replicas: 0, ...(d.spec?.minReadySeconds ? { minReadySeconds: d.spec.minReadySeconds } : {}),
      selector: { ...d.spec?.selector, matchLabels: { ...(d.spec?.selector?.matchLabels ?? {}), [POD_TEMPLATE_HASH_LABEL]: hash } },
      template: { ...template, metadata: { ...template.metadata, labels } },
    },
  };
  const replicas = newRSNewReplicas(d, [...oldRSs, draft], draft);
  const annotations: Record<string, string> = {};
  setNewReplicaSetAnnotations(d, annotations, newRevision, false);
  const rs = { ...draft, metadata: { ...draft.metadata, annotations }, spec: { ...draft.spec!, replicas } } as ReplicaSet;
  yield {
    phase: 'controllers.deployment', object: r.ref, field: 'spec.template',
    result: `no ReplicaSet has this template: creating ${name} (pod-template-hash ${hash}, revision ${newRevision}) with ${replicas} replica(s)`,
    detail: { replicaSet: name, podTemplateHash: hash, replicas, revision: newRevision, maxSurge: maxSurge(d), maxUnavailable: maxUnavailable(d) },
  };
  const out = yield* r.client.create(asObject(rs), r.ref);
  if (!out.ok && out.error.status.reason === 'AlreadyExists') {
    // sync.go getNewReplicaSet: a ReplicaSet of that name that is ours with this template is the new one; any other
    // is a hash collision: status.collisionCount grows, so the next sync computes another hash.
    const taken = r.ctx.store.get<ReplicaSet>('ReplicaSet', d.metadata?.namespace, name);
    const ours = (taken?.metadata?.ownerReferences ?? []).some((o) => o.controller && o.uid === d.metadata?.uid);
    if (taken && ours && templateEqualIgnoreHash(taken.spec?.template, d.spec?.template)) return remember(r, taken);
    const collisionCount = (((d.status ?? {}) as DeploymentStatus).collisionCount ?? 0) + 1;
    yield { phase: 'controllers.deployment', object: r.ref, field: 'spec.template', result: `hash collision: ReplicaSet ${name} exists with another template; status.collisionCount becomes ${collisionCount}`, detail: { collisionCount } };
    yield* writeStatus(r, { ...(d.status as DeploymentStatus), collisionCount });
    r.requeueAfter = 5;
    return undefined;
  }
  if (!out.ok) {
    // sync.go: the ReplicaSetCreateError event and the Progressing=False condition.
    const msg = `Failed to create new replica set "${name}": ${out.error.message}`;
    r.ctx.recorder.event({ type: 'Warning', reason: 'ReplicaSetCreateError', object: r.ref, source: DEPLOYMENT_CONTROLLER, message: msg });
    const conditions = setCondition([...(((d.status ?? {}) as DeploymentStatus).conditions ?? [])], newCondition('Progressing', 'False', 'ReplicaSetCreateError', msg, r.ctx.clock.timestamp()));
    yield* writeStatus(r, { ...(d.status as DeploymentStatus), conditions });
    yield { phase: 'controllers.deployment', object: r.ref, result: msg, detail: { status: out.error.status }, outcome: 'failed' };
    return undefined;
  }
  const created = remember(r, out.object as unknown as ReplicaSet);
  // sync.go (getNewReplicaSet): "Scaled up replica set %s from 0 to %d" (from->to since 1.32, kubernetes#125118).
  if (replicas > 0) r.ctx.recorder.event({ type: 'Normal', reason: 'ScalingReplicaSet', object: r.ref, source: DEPLOYMENT_CONTROLLER, message: `Scaled up replica set ${name} from 0 to ${replicas}` });
  const dAnnotations = { ...(d.metadata?.annotations ?? {}), [REVISION_ANNOTATION]: String(newRevision) };
  const conditions = setCondition([...(((d.status ?? {}) as DeploymentStatus).conditions ?? [])], newCondition('Progressing', 'True', NEW_RS_REASON, `Created new replica set "${name}"`, r.ctx.clock.timestamp()));
  yield* writeStatus(r, { ...(d.status as DeploymentStatus), conditions }, dAnnotations);
  return created;
}

/** isScalingEvent: an active ReplicaSet's desired-replicas annotation differs from spec.replicas. */
function* isScalingEvent(r: Rollout): Steps<boolean> {
  const { newRS, oldRSs } = yield* getAllReplicaSets(r, false);
  const all = activeSets([...oldRSs, ...(newRS ? [newRS] : [])].map((s) => fresh(r, s)));
  return all.some((rs) => {
    const desired = rs.metadata?.annotations?.[DESIRED_REPLICAS_ANNOTATION];
    return desired !== undefined && Number(desired) !== replicasOf(r.d);
  });
}

/**
 * scaleReplicaSet is scaleReplicaSet(AndRecordEvent): the new size and the replicas annotations in one update, and
 * the event "Scaled up|down replica set <rs> from <old> to <new>" when the size changed.
 */
function* scaleReplicaSet(r: Rollout, rs: ReplicaSet, newScale: number, why: string, operation?: 'up' | 'down'): Steps<boolean> {
  const current = fresh(r, rs);
  const oldScale = current.spec?.replicas ?? 0;
  const annotations = { ...(current.metadata?.annotations ?? {}) };
  const annotationsChanged = setReplicasAnnotations(annotations, replicasOf(r.d), replicasOf(r.d) + maxSurge(r.d));
  const sizeChanged = oldScale !== newScale;
  if (!sizeChanged && !annotationsChanged) return false;
  if (sizeChanged) {
    yield {
      phase: 'controllers.deployment', object: r.ref, field: 'spec.replicas', step: { kind: 'object', name: current.metadata?.name ?? '' },
      result: `scale ${current.metadata?.name} from ${oldScale} to ${newScale}: ${why}`, detail: { replicaSet: current.metadata?.name, from: oldScale, to: newScale },
    };
  }
  const copy = deepClone(current) as ReplicaSet & KubeObject;
  copy.metadata = { ...copy.metadata, annotations };
  copy.spec = { ...copy.spec!, replicas: newScale };
  const out = yield* r.client.update(copy, r.ref);
  if (!out.ok) return false;
  remember(r, out.object as unknown as ReplicaSet);
  if (sizeChanged) {
    const op = operation ?? (oldScale < newScale ? 'up' : 'down');
    // sync.go (scaleReplicaSet): "Scaled %s replica set %s from %d to %d" (before 1.32: "to %d from %d", kubernetes#125118).
    r.ctx.recorder.event({ type: 'Normal', reason: 'ScalingReplicaSet', object: r.ref, source: DEPLOYMENT_CONTROLLER, message: `Scaled ${op} replica set ${current.metadata?.name} from ${oldScale} to ${newScale}` });
  }
  return sizeChanged;
}

/** scale is sync.go's scale: the one active ReplicaSet takes the new size, or the change is spread proportionally. */
function* scale(r: Rollout, newRS: ReplicaSet | undefined, oldRSs: ReplicaSet[]): Steps<void> {
  const d = r.d;
  const desired = replicasOf(d);
  // FindActiveOrLatest: the only active ReplicaSet, else the newest when none is active.
  const newestFirst = [...oldRSs].sort((a, b) => byCreation(b, a));
  const active = activeSets([...newestFirst, ...(newRS ? [newRS] : [])].map((s) => fresh(r, s)));
  const activeOrLatest = active.length === 1 ? active[0] : active.length === 0 ? newRS ?? newestFirst[0] : undefined;
  if (activeOrLatest) {
    if ((fresh(r, activeOrLatest).spec?.replicas ?? 0) !== desired) yield* scaleReplicaSet(r, activeOrLatest, desired, `spec.replicas is ${desired}`);
    return;
  }
  // IsSaturated: the new ReplicaSet has every replica available; the old ones go to 0.
  const n = newRS ? fresh(r, newRS) : undefined;
  if (n && (n.spec?.replicas ?? 0) === desired && Number(n.metadata?.annotations?.[DESIRED_REPLICAS_ANNOTATION]) === desired && ((n.status as { availableReplicas?: number })?.availableReplicas ?? 0) === desired) {
    for (const old of activeSets(oldRSs.map((s) => fresh(r, s)))) yield* scaleReplicaSet(r, old, 0, 'the new ReplicaSet is saturated');
    return;
  }
  if ((d.spec?.strategy?.type ?? 'RollingUpdate') !== 'RollingUpdate') return;
  const allowed = desired > 0 ? desired + maxSurge(d) : 0;
  const toAdd = allowed - sumSpec(active);
  // ReplicaSetsBySizeNewer when adding, BySizeOlder when removing: larger first, then newer (or older) first.
  const sorted = [...active].sort((a, b) => (b.spec?.replicas ?? 0) - (a.spec?.replicas ?? 0) || (toAdd > 0 ? byCreation(b, a) : byCreation(a, b)));
  const operation = toAdd > 0 ? 'up' : 'down';
  let added = 0;
  const sizes = new Map<string, number>();
  for (const rs of sorted) {
    const size = rs.spec?.replicas ?? 0;
    if (toAdd === 0) { sizes.set(rs.metadata?.name ?? '', size); continue; }
    const proportion = replicaSetProportion(d, rs, toAdd, added);
    sizes.set(rs.metadata?.name ?? '', size + proportion);
    added += proportion;
  }
  for (const [i, rs] of sorted.entries()) {
    const key = rs.metadata?.name ?? '';
    if (i === 0 && toAdd !== 0) sizes.set(key, Math.max(0, (sizes.get(key) ?? 0) + toAdd - added));
    yield* scaleReplicaSet(r, rs, sizes.get(key) ?? 0, `proportional scaling to ${desired} replicas (max ${allowed})`, operation);
  }
}

/** rolloutRolling is rolling.go's rolloutRolling: scale the new ReplicaSet up within maxSurge, the old ones down within maxUnavailable. */
function* rolloutRolling(r: Rollout): Steps<void> {
  const { newRS, oldRSs } = yield* getAllReplicaSets(r, true);
  if (!newRS) return;
  const all = () => [...oldRSs.map((s) => fresh(r, s)), fresh(r, newRS)];
  const d = r.d;
  const n = fresh(r, newRS);
  const desired = replicasOf(d);
  // reconcileNewReplicaSet
  if ((n.spec?.replicas ?? 0) !== desired) {
    const target = (n.spec?.replicas ?? 0) > desired ? desired : newRSNewReplicas(d, all(), n);
    const why = `maxSurge ${maxSurge(d)}: at most ${desired + maxSurge(d)} pods in all (${sumSpec(all())} now)`;
    if (yield* scaleReplicaSet(r, n, target, why)) return yield* syncRolloutStatus(r, fresh(r, newRS), oldRSs);
  }
  // reconcileOldReplicaSets
  if (yield* reconcileOldReplicaSets(r, all(), activeSets(oldRSs.map((s) => fresh(r, s))), fresh(r, newRS))) return yield* syncRolloutStatus(r, fresh(r, newRS), oldRSs);
  if (deploymentComplete(r.d, (r.d.status ?? {}) as DeploymentStatus)) yield* cleanupDeployment(r, oldRSs);
  yield* syncRolloutStatus(r, fresh(r, newRS), oldRSs.filter((s) => r.sets.some((x) => x.metadata?.uid === s.metadata?.uid)));
}

function* reconcileOldReplicaSets(r: Rollout, all: ReplicaSet[], oldRSs: ReplicaSet[], newRS: ReplicaSet): Steps<boolean> {
  if (sumSpec(oldRSs) === 0) return false;
  const d = r.d;
  const minAvailable = replicasOf(d) - maxUnavailable(d);
  const newUnavailable = (newRS.spec?.replicas ?? 0) - ((newRS.status as { availableReplicas?: number })?.availableReplicas ?? 0);
  const maxScaledDown = sumSpec(all) - minAvailable - newUnavailable;
  if (maxScaledDown <= 0) return false;
  // cleanupUnhealthyReplicas: old ReplicaSets' unavailable replicas go first, oldest ReplicaSet first.
  let cleaned = 0;
  for (const rs of [...oldRSs].sort(byCreation)) {
    if (cleaned >= maxScaledDown) break;
    const size = rs.spec?.replicas ?? 0;
    const avail = (rs.status as { availableReplicas?: number })?.availableReplicas ?? 0;
    if (size === 0 || size === avail) continue;
    const down = Math.min(maxScaledDown - cleaned, size - avail);
    yield* scaleReplicaSet(r, rs, size - down, `${size - avail} of its replicas are unavailable`);
    cleaned += down;
  }
  // scaleDownOldReplicaSetsForRollingUpdate: keep at least minAvailable available pods.
  const available = all.map((s) => fresh(r, s)).reduce((x, rs) => x + ((rs.status as { availableReplicas?: number })?.availableReplicas ?? 0), 0);
  let scaled = 0;
  if (available > minAvailable) {
    const total = available - minAvailable;
    for (const rs of oldRSs.map((s) => fresh(r, s)).sort(byCreation)) {
      if (scaled >= total) break;
      const size = rs.spec?.replicas ?? 0;
      if (size === 0) continue;
      const down = Math.min(size, total - scaled);
      yield* scaleReplicaSet(r, rs, size - down, `maxUnavailable ${maxUnavailable(d)}: ${available} available, at least ${minAvailable} must stay`);
      scaled += down;
    }
  }
  return cleaned + scaled > 0;
}

/** rolloutRecreate is recreate.go's rolloutRecreate: every old pod goes, then the new ReplicaSet gets every replica. */
function* rolloutRecreate(r: Rollout): Steps<void> {
  let { newRS, oldRSs } = yield* getAllReplicaSets(r, false);
  let scaledDown = false;
  for (const rs of activeSets(oldRSs.map((s) => fresh(r, s)))) {
    if (yield* scaleReplicaSet(r, rs, 0, 'strategy Recreate: the old pods go first')) scaledDown = true;
  }
  if (scaledDown) return yield* syncRolloutStatus(r, newRS && fresh(r, newRS), oldRSs);
  // oldPodsRunning: an old ReplicaSet still counts pods, or one of its pods is not Succeeded or Failed.
  const oldUids = new Set(oldRSs.map((s) => s.metadata?.uid));
  const oldPods = r.ctx.store.list<Pod>('Pod', r.d.metadata?.namespace).filter((p) => (p.metadata?.ownerReferences ?? []).some((o) => o.controller && oldUids.has(o.uid)) && !isPodTerminal(p));
  const oldCounted = oldRSs.reduce((x, rs) => x + ((fresh(r, rs).status as { replicas?: number })?.replicas ?? 0), 0);
  if (oldCounted > 0 || oldPods.length > 0) {
    yield { phase: 'controllers.deployment', object: r.ref, field: 'spec.strategy.type', result: `strategy Recreate: waiting for ${oldPods.length} old pod(s) to be gone`, detail: { oldPods: oldPods.map((p) => p.metadata?.name) } };
    return yield* syncRolloutStatus(r, newRS && fresh(r, newRS), oldRSs);
  }
  if (!newRS) ({ newRS, oldRSs } = yield* getAllReplicaSets(r, true));
  if (newRS) yield* scaleReplicaSet(r, newRS, replicasOf(r.d), 'strategy Recreate: the old pods are gone');
  if (deploymentComplete(r.d, (r.d.status ?? {}) as DeploymentStatus)) yield* cleanupDeployment(r, oldRSs);
  yield* syncRolloutStatus(r, newRS && fresh(r, newRS), oldRSs.filter((s) => r.sets.some((x) => x.metadata?.uid === s.metadata?.uid)));
}

/**
 * cleanupDeployment keeps revisionHistoryLimit old ReplicaSets: the oldest revisions beyond it are deleted, if they
 * have no replicas and their controller has observed them. See sync.go (cleanupDeployment).
 */
function* cleanupDeployment(r: Rollout, oldRSs: ReplicaSet[]): Steps<void> {
  const limit = r.d.spec?.revisionHistoryLimit;
  if (limit === undefined || limit === null) return;
  const cleanable = oldRSs.map((s) => fresh(r, s)).filter((rs) => !rs.metadata?.deletionTimestamp).sort((a, b) => revisionOf(a) - revisionOf(b) || byCreation(a, b));
  const diff = cleanable.length - limit;
  for (const rs of cleanable.slice(0, Math.max(0, diff))) {
    const status = (rs.status ?? {}) as { replicas?: number; observedGeneration?: number };
    if ((status.replicas ?? 0) !== 0 || (rs.spec?.replicas ?? 0) !== 0 || (rs.metadata?.generation ?? 0) > (status.observedGeneration ?? 0)) continue;
    yield {
      phase: 'controllers.deployment', object: r.ref, field: 'spec.revisionHistoryLimit', step: { kind: 'object', name: rs.metadata?.name ?? '' },
      result: `revisionHistoryLimit ${limit}: deleting old ReplicaSet ${rs.metadata?.name} (revision ${revisionOf(rs)})`, detail: { replicaSet: rs.metadata?.name, revision: revisionOf(rs) },
    };
    const out = yield* r.client.delete(asObject(rs), {}, r.ref);
    if (out.ok) r.sets = r.sets.filter((x) => x.metadata?.uid !== rs.metadata?.uid);
  }
}
