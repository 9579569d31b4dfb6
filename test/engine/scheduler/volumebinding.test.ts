// VolumeBinding: claims that exist and are bound, or WaitForFirstConsumer claims bindable on the node; Reserve and PreBind.
// Reasons from pkg/scheduler/framework/plugins/volumebinding/volume_binding.go (PreFilter) and binder.go (ConflictReasons);
// cases from volume_binding_test.go (TestVolumeBinding) and binder_test.go (TestFindPodVolumesWithProvisioning, TestAssumePodVolumes).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod, Volume } from '../../../src/engine/api/types';
import type { ObjectWrite, PreBindPlugin, PreScorePlugin, ReservePlugin } from '../../../src/engine/scheduler/framework/interfaces';
import { viewOf } from '../../../src/engine/scheduler/framework/status';
import { ConflictReason, ErrReasonUnboundImmediate, Name } from '../../../src/engine/scheduler/plugins/volumebinding';
import { framework, makeCSINode, makeNode, makePod, makePV, makePVC, makeStorageClass, pvcVolume, runVolumePlugin, withVolumes } from './builders';

const SUCCESS = { code: 'Success', reasons: [] };
const SKIP = { code: 'Skip', reasons: [] };
const unresolvable = (...reasons: string[]) => ({ code: 'UnschedulableAndUnresolvable', reasons });
const HOSTNAME = 'kubernetes.io/hostname';
const ZONE = 'topology.kubernetes.io/zone';

const waitSC = makeStorageClass('wait-sc', 'WaitForFirstConsumer');
const immediateSC = makeStorageClass('immediate-sc', 'Immediate');
const provisionSC = makeStorageClass('provision-sc', 'WaitForFirstConsumer', 'example.com/csi', [{ key: ZONE, values: ['zone-a'] }]);
const anySC = makeStorageClass('any-sc', 'WaitForFirstConsumer', 'example.com/csi');
const classes = [waitSC, immediateSC, provisionSC, anySC];

const podWith = (...claims: string[]): Pod => withVolumes(makePod('pod-a'), ...claims.map((c) => pvcVolume(c))).obj();
const nodes = (...names: string[]) => names.map((n) => makeNode(n).label(ZONE, n === 'node-a' ? 'zone-a' : 'zone-b').obj());

