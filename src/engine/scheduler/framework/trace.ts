// The trace of a scheduling cycle: one entry per plugin at Filter, PostFilter and Score, and one summary per phase.
// The entries read the Decision tables; plugins never record anything themselves.
import type { ObjectRef, Pod } from '../../api/types';
import { quietSteps, type TraceInput } from '../../runtime/recorder';
import type { Framework, PostFilterRun } from './framework';
import { lazyProperty } from './lazy';
import { ExtensionPoint, isFilterPlugin, isPreFilterPlugin, type Plugin, type PostFilterResult } from './interfaces';
import { Code, viewOf, type PluginStatus } from './status';
import {
  filterTally, NOT_RUN, numTableNodes, scoredNodes, type DecisionTables, type FilterCell, type FilterTally, type ScoreCell,
} from './tables';

/** TraceContext is what every entry of a cycle shares. */
export interface TraceContext {
  pod: Pod;
  ref: ObjectRef;
  fw: Framework;
  tables: DecisionTables;
  /** tableLimit is the most nodes whose per-node tables the entries keep; beyond it they say the size (ScheduleCycleInput). */
  tableLimit: number;
  /** quiet is set when the trace keeps nothing of the pod (ScheduleCycleInput): the entries are made without content. */
  quiet: boolean;
}

/**
 * quietEntries are a quiet cycle's entries of one phase: its summary and one per plugin, as many as a cycle that is
 * traced makes (the entries are numbered the same), with neither result nor detail, which nothing reads.
 */
export function quietEntries(ctx: TraceContext, phase: 'scheduler.filter' | 'scheduler.score'): TraceInput[] {
  const plugins = phase === 'scheduler.filter' ? filterPhasePlugins(ctx.fw) : ctx.tables.scorePlugins;
  return quietSteps(phase, ctx.ref, 'plugin', plugins.map((p) => p.name));
}

/** TABLE_LEFT_OUT is what stands for a per-node table a cycle does not keep: how many nodes it had. */
export function tableLeftOut(nodes: number): string {
  return `… a table of ${nodes} nodes (--trace full)`;
}

/** CUT remembers the lists already cut to a limit, which a report writer then leaves as they are. */
const CUT = new WeakSet<readonly unknown[]>();

/** cutList keeps the first `limit` items of a longer list and a note of how many more there were. */
export function cutList<T>(list: readonly T[], limit: number): readonly (T | string)[] {
  if (list.length <= limit) return list;
  const kept = [...list.slice(0, limit), `… ${list.length - limit} more (--trace full)`];
  CUT.add(kept);
  return kept;
}

/** isCut tells whether cutList made a list. */
export function isCut(list: readonly unknown[]): boolean {
  return CUT.has(list);
}

/** tableProperty makes a per-node table of an entry's detail, laid out when read, or its size when over the limit. */
function tableProperty(ctx: TraceContext, detail: Record<string, unknown>, key: string, compute: () => unknown): void {
  const nodes = numTableNodes(ctx.tables);
  if (nodes > ctx.tableLimit) detail[key] = tableLeftOut(nodes);
  else lazyProperty(detail, key, compute, nodes);
}

/** MAX_NAMES_IN_RESULT caps the node names a one-line result lists. */
export const MAX_NAMES_IN_RESULT = 5;

/** listNames prints at most a few names, then how many more. */
export function listNames(names: readonly string[]): string {
  if (names.length <= MAX_NAMES_IN_RESULT) return names.join(', ');
  return `${names.slice(0, MAX_NAMES_IN_RESULT).join(', ')} and ${names.length - MAX_NAMES_IN_RESULT} more`;
}

/**
 * pluginEntry makes the entry of one plugin's sub-step, with the manifest field the plugin reads when it names one. The
 * two literals keep the keys in the entry's usual order; object spreads of entries of varying shapes cost microseconds
 * each in V8, and a cycle makes a score entry and a filter entry per plugin.
 */
function pluginEntry(
  ctx: TraceContext, plugin: Plugin | undefined, point: ExtensionPoint, phase: TraceInput['phase'], name: string,
  result: string, detail: Record<string, unknown>, outcome: TraceInput['outcome'],
): TraceInput {
  const step = { kind: 'plugin' as const, name };
  const f = (outcome === 'rejected' ? plugin?.rejectionFieldPath?.(ctx.pod, result) : undefined) ?? plugin?.fieldPath?.(ctx.pod, point);
  if (f) return { phase, object: ctx.ref, field: f, step, result, detail, outcome };
  return { phase, object: ctx.ref, step, result, detail, outcome };
}

/**
 * filterEntries makes one scheduler.filter entry per Filter (or PreFilter-only) plugin with its verdict on every node it
 * was checked on. The one-line result is counted from the tables' compact data; the per-node cells are laid out when
 * the entry's detail.nodes is first read.
 */
