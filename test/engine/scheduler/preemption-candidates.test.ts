// The dry run of preemption (victims per node, PDBs, the candidate limits and offset) and the choice among candidates.
// Cases from TestDryRunPreemption and TestSelectBestCandidate in
// pkg/scheduler/framework/plugins/defaultpreemption/default_preemption_test.go (nodes of 500m cpu and 500 bytes; the
// offsets 4, 1, 3 are what rand.NewSource(4) gives there for 5 nodes).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1';
import type { Pod } from '../../../src/engine/api/types';
import { DefaultPreemption, type DefaultPreemptionArgs } from '../../../src/engine/scheduler/plugins/defaultpreemption';
import { dryRunPreemption, selectCandidate } from '../../../src/engine/scheduler/plugins/preemption/candidates';
import { makeNode, makePDB, makePod, type PodBuilder } from './builders';
import { PRIORITY, RES, startCycle } from './preemption-harness';

const p = (name: string): PodBuilder => makePod(name).uid(name);
const on = (name: string, node: string, priority: number, res: Record<string, string> = RES.large): PodBuilder => p(name).node(node).priority(priority).req(res);
const fooPDB = (allowed: number): PodDisruptionBudget => makePDB('foo').matchLabel('app', 'foo').disruptionsAllowed(allowed).obj();

/** run dry-runs preemption of each pod in turn (one scheduling cycle each) and lists the candidates as Go's test sorts them. */
function run(nodeNames: string[], preemptors: Pod[], pods: Pod[], opts: { args?: DefaultPreemptionArgs; pdbs?: PodDisruptionBudget[]; offsets?: number[] } = {}) {
  const nodes = nodeNames.map((n) => makeNode(n).capacity(RES.veryLarge).obj());
  return preemptors.map((pod, cycle) => {
    const { fw, state, snapshot } = startCycle(pod, nodes, pods);
    const pl = new DefaultPreemption(fw, opts.args ?? {});
    const all = snapshot.nodeInfoList;
    const offset = opts.offsets?.[cycle] ?? 0;
    const { candidates } = dryRunPreemption(fw, state, pod, all, opts.pdbs ?? [], offset, pl.calculateNumCandidates(all.length));
    return candidates
      .map((c) => ({ node: c.name, victims: c.victims.map((v) => v.metadata!.name!).sort(), numPDBViolations: c.numPDBViolations }))
      .sort((a, b) => a.node.localeCompare(b.node));
  });
}

const c = (node: string, victims: string[], numPDBViolations = 0) => ({ node, victims, numPDBViolations });
const limit2: DefaultPreemptionArgs = { minCandidateNodesPercentage: 40, minCandidateNodesAbsolute: 1 };

