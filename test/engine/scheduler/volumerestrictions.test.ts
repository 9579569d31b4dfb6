// VolumeRestrictions: disk conflicts on a node and ReadWriteOncePod claims in use anywhere.
// Reasons from pkg/scheduler/framework/plugins/volumerestrictions/volume_restrictions.go (ErrReasonDiskConflict,
// ErrReasonReadWriteOncePodConflict as reworded by kubernetes/kubernetes#129145); cases from volume_restrictions_test.go
// (TestGCEDiskConflicts, TestAWSDiskConflicts, TestRBDDiskConflicts, TestISCSIDiskConflicts, TestAccessModeConflicts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Volume } from '../../../src/engine/api/types';
import { ErrReasonDiskConflict, ErrReasonReadWriteOncePodConflict, Name } from '../../../src/engine/scheduler/plugins/volumerestrictions';
import { makeNode, makePod, makePVC, pvcVolume, runVolumePlugin, withVolumes } from './builders';

const SUCCESS = { code: 'Success', reasons: [] };
const SKIP = { code: 'Skip', reasons: [] };
const DISK_CONFLICT = { code: 'Unschedulable', reasons: [ErrReasonDiskConflict] };
const RWOP_CONFLICT = { code: 'Unschedulable', reasons: [ErrReasonReadWriteOncePodConflict] };

const gce = (pdName: string, readOnly = false): Volume => ({ name: 'v', gcePersistentDisk: { pdName, readOnly } });
const aws = (volumeID: string): Volume => ({ name: 'v', awsElasticBlockStore: { volumeID } });
const rbd = (monitors: string[], readOnly = false): Volume => ({ name: 'v', rbd: { monitors, pool: 'foo', image: 'bar', readOnly } });
const iscsi = (iqn: string, readOnly = false): Volume => ({ name: 'v', iscsi: { targetPortal: '127.0.0.1:3260', iqn, lun: 0, readOnly } });
const hostPath: Volume = { name: 'v', hostPath: { path: '/tmp' } };

const diskCases: { name: string; pod: Volume[]; onNode: Volume[]; preFilter: object; filter: object }[] = [
  { name: 'A pod without volumes skips the plugin', pod: [], onNode: [], preFilter: SKIP, filter: SUCCESS },
  { name: 'A pod without volumes skips the plugin even next to a pod with a disk', pod: [], onNode: [gce('foo')], preFilter: SKIP, filter: SUCCESS },
  { name: 'The same GCE PD mounted read-write on the node conflicts', pod: [gce('foo')], onNode: [gce('foo')], preFilter: SUCCESS, filter: DISK_CONFLICT },
  { name: 'Another GCE PD does not conflict', pod: [gce('bar')], onNode: [gce('foo')], preFilter: SUCCESS, filter: SUCCESS },
  { name: 'The same GCE PD read-only on both sides does not conflict', pod: [gce('foo', true)], onNode: [gce('foo', true)], preFilter: SUCCESS, filter: SUCCESS },
  { name: 'The same GCE PD read-only on one side only conflicts', pod: [gce('foo', true)], onNode: [gce('foo')], preFilter: SUCCESS, filter: DISK_CONFLICT },
  { name: 'A pod with only a hostPath volume skips the plugin', pod: [hostPath], onNode: [], preFilter: SKIP, filter: SUCCESS },
  { name: 'The same AWS EBS volume conflicts', pod: [aws('foo')], onNode: [aws('foo')], preFilter: SUCCESS, filter: DISK_CONFLICT },
  { name: 'Another AWS EBS volume does not conflict', pod: [aws('bar')], onNode: [aws('foo')], preFilter: SUCCESS, filter: SUCCESS },
  { name: 'An RBD image sharing a monitor, pool and name conflicts', pod: [rbd(['a', 'b'])], onNode: [rbd(['b', 'c'])], preFilter: SUCCESS, filter: DISK_CONFLICT },
  { name: 'An RBD image on other monitors does not conflict', pod: [rbd(['c', 'd'])], onNode: [rbd(['a', 'b'])], preFilter: SUCCESS, filter: SUCCESS },
  { name: 'The same RBD image read-only on both sides does not conflict', pod: [rbd(['a'], true)], onNode: [rbd(['a'], true)], preFilter: SUCCESS, filter: SUCCESS },
  { name: 'The same iSCSI IQN conflicts', pod: [iscsi('iqn.2016-12.server:storage.target01')], onNode: [iscsi('iqn.2016-12.server:storage.target01')], preFilter: SUCCESS, filter: DISK_CONFLICT },
  { name: 'Another iSCSI IQN does not conflict', pod: [iscsi('iqn.2016-12.server:storage.target02')], onNode: [iscsi('iqn.2016-12.server:storage.target01')], preFilter: SUCCESS, filter: SUCCESS },
];

