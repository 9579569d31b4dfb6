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

/** runScorePlugins runs Score on every node for the plugins PreScore did not skip, then NormalizeScore, then the weights. */
export function runScorePlugins(fw: Framework, state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): ScoreRun {
  const plugins = fw.scorePlugins.filter((pl) => !state.skipScorePlugins.has(pl.name));
  const perPlugin: PluginScores[] = [];
  const lists: NodeScore[][] = [];
  for (const pl of plugins) {
    const list: NodeScore[] = [];
    for (const ni of nodes) {
      const s = pl.score(state, pod, ni);
      if (typeof s !== 'number') {
        const msg = s === null ? 'no score' : s.message();
        return { status: newStatus(Code.Error, `running Score plugins: plugin "${pl.name}" failed with: ${msg}`) };
      }
      list.push({ name: ni.name, score: s });
    }
    lists.push(list);
    perPlugin.push({ name: pl.name, weight: fw.scoreWeights.get(pl.name) ?? 1, raw: list.map((n) => n.score), normalized: [], weighted: [] });
  }
  for (let i = 0; i < plugins.length; i++) {
    const pl = plugins[i]!;
    const status = pl.normalizeScore ? pl.normalizeScore(state, pod, lists[i]!) : null;
    if (!isSuccess(status)) {
      return { status: newStatus(Code.Error, `running Normalize on Score plugins: plugin "${pl.name}" failed with: ${status!.message()}`) };
    }
    perPlugin[i]!.normalized = lists[i]!.map((n) => n.score);
  }
  return applyWeights(nodes, perPlugin);
}

function applyWeights(nodes: readonly NodeInfo[], perPlugin: PluginScores[]): ScoreRun {
  const nodeScores: NodePluginScores[] = nodes.map((ni) => ({ name: ni.name, scores: [], totalScore: 0 }));
  for (const ps of perPlugin) {
    for (let j = 0; j < nodes.length; j++) {
      const score = ps.normalized[j]!;
      if (score > MAX_NODE_SCORE || score < MIN_NODE_SCORE) {
        return {
          status: newStatus(Code.Error, `applying score defaultWeights on Score plugins: plugin "${ps.name}" returns an invalid score ${score}, it should in the range of [${MIN_NODE_SCORE}, ${MAX_NODE_SCORE}] after normalizing`),
        };
      }
      const weighted = score * ps.weight;
      ps.weighted.push(weighted);
      nodeScores[j]!.scores.push({ name: ps.name, score: weighted });
      nodeScores[j]!.totalScore += weighted;
    }
  }
  return { nodeScores, perPlugin, status: null };
}
