// KubeSchedulerConfiguration: defaults, profiles, plugin sets and weights, args, and the errors kube-scheduler prints at start.
// Expected values from pkg/scheduler/apis/config/v1/defaults_test.go and default_plugins_test.go (mergePlugins),
// apis/config/validation/validation_test.go and validation_pluginargs_test.go, runtime/framework_test.go (NewFramework errors).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputError } from '../../../src/engine/cluster/inputs';
import { loadClusterFiles } from '../../../src/engine/cluster/loader';
import { defaultSchedulerConfiguration, loadSchedulerConfiguration, mergePluginSet } from '../../../src/engine/scheduler/config';
import { Framework } from '../../../src/engine/scheduler/framework/framework';
import { ExtensionPoint } from '../../../src/engine/scheduler/framework/interfaces';
import { DEFAULT_MULTI_POINT } from '../../../src/engine/scheduler/framework/profile';
import { IN_TREE_REGISTRY } from '../../../src/engine/scheduler/plugins/registry';

const HEAD = 'apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n';

function load(body: string) {
  const { cluster } = loadClusterFiles([{ file: 'sched.yaml', text: HEAD + body }]);
  return loadSchedulerConfiguration(cluster.config);
}

function loadError(body: string): { line: number; problem: string } {
  try {
    load(body);
  } catch (e) {
    if (e instanceof InputError) return { line: e.line, problem: e.problem };
    throw e;
  }
  assert.fail('no error');
}

test('Without a configuration kube-scheduler runs the default profile with defaulted args and 1 s / 10 s backoff', () => {
  const config = defaultSchedulerConfiguration();
  assert.deepEqual([config.profiles.length, config.profiles[0]!.schedulerName, config.percentageOfNodesToScore, config.podInitialBackoffSeconds, config.podMaxBackoffSeconds],
    [1, 'default-scheduler', 0, 1, 10]);
  assert.deepEqual(config.profiles[0]!.multiPoint, DEFAULT_MULTI_POINT);
  // SetDefaults_*Args, one per enabled plugin with an args kind, sorted by name (pluginsNames).
  assert.deepEqual(config.profiles[0]!.pluginConfig, [
    { name: 'DefaultPreemption', args: { minCandidateNodesPercentage: 10, minCandidateNodesAbsolute: 100 } },
    { name: 'DynamicResources', args: { filterTimeout: '10s' } },
    { name: 'InterPodAffinity', args: { hardPodAffinityWeight: 1 } },
    { name: 'NodeAffinity', args: {} },
    { name: 'NodeResourcesBalancedAllocation', args: { resources: [{ name: 'cpu', weight: 1 }, { name: 'memory', weight: 1 }] } },
    { name: 'NodeResourcesFit', args: { scoringStrategy: { type: 'LeastAllocated', resources: [{ name: 'cpu', weight: 1 }, { name: 'memory', weight: 1 }] } } },
    { name: 'PodTopologySpread', args: { defaultingType: 'System' } },
    { name: 'VolumeBinding', args: { bindTimeoutSeconds: 600 } },
  ]);
});

const mergeCases: { name: string; custom: { enabled: { name: string; weight?: number }[]; disabled: string[] }; want: string[] }[] = [
  { name: 'A disabled default plugin is left out', custom: { enabled: [], disabled: ['ImageLocality'] }, want: DEFAULT_MULTI_POINT.map((p) => p.name).filter((n) => n !== 'ImageLocality') },
  { name: 'A re-enabled default keeps its place and takes the new weight', custom: { enabled: [{ name: 'TaintToleration', weight: 10 }], disabled: [] }, want: DEFAULT_MULTI_POINT.map((p) => (p.name === 'TaintToleration' ? 'TaintToleration:10' : p.name)) },
  { name: '"*" disables every default; the enabled ones remain, in order', custom: { enabled: [{ name: 'PrioritySort' }, { name: 'DefaultBinder' }], disabled: ['*'] }, want: ['PrioritySort', 'DefaultBinder'] },
  { name: 'A new plugin goes after the defaults', custom: { enabled: [{ name: 'Custom' }], disabled: [] }, want: [...DEFAULT_MULTI_POINT.map((p) => p.name), 'Custom'] },
];

for (const c of mergeCases) {
  test(c.name, () => {
    const got = mergePluginSet(DEFAULT_MULTI_POINT, c.custom).enabled.map((p) => (p.weight !== undefined && p.name === 'TaintToleration' && p.weight !== 3 ? `${p.name}:${p.weight}` : p.name));
    assert.deepEqual(got, c.want);
  });
}

