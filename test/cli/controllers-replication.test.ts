// A ReplicationController through the CLI, end to end: kubectl creates it, the API server defaults its selector and
// labels from the template, and kube-controller-manager runs the ReplicaSet controller for it (the replication
// package's conversion layer): pods `web-xxxxx` owned by the RC, events from "replication-controller", the RC's status,
// and an outcome judged as a ReplicaSet's. kubectl delete cascades in the background: the garbage collector deletes the
// pods. See pkg/controller/replication/replication_controller.go and conversion.go, pkg/apis/core/v1/defaults.go,
// kubernetes v1.36.3.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runJson, type StoredObject } from './harness';

/** Owned is a stored object's metadata with what the report's type leaves out: its uid and owner references. */
type Owned = StoredObject & { metadata: StoredObject['metadata'] & { uid?: string; ownerReferences?: unknown[] } };

const RC = 'test/fixtures/controllers/rc-web.yaml';
const POD = /^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/;

test('a ReplicationController of 3 replicas: 3 pods Running, SuccessfulCreate events, its status, outcome Running', () => {
  const { status, report } = runJson('run', RC);
  assert.equal(status, 0);
  assert.equal(report.kubectl, 'replicationcontroller/web created');
  assert.equal(report.outcome, 'Running');
  const rc = report.objects.find((o) => o.kind === 'ReplicationController' && o.metadata.name === 'web') as Owned | undefined;
  assert.ok(rc);
  assert.deepEqual(rc.spec?.['selector'], { app: 'web' });
  assert.deepEqual(rc.metadata.labels, { app: 'web' });
  assert.deepEqual(rc.status, { replicas: 3, fullyLabeledReplicas: 3, readyReplicas: 3, availableReplicas: 3, observedGeneration: 1 });
  const pods = report.objects.filter((o) => o.kind === 'Pod' && o.metadata.namespace === 'default') as Owned[];
  assert.equal(pods.length, 3);
  for (const pod of pods) {
    assert.match(pod.metadata.name, POD);
    assert.equal(pod.status?.['phase'], 'Running');
    assert.deepEqual(pod.metadata.ownerReferences, [{ apiVersion: 'v1', blockOwnerDeletion: true, controller: true, kind: 'ReplicationController', name: 'web', uid: rc.metadata.uid }]);
  }
  // controller_utils.go RealPodControl.createPods: "Created pod: %v", recorded by the "replication-controller" component.
  const events = report.events.filter((e) => e.object === 'ReplicationController/default/web').map((e) => [e.source, e.reason, e.message]);
  assert.deepEqual(events.sort(), pods.map((p) => ['replication-controller', 'SuccessfulCreate', `Created pod: ${p.metadata.name}`]).sort());
  assert.equal(events.length, 3);
});

test('a ReplicationController deleted after it settles: its pods go too, outcome Deleted', () => {
  const { status, report } = runJson('run', RC, '--delete');
  assert.equal(status, 0);
  assert.equal(report.outcome, 'Deleted');
  assert.equal(report.objects.filter((o) => o.kind === 'ReplicationController' || (o.kind === 'Pod' && POD.test(o.metadata.name))).length, 0);
});
