// The delete handler: graceful deletion for pods, finalizers, and immediate removal otherwise.
// See staging/src/k8s.io/apiserver/pkg/registry/rest/delete.go (BeforeDelete), pkg/registry/core/pod/strategy.go
// (CheckGracefulDelete) and staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go (Delete,
// updateForGracefulDeletionAndFinalizers, markAsDeleting).
import type { KubeObject, Pod } from '../api/types';
import { FINALIZER_FOREGROUND, FINALIZER_ORPHAN, gcFinalizers, type PropagationPolicy } from './gc-finalizers';
import type { EngineContext } from '../context';
import type { Millis } from '../runtime/clock';
import type { Steps } from '../runtime/step';
import { type ApiRequest, notFound } from './request';
import type { ApiOutcome } from './server';

/** DeleteOptions are the options of a delete request (metav1.DeleteOptions) as kubectl sends them. */
export interface DeleteOptions {
  gracePeriodSeconds?: number;
  propagationPolicy?: 'Background' | 'Foreground' | 'Orphan';
  /** preconditionUid is preconditions.uid: the delete fails with a Conflict when the stored object has another uid. */
  preconditionUid?: string;
}

/** DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS is a pod's grace period when its spec gives none (v1.DefaultTerminationGracePeriodSeconds). */
export const DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS = 30;

/**
 * HELD_FINALIZER stands for the finalizer of a controller outside the simulated cluster that never lets go of
 * an object the Behavior lists under `finalizers`; it is written on the object when its deletion begins.
 */
export const HELD_FINALIZER = 'podlifecycle.debug/held';

/**
 * podGracePeriod is the grace period a first delete of a pod gets. BeforeDelete turns a negative request into 1;
 * CheckGracefulDelete takes the request, else the spec's terminationGracePeriodSeconds, and 0 for a pod never
 * scheduled or already terminal.
 */
export function podGracePeriod(pod: Pod, requested: number | undefined): number {
  // rest/delete.go BeforeDelete: "Negative values will be treated as the value `1s` on the delete path."
  const asked = requested !== undefined && requested < 0 ? 1 : requested;
  // pod/strategy.go CheckGracefulDelete.
  let period = asked ?? pod.spec?.terminationGracePeriodSeconds ?? 0;
  if (!pod.spec?.nodeName) period = 0;
  if (pod.status?.phase === 'Failed' || pod.status?.phase === 'Succeeded') period = 0;
  if (period < 0) period = 1;
  return period;
}

/** DeletePlan is what BeforeDelete decided for one delete request. */
export interface DeletePlan {
  /** action: mark (graceful: write deletionTimestamp and the grace period), pending (already deleting, a longer or no grace asked), now (no graceful deletion). */
  action: 'mark' | 'pending' | 'now';
  gracePeriodSeconds: number;
  /** deletionTimestamp (virtual ms) written by a mark. */
  deletionAt?: Millis;
  /** shortened is set when a later delete shortened a pending grace period. */
  shortened?: boolean;
  /**
   * clampedFrom is set when the shortened deletionTimestamp would have lain in the past: it is now instead, and a
   * graceful request's period became 1. It holds the period asked for.
   */
  clampedFrom?: number;
  /** alreadyZero is set for a pod already being deleted with a grace period of 0 (or none): it goes at once. */
  alreadyZero?: boolean;
}

/**
 * planDelete runs BeforeDelete for a pod (the only graceful kind here). A pod already being deleted may only get a
 * shorter grace period: its deletionTimestamp moves back by the difference, but never into the past: then it is now,
 * and a period other than 0 becomes 1. See staging/src/k8s.io/apiserver/pkg/registry/rest/delete.go (BeforeDelete)
 * at kubernetes v1.36.0 (k8s.io/apiserver v0.36.0): "Prevent shortening the grace period moving deletionTimestamp
 * into the past".
 */
