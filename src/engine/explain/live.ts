// explainLive: the diagnosis of one pod of a real cluster, from its objects and events as kubectl returned them (the
// CLI reads them; nothing here does I/O). The same diagnosis as `explain` on a run, with the cluster's Events in place
// of the trace, times in seconds since the pod was created, and the engine's scheduler run on the cluster's nodes.
import type { KubeObject, Node, Pod } from '../api/types';
import type { Cause } from './cause';
import { diagnosePod, type PodDiagnosis } from './diagnosis';
import { eventInstant, liveEvents } from './live-events';
import { relatedObjects, type RelatedObject } from './live-related';
import { liveScheduling, type SchedulingComparison } from './live-scheduling';
import { gracePassedCause } from './live-terminating';
import { isReady, podView, type DiagnosisInput } from './pod-view';
import type { PodReport } from './report';

export type { RelatedObject } from './live-related';
export type { SchedulingComparison } from './live-scheduling';

/** LiveState is what was read from the cluster: the pod, the events, the nodes and pods, the objects around the pod. */
export interface LiveState {
  pod: Pod;
  /** events are core/v1 Events about the pod and its node. */
  events: readonly KubeObject[];
  nodes: readonly Node[];
  /** pods are the cluster's pods, to count what each node already runs (the pod itself may be among them). */
  pods: readonly Pod[];
  /** related are the owners, claims, quotas, limit ranges, priority class, budgets and services read for the pod. */
  related: readonly KubeObject[];
  /** readAt is the wall-clock instant the state was read (RFC 3339). */
  readAt: string;
  /** unread names what could not be read, with kubectl's words (`nodes: Forbidden ...`). */
  unread?: readonly string[];
  /** context is the kubeconfig context it was read through, when known. */
  context?: string;
}

/** LiveReport is `pod-lifecycle explain --live --json`: a PodReport of the live pod and what only a live read has. */
export interface LiveReport extends PodReport {
  live: {
    context?: string;
    readAt: string;
    /** epoch is the pod's creationTimestamp: every `at` of the report counts seconds from it. */
    epoch: string;
    /** failedScheduling sets the engine's FailedScheduling message beside the cluster's, for an unscheduled pod. */
    failedScheduling?: SchedulingComparison;
    related: RelatedObject[];
    unread: string[];
  };
}

/**
 * nowOf is the instant the diagnosis stands at: the read, or the latest time the cluster wrote (an event, a condition, a
 * container's start or end, a write of the pod) when the cluster's clock runs ahead of ours (a simulated cluster's
 * virtual time, or clock skew).
 */
function nowOf(state: LiveState): number {
  const pod = state.pod;
  const statuses = [...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? [])];
  const stamps = [
    ...(pod.metadata?.managedFields ?? []).map((f) => f.time), ...(pod.status?.conditions ?? []).map((c) => c.lastTransitionTime),
    ...statuses.flatMap((s) => [s.state?.running?.startedAt, s.state?.terminated?.finishedAt, s.lastState?.terminated?.finishedAt]),
  ];
  let now = Date.parse(state.readAt);
  for (const t of stamps) if (t) now = Math.max(now, Date.parse(t) || now);
  for (const e of state.events) now = Math.max(now, eventInstant(e) ?? now);
  return now;
}

/** liveDiagnosis diagnoses the pod from its state: the engine's causes, and the grace period's end the trace would show. */
function liveDiagnosis(input: DiagnosisInput, pod: Pod): PodDiagnosis {
  const d = diagnosePod(input, pod);
  if (d.question !== 'terminating' || d.causes.some((c) => c.kind === 'KubeletNotResponding')) return d;
  const passed: Cause | undefined = gracePassedCause(podView(input, pod));
  return passed ? { ...d, causes: [passed, ...d.causes] } : d;
}

/** explainLive explains one live pod: its state, why it is not scheduled (the engine's cycle on the real nodes), the causes. */
export function explainLive(state: LiveState): LiveReport {
  const pod = state.pod;
  const created = pod.metadata?.creationTimestamp ?? state.readAt;
  const epochMs = Date.parse(created);
  const events = liveEvents(state.events, pod, epochMs);
  const input: DiagnosisInput = { objects: [pod, ...state.nodes, ...state.related] as unknown as KubeObject[], events, trace: [], now: (nowOf(state) - epochMs) / 1000, epoch: created };
  const { scheduling, comparison } = liveScheduling(pod, state.nodes, state.pods, state.related, events);
  return {
    pod: `${pod.metadata?.namespace ?? 'default'}/${pod.metadata?.name ?? ''}`,
    ...(pod.spec?.nodeName ? { node: pod.spec.nodeName } : {}),
    phase: pod.status?.phase ?? 'Pending',
    ...(pod.status?.podIP ? { ip: pod.status.podIP } : {}),
    scheduling,
    diagnosis: liveDiagnosis(input, pod),
    live: {
      ...(state.context ? { context: state.context } : {}),
      readAt: state.readAt, epoch: created,
      ...(comparison ? { failedScheduling: comparison } : {}),
      related: relatedObjects(pod, state.related, isReady(pod)),
      unread: [...(state.unread ?? [])],
    },
  };
}
