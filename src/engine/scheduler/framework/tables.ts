// The Decision view's tables: each node's verdict from each filter plugin, and each plugin's scores per node.
// The runner fills them from the framework's outcomes; the trace entries show slices of them.
import type { Framework, PostFilterRun } from './framework';
import type { FilterPass } from './filter';
import type { PluginScores } from './score';
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

const SUCCESS: FilterCell = Object.freeze({ code: Code.Success, reasons: [] as string[] }) as FilterCell;
const SKIPPED: FilterCell = Object.freeze({ code: Code.Skip, reasons: [] as string[] }) as FilterCell;
const NOT_RUN_CELL: FilterCell = Object.freeze({ code: NOT_RUN, reasons: [] as string[] }) as FilterCell;

/** newTables starts the tables with the snapshot's nodes and the profile's filter and score plugins. */
export function newTables(fw: Framework, snapshot: Snapshot): DecisionTables {
  return {
    nodes: snapshot.nodeInfoList.map((ni) => ni.name),
    evaluated: [],
    preFilter: [],
    filterPlugins: fw.filterPlugins.map((p) => p.name),
    filter: {},
    postFilter: [],
    scorePlugins: fw.scorePlugins.map((p) => ({ name: p.name, weight: fw.scoreWeights.get(p.name) ?? 1, skipped: false })),
    scores: {},
    totals: {},
  };
}

/** fillFilter records the PreFilter answers and every node's verdict per filter plugin. */
export function fillFilter(t: DecisionTables, fw: Framework, pass: FilterPass, skipped: ReadonlySet<string>): void {
  for (const [plugin, out] of pass.preFilter.perPlugin) {
    const row: PreFilterRow = { plugin, ...viewOf(out.status) };
    if (out.result?.nodeNames) row.nodeNames = [...out.result.nodeNames].sort();
    t.preFilter.push(row);
  }
  t.evaluated = [...pass.verdicts.keys()];
  const plugins = fw.filterPlugins.map((p) => p.name);
  for (const node of t.nodes) {
    const row: Record<string, FilterCell> = {};
    const verdict = pass.verdicts.get(node);
    const evaluated = pass.verdicts.has(node);
    const failedAt = verdict ? plugins.indexOf(verdict.plugin) : plugins.length;
    plugins.forEach((plugin, i) => {
      if (skipped.has(plugin)) row[plugin] = SKIPPED;
      else if (!evaluated || i > failedAt) row[plugin] = NOT_RUN_CELL;
      else if (i === failedAt && verdict) row[plugin] = { code: verdict.code, reasons: [...verdict.reasons] };
      else row[plugin] = SUCCESS;
    });
    t.filter[node] = row;
  }
}

/** fillPostFilter records each PostFilter plugin's answer. */
export function fillPostFilter(t: DecisionTables, run: PostFilterRun): void {
  for (const [plugin, out] of run.perPlugin) t.postFilter.push({ plugin, ...viewOf(out.status) });
}

/** fillScores records each scored plugin's scores per node and the totals; skipped plugins are marked. */
export function fillScores(t: DecisionTables, nodes: readonly string[], perPlugin: readonly PluginScores[], skipped: ReadonlySet<string>): void {
  for (const sp of t.scorePlugins) sp.skipped = skipped.has(sp.name);
  nodes.forEach((node, j) => {
    const row: Record<string, ScoreCell> = {};
    let total = 0;
    for (const ps of perPlugin) {
      row[ps.name] = { raw: ps.raw[j]!, normalized: ps.normalized[j]!, weighted: ps.weighted[j]! };
      total += ps.weighted[j]!;
    }
    t.scores[node] = row;
    t.totals[node] = total;
  });
}
