// The 1.36 default profile: plugin order and weights, the extension points each plugin runs at, and the registry.
// Expected values from pkg/scheduler/apis/config/v1/default_plugins.go and default_plugins_test.go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ExtensionPoint, isFilterPlugin, isPostFilterPlugin, isPreFilterPlugin, isPreScorePlugin, isScorePlugin, type Plugin } from '../../../src/engine/scheduler/framework/interfaces';
import { DEFAULT_PROFILE, KUBERNETES_EXTENSION_POINTS, MAX_NODE_SCORE, pluginsAt } from '../../../src/engine/scheduler/framework/profile';
import { IN_TREE_REGISTRY } from '../../../src/engine/scheduler/plugins/registry';
import { framework } from './builders';

test('The default profile lists the MultiPoint plugins in Kubernetes order', () => {
  assert.deepEqual(DEFAULT_PROFILE.multiPoint.map((p) => p.name), [
    'SchedulingGates', 'PrioritySort', 'NodeUnschedulable', 'NodeName', 'TaintToleration', 'NodeAffinity', 'NodePorts',
    'NodeResourcesFit', 'VolumeRestrictions', 'NodeVolumeLimits', 'VolumeBinding', 'VolumeZone', 'PodTopologySpread',
    'InterPodAffinity', 'DynamicResources', 'DefaultPreemption', 'NodeResourcesBalancedAllocation', 'ImageLocality', 'DefaultBinder',
  ]);
});

test('The score plugins carry the default weights', () => {
  assert.deepEqual(pluginsAt(DEFAULT_PROFILE, ExtensionPoint.Score), [
    { name: 'TaintToleration', weight: 3 }, { name: 'NodeAffinity', weight: 2 }, { name: 'NodeResourcesFit', weight: 1 },
    // VolumeBinding scores with the default weight 1 (ExpandedPluginsV1); its PreScore skips Score without StorageCapacityScoring.
    { name: 'VolumeBinding', weight: 1 }, { name: 'PodTopologySpread', weight: 2 }, { name: 'InterPodAffinity', weight: 2 },
    { name: 'NodeResourcesBalancedAllocation', weight: 1 }, { name: 'ImageLocality', weight: 1 },
  ]);
  assert.equal(MAX_NODE_SCORE, 100);
});

test('PostFilter runs DynamicResources before DefaultPreemption', () => {
  assert.deepEqual(pluginsAt(DEFAULT_PROFILE, ExtensionPoint.PostFilter).map((p) => p.name), ['DynamicResources', 'DefaultPreemption']);
});

test('The framework files each simulated plugin under the extension points Kubernetes runs it at', () => {
  const fw = framework();
  const has: [ExtensionPoint, (p: Plugin) => boolean][] = [
    [ExtensionPoint.PreFilter, isPreFilterPlugin], [ExtensionPoint.Filter, isFilterPlugin], [ExtensionPoint.PostFilter, isPostFilterPlugin],
    [ExtensionPoint.PreScore, isPreScorePlugin], [ExtensionPoint.Score, isScorePlugin],
  ];
  for (const [name, plugin] of fw.plugins) {
    const expected = KUBERNETES_EXTENSION_POINTS[name] ?? [];
    for (const [point, implements_] of has) {
      if (implements_(plugin)) assert.ok(expected.includes(point), `${name} should not run at ${point}`);
      else if (name !== 'DynamicResources') assert.ok(!expected.includes(point), `${name} should run at ${point}`);
    }
  }
  assert.deepEqual(fw.scorePlugins.map((p) => [p.name, fw.scoreWeights.get(p.name)]), [
    ['TaintToleration', 3], ['NodeAffinity', 2], ['NodeResourcesFit', 1], ['VolumeBinding', 1], ['PodTopologySpread', 2], ['InterPodAffinity', 2],
    ['NodeResourcesBalancedAllocation', 1], ['ImageLocality', 1],
  ]);
});

test('Every plugin of the default profile has a factory in the registry', () => {
  assert.deepEqual(framework().missing, []);
  assert.equal(IN_TREE_REGISTRY.size, 19);
});
