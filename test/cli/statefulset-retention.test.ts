// A StatefulSet's persistentVolumeClaimRetentionPolicy as kube-controller-manager 1.36 carries it out
// (pkg/controller/statefulset/stateful_set_utils.go updateClaimOwnerRefForSetAndPod and stateful_pod_control.go
// UpdatePodClaimForRetentionPolicy, v1.36.3): whenDeleted Delete makes the set each claim's controller, whenScaled Delete
// hands a scaled-away pod's claims to that pod; the garbage collector deletes a claim whose owner is gone, the PVC
// protection controller lifts kubernetes.io/pvc-protection once no pod uses it, and its volume is Released (Retain
// keeps it). The claims' owner references and the end state were compared with the real kube-controller-manager.
import assert from 'node:assert/strict';
import test from 'node:test';
import { type Report, runJson } from './harness';

const F = 'test/fixtures/statefulset';
const CLUSTER = ['--cluster', 'src/engine/cluster/default-cluster.yaml', '--cluster', `${F}/retention-cluster.yaml`];

/** claims lists each claim with its owners (`www-web-0 <- StatefulSet/web`). */
const claims = (r: Report) => r.objects.filter((o) => o.kind === 'PersistentVolumeClaim')
  .map((o) => `${o.metadata.name} <- ${((o.metadata as { ownerReferences?: { kind: string; name: string; controller?: boolean }[] }).ownerReferences ?? []).map((x) => `${x.kind}/${x.name}${x.controller ? '' : ' (not controller)'}`).join(', ') || 'nobody'}`);
/** volumes lists each PersistentVolume with its phase. */
const volumes = (r: Report) => r.objects.filter((o) => o.kind === 'PersistentVolume').map((o) => `${o.metadata.name} ${o.status?.['phase']}`);

const cases: { name: string; args: string[]; outcome: string; claims: string[]; volumes: string[] }[] = [
  {
    name: 'whenScaled Delete: scaling 3 → 1 deletes web-2\'s and web-1\'s claims with their pods; their volumes are Released',
    args: [`${F}/retention-delete.yaml`, ...CLUSTER, '--then-apply', `60s,${F}/retention-delete-1.yaml`, '--for', '90s'],
    outcome: 'Running', claims: ['www-web-0 <- StatefulSet/web'], volumes: ['pv-1 Bound', 'pv-2 Released', 'pv-3 Released'],
  },
  {
    name: 'Retain (the default): scaling 3 → 1 keeps every claim, unowned and Bound',
    args: [`${F}/retention-retain.yaml`, ...CLUSTER, '--then-apply', `60s,${F}/retention-retain-1.yaml`, '--for', '90s'],
    outcome: 'Running', claims: ['www-web-0 <- nobody', 'www-web-1 <- nobody', 'www-web-2 <- nobody'], volumes: ['pv-1 Bound', 'pv-2 Bound', 'pv-3 Bound'],
  },
  {
    name: 'whenDeleted Delete: deleting the set deletes its claims once its pods are gone',
    args: [`${F}/retention-delete.yaml`, ...CLUSTER, '--delete'],
    outcome: 'Deleted', claims: [], volumes: ['pv-1 Released', 'pv-2 Released', 'pv-3 Released'],
  },
  {
    name: 'Retain: deleting the set leaves its claims',
    args: [`${F}/retention-retain.yaml`, ...CLUSTER, '--delete'],
    outcome: 'Deleted', claims: ['www-web-0 <- nobody', 'www-web-1 <- nobody', 'www-web-2 <- nobody'], volumes: ['pv-1 Bound', 'pv-2 Bound', 'pv-3 Bound'],
  },
  {
    // ClaimsMatchRetentionPolicy fails for the running replicas: UpdateStatefulPod updates their claims, then the pod.
    name: 'a Retain set changed to Delete: the running replicas\' claims get the set as controller',
    args: [`${F}/retention-retain.yaml`, ...CLUSTER, '--then-apply', `30s,${F}/retention-delete.yaml`, '--for', '40s'],
    outcome: 'Running', claims: ['www-web-0 <- StatefulSet/web', 'www-web-1 <- StatefulSet/web', 'www-web-2 <- StatefulSet/web'], volumes: ['pv-1 Bound', 'pv-2 Bound', 'pv-3 Bound'],
  },
];

for (const c of cases) {
  test(`StatefulSet claim retention: ${c.name}`, () => {
    const { report } = runJson('run', ...c.args);
    assert.equal(report.outcome, c.outcome);
    assert.deepEqual(claims(report), c.claims);
    assert.deepEqual(volumes(report), c.volumes);
  });
}

test('StatefulSet claim retention: the scaled-away pod becomes its claim\'s controller before it is deleted, then the collector and the PVC protection follow', () => {
  const { report } = runJson('run', `${F}/retention-delete.yaml`, ...CLUSTER, '--then-apply', `60s,${F}/retention-delete-1.yaml`, '--for', '90s');
  const steps = report.trace.filter((e) => (e.at ?? 0) >= 60 && ['controllers.statefulset', 'controllers.garbagecollector', 'controllers.persistentvolume'].includes(e.phase))
    .filter((e) => e.result.includes('www-web-2') || e.result.startsWith('deleting pod web-2') || (e.phase === 'controllers.garbagecollector' && e.object?.endsWith('www-web-2')))
    .map((e) => `${e.at} ${e.phase}: ${e.result}`);
  assert.deepEqual(steps.slice(0, 4), [
    '60 controllers.statefulset: claim www-web-2 now has Pod web-2 as its controller: the garbage collector deletes it with it',
    '60 controllers.statefulset: deleting pod web-2: its ordinal is outside the StatefulSet\'s: scale down',
    '61 controllers.garbagecollector: its owner Pod/default/web-2 is gone: deleting it (propagationPolicy Background)',
    '61 controllers.persistentvolume: claim www-web-2 is being deleted and no pod uses it: removing kubernetes.io/pvc-protection',
  ]);
  const events = report.events.filter((e) => e.source === 'statefulset-controller' && (e.at ?? 0) >= 60).map((e) => `${e.reason} ${e.message}`);
  assert.deepEqual(events, ['SuccessfulDelete Delete Pod web-2 in StatefulSet web successful', 'SuccessfulDelete Delete Pod web-1 in StatefulSet web successful']);
});
