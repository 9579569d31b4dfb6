// A quantity past what an int64 holds is capped by the API server (resource.ParseQuantity) and then read by the
// scheduler with Quantity.Value, so no node has enough memory. The stored value and the FailedScheduling message are
// the reference cluster's (kube-apiserver and kube-scheduler v1.36.3) for the same manifest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runJson } from './harness';

test('a memory request of 99999999999999999999999Ei is stored capped and fits no node', () => {
  const { status, report } = runJson('run', 'test/fixtures/quantities/absurd-memory.yaml');
  assert.equal(status, 1);
  assert.equal(report.outcome, 'Pending');
  const pod = report.objects.find((o) => o.kind === 'Pod' && o.metadata.name === 'absurd');
  assert.deepEqual((pod?.spec?.['containers'] as { resources: unknown }[])[0]!.resources, { requests: { memory: '9223372036854775807' } });
  const failed = report.events.find((e) => e.reason === 'FailedScheduling');
  assert.equal(failed?.message, '0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient memory. no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.');
});
