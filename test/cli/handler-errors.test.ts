// The messages of failing lifecycle hooks and probes through the CLI: the handler runner's error in the container's
// waiting message, a hook or probe on a port the kubelet cannot resolve, and the exec prober's timeout, each as
// Kubernetes 1.36 writes it. Fixtures: test/fixtures/kubelet/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runJson, type Report, type StoredObject } from './harness';

const fixture = (name: string) => `test/fixtures/kubelet/${name}.yaml`;
type Waiting = { reason: string; message?: string };
type Statuses = { state: { waiting?: Waiting; running?: unknown } }[];

const pod = (r: Report) => r.objects.find((o) => o.kind === 'Pod' && o.metadata.name === 'web') as StoredObject & { metadata: { uid: string } };
const label = (r: Report) => `web_default(${pod(r).metadata.uid})`;
const events = (r: Report) => r.events.filter((e) => e.source === 'kubelet').map((e) => `${e.type} ${e.reason}: ${e.message}`);
/** waitings lists every waiting state the kubelet reported for the pod's container, in order, without repeats. */
const waitings = (r: Report): Waiting[] => r.trace.filter((e) => e.phase === 'kubelet.status')
  .map((e) => (e.detail['containerStatuses'] as Statuses)[0]?.state.waiting)
  .filter((w): w is Waiting => w !== undefined)
  .filter((w, i, all) => i === 0 || JSON.stringify(w) !== JSON.stringify(all[i - 1]));

const cases: { name: string; fixture: string; want: (r: Report) => Waiting }[] = [
  {
    // handlers.go Run: "Exec lifecycle hook (%v) for Container %q in Pod %q failed - error: %v, message: %q", the
    // error the CRI client's "command '%s' exited with %d: %s" (cri-client remote_runtime.go execSyncV1).
    name: 'a failed exec postStart hook leaves the runner\'s exec message as the container\'s PostStartHookError',
    fixture: 'poststart-fails',
    want: (r) => ({ reason: 'PostStartHookError', message: `Exec lifecycle hook ([sh -c /bin/warmup]) for Container "app" in Pod "${label(r)}" failed - error: command 'sh -c /bin/warmup' exited with 1: , message: ""` }),
  },
  {
    // handlers.go Run: "HTTP lifecycle hook (%s) for Container %q in Pod %q failed - error: %v"; the error is
    // pkg/probe/util.go ResolveContainerPort's strconv.Atoi error for a name that is not among the ports.
    name: 'an httpGet postStart hook on an undeclared port name fails with strconv.Atoi\'s error',
    fixture: 'poststart-bad-port',
    want: (r) => ({ reason: 'PostStartHookError', message: `HTTP lifecycle hook (/warm) for Container "app" in Pod "${label(r)}" failed - error: strconv.Atoi: parsing "admin": invalid syntax` }),
  },
];
for (const c of cases) {
  test(c.name, () => {
    const { report } = runJson('run', fixture(c.fixture), '--for', '30s');
    // kuberuntime_container.go startContainer: Warning FailedPostStartHook "PostStartHook failed" and the kill.
    assert.ok(events(report).includes('Warning FailedPostStartHook: PostStartHook failed'));
    assert.ok(events(report).includes('Normal Killing: FailedPostStartHook'));
    assert.deepEqual(waitings(report).find((w) => w.reason === 'PostStartHookError'), c.want(report));
  });
}

test('an httpGet postStart hook on an undeclared port name fails at once, whatever the Behavior says', () => {
  const { report } = runJson('run', fixture('poststart-bad-port'), '--for', '30s');
  const started = report.trace.find((e) => e.phase === 'kubelet.containers' && e.result === 'started container app')?.at;
  const failed = report.trace.find((e) => e.phase === 'kubelet.containers' && e.result.startsWith('postStart hook failed'))?.at;
  assert.equal(failed, started);
  for (const e of report.trace.filter((x) => x.phase === 'kubelet.status')) {
    assert.ok(!(e.detail['containerStatuses'] as Statuses).some((s) => s.state.running), `never running (${e.at})`);
  }
});

test('a readiness probe on an undeclared port name errs every period and the container never becomes ready', () => {
  const { report } = runJson('run', fixture('readiness-bad-port'), '--for', '40s');
  // prober.go probe: "%s probe errored and resulted in %s state: %s" with probe.Unknown; worker.go doProbe throws the
  // result away, so readiness keeps its initial Failure.
  assert.ok(events(report).includes('Warning Unhealthy: Readiness probe errored and resulted in unknown state: strconv.Atoi: parsing "http": invalid syntax'));
  const errored = report.trace.filter((e) => e.phase === 'kubelet.probes' && e.result.startsWith('readiness probe errored')).map((e) => e.at);
  assert.deepEqual(errored, [2, 10, 20, 30, 40]);
  assert.ok(!report.trace.some((e) => e.phase === 'kubelet.probes' && e.result.startsWith('readiness probe succeeded')));
  assert.equal(report.outcome, 'Pending');
});

test('an exec liveness probe that outlasts timeoutSeconds fails with the CRI client\'s timeout error', () => {
  const { report } = runJson('run', fixture('exec-probe-timeout'), '--for', '40s');
  // cri-client remote_runtime.go execSyncV1: "%w: %q timed out after %s" with ErrCommandTimedOut ("command timed out");
  // exec.go Probe turns it into a failure whose output is the error.
  assert.ok(events(report).includes('Warning Unhealthy: Liveness probe failed: command timed out: "sh -c pg_isready -h localhost" timed out after 1s'));
  assert.ok(events(report).includes('Normal Killing: Container app failed liveness probe, will be restarted'));
});

test('a container killed for its liveness probe runs its preStop hook, and a failing hook is a FailedPreStopHook', () => {
  const { report } = runJson('run', fixture('liveness-prestop-fails'), '--for', '40s');
  // kuberuntime_container.go killContainer runs executePreStopHook for every kill, not only pod deletion; a failed
  // hook is a Warning FailedPreStopHook "PreStopHook failed" (its message left out), when it returns.
  const at = (reason: string) => report.events.find((e) => e.reason === reason)?.at;
  assert.ok(events(report).includes('Warning FailedPreStopHook: PreStopHook failed'));
  assert.equal(at('FailedPreStopHook'), (at('Killing') ?? NaN) + 1);
});
