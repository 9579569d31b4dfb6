// Backoff: how long a pod that failed waits before it may be retried, and the one-second windows the backoff queue
// flushes in. See pkg/scheduler/backend/queue/backoff_queue.go (getBackoffTime, calculateBackoffDuration, alignToWindow).
import type { Millis } from '../../runtime/clock';

/** DEFAULT_POD_INITIAL_BACKOFF_SECONDS is podInitialBackoffSeconds' default (apis/config/v1/defaults.go). */
export const DEFAULT_POD_INITIAL_BACKOFF_SECONDS = 1;
/** DEFAULT_POD_MAX_BACKOFF_SECONDS is podMaxBackoffSeconds' default. */
export const DEFAULT_POD_MAX_BACKOFF_SECONDS = 10;
/** BACKOFF_ORDERING_WINDOW is backoffQOrderingWindowDuration: expirations are whole seconds, flushed once a second. */
export const BACKOFF_ORDERING_WINDOW: Millis = 1000;
/** POD_MAX_IN_UNSCHEDULABLE_PODS is DefaultPodMaxInUnschedulablePodsDuration: after 5 minutes a pod is retried anyway. */
export const POD_MAX_IN_UNSCHEDULABLE_PODS: Millis = 5 * 60 * 1000;
/** UNSCHEDULABLE_FLUSH_PERIOD is how often flushUnschedulablePodsLeftover runs (wait.Until every 30 s from the start). */
export const UNSCHEDULABLE_FLUSH_PERIOD: Millis = 30 * 1000;

/** BackoffCounts are what the backoff of a pod depends on. */
export interface BackoffCounts {
  /** unschedulableCount counts the attempts that plugins rejected. */
  unschedulableCount: number;
  /** consecutiveErrorsCount counts the attempts in a row that ended in an error (no plugin to blame). */
  consecutiveErrorsCount: number;
  /** timestamp is when the pod last came back to the queue (virtual ms). */
  timestamp: Millis;
}

/** alignToWindow truncates a time to its ordering window (time.Truncate(time.Second)). */
export function alignToWindow(t: Millis): Millis {
  return Math.floor(t / BACKOFF_ORDERING_WINDOW) * BACKOFF_ORDERING_WINDOW;
}

/** backoffDuration is initial × 2^(count−1), capped at max; 0 for a pod never tried. */
export function backoffDuration(count: number, initial: Millis, max: Millis): Millis {
  if (count <= 0) return 0;
  const shift = count - 1;
  // Why: Go compares initial with max>>shift to avoid overflowing initial<<shift; dividing keeps that meaning.
  if (initial > Math.floor(max / 2 ** shift)) return max;
  return initial * 2 ** shift;
}

/**
 * backoffExpiration is getBackoffTime: the error count when the last attempt erred, else the unschedulable count; the
 * expiry is aligned down to its window. undefined means no backoff at all (never tried, or podMaxBackoffSeconds 0).
 */
export function backoffExpiration(p: BackoffCounts, initial: Millis, max: Millis): Millis | undefined {
  if (max === 0) return undefined;
  const count = p.consecutiveErrorsCount > 0 ? p.consecutiveErrorsCount : p.unschedulableCount;
  if (count === 0) return undefined;
  return alignToWindow(p.timestamp + backoffDuration(count, initial, max));
}

/** isBackingOff tells whether a pod still waits at `now`: while its expiry is not before the current window. */
export function isBackingOff(expiration: Millis | undefined, now: Millis): boolean {
  return expiration !== undefined && !(expiration < alignToWindow(now));
}

/** backoffCompletesAt is the first window flush at which a pod with this expiry is no longer backing off. */
export function backoffCompletesAt(expiration: Millis | undefined, now: Millis): Millis {
  if (expiration === undefined) return now;
  return Math.max(now, expiration + BACKOFF_ORDERING_WINDOW);
}
