// One scheduling cycle of one pod, as kube-scheduler's schedulingCycle runs it up to the choice of a node, then Reserve,
// Permit and the binding cycle. See pkg/scheduler/schedule_one.go (schedulingCycle, schedulePod, prioritizeNodes,
// bindingCycle) and runtime/framework.go.
import { objectRef, type ObjectRef, type Pod } from '../../api/types';
import { objectPath, podPath } from '../../cluster/storage-keys';
import type { Random } from '../../runtime/random';
import { quietEntry, type TraceInput } from '../../runtime/recorder';
import { sleep, type Steps } from '../../runtime/step';
import { fitErrorMessage, PodScheduledReason } from '../messages';
import { IN_TREE_REGISTRY } from '../plugins/registry';
import { CycleState } from './cycle-state';
import type { ObjectWrite } from './interfaces';
import { Code, newStatus, Status, viewOf, type PluginStatus } from './status';
import type { FitError } from './diagnosis';
import { findNodesThatFitPod, numFeasibleNodesToFind, type FilterPass } from './filter';
import { Framework } from './framework';
import { DEFAULT_PROFILE } from './profile';
import { runScorePlugins, scoreTotals, type NodePluginScores, type PluginScores } from './score';
import type { Snapshot } from './snapshot';
import type { Listers } from './listers';
import { fillFilter, fillPostFilter, fillScores, newTables, type DecisionTables } from './tables';
import { filterEntries, filterSummary, postFilterEntries, quietEntries, scoreEntries, scoreSummary, unschedulableSummary, type TraceContext } from './trace';

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
  /** state is the cycle state to use, when the caller goes on to Reserve and bind with it; a new one by default. */
  state?: CycleState;
  /**
   * tableLimit is the most nodes a cycle keeps its per-node tables for in its trace entries (Infinity by default): a
   * cycle on more nodes says the size instead, so a run that no front will read them in costs R + N, not R × N.
   */
  tableLimit?: number;
  /**
   * quiet is set when the trace keeps nothing of the pod (a summary past its workload's first pods): the cycle decides
   * as ever, and its Filter and Score entries are made without their tables, results or details.
   */
  quiet?: boolean;
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
  const ctx: TraceContext = { pod, ref: objectRef('Pod', pod.metadata?.namespace, pod.metadata?.name ?? ''), fw, tables: newTables(fw, snapshot), tableLimit: input.tableLimit ?? Infinity, quiet: input.quiet === true };
  const start = input.nextStartNodeIndex ?? 0;
  const base = { pod: ctx.ref, evaluatedNodes: 0, feasibleNodes: 0, nextStartNodeIndex: start, tables: ctx.tables };
  fw.startCycle(snapshot, input.random, input.listers);
  if (snapshot.numNodes === 0) {
    yield filterSummary(ctx, [], { message: ERR_NO_NODES_AVAILABLE });
    return { ...base, outcome: ScheduleOutcome.Unschedulable, reason: PodScheduledReason.Unschedulable, message: ERR_NO_NODES_AVAILABLE };
  }
  const state = input.state ?? new CycleState();
  const percentage = fw.profile.percentageOfNodesToScore ?? input.percentageOfNodesToScore ?? 0;
  let pass: FilterPass;
  try {
    pass = findNodesThatFitPod(fw, state, pod, { snapshot, nextStartNodeIndex: start, percentageOfNodesToScore: percentage });
  } catch (err) {
    return errorResult(base, err);
  }
  const counts = { ...base, nextStartNodeIndex: pass.nextStartNodeIndex, evaluatedNodes: pass.feasible.length + pass.diagnosis.nodeToStatus.size, feasibleNodes: pass.feasible.length };
  if (ctx.quiet && pass.feasible.length > 0 && !pass.error) return yield* quietCycle(ctx, state, pass, counts, input.random);
  fillFilter(ctx.tables, fw, pass, state.skipFilterPlugins);
  if (pass.error) return errorResult(counts, pass.error.message());
  const feasible = pass.feasible.map((ni) => ni.name);
  yield filterSummary(ctx, feasible, {
    evaluatedNodes: counts.evaluatedNodes,
    numFeasibleNodesToFind: numFeasibleNodesToFind(percentage, snapshot.numNodes),
    nextStartNodeIndex: pass.nextStartNodeIndex,
    ...(pass.nominatedNode ? { nominatedNode: pass.nominatedNode } : {}),
  }, pass.nominated);
  // The phase-level summary comes first, then one sub-step per plugin, so stepping in walks the plugins.
  yield filterEntries(ctx);
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
    yield postFilterEntries(ctx, run);
    return result;
  }
  result.message = fitErrorMessage(fitError);
  yield unschedulableSummary(ctx, result.message, { reason: result.reason, unschedulablePlugins: [...pass.diagnosis.unschedulablePlugins].sort() });
  return result;
}

