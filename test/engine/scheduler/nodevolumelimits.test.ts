// NodeVolumeLimits: unique CSI volumes per driver on a node against the CSINode's allocatable count.
// Reason from pkg/scheduler/framework/plugins/nodevolumelimits/csi.go (ErrReasonMaxVolumeCountExceeded); cases from
// csi_test.go (TestCSILimits). The fake listers there say `persistentvolumeclaims "x" not found`; the real informer
// listers, simulated here, say `persistentvolumeclaim "x" not found`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod, Volume } from '../../../src/engine/api/types';
import { ErrReasonMaxVolumeCountExceeded, Name } from '../../../src/engine/scheduler/plugins/nodevolumelimits';
import { makeCSINode, makeNode, makePod, makePV, makePVC, makeStorageClass, pvcVolume, runVolumePlugin, withVolumes } from './builders';

const EBS = 'ebs.csi.aws.com';
const GCE = 'pd.csi.storage.gke.io';
const IN_TREE_EBS = 'kubernetes.io/aws-ebs';
const SUCCESS = { code: 'Success', reasons: [] };
const EXCEEDED = { code: 'Unschedulable', reasons: [ErrReasonMaxVolumeCountExceeded] };

const pod = (name: string, ...claims: string[]): Pod => withVolumes(makePod(name, 'test'), ...claims.map((c) => pvcVolume(c))).obj();
const inline = (volumeID: string): Pod => withVolumes(makePod('inline', 'test'), { name: 'ebs', awsElasticBlockStore: { volumeID } }).obj();
const ephemeral = (name: string, ...volumes: string[]): Pod => withVolumes(makePod(name, 'test'), ...volumes.map((v): Volume => ({ name: v, ephemeral: {} }))).obj();

/** A claim `csi-<driver>-<i>` bound to a PV of the same name and handle, as getFakeCSIPVCLister and getFakeCSIPVLister make them. */
function bound(driver: string, i: number): object[] {
  const name = `csi-${driver}-${i}`;
  const pv = makePV(name);
  if (driver === IN_TREE_EBS) pv.awsEBS(name);
  else pv.csi(driver, name);
  return [makePVC(name, 'test').storageClass('csi-sc').boundTo(name).obj(), pv.obj()];
}

const abcPod = ephemeral('abc', 'xyz');
const twoEphemeral = ephemeral('abc', 'x', 'y');
const objects: object[] = [
  makeStorageClass('csi-sc', 'Immediate', EBS),
  ...[0, 1, 2, 3].flatMap((i) => bound(EBS, i)), ...[1, 2].flatMap((i) => bound(GCE, i)), ...[0, 1, 2].flatMap((i) => bound(IN_TREE_EBS, i)),
  makePVC('csi-4', 'test').storageClass('csi-sc').obj(),
  makePVC('csi-5', 'test').obj(),
  makePVC('csi-6', 'test').storageClass('csi-sc').volumeName('missing-in-action').obj(),
];
const ownedClaims = [makePVC('abc-x', 'test').storageClass('csi-sc').ownedBy(twoEphemeral).obj(), makePVC('abc-y', 'test').storageClass('csi-sc').ownedBy(twoEphemeral).obj()];

const runningPod = pod('running', `csi-${EBS}-3`);
const csiEBSOneVolPod = pod('ebs-one', `csi-${EBS}-0`);
const csiEBSTwoVolPod = pod('ebs-two', `csi-${EBS}-1`, `csi-${EBS}-2`);
const gceTwoVolPod = pod('gce-two', `csi-${GCE}-1`, `csi-${GCE}-2`);
const inTreeOneVolPod = pod('in-tree-one', `csi-${IN_TREE_EBS}-0`);
const inTreeTwoVolPod = pod('in-tree-two', `csi-${IN_TREE_EBS}-1`, `csi-${IN_TREE_EBS}-2`);

/** vas are VolumeAttachments of EBS volumes to node-1, with their PVs. */
const vas = (n: number): object[] => Array.from({ length: n }, (_, i) => [
  makePV(`va-pv-${i}`).csi(EBS, `va-${i}`).obj(),
  { apiVersion: 'storage.k8s.io/v1', kind: 'VolumeAttachment', metadata: { name: `va-${i}` }, spec: { attacher: EBS, nodeName: 'node-1', source: { persistentVolumeName: `va-pv-${i}` } } },
]).flat();