const dryRunCases: { name: string; nodes: string[]; pods: Pod[]; preemptors?: Pod[]; args?: DefaultPreemptionArgs; pdbs?: PodDisruptionBudget[]; offsets?: number[]; want: ReturnType<typeof c>[][] }[] = [
  {
    name: 'A pod fits on both nodes once their lower-priority pods are preempted',
    nodes: ['node1', 'node2'], pods: [on('p1', 'node1', PRIORITY.mid).obj(), on('p2', 'node2', PRIORITY.mid).obj()],
    want: [[c('node1', ['p1']), c('node2', ['p2'])]],
  },
  {
    name: 'No preemption when the pods running are of higher priority',
    nodes: ['node1', 'node2'], pods: [on('p1', 'node1', PRIORITY.mid).obj(), on('p2', 'node2', PRIORITY.mid).obj()],
    preemptors: [p('p').priority(PRIORITY.low).req(RES.large).obj()],
    want: [[]],
  },
  {
    name: 'The medium-priority pod is preempted, but the smaller lower-priority one stays',
    nodes: ['node1', 'node2'],
    pods: [on('p1.1', 'node1', PRIORITY.low, RES.small).obj(), on('p1.2', 'node1', PRIORITY.mid).obj(), on('p2', 'node2', PRIORITY.mid).obj()],
    want: [[c('node1', ['p1.2']), c('node2', ['p2'])]],
  },
  {
    name: 'Mixed-priority pods are preempted',
    nodes: ['node1', 'node2'],
    pods: [
      on('p1.1', 'node1', PRIORITY.mid, RES.small).obj(), on('p1.2', 'node1', PRIORITY.low, RES.small).obj(),
      on('p1.3', 'node1', PRIORITY.mid, RES.medium).obj(), on('p1.4', 'node1', PRIORITY.high, RES.small).obj(),
      on('p2', 'node2', PRIORITY.high).obj(),
    ],
    want: [[c('node1', ['p1.2', 'p1.3'])]],
  },
  {
    name: 'Among equal priorities the pod started later is preempted',
    nodes: ['node1', 'node2'],
    pods: [
      on('p1.1', 'node1', PRIORITY.low, RES.small).startTime(5).obj(), on('p1.2', 'node1', PRIORITY.low, RES.small).startTime(4).obj(),
      on('p1.3', 'node1', PRIORITY.mid, RES.medium).startTime(3).obj(), on('p1.4', 'node1', PRIORITY.high, RES.small).startTime(2).obj(),
      on('p2', 'node2', PRIORITY.high).startTime(1).obj(),
    ],
    want: [[c('node1', ['p1.1', 'p1.3'])]],
  },
  {
    name: 'Preempting two pods of one budget that allows one disruption counts one violation',
    nodes: ['node1'], preemptors: [p('p').priority(PRIORITY.high).req(RES.veryLarge).obj()],
    pods: [on('p1.1', 'node1', PRIORITY.mid, RES.medium).label('app', 'foo').obj(), on('p1.2', 'node1', PRIORITY.mid, RES.medium).label('app', 'foo').obj()],
    pdbs: [fooPDB(1)],
    want: [[c('node1', ['p1.1', 'p1.2'], 1)]],
  },
  {
    name: 'A disrupted pod of the budget that is not a victim changes nothing',
    nodes: ['node1'], preemptors: [p('p').priority(PRIORITY.high).req(RES.veryLarge).obj()],
    pods: [on('p1.1', 'node1', PRIORITY.mid, RES.medium).label('app', 'foo').obj(), on('p1.2', 'node1', PRIORITY.mid, RES.medium).label('app', 'foo').obj()],
    pdbs: [makePDB('foo').matchLabel('app', 'foo').disruptionsAllowed(1).disruptedPod('p2').obj()],
    want: [[c('node1', ['p1.1', 'p1.2'], 1)]],
  },
  {
    name: 'A victim already in the budget\'s disruptedPods does not count against it',
    nodes: ['node1'], preemptors: [p('p').priority(PRIORITY.high).req(RES.veryLarge).obj()],
    pods: [on('p1.1', 'node1', PRIORITY.mid, RES.medium).label('app', 'foo').obj(), on('p1.2', 'node1', PRIORITY.mid, RES.medium).label('app', 'foo').obj()],
    pdbs: [makePDB('foo').matchLabel('app', 'foo').disruptionsAllowed(1).disruptedPod('p1.2').obj()],
    want: [[c('node1', ['p1.1', 'p1.2'], 0)]],
  },
  {
    name: 'A victim in disruptedPods is non-violating while the others still exhaust the budget',
    nodes: ['node1'], preemptors: [p('p').priority(PRIORITY.high).req(RES.veryLarge).obj()],
    pods: ['p1.1', 'p1.2', 'p1.3'].map((n) => on(n, 'node1', PRIORITY.mid, RES.medium).label('app', 'foo').obj()),
    pdbs: [makePDB('foo').matchLabel('app', 'foo').disruptionsAllowed(1).disruptedPod('p1.3').obj()],
    want: [[c('node1', ['p1.1', 'p1.2', 'p1.3'], 1)]],
  },
  {
    name: 'All nodes are possible candidates, but the args limit them to 2',
    nodes: ['node1', 'node2', 'node3', 'node4', 'node5'], args: limit2, offsets: [4],
    pods: ['1', '2', '3', '4', '5'].map((i) => on(`p${i}`, `node${i}`, PRIORITY.mid).obj()),
    want: [[c('node1', ['p1']), c('node5', ['p5'])]],
  },
  {
    name: 'Some nodes are no candidates; the dry run goes on until it has 2',
    nodes: ['node1', 'node2', 'node3', 'node4', 'node5'], args: limit2, offsets: [4],
    pods: [
      on('p1', 'node1', PRIORITY.mid).obj(), on('p2', 'node2', PRIORITY.veryHigh).obj(), on('p3', 'node3', PRIORITY.mid).obj(),
      on('p4', 'node4', PRIORITY.mid).obj(), on('p5', 'node5', PRIORITY.veryHigh).obj(),
    ],
    want: [[c('node1', ['p1']), c('node3', ['p3'])]],
  },
  {
    name: 'The offset moves from one scheduling cycle to the next and wraps around',
    nodes: ['node1', 'node2', 'node3', 'node4', 'node5'], args: limit2, offsets: [4, 1, 3],
    preemptors: ['tp1', 'tp2', 'tp3'].map((n) => p(n).priority(PRIORITY.high).req(RES.large).obj()),
    pods: ['1', '2', '3', '4', '5'].map((i) => on(`p${i}`, `node${i}`, PRIORITY.mid).obj()),
    want: [[c('node1', ['p1']), c('node5', ['p5'])], [c('node2', ['p2']), c('node3', ['p3'])], [c('node4', ['p4']), c('node5', ['p5'])]],
  },
  {
    name: 'The dry run looks past the limit until it finds a node that violates no budget',
    nodes: ['node1', 'node2', 'node3', 'node4', 'node5'], args: { minCandidateNodesPercentage: 40, minCandidateNodesAbsolute: 2 }, offsets: [4],
    pods: [
      on('p1', 'node1', PRIORITY.mid).label('app', 'foo').obj(), on('p2', 'node2', PRIORITY.mid).label('app', 'foo').obj(),
      on('p3', 'node3', PRIORITY.mid).obj(), on('p4', 'node4', PRIORITY.mid).obj(), on('p5', 'node5', PRIORITY.mid).label('app', 'foo').obj(),
    ],
    pdbs: [fooPDB(0)],
    want: [[c('node1', ['p1'], 1), c('node3', ['p3']), c('node5', ['p5'], 1)]],
  },
];

