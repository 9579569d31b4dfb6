// `pod-lifecycle run --delete --then-delete AFTER[,grace-period=N][,force][,now]` as a process: `kubectl delete -f`
// again while the pod is terminating, with the API server's rules for a pod already being deleted
// (staging/src/k8s.io/apiserver/pkg/registry/rest/delete.go BeforeDelete) and kubectl's flag checks
// (staging/src/k8s.io/kubectl/pkg/cmd/delete/delete.go Complete and Validate).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { CLI, ROOT, runJson, type TraceEntry } from './harness';

const FIXTURES = 'test/fixtures/termination';
const WARNING = 'Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.';
const deleted = 'pod "web" deleted from default namespace';

const line = (e: TraceEntry) => `${e.at} ${e.phase}${e.step ? ` [${e.step.name}]` : ''} ${e.result}`;

const cases = [
  {
    // The process ignores SIGTERM: SIGKILL at 2 + 30 s. --force removes the pod at 12 s; the kubelet's kill goes on.
    name: 'a forced delete 10 s later removes the pod from the API server at once; the kill still ends at 32 s',
    args: [`${FIXTURES}/ignores-sigterm.yaml`, '--then-delete', '10s,grace-period=0,force'],
    kubectl: `pod/web created\n${deleted}\n${WARNING}\npod "web" force deleted from default namespace`,
    trace: [
      '2 apiserver.delete graceful deletion: deletionTimestamp 2026-01-01T00:00:32Z, grace period 30s',
      '12 apiserver.delete deletion with a grace period of 0 (shortened; 0s after the pending deletion was asked for is already past: deletionTimestamp is now): deletionTimestamp 2026-01-01T00:00:12Z, removed at once unless finalizers hold it',
      '12 apiserver.finalize removed Pod "web" from storage (propagation Background)',
      '32 kubelet.terminate [app] grace period over: SIGKILL to app, exit code 137',
      '32 apiserver.finalize the pod is already gone from the API server: nothing left to delete',
    ],
  },
  {
    // delete.go Complete: --now is --grace-period=1; 1 < 30 would move deletionTimestamp to 00:00:32 - 30 s + 1 s,
    // which is past at 7 s: BeforeDelete (k8s.io/apiserver v0.36.0 rest/delete.go) makes it now, with a period of 1.
    name: 'now is a grace period of 1, which shortens the pending 30 s',
    args: [`${FIXTURES}/ignores-sigterm.yaml`, '--then-delete', '5s,now'],
    kubectl: `pod/web created\n${deleted}\n${deleted}`,
    trace: [
      '2 apiserver.delete graceful deletion: deletionTimestamp 2026-01-01T00:00:32Z, grace period 30s',
      '7 apiserver.delete graceful deletion: deletionTimestamp 2026-01-01T00:00:07Z, grace period 1s (shortened; 1s after the pending deletion was asked for is already past: deletionTimestamp is now and the grace period 1s, the least that is still graceful)',
      '32 kubelet.terminate [app] grace period over: SIGKILL to app, exit code 137',
      '32 apiserver.finalize removed Pod "web" from storage (propagation Background)',
    ],
  },
];

for (const c of cases) {
  test(`--then-delete: ${c.name}`, () => {
    const { status, report } = runJson('run', ...c.args, '--delete');
    assert.equal(status, 0);
    assert.equal(report.outcome, 'Deleted');
    assert.equal(report.kubectl, c.kubectl);
    const kinds = /apiserver\.(delete|finalize)|kubelet\.terminate/;
    assert.deepEqual(report.trace.filter((e) => kinds.test(e.phase) && (e.phase !== 'kubelet.terminate' || e.detail['exitCode'] !== undefined)).map(line), c.trace);
  });
}

test('--then-delete frees a pod stuck Terminating on a node whose kubelet is down (exit 0)', () => {
  const { status, report } = runJson('run', `${FIXTURES}/kubelet-down-from-start.yaml`, '--delete', '--then-delete', '1m,force');
  assert.equal(status, 0);
  assert.equal(report.outcome, 'Deleted');
  assert.equal(report.trace.filter((e) => e.phase === 'apiserver.finalize').map(line).at(-1), '415 apiserver.finalize removed Pod "web" from storage (propagation Background)');
});

const usage = [
  { name: 'without --delete', args: ['--then-delete', '5s'], want: /^error: --then-delete goes with --delete: it is a further kubectl delete after the first\n/ },
  { name: 'with a time that is not a duration', args: ['--delete', '--then-delete', 'soon'], want: /^error: invalid time for --then-delete: "soon"/ },
  { name: 'with an option kubectl delete has not', args: ['--delete', '--then-delete', '5s,cascade=orphan'], want: /^error: invalid option for --then-delete: "cascade=orphan"/ },
  { name: 'with force and a grace period above 0, as kubectl\'s Validate refuses them', args: ['--delete', '--then-delete', '5s,force,grace-period=3'], want: /^error: --force and --grace-period greater than 0 cannot be specified together\n/ },
  { name: 'with now and a grace period, as kubectl\'s Complete refuses them', args: ['--delete', '--then-delete', '5s,now,grace-period=3'], want: /^error: --now and --grace-period cannot be specified together\n/ },
];

for (const c of usage) {
  test(`--then-delete is a usage error (exit 2) ${c.name}`, () => {
    const r = spawnSync(process.execPath, [CLI, 'run', `${FIXTURES}/plain.yaml`, ...c.args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    assert.equal(r.status, 2);
    assert.match(r.stderr, c.want);
  });
}
