// A PersistentVolume's reclaim once its claim is gone, as kube-controller-manager 1.36's PV controller carries it out
// (pkg/controller/volume/persistentvolume/pv_controller.go reclaimVolume, deleteVolumeOperation, findDeletablePlugin,
// recycleVolumeOperation, v1.36.3): Retain keeps the volume Released; Delete is done by the in-tree host-path deleter
// (under /tmp/ only, pkg/volume/hostpath/host_path.go), left to an external provisioner (a CSI volume, one it provisioned,
// one of a migrated in-tree plugin), or fails with VolumeFailedDelete when no plugin can delete it; Recycle fails with
// VolumeFailedRecycle when no recycler plugin supports the volume. The PV protection controller
// (pkg/controller/volume/pvprotection) lifts kubernetes.io/pv-protection from a deleted volume that is not Bound.
import assert from 'node:assert/strict';
import test from 'node:test';
import { spawnSync } from 'node:child_process';
import { CLI, ROOT, type Report, runJson } from './harness';

const F = 'test/fixtures/reclaim';
const CLUSTER = ['--cluster', 'src/engine/cluster/default-cluster.yaml', '--cluster', `${F}/cluster.yaml`];

/** volumeState is a volume's phase and status message, or `gone`. */
function volumeState(r: Report, name: string): string {
  const pv = r.objects.find((o) => o.kind === 'PersistentVolume' && o.metadata.name === name);
  if (!pv) return 'gone';
  const message = pv.status?.['message'];
  return `${String(pv.status?.['phase'])}${message ? `: ${String(message)}` : ''}`;
}

/** volumeEvents lists the events recorded on a volume, as `type reason message`. */
const volumeEvents = (r: Report, name: string) => r.events.filter((e) => e.object === `PersistentVolume/${name}`).map((e) => `${e.source} ${e.type} ${e.reason} ${e.message}`);

const released = (() => {
  let report: Report | undefined;
  return (): Report => (report ??= runJson('run', `${F}/claims.yaml`, ...CLUSTER, '--delete').report);
})();

const cases: { name: string; volume: string; state: string; events: string[] }[] = [
  { name: 'Retain keeps the volume Released, with no event', volume: 'retain', state: 'Released', events: [] },
  { name: 'Delete of a hostPath volume under /tmp/: the host-path deleter deletes it, and the PV protection finalizer is lifted', volume: 'delete-tmp', state: 'gone', events: [] },
  {
    name: 'Delete of a hostPath volume outside /tmp/: Failed, with the host-path deleter\'s refusal', volume: 'delete-data',
    state: 'Failed: host_path deleter only supports /tmp/.+ but received provided /data/delete-data',
    events: ['persistentvolume-controller Warning VolumeFailedDelete host_path deleter only supports /tmp/.+ but received provided /data/delete-data'],
  },
  {
    name: 'Delete of a local volume: no controller plugin matches it, Failed', volume: 'delete-local',
    state: 'Failed: error getting deleter volume plugin for volume "delete-local": no volume plugin matched',
    events: ['persistentvolume-controller Warning VolumeFailedDelete error getting deleter volume plugin for volume "delete-local": no volume plugin matched'],
  },
  {
    name: 'Delete of an NFS volume: its plugin cannot delete, Failed', volume: 'delete-nfs',
    state: 'Failed: error getting deleter volume plugin for volume "delete-nfs": no deletable volume plugin matched',
    events: ['persistentvolume-controller Warning VolumeFailedDelete error getting deleter volume plugin for volume "delete-nfs": no deletable volume plugin matched'],
  },
  { name: 'Delete of a CSI volume nobody provisioned: the deleter is external and no provisioner claims it, so it stays Released', volume: 'delete-csi', state: 'Released', events: [] },
  { name: 'Delete of a volume of a migrated in-tree plugin: the CSI driver\'s provisioner deletes it', volume: 'delete-migrated', state: 'gone', events: [] },
  {
    name: 'Recycle of a local volume: no recycler plugin, Failed', volume: 'recycle-local',
    state: 'Failed: No recycler plugin found for the volume!',
    events: ['persistentvolume-controller Warning VolumeFailedRecycle No recycler plugin found for the volume!'],
  },
  { name: 'Recycle of a hostPath volume: the recycler pod is not simulated, it stays Released', volume: 'recycle-hostpath', state: 'Released', events: [] },
  {
    // isVolumeUsed counts every pod naming the claim that has not finished, scheduled or not.
    name: 'Recycle while a pod that never got a node still names the claim: a Normal event, and it stays Released', volume: 'recycle-used',
    state: 'Released', events: ['persistentvolume-controller Normal VolumeFailedRecycle Volume is used by pods: default/stuck'],
  },
];

for (const c of cases) {
  test(`PV reclaim: ${c.name}`, () => {
    const report = released();
    assert.equal(report.outcome, 'Deleted');
    assert.equal(volumeState(report, c.volume), c.state);
    assert.deepEqual(volumeEvents(report, c.volume), c.events);
  });
}

