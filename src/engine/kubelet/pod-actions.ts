// What one sync of the pod worker does with a pod's containers, as computePodActions decides it: which to kill, which
// init container or sidecar to start next, which containers to start or restart, or the whole pod to stop.
// See pkg/kubelet/kuberuntime/kuberuntime_manager.go (computePodActions), kuberuntime_container.go
// (computeInitContainerActions) and pkg/kubelet/container/helpers.go (ShouldContainerBeRestarted), v1.36.3.
import type { KillReason } from './kill';
import type { ContainerRuntimeState, PodRuntimeState } from './pod-state';
import { lastExit, shouldRestart } from './restarts';
import { specOf } from './status';

/** PodActions is what one sync does: computePodActions' podActions. */
export interface PodActions {
  killPod: boolean;
  initialized: boolean;
  initToStart: ContainerRuntimeState[];
  toStart: ContainerRuntimeState[];
  toKill: { c: ContainerRuntimeState; message: string; reason: KillReason }[];
}

/** runtimeRunning: the runtime runs the container (its postStart hook may still be running). */
export const runtimeRunning = (c: ContainerRuntimeState) => c.state === 'running' || c.hookRunning === true;

/** shouldContainerBeRestarted is ShouldContainerBeRestarted of pkg/kubelet/container/helpers.go. */
export function shouldContainerBeRestarted(state: PodRuntimeState, c: ContainerRuntimeState): boolean {
  if (state.pod.metadata?.deletionTimestamp) return false;
  if (!c.containerID) return true;
  if (runtimeRunning(c)) return false;
  return shouldRestart(state.pod.spec?.restartPolicy ?? 'Always', lastExit(c)?.exitCode ?? 0);
}

/**
 * computeInitContainerActions walks the init containers from the last one back, as the kubelet does:
 * the next one to start, sidecars to restart or kill, and whether the pod is initialized. A regular
 * init container that failed kills the pod under restartPolicy Never and is restarted otherwise.
 */
function computeInitContainerActions(state: PodRuntimeState, actions: PodActions): boolean {
  const inits = state.containers.filter((c) => c.init);
  if (inits.length === 0) return true;
  const spec = (c: ContainerRuntimeState) => specOf(state.pod, c);
  let podHasInitialized = state.containers.some((c) => !c.init && runtimeRunning(c));
  let previouslyInitialized = podHasInitialized;
  const restartOnFailure = (state.pod.spec?.restartPolicy ?? 'Always') !== 'Never';
  const start: ContainerRuntimeState[] = [];
  for (let i = inits.length - 1; i >= 0; i--) {
    const c = inits[i]!;
    if (!c.containerID) {
      if (previouslyInitialized && c.sidecar) start.push(c);
      continue;
    }
    if (previouslyInitialized && !c.sidecar) continue;
    if (runtimeRunning(c)) {
      if (c.sidecar) sidecar: {
        if (spec(c).startupProbe) {
          const startup = c.probeResults.startup;
          if (startup === undefined) break sidecar;
          if (startup === 'Failure') {
            actions.toKill.push({ c, message: `Init container ${c.name} failed startup probe`, reason: 'startupProbe' });
            start.push(c);
            break sidecar;
          }
        }
        if (i === inits.length - 1) podHasInitialized = true;
        else if (!previouslyInitialized) start.push(inits[i + 1]!);
        if (spec(c).livenessProbe && c.probeResults.liveness === 'Failure') {
          actions.toKill.push({ c, message: `Init container ${c.name} failed liveness probe`, reason: 'livenessProbe' });
          start.push(c);
        }
      }
    } else if (c.sidecar) {
      start.push(c);
    } else {
      const exit = lastExit(c);
      if (exit && exit.exitCode !== 0) {
        if (!restartOnFailure) {
          actions.killPod = true;
          actions.initToStart = [];
          return false;
        }
        start.push(c);
      } else if (i === inits.length - 1) podHasInitialized = true;
      else start.push(inits[i + 1]!);
    }
    previouslyInitialized = true;
  }
  if (!previouslyInitialized) start.push(inits[0]!);
  actions.initToStart = [...new Set(start.reverse())];
  return podHasInitialized;
}

/** computePodActions decides one sync's work from the containers' states and probe results. */
export function computePodActions(state: PodRuntimeState): PodActions {
  const actions: PodActions = { killPod: false, initialized: false, initToStart: [], toStart: [], toKill: [] };
  actions.initialized = computeInitContainerActions(state, actions);
  if (actions.killPod || !actions.initialized) return actions;
  const restart = (state.pod.spec?.restartPolicy ?? 'Always') !== 'Never';
  let keep = 0;
  for (const c of state.containers.filter((x) => !x.init)) {
    if (!runtimeRunning(c)) {
      if (shouldContainerBeRestarted(state, c)) actions.toStart.push(c);
      continue;
    }
    let message: string;
    let reason: KillReason;
    if (c.probeResults.liveness === 'Failure') { message = `Container ${c.name} failed liveness probe`; reason = 'livenessProbe'; }
    else if (c.probeResults.startup === 'Failure') { message = `Container ${c.name} failed startup probe`; reason = 'startupProbe'; }
    else { keep++; continue; }
    if (restart) { message = `${message}, will be restarted`; actions.toStart.push(c); }
    actions.toKill.push({ c, message, reason });
  }
  if (keep === 0 && actions.toStart.length === 0) {
    actions.killPod = true;
    // Sidecars must not keep the pod alive: they are not restarted once the containers are done.
    actions.initToStart = [];
  }
  return actions;
}
