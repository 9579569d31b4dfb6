// A preemption's nomination holds the room it made, through the CLI as a process: a victim that takes 600 s to stop,
// a pod of priority 1000 that preempts it and is nominated to its node, and a pod of priority 0 that would fit beside
// the victim but not beside the nominated pod (RunFilterPluginsWithNominatedPods, pkg/scheduler/framework/runtime/
// framework.go v1.36.3). The reference cluster's kube-scheduler leaves the latecomer Pending with this same message
// (the oracle's preemption case).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { CLI, ROOT } from './harness';

interface Report {
  trace: { phase: string; object?: string; step?: unknown; result: string; detail?: Record<string, unknown> }[];
  objects: { kind: string; metadata: { name: string; deletionTimestamp?: string }; spec?: { nodeName?: string }; status?: { nominatedNodeName?: string } }[];
  events: { reason: string; object: string; message: string }[];
}

test('preemption: the nominated pod counts on its node, so a pod of lower priority does not take its room', () => {
  const r = spawnSync(process.execPath, [
    CLI, 'run', 'test/fixtures/preemption/victim.yaml', '--then-apply', '5s,test/fixtures/preemption/nominated.yaml', '--for', '60s', '--json',
  ], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  assert.equal(r.stderr.includes('Error'), false, r.stderr);
  const report = JSON.parse(r.stdout) as Report;
  const pod = (name: string) => report.objects.find((o) => o.kind === 'Pod' && o.metadata.name === name);
  assert.ok(pod('victim')?.metadata.deletionTimestamp, 'the victim is still stopping');
  assert.equal(pod('preemptor')?.spec?.nodeName, undefined);
  assert.equal(pod('preemptor')?.status?.nominatedNodeName, 'worker-1');
  assert.equal(pod('latecomer')?.spec?.nodeName, undefined);
  assert.deepEqual(
    report.events.filter((e) => e.reason === 'FailedScheduling' && e.object === 'Pod/default/latecomer').map((e) => e.message),
    ['0/3 nodes are available: 1 Insufficient cpu, 1 node(s) didn\'t match Pod\'s node affinity/selector, 1 node(s) had untolerated taint(s). no new claims to deallocate, preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.'],
  );
  // The trace says why worker-1 had no room, and what the preemption did.
  const filter = report.trace.find((e) => e.phase === 'scheduler.filter' && e.object === 'Pod/default/latecomer' && !e.step);
  assert.equal(filter?.result, '0 of 3 nodes fit; counted as running there (nominated, with a priority as high or higher): default/preemptor on worker-1');
  assert.deepEqual(filter?.detail?.['nominatedPods'], { 'worker-1': ['default/preemptor'] });
  const preemption = report.trace.find((e) => e.phase === 'scheduler.postFilter' && e.object === 'Pod/default/preemptor' && /^DefaultPreemption/.test(e.result));
  assert.match(preemption?.result ?? '', /^DefaultPreemption: nominated worker-1, preempting default\/victim$/);
});
