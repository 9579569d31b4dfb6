// Cluster events: which node and pod changes the scheduler tells apart, their labels, and how registrations match.
// Expected values from pkg/scheduler/framework/events.go and events_test.go (TestNodeSchedulingPropertiesChange,
// TestPodSchedulingPropertiesChange) and types.go (ClusterEvent.Label, MatchClusterEvents).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Node, Pod } from '../../../../src/engine/api/types';
import { ActionType, eventLabel, Events, matchClusterEvents, nodeSchedulingPropertiesChange, podSchedulingPropertiesChange, type ClusterEvent } from '../../../../src/engine/scheduler/queue/events';
import { makeNode, makePod } from '../builders';

const base = (): Node => makeNode('n1').capacity({ cpu: '4', memory: '8Gi' }).obj();
const labels = (events: ClusterEvent[]): string[] => events.map(eventLabel);

const nodeCases: { name: string; change: (n: Node) => void; want: string[] }[] = [
  { name: 'A node that did not change sends no event', change: () => undefined, want: [] },
  { name: 'A cordoned node is a taint change', change: (n) => void (n.spec!.unschedulable = true), want: ['NodeUpdateNodeTaint'] },
  { name: 'More allocatable cpu is an allocatable change', change: (n) => void (n.status!.allocatable = { ...n.status!.allocatable, cpu: '8' }), want: ['NodeUpdateNodeAllocatable'] },
  { name: 'A new label is a label change', change: (n) => void (n.metadata!.labels!['zone'] = 'a'), want: ['NodeUpdateNodeLabel'] },
  { name: 'A new taint is a taint change', change: (n) => void (n.spec!.taints = [{ key: 'k', effect: 'NoSchedule' }]), want: ['NodeUpdateNodeTaint'] },
  { name: 'A Ready condition turning False is a condition change', change: (n) => void (n.status!.conditions = [{ type: 'Ready', status: 'False' }]), want: ['NodeUpdateNodeCondition'] },
  {
    name: 'Several changes at once give one event each, in the extractors\' order',
    change: (n) => {
      n.metadata!.labels!['zone'] = 'a';
      n.status!.allocatable = { ...n.status!.allocatable, memory: '16Gi' };
    },
    want: ['NodeUpdateNodeAllocatable', 'NodeUpdateNodeLabel'],
  },
];

for (const c of nodeCases) {
  test(c.name, () => {
    const old = base();
    const node = structuredClone(old);
    c.change(node);
    assert.deepEqual(labels(nodeSchedulingPropertiesChange(node, old)), c.want);
  });
}

const podCases: { name: string; old: Pod; pod: Pod; want: string[] }[] = [
  { name: 'A status-only update of an unscheduled pod is a plain update', old: makePod().obj(), pod: makePod().nominatedNodeName('n1').obj(), want: ['UnschedulablePodUpdate'] },
  { name: 'Removing the last scheduling gate is UpdatePodSchedulingGatesEliminated', old: makePod().schedulingGates('a').obj(), pod: makePod().obj(), want: ['UnschedulablePodUpdatePodSchedulingGatesEliminated'] },
  { name: 'Removing one of two gates is not', old: makePod().schedulingGates('a', 'b').obj(), pod: makePod().schedulingGates('b').obj(), want: ['UnschedulablePodUpdate'] },
  { name: 'A new label of a bound pod is an assigned pod label change', old: makePod().node('n1').obj(), pod: makePod().node('n1').label('app', 'web').obj(), want: ['AssignedPodUpdatePodLabel'] },
  { name: 'A new toleration is a toleration change', old: makePod().obj(), pod: makePod().toleration({ key: 'k', operator: 'Exists' }).obj(), want: ['UnschedulablePodUpdatePodToleration'] },
];

for (const c of podCases) {
  test(c.name, () => {
    assert.deepEqual(labels(podSchedulingPropertiesChange(c.pod, c.old)), c.want);
  });
}

const matchCases: { name: string; registered: ClusterEvent; event: ClusterEvent; want: boolean }[] = [
  { name: 'A Pod registration hears assigned pods', registered: { resource: 'Pod', actionType: ActionType.Delete }, event: Events.AssignedPodDelete, want: true },
  { name: 'A Pod registration hears unscheduled pods', registered: { resource: 'Pod', actionType: ActionType.UpdatePodToleration }, event: { resource: 'UnschedulablePod', actionType: ActionType.UpdatePodToleration }, want: true },
  { name: 'An action the registration does not name does not match', registered: { resource: 'Node', actionType: ActionType.Add }, event: { resource: 'Node', actionType: ActionType.UpdateNodeLabel }, want: false },
  { name: 'Update covers every specific update', registered: { resource: 'Node', actionType: ActionType.Update }, event: { resource: 'Node', actionType: ActionType.UpdateNodeTaint }, want: true },
  { name: 'Another resource does not match', registered: { resource: 'Node', actionType: ActionType.All }, event: Events.AssignedPodDelete, want: false },
  { name: 'A wildcard registration hears everything', registered: { resource: '*', actionType: ActionType.All }, event: Events.NodeAdd, want: true },
];

for (const c of matchCases) {
  test(c.name, () => {
    assert.equal(matchClusterEvents(c.registered, c.event), c.want);
  });
}

test('Events are labelled resource then action, or by their own label', () => {
  assert.deepEqual([Events.NodeAdd, Events.AssignedPodDelete, Events.UnscheduledPodAdd, Events.UnschedulableTimeout, Events.ForceActivate].map(eventLabel),
    ['NodeAdd', 'AssignedPodDelete', 'UnschedulablePodAdd', 'UnschedulableTimeout', 'ForceActivate']);
});
