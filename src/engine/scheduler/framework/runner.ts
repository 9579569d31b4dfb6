// One scheduling cycle of one pod, as kube-scheduler's schedulingCycle runs it up to the choice of a node (no binding).
// See pkg/scheduler/schedule_one.go (schedulingCycle, schedulePod, prioritizeNodes) and runtime/framework.go.
import { objectRef, type ObjectRef, type Pod } from '../../api/types';
import type { Random } from '../../runtime/random';
import type { Steps } from '../../runtime/step';
import { fitErrorMessage, PodScheduledReason } from '../messages';
import { IN_TREE_REGISTRY } from '../plugins/registry';
import { CycleState } from './cycle-state';
import type { FitError } from './diagnosis';
import { findNodesThatFitPod, numFeasibleNodesToFind, type FilterPass } from './filter';
import { Framework } from './framework';
import { DEFAULT_PROFILE } from './profile';
import { runScorePlugins, type NodePluginScores } from './score';
import type { Snapshot } from './snapshot';
import type { Listers } from './listers';
import { fillFilter, fillPostFilter, fillScores, newTables, type DecisionTables } from './tables';
import { filterEntries, filterSummary, postFilterEntries, scoreEntries, scoreSummary, unschedulableSummary, type TraceContext } from './trace';

/** ERR_NO_NODES_AVAILABLE is the message of a cycle in a cluster without nodes. */
export const ERR_NO_NODES_AVAILABLE = 'no nodes available to schedule pods';

/** ScheduleOutcome is how a cycle ends. */
export const ScheduleOutcome = {
  /** Scheduled: a node was chosen; the caller assumes and binds the pod (Scheduled event). */
  Scheduled: 'Scheduled',
  /** Unschedulable: no node fits (FailedScheduling event, PodScheduled=False reason Unschedulable). */
  Unschedulable: 'Unschedulable',
  /** Error: a plugin failed (FailedScheduling event, PodScheduled=False reason SchedulerError). */
  Error: 'Error',
} as const;

/** ScheduleOutcome is one of the ScheduleOutcome values. */
export type ScheduleOutcome = (typeof ScheduleOutcome)[keyof typeof ScheduleOutcome];

/** ScheduleCycleInput is what a cycle needs; nextStartNodeIndex is kept by the caller from one cycle to the next. */
export interface ScheduleCycleInput {
  pod: Pod;
  snapshot: Snapshot;
  random: Random;
  nextStartNodeIndex?: number;
  /** framework defaults to the default profile over the in-tree registry. */
  framework?: Framework;
  /** percentageOfNodesToScore is the global setting; 0 (the default) is adaptive. */
  percentageOfNodesToScore?: number;
  /** listers give the plugins the cluster's other objects; none by default. */
  listers?: Listers;
}

/** ScheduleResult is the outcome of a cycle, with the tables of the Decision view. */
export interface ScheduleResult {
  pod: ObjectRef;
  outcome: ScheduleOutcome;
  /** suggestedHost is the chosen node when Scheduled. */
  suggestedHost?: string;
  evaluatedNodes: number;
  feasibleNodes: number;
  /** nextStartNodeIndex is where the next cycle starts filtering. */
  nextStartNodeIndex: number;
  /** message is the FailedScheduling event and PodScheduled condition message when not Scheduled. */
  message?: string;
  /** reason is the PodScheduled=False condition reason when not Scheduled. */
  reason?: (typeof PodScheduledReason)[keyof typeof PodScheduledReason];
  fitError?: FitError;
  /** nominatedNodeName is PostFilter's nomination ('' clears the pod's), when it made one. */
  nominatedNodeName?: string;
  /** postFilterDetail carries what PostFilter found (preemption candidates). */
  postFilterDetail?: Record<string, unknown>;
  tables: DecisionTables;
}

/** newDefaultFramework builds the default profile's framework over the in-tree registry. */
export function newDefaultFramework(): Framework {
  return new Framework(IN_TREE_REGISTRY, DEFAULT_PROFILE);
}

/** scheduleCycle runs one cycle, yielding a trace entry per plugin and per phase, and returns the decision. */
export function* scheduleCycle(input: ScheduleCycleInput): Steps<ScheduleResult> {
  const fw = input.framework ?? newDefaultFramework();
  const { pod, snapshot } = input;
  const ctx: TraceContext = { pod, ref: objectRef('Pod', pod.metadata?.namespace, pod.metadata?.name ?? ''), fw, tables: newTables(fw, snapshot) };
  const start = input.nextStartNodeIndex ?? 0;
  const base = { pod: ctx.ref, evaluatedNodes: 0, feasibleNodes: 0, nextStartNodeIndex: start, tables: ctx.tables };
  fw.startCycle(snapshot, input.random, input.listers);
  if (snapshot.numNodes === 0) {
    yield filterSummary(ctx, [], { message: ERR_NO_NODES_AVAILABLE });
    return { ...base, outcome: ScheduleOutcome.Unschedulable, reason: PodScheduledReason.Unschedulable, message: ERR_NO_NODES_AVAILABLE };
  }
  const state = new CycleState();
  const percentage = fw.profile.percentageOfNodesToScore ?? input.percentageOfNodesToScore ?? 0;
  let pass: FilterPass;
  try {
    pass = findNodesThatFitPod(fw, state, pod, { snapshot, nextStartNodeIndex: start, percentageOfNodesToScore: percentage });
  } catch (err) {
    return errorResult(base, err);
  }
  fillFilter(ctx.tables, fw, pass, state.skipFilterPlugins);
  const counts = { ...base, nextStartNodeIndex: pass.nextStartNodeIndex, evaluatedNodes: pass.feasible.length + pass.diagnosis.nodeToStatus.size, feasibleNodes: pass.feasible.length };
  if (pass.error) return errorResult(counts, pass.error.message());
  const feasible = pass.feasible.map((ni) => ni.name);
  yield filterSummary(ctx, feasible, {
    evaluatedNodes: counts.evaluatedNodes,
    numFeasibleNodesToFind: numFeasibleNodesToFind(percentage, snapshot.numNodes),
    nextStartNodeIndex: pass.nextStartNodeIndex,
    ...(pass.nominatedNode ? { nominatedNode: pass.nominatedNode } : {}),
  });
  // The phase-level summary comes first, then one sub-step per plugin, so stepping in walks the plugins.
  yield* filterEntries(ctx);
  if (pass.feasible.length === 0) return yield* unschedulable(ctx, state, pass, counts);
  if (pass.feasible.length === 1) {
    ctx.tables.chosen = feasible[0]!;
    yield scoreSummary(ctx, feasible[0]!, []);
    return { ...counts, outcome: ScheduleOutcome.Scheduled, suggestedHost: feasible[0]! };
  }
  return yield* prioritize(ctx, state, pass, counts, input.random);
}

