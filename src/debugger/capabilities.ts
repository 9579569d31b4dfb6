// The capabilities the adapter declares in its initialize response, one comment each (as mock-debug does).
import type { DebugProtocol } from '@vscode/debugprotocol';
import { EXCEPTION_FILTERS } from './exceptions';

/** CAPABILITIES are what the pod lifecycle debugger implements; nothing is declared that it does not. */
export const CAPABILITIES: DebugProtocol.Capabilities = {
  // launch waits for configurationDone, so breakpoints set before the first phase are honoured.
  supportsConfigurationDoneRequest: true,
  // breakpoints on phase names, aliases and prefixes (`scheduler.bind`, `sandbox`, `kubelet.*`).
  supportsFunctionBreakpoints: true,
  // conditions over the step: `node == "worker-2"`, `plugin == "TaintToleration"`, `container == "init-db"`.
  supportsConditionalBreakpoints: true,
  // hit counts: `3`, `>= 3`, `% 2`.
  supportsHitConditionalBreakpoints: true,
  // logpoints print `{expression}`-interpolated messages without stopping.
  supportsLogPoints: true,
  // request rejected, pod unschedulable, container failing, any Warning event.
  exceptionBreakpointFilters: EXCEPTION_FILTERS,
  // the reason, message and manifest field of the failure stopped on.
  supportsExceptionInfoRequest: true,
  // data breakpoints on a pod's fields: status.phase, spec.nodeName, metadata.deletionTimestamp, a container's state.
  supportsDataBreakpoints: true,
  // step back and reverse continue replay the deterministic simulation to an earlier step.
  supportsStepBack: true,
  // step into a chosen plugin, node or container of the phase.
  supportsStepInTargetsRequest: true,
  // what-if: change a node's allocatable, a taint or a pod field while paused and re-run.
  supportsSetVariable: true,
  // the Debug Console completes field names (and, where the console supports them, commands).
  supportsCompletionsRequest: true,
  completionTriggerCharacters: ['.', ' '],
  // restart re-reads the files and starts the lifecycle over in the same session.
  supportsRestartRequest: true,
  // the Stop button ends the simulated run with a terminate request, then disconnects.
  supportsTerminateRequest: true,
  // stackTrace honours startFrame and levels, but a stop's stack is three frames at most: VS Code asks for it whole,
  // and shows no "Load More Stack Frames" under a short stack (with delayed loading it fetched the top frame alone).
  supportsDelayedStackTraceLoading: false,
  // hovering a field in the manifest while paused shows its stored value.
  supportsEvaluateForHovers: true,
};
