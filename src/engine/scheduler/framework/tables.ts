// The Decision view's tables: each node's verdict from each filter plugin, and each plugin's scores per node.
// The runner fills them from the framework's outcomes; the trace entries show slices of them. The per-node records are
// laid out on first read (lazy.ts) from compact data kept with the tables: a cycle over thousands of nodes then costs
// what its filters and scores cost, and whoever reads the tables (the debugger, a test) sees the records it always did.
import type { Framework, PostFilterRun } from './framework';
import type { FilterPass, Verdicts } from './filter';
import type { PluginScores } from './score';
import { hiddenData, lazyProperty } from './lazy';
import type { Snapshot } from './snapshot';
import { Code, viewOf, type StatusView } from './status';

/** NOT_RUN marks a plugin that did not run on a node: an earlier one rejected it, or the search stopped first. */
export const NOT_RUN = 'NotRun';

/** FilterCell is one plugin's verdict on one node. */
export interface FilterCell {
  code: Code | typeof NOT_RUN;
  reasons: string[];
}

/** PreFilterRow is one PreFilter plugin's answer. */
export interface PreFilterRow extends StatusView {
  plugin: string;
  /** nodeNames are the nodes the plugin narrowed the search to, when it did. */
  nodeNames?: string[];
}

/** ScoreCell is one plugin's score for one node: as returned, after NormalizeScore, and times the weight. */
export interface ScoreCell {
  raw: number;
  normalized: number;
  weighted: number;
}

/** DecisionTables are the full tables of a scheduling cycle. */
export interface DecisionTables {
  nodes: string[];
  /** evaluated are the nodes the filters ran on, in the order they were checked (from nextStartNodeIndex). */
  evaluated: string[];
  preFilter: PreFilterRow[];
  filterPlugins: string[];
  /** filter maps node, then plugin, to the verdict. */
  filter: Record<string, Record<string, FilterCell>>;
  postFilter: (StatusView & { plugin: string })[];
  scorePlugins: { name: string; weight: number; skipped: boolean }[];
  /** scores maps node, then plugin, to its score; only feasible nodes are scored. */
  scores: Record<string, Record<string, ScoreCell>>;
  totals: Record<string, number>;
  chosen?: string;
}

/** FilterTally is what one plugin's Filter did over the evaluated nodes: on how many it ran, how many it rejected, and why. */
export interface FilterTally {
  ran: number;
  rejected: number;
  /** reasons are the distinct reasons of the rejections, in the order the nodes are listed. */
  reasons: string[];
}

/** CompactTables is what the tables are built from; the records are made from it on first read. */
interface CompactTables {
  nodeNames: readonly string[];
  plainNodeNames: boolean;
  filter?: { verdicts: Verdicts; plugins: readonly string[]; skipped: ReadonlySet<string>; tallies?: Map<string, FilterTally> };
  score?: { nodes: readonly string[]; perPlugin: readonly PluginScores[]; totals: readonly number[] };
}

const SUCCESS: FilterCell = Object.freeze({ code: Code.Success, reasons: [] as string[] }) as FilterCell;
const SKIPPED: FilterCell = Object.freeze({ code: Code.Skip, reasons: [] as string[] }) as FilterCell;
const NOT_RUN_CELL: FilterCell = Object.freeze({ code: NOT_RUN, reasons: [] as string[] }) as FilterCell;

/** newTables starts the tables with the snapshot's nodes and the profile's filter and score plugins. */
export function newTables(fw: Framework, snapshot: Snapshot): DecisionTables {
  const t: DecisionTables = {
    nodes: [],
    evaluated: [],
    preFilter: [],
    filterPlugins: fw.filterPlugins.map((p) => p.name),
    filter: {},
    postFilter: [],
    scorePlugins: fw.scorePlugins.map((p) => ({ name: p.name, weight: fw.scoreWeights.get(p.name) ?? 1, skipped: false })),
    scores: {},
    totals: {},
  };
  const nodeNames = snapshot.nodeNames;
  lazyProperty(t, 'nodes', () => [...nodeNames]);
  hiddenData(t, (): CompactTables => ({ nodeNames, plainNodeNames: snapshot.plainNodeNames }));
  return t;
}

function compactOf(t: DecisionTables): CompactTables {
  // Tables not made by newTables (a caller's own object): its nodes are what it lists, and nothing is compact.
  return hiddenData(t, (): CompactTables => ({ nodeNames: t.nodes, plainNodeNames: false }));
}

/** numTableNodes is the number of nodes of the tables' snapshot (t.nodes.length, without listing them). */
export function numTableNodes(t: DecisionTables): number {
  return compactOf(t).nodeNames.length;
}

/** fillFilter records the PreFilter answers; every node's verdict per filter plugin is laid out when first read. */
export function fillFilter(t: DecisionTables, fw: Framework, pass: FilterPass, skipped: ReadonlySet<string>): void {
  for (const [plugin, out] of pass.preFilter.perPlugin) {
    const row: PreFilterRow = { plugin, ...viewOf(out.status) };
    if (out.result?.nodeNames) row.nodeNames = [...out.result.nodeNames].sort();
    t.preFilter.push(row);
  }
  const c = compactOf(t);
  const data = { verdicts: pass.verdicts, plugins: fw.filterPlugins.map((p) => p.name), skipped };
  c.filter = data;
  lazyProperty(t, 'evaluated', () => [...data.verdicts.evaluated]);
  lazyProperty(t, 'filter', () => filterRows(c.nodeNames, data.verdicts, data.plugins, data.skipped));
}