/** scheduleOne runs a cycle to its end without pausing and returns the decision. */
export function scheduleOne(input: ScheduleCycleInput): ScheduleResult {
  const steps = scheduleCycle(input);
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

type Counts = Omit<ScheduleResult, 'outcome'>;

function* unschedulable(ctx: TraceContext, state: CycleState, pass: FilterPass, counts: Counts): Steps<ScheduleResult> {
  const fitError: FitError = { pod: ctx.pod, numAllNodes: ctx.tables.nodes.length, diagnosis: pass.diagnosis };
  const result: ScheduleResult = { ...counts, outcome: ScheduleOutcome.Unschedulable, reason: PodScheduledReason.Unschedulable, fitError };
  if (ctx.fw.postFilterPlugins.length > 0) {
    let run;
    try {
      run = ctx.fw.runPostFilterPlugins(state, ctx.pod, pass.diagnosis.nodeToStatus);
    } catch (err) {
      return errorResult(counts, err);
    }
    pass.diagnosis.postFilterMsg = run.status === null ? '' : run.status.message();
    fillPostFilter(ctx.tables, run);
    if (run.result?.nominatedNodeName !== undefined) result.nominatedNodeName = run.result.nominatedNodeName;
    if (run.result?.detail) result.postFilterDetail = run.result.detail;
    result.message = fitErrorMessage(fitError);
    yield unschedulableSummary(ctx, result.message, { reason: result.reason, unschedulablePlugins: [...pass.diagnosis.unschedulablePlugins].sort() });
    yield* postFilterEntries(ctx, run);
    return result;
  }
  result.message = fitErrorMessage(fitError);
  yield unschedulableSummary(ctx, result.message, { reason: result.reason, unschedulablePlugins: [...pass.diagnosis.unschedulablePlugins].sort() });
  return result;
}

function* prioritize(ctx: TraceContext, state: CycleState, pass: FilterPass, counts: Counts, random: Random): Steps<ScheduleResult> {
  const fw = ctx.fw;
  let nodeScores: NodePluginScores[];
  let preScore: Parameters<typeof scoreEntries>[1];
  try {
    const pre = fw.runPreScorePlugins(state, ctx.pod, pass.feasible);
    if (pre.status) return errorResult(counts, pre.status.message());
    const run = runScorePlugins(fw, state, ctx.pod, pass.feasible);
    if (run.status) return errorResult(counts, run.status.message());
    fillScores(ctx.tables, pass.feasible.map((ni) => ni.name), run.perPlugin, state.skipScorePlugins);
    nodeScores = fw.scorePlugins.length === 0 ? pass.feasible.map((ni) => ({ name: ni.name, scores: [], totalScore: 1 })) : run.nodeScores;
    preScore = pre.perPlugin;
  } catch (err) {
    return errorResult(counts, err);
  }
  const { chosen, tied } = selectHost(nodeScores, random);
  ctx.tables.chosen = chosen;
  yield scoreSummary(ctx, chosen, tied);
  yield* scoreEntries(ctx, preScore);
  return { ...counts, outcome: ScheduleOutcome.Scheduled, suggestedHost: chosen };
}

/**
 * selectHost takes the node with the highest total. Ties go to the highest random tie-breaker drawn per node from the
 * seeded source: a uniform pick among the tied nodes, as the scheduler's nodeScoreHeap with Randomizer does.
 */
export function selectHost(nodeScores: readonly NodePluginScores[], random: Random): { chosen: string; tied: string[] } {
  let best = -1;
  let bestScore = -Infinity;
  let bestRandomizer = -1;
  for (let i = 0; i < nodeScores.length; i++) {
    const randomizer = random.nextUint32();
    const score = nodeScores[i]!.totalScore;
    if (score > bestScore || (score === bestScore && randomizer > bestRandomizer)) {
      best = i;
      bestScore = score;
      bestRandomizer = randomizer;
    }
  }
  const tied = nodeScores.filter((n) => n.totalScore === bestScore).map((n) => n.name);
  return { chosen: nodeScores[best]!.name, tied };
}

function errorResult(counts: Counts, err: unknown): ScheduleResult {
  const message = typeof err === 'string' ? err : err instanceof Error ? err.message : String(err);
  return { ...counts, outcome: ScheduleOutcome.Error, reason: PodScheduledReason.SchedulerError, message };
}