const cases: { name: string; pod: Pod; nodes?: string[]; objects: object[]; preFilter?: object; filter: object[] }[] = [
  { name: 'pod has not pvcs', pod: makePod('pod-a').obj(), objects: [], preFilter: SKIP, filter: [SUCCESS] },
  { name: 'all bound', pod: podWith('pvc-a'), objects: [makePVC('pvc-a').storageClass('wait-sc').boundTo('pv-a').obj(), makePV('pv-a').storageClass('wait-sc').obj()], filter: [SUCCESS] },
  {
    name: 'all bound with local volumes fit their node only', pod: podWith('pvc-a', 'pvc-b'), nodes: ['node-a', 'node-b'],
    objects: [
      makePVC('pvc-a').storageClass('wait-sc').boundTo('pv-a').obj(), makePVC('pvc-b').storageClass('wait-sc').boundTo('pv-b').obj(),
      makePV('pv-a').storageClass('wait-sc').phase('Bound').nodeAffinity(HOSTNAME, 'node-a').obj(), makePV('pv-b').storageClass('wait-sc').phase('Bound').nodeAffinity(HOSTNAME, 'node-a').obj(),
    ],
    filter: [SUCCESS, unresolvable(ConflictReason.NodeConflict)],
  },
  { name: 'PVC does not exist', pod: podWith('pvc-a'), objects: [], preFilter: unresolvable('persistentvolumeclaim "pvc-a" not found'), filter: [SUCCESS] },
  {
    name: 'Part of PVCs do not exist', pod: podWith('pvc-a', 'pvc-b'), objects: [makePVC('pvc-a').storageClass('wait-sc').boundTo('pv-a').obj()],
    preFilter: unresolvable('persistentvolumeclaim "pvc-b" not found'), filter: [SUCCESS],
  },
  { name: 'immediate claims not bound', pod: podWith('pvc-a'), objects: [makePVC('pvc-a').storageClass('immediate-sc').obj()], preFilter: unresolvable(ErrReasonUnboundImmediate), filter: [SUCCESS] },
  { name: 'a claim without a class is an immediate one', pod: podWith('pvc-a'), objects: [makePVC('pvc-a').obj()], preFilter: unresolvable(ErrReasonUnboundImmediate), filter: [SUCCESS] },
  {
    name: 'a WaitForFirstConsumer claim pre-bound by its user waits for the PV controller like an immediate one', pod: podWith('pvc-a'),
    objects: [makePVC('pvc-a').storageClass('wait-sc').volumeName('pv-a').obj(), makePV('pv-a').storageClass('wait-sc').obj()], preFilter: unresolvable(ErrReasonUnboundImmediate), filter: [SUCCESS],
  },
  { name: 'unbound claims no matches', pod: podWith('pvc-a'), objects: [makePVC('pvc-a').storageClass('wait-sc').obj()], filter: [unresolvable(ConflictReason.BindConflict)] },
  {
    name: 'bound and unbound unsatisfied', pod: podWith('pvc-a', 'pvc-b'),
    objects: [makePVC('pvc-a').storageClass('wait-sc').boundTo('pv-a').obj(), makePVC('pvc-b').storageClass('wait-sc').obj(), makePV('pv-a').storageClass('wait-sc').nodeAffinity('foo', 'bar').obj()],
    filter: [unresolvable(ConflictReason.NodeConflict, ConflictReason.BindConflict)],
  },
  { name: 'pv not found', pod: podWith('pvc-a'), objects: [makePVC('pvc-a').storageClass('wait-sc').boundTo('pv-a').obj()], filter: [unresolvable(ConflictReason.PVNotExist)] },
  {
    name: 'pv not found claim lost', pod: podWith('pvc-a'), objects: [makePVC('pvc-a').storageClass('wait-sc').boundTo('pv-a').phase('Lost').obj()],
    preFilter: unresolvable('persistentvolumeclaim "pvc-a" bound to non-existent persistentvolume "pv-a"'), filter: [SUCCESS],
  },
  { name: 'a claim being deleted', pod: podWith('pvc-a'), objects: [makePVC('pvc-a').storageClass('wait-sc').terminating().obj()], preFilter: unresolvable('persistentvolumeclaim "pvc-a" is being deleted'), filter: [SUCCESS] },
  {
    name: 'a generic ephemeral volume whose claim is not created yet', pod: withVolumes(makePod('pod-a'), { name: 'data', ephemeral: {} } as Volume).obj(), objects: [],
    preFilter: unresolvable('waiting for ephemeral volume controller to create the persistentvolumeclaim "pod-a-data"'), filter: [SUCCESS],
  },
  {
    name: 'local volumes: nodes with a big enough available PV fit, the others do not', pod: podWith('pvc-a'), nodes: ['node-a', 'node-b', 'node-c'],
    objects: [
      makePVC('pvc-a').storageClass('wait-sc').request('50Gi').obj(),
      makePV('pv-a-0').storageClass('wait-sc').capacity('200Gi').nodeAffinity(HOSTNAME, 'node-a').obj(),
      makePV('pv-b-0').storageClass('wait-sc').capacity('100Gi').nodeAffinity(HOSTNAME, 'node-b').obj(),
      makePV('pv-c-0').storageClass('wait-sc').capacity('10Gi').nodeAffinity(HOSTNAME, 'node-c').obj(),
    ],
    filter: [SUCCESS, SUCCESS, unresolvable(ConflictReason.BindConflict)],
  },
  {
    name: 'a PV bound to another claim, of another class or not Available is not matched', pod: podWith('pvc-a'),
    objects: [
      makePVC('pvc-a').storageClass('wait-sc').obj(),
      makePV('pv-taken').storageClass('wait-sc').claimRef('other').obj(), makePV('pv-other-class').storageClass('immediate-sc').obj(),
      makePV('pv-released').storageClass('wait-sc').phase('Released').obj(), makePV('pv-rwx').storageClass('wait-sc').accessModes('ReadWriteMany').obj(),
    ],
    filter: [unresolvable(ConflictReason.BindConflict)],
  },
  {
    name: 'dynamic provisioning is allowed where the class\'s allowedTopologies match the node', pod: podWith('pvc-a'), nodes: ['node-a', 'node-b'],
    objects: [makePVC('pvc-a').storageClass('provision-sc').obj()], filter: [SUCCESS, unresolvable(ConflictReason.BindConflict)],
  },
  {
    name: 'a claim already being provisioned for a node fits only that node', pod: podWith('pvc-a'), nodes: ['node-a', 'node-b'],
    objects: [makePVC('pvc-a').storageClass('any-sc').annotation('volume.kubernetes.io/selected-node', 'node-b').obj()],
    filter: [unresolvable(ConflictReason.BindConflict), SUCCESS],
  },
  {
    name: 'a CSI driver that tracks capacity rejects a node without enough free storage', pod: podWith('pvc-a'), nodes: ['node-a'],
    objects: [
      makePVC('pvc-a').storageClass('provision-sc').request('50Gi').obj(),
      { apiVersion: 'storage.k8s.io/v1', kind: 'CSIDriver', metadata: { name: 'example.com/csi' }, spec: { storageCapacity: true } },
      { apiVersion: 'storage.k8s.io/v1', kind: 'CSIStorageCapacity', metadata: { name: 'cap', namespace: 'kube-system' }, storageClassName: 'provision-sc', capacity: '10Gi', nodeTopology: { matchLabels: { [ZONE]: 'zone-a' } } },
    ],
    filter: [unresolvable(ConflictReason.NotEnoughSpace)],
  },
];