/** filterRows lays out each node's verdict per plugin: Skip if skipped, NotRun after the rejecting one or off the search. */
function filterRows(
  nodes: readonly string[], verdicts: Verdicts, plugins: readonly string[], skipped: ReadonlySet<string>,
): Record<string, Record<string, FilterCell>> {
  const rows: Record<string, Record<string, FilterCell>> = {};
  const checked = new Set(verdicts.evaluated);
  for (const node of nodes) {
    const row: Record<string, FilterCell> = {};
    const verdict = verdicts.rejected.get(node);
    const evaluated = checked.has(node);
    const failedAt = verdict ? plugins.indexOf(verdict.plugin) : plugins.length;
    plugins.forEach((plugin, i) => {
      if (skipped.has(plugin)) row[plugin] = SKIPPED;
      else if (!evaluated || i > failedAt) row[plugin] = NOT_RUN_CELL;
      else if (i === failedAt && verdict) row[plugin] = { code: verdict.code, reasons: [...verdict.reasons] };
      else row[plugin] = SUCCESS;
    });
    rows[node] = row;
  }
  return rows;
}

/**
 * filterTally counts one plugin's verdicts over the evaluated nodes from the compact data, as reading its cells in
 * t.filter would. It returns undefined when the cells must be read instead: node names that are array indices come
 * first among a record's keys, and the reasons' order follows the record.
 */
export function filterTally(t: DecisionTables, plugin: string): FilterTally | undefined {
  const c = compactOf(t);
  if (!c.plainNodeNames || !c.filter) return undefined;
  c.filter.tallies ??= tallyFilter(c.filter.verdicts, c.filter.plugins, c.filter.skipped);
  return c.filter.tallies.get(plugin) ?? { ran: 0, rejected: 0, reasons: [] };
}

/** tallyFilter walks the rejections once: a node rejected by plugin f was checked by plugins 0..f; a fitting node by all. */
function tallyFilter(verdicts: Verdicts, plugins: readonly string[], skipped: ReadonlySet<string>): Map<string, FilterTally> {
  const rejected = new Array<number>(plugins.length).fill(0);
  const seen: (Set<string> | undefined)[] = [];
  // reachedFrom[f + 1] counts the nodes whose last checked plugin is f (plugins.length when all passed, -1 when none ran).
  const reachedFrom = new Array<number>(plugins.length + 2).fill(0);
  reachedFrom[plugins.length + 1] = verdicts.size - verdicts.rejected.size;
  for (const verdict of verdicts.rejected.values()) {
    const failedAt = plugins.indexOf(verdict.plugin);
    reachedFrom[failedAt + 1]!++;
    if (failedAt < 0 || verdict.code === Code.Success || verdict.code === Code.Skip) continue;
    rejected[failedAt]!++;
    const reasons = (seen[failedAt] ??= new Set());
    for (const r of verdict.reasons) reasons.add(r);
  }
  const out = new Map<string, FilterTally>();
  let reached = reachedFrom[plugins.length + 1]!;
  for (let i = plugins.length - 1; i >= 0; i--) {
    reached += reachedFrom[i + 1]!;
    if (skipped.has(plugins[i]!)) out.set(plugins[i]!, { ran: verdicts.size, rejected: 0, reasons: [] });
    else out.set(plugins[i]!, { ran: reached, rejected: rejected[i]!, reasons: [...(seen[i] ?? [])] });
  }
  return out;
}

/** fillPostFilter records each PostFilter plugin's answer. */
export function fillPostFilter(t: DecisionTables, run: PostFilterRun): void {
  for (const [plugin, out] of run.perPlugin) t.postFilter.push({ plugin, ...viewOf(out.status) });
}

/** fillScores marks the skipped plugins; each scored node's cells and total are laid out when first read. */
export function fillScores(
  t: DecisionTables, nodes: readonly string[], perPlugin: readonly PluginScores[], skipped: ReadonlySet<string>,
): void {
  for (const sp of t.scorePlugins) sp.skipped = skipped.has(sp.name);
  const totals = nodes.map((_, j) => {
    let total = 0;
    for (const ps of perPlugin) total += ps.weighted[j]!;
    return total;
  });
  const c = compactOf(t);
  c.score = { nodes, perPlugin, totals };
  lazyProperty(t, 'scores', () => {
    const scores: Record<string, Record<string, ScoreCell>> = {};
    nodes.forEach((node, j) => {
      const row: Record<string, ScoreCell> = {};
      for (const ps of perPlugin) row[ps.name] = { raw: ps.raw[j]!, normalized: ps.normalized[j]!, weighted: ps.weighted[j]! };
      scores[node] = row;
    });
    return scores;
  });
  lazyProperty(t, 'totals', () => {
    const out: Record<string, number> = {};
    nodes.forEach((node, j) => (out[node] = totals[j]!));
    return out;
  });
}

/** ScoredNodes are the scored nodes in the order of t.scores' keys, with each plugin's weighted scores and the totals. */
export interface ScoredNodes {
  nodes: readonly string[];
  weighted(plugin: string, j: number): number;
  total(j: number): number;
}

/** scoredNodes reads the scores from the compact data when t.scores' keys are the nodes in order, else undefined. */
export function scoredNodes(t: DecisionTables): ScoredNodes | undefined {
  const c = compactOf(t);
  if (!c.plainNodeNames) return undefined;
  const s = c.score;
  if (!s) return { nodes: [], weighted: () => 0, total: () => 0 };
  return {
    nodes: s.nodes,
    weighted: (plugin, j) => s.perPlugin.find((ps) => ps.name === plugin)!.weighted[j]!,
    total: (j) => s.totals[j]!,
  };
}
