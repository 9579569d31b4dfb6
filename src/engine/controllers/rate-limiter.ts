// The work queue's rate limiter of a controller whose sync failed: the key comes back after 5 ms, 10 ms, 20 ms...
// (at most 1000 s) until a sync of it succeeds, and never faster than the queue's bucket of 10 per second, 100 at
// once allows. See k8s.io/client-go v0.36.0 util/workqueue/default_rate_limiters.go (DefaultTypedControllerRateLimiter:
// MaxOf(ItemExponentialFailureRateLimiter(5ms, 1000s), BucketRateLimiter(10 qps, 100 burst))).
import type { Millis, VirtualClock } from '../runtime/clock';
import type { PhaseName } from '../runtime/phases';
import type { TraceInput } from '../runtime/recorder';
import type { Steps } from '../runtime/step';

/** BASE_DELAY_MS and MAX_DELAY_MS are the item exponential failure rate limiter's bounds. */
export const BASE_DELAY_MS = 5;
export const MAX_DELAY_MS = 1000 * 1000;
const BUCKET_QPS = 10;
const BUCKET_BURST = 100;

/** ControllerRateLimiter is DefaultTypedControllerRateLimiter for the keys of one work queue. */
export class ControllerRateLimiter {
  private readonly failures = new Map<string, number>();
  private tokens = BUCKET_BURST;
  private at: Millis | undefined;

  /** when is When: how long the key waits before its next sync, counting this failure. */
  when(key: string, now: Millis): Millis {
    const exp = this.failures.get(key) ?? 0;
    this.failures.set(key, exp + 1);
    const backoff = Math.min(BASE_DELAY_MS * 2 ** exp, MAX_DELAY_MS);
    return Math.max(backoff, this.reserve(now));
  }

  /** forget is Forget: a successful sync starts the key's back-off again. */
  forget(key: string): void {
    this.failures.delete(key);
  }

  /** reserve is rate.Limiter.Reserve().Delay(): a token now, or the wait until one is there. */
  private reserve(now: Millis): Millis {
    if (this.at !== undefined) this.tokens = Math.min(BUCKET_BURST, this.tokens + ((now - this.at) / 1000) * BUCKET_QPS);
    this.at = now;
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : (-this.tokens / BUCKET_QPS) * 1000;
  }
}

/** requeuedEntry is the step a failed sync records when its key goes back to the queue, rate-limited. */
export function requeuedEntry(phase: PhaseName, object: string, error: string, delay: Millis): TraceInput {
  return {
    phase, object,
    result: `sync failed (${error}): requeued rate-limited, the next sync in ${delay < 1000 ? `${delay}ms` : `${delay / 1000}s`}`,
    detail: { error, requeueAfterMs: delay },
  };
}

/** SyncOutcome is a keyed sync's answer: its error (requeued rate-limited) or a later resync it asks for. */
export interface SyncOutcome {
  error?: string;
  requeueAfterMs?: number;
}

/**
 * rateLimited runs a keyed sync as processNextWorkItem does: a success is Forget (and the resync it asks for is
 * returned), an error is AddRateLimited, recorded as a step of `phase` about `object`, its delay returned.
 */
export function* rateLimited(clock: VirtualClock, limiter: ControllerRateLimiter, key: string, phase: PhaseName, object: string, sync: () => Steps<SyncOutcome>): Steps<Millis | void> {
  const r = yield* sync();
  if (r.error === undefined) {
    limiter.forget(key);
    return r.requeueAfterMs;
  }
  const delay = limiter.when(key, clock.now);
  yield requeuedEntry(phase, object, r.error, delay);
  return delay;
}
