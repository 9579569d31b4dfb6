// VolumeZone: a bound PV's zone and region labels against the node's.
// Reasons from pkg/scheduler/framework/plugins/volumezone/volume_zone.go (ErrReasonConflict and the PreFilter statuses);
// cases from volume_zone_test.go (TestSingleZone, TestMultiZone, TestWithBinding).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrReasonConflict, Name } from '../../../src/engine/scheduler/plugins/volumezone';
import { makeNode, makePod, makePV, makePVC, makeStorageClass, pvcVolume, runVolumePlugin, withVolumes } from './builders';

const BETA_ZONE = 'failure-domain.beta.kubernetes.io/zone';
const BETA_REGION = 'failure-domain.beta.kubernetes.io/region';
const ZONE = 'topology.kubernetes.io/zone';
const REGION = 'topology.kubernetes.io/region';
const SUCCESS = { code: 'Success', reasons: [] };
const SKIP = { code: 'Skip', reasons: [] };
const CONFLICT = { code: 'UnschedulableAndUnresolvable', reasons: [ErrReasonConflict] };
const unresolvable = (reason: string) => ({ code: 'UnschedulableAndUnresolvable', reasons: [reason] });

const objects: object[] = [
  makePV('Vol_1').label(BETA_ZONE, 'us-west1-a').obj(),
  makePV('Vol_2').label(BETA_REGION, 'us-west1').label('uselessLabel', 'none').obj(),
  makePV('Vol_Stable_1').label(ZONE, 'us-west1-a').obj(),
  makePV('Vol_Stable_2').label(REGION, 'us-west1').label('uselessLabel', 'none').obj(),
  makePV('Vol_Multi').label(ZONE, 'us-west1-a__us-west1-b').obj(),
  makePV('Vol_Bad').label(ZONE, 'us-west1-a__').obj(),
  makePVC('PVC_1').boundTo('Vol_1').obj(),
  makePVC('PVC_2').boundTo('Vol_2').obj(),
  makePVC('PVC_4').boundTo('Vol_not_exist').obj(),
  makePVC('PVC_Stable_1').boundTo('Vol_Stable_1').obj(),
  makePVC('PVC_Stable_2').boundTo('Vol_Stable_2').obj(),
  makePVC('PVC_Multi').boundTo('Vol_Multi').obj(),
  makePVC('PVC_Bad').boundTo('Vol_Bad').obj(),
  makePVC('PVC_EmptySC').obj(),
  makePVC('PVC_NoSC').storageClass('Class_0').obj(),
  makePVC('PVC_ImmediateSC').storageClass('Class_Immediate').obj(),
  makePVC('PVC_WaitSC').storageClass('Class_Wait').obj(),
  makeStorageClass('Class_Immediate', 'Immediate'),
  makeStorageClass('Class_Wait', 'WaitForFirstConsumer'),
];

const cases: { name: string; claims: string[]; node: Record<string, string>; preFilter?: object; want: object }[] = [
  { name: 'pod without volume', claims: [], node: { [BETA_ZONE]: 'us-west1-a' }, preFilter: SKIP, want: SUCCESS },
  { name: 'node without labels', claims: ['PVC_1'], node: {}, want: SUCCESS },
  { name: 'beta zone label matched', claims: ['PVC_1'], node: { [BETA_ZONE]: 'us-west1-a', uselessLabel: 'none' }, want: SUCCESS },
  { name: 'beta region label matched', claims: ['PVC_2'], node: { [BETA_REGION]: 'us-west1', uselessLabel: 'none' }, want: SUCCESS },
  { name: "beta region label doesn't match", claims: ['PVC_2'], node: { [BETA_REGION]: 'no_us-west1', uselessLabel: 'none' }, want: CONFLICT },
  { name: "beta zone label doesn't match", claims: ['PVC_1'], node: { [BETA_ZONE]: 'no_us-west1-a', uselessLabel: 'none' }, want: CONFLICT },
  { name: 'zone label matched', claims: ['PVC_Stable_1'], node: { [ZONE]: 'us-west1-a', uselessLabel: 'none' }, want: SUCCESS },
  { name: 'region label matched', claims: ['PVC_Stable_2'], node: { [REGION]: 'us-west1', uselessLabel: 'none' }, want: SUCCESS },
  { name: "region label doesn't match", claims: ['PVC_Stable_2'], node: { [REGION]: 'no_us-west1', uselessLabel: 'none' }, want: CONFLICT },
  { name: "zone label doesn't match", claims: ['PVC_Stable_1'], node: { [ZONE]: 'no_us-west1-a', uselessLabel: 'none' }, want: CONFLICT },
  { name: "a PV's beta zone label matches the node's GA zone label", claims: ['PVC_1'], node: { [ZONE]: 'us-west1-a' }, want: SUCCESS },
  { name: 'a node with only a region label rejects a PV pinned to a zone', claims: ['PVC_Stable_1'], node: { [REGION]: 'us-west1' }, want: CONFLICT },
  { name: 'a multi-zone PV fits a node in either zone', claims: ['PVC_Multi'], node: { [ZONE]: 'us-west1-b' }, want: SUCCESS },
  { name: 'a multi-zone PV rejects a node in a third zone', claims: ['PVC_Multi'], node: { [ZONE]: 'us-west1-c' }, want: CONFLICT },
  { name: 'a zone label with an empty zone is ignored', claims: ['PVC_Bad'], node: { [ZONE]: 'us-west1-c' }, preFilter: SKIP, want: SUCCESS },
  { name: 'a claim bound to a PV that does not exist', claims: ['PVC_4'], node: { [ZONE]: 'us-west1-a' }, preFilter: unresolvable('persistentvolume "Vol_not_exist" not found'), want: SUCCESS },
  { name: 'a claim that does not exist', claims: ['PVC_None'], node: {}, preFilter: unresolvable('persistentvolumeclaim "PVC_None" not found'), want: SUCCESS },
  { name: 'unbound volume empty storage class', claims: ['PVC_EmptySC'], node: {}, preFilter: unresolvable('PersistentVolumeClaim had no pv name and storageClass name'), want: SUCCESS },
  { name: 'unbound volume no storage class', claims: ['PVC_NoSC'], node: {}, preFilter: unresolvable('storageclass.storage.k8s.io "Class_0" not found'), want: SUCCESS },
  { name: 'unbound volume immediate binding mode', claims: ['PVC_ImmediateSC'], node: {}, preFilter: unresolvable('PersistentVolume had no name'), want: SUCCESS },
  { name: 'unbound volume wait binding mode', claims: ['PVC_WaitSC'], node: { [BETA_ZONE]: 'us-west1-a' }, preFilter: SKIP, want: SUCCESS },
  { name: 'unbound volume wait binding mode, bound one matched', claims: ['PVC_1', 'PVC_WaitSC'], node: { [BETA_ZONE]: 'us-west1-a' }, want: SUCCESS },
  { name: 'unbound volume wait binding mode, bound one not matched', claims: ['PVC_1', 'PVC_WaitSC'], node: { [BETA_ZONE]: 'us-west1-b' }, want: CONFLICT },
];

for (const c of cases) {
  test(c.name, () => {
    const node = makeNode('host1');
    for (const [k, v] of Object.entries(c.node)) node.label(k, v);
    const pod = withVolumes(makePod('pod'), ...c.claims.map((claim) => pvcVolume(claim))).obj();
    const run = runVolumePlugin(Name, pod, [node.obj()], [], objects);
    assert.deepEqual({ preFilter: run.preFilter, filter: run.filter[0] }, { preFilter: c.preFilter ?? SUCCESS, filter: c.want });
  });
}