const cases: { name: string; pod: Pod; existing?: Pod[]; limits?: Record<string, number | undefined>; extra?: object[]; preFilter?: object; want: object }[] = [
  { name: 'fits when node volume limit >= new pods CSI volume', pod: csiEBSOneVolPod, existing: [runningPod, csiEBSTwoVolPod], limits: { [EBS]: 4 }, want: SUCCESS },
  { name: "doesn't when node volume limit <= pods CSI volume", pod: csiEBSOneVolPod, existing: [runningPod, csiEBSTwoVolPod], limits: { [EBS]: 2 }, want: EXCEEDED },
  { name: 'fits when the driver reports no volume limit', pod: csiEBSOneVolPod, existing: [runningPod, csiEBSTwoVolPod], limits: { [EBS]: undefined }, want: SUCCESS },
  { name: 'fits on a node without a CSINode', pod: csiEBSOneVolPod, existing: [runningPod, csiEBSTwoVolPod], want: SUCCESS },
  { name: 'count pending PVCs towards volume limit <= pods CSI volume', pod: csiEBSOneVolPod, existing: [pod('pending', 'csi-4'), csiEBSTwoVolPod], limits: { [EBS]: 2 }, want: EXCEEDED },
  { name: 'count multiple pending pvcs towards volume limit >= pods CSI volume', pod: csiEBSOneVolPod, existing: [pod('pending', 'csi-4'), pod('pending2', 'csi-4'), csiEBSTwoVolPod], limits: { [EBS]: 4 }, want: SUCCESS },
  { name: 'should count PVCs with invalid PV name but valid SC', pod: csiEBSOneVolPod, existing: [pod('missing-pv', 'csi-6'), csiEBSTwoVolPod], limits: { [EBS]: 2 }, want: EXCEEDED },
  { name: "don't count pvcs with missing SC towards volume limit", pod: csiEBSOneVolPod, existing: [runningPod, pod('no-sc', 'csi-5')], limits: { [EBS]: 2 }, want: SUCCESS },
  { name: 'count pvcs with the same type towards volume limit', pod: csiEBSOneVolPod, existing: [gceTwoVolPod, csiEBSTwoVolPod], limits: { [EBS]: 2, [GCE]: 2 }, want: EXCEEDED },
  { name: "don't count pvcs with different type towards volume limit", pod: gceTwoVolPod, existing: [csiEBSTwoVolPod, runningPod], limits: { [EBS]: 2, [GCE]: 2 }, want: SUCCESS },
  { name: 'should count in-tree volumes if migration is enabled', pod: inTreeOneVolPod, existing: [inTreeTwoVolPod], limits: { [EBS]: 2 }, want: EXCEEDED },
  { name: 'should count in-tree inline volumes if migration is enabled', pod: inline('aws-inline1'), existing: [inTreeTwoVolPod], limits: { [EBS]: 2 }, want: EXCEEDED },
  { name: 'nil csi node: in-tree volumes are not migrated there', pod: inline('aws-inline1'), existing: [inTreeTwoVolPod], want: SUCCESS },
  { name: 'should count in-tree and csi volumes if migration is enabled (when scheduling in-tree volumes)', pod: inTreeOneVolPod, existing: [csiEBSTwoVolPod], limits: { [EBS]: 2 }, want: EXCEEDED },
  { name: 'should not count in-tree, inline and csi volumes twice when they name the same volume', pod: inline(`csi-${EBS}-1`), existing: [csiEBSTwoVolPod, inTreeOneVolPod], limits: { [EBS]: 3 }, want: SUCCESS },
  { name: 'should count VolumeAttachments towards volume limit when no pods exist', pod: csiEBSOneVolPod, limits: { [EBS]: 2 }, extra: vas(2), want: EXCEEDED },
  { name: 'should schedule pod when VolumeAttachments count does not exceed limit', pod: csiEBSOneVolPod, limits: { [EBS]: 2 }, extra: vas(1), want: SUCCESS },
  {
    name: 'ephemeral volume missing', pod: abcPod, limits: { [EBS]: undefined },
    want: { code: 'UnschedulableAndUnresolvable', reasons: ['looking up PVC test/abc-xyz: persistentvolumeclaim "abc-xyz" not found'] },
  },
  {
    name: 'ephemeral volume not owned', pod: abcPod, limits: { [EBS]: undefined }, extra: [makePVC('abc-xyz', 'test').storageClass('csi-sc').obj()],
    want: { code: 'Error', reasons: ['PVC test/abc-xyz was not created for pod test/abc (pod is not owner)'] },
  },
  { name: 'ephemeral volume unbound', pod: abcPod, limits: { [EBS]: undefined }, extra: [makePVC('abc-xyz', 'test').storageClass('csi-sc').ownedBy(abcPod).obj()], want: SUCCESS },
  { name: "ephemeral doesn't when node volume limit <= pods ephemeral CSI volume", pod: csiEBSOneVolPod, existing: [runningPod, twoEphemeral], limits: { [EBS]: 2 }, extra: ownedClaims, want: EXCEEDED },
  {
    name: 'skip Filter when the pod only uses secrets and configmaps', limits: { [EBS]: 2 }, want: SUCCESS, preFilter: { code: 'Skip', reasons: [] },
    pod: withVolumes(makePod('cm', 'test'), { name: 'cm', configMap: { name: 'x' } }, { name: 's', secret: { secretName: 'x' } }).obj(),
  },
];

for (const c of cases) {
  test(c.name, () => {
    const csiNode = c.limits ? [makeCSINode('node-1', ...Object.entries(c.limits).map(([name, count]) => ({ name, count })))] : [];
    const existing = (c.existing ?? []).map((p) => ({ ...p, spec: { ...p.spec!, nodeName: 'node-1' } }));
    const run = runVolumePlugin(Name, c.pod, [makeNode('node-1').obj()], existing, [...objects, ...(c.extra ?? []), ...csiNode]);
    assert.deepEqual({ preFilter: run.preFilter, filter: run.filter[0] }, { preFilter: c.preFilter ?? SUCCESS, filter: c.want });
  });
}

