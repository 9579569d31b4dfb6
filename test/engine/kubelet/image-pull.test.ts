// Image pulls on whole runs, against pkg/kubelet/images/image_manager.go at v1.36.3: a reference the kubelet cannot
// parse (InvalidImageName, no pull), and a pull that keeps failing (ErrImagePull, then ImagePullBackOff with a back-off
// of 10 s doubling to 300 s; the BackOff event without the error, the waiting message with it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ContainerStatus, Pod } from '../../../src/engine/api/types';
import { simulate } from '../console/simulate';

const pod = (image: string, more = '') => `apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n    - name: app\n      image: ${image}\n${more}`;
const missing = `${pod('nginx:1.27')}---\napiVersion: podlifecycle.debug/v1alpha1\nkind: Behavior\nimages:\n  "nginx:1.27": {exists: false}\n`;
const NOT_FOUND = 'rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:1.27": failed to resolve reference "docker.io/library/nginx:1.27": docker.io/library/nginx:1.27: not found';

const INVALID = 'Failed to apply default image tag "nginx::1.25": couldn\'t parse image name "nginx::1.25": invalid reference format';

for (const policy of ['IfNotPresent', 'Always', 'Never']) {
  test(`an image reference the kubelet cannot parse (pull policy ${policy}): InspectFailed, InvalidImageName, no pull, Pending`, () => {
    const sim = simulate(pod('"nginx::1.25"', `      imagePullPolicy: ${policy}\n`), { forMs: 60_000 });
    // The API server stores it: pkg/apis/core/validation only asks for an image without surrounding whitespace.
    assert.equal(sim.result().kubectl, 'pod/web created');
    const kubelet = sim.recorder.events.filter((e) => e.source === 'kubelet');
    // image_manager.go EnsureImageExists: applyDefaultImageTag fails before the pull policy is looked at; then
    // kuberuntime_container.go startContainer's "Error: InvalidImageName". Both on the container, again at every sync.
    assert.deepEqual(kubelet.map((e) => [e.type, e.reason, e.fieldPath, e.message]), [
      ['Warning', 'InspectFailed', 'spec.containers{app}', INVALID],
      ['Warning', 'Failed', 'spec.containers{app}', 'Error: InvalidImageName'],
    ]);
    assert.ok(kubelet.every((e) => e.count > 1), 'retried at each sync');
    assert.equal(sim.trace.some((e) => e.phase === 'kubelet.imagePull' && /pulling/.test(e.result)), false);
    const stored = sim.store.get<Pod>('Pod', 'default', 'web')!;
    assert.equal(stored.status?.phase, 'Pending');
    const status = stored.status?.containerStatuses?.[0];
    assert.deepEqual(status?.state, { waiting: { message: INVALID, reason: 'InvalidImageName' } });
    assert.equal(status?.image, 'nginx::1.25');
  });
}

/** waitingAt lists the container's waiting reason as each status the kubelet sends has it, with the time. */
function waitingAt(trace: readonly { phase: string; at: number; detail: Record<string, unknown> }[]): [number, string][] {
  return trace.filter((e) => e.phase === 'kubelet.status').map((e) => [e.at, (e.detail['containerStatuses'] as ContainerStatus[])[0]?.state?.waiting?.reason ?? 'none']);
}

test('a pull that keeps failing: the BackOff event without the error, the waiting message with it (prevPullErrMsg)', () => {
  // The sync after the failed pull finds the back-off; the status shows it from the sync after that, 10 to 15 s later.
  const sim = simulate(missing, { forMs: 20_000 });
  // image_manager.go pullImage: logIt(..., BackOffPullImage, `Back-off pulling image %q`) before the message for the
  // status gets ": " + prevPullErrMsg, which is "<ErrImagePull>: <the pull's error>".
  const backOff = sim.recorder.events.find((e) => e.reason === 'BackOff');
  assert.deepEqual([backOff?.type, backOff?.fieldPath, backOff?.message], ['Normal', 'spec.containers{app}', 'Back-off pulling image "nginx:1.27"']);
  const waiting = sim.store.get<Pod>('Pod', 'default', 'web')?.status?.containerStatuses?.[0]?.state?.waiting;
  assert.deepEqual(waiting, { message: `Back-off pulling image "nginx:1.27": ErrImagePull: ${NOT_FOUND}`, reason: 'ImagePullBackOff' });
});