test('PV reclaim: an unknown reclaim policy never gets into storage: a cluster file holding one is refused at its line', () => {
  // ValidatePersistentVolumeSpec (pkg/apis/core/validation/validation.go, v1.36.3) refuses it as the API server would.
  const r = spawnSync(process.execPath, [CLI, 'run', `${F}/claims.yaml`, ...CLUSTER, '--cluster', `${F}/unknown-policy-cluster.yaml`], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  assert.equal(r.status, 2);
  assert.equal(r.stderr.trim(), `error: ${F}/unknown-policy-cluster.yaml:9: PersistentVolume "unknown-policy" is invalid: spec.persistentVolumeReclaimPolicy: Unsupported value: "Keep": supported values: "Delete", "Recycle", "Retain"`);
});

test('PV reclaim: the host-path deletion goes Released, deleted, kept by kubernetes.io/pv-protection, finalizer lifted, removed', () => {
  const steps = released().trace.filter((e) => e.object === 'PersistentVolume/delete-tmp').map((e) => `${e.phase}: ${e.result}`);
  assert.deepEqual(steps.map((s) => s.replace(/deletionTimestamp \S+/, 'deletionTimestamp T')), [
    'controllers.persistentvolume: PersistentVolume delete-tmp is Released: its claim default/delete-tmp is gone (reclaim policy Delete)',
    'controllers.persistentvolume: reclaim policy Delete: the host-path deleter removed /tmp/delete-tmp (it deletes only under /tmp/); deleting the PersistentVolume',
    'apiserver.finalize: kept: finalizers [kubernetes.io/pv-protection] must be removed before the object goes; it stays with deletionTimestamp T and deletionGracePeriodSeconds 0',
    'controllers.persistentvolume: volume delete-tmp is being deleted and is Released, not in use: removing kubernetes.io/pv-protection',
    'apiserver.finalize: removed PersistentVolume "delete-tmp" from storage (propagation Background)',
  ]);
});

test('PV reclaim: a migrated in-tree volume is annotated with the CSI driver it went to before the controller stands down', () => {
  const steps = released().trace.filter((e) => e.object === 'PersistentVolume/delete-migrated' && e.phase === 'controllers.persistentvolume').map((e) => e.result);
  assert.deepEqual(steps.slice(1, 3), [
    'the in-tree plugin kubernetes.io/aws-ebs is migrated to CSI: annotated pv.kubernetes.io/migrated-to: ebs.csi.aws.com',
    'volume delete-migrated is migrated to the CSI driver ebs.csi.aws.com: the PV controller stands down and leaves its reclaim to that driver\'s external provisioner',
  ]);
});

test('PV reclaim: a dynamically provisioned volume (reclaim policy Delete from its class) is deleted by its external provisioner once pod and claim are gone', () => {
  const { report } = runJson('run', `${F}/dynamic.yaml`, '--delete');
  assert.equal(report.outcome, 'Deleted');
  assert.deepEqual(report.objects.filter((o) => o.kind === 'PersistentVolume'), []);
  const steps = report.trace.filter((e) => e.object?.startsWith('PersistentVolume/pvc-')).map((e) => `${e.phase}: ${e.result.replace(/pvc-[0-9a-f-]+/g, 'pvc-UID')}`);
  assert.deepEqual(steps, [
    'controllers.persistentvolume: PersistentVolume pvc-UID is Released: its claim default/data is gone (reclaim policy Delete)',
    'controllers.persistentvolume: reclaim policy Delete: the deleter is external (the external provisioner ebs.csi.aws.com); the PV controller leaves the volume to it',
    'controllers.persistentvolume: external-provisioner (ebs.csi.aws.com): the volume is Released with reclaim policy Delete: DeleteVolume pvc-UID succeeded; deleting the PersistentVolume',
    'apiserver.finalize: removed PersistentVolume "pvc-UID" from storage (propagation Background)',
  ]);
  // The claim went first: the volume is released only after the PVC protection controller let the claim go.
  const claimGone = report.trace.findIndex((e) => e.object === 'PersistentVolumeClaim/default/data' && e.phase === 'apiserver.finalize' && e.result.startsWith('the last finalizer is gone'));
  const releasedAt = report.trace.findIndex((e) => e.object?.startsWith('PersistentVolume/pvc-'));
  assert.ok(claimGone >= 0 && claimGone < releasedAt);
});

test('PV reclaim: a volume of the manifest deleted while Bound waits for its claim, then is Released and goes', () => {
  // kubectl deletes the volumes first: the PV protection controller keeps kubernetes.io/pv-protection while data-pv is
  // Bound; once the pod and its claim are gone, the PV controller releases it (Retain) and the finalizer is lifted.
  const { report } = runJson('run', 'test/fixtures/volumes/pvc-bound.yaml', '--delete');
  assert.equal(report.outcome, 'Deleted');
  const steps = report.trace.filter((e) => e.object === 'PersistentVolume/data-pv' && (e.at ?? 0) >= 2 && ['controllers.persistentvolume', 'apiserver.finalize'].includes(e.phase))
    .map((e) => `${e.phase}: ${e.result.replace(/deletionTimestamp \S+/, 'deletionTimestamp T')}`);
  assert.deepEqual(steps, [
    'apiserver.finalize: kept: finalizers [kubernetes.io/pv-protection] must be removed before the object goes; it stays with deletionTimestamp T and deletionGracePeriodSeconds 0',
    'controllers.persistentvolume: volume data-pv is being deleted but is Bound: it keeps kubernetes.io/pv-protection',
    'controllers.persistentvolume: PersistentVolume data-pv is Released: its claim default/data is gone (reclaim policy Retain)',
    'controllers.persistentvolume: reclaim policy Retain: nothing to do; the volume and its data are kept, and no new claim binds it while it names the old one',
    'controllers.persistentvolume: volume data-pv is being deleted and is Released, not in use: removing kubernetes.io/pv-protection',
    'apiserver.finalize: removed PersistentVolume "data-pv" from storage (propagation Background)',
  ]);
});
