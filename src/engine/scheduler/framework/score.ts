// The Score extension point: every plugin scores every feasible node, normalizes, and the weights make the totals.
// See pkg/scheduler/framework/runtime/framework.go (RunScorePlugins).
import type { Pod } from '../../api/types';
import type { CycleState } from './cycle-state';
import type { Framework } from './framework';
import type { NodeScore, ScorePlugin } from './interfaces';
import type { NodeInfo } from './node-info';
import { MAX_NODE_SCORE, MIN_NODE_SCORE } from './profile';
import { Code, isSuccess, newStatus, type Status } from './status';

/** PluginScores is one plugin's scores, one per node in the order of the nodes scored. */
export interface PluginScores {
  readonly name: string;
  readonly weight: number;
  readonly raw: readonly number[];
  readonly normalized: readonly number[];
  /** weighted is normalized × weight. */
  readonly weighted: readonly number[];
}

/** NodePluginScores is one node's weighted score per plugin and total (framework.NodePluginScores). */
export interface NodePluginScores {
  name: string;
  scores: { name: string; score: number }[];
  totalScore: number;
}

/** ScoreRun is the outcome of the Score extension point: per-node totals and per-plugin tables, or an Error status. */
export type ScoreRun = { nodeScores: NodePluginScores[]; perPlugin: PluginScores[]; status: null } | { status: Status };

/** ScoreTotals is the outcome of the Score extension point reduced to each node's total, or an Error status. */
export type ScoreTotals = { totals: readonly number[]; status: null } | { status: Status };

/**
 * runScorePlugins runs Score on every node for the plugins PreScore did not skip, then NormalizeScore, then the weights.
 * Scores are kept in plain arrays, one per plugin (a plugin without NormalizeScore has its raw scores as normalized ones).
 */
export function runScorePlugins(fw: Framework, state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): ScoreRun {
  const plugins = fw.scorePlugins.filter((pl) => !state.skipScorePlugins.has(pl.name));
  const n = nodes.length;
  const raws = plugins.map(() => new Array<number>(n));
  const normalized = plugins.map((pl, i) => (pl.normalizeScore ? new Array<number>(n) : raws[i]!));
  const failed = scoreAndNormalize(plugins, state, pod, nodes, raws, normalized);
  if (failed) return { status: failed };
  const perPlugin = plugins.map((pl, i) => new Scores(pl.name, fw.scoreWeights.get(pl.name) ?? 1, raws[i]!, normalized[i]!));
  const totals = new Array<number>(n).fill(startingTotal(fw));
  const invalid = addWeighted(perPlugin, totals);
  if (invalid) return { status: invalid };
  const nodeScores = nodes.map((ni, j): NodePluginScores => new NodeScores(ni.name, totals[j]!, j, perPlugin));
  return { nodeScores, perPlugin, status: null };
}

/**
 * scoreTotals is runScorePlugins for a cycle that keeps no table: the same scores, normalizations, checks and totals, in
 * the same order, made in arrays it uses again from one cycle to the next. The totals it returns are valid until the
 * next call.
 */
export function scoreTotals(fw: Framework, state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): ScoreTotals {
  const plugins = fw.scorePlugins.filter((pl) => !state.skipScorePlugins.has(pl.name));
  const n = nodes.length;
  const raws = REUSED.rows(plugins.length, n);
  // Normalizing writes the scores over the raw ones, which nothing reads afterwards.
  const failed = scoreAndNormalize(plugins, state, pod, nodes, raws, raws);
  if (failed) return { status: failed };
  const totals = REUSED.totals(n).fill(startingTotal(fw));
  const invalid = addWeighted(plugins.map((pl, i) => ({ name: pl.name, weight: fw.scoreWeights.get(pl.name) ?? 1, normalized: raws[i]! })), totals);
  return invalid ? { status: invalid } : { totals, status: null };
}

/**
 * startingTotal is what each node's total starts from: 0, or 1 for every node when the profile has no Score plugin at
 * all (prioritizeNodes in pkg/scheduler/schedule_one.go: `TotalScore: 1` when !HasScorePlugins()).
 */
function startingTotal(fw: Framework): number {
  return fw.scorePlugins.length === 0 ? 1 : 0;
}