function* prioritize(ctx: TraceContext, state: CycleState, pass: FilterPass, counts: Counts, random: Random): Steps<ScheduleResult> {
  const scored = scoreFeasible(ctx, state, pass, counts);
  if ('failed' in scored) return scored.failed;
  fillScores(ctx.tables, pass.feasible.map((ni) => ni.name), scored.perPlugin, state.skipScorePlugins);
  const { chosen, tied } = selectHost(scored.nodeScores, random);
  ctx.tables.chosen = chosen;
  yield scoreSummary(ctx, chosen, tied);
  yield scoreEntries(ctx, scored.preScore);
  return { ...counts, outcome: ScheduleOutcome.Scheduled, suggestedHost: chosen };
}

/** Scored is what PreScore and Score made of the feasible nodes, or the cycle's end when a plugin failed. */
type Scored =
  | { nodeScores: NodePluginScores[]; perPlugin: PluginScores[]; preScore: Parameters<typeof scoreEntries>[1] }
  | { failed: ScheduleResult };

/** scoreFeasible runs PreScore and Score on the feasible nodes: every plugin's scores and each node's total. */
function scoreFeasible(ctx: TraceContext, state: CycleState, pass: FilterPass, counts: Counts): Scored {
  return afterPreScore(ctx, state, pass, counts, (pre) => {
    const run = runScorePlugins(ctx.fw, state, ctx.pod, pass.feasible);
    if (run.status) return run.status.message();
    return { nodeScores: run.nodeScores, perPlugin: run.perPlugin, preScore: pre.perPlugin };
  });
}

/** totalsOfFeasible is scoreFeasible for a quiet cycle: the same PreScore and Score, each node's total alone. */
function totalsOfFeasible(ctx: TraceContext, state: CycleState, pass: FilterPass, counts: Counts): { totals: readonly number[] } | { failed: ScheduleResult } {
  return afterPreScore(ctx, state, pass, counts, () => {
    const run = scoreTotals(ctx.fw, state, ctx.pod, pass.feasible);
    return run.status ? run.status.message() : { totals: run.totals };
  });
}

/** afterPreScore runs PreScore on the feasible nodes, then `score`; an error of either (a message, or thrown) ends the cycle. */
function afterPreScore<T extends object>(
  ctx: TraceContext, state: CycleState, pass: FilterPass, counts: Counts, score: (pre: ReturnType<Framework['runPreScorePlugins']>) => T | string,
): T | { failed: ScheduleResult } {
  try {
    const pre = ctx.fw.runPreScorePlugins(state, ctx.pod, pass.feasible);
    if (pre.status) return { failed: errorResult(counts, pre.status.message()) };
    const scored = score(pre);
    return typeof scored === 'string' ? { failed: errorResult(counts, scored) } : scored;
  } catch (err) {
    return { failed: errorResult(counts, err) };
  }
}

/**
 * quietCycle ends a quiet cycle that found nodes: it scores and chooses as prioritize does, and yields as many entries,
 * empty. A cycle that finds none runs as a traced one: its tables make the FailedScheduling message.
 */
function* quietCycle(ctx: TraceContext, state: CycleState, pass: FilterPass, counts: Counts, random: Random): Steps<ScheduleResult> {
  yield quietEntries(ctx, 'scheduler.filter');
  if (pass.feasible.length === 1) {
    // One node fits: the score phase is its summary alone, as scheduleCycle's.
    yield quietEntry('scheduler.score', ctx.ref);
    return { ...counts, outcome: ScheduleOutcome.Scheduled, suggestedHost: pass.feasible[0]!.name };
  }
  const scored = totalsOfFeasible(ctx, state, pass, counts);
  if ('failed' in scored) return scored.failed;
  const chosen = pass.feasible[chooseHost(scored.totals, random)]!.name;
  yield quietEntries(ctx, 'scheduler.score');
  return { ...counts, outcome: ScheduleOutcome.Scheduled, suggestedHost: chosen };
}

/**
 * selectHost takes the node with the highest total. Ties are broken by reservoir sampling on the seeded source: the
 * k-th node tied at the top replaces the choice with probability 1/k, so every tied node is equally likely.
 * See pkg/scheduler/schedule_one.go (selectHost: cntOfMaxScore, rand.Intn(cntOfMaxScore) == 0).
 */
export function selectHost(nodeScores: readonly NodePluginScores[], random: Random): { chosen: string; tied: string[] } {
  const best = chooseHost(nodeScores.map((n) => n.totalScore), random);
  const top = nodeScores[best]!.totalScore;
  const tied = nodeScores.filter((n) => n.totalScore === top).map((n) => n.name);
  return { chosen: nodeScores[best]!.name, tied };
}