export function filterEntries(ctx: TraceContext): TraceInput[] {
  const out: TraceInput[] = [];
  const t = ctx.tables;
  for (const plugin of filterPhasePlugins(ctx.fw)) {
    const pre = t.preFilter.find((r) => r.plugin === plugin.name);
    const extensionPoint = isFilterPlugin(plugin) ? ExtensionPoint.Filter : ExtensionPoint.PreFilter;
    const detail: Record<string, unknown> = { extensionPoint, nodes: {} };
    const nodes = (): Record<string, FilterCell> => filterCells(t, plugin.name);
    tableProperty(ctx, detail, 'nodes', nodes);
    if (pre) detail.preFilter = pre;
    const cells = () => (typeof detail.nodes === 'string' ? nodes() : (detail.nodes as Record<string, FilterCell>));
    const { result, outcome } = filterResult(plugin.name, pre, () => filterTally(t, plugin.name) ?? tallyCells(cells()));
    out.push(pluginEntry(ctx, plugin, ExtensionPoint.Filter, 'scheduler.filter', plugin.name, result, detail, outcome));
  }
  return out;
}

const filterPhase = new WeakMap<Framework, readonly Plugin[]>();

/** filterPhasePlugins are the framework's PreFilter and Filter plugins in profile order, listed once per framework. */
function filterPhasePlugins(fw: Framework): readonly Plugin[] {
  let plugins = filterPhase.get(fw);
  if (!plugins) {
    plugins = [...fw.plugins.values()].filter((p) => isPreFilterPlugin(p) || isFilterPlugin(p));
    filterPhase.set(fw, plugins);
  }
  return plugins;
}

/** filterCells picks one plugin's cell of every evaluated node from the filter table. */
function filterCells(t: DecisionTables, plugin: string): Record<string, FilterCell> {
  const nodes: Record<string, FilterCell> = {};
  for (const node of t.evaluated) {
    const cell = t.filter[node]?.[plugin];
    if (cell) nodes[node] = cell;
  }
  return nodes;
}

/** tallyCells counts a plugin's cells: those that ran, those that rejected, and the distinct reasons. */
function tallyCells(nodes: Record<string, FilterCell>): FilterTally {
  const ran = Object.values(nodes).filter((c) => c.code !== NOT_RUN);
  const rejected = ran.filter((c) => c.code !== Code.Success && c.code !== Code.Skip);
  return { ran: ran.length, rejected: rejected.length, reasons: [...new Set(rejected.flatMap((c) => c.reasons))] };
}

function filterResult(name: string, pre: { code: Code; reasons: string[] } | undefined, tally: () => FilterTally): { result: string; outcome: TraceInput['outcome'] } {
  if (pre && pre.code === Code.Skip) return { result: `${name} skipped: its PreFilter found nothing to check`, outcome: 'ok' };
  if (pre && pre.code === Code.Error) return { result: `${name} failed: ${pre.reasons.join(', ')}`, outcome: 'failed' };
  if (pre && pre.code !== Code.Success) return { result: `${name} rejected the pod at PreFilter: ${pre.reasons.join(', ')}`, outcome: 'rejected' };
  const { ran, rejected, reasons } = tally();
  if (ran === 0) return { result: `${name} did not run on any node`, outcome: 'ok' };
  if (rejected === 0) return { result: `${name} passed ${ran} of ${ran} nodes`, outcome: 'ok' };
  return { result: `${name} rejected ${rejected} of ${ran} nodes: ${reasons.join(', ')}`, outcome: 'rejected' };
}

/**
 * filterSummary is the phase-level scheduler.filter entry: which nodes fit, and the nodes filtered with the pods
 * nominated to them (of the pod's priority or higher) counted as if they ran there.
 */
export function filterSummary(ctx: TraceContext, feasible: readonly string[], detail: Record<string, unknown>, nominated?: ReadonlyMap<string, readonly string[]>): TraceInput {
  const total = numTableNodes(ctx.tables);
  let result = feasible.length === 0 ? `0 of ${total} nodes fit` : `${feasible.length} of ${total} nodes fit: ${listNames(feasible)}`;
  if (nominated) {
    const each = [...nominated].map(([node, pods]) => `${pods.join(', ')} on ${node}`);
    result += `; counted as running there (nominated, with a priority as high or higher): ${listNames(each)}`;
  }
  // Over the table limit the feasible nodes are cut as a summary cuts lists: the first ones, and how many more.
  return {
    phase: 'scheduler.filter', object: ctx.ref, result,
    detail: { feasible: cutList(feasible, ctx.tableLimit), ...detail, ...(nominated ? { nominatedPods: Object.fromEntries(nominated) } : {}) },
    outcome: feasible.length === 0 ? 'rejected' : 'ok',
  };
}

