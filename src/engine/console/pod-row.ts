// The row `kubectl get pods` prints for a pod: READY, STATUS, RESTARTS as printPod computes them.
// See pkg/printers/internalversion/printers.go (printPod).
import type { Container, ContainerStatus, Pod } from '../api/types';
import { since } from './duration';

/** PodRow is printPod's cells: the plain columns and the -o wide ones. */
export interface PodRow {
  name: string;
  ready: string;
  status: string;
  restarts: string;
  age: string;
  ip: string;
  node: string;
  nominatedNode: string;
  readinessGates: string;
}

/** isRestartableInitContainer tells a sidecar: an init container with restartPolicy Always. */
function isRestartableInitContainer(c: Container | undefined): boolean {
  return c?.restartPolicy === 'Always';
}

const later = (a: string | undefined, b: string | undefined): string | undefined => (b && (!a || Date.parse(b) > Date.parse(a)) ? b : a);

/** podRow computes printPod's cells for a pod at the virtual time `nowMs` (wall-clock milliseconds). */
export function podRow(pod: Pod, nowMs: number): PodRow {
  const spec = pod.spec;
  const status = pod.status ?? {};
  let restarts = 0;
  let sidecarRestarts = 0;
  let totalContainers = spec?.containers?.length ?? 0;
  let readyContainers = 0;
  let lastRestartDate: string | undefined;
  let lastSidecarRestartDate: string | undefined;
  let reason = status.reason || status.phase || '';
  // A pod held by scheduling gates shows SchedulingGated.
  for (const c of status.conditions ?? []) if (c.type === 'PodScheduled' && c.reason === 'SchedulingGated') reason = 'SchedulingGated';

  const initContainers = new Map<string, Container>();
  for (const c of spec?.initContainers ?? []) {
    initContainers.set(c.name, c);
    if (isRestartableInitContainer(c)) totalContainers++;
  }

  let initializing = false;
  const initStatuses: readonly ContainerStatus[] = status.initContainerStatuses ?? [];
  for (let i = 0; i < initStatuses.length; i++) {
    const c = initStatuses[i]!;
    restarts += c.restartCount ?? 0;
    if (c.lastState?.terminated) lastRestartDate = later(lastRestartDate, c.lastState.terminated.finishedAt);
    const sidecar = isRestartableInitContainer(initContainers.get(c.name));
    if (sidecar) {
      sidecarRestarts += c.restartCount ?? 0;
      if (c.lastState?.terminated) lastSidecarRestartDate = later(lastSidecarRestartDate, c.lastState.terminated.finishedAt);
    }
    const term = c.state?.terminated;
    const waiting = c.state?.waiting;
    if (term && term.exitCode === 0) continue;
    if (sidecar && c.started) {
      if (c.ready) readyContainers++;
      continue;
    }
    if (term) {
      reason = !term.reason ? (term.signal ? `Init:Signal:${term.signal}` : `Init:ExitCode:${term.exitCode}`) : `Init:${term.reason}`;
    } else if (waiting?.reason && waiting.reason !== 'PodInitializing') {
      reason = `Init:${waiting.reason}`;
    } else {
      reason = `Init:${i}/${spec?.initContainers?.length ?? 0}`;
    }
    initializing = true;
    break;
  }

  const initialized = (status.conditions ?? []).some((c) => c.type === 'Initialized' && c.status === 'True');
  if (!initializing || initialized) {
    restarts = sidecarRestarts;
    lastRestartDate = lastSidecarRestartDate;
    let hasRunning = false;
    const statuses = status.containerStatuses ?? [];
    for (let i = statuses.length - 1; i >= 0; i--) {
      const c = statuses[i]!;
      restarts += c.restartCount ?? 0;
      if (c.lastState?.terminated) lastRestartDate = later(lastRestartDate, c.lastState.terminated.finishedAt);
      const term = c.state?.terminated;
      if (c.state?.waiting?.reason) reason = c.state.waiting.reason;
      else if (term?.reason) reason = term.reason;
      else if (term) reason = term.signal ? `Signal:${term.signal}` : `ExitCode:${term.exitCode}`;
      else if (c.ready && c.state?.running) {
        hasRunning = true;
        readyContainers++;
      }
    }
    // A pod whose containers completed but one still runs is Running (or NotReady without the Ready condition).
    if (reason === 'Completed' && hasRunning) {
      reason = (status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True') ? 'Running' : 'NotReady';
    }
  }

  const terminal = status.phase === 'Succeeded' || status.phase === 'Failed';
  // pkg/util/node NodeUnreachablePodReason is "NodeLost".
  if (pod.metadata?.deletionTimestamp && status.reason === 'NodeLost') reason = 'Unknown';
  else if (pod.metadata?.deletionTimestamp && !terminal) reason = 'Terminating';

  const restartsText = restarts !== 0 && lastRestartDate ? `${restarts} (${since(lastRestartDate, nowMs)} ago)` : String(restarts);

  let readinessGates = '<none>';
  const gates = spec?.readinessGates ?? [];
  if (gates.length > 0) {
    let trueConditions = 0;
    for (const g of gates) {
      const c = (status.conditions ?? []).find((x) => x.type === g.conditionType);
      if (c?.status === 'True') trueConditions++;
    }
    readinessGates = `${trueConditions}/${gates.length}`;
  }

  return {
    name: pod.metadata?.name ?? '',
    ready: `${readyContainers}/${totalContainers}`,
    status: reason,
    restarts: restartsText,
    age: since(pod.metadata?.creationTimestamp, nowMs),
    ip: status.podIPs?.[0]?.ip || '<none>',
    node: spec?.nodeName || '<none>',
    nominatedNode: status.nominatedNodeName || '<none>',
    readinessGates,
  };
}