test('Profiles, weights, disabled plugins, percentages and backoff are read', () => {
  const config = load(`percentageOfNodesToScore: 40
podInitialBackoffSeconds: 2
podMaxBackoffSeconds: 20
profiles:
  - schedulerName: default-scheduler
  - schedulerName: bin-packer
    percentageOfNodesToScore: 70
    plugins:
      score:
        disabled:
          - name: ImageLocality
        enabled:
          - name: NodeResourcesFit
            weight: 5
    pluginConfig:
      - name: NodeResourcesFit
        args:
          scoringStrategy:
            type: MostAllocated
`);
  assert.deepEqual([config.percentageOfNodesToScore, config.podInitialBackoffSeconds, config.podMaxBackoffSeconds], [40, 2, 20]);
  assert.deepEqual(config.profiles.map((p) => [p.schedulerName, p.percentageOfNodesToScore]), [['default-scheduler', undefined], ['bin-packer', 70]]);
  const fw = new Framework(IN_TREE_REGISTRY, config.profiles[1]!);
  // The Score set's own plugin comes first (an override of MultiPoint's) with its own weight; the others keep theirs.
  assert.deepEqual([fw.scorePlugins[0]?.name, fw.scoreWeights.get('NodeResourcesFit'), fw.scoreWeights.get('TaintToleration')], ['NodeResourcesFit', 5, 3]);
  assert.ok(!fw.scorePlugins.some((p) => p.name === 'ImageLocality'));
  assert.deepEqual(config.profiles[1]!.pluginConfig?.find((c) => c.name === 'NodeResourcesFit')?.args, { scoringStrategy: { type: 'MostAllocated', resources: [{ name: 'cpu', weight: 1 }, { name: 'memory', weight: 1 }] } });
});

test('A "*" disabled at one extension point removes MultiPoint\'s plugins there only', () => {
  const config = load(`profiles:
  - plugins:
      score:
        disabled:
          - name: "*"
`);
  const fw = new Framework(IN_TREE_REGISTRY, config.profiles[0]!);
  assert.deepEqual(fw.scorePlugins, []);
  assert.ok(fw.filterPlugins.some((p) => p.name === 'TaintToleration'));
  assert.deepEqual(config.profiles[0]!.extensionPoints?.[ExtensionPoint.Score], { enabled: [], disabled: ['*'] });
});

const errorCases: { name: string; body: string; line: number; problem: string }[] = [
  { name: 'A percentage above 100 is refused', body: 'percentageOfNodesToScore: 120\n', line: 3, problem: 'percentageOfNodesToScore: Invalid value: 120: not in valid range [0-100]' },
  { name: 'A maximum backoff below the initial one is refused', body: 'podInitialBackoffSeconds: 5\npodMaxBackoffSeconds: 2\n', line: 4, problem: 'podMaxBackoffSeconds: Invalid value: 2: must be greater than or equal to PodInitialBackoffSeconds' },
  { name: 'An initial backoff of 0 is refused', body: 'podInitialBackoffSeconds: 0\n', line: 3, problem: 'podInitialBackoffSeconds: Invalid value: 0: must be greater than 0' },
  {
    name: 'Several problems are printed together, as an aggregate',
    body: 'percentageOfNodesToScore: -1\npodInitialBackoffSeconds: 3\npodMaxBackoffSeconds: 1\n', line: 3,
    problem: '[percentageOfNodesToScore: Invalid value: -1: not in valid range [0-100], podMaxBackoffSeconds: Invalid value: 1: must be greater than or equal to PodInitialBackoffSeconds]',
  },
  { name: 'Two profiles need names', body: 'profiles:\n  - schedulerName: a\n  - percentageOfNodesToScore: 10\n', line: 5, problem: 'profiles[1].schedulerName: Required value' },
  { name: 'An unknown field is a strict decoding error', body: 'profiles:\n  - schedulerName: a\n    plugin: {}\n', line: 5, problem: 'strict decoding error: unknown field "profiles[0].plugin"' },
  { name: 'A string where a number goes is json\'s error', body: 'parallelism: many\n', line: 3, problem: 'json: cannot unmarshal string into Go struct field KubeSchedulerConfiguration.parallelism of type int32' },
  { name: 'A plugin no registry knows does not exist', body: 'profiles:\n  - plugins:\n      multiPoint:\n        enabled:\n          - name: Foo\n', line: 4, problem: 'initializing profiles: creating profile for scheduler name default-scheduler: PreFilterPlugin "Foo" does not exist' },
  { name: 'A plugin enabled where it has no such extension point does not extend it', body: 'profiles:\n  - plugins:\n      score:\n        enabled:\n          - name: NodeName\n', line: 4, problem: 'initializing profiles: creating profile for scheduler name default-scheduler: plugin "NodeName" does not extend ScorePlugin plugin' },
  {
    name: 'System defaulting with default constraints is refused',
    body: 'profiles:\n  - pluginConfig:\n      - name: PodTopologySpread\n        args:\n          defaultingType: System\n          defaultConstraints:\n            - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}\n',
    line: 7, problem: 'profiles[0].pluginConfig[0].args.defaultingType: Invalid value: "System": when .defaultConstraints are not empty',
  },
];

for (const c of errorCases) {
  test(c.name, () => {
    assert.deepEqual(loadError(c.body), { line: c.line, problem: c.problem });
  });
}

test('Two profiles with one name are a duplicate', () => {
  const err = loadError('profiles:\n  - schedulerName: a\n  - schedulerName: a\n');
  assert.equal(err.problem, 'profiles[1].schedulerName: Duplicate value: "profiles[0].schedulerName"');
  assert.equal(err.line, 5);
});
