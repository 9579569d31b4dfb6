// DefaultPreemption's PostFilter: eligibility, the nominated node with its victims, and the message when no node helps.
// Cases from TestPostFilter and TestPodEligibleToPreemptOthers in
// pkg/scheduler/framework/plugins/defaultpreemption/default_preemption_test.go; the Preempted event from preemption/executor.go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1';
import type { Node, Pod } from '../../../src/engine/api/types';
import type { NodeToStatus } from '../../../src/engine/scheduler/framework/diagnosis';
import { Code, newStatus, viewOf } from '../../../src/engine/scheduler/framework/status';
import {
  DefaultPreemption, disruptionTargetMessage, preemptedMessage, type PreemptionDetail,
} from '../../../src/engine/scheduler/plugins/defaultpreemption';
import { makeNode, makePDB, makePod, type PodBuilder } from './builders';
import { nodeStatuses, PRIORITY, RES, startCycle } from './preemption-harness';

const ONE_POD = { pods: '1' };
const NODE_RES = { cpu: '200m', memory: '400' };
const U = Code.Unschedulable;
const UU = Code.UnschedulableAndUnresolvable;
const VIOLATING = { key: 'test.kubernetes.io/is-violating-pdb', yes: 'violating', no: 'non-violating' };

const p = (name: string): PodBuilder => makePod(name).uid(name);
const node = (name: string, capacity: Record<string, string>): Node => makeNode(name).capacity(capacity).obj();

interface Want {
  nominated?: string;
  status: { code: Code; reasons: string[] };
  victims?: string[];
}

