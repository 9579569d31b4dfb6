// NodeResourcesFitArgs: v1 defaulting, validation messages as field.Error prints them, ignored resources in the Filter,
// and a whole cycle with the MostAllocated strategy. See pkg/scheduler/apis/config/v1/defaults.go
// (SetDefaults_NodeResourcesFitArgs) and pkg/scheduler/apis/config/validation/validation_pluginargs.go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PluginFactory } from '../../../src/engine/scheduler/framework/interfaces';
import { Framework } from '../../../src/engine/scheduler/framework/framework';
import { DEFAULT_PROFILE } from '../../../src/engine/scheduler/framework/profile';
import { Snapshot } from '../../../src/engine/scheduler/framework/snapshot';
import {
  defaultNodeResourcesFitArgs, newNodeResourcesFit, validateNodeResourcesFitArgs, type NodeResourcesFitArgs,
} from '../../../src/engine/scheduler/plugins/noderesources-fit';
import { IN_TREE_REGISTRY } from '../../../src/engine/scheduler/plugins/registry';
import { makeNode, makePod, runCycle, runFilter } from './builders';

test('No args default to LeastAllocated over cpu and memory with weight 1', () => {
  assert.deepEqual(defaultNodeResourcesFitArgs({}), {
    scoringStrategy: { type: 'LeastAllocated', resources: [{ name: 'cpu', weight: 1 }, { name: 'memory', weight: 1 }] },
  });
});

test('A strategy without resources gets cpu and memory; a weight of 0 or none becomes 1', () => {
  assert.deepEqual(defaultNodeResourcesFitArgs({ scoringStrategy: { type: 'MostAllocated' } }).scoringStrategy?.resources, [{ name: 'cpu', weight: 1 }, { name: 'memory', weight: 1 }]);
  assert.deepEqual(defaultNodeResourcesFitArgs({ scoringStrategy: { type: 'MostAllocated', resources: [{ name: 'cpu', weight: 0 }, { name: 'memory' }] } }).scoringStrategy?.resources,
    [{ name: 'cpu', weight: 1 }, { name: 'memory', weight: 1 }]);
});

const RTC = 'RequestedToCapacityRatio';
const validationCases: { name: string; args: NodeResourcesFitArgs; want: string[] }[] = [
  { name: 'Defaulted args are valid', args: defaultNodeResourcesFitArgs(), want: [] },
  { name: 'A missing scoring strategy is required', args: {}, want: ['scoringStrategy: Required value: ScoringStrategy field is required'] },
  {
    name: 'A negative weight is out of range',
    args: { scoringStrategy: { type: 'MostAllocated', resources: [{ name: 'memory', weight: -1 }, { name: 'cpu', weight: 1 }] } },
    want: ['scoringStrategy.resources[0].weight: Invalid value: -1: resource weight of memory not in valid range (0, 100]'],
  },
  {
    name: 'A zero weight is out of range before defaulting',
    args: { scoringStrategy: { type: 'MostAllocated', resources: [{ name: 'memory', weight: 1 }, { name: 'cpu', weight: 0 }] } },
    want: ['scoringStrategy.resources[1].weight: Invalid value: 0: resource weight of cpu not in valid range (0, 100]'],
  },
  {
    name: 'A weight above 100 is out of range',
    args: { scoringStrategy: { type: 'LeastAllocated', resources: [{ name: 'memory', weight: 101 }] } },
    want: ['scoringStrategy.resources[0].weight: Invalid value: 101: resource weight of memory not in valid range (0, 100]'],
  },
  {
    name: 'An unknown strategy is not supported',
    args: { scoringStrategy: { type: 'Balanced', resources: [{ name: 'cpu', weight: 1 }] } },
    want: ['scoringStrategy.type: Unsupported value: "Balanced": supported values: "LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"'],
  },
  {
    name: 'RequestedToCapacityRatio needs its parameters',
    args: { scoringStrategy: { type: RTC, resources: [{ name: 'cpu', weight: 1 }] } },
    want: ['scoringStrategy.requestedToCapacityRatio: Required value: must be specified when type is RequestedToCapacityRatio'],
  },
  {
    name: 'A shape needs a point',
    args: { scoringStrategy: { type: RTC, resources: [{ name: 'cpu', weight: 1 }], requestedToCapacityRatio: { shape: [] } } },
    want: ['scoringStrategy.requestedToCapacityRatio.shape: Required value: at least one point must be specified'],
  },
  {
    name: 'Shape points must go up in utilization and stay in range',
    args: { scoringStrategy: { type: RTC, resources: [{ name: 'cpu', weight: 1 }], requestedToCapacityRatio: { shape: [{ utilization: 50, score: 11 }, { utilization: 10, score: 1 }, { utilization: 101, score: -1 }] } } },
    want: [
      'scoringStrategy.requestedToCapacityRatio.shape[1].utilization: Invalid value: 10: values must be sorted in increasing order',
      'scoringStrategy.requestedToCapacityRatio.shape[0].score: Invalid value: 11: not in valid range [0, 10]',
      'scoringStrategy.requestedToCapacityRatio.shape[2].utilization: Invalid value: 101: not in valid range [0, 100]',
      'scoringStrategy.requestedToCapacityRatio.shape[2].score: Invalid value: -1: not in valid range [0, 10]',
    ],
  },
  {
    name: 'Shape parameters are forbidden for the other strategies',
    args: { scoringStrategy: { type: 'LeastAllocated', resources: [{ name: 'cpu', weight: 1 }], requestedToCapacityRatio: { shape: [{ utilization: 0, score: 0 }] } } },
    want: ['scoringStrategy.requestedToCapacityRatio: Forbidden: must be nil when type is not RequestedToCapacityRatio'],
  },
  {
    name: 'A resource group may not contain a slash',
    args: { ignoredResourceGroups: ['example.com/aaa'], scoringStrategy: { type: 'LeastAllocated', resources: [{ name: 'cpu', weight: 1 }] } },
    want: ['ignoredResourceGroups[0]: Invalid value: "example.com/aaa": resource group name can\'t contain \'/\''],
  },
];

