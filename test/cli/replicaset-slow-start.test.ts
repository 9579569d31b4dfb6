// A ReplicaSet whose pods a ResourceQuota refuses, run as a process for 30 minutes: the FailedCreate events as
// kube-controller-manager 1.36 makes them. manageReplicas creates in slowStartBatch batches (1, then 2: both of the
// failing batch are tried) and returns the error; processNextWorkItem requeues the key with AddRateLimited
// (DefaultTypedControllerRateLimiter: 5 ms doubling per failure, client-go v0.36.0 util/workqueue); every status
// update and pod event syncs it again too. RealPodControl.createPods records "Error creating: <err>", the error
// naming the generated pod name (the quota is a validating plugin, after the registry drew the name). The event
// correlator (client-go tools/record/events_cache.go) keeps 9 distinct messages as 9 events and combines the 10th
// and later into one "(combined from similar events): ..." event, until a gap over 10 minutes starts it over.
// calculateStatus adds the ReplicaFailure condition (pkg/controller/replicaset/replica_set_utils.go, v1.36.3).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runJson } from './harness';

const NAME = /frontend-[a-z0-9]{5}/g;
const QUOTA = 'is forbidden: exceeded quota: pods, requested: pods=1, used: pods=1, limited: pods=1';
const failed = `Error creating: pods "frontend-xxxxx" ${QUOTA}`;

test('a quota of one pod: one pod, then FailedCreate events at the rate-limited resyncs, the 10th on combined', () => {
  const { status, report } = runJson('run', 'test/fixtures/controllers/frontend-rs-3.yaml', '--cluster', 'test/fixtures/quota/pods-quota-1.yaml', '--cluster', 'test/fixtures/quota/nodes.yaml', '--for', '30m');
  assert.equal(status, 1);
  assert.equal(report.outcome, 'Pending');
  const rs = report.trace.filter((e) => e.phase === 'controllers.replicaset').map((e) => `${e.at} ${e.result.replace(NAME, 'frontend-xxxxx')}`);
  // The first sync: a batch of 1 that succeeds, then a batch of 2 whose two creates both fail.
  assert.deepEqual(rs.slice(0, 5), [
    '0 0 of 3 pods exist: creating 3',
    '0 created pod frontend-xxxxx (batch of 1)',
    `0 Error creating: pods "frontend-xxxxx" ${QUOTA}`,
    `0 Error creating: pods "frontend-xxxxx" ${QUOTA}`,
    '0 status: 1 replicas, 0 ready, 0 available',
  ]);
  // Each later sync tries one batch of 1 and skips the other pod.
  assert.ok(rs.includes('0.005 slow start: a create of this batch failed, so the 1 left are skipped until the next sync'));
  const failures = report.trace.filter((e) => e.phase === 'controllers.replicaset' && e.result.startsWith('sync failed')).map((e) => e.at);
  assert.deepEqual(failures, [0, 0, 0, 0, 0.005, 0.085, 0.245, 0.565, 1.205, 2, 2, 2.485, 12.725, 33.205, 74.165, 156.085, 319.925, 647.605, 1302.965]);
  const events = report.events.filter((e) => e.object === 'ReplicaSet/default/frontend')
    .map((e) => [e.at, (e as { firstAt?: number }).firstAt ?? null, e.reason, (e as { count?: number }).count ?? 1, e.message.replace(NAME, 'frontend-xxxxx')]);
  assert.deepEqual(events, [
    [0, null, 'SuccessfulCreate', 1, 'Created pod: frontend-xxxxx'],
    ...[0, 0, 0, 0, 0, 0.005, 0.085, 0.245, 0.565].map((at) => [at, null, 'FailedCreate', 1, failed]),
    [647.605, 1.205, 'FailedCreate', 10, `(combined from similar events): ${failed}`],
    [1302.965, null, 'FailedCreate', 1, failed],
  ]);
  const stored = report.objects.find((o) => o.kind === 'ReplicaSet') as { status?: { conditions?: Record<string, string>[] } } | undefined;
  const conditions = stored?.status?.conditions?.map((c) => ({ ...c, message: c['message']?.replace(NAME, 'frontend-xxxxx') }));
  assert.deepEqual(conditions, [{ type: 'ReplicaFailure', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'FailedCreate', message: `pods "frontend-xxxxx" ${QUOTA}` }]);
});