export function planDelete(ctx: EngineContext, obj: KubeObject, requested: number | undefined): DeletePlan {
  if (obj.kind !== 'Pod') return { action: 'now', gracePeriodSeconds: 0 };
  const meta = obj.metadata ?? {};
  const asked = requested !== undefined && requested < 0 ? 1 : requested;
  if (meta.deletionTimestamp) {
    const existing = meta.deletionGracePeriodSeconds;
    // "the object was gracefully deleted previously but deletionGracePeriodSeconds was not set, so we force deletion immediately"
    if (existing === undefined || existing === null || existing === 0) return { action: 'now', gracePeriodSeconds: 0, alreadyZero: true };
    if (asked === undefined || asked >= existing) return { action: 'pending', gracePeriodSeconds: existing };
    // "Move the existing deletionTimestamp back by existing object.DeletionGracePeriod, then forward by
    // options.DeletionGracePeriod."
    const at = Date.parse(meta.deletionTimestamp) - ctx.clock.epoch.getTime() - existing * 1000 + asked * 1000;
    // delete.go (v1.36.0): if newDeletionTimestamp.Before(&now) { newDeletionTimestamp = now; if period != 0 { period = 1 } }.
    // The stored timestamp has whole seconds and now does not: the comparison is at the clock's precision.
    if (at < ctx.clock.now) {
      return { action: 'mark', gracePeriodSeconds: asked === 0 ? 0 : 1, deletionAt: ctx.clock.now, shortened: true, clampedFrom: asked };
    }
    return { action: 'mark', gracePeriodSeconds: asked, deletionAt: at, shortened: true };
  }
  const grace = podGracePeriod(obj as Pod, asked);
  return { action: 'mark', gracePeriodSeconds: grace, deletionAt: ctx.clock.now + grace * 1000 };
}

/** shortenedNote says how a later delete shortened a pending grace period, for the trace. */
function shortenedNote(plan: DeletePlan): string {
  if (!plan.shortened) return '';
  if (plan.clampedFrom === undefined) return ' (shortened)';
  const why = `${plan.clampedFrom}s after the pending deletion was asked for is already past: deletionTimestamp is now`;
  return plan.clampedFrom === 0 ? ` (shortened; ${why})` : ` (shortened; ${why} and the grace period 1s, the least that is still graceful)`;
}

/** heldByBehavior tells whether the Behavior says an outside controller keeps a finalizer on this object. */
function heldByBehavior(ctx: EngineContext, obj: KubeObject): boolean {
  const ns = obj.metadata?.namespace;
  const ref = ns ? `${obj.kind}/${ns}/${obj.metadata?.name}` : `${obj.kind}/${obj.metadata?.name}`;
  return ctx.behavior.finalizers.includes(ref) || (ns !== undefined && ctx.behavior.finalizers.includes(`${obj.kind}/${obj.metadata?.name}`));
}

/** deleteObject serves a delete request whose user is authenticated and authorized (phase apiserver.delete). */
export function* deleteObject(ctx: EngineContext, req: ApiRequest, ref: string, options: DeleteOptions): Steps<ApiOutcome> {
  const current = ctx.store.get(req.kind, req.namespace, req.name ?? '');
  if (!current) {
    const error = notFound(req.resource, req.group, req.name ?? '');
    yield { phase: 'apiserver.delete', object: ref, result: error.message, detail: { status: error.status }, outcome: 'rejected' };
    return { ok: false, error, phase: 'apiserver.delete' };
  }
  return yield* applyDelete(ctx, current, ref, options, 'apiserver.delete');
}

/**
 * deletePodAsKubelet is the status manager's delete of a pod whose containers stopped and whose volumes are gone:
 * grace period 0 with the pod's uid as precondition (phase apiserver.finalize). See
 * pkg/kubelet/status/status_manager.go (syncPod, canBeDeleted).
 */
