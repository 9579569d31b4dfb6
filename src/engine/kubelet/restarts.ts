// Container restarts: the restart policy after an exit and the CrashLoopBackOff back-off.
// See pkg/kubelet/kuberuntime/kuberuntime_manager.go (doBackOff), pkg/kubelet/container/helpers.go
// (ShouldContainerBeRestarted), pkg/kubelet/kubelet.go (initialCrashLoopBackOff, MaxCrashLoopBackOff,
// newCrashLoopBackOff) and k8s.io/client-go/util/flowcontrol/backoff.go.
import type { Millis } from '../runtime/clock';
import type { ContainerRuntimeState } from './pod-state';

/**
 * CRASH_BACKOFF_INITIAL_MS is the first CrashLoopBackOff delay (pkg/kubelet/kubelet.go initialCrashLoopBackOff,
 * 10 s; the 1 s of ReduceDefaultCrashLoopBackOffDecay is an alpha gate, off by default in 1.36).
 */
export const CRASH_BACKOFF_INITIAL_MS = 10_000;
/** CRASH_BACKOFF_MAX_MS caps the delay (pkg/kubelet/kubelet.go MaxCrashLoopBackOff = MaxContainerBackOff, 300 s). */
export const CRASH_BACKOFF_MAX_MS = 300_000;
/**
 * CRASH_BACKOFF_RESET_MS: an entry whose last update is more than twice the cap (10 minutes) before the
 * container's exit has expired, so the container restarts at once and again from 10 s. See backoff.go (hasExpired).
 */
export const CRASH_BACKOFF_RESET_MS = 2 * CRASH_BACKOFF_MAX_MS;
/** shouldRestart applies the restart policy to an exited container. See ShouldContainerBeRestarted. */
export function shouldRestart(policy: string | undefined, exitCode: number): boolean {
  if (policy === 'Never') return false;
  if (policy === 'OnFailure') return exitCode !== 0;
  return true;
}

/** BackoffEntry is one flowcontrol.Backoff entry: the current delay and when it was last moved on. */
export interface BackoffEntry {
  ms: number;
  lastUpdate: Millis;
}

/** hasExpired: the entry was last updated more than twice the cap before the event. */
export function hasExpired(entry: BackoffEntry, eventTime: Millis, max = CRASH_BACKOFF_MAX_MS): boolean {
  return eventTime - entry.lastUpdate > 2 * max;
}

/** isInBackOffSince: less than the current delay has passed since the event (the container's exit). */
export function isInBackOffSince(entry: BackoffEntry | undefined, eventTime: Millis, now: Millis, max = CRASH_BACKOFF_MAX_MS): boolean {
  if (!entry || hasExpired(entry, eventTime, max)) return false;
  return now - eventTime < entry.ms;
}

/** isInBackOffSinceUpdate: less than the current delay has passed since the entry's last update (image pulls). */
export function isInBackOffSinceUpdate(entry: BackoffEntry | undefined, now: Millis, max = CRASH_BACKOFF_MAX_MS): boolean {
  if (!entry || hasExpired(entry, now, max)) return false;
  return now - entry.lastUpdate < entry.ms;
}

/** nextBackoff is Backoff.Next: a new or expired entry starts at the initial delay, else the delay doubles up to the cap. */
export function nextBackoff(entry: BackoffEntry | undefined, eventTime: Millis, now: Millis, initial = CRASH_BACKOFF_INITIAL_MS, max = CRASH_BACKOFF_MAX_MS): BackoffEntry {
  if (!entry || hasExpired(entry, eventTime, max)) return { ms: initial, lastUpdate: now };
  return { ms: Math.min(2 * entry.ms, max), lastUpdate: now };
}

/**
 * lastExit is the container's latest exited run, as the runtime lists it: the current one when it is
 * not running, else the one before. undefined when it never exited.
 */
export function lastExit(c: ContainerRuntimeState): { finishedAt: Millis; exitCode: number } | undefined {
  if (c.state === 'terminated' && c.containerID) return { finishedAt: c.finishedAt ?? 0, exitCode: c.exitCode ?? 0 };
  if (c.lastTerminated) return { finishedAt: c.lastTerminated.finishedAt ?? 0, exitCode: c.lastTerminated.exitCode };
  return undefined;
}
