// The scheduling explanation of one pod: the last attempt's filter and score tables, why this node and not the others,
// the FailedScheduling message and what would make the pod schedule. Pure: it reads the trace and the facts it is given.
import type { Pod } from '../api/types';
import type { PodSchedulingTrace, SchedulingAttempt } from './attempt';
import { whyChosen, whyNotChosen } from './choice';
import type { SchedulingFacts } from './facts';
import { adviseScheduling, type Advice } from './scheduling';
import type { FilterCell, PreFilterRow, ScoreCell } from '../scheduler/framework/tables';

/** SchedulingExplanation is the `scheduling` object of a pod in `pod-lifecycle explain --json`. */
export interface SchedulingExplanation {
  /** attempts counts the scheduling cycles the pod went through. */
  attempts: number;
  /** filter is the last attempt's node × filter plugin table and the nodes that fit. */
  filter: { plugins: string[]; preFilter: PreFilterRow[]; nodes: Record<string, Record<string, FilterCell>>; feasible: string[] };
  /** scores is the last attempt's node × score plugin table (raw, normalized, weighted) and the totals. */
  scores: { plugins: { name: string; weight: number; skipped: boolean }[]; nodes: Record<string, Record<string, ScoreCell>>; totals: Record<string, number> };
  chosen?: string;
  why: string;
  /** whyNot says for each other node why it was not chosen. */
  whyNot: Record<string, string>;
  /** message is the FailedScheduling message as kube-scheduler wrote it, when no node was chosen. */
  message?: string;
  /** advice says what would make the pod schedule, one entry per distinct reason. */
  advice: Advice[];
}

const SCHEDULING_GATES_SOURCE = 'pkg/scheduler/framework/plugins/schedulinggates/scheduling_gates.go';

/** emptyExplanation is the explanation of a pod no scheduling cycle was seen for: why, and any advice. */
export function emptyExplanation(why: string, advice: Advice[] = []): SchedulingExplanation {
  return {
    attempts: 0, filter: { plugins: [], preFilter: [], nodes: {}, feasible: [] }, scores: { plugins: [], nodes: {}, totals: {} },
    why, whyNot: {}, advice,
  };
}

/** explainUnattempted says why a pod never went through a scheduling cycle: gated, bound by the manifest, another scheduler. */
export function explainUnattempted(trace: PodSchedulingTrace, pod: Pod | undefined, message: string | undefined): SchedulingExplanation {
  if (trace.gates.length > 0) {
    const reason = `waiting for scheduling gate(s): ${trace.gates.join(', ')}`;
    return emptyExplanation(`held by scheduling gates: ${trace.gates.join(', ')}`, [
      { reason, text: 'the pod waits until every entry of spec.schedulingGates is removed (by whoever added it, or kubectl edit)', source: SCHEDULING_GATES_SOURCE },
    ]);
  }
  const nodeName = pod?.spec?.nodeName;
  if (!trace.queued && nodeName) return emptyExplanation(`spec.nodeName names ${nodeName}: the pod went to that node's kubelet without the scheduler`);
  const schedulerName = pod?.spec?.schedulerName ?? 'default-scheduler';
  if (!trace.queued && schedulerName !== 'default-scheduler') {
    return emptyExplanation(`spec.schedulerName is "${schedulerName}": default-scheduler leaves the pod to that scheduler`, [
      { reason: `schedulerName ${schedulerName}`, text: 'no scheduler of that name runs in the simulated cluster: remove spec.schedulerName to use default-scheduler', source: 'pkg/scheduler/eventhandlers.go' },
    ]);
  }
  const out = emptyExplanation(message ? `not scheduled: ${message}` : 'the scheduler has not taken the pod');
  if (message) out.message = message;
  return out;
}

/** explainAttempt explains one attempt (the last one) given the facts of the cluster at that time. */
export function explainAttempt(attempt: SchedulingAttempt, attempts: number, facts: SchedulingFacts): SchedulingExplanation {
  const out: SchedulingExplanation = {
    attempts,
    filter: { plugins: attempt.filterPlugins, preFilter: attempt.preFilter, nodes: attempt.filter, feasible: attempt.feasible },
    scores: { plugins: attempt.scorePlugins, nodes: attempt.scores, totals: attempt.totals },
    why: whyChosen(attempt),
    whyNot: whyNotChosen(attempt, facts),
    advice: attempt.chosen ? [] : adviseScheduling(attempt, facts),
  };
  if (attempt.chosen) out.chosen = attempt.chosen;
  else if (attempt.message) out.message = attempt.message;
  return out;
}
