// `pod-lifecycle explain` as a process on pods that crash-loop, fail liveness, lack their image, are slow to get Ready,
// ignore SIGTERM, keep a finalizer or sit on a node whose kubelet is down: the diagnosis in --json and for a person.
// Fixtures in test/fixtures/explain/diagnosis/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import type { PodDiagnosis } from '../../src/engine/explain/diagnosis';
import { CLI, ROOT } from './harness';

const FIXTURES = 'test/fixtures/explain/diagnosis';

type Diagnosis = PodDiagnosis;

interface Report {
  outcome: string;
  pods: { pod: string; phase: string; node?: string; deleted?: boolean; diagnosis?: Diagnosis; scheduling: { chosen?: string } }[];
}

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '' } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function explain(...args: string[]): { status: number | null; report: Report; diagnosis: Diagnosis } {
  const r = cli(['explain', ...args, '--json']);
  assert.equal(r.stderr, '');
  const report = JSON.parse(r.stdout) as Report;
  assert.equal(report.pods.length, 1);
  return { status: r.status, report, diagnosis: report.pods[0]!.diagnosis! };
}

function kinds(d: Diagnosis): string[] {
  return d.causes.map((c) => c.kind);
}

test('A crash loop: not Ready, CrashLoopBackOff with exit code 1, the back-off and kubectl logs --previous', () => {
  const { status, report, diagnosis: d } = explain('examples/pod.yaml', '--behavior', `${FIXTURES}/crash-loop.behavior.yaml`);
  assert.equal(status, 1);
  assert.deepEqual([report.outcome, report.pods[0]!.phase, d.question], ['CrashLoopBackOff', 'Running', 'notReady']);
  assert.deepEqual(kinds(d), ['CrashLoopBackOff']);
  const c = d.causes[0]!;
  // pkg/kubelet/kubelet.go: the back-off doubles from 10s to MaxContainerBackOff 300s (5m0s).
  assert.match(c.title, /^container app exits with code 1 \(Error\): .*; the kubelet waits 5m0s before restarting it \(CrashLoopBackOff, \d+ restarts\)$/);
  assert.equal(c.checks[0], 'kubectl logs web -c app --previous');
  // pkg/kubelet/kuberuntime/kuberuntime_manager.go (doBackOff)
  const backOff = c.evidence.find((e) => e.ref === 'Warning BackOff');
  assert.match(backOff?.text ?? '', /^Back-off restarting failed container app in pod web_default\(/);
  assert.ok(c.evidence.some((e) => e.ref === 'status.containerStatuses[0].state.waiting' && /^CrashLoopBackOff: back-off 5m0s restarting failed container=app pod=web_default\(/.test(e.text)));
  assert.ok(c.evidence.some((e) => e.kind === 'trace' && e.ref === 'kubelet.containers' && typeof e.at === 'number'));
});

test('A failing liveness probe: the pod restarts, and the Killing and Unhealthy events say why', () => {
  const { status, report, diagnosis: d } = explain(`${FIXTURES}/liveness.yaml`, '--behavior', `${FIXTURES}/liveness.behavior.yaml`, '--for', '2m');
  assert.equal(status, 0);
  assert.deepEqual([report.outcome, d.question], ['Running', 'restarting']);
  assert.deepEqual(kinds(d), ['LivenessProbe']);
  const c = d.causes[0]!;
  assert.match(c.title, /^the liveness probe of app failed and the kubelet killed the container \d+ times? \("failed liveness probe, will be restarted"\)$/);
  assert.equal(c.evidence[0]!.text, 'http-get http://:80/healthz delay=0s timeout=1s period=10s #success=1 #failure=3');
  assert.ok(c.evidence.some((e) => e.ref === 'Normal Killing' && e.text === 'Container app failed liveness probe, will be restarted'));
  assert.ok(c.evidence.some((e) => e.ref === 'Warning Unhealthy' && e.text.startsWith('Liveness probe failed: ')));
  assert.match(d.summary, /^Running and Ready on worker-[12], but restarted: app \d+×$/);
});

test('An image that does not exist: ImagePullBackOff, the registry\'s not found, and kubectl describe', () => {
  const { status, diagnosis: d } = explain('examples/pod.yaml', '--behavior', `${FIXTURES}/missing-image.behavior.yaml`);
  assert.equal(status, 1);
  assert.equal(d.question, 'notReady');
  assert.deepEqual(kinds(d), ['ImagePull']);
  assert.equal(d.causes[0]!.title, 'the image "nginx:1.27" of container app cannot be pulled (ImagePullBackOff): the registry has no such image or tag');
  assert.ok(d.causes[0]!.evidence.some((e) => e.kind === 'event' && e.text.startsWith('Failed to pull image "nginx:1.27": ')));
  assert.ok(d.causes[0]!.checks.includes('kubectl describe pod web'));
});

test('A slow readiness probe stopped by --for: not Ready yet, with the probe and how long it has waited', () => {
  const { status, report, diagnosis: d } = explain('examples/pod.yaml', '--behavior', `${FIXTURES}/slow-ready.behavior.yaml`, '--for', '30s');
  assert.equal(status, 1);
  assert.deepEqual([report.pods[0]!.phase, d.question], ['Running', 'notReady']);
  assert.deepEqual(kinds(d), ['ReadinessProbe']);
  assert.equal(d.causes[0]!.title, 'the readiness probe of app fails for 28s since the container started at 2s');
  assert.ok(d.causes[0]!.evidence.some((e) => e.field === 'spec.containers[0].readinessProbe' && e.text === 'http-get http://:80/ delay=0s timeout=1s period=5s #success=1 #failure=3'));
  assert.match(d.summary, /not Ready at 30s \(Ready False: ContainersNotReady: containers with unready status: \[app\]\)$/);
});

test('--delete of a container that ignores SIGTERM with an hour\'s grace: still Terminating when the run\'s 10 minutes end, SIGKILL due at the grace period\'s end, exit 137', () => {
  const { status, report, diagnosis: d } = explain('examples/pod.yaml', '--behavior', `${FIXTURES}/ignores-sigterm.behavior.yaml`, '--delete', '--grace-period', '3600');
  assert.equal(status, 1);
  assert.deepEqual([report.outcome, d.question], ['Terminating', 'terminating']);
  assert.deepEqual(kinds(d), ['SigtermIgnored']);
  const c = d.causes[0]!;
  assert.equal(c.title, 'app got SIGTERM at 2s and is still running at 10m2s: it does not exit on SIGTERM');
  assert.equal(c.detail, 'the kubelet sends SIGKILL when the grace period of 3600s runs out, at about 1h0m2s (50m0s from now); the container then ends with exit code 137 (128 + SIGKILL 9)');
  assert.ok(c.evidence.some((e) => e.ref === 'kubelet.terminate' && e.at === 2));
  assert.ok(c.evidence.some((e) => e.ref === 'Normal Killing' && e.text === 'Stopping container app'));
  assert.match(d.summary, /^deleted at 2s with a grace period of 3600s \(metadata\.deletionTimestamp 2026-01-01T01:00:02Z\); still Terminating at 10m2s$/);
});

test('--delete of a pod with a finalizer nobody removes names the finalizer and kubectl patch, with its caution', () => {
  const { status, report, diagnosis: d } = explain(`${FIXTURES}/finalizer.yaml`, '--behavior', `${FIXTURES}/finalizer.behavior.yaml`, '--delete');
  assert.equal(status, 1);
  assert.deepEqual([report.outcome, d.question], ['Terminating', 'terminating']);
  assert.deepEqual(kinds(d), ['Finalizer']);
  const c = d.causes[0]!;
  assert.match(c.title, /^finalizer example\.com\/protect is still on the pod/);
  assert.match(c.fix ?? '', /kubectl patch pod web -p '\{"metadata":\{"finalizers":null\}\}'$/);
  assert.ok(c.caution);
  assert.ok(c.evidence.some((e) => e.kind === 'trace' && e.ref === 'apiserver.finalize'));
});

test('A kubelet that is down: the pod is bound but never started, and deleting it leaves it Terminating', () => {
  // Before the node monitor grace period (50 s) the node still reads Ready: the pod is bound and nothing more.
  const created = explain('examples/pod.yaml', '--behavior', `${FIXTURES}/kubelet-down.behavior.yaml`, '--for', '30s');
  assert.equal(created.diagnosis.question, 'notReady');
  assert.deepEqual(kinds(created.diagnosis), ['NodeNotReady']);
  const node = created.report.pods[0]!.node!;
  assert.equal(created.diagnosis.causes[0]!.title, `the kubelet on ${node} has not started the pod bound there at 0s (no status, no event from it since)`);
  assert.ok(created.diagnosis.causes[0]!.checks.includes(`journalctl -u kubelet   # on ${node}`));

  // Left alone, the node turns Unknown at 55 s and the taint eviction controller deletes the pod 300 s later
  // (pkg/controller/tainteviction/taint_eviction.go): Terminating, with nobody to confirm it.
  const evicted = explain('examples/pod.yaml', '--behavior', `${FIXTURES}/kubelet-down.behavior.yaml`);
  assert.deepEqual([evicted.report.outcome, evicted.diagnosis.question], ['Terminating', 'terminating']);
  assert.deepEqual(kinds(evicted.diagnosis), ['KubeletNotResponding']);
  assert.ok(evicted.diagnosis.causes[0]!.evidence.some((e) => e.ref === 'Normal TaintManagerEviction' && e.text === 'Marking for deletion Pod default/web' && e.at === 355));

  const deleted = explain('examples/pod.yaml', '--behavior', `${FIXTURES}/kubelet-down.behavior.yaml`, '--delete');
  assert.equal(deleted.status, 1);
  assert.deepEqual([deleted.report.outcome, deleted.diagnosis.question], ['Terminating', 'terminating']);
  assert.deepEqual(kinds(deleted.diagnosis), ['KubeletNotResponding']);
  assert.match(deleted.diagnosis.causes[0]!.fix ?? '', /only a force deletion \(kubectl delete pod web --grace-period=0 --force\) or the node's removal/);
});

test('A healthy pod has nothing to diagnose and prints no diagnosis', () => {
  const { report, diagnosis: d } = explain('examples/pod.yaml');
  assert.deepEqual([report.outcome, d.question, d.causes], ['Running', 'none', []]);
  const run = cli(['explain', 'examples/pod.yaml']);
  assert.doesNotMatch(run.stdout, /^WHY IT /m);
});

test('The human form puts the diagnosis under the pod, with numbered causes, evidence, checks and fix', () => {
  const run = cli(['explain', `${FIXTURES}/finalizer.yaml`, '--behavior', `${FIXTURES}/finalizer.behavior.yaml`, '--delete']);
  assert.equal(run.status, 1, run.stderr);
  assert.match(run.stdout, /\nPOD default\/web .*\n(.*\n)?\nWHY IT IS STUCK TERMINATING deleted at 2s with a grace period of 30s /);
  assert.match(run.stdout, /\n {2}1\. finalizer example\.com\/protect is still on the pod/);
  assert.match(run.stdout, /\n {5}evidence:\n {7}- +field metadata\.finalizers +\["example\.com\/protect"\]\n/);
  assert.match(run.stdout, /\n {7}3s +trace apiserver\.finalize +kept: finalizers \[example\.com\/protect\] must be removed before the object goes/);
  assert.match(run.stdout, /\n {5}check: {3}kubectl get pod web -o jsonpath='\{\.metadata\.finalizers\}'\n/);
  assert.match(run.stdout, /\n {5}fix: {5}let the owning controller finish; by hand: kubectl patch pod web/);
  assert.match(run.stdout, /\n {5}caution: removing a finalizer by hand/);
  assert.match(run.stdout, /\nOUTCOME Terminating\n$/);
});

test('A failing postStart hook is named with what it ran and its error, not blamed on SIGTERM and exit code 143', () => {
  const { status, report, diagnosis: d } = explain('test/fixtures/kubelet/poststart-fails.yaml');
  assert.equal(status, 1);
  assert.deepEqual([report.outcome, d.question], ['CrashLoopBackOff', 'notReady']);
  assert.deepEqual(kinds(d), ['PostStartHook']);
  const c = d.causes[0]!;
  // kuberuntime_container.go startContainer (v1.36.3): FailedPostStartHook, the kill with the message "FailedPostStartHook".
  assert.match(c.title, /^the postStart hook of container app failed \(exec \[sh -c \/bin\/warmup\]\): the kubelet killed the container and waits 5m0s before restarting it \(CrashLoopBackOff, \d+ restarts\)$/);
  assert.match(c.detail ?? '', /^the hook's error: Exec lifecycle hook \(\[sh -c \/bin\/warmup\]\) for Container "app" in Pod "web_default\([0-9a-f-]+\)" failed - error: command 'sh -c \/bin\/warmup' exited with 1: , message: ""\. /);
  assert.match(c.detail ?? '', /its exit code 143 is the kill's \(SIGTERM\), not the application's/);
  assert.ok(c.evidence.some((e) => e.ref === 'Warning FailedPostStartHook' && e.text === 'PostStartHook failed'));
  assert.ok(c.evidence.some((e) => e.ref === 'Normal Killing' && e.text === 'FailedPostStartHook'));
  assert.doesNotMatch(c.title, /SIGTERM/);
});

test('An image reference the kubelet cannot parse: InvalidImageName, never pulled', () => {
  const { report, diagnosis: d } = explain(`${FIXTURES}/invalid-image.yaml`, '--for', '30s');
  assert.deepEqual([report.outcome, report.pods[0]!.phase, d.question], ['Pending', 'Pending', 'notReady']);
  assert.deepEqual(kinds(d), ['ImagePull']);
  const c = d.causes[0]!;
  assert.equal(c.title, 'the image "nginx::1.25" of container app cannot be pulled (InvalidImageName): the kubelet cannot parse the image reference (invalid reference format), so it never pulls it');
  // image_manager.go EnsureImageExists (v1.36.3): Warning InspectFailed on the container.
  assert.ok(c.evidence.some((e) => e.ref === 'Warning InspectFailed' && e.text === 'Failed to apply default image tag "nginx::1.25": couldn\'t parse image name "nginx::1.25": invalid reference format'));
});
