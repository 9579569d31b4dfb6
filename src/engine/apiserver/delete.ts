// The delete handler: graceful deletion for pods, finalizers, and immediate removal otherwise.
// See staging/src/k8s.io/apiserver/pkg/registry/rest/delete.go (BeforeDelete) and pkg/registry/core/pod/strategy.go.
import type { KubeObject, Pod } from '../api/types';
import { gcFinalizers } from '../controllers/garbage-collector';
import type { EngineContext } from '../context';
import type { Steps } from '../runtime/step';
import { type ApiRequest, notFound } from './request';
import type { ApiOutcome } from './server';

/** DeleteOptions are the options of a delete request (metav1.DeleteOptions) as kubectl sends them. */
export interface DeleteOptions {
  gracePeriodSeconds?: number;
  propagationPolicy?: 'Background' | 'Foreground' | 'Orphan';
}

/** DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS is a pod's grace period when its spec gives none (v1.DefaultTerminationGracePeriodSeconds). */
export const DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS = 30;

/**
 * podGracePeriod is the grace period a pod delete gets, as the pod strategy's CheckGracefulDelete
 * decides: the request's, else the spec's; 0 for a pod never scheduled or already terminal.
 */
export function podGracePeriod(pod: Pod, requested: number | undefined): number {
  let period = requested ?? pod.spec?.terminationGracePeriodSeconds ?? DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS;
  if (!pod.spec?.nodeName) period = 0;
  if (pod.status?.phase === 'Failed' || pod.status?.phase === 'Succeeded') period = 0;
  return period;
}

/** deleteObject serves a delete request whose user is authenticated and authorized. */
export function* deleteObject(ctx: EngineContext, req: ApiRequest, ref: string, options: DeleteOptions): Steps<ApiOutcome> {
  const current = ctx.store.get(req.kind, req.namespace, req.name ?? '');
  if (!current) {
    const error = notFound(req.resource, req.group, req.name ?? '');
    yield { phase: 'apiserver.delete', object: ref, result: error.message, detail: { status: error.status }, outcome: 'rejected' };
    return { ok: false, error, phase: 'apiserver.delete' };
  }
  if (req.kind === 'Pod') {
    const pod = current as Pod;
    const grace = podGracePeriod(pod, options.gracePeriodSeconds);
    const existing = pod.metadata?.deletionGracePeriodSeconds;
    // A second delete may only shorten the grace period. See rest/delete.go (BeforeDelete).
    if (pod.metadata?.deletionTimestamp && existing !== undefined && grace >= existing) {
      yield { phase: 'apiserver.delete', object: ref, field: 'metadata.deletionTimestamp', result: `already terminating with a grace period of ${existing}s`, detail: { gracePeriodSeconds: existing } };
      return { ok: true, code: 200, object: current };
    }
    if (grace > 0) {
      const updated = ctx.store.update<Pod & KubeObject>('Pod', req.namespace, req.name ?? '', (p) => {
        p.metadata = { ...p.metadata, deletionTimestamp: ctx.clock.timestamp(ctx.clock.now + grace * 1000), deletionGracePeriodSeconds: grace };
      })!;
      yield {
        phase: 'apiserver.delete', object: ref, field: 'spec.terminationGracePeriodSeconds',
        result: `graceful deletion: deletionTimestamp ${updated.metadata?.deletionTimestamp}, grace period ${grace}s`,
        detail: { deletionTimestamp: updated.metadata?.deletionTimestamp, deletionGracePeriodSeconds: grace, requested: options.gracePeriodSeconds ?? null },
      };
      return { ok: true, code: 200, object: updated };
    }
  }
  // The registry adds the orphan or foregroundDeletion finalizer the propagation policy asks for (deletionFinalizersForGarbageCollection).
  const withGc = gcFinalizers(current, options.propagationPolicy);
  if (withGc) ctx.store.update(req.kind, req.namespace, req.name ?? '', (o) => { o.metadata = { ...o.metadata, finalizers: withGc }; });
  return yield* finalizeDelete(ctx, req.kind, req.namespace, req.name ?? '', ref, options.propagationPolicy ?? 'Background');
}

/**
 * finalizeDelete removes an object whose grace period is over, unless finalizers hold it: then it
 * only gets its deletionTimestamp and stays until they are removed. Phase apiserver.finalize.
 */
export function* finalizeDelete(ctx: EngineContext, kind: string, namespace: string | undefined, name: string, ref: string, propagation: string): Steps<ApiOutcome> {
  const current = ctx.store.get(kind, namespace, name);
  if (!current) return { ok: true, code: 200, gone: true };
  const finalizers = current.metadata?.finalizers ?? [];
  if (finalizers.length > 0) {
    const updated = ctx.store.update(kind, namespace, name, (o) => {
      o.metadata = { ...o.metadata, deletionTimestamp: o.metadata?.deletionTimestamp ?? ctx.clock.timestamp(), deletionGracePeriodSeconds: 0 };
    });
    yield {
      phase: 'apiserver.finalize', object: ref, field: 'metadata.finalizers',
      result: `kept: finalizers ${finalizers.join(', ')} must be removed before the object goes`, detail: { finalizers }, outcome: 'waiting',
    };
    return { ok: true, code: 200, ...(updated ? { object: updated } : {}) };
  }
  ctx.store.remove(kind, namespace, name);
  yield { phase: 'apiserver.finalize', object: ref, result: `removed ${kind} "${name}" from storage (propagation ${propagation})`, detail: { propagationPolicy: propagation } };
  return { ok: true, code: 200, object: current, gone: true };
}
