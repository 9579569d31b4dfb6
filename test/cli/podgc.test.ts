// The pod garbage collector's orphans, run as a process. pkg/controller/podgc/gc_controller.go at kubernetes v1.36.3:
// gc runs every gcCheckPeriod (20 s); gcOrphaned puts a node missing from the informer's cache in the nodeQueue with
// AddAfter(quarantineTime, 40 s); once the node comes out of quarantine and a live GET still finds nothing, each of
// its pods gets markFailedAndDeletePodWithCondition: a status patch (PatchPodStatus, the uid as precondition) to
// phase Failed with the condition DisruptionTarget, reason DeletionByPodGC, message "PodGC: node no longer exists"
// (observedGeneration set: PodObservedGenerationTracking is GA), then a delete with a grace period of 0. The
// simulation runs the 20 s loop on multiples of 20 s of its clock: the pod created at 0 is seen at 20 and goes at 60.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runJson } from './harness';

test('a pod bound to a node that does not exist is quarantined at the first gc, then marked Failed and force-deleted 40 s later', () => {
  const { status, report } = runJson('run', 'test/fixtures/controllers/pod-on-missing-node.yaml');
  assert.equal(status, 1);
  const entries = report.trace.filter((e) => !e.step && (e.phase === 'controllers.podgc' || (e.at! > 0 && /apiserver\.(authenticate|delete|finalize)/.test(e.phase))));
  assert.deepEqual(entries.map((e) => `${e.at} ${e.phase} ${e.result}`), [
    '20 controllers.podgc node "gone" is not in the informer\'s cache: quarantined in the nodeQueue for 40s before it is looked up',
    '60 controllers.podgc node "gone" no longer exists (not found after 40s in quarantine): PATCH pods/status to phase Failed with DisruptionTarget (DeletionByPodGC: PodGC: node no longer exists)',
    '60 controllers.podgc force-deleting the orphaned pod: DELETE with gracePeriodSeconds 0',
    '60 apiserver.authenticate authenticated as "system:serviceaccount:kube-system:pod-garbage-collector" by service-account-token (groups: system:serviceaccounts, system:serviceaccounts:kube-system, system:authenticated)',
    '60 apiserver.delete deletion with a grace period of 0: deletionTimestamp 2026-01-01T00:01:00Z, removed at once unless finalizers hold it',
    '60 apiserver.finalize removed Pod "web" from storage (propagation Background)',
  ]);
  const patch = JSON.parse(String(entries[1]!.detail['patch'])) as { metadata: { uid: string }; status: Record<string, unknown> };
  assert.match(patch.metadata.uid, /^[0-9a-f-]{36}$/);
  assert.deepEqual(patch.status, {
    conditions: [{
      lastProbeTime: null, lastTransitionTime: '2026-01-01T00:01:00Z', message: 'PodGC: node no longer exists', observedGeneration: 1,
      reason: 'DeletionByPodGC', status: 'True', type: 'DisruptionTarget',
    }],
    observedGeneration: 1,
    phase: 'Failed',
  });
  assert.equal(report.objects.some((o) => o.kind === 'Pod' && o.metadata.name === 'web'), false);
});