export function* deletePodAsKubelet(ctx: EngineContext, pod: Pod, ref: string): Steps<ApiOutcome> {
  const meta = pod.metadata ?? {};
  const current = ctx.store.get('Pod', meta.namespace, meta.name ?? '');
  if (!current || current.metadata?.uid !== meta.uid) {
    yield { phase: 'apiserver.finalize', object: ref, result: 'the pod is already gone from the API server: nothing left to delete', detail: {} };
    return { ok: true, code: 200, gone: true };
  }
  return yield* applyDelete(ctx, current, ref, { gracePeriodSeconds: 0, preconditionUid: meta.uid ?? '' }, 'apiserver.finalize');
}

/**
 * applyDelete is store.Delete after BeforeDelete: a graceful mark is written; with a grace period left the object
 * stays; at 0 it is removed, unless finalizers hold it (then it keeps deletionTimestamp and a grace period of 0).
 */
function* applyDelete(ctx: EngineContext, current: KubeObject, ref: string, options: DeleteOptions, phase: 'apiserver.delete' | 'apiserver.finalize'): Steps<ApiOutcome> {
  const kind = String(current.kind);
  const ns = current.metadata?.namespace;
  const name = current.metadata?.name ?? '';
  const policy = options.propagationPolicy ?? (phase === 'apiserver.delete' ? defaultGarbageCollectionPolicy(current) : undefined);
  const propagation = policy ?? 'Background';
  const plan = planDelete(ctx, current, options.gracePeriodSeconds);
  const requested = options.gracePeriodSeconds ?? null;
  if (plan.action === 'pending') {
    // store.go: errAlreadyDeleting, the object is returned unchanged.
    yield {
      phase, object: ref, field: 'metadata.deletionTimestamp',
      result: `already terminating (deletionTimestamp ${current.metadata?.deletionTimestamp}, grace period ${plan.gracePeriodSeconds}s): a delete may only shorten it`,
      detail: { deletionGracePeriodSeconds: plan.gracePeriodSeconds, requested },
    };
    return { ok: true, code: 200, object: current };
  }
  const held = heldByBehavior(ctx, current) && (current.metadata?.finalizers ?? []).length === 0;
  let obj = current;
  if (plan.action === 'mark' || held) {
    obj = ctx.store.update<KubeObject>(kind, ns, name, (o) => {
      o.metadata = {
        ...o.metadata,
        ...(plan.action === 'mark' ? { deletionTimestamp: ctx.clock.timestamp(plan.deletionAt), deletionGracePeriodSeconds: plan.gracePeriodSeconds } : {}),
        ...(held ? { finalizers: [HELD_FINALIZER] } : {}),
      };
    }) ?? current;
  }
  if (plan.action === 'mark' && plan.gracePeriodSeconds > 0) {
    yield {
      phase, object: ref, field: requested === null ? 'spec.terminationGracePeriodSeconds' : undefined,
      result: `graceful deletion: deletionTimestamp ${obj.metadata?.deletionTimestamp}, grace period ${plan.gracePeriodSeconds}s${shortenedNote(plan)}${held ? `; an outside controller (Behavior finalizers) holds finalizer ${HELD_FINALIZER}` : ''}`,
      detail: { deletionTimestamp: obj.metadata?.deletionTimestamp, deletionGracePeriodSeconds: plan.gracePeriodSeconds, requested, ...(held ? { finalizers: [HELD_FINALIZER] } : {}) },
    };
    return { ok: true, code: 200, object: obj };
  }
  if (phase === 'apiserver.delete') {
    yield {
      phase, object: ref, field: plan.action === 'mark' ? 'metadata.deletionTimestamp' : undefined,
      result: plan.action === 'mark' ? `deletion with a grace period of 0${shortenedNote(plan)}: deletionTimestamp ${obj.metadata?.deletionTimestamp}, removed at once unless finalizers hold it`
        : plan.alreadyZero ? `already being deleted with a grace period of 0: removed at once unless finalizers hold it` : `${kind} has no graceful deletion: removed at once unless finalizers hold it`,
      detail: { deletionGracePeriodSeconds: 0, requested, ...(plan.action === 'mark' ? { deletionTimestamp: obj.metadata?.deletionTimestamp } : {}) },
    };
  }
  // The registry adds the orphan or foregroundDeletion finalizer the propagation policy asks for.
  // See staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go (deletionFinalizersForGarbageCollection).
  const withGc = gcFinalizers(obj, policy);
  if (withGc) obj = ctx.store.update<KubeObject>(kind, ns, name, (o) => { o.metadata = { ...o.metadata, finalizers: withGc }; }) ?? obj;
  return yield* removeUnlessFinalized(ctx, obj, ref, propagation);
}