const cases: { name: string; pod: PodBuilder; pods: Pod[]; nodes: Node[]; statuses: NodeToStatus; pdbs?: PodDisruptionBudget[]; testPlugin?: boolean; want: Want }[] = [
  {
    name: 'A pod with higher priority can be made schedulable',
    pod: p('p').priority(PRIORITY.high), pods: [p('p1').node('node1').obj()], nodes: [node('node1', ONE_POD)],
    statuses: nodeStatuses({ node1: U }),
    want: { nominated: 'node1', status: { code: Code.Success, reasons: [] }, victims: ['p1'] },
  },
  {
    name: 'A pod with tied priority is still unschedulable',
    pod: p('p'), pods: [p('p1').node('node1').obj()], nodes: [node('node1', ONE_POD)],
    statuses: nodeStatuses({ node1: U }),
    want: { nominated: '', status: { code: U, reasons: ['preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.'] } },
  },
  {
    name: 'Preemption respects the filtered nodes statuses',
    pod: p('p').priority(PRIORITY.high), pods: [p('p1').node('node1').obj()], nodes: [node('node1', ONE_POD)],
    statuses: nodeStatuses({ node1: UU }),
    want: { nominated: '', status: { code: U, reasons: ['preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.'] } },
  },
  {
    name: 'A node absent from the statuses counts as UnschedulableAndUnresolvable',
    pod: p('p').priority(PRIORITY.high), pods: [p('p1').node('node1').obj()], nodes: [node('node1', ONE_POD)],
    statuses: nodeStatuses({}),
    want: { nominated: '', status: { code: U, reasons: ['preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.'] } },
  },
  {
    name: 'A pod can be made schedulable on the one node with a lower-priority pod',
    pod: p('p').priority(PRIORITY.mid),
    pods: [p('p1').priority(PRIORITY.high).node('node1').obj(), p('p2').priority(PRIORITY.low).node('node2').obj()],
    nodes: [node('node1', ONE_POD), node('node2', ONE_POD)],
    statuses: nodeStatuses({ node1: U, node2: U }),
    want: { nominated: 'node2', status: { code: Code.Success, reasons: [] }, victims: ['p2'] },
  },
  {
    name: 'The node whose highest victim has the lowest priority wins over the one without a PDB violation',
    pod: p('p').priority(PRIORITY.veryHigh),
    pods: [
      p('p1').label(VIOLATING.key, VIOLATING.no).priority(PRIORITY.high).node('node1').obj(),
      p('p2').label(VIOLATING.key, VIOLATING.yes).priority(PRIORITY.low).node('node1').obj(),
      p('p3').label(VIOLATING.key, VIOLATING.yes).priority(PRIORITY.mid).node('node2').obj(),
    ],
    nodes: [node('node1', ONE_POD), node('node2', ONE_POD)],
    pdbs: [
      makePDB('violating-pdb').matchLabel(VIOLATING.key, VIOLATING.yes).minAvailable('100%').obj(),
      makePDB('non-violating-pdb').matchLabel(VIOLATING.key, VIOLATING.no).minAvailable('0').disruptionsAllowed(2147483647).obj(),
    ],
    statuses: nodeStatuses({ node1: U, node2: U }),
    want: { nominated: 'node2', status: { code: Code.Success, reasons: [] }, victims: ['p3'] },
  },
  {
    name: 'No candidate when evicting the lower-priority pods frees too little cpu',
    pod: p('p').priority(PRIORITY.high).req(RES.large),
    pods: [p('p1').node('node1').obj(), p('p2').node('node2').obj()],
    nodes: [node('node1', NODE_RES), node('node2', NODE_RES)],
    statuses: nodeStatuses({ node1: U, node2: U }),
    want: { nominated: '', status: { code: U, reasons: ['preemption: 0/2 nodes are available: 2 Insufficient cpu.'] } },
  },
  {
    name: 'No candidate, with mixed reasons: no lower-priority pod, and too little cpu',
    pod: p('p').priority(PRIORITY.high).req(RES.large),
    pods: [p('p1').node('node1').priority(PRIORITY.high).obj(), p('p2').node('node2').obj(), p('p3').node('node3').priority(PRIORITY.high).obj()],
    nodes: [node('node1', ONE_POD), node('node2', NODE_RES), node('node3', ONE_POD)],
    statuses: nodeStatuses({ node1: U, node2: U, node3: U }),
    want: { nominated: '', status: { code: U, reasons: ['preemption: 0/3 nodes are available: 1 Insufficient cpu, 2 No preemption victims found for incoming pod.'] } },
  },
  {
    name: 'No candidate, with two unresolvable nodes and two without enough cpu',
    pod: p('p').priority(PRIORITY.high).req(RES.large),
    pods: [p('p1').node('node1').obj(), p('p2').node('node2').obj()],
    nodes: [node('node1', NODE_RES), node('node2', NODE_RES), node('node3', NODE_RES), node('node4', NODE_RES)],
    statuses: nodeStatuses({ node1: U, node2: U, node4: UU }),
    want: { nominated: '', status: { code: U, reasons: ['preemption: 0/4 nodes are available: 2 Insufficient cpu, 2 Preemption is not helpful for scheduling.'] } },
  },
  {
    name: 'A PreFilter extension that fails on the only node makes the PostFilter an error',
    pod: p('p').priority(PRIORITY.high).req(RES.large), pods: [p('p1').node('node1').obj()],
    nodes: [makeNode('node1').capacity(RES.large).label('error', 'true').obj()],
    statuses: nodeStatuses({ node1: U }), testPlugin: true,
    want: { status: { code: Code.Error, reasons: ['preemption: running RemovePod on PreFilter plugin "test-plugin": failed to remove pod: p'] } },
  },
  {
    name: 'A PreFilter extension that fails on one node leaves the other as the nominated node',
    pod: p('p').priority(PRIORITY.high).req(RES.large),
    pods: [p('p1').node('node1').obj(), p('p2').node('node2').req(RES.medium).obj()],
    nodes: [makeNode('node1').capacity(RES.large).label('error', 'true').obj(), node('node2', RES.large)],
    statuses: nodeStatuses({ node1: U, node2: U }), testPlugin: true,
    want: { nominated: 'node2', status: { code: Code.Success, reasons: [] }, victims: ['p2'] },
  },
  {
    name: 'A pod with preemptionPolicy Never may not preempt',
    pod: p('p').priority(PRIORITY.high).req(RES.veryLarge).preemptionPolicy('Never'),
    pods: [p('p1').node('node1').priority(PRIORITY.low).req(RES.small).obj()],
    nodes: [node('node1', RES.veryLarge)],
    statuses: nodeStatuses({ node1: U }),
    want: { status: { code: U, reasons: ['preemption: not eligible due to preemptionPolicy=Never.'] } },
  },
];

for (const c of cases) {
  test(c.name, () => {
    const pod = c.pod.obj();
    const { fw, state } = startCycle(pod, c.nodes, c.pods, { pdbs: c.pdbs ?? [], testPlugin: c.testPlugin ?? false });
    const out = new DefaultPreemption(fw).postFilter(state, pod, c.statuses);
    assert.deepEqual(viewOf(out.status), c.want.status);
    assert.equal(out.result?.nominatedNodeName, c.want.nominated);
    if (c.want.victims) assert.deepEqual((out.result?.detail as PreemptionDetail).victims.map((v) => v.name), c.want.victims);
  });
}