for (const c of cases) {
  test(c.name, () => {
    const run = runVolumePlugin(Name, c.pod, nodes(...(c.nodes ?? ['node-a'])), [], [...classes, ...c.objects]);
    assert.deepEqual({ preFilter: run.preFilter, filter: run.filter }, { preFilter: c.preFilter ?? SUCCESS, filter: c.filter });
  });
}

type Binding = ReservePlugin & PreBindPlugin & PreScorePlugin;

/** bindOn runs PreFilter and Filter on node-a and node-b, then Reserve and PreBind on one node, and returns the writes. */
function bindOn(node: string, pod: Pod, objects: object[], fw = framework()): { writes: ObjectWrite[]; run: ReturnType<typeof runVolumePlugin> } {
  const run = runVolumePlugin(Name, pod, nodes('node-a', 'node-b'), [], [...classes, ...objects], fw);
  const plugin = run.fw.plugins.get(Name) as Binding;
  assert.equal(plugin.reserve(run.state, pod, node), null);
  assert.equal(plugin.preBind(run.state, pod, node), null);
  return { writes: plugin.preBindWrites!(run.state, pod, node), run };
}

const summary = (writes: ObjectWrite[]) => writes.map((w) => `${w.by} ${w.verb}${w.subresource ? '/status' : ''} ${w.object.kind}/${w.object.metadata?.name}`);

test('PreBind binds a WaitForFirstConsumer claim to the local PV on the chosen node, then the PV controller completes it', () => {
  const objects = [makePVC('data').storageClass('wait-sc').request('1Gi').obj(), makePV('local-b').storageClass('wait-sc').capacity('5Gi').local('node-b').obj()];
  const { writes, run } = bindOn('node-b', podWith('data'), objects);
  assert.deepEqual(run.filter, [unresolvable(ConflictReason.BindConflict), SUCCESS]);
  assert.deepEqual(summary(writes), [
    'kube-scheduler update PersistentVolume/local-b',
    'persistentvolume-controller update/status PersistentVolume/local-b',
    'persistentvolume-controller update PersistentVolumeClaim/data',
    'persistentvolume-controller update/status PersistentVolumeClaim/data',
  ]);
  assert.deepEqual(writes[0]!.object.spec, {
    accessModes: ['ReadWriteOnce'], capacity: { storage: '5Gi' }, storageClassName: 'wait-sc', local: { path: '/mnt/disks/vol1' },
    nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: HOSTNAME, operator: 'In', values: ['node-b'] }] }] } },
    claimRef: { kind: 'PersistentVolumeClaim', namespace: 'default', name: 'data', uid: 'uid-pvc-default-data', apiVersion: 'v1', resourceVersion: '1' },
  });
  assert.deepEqual(writes[0]!.object.metadata?.annotations, { 'pv.kubernetes.io/bound-by-controller': 'yes' });
  assert.equal((writes[1]!.object.status as { phase: string }).phase, 'Bound');
  assert.deepEqual(writes[2]!.object.metadata?.annotations, { 'pv.kubernetes.io/bind-completed': 'yes', 'pv.kubernetes.io/bound-by-controller': 'yes' });
  assert.equal((writes[2]!.object.spec as { volumeName: string }).volumeName, 'local-b');
  assert.deepEqual(writes[3]!.object.status, { phase: 'Bound', accessModes: ['ReadWriteOnce'], capacity: { storage: '5Gi' } });
});