/** chooseHost is selectHost's choice alone: the index of the node chosen, drawing from `random` as selectHost does. */
function chooseHost(totals: readonly number[], random: Random): number {
  let best = -1;
  let bestScore = -Infinity;
  let tiedCount = 0;
  for (let i = 0; i < totals.length; i++) {
    const score = totals[i]!;
    if (score > bestScore) {
      best = i;
      bestScore = score;
      tiedCount = 1;
    } else if (score === bestScore) {
      tiedCount++;
      if (random.intn(tiedCount) === 0) best = i;
    }
  }
  return best;
}

function errorResult(counts: Counts, err: unknown): ScheduleResult {
  const message = typeof err === 'string' ? err : err instanceof Error ? err.message : String(err);
  return { ...counts, outcome: ScheduleOutcome.Error, reason: PodScheduledReason.SchedulerError, message };
}

/** BindingHost is what the binding cycle needs of the component: the API writes and the scheduling queue. */
export interface BindingHost {
  /** nominate writes status.nominatedNodeName before a PreBind that has work (NominatedNodeNameForExpectation). */
  nominate(pod: Pod, nodeName: string): void;
  /** done tells the queue the pod's flight is over: failures past Permit are not "unschedulable". */
  done(pod: Pod): void;
  /** write makes one of the API writes a PreBind plugin stands for. */
  write(w: ObjectWrite): void;
  /** send is what the scheduler's client does before it sends a request: wait for its rate limiter's token, if need be. */
  send(verb: string, path: string): Steps<void>;
  /** bind posts the pods/binding subresource for the Bind plugin that bound (DefaultBinder's call); it returns the API error, if any. */
  bind(pod: Pod, nodeName: string): string | undefined;
}

/** BindingInput is one assumed pod's binding: its framework and cycle state, the node, and the Permit wait if any. */
export interface BindingInput {
  fw: Framework;
  state: CycleState;
  pod: Pod;
  ref: ObjectRef;
  nodeName: string;
  host: BindingHost;
  permitWait?: { seconds: number; plugin: string };
}

/** bindStep is one scheduler.bind sub-step: one plugin at one extension point. */
export function bindStep(ref: ObjectRef, point: string, plugin: string, status: PluginStatus, result?: string, detail: Record<string, unknown> = {}): TraceInput {
  const view = viewOf(status);
  const outcome: TraceInput['outcome'] = view.code === Code.Success || view.code === Code.Skip ? 'ok' : view.code === Code.Error ? 'failed' : view.code === Code.Wait ? 'waiting' : 'rejected';
  const said = view.code === Code.Success ? 'ok' : `${view.code}${view.reasons.length ? `: ${view.reasons.join(', ')}` : ''}`;
  return { phase: 'scheduler.bind', object: ref, step: { kind: 'plugin', name: plugin }, result: result ?? `${point} ${plugin}: ${said}`, detail: { extensionPoint: point, ...view, ...detail }, outcome };
}

/** reserveAndPermit ends the scheduling cycle of an assumed pod: Reserve (Unreserve on failure), then Permit. */
export function* reserveAndPermit(fw: Framework, state: CycleState, pod: Pod, ref: ObjectRef, nodeName: string): Steps<{ status: PluginStatus; wait?: { seconds: number; plugin: string } }> {
  const reserve = fw.runReservePluginsReserve(state, pod, nodeName);
  for (const [name, s] of reserve.perPlugin) yield bindStep(ref, 'Reserve', name, s);
  if (reserve.status) {
    yield* unreserve(fw, state, pod, ref, nodeName);
    return { status: reserve.status };
  }
  const permit = fw.runPermitPlugins(state, pod, nodeName);
  for (const [name, s] of permit.perPlugin) yield bindStep(ref, 'Permit', name, s);
  if (permit.status && permit.status.code !== Code.Wait) {
    yield* unreserve(fw, state, pod, ref, nodeName);
    return { status: permit.status };
  }
  return permit.waitSeconds !== undefined ? { status: null, wait: { seconds: permit.waitSeconds, plugin: permit.waitPlugin ?? '' } } : { status: null };
}

/** unreserve runs Unreserve in reverse order, one sub-step each. */
export function* unreserve(fw: Framework, state: CycleState, pod: Pod, ref: ObjectRef, nodeName: string): Steps<void> {
  for (const name of fw.runReservePluginsUnreserve(state, pod, nodeName)) yield bindStep(ref, 'Unreserve', name, null);
}