test('The result names the chosen node, its victims as namespace, name, uid and priority, and every candidate', () => {
  const pod = p('p').priority(PRIORITY.high).req(RES.veryLarge).obj();
  const pods = [
    p('p1.1').node('node1').priority(PRIORITY.low).req(RES.small).obj(),
    p('p1.2').node('node1').priority(PRIORITY.low).req(RES.small).obj(),
    p('p2.1').node('node2').priority(PRIORITY.high).req(RES.large).obj(),
    p('p3.1').node('node3').priority(PRIORITY.mid).req(RES.medium).obj(),
  ];
  const nodes = ['node1', 'node2', 'node3'].map((n) => node(n, RES.veryLarge));
  const { fw, state } = startCycle(pod, nodes, pods, { offsets: [0] });
  const out = new DefaultPreemption(fw).postFilter(state, pod, nodeStatuses({ node1: U, node2: U, node3: U }));
  const victim = (name: string, priority: number) => ({ namespace: 'default', name, uid: name, priority });
  assert.deepEqual(out, {
    status: null,
    result: {
      nominatedNodeName: 'node1',
      detail: {
        node: 'node1', victims: [victim('p1.1', 0), victim('p1.2', 0)], numPDBViolations: 0, decidedBy: 'lowest highest-priority victim',
        candidates: [
          { node: 'node1', victims: [victim('p1.1', 0), victim('p1.2', 0)], numPDBViolations: 0 },
          { node: 'node3', victims: [victim('p3.1', 100)], numPDBViolations: 0 },
        ],
        potentialNodes: 3, offset: 0, numCandidates: 3, pdbs: 0,
      },
    },
  });
});

const eligibleCases: { name: string; pod: PodBuilder; pods: Pod[]; nodes: string[]; nominatedNodeStatus?: Code; want: string }[] = [
  {
    name: 'A pod nominated to a node whose filters ruled it out for good is eligible again',
    pod: p('p').priority(PRIORITY.high).nominatedNodeName('node1'),
    pods: [p('p1').priority(PRIORITY.low).node('node1').terminating().condition('DisruptionTarget', 'True', 'PreemptionByScheduler').obj()],
    nodes: ['node1'], nominatedNodeStatus: UU, want: '',
  },
  { name: 'A pod with preemptionPolicy Never is not eligible', pod: p('p').priority(PRIORITY.high).preemptionPolicy('Never'), pods: [], nodes: [], want: 'not eligible due to preemptionPolicy=Never.' },
  {
    name: 'A preemption victim still terminating on the nominated node makes the pod wait',
    pod: p('p').priority(PRIORITY.high).nominatedNodeName('node1'),
    pods: [p('p1').priority(PRIORITY.low).node('node1').terminating().condition('DisruptionTarget', 'True', 'PreemptionByScheduler').obj()],
    nodes: ['node1'], want: 'not eligible due to a terminating pod on the nominated node.',
  },
  {
    name: 'A terminating pod that was not preempted does not make the pod wait',
    pod: p('p').priority(PRIORITY.high).nominatedNodeName('node1'),
    pods: [p('p1').priority(PRIORITY.low).node('node1').terminating().obj()],
    nodes: ['node1'], want: '',
  },
];

for (const c of eligibleCases) {
  test(c.name, () => {
    const pod = c.pod.obj();
    const { fw } = startCycle(pod, c.nodes.map((n) => makeNode(n).obj()), c.pods);
    const got = new DefaultPreemption(fw).podEligibleToPreemptOthers(pod, newStatus(c.nominatedNodeStatus ?? U));
    assert.equal(got, c.want);
  });
}

test('The Preempted event and the DisruptionTarget condition read as the scheduler writes them', () => {
  assert.equal(preemptedMessage('7f0c3a2e-1d4b-4c5e-9f6a-0b1c2d3e4f50', 'worker-1'), 'Preempted by pod 7f0c3a2e-1d4b-4c5e-9f6a-0b1c2d3e4f50 on node worker-1');
  assert.equal(disruptionTargetMessage('default-scheduler'), 'default-scheduler: preempting to accommodate a higher priority pod');
});

test('The number of candidates is 10% of the nodes, at least 100, at most all of them', () => {
  const { fw } = startCycle(p('p').obj(), [], []);
  const pl = new DefaultPreemption(fw);
  assert.deepEqual([10, 100, 1000, 5000].map((n) => pl.calculateNumCandidates(n)), [10, 100, 100, 500]);
  const limited = new DefaultPreemption(fw, { minCandidateNodesPercentage: 40, minCandidateNodesAbsolute: 1 });
  assert.equal(limited.calculateNumCandidates(5), 2);
});