/** scoreAndNormalize fills each plugin's raw scores (all plugins first, as Kubernetes does), then its normalized ones. */
function scoreAndNormalize(
  plugins: readonly ScorePlugin[], state: CycleState, pod: Pod, nodes: readonly NodeInfo[], raws: number[][], normalized: number[][],
): Status | undefined {
  const n = nodes.length;
  for (let i = 0; i < plugins.length; i++) {
    const pl = plugins[i]!;
    const raw = raws[i]!;
    for (let j = 0; j < n; j++) {
      const s = pl.score(state, pod, nodes[j]!);
      if (typeof s !== 'number') {
        const msg = s === null ? 'no score' : s.message();
        return newStatus(Code.Error, `running Score plugins: plugin "${pl.name}" failed with: ${msg}`);
      }
      raw[j] = s;
    }
  }
  for (let i = 0; i < plugins.length; i++) {
    const pl = plugins[i]!;
    if (!pl.normalizeScore) continue;
    // NormalizeScore takes a NodeScoreList; its entries are used again for each plugin and each cycle.
    const list = REUSED.nodeScores(nodes);
    const raw = raws[i]!;
    for (let j = 0; j < n; j++) list[j]!.score = raw[j]!;
    const status = pl.normalizeScore(state, pod, list);
    if (!isSuccess(status)) {
      return newStatus(Code.Error, `running Normalize on Score plugins: plugin "${pl.name}" failed with: ${status!.message()}`);
    }
    const out = normalized[i]!;
    for (let j = 0; j < n; j++) out[j] = list[j]!.score;
  }
  return undefined;
}

/** addWeighted adds each plugin's normalized score × weight to the nodes' totals, after checking it is in range. */
function addWeighted(perPlugin: readonly Pick<PluginScores, 'name' | 'weight' | 'normalized'>[], totals: number[]): Status | undefined {
  for (const ps of perPlugin) {
    const normalized = ps.normalized;
    for (let j = 0; j < totals.length; j++) {
      const score = normalized[j]!;
      if (score > MAX_NODE_SCORE || score < MIN_NODE_SCORE) {
        return newStatus(Code.Error, `applying score defaultWeights on Score plugins: plugin "${ps.name}" returns an invalid score ${score}, it should in the range of [${MIN_NODE_SCORE}, ${MAX_NODE_SCORE}] after normalizing`);
      }
      totals[j]! += score * ps.weight;
    }
  }
  return undefined;
}

/** Scores is one plugin's scores; the weighted ones are made when first read. */
class Scores implements PluginScores {
  private made: number[] | undefined;

  constructor(readonly name: string, readonly weight: number, readonly raw: number[], readonly normalized: number[]) {}

  get weighted(): number[] {
    return (this.made ??= this.normalized.map((s) => s * this.weight));
  }
}

/** NodeScores is one node's total; its per-plugin list is read from the plugins' weighted scores when asked for. */
class NodeScores implements NodePluginScores {
  constructor(readonly name: string, readonly totalScore: number, private readonly index: number, private readonly perPlugin: readonly PluginScores[]) {}

  get scores(): { name: string; score: number }[] {
    return this.perPlugin.map((ps) => ({ name: ps.name, score: ps.weighted[this.index]! }));
  }
}

/**
 * REUSED holds the arrays a scoring cycle fills and reads before it ends, kept from one cycle to the next: scoring
 * hundreds of nodes for each of thousands of pods otherwise makes most of what the collector sweeps. A cycle runs to its
 * end before another starts (it does not yield), so one set serves them all.
 */
const REUSED = new (class {
  private readonly rowsKept: number[][] = [];
  private totalsKept: number[] = [];
  private readonly list: NodeScore[] = [];

  rows(count: number, n: number): number[][] {
    for (let i = 0; i < count; i++) if (this.rowsKept[i]?.length !== n) this.rowsKept[i] = new Array<number>(n);
    return this.rowsKept;
  }

  totals(n: number): number[] {
    if (this.totalsKept.length !== n) this.totalsKept = new Array<number>(n);
    return this.totalsKept;
  }

  /** nodeScores is a NodeScoreList naming `nodes` in order; its scores are the caller's to set. */
  nodeScores(nodes: readonly NodeInfo[]): NodeScore[] {
    const list = this.list;
    if (list.length > nodes.length) list.length = nodes.length;
    for (let j = 0; j < nodes.length; j++) {
      const entry = list[j];
      if (entry) entry.name = nodes[j]!.name;
      else list.push({ name: nodes[j]!.name, score: 0 });
    }
    return list;
  }
})();