for (const tc of dryRunCases) {
  test(tc.name, () => {
    const preemptors = tc.preemptors ?? [p('p').priority(PRIORITY.high).req(RES.large).obj()];
    const opts = { ...(tc.args ? { args: tc.args } : {}), ...(tc.pdbs ? { pdbs: tc.pdbs } : {}), ...(tc.offsets ? { offsets: tc.offsets } : {}) };
    assert.deepEqual(run(tc.nodes, preemptors, tc.pods, opts), tc.want);
  });
}

test('Victims come out most important first, budget-violating ones reprieved first', () => {
  const pod = p('p').priority(PRIORITY.high).req(RES.veryLarge).obj();
  const pods = [
    on('a', 'node1', PRIORITY.low, RES.small).startTime(1).obj(),
    on('b', 'node1', PRIORITY.mid, RES.medium).label('app', 'foo').obj(),
    on('c', 'node1', PRIORITY.mid, RES.small).startTime(2).obj(),
  ];
  const { fw, state, snapshot } = startCycle(pod, [makeNode('node1').capacity(RES.veryLarge).obj()], pods);
  const { candidates } = dryRunPreemption(fw, state, pod, snapshot.nodeInfoList, [fooPDB(0)], 0, 1);
  // Why: all three must go for 500m; b (mid, not started) violates foo, c (mid, started at 2 s) is older, a is low.
  assert.deepEqual(candidates.map((x) => [x.victims.map((v) => v.metadata?.name), x.numPDBViolations]), [[['c', 'b', 'a'], 1]]);
});