/**
 * bindingCycle is schedule_one.go's bindingCycle: PreBindPreFlight (and the nomination), the Permit wait, PreBind with
 * the writes it stands for, Bind, PostBind. It returns null when the pod is bound, else the failure.
 */
export function* bindingCycle(b: BindingInput): Steps<PluginStatus> {
  const { fw, state, pod, ref, nodeName, host } = b;
  const preFlight = fw.runPreBindPreFlights(state, pod, nodeName);
  if (preFlight.status && (preFlight.status.code === Code.Error || isRejectedCode(preFlight.status.code))) return preFlight.status;
  if (preFlight.status === null || b.permitWait) {
    // The nomination is a status PATCH through the scheduler's client (updatePod), which waits for its limiter.
    yield* host.send('PATCH', podPath(pod.metadata?.namespace, pod.metadata?.name ?? '', 'status'));
    host.nominate(pod, nodeName);
    yield { phase: 'scheduler.bind', object: ref, field: 'status.nominatedNodeName', step: { kind: 'plugin', name: 'PreBindPreFlight' }, result: `nominatedNodeName set to ${nodeName}: PreBind has work to do before the binding`, detail: { nominatedNodeName: nodeName, preFlight: Object.fromEntries(preFlight.perPlugin.map(([n, s]) => [n, viewOf(s)])) } };
  }
  if (b.permitWait) {
    const { seconds, plugin } = b.permitWait;
    yield { phase: 'scheduler.bind', object: ref, step: { kind: 'plugin', name: plugin }, result: `Permit ${plugin}: waiting up to ${seconds}s`, detail: { extensionPoint: 'Permit', timeoutSeconds: seconds }, outcome: 'waiting' };
    yield* sleep(seconds * 1000);
    return new Status(Code.Unschedulable, [`rejected due to timeout after waiting ${seconds}s at plugin ${plugin}`], plugin);
  }
  host.done(pod);
  const preBind = fw.runPreBindPlugins(state, pod, nodeName, preFlight.skip);
  for (const [name, s] of preBind.perPlugin) {
    yield bindStep(ref, 'PreBind', name, s);
    const plugin = fw.preBindPlugins.find((p) => p.name === name);
    if (s !== null || !plugin?.preBindWrites) continue;
    for (const w of plugin.preBindWrites(state, pod, nodeName)) {
      // The scheduler's own writes go through its client; those it waits for are the controllers'.
      if (w.by === SCHEDULER_WRITER) yield* host.send(w.verb === 'create' ? 'POST' : 'PUT', writePath(w));
      host.write(w);
      const target = objectRef(String(w.object.kind), w.object.metadata?.namespace, w.object.metadata?.name ?? '');
      yield bindStep(ref, 'PreBind', name, null, `PreBind ${name}: ${w.by} ${w.verb}s ${target}${w.subresource ? `/${w.subresource}` : ''}`, { write: { verb: w.verb, object: target, by: w.by } });
    }
  }
  if (preBind.status) return preBind.status;
  const bind = fw.runBindPlugins(state, pod, nodeName);
  const binder = bind.perPlugin.at(-1)?.[0] ?? '';
  if (bind.status) {
    for (const [name, s] of bind.perPlugin) yield bindStep(ref, 'Bind', name, s);
    return bind.status;
  }
  yield* host.send('POST', podPath(pod.metadata?.namespace, pod.metadata?.name ?? '', 'binding'));
  const err = host.bind(pod, nodeName);
  if (err !== undefined) {
    const status = newStatus(Code.Error, `running Bind plugin "${binder}": ${err}`);
    yield bindStep(ref, 'Bind', binder, status);
    return status;
  }
  const name = pod.metadata?.name ?? '';
  yield bindStep(ref, 'Bind', binder, null, `Bind ${binder}: POST pods/${name}/binding to ${nodeName}`, { node: nodeName });
  for (const plugin of fw.runPostBindPlugins(state, pod, nodeName)) yield bindStep(ref, 'PostBind', plugin, null);
  return null;
}

/** SCHEDULER_WRITER is the writer of the PreBind writes kube-scheduler makes itself (through its client). */
const SCHEDULER_WRITER = 'kube-scheduler';

/** writePath is the request path of a PreBind write: the collection for a create, the object (or its status) else. */
function writePath(w: ObjectWrite): string {
  const { kind, apiVersion, metadata } = w.object;
  return objectPath(String(kind), String(apiVersion ?? 'v1'), metadata?.namespace, w.verb === 'create' ? undefined : (metadata?.name ?? ''), w.subresource);
}

function isRejectedCode(code: string): boolean {
  return code === Code.Unschedulable || code === Code.UnschedulableAndUnresolvable || code === Code.Pending;
}
