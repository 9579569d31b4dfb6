// The explanation of a scheduling attempt, from fixture Decision tables and node facts (test/fixtures/explain/tables):
// why this node, why not the others, and what would make a Pending pod schedule, from the reason → advice table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SchedulingAttempt } from '../../../src/engine/explain/attempt';
import type { SchedulingFacts } from '../../../src/engine/explain/facts';
import { explainAttempt } from '../../../src/engine/explain/pod';
import { REASON_RULES, ruleFor, type Advice } from '../../../src/engine/explain/scheduling';

const TABLES = join(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'explain', 'tables');

function fixture(name: string): { attempt: SchedulingAttempt; facts: SchedulingFacts } {
  return JSON.parse(readFileSync(join(TABLES, `${name}.json`), 'utf8')) as { attempt: SchedulingAttempt; facts: SchedulingFacts };
}

const FIT = 'pkg/scheduler/framework/plugins/noderesources/fit.go';
const TAINTS = 'pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go';
const CONTROL_PLANE_TAINT = 'TaintToleration: node(s) had untolerated taint(s) (taint node-role.kubernetes.io/control-plane:NoSchedule)';
const CONTROL_PLANE_ADVICE: Advice = {
  reason: 'node(s) had untolerated taint(s)', nodes: ['control-plane'], source: TAINTS,
  text: 'control-plane has the taint node-role.kubernetes.io/control-plane:NoSchedule: to run there, add to spec.tolerations '
    + '{key: node-role.kubernetes.io/control-plane, operator: Exists, effect: NoSchedule}, or remove the taint '
    + '(kubectl taint nodes control-plane node-role.kubernetes.io/control-plane:NoSchedule-)',
};

