// Preemption as kube-scheduler 1.36 carries it out, through the CLI as a process. A preemption's nomination holds the
// room it made: a victim that takes 600 s to stop, a pod of priority 1000 that preempts it and is nominated to its
// node, and a pod of priority 0 that would fit beside the victim but not beside the nominated pod
// (RunFilterPluginsWithNominatedPods, pkg/scheduler/framework/runtime/framework.go v1.36.3); the reference cluster's
// kube-scheduler leaves the latecomer Pending with this same message (the oracle's preemption case). A preemption takes
// their nomination from the pods of lower priority nominated to its node, and its requests wait for the scheduler's
// client (prepareCandidateAsync, clearNominatedNodeName, PreemptPod in pkg/scheduler/framework/preemption/executor.go).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, ROOT } from './harness';

function run(...args: string[]): Report {
  const r = spawnSync(process.execPath, [CLI, 'run', ...args, '--json', '--trace', 'full'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 256 * 1024 * 1024 });
  assert.equal(r.stderr.includes('Error'), false, r.stderr);
  return JSON.parse(r.stdout) as Report;
}

interface Report {
  trace: { at: number; phase: string; object?: string; step?: unknown; result: string; outcome?: string; detail?: Record<string, unknown> }[];
  objects: { kind: string; metadata: { name: string; deletionTimestamp?: string }; spec?: { nodeName?: string }; status?: { nominatedNodeName?: string } }[];
  events: { at: number; reason: string; object: string; message: string }[];
}

test('preemption: the nominated pod counts on its node, so a pod of lower priority does not take its room', () => {
  const report = run('test/fixtures/preemption/victim.yaml', '--then-apply', '5s,test/fixtures/preemption/nominated.yaml', '--for', '60s');
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

test('preemption: the pods of lower priority nominated to the node lose their nomination', () => {
  const report = run(
    'test/fixtures/preemption/victim.yaml', '--then-apply', '3s,test/fixtures/preemption/second-pod.yaml', '--then-apply', '6s,test/fixtures/preemption/medium.yaml',
    '--then-apply', '9s,test/fixtures/preemption/urgent.yaml', '--for', '60s',
  );
  // medium (100) preempted the victim at 6 s and was nominated to worker-1; urgent (1000) preempts the second pod there.
  const steps = report.trace.filter((e) => e.phase === 'scheduler.postFilter' && e.object === 'Pod/default/urgent' && e.at === 9 && !/^(DynamicResources|DefaultPreemption|0\/3)/.test(e.result));
  assert.deepEqual(steps.map((e) => e.result), [
    'default/medium (priority 100) is no longer nominated to worker-1: it may not fit there once urgent runs',
    'preempting default/second on worker-1: DisruptionTarget condition, then a graceful delete',
  ]);
  assert.equal(report.events.filter((e) => e.reason === 'Preempted').map((e) => e.object).join(' '), 'Pod/default/victim Pod/default/second');
  // urgent is bound once the second pod is gone: the binding clears its nomination (ClearingNominatedNodeNameAfterBinding).
  const urgent = report.objects.find((o) => o.kind === 'Pod' && o.metadata.name === 'urgent');
  assert.equal(urgent?.spec?.nodeName, 'worker-1');
  assert.equal(urgent?.status?.nominatedNodeName, undefined);
});

test('preemption: evicting 105 victims sends 210 requests through the scheduler\'s client, 50 a second after its burst of 100', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pod-lifecycle-preemption-'));
  const small = Array.from({ length: 105 }, (_, i) => `apiVersion: v1\nkind: Pod\nmetadata: {name: small-${i}}\nspec:\n  nodeSelector: {kubernetes.io/hostname: worker-1}\n`
    + '  containers: [{name: app, image: nginx:1.27, resources: {requests: {cpu: 1m}}}]\n');
  writeFileSync(join(dir, 'small.yaml'), small.join('---\n'));
  writeFileSync(join(dir, 'big.yaml'), 'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 1000\n---\n'
    + 'apiVersion: v1\nkind: Pod\nmetadata: {name: big}\nspec:\n  priorityClassName: high\n  nodeSelector: {kubernetes.io/hostname: worker-1}\n'
    + '  containers: [{name: app, image: nginx:1.27, resources: {requests: {cpu: "4"}}}]\n');
  const report = run(join(dir, 'small.yaml'), '--then-apply', `10s,${join(dir, 'big.yaml')}`, '--for', '60s');
  // At 10 s the bucket is full again: the failed attempt's status patch takes one token, the victims' first 99
  // requests the rest, and each of the other 111 waits 20 ms: the last victim is deleted 2.22 s later.
  const waits = report.trace.filter((e) => e.phase === 'scheduler.postFilter' && e.outcome === 'waiting');
  assert.equal(waits.length, 111);
  assert.match(waits[0]!.result, /^kube-scheduler's client waits 20ms before it sends (PATCH \/api\/v1\/namespaces\/default\/pods\/small-\d+\/status|DELETE \/api\/v1\/namespaces\/default\/pods\/small-\d+): its rate limiter allows 50 requests a second after a burst of 100 \(clientConnection.qps, clientConnection.burst\)$/);
  const preempted = report.events.filter((e) => e.reason === 'Preempted');
  assert.equal(preempted.length, 105);
  assert.equal(Math.round(Math.max(...preempted.map((e) => e.at)) * 1000), 12_220);
  assert.equal(report.objects.find((o) => o.metadata.name === 'big')?.spec?.nodeName, 'worker-1');
});
