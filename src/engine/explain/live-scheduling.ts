// The scheduling explanation of a live pod: for one still unscheduled, the engine's own scheduling cycle run on the
// cluster's real nodes and the pods bound to them, set beside what kube-scheduler wrote (the FailedScheduling event,
// the PodScheduled condition); for one bound, the Scheduled event. Pure: it reads the objects it is given.
import { objectRef, type KubeObject, type Node, type Pod } from '../api/types';
import type { TraceEntry } from '../runtime/recorder';
import { entriesOf } from '../runtime/step';
import { Random } from '../runtime/random';
import { newDefaultFramework, scheduleCycle } from '../scheduler/framework/runner';
import { Snapshot } from '../scheduler/framework/snapshot';
import { listersOf } from '../scheduler/framework/listers';
import { readSchedulingTrace } from './attempt';
import { schedulingFacts } from './facts';
import { emptyExplanation, explainAttempt, explainUnattempted, type SchedulingExplanation } from './pod';
import { condition, type DiagnosisEvent } from './pod-view';

/** SchedulingAgreement says how the engine's FailedScheduling message compares with the cluster's. */
export type SchedulingAgreement = 'same' | 'sameFilterReasons' | 'differs' | 'noClusterMessage';

/** SchedulingComparison sets the engine's message beside what kube-scheduler wrote on the cluster. */
export interface SchedulingComparison {
  /** engine is the message of the engine's cycle on the cluster's nodes, when no node fits. */
  engine?: string;
  /** event is the message of the pod's last FailedScheduling event. */
  event?: string;
  /** condition is the message of the pod's PodScheduled=False condition. */
  condition?: string;
  agreement: SchedulingAgreement;
  /** chosen is the node the engine's cycle would choose, when one fits (the cluster has not bound the pod yet). */
  chosen?: string;
}

/** LiveScheduling is the scheduling part of a live explanation. */
export interface LiveScheduling {
  scheduling: SchedulingExplanation;
  comparison?: SchedulingComparison;
}

/** filterPart is a FailedScheduling message up to the end of its filter reasons (before the preemption's words). */
function filterPart(message: string): string {
  const dot = message.indexOf('. ');
  return dot < 0 ? message.replace(/\.$/, '') : message.slice(0, dot);
}

/** agreementOf compares the engine's message with the cluster's (the event's, else the condition's). */
export function agreementOf(engine: string | undefined, cluster: string | undefined): SchedulingAgreement {
  if (cluster === undefined) return 'noClusterMessage';
  if (engine === cluster) return 'same';
  return engine !== undefined && filterPart(engine) === filterPart(cluster) ? 'sameFilterReasons' : 'differs';
}

/** isTerminal tells a Succeeded or Failed pod: kube-scheduler's informer leaves them out (pkg/scheduler/scheduler.go). */
function isTerminal(p: Pod): boolean {
  return p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed';
}

/**
 * runLiveCycle runs one scheduling cycle of the default profile for the pod on a snapshot of the nodes and the
 * non-terminal pods bound to them, the other objects as the plugins' listers, and collects its trace entries.
 */
export function runLiveCycle(pod: Pod, nodes: readonly Node[], pods: readonly Pod[], related: readonly KubeObject[]): { trace: TraceEntry[]; objects: KubeObject[] } {
  const uid = pod.metadata?.uid;
  const assigned = pods.filter((p) => p.spec?.nodeName && !isTerminal(p) && (uid === undefined || p.metadata?.uid !== uid));
  const objects = [...nodes, ...assigned, ...related] as unknown as KubeObject[];
  const steps = scheduleCycle({ pod, snapshot: Snapshot.build(nodes, assigned), random: new Random(1), framework: newDefaultFramework(), listers: listersOf(objects) });
  const trace: TraceEntry[] = [];
  for (let next = steps.next(); !next.done; next = steps.next()) {
    for (const e of entriesOf(next.value)) trace.push({ ...e, seq: trace.length, at: 0, detail: e.detail ?? {} });
  }
  return { trace, objects };
}

function boundExplanation(pod: Pod, events: readonly DiagnosisEvent[]): SchedulingExplanation {
  const node = pod.spec!.nodeName!;
  const scheduled = events.filter((e) => e.reason === 'Scheduled').at(-1);
  return emptyExplanation(scheduled ? `${scheduled.source ?? 'the scheduler'}: ${scheduled.message}` : `bound to ${node} (no Scheduled event left: events expire, an hour by default, or the pod named its node)`);
}

/** liveScheduling explains how the live pod was scheduled, or why it is not. */
export function liveScheduling(pod: Pod, nodes: readonly Node[], pods: readonly Pod[], related: readonly KubeObject[], events: readonly DiagnosisEvent[]): LiveScheduling {
  if (pod.spec?.nodeName) return { scheduling: boundExplanation(pod, events) };
  const conditionMessage = ((c) => (c?.status === 'False' ? c.message : undefined))(condition(pod, 'PodScheduled'));
  const gates = (pod.spec?.schedulingGates ?? []).map((g) => g.name);
  const schedulerName = pod.spec?.schedulerName ?? 'default-scheduler';
  if (gates.length > 0 || schedulerName !== 'default-scheduler') {
    return { scheduling: explainUnattempted({ queued: false, gates, attempts: [] }, pod, conditionMessage) };
  }
  const ref = objectRef('Pod', pod.metadata?.namespace ?? 'default', pod.metadata?.name ?? '');
  const { trace, objects } = runLiveCycle(pod, nodes, pods, related);
  const attempt = readSchedulingTrace(trace, ref, nodes.map((n) => n.metadata?.name ?? '')).attempts.at(-1);
  const event = events.filter((e) => e.reason === 'FailedScheduling').at(-1)?.message;
  if (!attempt) return { scheduling: explainUnattempted({ queued: true, gates: [], attempts: [] }, pod, event ?? conditionMessage) };
  const scheduling = explainAttempt(attempt, 1, schedulingFacts(pod, objects));
  const comparison: SchedulingComparison = {
    ...(scheduling.message ? { engine: scheduling.message } : {}),
    ...(event ? { event } : {}),
    ...(conditionMessage ? { condition: conditionMessage } : {}),
    agreement: agreementOf(scheduling.message, event ?? conditionMessage),
    ...(scheduling.chosen ? { chosen: scheduling.chosen } : {}),
  };
  return { scheduling, comparison };
}