/**
 * defaultGarbageCollectionPolicy is the policy a delete with neither propagationPolicy nor orphanDependents gets when
 * the object carries no GC finalizer already: a v1 ReplicationController orphans its pods "for back compatibility"
 * (rcStrategy.DefaultGarbageCollectionPolicy, pkg/registry/core/replicationcontroller/strategy.go, v1.36.3); the other
 * kinds delete dependents in the background, which needs no finalizer. kubectl always sends a policy.
 */
function defaultGarbageCollectionPolicy(obj: KubeObject): PropagationPolicy | undefined {
  const finalizers = obj.metadata?.finalizers ?? [];
  if (finalizers.includes(FINALIZER_ORPHAN) || finalizers.includes(FINALIZER_FOREGROUND)) return undefined;
  return obj.kind === 'ReplicationController' ? 'Orphan' : undefined;
}

/**
 * removeUnlessFinalized removes the object from storage, unless finalizers hold it: then it keeps (or gets)
 * its deletionTimestamp with deletionGracePeriodSeconds 0 and stays until they are removed (phase apiserver.finalize).
 * See store.go (markAsDeleting, "If there are pending finalizers, we never delete the object immediately").
 */
function* removeUnlessFinalized(ctx: EngineContext, current: KubeObject, ref: string, propagation: string): Steps<ApiOutcome> {
  const kind = String(current.kind);
  const ns = current.metadata?.namespace;
  const name = current.metadata?.name ?? '';
  const finalizers = current.metadata?.finalizers ?? [];
  if (finalizers.length > 0) {
    // markAsDeleting: deletionTimestamp becomes now when there is none or it lies further in the future.
    const now = ctx.clock.timestamp();
    const updated = ctx.store.update(kind, ns, name, (o) => {
      const existing = o.metadata?.deletionTimestamp;
      o.metadata = { ...o.metadata, deletionTimestamp: existing && Date.parse(existing) <= Date.parse(now) ? existing : now, deletionGracePeriodSeconds: 0 };
    }) ?? current;
    const held = finalizers.includes(HELD_FINALIZER);
    yield {
      phase: 'apiserver.finalize', object: ref, field: held ? undefined : 'metadata.finalizers',
      result: `kept: finalizers [${finalizers.join(' ')}] must be removed before the object goes; it stays with deletionTimestamp ${updated.metadata?.deletionTimestamp} and deletionGracePeriodSeconds 0${held ? ' (the Behavior holds this object\'s finalizer)' : ''}`,
      detail: { finalizers, deletionTimestamp: updated.metadata?.deletionTimestamp, deletionGracePeriodSeconds: 0 }, outcome: 'waiting',
    };
    return { ok: true, code: 200, object: updated };
  }
  ctx.store.remove(kind, ns, name);
  yield { phase: 'apiserver.finalize', object: ref, result: `removed ${kind} "${name}" from storage (propagation ${propagation})`, detail: { propagationPolicy: propagation } };
  return { ok: true, code: 200, object: current, gone: true };
}

/** finalizeDelete removes an object now (grace period 0), unless finalizers hold it. Phase apiserver.finalize. */
export function* finalizeDelete(ctx: EngineContext, kind: string, namespace: string | undefined, name: string, ref: string, propagation: string): Steps<ApiOutcome> {
  const current = ctx.store.get(kind, namespace, name);
  if (!current) return { ok: true, code: 200, gone: true };
  return yield* applyDelete(ctx, current, ref, { gracePeriodSeconds: 0, propagationPolicy: propagation as DeleteOptions['propagationPolicy'] }, 'apiserver.finalize');
}
