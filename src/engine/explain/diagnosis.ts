// diagnose: why a pod is stuck Terminating, not Ready, restarting or Failed — the causes, each with the evidence
// Kubernetes shows for it (a field of the stored pod or node, an Event, a step of the engine's trace, at its virtual
// time), what a person would check on a real cluster and what would end it.
//
// The API the debugger and the CLI call:
//
//   diagnose(result: DiagnosisInput, pods?: string[]): PodDiagnosis[]
//
// `result` is a SimulationResult (or anything with its `objects`, `events` and `trace`; `now` and `epoch` are
// optional). Without `pods`, every pod the trace worked on is diagnosed; with it, the pods named `Pod/<ns>/<name>`.
// Each PodDiagnosis answers one question, chosen from the pod's state: `terminating` (metadata.deletionTimestamp is
// set), `failed` (phase Failed), `unscheduled` (no node: the scheduling explanation answers it), `notReady` (on a node
// but not Ready), `restarting` (Ready, but a container restarted), or `none`. Pure: no I/O, no clock.
import type { Pod } from '../api/types';
import type { Cause } from './cause';
import { containerCauses } from './containers';
import { kubeletSilentCause, nodeNotReadyCause } from './node-health';
import { condition, formatSeconds, isReady, podView, type DiagnosisInput, type PodView } from './pod-view';
import { readinessCause, startupCause } from './probes';
import { deadlineCause, podFailedCause, failedMountCause, readinessGatesCause } from './pod-status';
import { deletionOf, diagnoseTerminating, terminatingSummary } from './terminating';

export type { Cause, CauseKind, Evidence } from './cause';
export type { DiagnosisInput } from './pod-view';

/** Question is what the diagnosis of a pod answers. */
export type Question = 'terminating' | 'failed' | 'unscheduled' | 'notReady' | 'restarting' | 'none';

/** PodDiagnosis is the answer for one pod: the question, a one-line summary of its state, and the causes. */
export interface PodDiagnosis {
  /** pod is `namespace/name`. */
  pod: string;
  question: Question;
  summary: string;
  causes: Cause[];
}

/** questionOf picks the question a pod's state asks. */
export function questionOf(pod: Pod): Question {
  if (pod.metadata?.deletionTimestamp) return 'terminating';
  const phase = pod.status?.phase ?? 'Pending';
  if (phase === 'Failed') return 'failed';
  if (phase === 'Succeeded') return 'none';
  if (!pod.spec?.nodeName) return 'unscheduled';
  if (!isReady(pod)) return 'notReady';
  const restarted = [...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? [])].some((s) => s.restartCount > 0);
  return restarted ? 'restarting' : 'none';
}

function boundAt(view: PodView): number | undefined {
  return view.trace.filter((e) => e.phase === 'scheduler.bind').at(-1)?.at ?? view.trace.find((e) => e.phase === 'etcd.persist')?.at;
}

/** kubeletStarted tells whether the kubelet has reported any status for the pod (more than PodScheduled). */
function kubeletStarted(pod: Pod): boolean {
  return (pod.status?.conditions ?? []).some((c) => c.type !== 'PodScheduled') || (pod.status?.containerStatuses?.length ?? 0) > 0;
}

/** runningCauses are the causes a pod on a node is not Ready, restarts or failed. */
function runningCauses(view: PodView, question: Question): Cause[] {
  const node = nodeNotReadyCause(view, false);
  const out: Cause[] = node ? [node] : [];
  if (!node && !kubeletStarted(view.pod)) {
    const at = boundAt(view);
    const silent = at !== undefined ? kubeletSilentCause(view, at, false) : undefined;
    if (silent) return [silent];
  }
  out.push(...[deadlineCause(view), podFailedCause(view), failedMountCause(view)].filter((c): c is Cause => c !== undefined));
  for (const c of view.containers) {
    out.push(...containerCauses(view, c));
    if (question === 'notReady') {
      const probe = startupCause(view, c) ?? readinessCause(view, c);
      if (probe) out.push(probe);
    } else {
      const killed = startupCause(view, c);
      if (killed?.title.includes('killed')) out.push(killed);
    }
  }
  const gates = readinessGatesCause(view);
  if (gates && question === 'notReady') out.push(gates);
  return out;
}

function readyText(pod: Pod): string {
  const ready = condition(pod, 'Ready');
  return ready ? [`Ready ${ready.status}`, ready.reason, ready.message].filter(Boolean).join(': ') : 'no Ready condition yet';
}

function summaryOf(view: PodView, question: Question): string {
  const pod = view.pod;
  const phase = pod.status?.phase ?? 'Pending';
  const where = view.nodeName ? ` on ${view.nodeName}` : '';
  switch (question) {
    case 'failed':
      return `phase Failed${where}${pod.status?.reason ? ` (${pod.status.reason}${pod.status.message ? `: ${pod.status.message}` : ''})` : ''}`;
    case 'unscheduled':
      return 'not scheduled: the scheduling explanation says why';
    case 'notReady':
      return `phase ${phase}${where}, not Ready at ${formatSeconds(view.now)} (${readyText(pod)})`;
    case 'restarting': {
      const restarted = view.containers.filter((c) => (c.status?.restartCount ?? 0) > 0).map((c) => `${c.name} ${c.status!.restartCount}×`);
      return `Running and Ready${where}, but restarted: ${restarted.join(', ')}`;
    }
    case 'none':
      return phase === 'Succeeded' ? 'Succeeded: every container exited with 0' : `Running and Ready${where}, no restarts`;
    default:
      return '';
  }
}

/** diagnosePod answers the question one pod's state asks. */
export function diagnosePod(input: DiagnosisInput, pod: Pod): PodDiagnosis {
  const view = podView(input, pod);
  const id = `${view.namespace}/${view.name}`;
  const question = questionOf(pod);
  if (question === 'terminating') {
    const del = deletionOf(view)!;
    return { pod: id, question, summary: terminatingSummary(view, del), causes: diagnoseTerminating(view, del) };
  }
  const causes = question === 'none' || question === 'unscheduled' ? [] : runningCauses(view, question);
  return { pod: id, question, summary: summaryOf(view, question), causes };
}

/** diagnose answers, for each pod, why it is stuck Terminating, not Ready, restarting or Failed. */
export function diagnose(input: DiagnosisInput, pods?: readonly string[]): PodDiagnosis[] {
  const traced = new Set(input.trace.map((e) => e.object).filter((o): o is string => o?.startsWith('Pod/') === true));
  const wanted = pods ? new Set(pods) : traced;
  const out: PodDiagnosis[] = [];
  for (const o of input.objects) {
    if (o.kind !== 'Pod') continue;
    const ref = `Pod/${o.metadata?.namespace ?? 'default'}/${o.metadata?.name ?? ''}`;
    if (wanted.has(ref)) out.push(diagnosePod(input, o as Pod));
  }
  return out;
}