const cases: { name: string; fixture: string; want: { chosen?: string; why: string; whyNot: Record<string, string>; advice: Advice[] } }[] = [
  {
    name: 'A tie is explained as a random choice, the other tied node as losing the tie-break',
    fixture: 'scheduled-tie',
    want: {
      chosen: 'worker-1', why: 'worker-1 chosen at random among 2 nodes tied at 596',
      whyNot: { 'control-plane': CONTROL_PLANE_TAINT, 'worker-2': 'tied at 596: the random tie-break chose worker-1' }, advice: [],
    },
  },
  {
    name: 'The highest total wins and a lower node is told where it lost most',
    fixture: 'scheduled-highest',
    want: {
      chosen: 'worker-1', why: 'worker-1 has the highest total, 596',
      whyNot: { 'control-plane': CONTROL_PLANE_TAINT, 'worker-2': 'lower total, 524 against 596 (most of the gap: PodTopologySpread 132 against 200)' }, advice: [],
    },
  },
  {
    name: 'A single feasible node is chosen without scoring and the others name their first failing filter',
    fixture: 'only-fit',
    want: {
      chosen: 'worker-1', why: 'worker-1 is the only node that fits: no scoring',
      whyNot: { 'control-plane': CONTROL_PLANE_TAINT, 'worker-2': 'NodeResourcesFit: Insufficient cpu (2500m of 4 cpu free, 3 requested)' }, advice: [],
    },
  },
  {
    name: 'Insufficient cpu advises the largest free amount among the rejected nodes, or a bigger node',
    fixture: 'insufficient-cpu',
    want: {
      why: 'no node fits: 0 of 3 nodes passed the filters',
      whyNot: {
        'control-plane': CONTROL_PLANE_TAINT,
        'worker-1': 'NodeResourcesFit: Insufficient cpu (3500m of 4 cpu free, 64 requested)',
        'worker-2': 'NodeResourcesFit: Insufficient cpu (3750m of 4 cpu free, 64 requested)',
      },
      advice: [CONTROL_PLANE_ADVICE, {
        reason: 'Insufficient cpu', nodes: ['worker-1', 'worker-2'], source: FIT,
        text: 'the pod requests 64 cpu (spec.containers[0].resources.requests); the most free on a node is 3750m on worker-2 '
          + '(4 allocatable, 250m requested). Lower the request to 3750m or less, or add a node with 64 cpu free',
      }],
    },
  },
  {
    name: 'Two resources short on one node give one piece of advice each, memory in binary units',
    fixture: 'insufficient-memory-and-cpu',
    want: {
      why: 'no node fits: 0 of 1 nodes passed the filters',
      whyNot: { 'worker-1': 'NodeResourcesFit: Insufficient cpu (2 of 4 cpu free, 3 requested), Insufficient memory (4Gi of 8Gi memory free, 6Gi requested)' },
      advice: [
        { reason: 'Insufficient cpu', nodes: ['worker-1'], source: FIT, text: 'the pod requests 3 cpu (spec.containers[0].resources.requests); the most free on a node is 2 on worker-1 (4 allocatable, 2 requested). Lower the request to 2 or less, or add a node with 3 cpu free' },
        { reason: 'Insufficient memory', nodes: ['worker-1'], source: FIT, text: 'the pod requests 6Gi memory (spec.containers[0].resources.requests); the most free on a node is 4Gi on worker-1 (8Gi allocatable, 4Gi requested). Lower the request to 4Gi or less, or add a node with 6Gi memory free' },
      ],
    },
  },
  {
    name: 'A nodeSelector no node matches names the missing label and the command that adds it',
    fixture: 'node-selector',
    want: {
      why: 'no node fits: 0 of 3 nodes passed the filters',
      whyNot: {
        'control-plane': CONTROL_PLANE_TAINT,
        'worker-1': "NodeAffinity: node(s) didn't match Pod's node affinity/selector (no label disktype=ssd)",
        'worker-2': "NodeAffinity: node(s) didn't match Pod's node affinity/selector (no label disktype=ssd)",
      },
      advice: [CONTROL_PLANE_ADVICE, {
        reason: "node(s) didn't match Pod's node affinity/selector", nodes: ['worker-1', 'worker-2'], source: 'pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go',
        text: 'no node has the label disktype=ssd that spec.nodeSelector asks for: label a node (kubectl label node worker-1 disktype=ssd) or remove it from spec.nodeSelector',
      }],
    },
  },
  {
    name: 'A taint with a value asks for an Equal toleration with that value and effect',
    fixture: 'taint-with-value',
    want: {
      why: 'no node fits: 0 of 1 nodes passed the filters',
      whyNot: { 'gpu-1': 'TaintToleration: node(s) had untolerated taint(s) (taint nvidia.com/gpu=present:NoExecute)' },
      advice: [{
        reason: 'node(s) had untolerated taint(s)', nodes: ['gpu-1'], source: TAINTS,
        text: 'gpu-1 has the taint nvidia.com/gpu=present:NoExecute: to run there, add to spec.tolerations {key: nvidia.com/gpu, operator: Equal, value: present, effect: NoExecute}, or remove the taint (kubectl taint nodes gpu-1 nvidia.com/gpu:NoExecute-)',
      }],
    },
  },
  {
    name: 'A missing claim rejected at PreFilter is the reason for every node, and the advice is to create the claim',
    fixture: 'claim-not-found',
    want: {
      why: 'no node fits: 0 of 3 nodes passed the filters',
      whyNot: Object.fromEntries(['control-plane', 'worker-1', 'worker-2'].map((n) => [n, 'VolumeBinding rejected the pod at PreFilter: persistentvolumeclaim "data" not found'])),
      advice: [{
        reason: 'persistentvolumeclaim "data" not found', nodes: [], source: 'pkg/scheduler/framework/plugins/volumebinding/volume_binding.go',
        text: 'create the PersistentVolumeClaim "data" in the pod\'s namespace (kubectl get pvc), or fix spec.volumes[].persistentVolumeClaim.claimName',
      }],
    },
  },
  {
    name: 'A reason no row knows still gets a line pointing at its plugin column',
    fixture: 'unknown-reason',
    want: {
      why: 'no node fits: 0 of 1 nodes passed the filters',
      whyNot: { 'worker-1': 'Custom: node(s) are too blue' },
      advice: [{ reason: 'node(s) are too blue', nodes: ['worker-1'], source: 'pkg/scheduler/framework/plugins', text: 'no advice is known for this reason: see its plugin column in the filter table' }],
    },
  },
  {
    name: 'A cluster without nodes is told to add one',
    fixture: 'no-nodes',
    want: {
      why: 'no node fits: the cluster has no nodes', whyNot: {},
      advice: [{ reason: 'no nodes available to schedule pods', nodes: [], source: 'pkg/scheduler/schedule_one.go', text: 'the cluster has no nodes: add one (a Node in a --cluster file)' }],
    },
  },
];

