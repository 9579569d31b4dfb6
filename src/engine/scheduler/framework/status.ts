// The scheduler's Status model: what a plugin answers at an extension point, in Kubernetes' own codes.
// See staging/src/k8s.io/kube-scheduler/framework/interface.go (Code, Status).

/** Code is the outcome class of a plugin call, named as kube-scheduler's Code.String() prints it. */
export const Code = {
  /** Success means the plugin ran correctly and found the pod schedulable (a nil Status in Go). */
  Success: 'Success',
  /** Error is an internal error: the scheduling attempt fails and is retried. */
  Error: 'Error',
  /** Unschedulable means the pod does not fit now; preemption may help. */
  Unschedulable: 'Unschedulable',
  /** UnschedulableAndUnresolvable means the pod does not fit and preemption cannot help. */
  UnschedulableAndUnresolvable: 'UnschedulableAndUnresolvable',
  /** Wait is returned by a Permit plugin that holds the pod. */
  Wait: 'Wait',
  /** Skip tells the framework to skip the coupled extension points (Filter after PreFilter, Score after PreScore). */
  Skip: 'Skip',
  /** Pending means the pod waits for something outside the scheduler (a PreEnqueue or Filter verdict). */
  Pending: 'Pending',
} as const;

/** Code is the type of one of the Code values. */
export type Code = (typeof Code)[keyof typeof Code];

/** Status is a non-success answer of a plugin: a code, the reasons written for people, and the plugin that said it. */
export class Status {
  readonly code: Code;
  readonly reasons: readonly string[];
  /** plugin is the plugin that returned the status, filled in by the framework. */
  plugin: string;

  constructor(code: Code, reasons: readonly string[] = [], plugin = '') {
    this.code = code;
    this.reasons = reasons;
    this.plugin = plugin;
  }

  /** message joins the reasons with ", ", as Status.Message does. */
  message(): string {
    return this.reasons.join(', ');
  }

  /** withPlugin records the plugin that returned the status and returns the status. */
  withPlugin(plugin: string): Status {
    this.plugin = plugin;
    return this;
  }
}

/** PluginStatus is what a plugin returns: null for success, as Go returns a nil *Status. */
export type PluginStatus = Status | null;

/** newStatus builds a Status with one or more reasons. */
export function newStatus(code: Code, ...reasons: string[]): Status {
  return new Status(code, reasons);
}

/** asError builds an Error status from an error or a message, as framework.AsStatus does. */
export function asError(err: unknown): Status {
  return new Status(Code.Error, [err instanceof Error ? err.message : String(err)]);
}

/** codeOf is the code of a status, Success for null (Status.Code on a nil status). */
export function codeOf(status: PluginStatus): Code {
  return status === null ? Code.Success : status.code;
}

/** isSuccess tells whether a status is a success (nil or Code Success). */
export function isSuccess(status: PluginStatus): boolean {
  return codeOf(status) === Code.Success;
}

/** isSkip tells whether a status asks to skip the coupled extension point. */
export function isSkip(status: PluginStatus): boolean {
  return codeOf(status) === Code.Skip;
}

/** isRejected tells whether a status says the pod does not fit: Unschedulable, UnschedulableAndUnresolvable or Pending. */
export function isRejected(status: PluginStatus): boolean {
  const code = codeOf(status);
  return code === Code.Unschedulable || code === Code.UnschedulableAndUnresolvable || code === Code.Pending;
}

/** StatusView is a status as the trace and the Decision view show it. */
export interface StatusView {
  code: Code;
  reasons: string[];
}

/** viewOf turns a status into its plain view. */
export function viewOf(status: PluginStatus): StatusView {
  return status === null ? { code: Code.Success, reasons: [] } : { code: status.code, reasons: [...status.reasons] };
}