for (const c of validationCases) {
  test(c.name, () => assert.deepEqual(validateNodeResourcesFitArgs(c.args), c.want));
}

test('The factory throws the aggregate of the errors, as NewFit returns them', () => {
  assert.throws(() => newNodeResourcesFit({ scoringStrategy: { type: 'Balanced', resources: [{ name: 'cpu', weight: 101 }] } }), {
    message: '[scoringStrategy.type: Unsupported value: "Balanced": supported values: "LeastAllocated", "MostAllocated", "RequestedToCapacityRatio", scoringStrategy.resources[0].weight: Invalid value: 101: resource weight of cpu not in valid range (0, 100]]',
  });
  assert.equal(newNodeResourcesFit({ scoringStrategy: { type: 'MostAllocated', resources: [{ name: 'cpu', weight: 0 }] } }).config.resources[0]?.weight, 1);
});

const EXT = 'example.com/aaa';
const extNode = () => makeNode('node').capacity({ cpu: '1', memory: '1Gi' }).obj();
const wantsExt = () => makePod('p').req({ cpu: '100m', [EXT]: '2' }).obj();

test('The Filter checks an extended resource the node lacks', () => {
  assert.deepEqual(runFilter(newNodeResourcesFit(), wantsExt(), extNode()), { code: 'UnschedulableAndUnresolvable', reasons: [`Insufficient ${EXT}`] });
});

test('The Filter skips an ignored extended resource, by name or by group', () => {
  assert.deepEqual(runFilter(newNodeResourcesFit({ ignoredResources: [EXT] }), wantsExt(), extNode()), { code: 'Success', reasons: [] });
  assert.deepEqual(runFilter(newNodeResourcesFit({ ignoredResourceGroups: ['example.com'] }), wantsExt(), extNode()), { code: 'Success', reasons: [] });
});

test('With MostAllocated the default profile packs the pod onto the busier worker', () => {
  const registry = new Map<string, PluginFactory>(IN_TREE_REGISTRY);
  registry.set('NodeResourcesFit', () => newNodeResourcesFit({ scoringStrategy: { type: 'MostAllocated' } }));
  const nodes = ['worker-1', 'worker-2'].map((n) => makeNode(n).capacity({ cpu: '4', memory: '8Gi', pods: '110' }).obj());
  const busy = makePod('busy', 'kube-system').node('worker-1').req({ cpu: '2', memory: '4Gi' }).obj();
  const pod = makePod('web').req({ cpu: '500m', memory: '512Mi' });
  const packed = runCycle({ pod: pod.obj(), snapshot: Snapshot.build(nodes, [busy]), framework: new Framework(registry, DEFAULT_PROFILE) });
  const spread = runCycle({ pod: pod.obj(), snapshot: Snapshot.build(nodes, [busy]) });
  assert.deepEqual([packed.result.suggestedHost, spread.result.suggestedHost], ['worker-1', 'worker-2']);
});