test('a pull that keeps failing: each sync shows what the one before it found, ErrImagePull then ImagePullBackOff', () => {
  const sim = simulate(missing, { forMs: 100_000 });
  const reasons = waitingAt(sim.trace);
  const pulls = sim.trace.filter((e) => e.phase === 'kubelet.imagePull' && e.result.startsWith('ErrImagePull')).map((e) => e.at);
  // kubelet.go SyncPod sends the status before it acts, from the reason cache the previous sync left: a failed pull shows
  // as ErrImagePull from the next sync, and the back-off that sync finds (ImagePullBackOff) from the one after.
  // The first failure is followed at once by a sync (the PLEG reports the sandbox that sync started).
  assert.deepEqual(reasons.filter(([t]) => t === pulls[0]).map(([, r]) => r), ['ErrImagePull']);
  const after = (at: number) => reasons.filter(([t]) => t > at);
  assert.equal(after(pulls[0]!)[0]?.[1], 'ImagePullBackOff');
  // A later failure waits for the pod worker's requeue 10 to 15 s later (pod_workers.go completeWork); that sync shows
  // it, and the next one the back-off.
  for (const at of pulls.slice(1).filter((t) => t + 30 <= 100)) {
    const [next, then] = after(at);
    assert.ok(next && next[0] - at >= 10 && next[0] - at <= 15, `the sync after the failure at ${at} came at ${next?.[0]}`);
    assert.deepEqual([next[1], then?.[1]], ['ErrImagePull', 'ImagePullBackOff'], `after the failure at ${at}`);
  }
  // The status never changes between syncs: every status is sent when a sync begins, none with a failed pull but the first.
  assert.deepEqual(reasons.filter(([t]) => pulls.includes(t)).map(([t]) => t), [pulls[0]]);
  // Every BackOff event comes from a sync inside the back-off, never with a failed pull but the first.
  const backOffs = sim.trace.filter((e) => e.phase === 'kubelet.imagePull' && e.result.startsWith('ImagePullBackOff')).map((e) => e.at);
  assert.deepEqual(backOffs.filter((t) => pulls.includes(t)), [pulls[0]]);
});

test('the image back-off doubles from 10 s and stops at 300 s (MaxImageBackOff), without jitter', () => {
  // pkg/kubelet/kubelet.go: imageBackOffPeriod 10s, MaxImageBackOff 300s, flowcontrol.NewBackOff (no jitter).
  const sim = simulate(missing, { forMs: 1_500_000 });
  const backoffs = [...new Set(sim.trace.filter((e) => e.phase === 'kubelet.imagePull' && e.result.startsWith('ImagePullBackOff')).map((e) => e.detail['backoffSeconds']))];
  assert.deepEqual(backoffs, [10, 20, 40, 80, 160, 300]);
  const pulls = sim.trace.filter((e) => e.phase === 'kubelet.imagePull' && e.result.startsWith('app: pulling')).map((e) => e.at);
  const failures = sim.trace.filter((e) => e.phase === 'kubelet.imagePull' && e.result.startsWith('ErrImagePull')).map((e) => e.at);
  [10, 20, 40, 80, 160, 300, 300].forEach((backoff, i) => {
    const gap = pulls[i + 1]! - failures[i]!;
    // IsInBackOffSinceUpdate from the failure; the pull comes with the first sync after, at most 15 s later.
    assert.ok(gap >= backoff && gap <= backoff + 15, `pull ${i + 2} came ${gap}s after the failure before it, with a back-off of ${backoff}s`);
  });
});