/** postFilterEntries makes one scheduler.postFilter entry per PostFilter plugin that ran. */
export function postFilterEntries(ctx: TraceContext, run: PostFilterRun): TraceInput[] {
  const out: TraceInput[] = [];
  for (const [name, output] of run.perPlugin) {
    const plugin = ctx.fw.plugins.get(name);
    const view = viewOf(output.status);
    const result = view.code === Code.Success
      ? successfulPostFilter(name, output.result)
      : `${name}: ${view.reasons.join(', ')}`;
    const detail: Record<string, unknown> = { ...view, ...(output.result?.detail ?? {}) };
    if (output.result?.nominatedNodeName !== undefined) detail.nominatedNodeName = output.result.nominatedNodeName;
    const outcome: TraceInput['outcome'] = view.code === Code.Error ? 'failed' : view.code === Code.Success ? 'ok' : 'rejected';
    out.push(pluginEntry(ctx, plugin, ExtensionPoint.PostFilter, 'scheduler.postFilter', name, result, detail, outcome));
  }
  return out;
}

/** successfulPostFilter tells what a PostFilter plugin that made room did: the node it nominated and the victims it chose. */
function successfulPostFilter(name: string, result: PostFilterResult | undefined): string {
  const node = result?.nominatedNodeName;
  const victims = result?.detail?.['victims'];
  const names = Array.isArray(victims) ? victims.map((v: { namespace?: string; name?: string }) => `${v.namespace ?? ''}/${v.name ?? ''}`) : [];
  if (!node) return `${name}: succeeded without nominating a node`;
  return names.length > 0 ? `${name}: nominated ${node}, preempting ${listNames(names)}` : `${name}: nominated ${node}`;
}

/** unschedulableSummary is the phase-level scheduler.postFilter entry carrying the FailedScheduling message. */
export function unschedulableSummary(ctx: TraceContext, message: string, detail: Record<string, unknown>): TraceInput {
  return { phase: 'scheduler.postFilter', object: ctx.ref, result: message, detail: { message, ...detail }, outcome: 'rejected' };
}

/**
 * scoreEntries makes one scheduler.score entry per Score plugin: its raw, normalized and weighted score per node, or its
 * skip. The result line reads the compact scores; the per-node cells are laid out when detail.nodes is first read.
 */
export function scoreEntries(ctx: TraceContext, preScore: ReadonlyMap<string, PluginStatus>): TraceInput[] {
  const t = ctx.tables;
  const compact = scoredNodes(t);
  const scored = compact ? compact.nodes : Object.keys(t.scores);
  return t.scorePlugins.map(({ name, weight, skipped }) => {
    const plugin = ctx.fw.plugins.get(name);
    const entry = (result: string, detail: Record<string, unknown>): TraceInput =>
      pluginEntry(ctx, plugin, ExtensionPoint.Score, 'scheduler.score', name, result, detail, 'ok');
    const pre = preScore.has(name) ? viewOf(preScore.get(name)!) : undefined;
    if (skipped) return entry(`${name} skipped: its PreScore found nothing to score`, { weight, preScore: pre, skipped: true });
    const detail: Record<string, unknown> = { weight, preScore: pre, nodes: {} };
    const nodes = (): Record<string, ScoreCell> => {
      const cells: Record<string, ScoreCell> = {};
      for (const node of Object.keys(t.scores)) cells[node] = t.scores[node]![name]!;
      return cells;
    };
    tableProperty(ctx, detail, 'nodes', nodes);
    const weighted = compact
      ? (j: number) => compact.weighted(name, j)
      : (j: number) => (typeof detail.nodes === 'string' ? nodes() : (detail.nodes as Record<string, ScoreCell>))[scored[j]!]!.weighted;
    const shown = scored.slice(0, MAX_NAMES_IN_RESULT).map((n, j) => `${n} ${weighted(j)}`).join(', ');
    const more = scored.length > MAX_NAMES_IN_RESULT ? ` and ${scored.length - MAX_NAMES_IN_RESULT} more` : '';
    return entry(`${name} (weight ${weight}): ${shown}${more}`, detail);
  });
}

/** scoreSummary is the phase-level scheduler.score entry: the totals and the chosen node. */
export function scoreSummary(ctx: TraceContext, chosen: string, tied: readonly string[]): TraceInput {
  const t = ctx.tables;
  const compact = scoredNodes(t);
  let n: number;
  let chosenTotal: () => number | undefined;
  if (compact) {
    n = compact.nodes.length;
    chosenTotal = () => {
      const j = compact.nodes.indexOf(chosen);
      return j < 0 ? undefined : compact.total(j);
    };
  } else {
    n = Object.keys(t.totals).length;
    chosenTotal = () => t.totals[chosen];
  }
  let result: string;
  if (n === 0) result = `${chosen} is the only node that fits: no scoring`;
  else if (tied.length > 1) result = `${chosen} chosen at random among ${tied.length} nodes tied at the highest score ${chosenTotal()} (of ${n} scored)`;
  else result = `${chosen} has the highest score, ${chosenTotal()}, of ${n} nodes`;
  const detail: Record<string, unknown> = { totals: {}, chosen, tied };
  tableProperty(ctx, detail, 'totals', () => t.totals);
  return { phase: 'scheduler.score', object: ctx.ref, result, detail, outcome: 'ok' };
}
