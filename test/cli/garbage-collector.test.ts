// The garbage collector's dangling owners, run as a process. pkg/controller/garbagecollector at kubernetes v1.36.3:
// an owner reference to a uid not in the graph makes a virtual owner node (graph_builder.go addDependentToOwners),
// attemptToDeleteItem finds it absent or present under another uid and sends a virtual delete event, and its
// dependents are attempted in turn: classifyReferences calls an owner dangling when its kind has no object of that
// name (in the dependent's namespace if namespaced) or the object has another uid. A dependent with no solid owner is
// deleted (Background unless its finalizers say otherwise); one with a solid owner loses the dangling references.
// The reference cluster agrees for test/fixtures/gc/dangling-owners.yaml (scripts/oracle.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runJson } from './harness';

test('objects whose every owner is dangling are deleted in the background; the workload beside them is kept', () => {
  const { report } = runJson('run', 'test/fixtures/gc/dangling-owners.yaml');
  const gc = report.trace.filter((e) => e.phase === 'controllers.garbagecollector' && !e.step).map((e) => `${e.object} ${e.result}`);
  // Each virtual owner is checked first (the manifest's own Deployment web exists, but under the uid the server gave
  // it, not the one the reference names), then its dependent, a queue hop later: the pod is bound by then.
  const uid = '[0-9a-f-]{36}';
  const want = [
    /^ConfigMap\/default\/orphan owner Deployment\/gone \(uid 6f0c1a0e-0000-4000-8000-000000000001\) is not in the graph: no Deployment "gone" in default; a virtual delete event queues its dependents$/,
    new RegExp(`^ConfigMap/default/web-config owner Deployment/web \\(uid 6f0c1a0e-0000-4000-8000-000000000002\\) is not in the graph: the Deployment of that name has uid ${uid}; a virtual delete event queues its dependents$`),
    new RegExp(`^ConfigMap/default/node-config owner Node/worker-1 \\(uid 6f0c1a0e-0000-4000-8000-000000000003\\) is not in the graph: the Node of that name has uid ${uid}; a virtual delete event queues its dependents$`),
    /^Pod\/default\/stray owner ReplicaSet\/gone \(uid 6f0c1a0e-0000-4000-8000-000000000004\) is not in the graph: no ReplicaSet "gone" in default; a virtual delete event queues its dependents$/,
    /^ConfigMap\/default\/orphan no owner of it exists \(Deployment\/gone does not exist\): deleting it \(propagationPolicy Background\)$/,
    new RegExp(`^ConfigMap/default/web-config no owner of it exists \\(Deployment/web has uid ${uid}, not 6f0c1a0e-0000-4000-8000-000000000002\\): deleting it \\(propagationPolicy Background\\)$`),
    new RegExp(`^ConfigMap/default/node-config no owner of it exists \\(Node/worker-1 has uid ${uid}, not 6f0c1a0e-0000-4000-8000-000000000003\\): deleting it \\(propagationPolicy Background\\)$`),
    /^Pod\/default\/stray no owner of it exists \(ReplicaSet\/gone does not exist\): deleting it \(propagationPolicy Background\)$/,
  ];
  assert.equal(gc.length, want.length, gc.join('\n'));
  want.forEach((re, i) => assert.match(gc[i]!, re));
  // The reference binds the pod before the collector deletes it too: no FailedScheduling for a pod already gone.
  assert.ok(report.events.some((e) => e.reason === 'Scheduled' && e.object === 'Pod/default/stray'));
  assert.ok(!report.events.some((e) => e.reason === 'FailedScheduling'));
  const left = report.objects.filter((o) => o.metadata.namespace === 'default' && ['ConfigMap', 'Pod', 'Deployment'].includes(o.kind)).map((o) => `${o.kind}/${o.metadata.name}`);
  for (const gone of ['ConfigMap/orphan', 'ConfigMap/web-config', 'ConfigMap/node-config', 'Pod/stray']) assert.ok(!left.includes(gone), `${gone} is deleted`);
  assert.ok(left.includes('Deployment/web'));
  assert.ok(left.some((n) => /^Pod\/web-[a-f0-9]+-[a-z0-9]{5}$/.test(n)), 'the Deployment keeps its pod');
});

test('an object with one live owner and one dangling keeps the live reference only', () => {
  const { report } = runJson('run', 'test/fixtures/gc/two-owners.yaml', '--cluster', 'test/fixtures/gc/solid-owner-cluster.yaml');
  const gc = report.trace.filter((e) => e.phase === 'controllers.garbagecollector' && !e.step).map((e) => e.result);
  assert.deepEqual(gc, [
    'owner Deployment/gone (uid 7a1d2c3b-0000-4000-8000-00000000bbbb) is not in the graph: no Deployment "gone" in default; a virtual delete event queues its dependents',
    'Deployment/gone does not exist, but ConfigMap/owner still owns it: removing the dangling reference',
  ]);
  const shared = report.objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'shared');
  assert.deepEqual((shared?.metadata as { ownerReferences?: unknown } | undefined)?.ownerReferences, [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: '7a1d2c3b-0000-4000-8000-00000000aaaa' }]);
});
