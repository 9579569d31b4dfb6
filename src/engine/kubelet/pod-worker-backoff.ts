// The pod worker's retry after a failed sync: 10 to 15 s later, or when the container's CrashLoopBackOff runs out.
// See pkg/kubelet/pod_workers.go (completeWork: wait.Jitter(backoff, workerBackOffPeriodJitterFactor), with
// kubecontainer.MinBackoffExpiration since #133066) and pkg/kubelet/kubelet.go (backOffPeriod, resyncInterval).
import type { EngineContext } from '../context';

/** POD_WORKER_BACKOFF_MS is the kubelet's backOffPeriod: a pod whose sync failed is synced again after it. */
export const POD_WORKER_BACKOFF_MS = 10_000;
/** POD_WORKER_BACKOFF_JITTER is workerBackOffPeriodJitterFactor: the delay grows by up to half of itself. */
export const POD_WORKER_BACKOFF_JITTER = 0.5;

/** POD_WORKER_RESYNC_MS is the kubelet's resyncInterval (--sync-frequency, 1 min): the longest a requeue waits. */
export const POD_WORKER_RESYNC_MS = 60_000;

/** jitter is wait.Jitter(duration, maxFactor): the duration plus a random share of up to maxFactor of it, from the seeded source. */
export function jitter(ctx: EngineContext, durationMs: number, maxFactor = POD_WORKER_BACKOFF_JITTER): number {
  return Math.round(durationMs + ctx.rng.float64() * maxFactor * durationMs);
}

/** syncRetryDelay is wait.Jitter(backOffPeriod, 0.5): 10 s plus a random share of up to 5 s. */
export function syncRetryDelay(ctx: EngineContext): number {
  return jitter(ctx, POD_WORKER_BACKOFF_MS);
}

/**
 * failedSyncDelay is when completeWork requeues a pod whose sync failed (Kubernetes 1.35 and later, #133066): when
 * the error carries a CrashLoopBackOff expiration, the time left until the earliest one, kept within 0 and the
 * resync interval; otherwise the back-off period. Either way jittered by half: wait.Jitter(backoff, 0.5).
 */
export function failedSyncDelay(ctx: EngineContext, crashBackoffExpirations: readonly number[]): number {
  if (crashBackoffExpirations.length === 0) return syncRetryDelay(ctx);
  const left = Math.min(...crashBackoffExpirations) - ctx.clock.now;
  return jitter(ctx, Math.min(Math.max(left, 0), POD_WORKER_RESYNC_MS));
}
