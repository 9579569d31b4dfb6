// The Score extension point (RunScorePlugins in pkg/scheduler/framework/runtime/framework.go): a quiet cycle's totals
// (scoreTotals, which keeps no table and uses its arrays again) are the traced cycle's (runScorePlugins), node by node,
// and its errors are the same, whatever the number of nodes from one call to the next.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../../src/engine/api/types';
import { Random } from '../../../src/engine/runtime/random';
import { CycleState } from '../../../src/engine/scheduler/framework/cycle-state';
import { findNodesThatFitPod } from '../../../src/engine/scheduler/framework/filter';
import type { Framework } from '../../../src/engine/scheduler/framework/framework';
import type { NodeScore, ScorePlugin } from '../../../src/engine/scheduler/framework/interfaces';
import { newDefaultFramework } from '../../../src/engine/scheduler/framework/runner';
import { runScorePlugins, scoreTotals } from '../../../src/engine/scheduler/framework/score';
import { Snapshot } from '../../../src/engine/scheduler/framework/snapshot';
import { Code, newStatus } from '../../../src/engine/scheduler/framework/status';
import { affinityTerm, makePod, matchIn, unevenCluster, type PodBuilder } from './builders';


const cases: { name: string; pod: PodBuilder }[] = [
  { name: 'requests only', pod: makePod('p', 'default').req({ cpu: '1', memory: '1Gi' }) },
  { name: 'a preferred node affinity', pod: makePod('p', 'default').req({ cpu: '500m' }).preferred(10, matchIn('disk', 'ssd')) },
  { name: 'a toleration of the soft taint', pod: makePod('p', 'default').toleration({ key: 'soft', operator: 'Exists', effect: 'PreferNoSchedule' }) },
  {
    name: 'spreading over zones and hosts',
    pod: makePod('p', 'default').label('app', 'web').spreadConstraint(1, 'topology.kubernetes.io/zone', 'ScheduleAnyway', { matchLabels: { app: 'web' } })
      .spreadConstraint(1, 'kubernetes.io/hostname', 'ScheduleAnyway', { matchLabels: { app: 'web' } }),
  },
  { name: 'a preferred anti-affinity and a local image', pod: makePod('p', 'default').container('nginx:1.27').preferredPodAffinity(50, affinityTerm('kubernetes.io/hostname', { matchLabels: { app: 'web' } }), true) },
];

for (const c of cases) {
  test(`Score: a quiet cycle's totals are the traced one's, node by node: ${c.name}`, () => {
    const { nodes, pods } = unevenCluster();
    const fw = newDefaultFramework();
    const snapshot = Snapshot.build(nodes, pods);
    fw.startCycle(snapshot, new Random(1));
    const pod = c.pod.obj();
    const state = new CycleState();
    const feasible = findNodesThatFitPod(fw, state, pod, { snapshot, nextStartNodeIndex: 0, percentageOfNodesToScore: 0 }).feasible;
    assert.equal(fw.runPreScorePlugins(state, pod, feasible).status, null);
    // All the nodes, then fewer, then all again: the arrays kept from one call to the next change size.
    for (const nodesScored of [feasible, feasible.slice(1, 4), feasible]) {
      const traced = runScorePlugins(fw, state, pod, nodesScored);
      const quiet = scoreTotals(fw, state, pod, nodesScored);
      assert.equal(traced.status, null);
      assert.equal(quiet.status, null);
      if (traced.status || quiet.status) return;
      assert.deepEqual([...quiet.totals], traced.nodeScores.map((n) => n.totalScore));
      // Each total is the sum of the plugins' normalized scores times their weights.
      nodesScored.forEach((_, j) => assert.equal(traced.nodeScores[j]!.totalScore, traced.perPlugin.reduce((sum, ps) => sum + ps.normalized[j]! * ps.weight, 0)));
    }
  });
}

/** fake is a framework of Score plugins alone, with their weights. */
function fake(...plugins: [ScorePlugin, number][]): Framework {
  return { scorePlugins: plugins.map(([p]) => p), scoreWeights: new Map(plugins.map(([p, w]) => [p.name, w])) } as unknown as Framework;
}

const plugin = (name: string, score: ScorePlugin['score'], normalizeScore?: (scores: NodeScore[]) => void): ScorePlugin => ({
  name, score, ...(normalizeScore ? { normalizeScore: (_s: CycleState, _p: Pod, scores: NodeScore[]) => (normalizeScore(scores), null) } : {}),
}) as ScorePlugin;

const errorCases: { name: string; fw: Framework; want: string | number[] }[] = [
  { name: 'a profile without Score plugins totals 1 for every node', fw: fake(), want: [1, 1, 1] },
  {
    name: 'weights apply after normalizing, in plugin order',
    fw: fake([plugin('Raw', (_s, _p, ni) => Number(ni.name.slice(1))), 2], [plugin('Flip', () => 7, (scores) => scores.forEach((s, j) => (s.score = 10 * j))), 3]),
    want: [0, 32, 64],
  },
  {
    name: 'a Score that fails ends it',
    fw: fake([plugin('Ok', () => 1), 1], [plugin('Bad', () => newStatus(Code.Error, 'boom')), 1]),
    want: 'running Score plugins: plugin "Bad" failed with: boom',
  },
  {
    name: 'a score out of range after normalizing ends it',
    fw: fake([plugin('Wide', () => 5, (scores) => scores.forEach((s) => (s.score = 150))), 1]),
    want: 'applying score defaultWeights on Score plugins: plugin "Wide" returns an invalid score 150, it should in the range of [0, 100] after normalizing',
  },
];

for (const c of errorCases) {
  test(`Score: ${c.name}, quiet or traced`, () => {
    const nodes = ['n0', 'n1', 'n2'].map((name) => ({ name }) as never);
    const pod = makePod('p', 'default').obj();
    const traced = runScorePlugins(c.fw, new CycleState(), pod, nodes);
    const quiet = scoreTotals(c.fw, new CycleState(), pod, nodes);
    if (typeof c.want === 'string') {
      assert.deepEqual([traced.status?.message(), quiet.status?.message()], [c.want, c.want]);
    } else {
      assert.ok(traced.status === null && quiet.status === null);
      assert.deepEqual([traced.nodeScores.map((n) => n.totalScore), [...quiet.totals]], [c.want, c.want]);
    }
  });
}
