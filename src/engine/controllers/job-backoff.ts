// The Job controller's pod-failure back-off: the per-Job back-off record (failures after the last success and the
// last failure's time), kept by the controller across syncs, and a pod's finish time. See
// pkg/controller/job/backoff_utils.go (newBackoffRecord, getFinishedTime, getRemainingTimeForFailuresCount).
import type { Pod } from '../api/types';
import type { EngineContext } from '../context';
import type { Millis } from '../runtime/clock';
import { timeOf } from './pods';

/** DEFAULT_JOB_POD_FAILURE_BACKOFF_MS and MAX_JOB_POD_FAILURE_BACKOFF_MS: 10 s doubling to at most 10 min (DefaultJobPodFailureBackOff, MaxJobPodFailureBackOff). */
export const DEFAULT_JOB_POD_FAILURE_BACKOFF_MS = 10_000;
export const MAX_JOB_POD_FAILURE_BACKOFF_MS = 10 * 60_000;

/** BackoffRecord is backoffRecord: the failures since the last success and when the last one finished. */
export interface BackoffRecord {
  failuresAfterLastSuccess: number;
  lastFailureTime?: Millis;
}

// The controller's backoffStore, one per simulated cluster, by Job uid.
const stores = new WeakMap<object, Map<string, BackoffRecord>>();

/** backoffStore is the Job controller's backoffStore of this run. */
export function backoffStore(ctx: EngineContext): Map<string, BackoffRecord> {
  let store = stores.get(ctx.store);
  if (!store) stores.set(ctx.store, (store = new Map()));
  return store;
}

/**
 * finishedAt is getFinishedTime: the latest finishedAt once every container terminated; else the Ready=False
 * condition's lastTransitionTime; else deletionTimestamp less the grace period; else the creation time.
 */
export function finishedAt(ctx: EngineContext, pod: Pod): Millis {
  const statuses = pod.status?.containerStatuses ?? [];
  const times = statuses.map((s) => timeOf(ctx.clock, s.state?.terminated?.finishedAt));
  if (statuses.length && times.every((t) => t !== undefined)) return Math.max(...(times as number[]));
  const ready = (pod.status?.conditions ?? []).find((c) => c.type === 'Ready');
  const readyFalse = ready?.status === 'False' ? timeOf(ctx.clock, ready.lastTransitionTime) : undefined;
  if (readyFalse !== undefined) return readyFalse;
  const deleted = timeOf(ctx.clock, pod.metadata?.deletionTimestamp);
  if (deleted !== undefined) return deleted - (pod.metadata?.deletionGracePeriodSeconds ?? 0) * 1000;
  return timeOf(ctx.clock, pod.metadata?.creationTimestamp) ?? ctx.clock.now;
}

/**
 * newBackoffRecord is newBackoffRecord: new failures add up; a new success resets the count to the failures that
 * finished after the latest success.
 */
export function newBackoffRecord(ctx: EngineContext, old: BackoffRecord | undefined, newSucceeded: readonly Pod[], newFailed: readonly Pod[]): BackoffRecord {
  const record: BackoffRecord = { failuresAfterLastSuccess: old?.failuresAfterLastSuccess ?? 0, ...(old?.lastFailureTime !== undefined ? { lastFailureTime: old.lastFailureTime } : {}) };
  const failed = newFailed.map((p) => finishedAt(ctx, p)).sort((a, b) => a - b);
  if (newSucceeded.length === 0) {
    if (failed.length === 0) return record;
    return { failuresAfterLastSuccess: record.failuresAfterLastSuccess + failed.length, lastFailureTime: failed[failed.length - 1]! };
  }
  // A fold, not Math.max(...): a big Job may see more pods succeed at once than a call takes arguments.
  const lastSuccess = newSucceeded.reduce((latest, p) => Math.max(latest, finishedAt(ctx, p)), -Infinity);
  const after = failed.filter((t) => t > lastSuccess);
  return after.length ? { failuresAfterLastSuccess: after.length, lastFailureTime: after[after.length - 1]! } : { failuresAfterLastSuccess: 0 };
}

/** remainingForFailures is getRemainingTimeForFailuresCount: 10 s doubled (failures - 1) times, at most 10 min, less the time since the last failure. */
export function remainingForFailures(ctx: EngineContext, failures: number, lastFailure: Millis | undefined): Millis {
  if (failures === 0 || lastFailure === undefined) return 0;
  let backoff = DEFAULT_JOB_POD_FAILURE_BACKOFF_MS;
  for (let i = 1; i < failures; i++) backoff = Math.min(backoff * 2, MAX_JOB_POD_FAILURE_BACKOFF_MS);
  return Math.max(0, backoff - (ctx.clock.now - lastFailure));
}
