// The shape of a diagnosis: causes, each with the evidence Kubernetes shows for it (a field of a stored object, an
// Event, a step of the engine's trace, each at its virtual time), what a person would check and what would end it.
import type { DiagnosisEvent, DiagnosisTraceEntry } from './pod-view';

/** CauseKind names one reason a pod is stuck, not Ready, restarting or failed. */
export type CauseKind =
  // stuck Terminating
  | 'Finalizer' | 'PreStopHookRunning' | 'FailedPreStopHook' | 'SigtermIgnored' | 'VolumeNotUnmounted' | 'KubeletNotResponding'
  // not Ready, restarting, failed
  | 'ReadinessProbe' | 'StartupProbe' | 'ReadinessGates' | 'CrashLoopBackOff' | 'ContainerExited' | 'LivenessProbe' | 'OOMKilled'
  | 'ImagePull' | 'CreateContainerConfigError' | 'FailedMount' | 'InitContainer' | 'DeadlineExceeded' | 'NodeNotReady'
  | 'ContainerWaiting' | 'PodFailed' | 'PostStartHook';

/** EvidenceKind says where a piece of evidence comes from. */
export type EvidenceKind = 'field' | 'event' | 'trace';

/** Evidence is one thing Kubernetes (or the engine's trace) shows that supports a cause. */
export interface Evidence {
  kind: EvidenceKind;
  /**
   * ref names it: a field path of the pod or node (`metadata.finalizers`, `status.containerStatuses[0].lastState`,
   * `Node/worker-1 status.conditions[Ready]`), an event's reason (`BackOff`), or a trace phase (`kubelet.terminate`).
   */
  ref: string;
  /** at is the virtual second it happened (an event's last occurrence), when known. */
  at?: number;
  /** text is what Kubernetes shows: the field's value, the event's message, the step's result. */
  text: string;
  /** count is how many times an event repeated. */
  count?: number;
  /** field is the manifest field it concerns, for the editor (`spec.containers[0].livenessProbe`). */
  field?: string;
}

/** Cause is one reason, with its evidence and what to do about it. */
export interface Cause {
  kind: CauseKind;
  /** container is the container the cause is about, when it is about one. */
  container?: string;
  /** title says in one line what is wrong. */
  title: string;
  /** detail explains it: the timing against the grace period, the back-off, the probe's settings. */
  detail?: string;
  evidence: Evidence[];
  /** checks are what a person would run to see it on a real cluster. */
  checks: string[];
  /** fix says what would end it. */
  fix?: string;
  /** caution warns about the fix. */
  caution?: string;
  /** source is the Kubernetes source that decides it. */
  source: string;
}

/** eventEvidence turns an Event into evidence. */
export function eventEvidence(e: DiagnosisEvent): Evidence {
  return { kind: 'event', ref: `${e.type} ${e.reason}`, at: e.at, text: e.message, ...(e.count && e.count > 1 ? { count: e.count } : {}) };
}

/** traceEvidence turns a trace step into evidence. */
export function traceEvidence(e: DiagnosisTraceEntry): Evidence {
  return { kind: 'trace', ref: e.phase, at: e.at, text: e.result, ...(e.field ? { field: e.field } : {}) };
}

/** fieldEvidence is the value of a field of a stored object. */
export function fieldEvidence(ref: string, text: string, at?: number, field?: string): Evidence {
  return { kind: 'field', ref, text, ...(at !== undefined ? { at } : {}), ...(field ? { field } : {}) };
}