for (const c of diskCases) {
  test(c.name, () => {
    const pod = withVolumes(makePod('new'), ...c.pod).obj();
    const existing = withVolumes(makePod('old').node('node-1'), ...c.onNode).obj();
    const run = runVolumePlugin(Name, pod, [makeNode('node-1').obj()], [existing], []);
    assert.deepEqual({ preFilter: run.preFilter, filter: run.filter[0] }, { preFilter: c.preFilter, filter: c.filter });
  });
}

const rwop = makePVC('claim-with-rwop-1').accessModes('ReadWriteOncePod').obj();
const rwx = makePVC('claim-with-rwx-1').accessModes('ReadWriteMany').obj();
const usingRWX = withVolumes(makePod('pod-with-rwx').node('node-1'), pvcVolume('claim-with-rwx-1')).obj();
const usingRWOP = (node: string) => withVolumes(makePod('pod-with-one-pvc').node(node), pvcVolume('claim-with-rwop-1')).obj();

const accessCases: { name: string; pod: Volume[]; existing: ReturnType<typeof usingRWOP>[]; pvcs: object[]; preFilter: object; filter: object[] }[] = [
  {
    name: 'A missing claim makes the pod unresolvable at PreFilter', pod: [pvcVolume('claim-with-rwop-1')], existing: [], pvcs: [],
    preFilter: { code: 'UnschedulableAndUnresolvable', reasons: ['persistentvolumeclaim "claim-with-rwop-1" not found'] }, filter: [SUCCESS, SUCCESS],
  },
  { name: 'A ReadWriteOncePod claim nobody uses skips the plugin', pod: [pvcVolume('claim-with-rwop-1')], existing: [usingRWX], pvcs: [rwop, rwx], preFilter: SKIP, filter: [SUCCESS, SUCCESS] },
  {
    name: 'A ReadWriteOncePod claim used by a pod on another node rejects every node', pod: [pvcVolume('claim-with-rwop-1')],
    existing: [usingRWOP('node-2'), usingRWX], pvcs: [rwop, rwx], preFilter: SUCCESS, filter: [RWOP_CONFLICT, RWOP_CONFLICT],
  },
  {
    name: 'Two claims, one of them ReadWriteOncePod in use, reject every node', pod: [pvcVolume('claim-with-rwop-1'), pvcVolume('claim-with-rwx-1')],
    existing: [usingRWOP('node-1'), usingRWX], pvcs: [rwop, rwx], preFilter: SUCCESS, filter: [RWOP_CONFLICT, RWOP_CONFLICT],
  },
  { name: 'A ReadWriteMany claim in use does not conflict', pod: [pvcVolume('claim-with-rwx-1')], existing: [usingRWX], pvcs: [rwop, rwx], preFilter: SKIP, filter: [SUCCESS, SUCCESS] },
];

for (const c of accessCases) {
  test(c.name, () => {
    const pod = withVolumes(makePod('new'), ...c.pod).obj();
    const run = runVolumePlugin(Name, pod, [makeNode('node-1').obj(), makeNode('node-2').obj()], c.existing, c.pvcs);
    assert.deepEqual({ preFilter: run.preFilter, filter: run.filter }, { preFilter: c.preFilter, filter: c.filter });
  });
}

test('The plugin points the trace at the first checked disk, else the first claim', () => {
  const plugin = runVolumePlugin(Name, makePod().obj(), [], [], []).fw.plugins.get(Name)!;
  assert.equal(plugin.fieldPath!(withVolumes(makePod(), hostPath, pvcVolume('data')).obj(), 'Filter'), 'spec.volumes[1].persistentVolumeClaim');
  assert.equal(plugin.fieldPath!(withVolumes(makePod(), pvcVolume('data'), gce('foo')).obj(), 'Filter'), 'spec.volumes[1]');
});
