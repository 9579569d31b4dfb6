// The pod worker's retry after a failed sync: the next SyncPod comes 10 to 15 s later.
// See pkg/kubelet/pod_workers.go (completeWork: wait.Jitter(backOffPeriod, workerBackOffPeriodJitterFactor)) and
// pkg/kubelet/kubelet.go (backOffPeriod).
import type { EngineContext } from '../context';

/** POD_WORKER_BACKOFF_MS is the kubelet's backOffPeriod: a pod whose sync failed is synced again after it. */
export const POD_WORKER_BACKOFF_MS = 10_000;
/** POD_WORKER_BACKOFF_JITTER is workerBackOffPeriodJitterFactor: the delay grows by up to half of itself. */
export const POD_WORKER_BACKOFF_JITTER = 0.5;

/** syncRetryDelay is wait.Jitter(backOffPeriod, 0.5): 10 s plus a random share of up to 5 s, from the seeded source. */
export function syncRetryDelay(ctx: EngineContext): number {
  const fraction = ctx.rng.nextUint32() / 0x1_0000_0000;
  return Math.round(POD_WORKER_BACKOFF_MS + fraction * POD_WORKER_BACKOFF_JITTER * POD_WORKER_BACKOFF_MS);
}
