// The READY, STATUS and RESTARTS columns of `kubectl get pods`, computed as the server-side table printer does.
// See pkg/printers/internalversion/printers.go (printPod) and k8s.io/apimachinery/pkg/util/duration (HumanDuration).
import type { Pod } from '../api/types';

/** PodColumns are the columns of one `kubectl get pods` row that speak of the pod's state. */
export interface PodColumns {
  ready: string;
  status: string;
  restarts: string;
}

/** NODE_UNREACHABLE_REASON is the reason the node lifecycle controller gives pods of an unreachable node (NodeUnreachablePodReason). */
const NODE_UNREACHABLE_REASON = 'NodeLost';

/**
 * humanDuration prints a duration as kubectl's AGE columns do: 0s-119s in seconds, then minutes and
 * seconds under 10 minutes, minutes under 3 hours, hours and minutes under 8 hours, hours under 2 days,
 * days and hours under 8 days, days under 2 years, then years and days, then years.
 */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.trunc(seconds / 60);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.trunc(minutes / 60);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.trunc(hours / 24)}d` : `${Math.trunc(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = Math.trunc(hours / 24) % 365;
    return dy === 0 ? `${Math.trunc(hours / 24 / 365)}y` : `${Math.trunc(hours / 24 / 365)}y${dy}d`;
  }
  return `${Math.trunc(hours / 24 / 365)}y`;
}

const isRestartable = (pod: Pod, name: string) => (pod.spec?.initContainers ?? []).find((c) => c.name === name)?.restartPolicy === 'Always';
const time = (ts: string | undefined) => (ts ? Date.parse(ts) : 0);
const conditionTrue = (pod: Pod, type: string) => (pod.status?.conditions ?? []).some((c) => c.type === type && c.status === 'True');

/**
 * podColumns is printPod's READY, STATUS and RESTARTS for a pod at the instant `now` (epoch
 * milliseconds; it only matters for the "(5s ago)" of RESTARTS).
 */
export function podColumns(pod: Pod, now: number): PodColumns {
  const status = pod.status ?? {};
  let restarts = 0;
  let sidecarRestarts = 0;
  let totalContainers = (pod.spec?.containers ?? []).length;
  let readyContainers = 0;
  let lastRestart = 0;
  let lastSidecarRestart = 0;
  let reason: string = status.phase ?? '';
  if (status.reason) reason = status.reason;
  if ((status.conditions ?? []).some((c) => c.type === 'PodScheduled' && c.reason === 'SchedulingGated')) reason = 'SchedulingGated';
  for (const c of pod.spec?.initContainers ?? []) if (c.restartPolicy === 'Always') totalContainers++;

  let initializing = false;
  const inits = pod.spec?.initContainers ?? [];
  for (const [i, c] of (status.initContainerStatuses ?? []).entries()) {
    restarts += c.restartCount ?? 0;
    const finished = time(c.lastState?.terminated?.finishedAt);
    if (c.lastState?.terminated && lastRestart < finished) lastRestart = finished;
    const sidecar = isRestartable(pod, c.name);
    if (sidecar) {
      sidecarRestarts += c.restartCount ?? 0;
      if (c.lastState?.terminated && lastSidecarRestart < finished) lastSidecarRestart = finished;
    }
    const terminated = c.state?.terminated;
    const waiting = c.state?.waiting;
    if (terminated && terminated.exitCode === 0) continue;
    if (sidecar && c.started) {
      if (c.ready) readyContainers++;
      continue;
    }
    if (terminated) {
      // Initialization failed.
      if (!terminated.reason) reason = terminated.signal ? `Init:Signal:${terminated.signal}` : `Init:ExitCode:${terminated.exitCode}`;
      else reason = `Init:${terminated.reason}`;
    } else if (waiting && waiting.reason && waiting.reason !== 'PodInitializing') {
      reason = `Init:${waiting.reason}`;
    } else {
      reason = `Init:${i}/${inits.length}`;
    }
    initializing = true;
    break;
  }

  // isPodInitializedConditionTrue reads the first Initialized condition only.
  if (!initializing || status.conditions?.find((c) => c.type === 'Initialized')?.status === 'True') {
    restarts = sidecarRestarts;
    lastRestart = lastSidecarRestart;
    let hasRunning = false;
    let errorReason = '';
    const statuses = status.containerStatuses ?? [];
    for (let i = statuses.length - 1; i >= 0; i--) {
      const c = statuses[i]!;
      restarts += c.restartCount ?? 0;
      const finished = time(c.lastState?.terminated?.finishedAt);
      if (c.lastState?.terminated && lastRestart < finished) lastRestart = finished;
      const terminated = c.state?.terminated;
      if (c.state?.waiting && c.state.waiting.reason) reason = c.state.waiting.reason;
      else if (terminated) {
        if (terminated.reason) reason = terminated.reason;
        else reason = terminated.signal ? `Signal:${terminated.signal}` : `ExitCode:${terminated.exitCode}`;
        if (terminated.exitCode !== 0) errorReason = reason;
      } else if (c.ready && c.state?.running) {
        hasRunning = true;
        readyContainers++;
      }
    }
    // Back to Running while a container still runs and the pod is Ready; else a failed container's reason; else
    // NotReady while one still runs (printers.go printPod, v1.36.3).
    if (reason === 'Completed') {
      if (hasRunning && conditionTrue(pod, 'Ready')) reason = 'Running';
      else if (errorReason !== '') reason = errorReason;
      else if (hasRunning) reason = 'NotReady';
    }
  }

  const terminalPhase = status.phase === 'Succeeded' || status.phase === 'Failed';
  if (pod.metadata?.deletionTimestamp && status.reason === NODE_UNREACHABLE_REASON) reason = 'Unknown';
  else if (pod.metadata?.deletionTimestamp && !terminalPhase) reason = 'Terminating';

  let restartsText = String(restarts);
  if (restarts !== 0 && lastRestart !== 0) restartsText = `${restarts} (${humanDuration(now - lastRestart)} ago)`;
  return { ready: `${readyContainers}/${totalContainers}`, status: reason, restarts: restartsText };
}

/** podStatusColumn is the STATUS column of `kubectl get pods` for the pod. */
export function podStatusColumn(pod: Pod): string {
  return podColumns(pod, 0).status;
}