test('PreBind hands a claim to its provisioner with the selected node, and the provisioned PV follows the driver topology', () => {
  const objects = [makePVC('data').storageClass('provision-sc').request('2Gi').obj(), makeCSINode('node-a', { name: 'example.com/csi', topologyKeys: [ZONE] })];
  const { writes } = bindOn('node-a', podWith('data'), objects);
  assert.deepEqual(summary(writes), [
    'kube-scheduler update PersistentVolumeClaim/data',
    'persistentvolume-controller update PersistentVolumeClaim/data',
    'external-provisioner create PersistentVolume/pvc-uid-pvc-default-data',
    'persistentvolume-controller update/status PersistentVolume/pvc-uid-pvc-default-data',
    'persistentvolume-controller update PersistentVolumeClaim/data',
    'persistentvolume-controller update/status PersistentVolumeClaim/data',
  ]);
  assert.equal(writes[0]!.object.metadata?.annotations?.['volume.kubernetes.io/selected-node'], 'node-a');
  assert.deepEqual((writes[2]!.object.spec as { nodeAffinity: unknown }).nodeAffinity, { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: ZONE, operator: 'In', values: ['zone-a'] }] }] } });
});

test('A pod whose claims are all bound has nothing to bind at PreBind', () => {
  const objects = [makePVC('data').storageClass('wait-sc').boundTo('pv').obj(), makePV('pv').storageClass('wait-sc').claimRef('data').phase('Bound').obj()];
  assert.deepEqual(bindOn('node-a', podWith('data'), objects).writes, []);
});

test('PreBindPreFlight skips PreBind when every claim is bound, and announces work otherwise', () => {
  const check = (objects: object[]) => {
    const run = runVolumePlugin(Name, podWith('data'), nodes('node-a'), [], [...classes, ...objects]);
    const plugin = run.fw.plugins.get(Name) as Binding;
    plugin.reserve(run.state, podWith('data'), 'node-a');
    return viewOf(plugin.preBindPreFlight!(run.state, podWith('data'), 'node-a'));
  };
  assert.deepEqual(check([makePVC('data').storageClass('wait-sc').boundTo('pv').obj(), makePV('pv').storageClass('wait-sc').claimRef('data').phase('Bound').obj()]), SKIP);
  assert.deepEqual(check([makePVC('data').storageClass('wait-sc').obj(), makePV('pv').storageClass('wait-sc').obj()]), SUCCESS);
});

test('Reserve assumes the PV, so the next pod of the framework cannot take it until Unreserve', () => {
  const fw = framework();
  const objects = [makePVC('data').storageClass('wait-sc').obj(), makePVC('other').storageClass('wait-sc').obj(), makePV('only').storageClass('wait-sc').obj()];
  const first = bindOn('node-a', podWith('data'), objects, fw);
  const second = withVolumes(makePod('pod-b'), pvcVolume('other')).obj();
  const blocked = runVolumePlugin(Name, second, nodes('node-a'), [], [...classes, ...objects], fw);
  assert.deepEqual(blocked.filter, [unresolvable(ConflictReason.BindConflict)]);
  (fw.plugins.get(Name) as Binding).unreserve(first.run.state, podWith('data'), 'node-a');
  assert.deepEqual(runVolumePlugin(Name, second, nodes('node-a'), [], [...classes, ...objects], fw).filter, [SUCCESS]);
});

test('PreScore skips Score: StorageCapacityScoring is off in 1.36, yet the plugin scores with weight 1 in the profile', () => {
  const fw = framework();
  assert.equal(fw.scoreWeights.get(Name), 1);
  const run = runVolumePlugin(Name, podWith('pvc-a'), nodes('node-a'), [], [...classes, makePVC('pvc-a').storageClass('wait-sc').obj(), makePV('pv').storageClass('wait-sc').obj()]);
  assert.deepEqual(viewOf((run.fw.plugins.get(Name) as Binding).preScore(run.state, podWith('pvc-a'), [])), SKIP);
});

test('The trace points at the first claim volume', () => {
  const plugin = framework().plugins.get(Name)!;
  assert.equal(plugin.fieldPath!(withVolumes(makePod(), { name: 'cfg', configMap: { name: 'c' } }, pvcVolume('data')).obj(), 'Filter'), 'spec.volumes[1].persistentVolumeClaim');
});
