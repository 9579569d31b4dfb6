// The Score extension point: every plugin scores every feasible node, normalizes, and the weights make the totals.
// See pkg/scheduler/framework/runtime/framework.go (RunScorePlugins).
import type { Pod } from '../../api/types';
import type { CycleState } from './cycle-state';
import type { Framework } from './framework';
import type { NodeScore } from './interfaces';
import type { NodeInfo } from './node-info';
import { MAX_NODE_SCORE, MIN_NODE_SCORE } from './profile';
import { Code, isSuccess, newStatus, type Status } from './status';

/** PluginScores is one plugin's scores, one per node in the order of the nodes scored. */
export interface PluginScores {
  name: string;
  weight: number;
  raw: number[];
  normalized: number[];
  weighted: number[];
}

/** NodePluginScores is one node's weighted score per plugin and total (framework.NodePluginScores). */
export interface NodePluginScores {
  name: string;
  scores: { name: string; score: number }[];
  totalScore: number;
}

/** ScoreRun is the outcome of the Score extension point: per-node totals and per-plugin tables, or an Error status. */
export type ScoreRun = { nodeScores: NodePluginScores[]; perPlugin: PluginScores[]; status: null } | { status: Status };

/**
 * runScorePlugins runs Score on every node for the plugins PreScore did not skip, then NormalizeScore, then the weights.
 * Scores are kept in plain arrays, one per plugin; NodeScore objects are made only for the plugins that normalize, since
 * NormalizeScore takes them (a plugin without NormalizeScore has its raw scores as normalized ones).
 */
export function runScorePlugins(fw: Framework, state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): ScoreRun {
  const plugins = fw.scorePlugins.filter((pl) => !state.skipScorePlugins.has(pl.name));
  const perPlugin: PluginScores[] = [];
  const n = nodes.length;
  for (const pl of plugins) {
    const raw = new Array<number>(n);
    for (let j = 0; j < n; j++) {
      const s = pl.score(state, pod, nodes[j]!);
      if (typeof s !== 'number') {
        const msg = s === null ? 'no score' : s.message();
        return { status: newStatus(Code.Error, `running Score plugins: plugin "${pl.name}" failed with: ${msg}`) };
      }
      raw[j] = s;
    }
    perPlugin.push({ name: pl.name, weight: fw.scoreWeights.get(pl.name) ?? 1, raw, normalized: raw, weighted: new Array<number>(n) });
  }
  for (let i = 0; i < plugins.length; i++) {
    const pl = plugins[i]!;
    if (!pl.normalizeScore) continue;
    const ps = perPlugin[i]!;
    const list: NodeScore[] = nodes.map((ni, j) => ({ name: ni.name, score: ps.raw[j]! }));
    const status = pl.normalizeScore(state, pod, list);
    if (!isSuccess(status)) {
      return { status: newStatus(Code.Error, `running Normalize on Score plugins: plugin "${pl.name}" failed with: ${status!.message()}`) };
    }
    ps.normalized = list.map((n) => n.score);
  }
  return applyWeights(nodes, perPlugin);
}

/** NodeScores is one node's total; its per-plugin list is read from the plugins' weighted scores when asked for. */
class NodeScores implements NodePluginScores {
  constructor(readonly name: string, readonly totalScore: number, private readonly index: number, private readonly perPlugin: readonly PluginScores[]) {}

  get scores(): { name: string; score: number }[] {
    return this.perPlugin.map((ps) => ({ name: ps.name, score: ps.weighted[this.index]! }));
  }
}

function applyWeights(nodes: readonly NodeInfo[], perPlugin: PluginScores[]): ScoreRun {
  const totals = new Array<number>(nodes.length).fill(0);
  for (const ps of perPlugin) {
    for (let j = 0; j < nodes.length; j++) {
      const score = ps.normalized[j]!;
      if (score > MAX_NODE_SCORE || score < MIN_NODE_SCORE) {
        return {
          status: newStatus(Code.Error, `applying score defaultWeights on Score plugins: plugin "${ps.name}" returns an invalid score ${score}, it should in the range of [${MIN_NODE_SCORE}, ${MAX_NODE_SCORE}] after normalizing`),
        };
      }
      const weighted = score * ps.weight;
      ps.weighted[j] = weighted;
      totals[j]! += weighted;
    }
  }
  const nodeScores = nodes.map((ni, j): NodePluginScores => new NodeScores(ni.name, totals[j]!, j, perPlugin));
  return { nodeScores, perPlugin, status: null };
}