for (const c of cases) {
  test(c.name, () => {
    const { attempt, facts } = fixture(c.fixture);
    const got = explainAttempt(attempt, 1, facts);
    assert.deepEqual({ chosen: got.chosen, why: got.why, whyNot: got.whyNot, advice: got.advice }, { chosen: c.want.chosen, ...c.want });
    assert.equal(got.message, attempt.chosen ? undefined : attempt.message, 'a Pending pod carries the FailedScheduling message as written');
    assert.deepEqual(got.scores.totals, attempt.totals);
  });
}

const lookups: { name: string; reason: string; plugin: string | undefined }[] = [
  { name: 'An exact reason finds its plugin', reason: "node(s) didn't match Pod's node affinity/selector", plugin: 'NodeAffinity' },
  { name: 'An extended resource finds the Insufficient pattern', reason: 'Insufficient nvidia.com/gpu', plugin: 'NodeResourcesFit' },
  { name: 'A claim name finds the claim pattern', reason: 'persistentvolumeclaim "logs" not found', plugin: 'VolumeBinding' },
  { name: 'Too many pods is not read as a resource', reason: 'Too many pods', plugin: 'NodeResourcesFit' },
  { name: 'An unknown reason finds no row', reason: 'node(s) are too blue', plugin: undefined },
];

for (const c of lookups) {
  test(c.name, () => {
    assert.equal(ruleFor(c.reason)?.rule.plugin, c.plugin);
  });
}

test('Every row of the reason table names the Kubernetes source that writes its reason', () => {
  for (const rule of REASON_RULES) assert.match(rule.source, /^pkg\/scheduler\/.+\.go$/, String(rule.reason));
});

test('Room held for a nominated pod is named on its node, and the advice is not to lower the request', () => {
  // The insufficient-cpu attempt, as if worker-1 had been filtered with a preemptor nominated to it (the filters count
  // it there: RunFilterPluginsWithNominatedPods).
  const { attempt, facts } = fixture('insufficient-cpu');
  attempt.nominated = { 'worker-1': ['default/preemptor'] };
  const got = explainAttempt(attempt, 1, facts);
  assert.equal(got.whyNot['worker-1'], 'NodeResourcesFit: Insufficient cpu (3500m of 4 cpu free, 64 requested; default/preemptor is nominated to it with a priority as high or higher and counted as running there)');
  assert.equal(got.whyNot['worker-2'], 'NodeResourcesFit: Insufficient cpu (3750m of 4 cpu free, 64 requested)');
  assert.deepEqual(got.advice.find((a) => a.reason === 'Insufficient cpu'), {
    reason: 'Insufficient cpu', nodes: ['worker-1', 'worker-2'], source: FIT,
    text: 'the pod requests 64 cpu (spec.containers[0].resources.requests); the room on worker-1 is held for default/preemptor, nominated there '
      + '(after a preemption) with a priority as high or higher: it counts as running there until it is bound. Wait for it, give this pod a '
      + 'higher priority, or add a node with 64 cpu free',
  });
});