const selectCases: { name: string; nodes: string[]; pods: Pod[]; req?: Record<string, string>; want: string; decidedBy: string }[] = [
  {
    name: 'The node whose highest-priority victim has the lowest priority is picked',
    nodes: ['node1', 'node2', 'node3'], decidedBy: 'lowest highest-priority victim', want: 'node3',
    pods: [
      on('p1.1', 'node1', PRIORITY.mid, RES.medium).obj(), on('p1.2', 'node1', PRIORITY.mid, RES.large).obj(),
      on('p2.1', 'node2', PRIORITY.mid, RES.medium).obj(), on('p2.2', 'node2', PRIORITY.low, RES.medium).obj(),
      on('p3.1', 'node3', PRIORITY.low, RES.medium).obj(), on('p3.2', 'node3', PRIORITY.low, RES.medium).obj(),
    ],
  },
  {
    name: 'When the highest priorities tie, the smallest sum of priorities is picked',
    nodes: ['node1', 'node2', 'node3'], decidedBy: 'smallest sum of victim priorities', want: 'node2',
    pods: [
      on('p1.1', 'node1', PRIORITY.mid, RES.medium).obj(), on('p1.2', 'node1', PRIORITY.mid, RES.large).obj(),
      on('p2.1', 'node2', PRIORITY.mid, RES.large).obj(), on('p2.2', 'node2', PRIORITY.low, RES.medium).obj(),
      on('p3.1', 'node3', PRIORITY.mid, RES.medium).obj(), on('p3.2', 'node3', PRIORITY.mid, RES.medium).obj(),
    ],
  },
  {
    name: 'Sums of negative priorities are shifted, so fewer such victims still win',
    nodes: ['node1', 'node2', 'node3'], decidedBy: 'smallest sum of victim priorities', want: 'node2',
    pods: [
      on('p1.1', 'node1', PRIORITY.mid, RES.small).obj(), on('p1.2', 'node1', PRIORITY.neg, RES.small).obj(), on('p1.3', 'node1', PRIORITY.neg, RES.small).obj(),
      on('p2.1', 'node2', PRIORITY.mid, RES.large).obj(), on('p2.2', 'node2', PRIORITY.neg, RES.medium).obj(),
      on('p3.1', 'node3', PRIORITY.mid, RES.medium).obj(), on('p3.2', 'node3', PRIORITY.neg, RES.small).obj(), on('p3.3', 'node3', PRIORITY.low, RES.small).obj(),
    ],
  },
  {
    name: 'When everything else ties, the node whose highest-priority victims started last is picked',
    nodes: ['node1', 'node2', 'node3'], decidedBy: 'latest start of the highest-priority victims', want: 'node3',
    pods: [
      on('p1.1', 'node1', PRIORITY.mid, RES.medium).startTime(4).obj(), on('p1.2', 'node1', PRIORITY.mid, RES.medium).startTime(2).obj(),
      on('p2.1', 'node2', PRIORITY.mid, RES.medium).startTime(5).obj(), on('p2.2', 'node2', PRIORITY.mid, RES.medium).startTime(1).obj(),
      on('p3.1', 'node3', PRIORITY.mid, RES.medium).startTime(3).obj(), on('p3.2', 'node3', PRIORITY.mid, RES.medium).startTime(6).obj(),
    ],
  },
  {
    name: 'Only the start times of the highest-priority victims count',
    nodes: ['node1', 'node2', 'node3'], decidedBy: 'latest start of the highest-priority victims', want: 'node2',
    pods: [
      on('p1.1', 'node1', PRIORITY.low, RES.medium).startTime(4).obj(), on('p1.2', 'node1', PRIORITY.mid, RES.medium).startTime(2).obj(),
      on('p2.1', 'node2', PRIORITY.mid, RES.medium).startTime(6).obj(), on('p2.2', 'node2', PRIORITY.low, RES.medium).startTime(1).obj(),
      on('p3.1', 'node3', PRIORITY.low, RES.medium).startTime(3).obj(), on('p3.2', 'node3', PRIORITY.mid, RES.medium).startTime(5).obj(),
    ],
  },
  {
    name: 'When all criteria tie, the first candidate is picked',
    nodes: ['node1', 'node2'], decidedBy: 'first of the candidates still tied', want: 'node1', req: RES.large,
    pods: [on('p1', 'node1', PRIORITY.mid).startTime(0).obj(), on('p2', 'node2', PRIORITY.mid).startTime(0).obj()],
  },
];

for (const tc of selectCases) {
  test(tc.name, () => {
    const pod = p('p').priority(PRIORITY.high).req(tc.req ?? RES.veryLarge).obj();
    const nodes = tc.nodes.map((n) => makeNode(n).capacity(RES.veryLarge).obj());
    const { fw, state, snapshot } = startCycle(pod, nodes, tc.pods);
    const { candidates } = dryRunPreemption(fw, state, pod, snapshot.nodeInfoList, [], 0, tc.nodes.length);
    const chosen = selectCandidate(candidates);
    assert.deepEqual([chosen?.candidate.name, chosen?.decidedBy], [tc.want, tc.decidedBy]);
  });
}
