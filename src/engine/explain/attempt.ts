// Reads a pod's scheduling attempts back from the trace: the Decision tables the scheduler's entries carry in `detail`.
// The shapes are those of scheduler/framework/trace.ts (filterEntries, scoreEntries, the phase summaries).
import type { ObjectRef } from '../api/types';
import type { TraceEntry } from '../runtime/recorder';
import type { DecisionTables, FilterCell, PreFilterRow, ScoreCell } from '../scheduler/framework/tables';
import type { StatusView } from '../scheduler/framework/status';

/** SchedulingAttempt is one scheduling cycle of a pod: its Decision tables and how the cycle ended. */
export interface SchedulingAttempt extends DecisionTables {
  /** seq is the trace entry that opened the attempt (the scheduler.filter summary). */
  seq: number;
  /** feasible are the nodes that passed every filter. */
  feasible: string[];
  /** tied are the nodes that shared the highest total when there was a tie. */
  tied: string[];
  /** message is the FailedScheduling message when no node was chosen. */
  message?: string;
  /** nominated lists, by node, the nominated pods the filters counted as running there (namespace/name). */
  nominated?: Record<string, string[]>;
}

/** PodSchedulingTrace is what the trace says of one pod's way through the scheduler. */
export interface PodSchedulingTrace {
  /** queued tells whether kube-scheduler ever took the pod. */
  queued: boolean;
  /** gates are the scheduling gates that held the pod at its last pop, if any. */
  gates: string[];
  attempts: SchedulingAttempt[];
  /** bound is the node of the binding, when the pod was bound. */
  bound?: string;
}

type Detail = Record<string, unknown>;

const asRecord = <T>(v: unknown): Record<string, T> => (v && typeof v === 'object' ? (v as Record<string, T>) : {});
const asStrings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);

function newAttempt(seq: number, detail: Detail): SchedulingAttempt {
  const a: SchedulingAttempt = {
    seq, nodes: [], evaluated: [], preFilter: [], filterPlugins: [], filter: {}, postFilter: [], scorePlugins: [], scores: {}, totals: {},
    feasible: asStrings(detail.feasible), tied: [],
  };
  if (typeof detail.message === 'string') a.message = detail.message;
  const nominated = Object.entries(asRecord<unknown>(detail.nominatedPods)).map(([node, pods]) => [node, asStrings(pods)] as const);
  if (nominated.length > 0) a.nominated = Object.fromEntries(nominated);
  return a;
}

function readFilterStep(a: SchedulingAttempt, plugin: string, detail: Detail): void {
  if (detail.preFilter) a.preFilter.push(detail.preFilter as PreFilterRow);
  if (detail.extensionPoint !== 'Filter') return;
  a.filterPlugins.push(plugin);
  for (const [node, cell] of Object.entries(asRecord<FilterCell>(detail.nodes))) {
    (a.filter[node] ??= {})[plugin] = cell;
    if (!a.evaluated.includes(node)) a.evaluated.push(node);
  }
}

function readScoreStep(a: SchedulingAttempt, plugin: string, detail: Detail): void {
  a.scorePlugins.push({ name: plugin, weight: typeof detail.weight === 'number' ? detail.weight : 1, skipped: detail.skipped === true });
  for (const [node, cell] of Object.entries(asRecord<ScoreCell>(detail.nodes))) (a.scores[node] ??= {})[plugin] = cell;
}

function readScoreSummary(a: SchedulingAttempt, detail: Detail): void {
  a.totals = { ...asRecord<number>(detail.totals) };
  if (typeof detail.chosen === 'string') a.chosen = detail.chosen;
  a.tied = asStrings(detail.tied);
}

/** readEntry folds one scheduler entry of an attempt into its tables. */
function readEntry(a: SchedulingAttempt, e: TraceEntry): void {
  const plugin = e.step?.kind === 'plugin' ? e.step.name : undefined;
  if (e.phase === 'scheduler.filter' && plugin) readFilterStep(a, plugin, e.detail);
  else if (e.phase === 'scheduler.postFilter' && plugin) a.postFilter.push({ plugin, ...(e.detail as unknown as StatusView) });
  else if (e.phase === 'scheduler.postFilter' && typeof e.detail.message === 'string') a.message = e.detail.message;
  else if (e.phase === 'scheduler.score' && plugin) readScoreStep(a, plugin, e.detail);
  else if (e.phase === 'scheduler.score') readScoreSummary(a, e.detail);
}

/**
 * readSchedulingTrace collects a pod's scheduling attempts from the trace: each scheduler.filter summary opens one, the
 * entries after it fill its tables. `nodes` (the cluster's nodes in the scheduler's order) fills each attempt's node list.
 */
export function readSchedulingTrace(trace: readonly TraceEntry[], pod: ObjectRef, nodes: readonly string[] = []): PodSchedulingTrace {
  const out: PodSchedulingTrace = { queued: false, gates: [], attempts: [] };
  let current: SchedulingAttempt | undefined;
  for (const e of trace) {
    if (e.object !== pod || !e.phase.startsWith('scheduler.')) continue;
    if (e.phase === 'scheduler.queue') {
      out.queued = true;
      out.gates = e.outcome === 'waiting' ? asStrings(e.detail.schedulingGates) : [];
      current = undefined;
    } else if (e.phase === 'scheduler.filter' && !e.step) {
      current = newAttempt(e.seq, e.detail);
      out.attempts.push(current);
    } else if (e.phase === 'scheduler.bind') {
      if (typeof e.detail.node === 'string') out.bound = e.detail.node;
    } else if (current) {
      readEntry(current, e);
    }
  }
  for (const a of out.attempts) a.nodes = nodes.length > 0 ? [...nodes] : [...new Set([...a.evaluated, ...a.feasible])];
  return out;
}
