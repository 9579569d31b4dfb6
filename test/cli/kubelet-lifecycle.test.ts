// The kubelet's container lifecycle through the CLI: init containers under each restart policy, sidecars,
// probes, CrashLoopBackOff, postStart, activeDeadlineSeconds and completion, with the statuses, events,
// timings and `kubectl get pods` columns Kubernetes 1.36 gives. Fixtures: test/fixtures/kubelet/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertStarts, backoffs } from '../support/restarts';
import { runJson, type Report, type StoredObject } from './harness';

const fixture = (name: string) => `test/fixtures/kubelet/${name}.yaml`;

interface Status {
  phase?: string;
  reason?: string;
  message?: string;
  conditions?: { type: string; status: string; reason?: string; message?: string; lastTransitionTime?: string }[];
  containerStatuses?: ContainerStatus[];
  initContainerStatuses?: ContainerStatus[];
}
interface ContainerStatus {
  name: string;
  ready: boolean;
  started: boolean;
  restartCount: number;
  state: { waiting?: { reason: string; message?: string }; running?: { startedAt: string }; terminated?: { exitCode: number; reason: string; finishedAt: string } };
  lastState: { terminated?: { exitCode: number; reason: string; finishedAt: string } };
}

const podOf = (r: Report): StoredObject & { status: Status; metadata: { uid?: string } } => r.objects.find((o) => o.kind === 'Pod' && o.metadata.name === 'web') as never;
const condition = (r: Report, type: string) => podOf(r).status.conditions?.find((c) => c.type === type);
const container = (r: Report, name: string) => [...(podOf(r).status.containerStatuses ?? []), ...(podOf(r).status.initContainerStatuses ?? [])].find((c) => c.name === name)!;
/** starts lists when a container was started (its Started event), from the trace. */
const starts = (r: Report, name: string) => r.trace.filter((e) => e.phase.startsWith('kubelet.') && e.result === `started container ${name}`).map((e) => e.at ?? 0);
/** columns is what `kubectl get pods` printed at the last status the kubelet sent. */
type Columns = { ready: string; status: string; restarts: string };
const columns = (r: Report) => r.trace.filter((e) => e.phase === 'kubelet.status' && e.detail['kubectl']).at(-1)!.detail['kubectl'] as Columns;
const columnsAt = (r: Report, at: number) => r.trace.filter((e) => e.phase === 'kubelet.status' && e.detail['kubectl'] && (e.at ?? 0) <= at).at(-1)!.detail['kubectl'] as Columns;
/** lastSent is the last waiting state of a container with a reason that a status the kubelet sent carried. */
const lastSent = (r: Report, name: string, reason: string) => r.trace.filter((e) => e.phase === 'kubelet.status')
  .map((e) => [...((e.detail['initContainerStatuses'] ?? []) as ContainerStatus[]), ...((e.detail['containerStatuses'] ?? []) as ContainerStatus[])].find((c) => c.name === name)?.state.waiting)
  .filter((w) => w?.reason === reason).at(-1);
const events = (r: Report) => r.events.filter((e) => e.source === 'kubelet').map((e) => `${e.type} ${e.reason}: ${e.message}`);
const eventAt = (r: Report, reason: string, message?: string) => r.events.find((e) => e.reason === reason && (message === undefined || e.message === message))?.at;
const label = (r: Report) => `web_default(${podOf(r).metadata.uid})`;
const seconds = (ts: string | undefined) => (Date.parse(ts ?? '') - Date.parse('2026-01-01T00:00:00Z')) / 1000;

test('an init container that fails under restartPolicy Never fails the pod: Init:Error, Initialized False', () => {
  const { status, report } = runJson('run', fixture('init-fails-never'));
  assert.equal(status, 1);
  assert.equal(report.outcome, 'Failed');
  // kuberuntime_container.go computeInitContainerActions: a failed init container and !restartOnFailure → KillPod;
  // kubelet_pods.go getPhase: failedInitialization > 0 && RestartPolicyNever → Failed.
  assert.equal(podOf(report).status.phase, 'Failed');
  assert.deepEqual(starts(report, 'setup'), [2]);
  assert.deepEqual(container(report, 'setup').state.terminated && { exitCode: container(report, 'setup').state.terminated!.exitCode, reason: container(report, 'setup').state.terminated!.reason }, { exitCode: 1, reason: 'Error' });
  // status/generate.go GeneratePodInitializedCondition: "containers with incomplete status: %s".
  assert.deepEqual(condition(report, 'Initialized'), { ...condition(report, 'Initialized'), status: 'False', reason: 'ContainersNotInitialized', message: 'containers with incomplete status: [setup]' });
  // generate.go GenerateContainersReadyCondition for a Failed phase: reason PodFailed; Ready copies it.
  assert.equal(condition(report, 'Ready')?.reason, 'PodFailed');
  assert.equal(condition(report, 'ContainersReady')?.reason, 'PodFailed');
  // kubelet_pods.go convertToAPIContainerStatuses: with init containers the default waiting reason is PodInitializing.
  assert.equal(container(report, 'app').state.waiting?.reason, 'PodInitializing');
  // printers.go printPod: "Init:" + the init container's terminated reason.
  assert.deepEqual(columns(report), { ready: '0/1', status: 'Init:Error', restarts: '0' });
  assert.deepEqual(columnsAt(report, 2), { ready: '0/1', status: 'Init:0/1', restarts: '0' });
});

for (const policy of ['OnFailure', 'Always']) {
  test(`an init container that fails under restartPolicy ${policy} is restarted with the CrashLoopBackOff back-off`, () => {
    const { status, report } = runJson('run', fixture(`init-fails-${policy.toLowerCase()}`), '--for', '60s');
    assert.equal(status, 1);
    // A pod whose init container keeps failing is CrashLoopBackOff (kubectl get pods: Init:CrashLoopBackOff), Pending.
    assert.equal(report.outcome, 'CrashLoopBackOff');
    assert.equal(podOf(report).status.phase, 'Pending');
    // Exits 3 s after each start. The first restart is at once (doBackOff: no entry, Backoff.Next → 10 s);
    // then after 10 s and 20 s from each exit (kubelet.go initialCrashLoopBackOff 10 s, doubling), each ended by the
    // pod worker's jittered requeue: the fourth start comes by 56 s and exits by 59 s; a fifth cannot come before 84 s.
    const setupStarts = starts(report, 'setup');
    assertStarts(setupStarts, [2, 5, ...backoffs(3, 10, 20)]);
    const setup = container(report, 'setup');
    assert.equal(setup.restartCount, 3);
    // kubelet.go SyncPod sends the status before it acts, from the reason cache the previous sync left: the sync after
    // an exit shows the exit (Init:Error) and finds the back-off; the sync at the back-off's end shows CrashLoopBackOff
    // and restarts it. kuberuntime_manager.go doBackOff: "back-off %s restarting failed container=%s pod=%s" (format.Pod).
    assert.deepEqual(lastSent(report, 'setup', 'CrashLoopBackOff'), { reason: 'CrashLoopBackOff', message: `back-off 20s restarting failed container=setup pod=${label(report)}` });
    const finishedAt = seconds(setup.state.terminated?.finishedAt);
    assert.deepEqual({ exitCode: setup.state.terminated?.exitCode, reason: setup.state.terminated?.reason, finishedAt }, { exitCode: 1, reason: 'Error', finishedAt: Math.floor(setupStarts[3]! + 3) });
    assert.equal(seconds(setup.lastState.terminated?.finishedAt), Math.floor(setupStarts[2]! + 3));
    assert.ok(events(report).includes(`Warning BackOff: Back-off restarting failed container setup in pod ${label(report)}`));
    assert.equal(container(report, 'app').state.waiting?.reason, 'PodInitializing');
    // printers.go printPod: "Init:" + the terminated reason; RESTARTS with the age of the run before (HumanDuration).
    assert.deepEqual(columns(report), { ready: '0/1', status: 'Init:Error', restarts: `3 (${Math.floor(setupStarts[3]! + 3) - Math.floor(setupStarts[2]! + 3)}s ago)` });
    assert.equal(columnsAt(report, 4).status, 'Init:0/1');
    assert.ok(report.trace.some((e) => e.phase === 'kubelet.status' && (e.detail['kubectl'] as Columns).status === 'Init:CrashLoopBackOff'));
  });
}

test('a sidecar with a startup probe: the next init container waits until the probe passed', () => {
  const { status, report } = runJson('run', fixture('sidecar-startup'));
  assert.equal(status, 0, JSON.stringify(report.trace.at(-1)));
  assert.equal(report.outcome, 'Running');
  // The probe worker ticks every 2 s from t=0; the sidecar starts at 2 and answers from 7: probes at 4 and 6 fail, 8 passes.
  const passed = report.trace.find((e) => e.phase === 'kubelet.probes' && e.result.startsWith('startup probe succeeded'));
  assert.equal(passed?.at, 8);
  // grpc/grpc.go: "service unhealthy (responded with %q)"; prober.go: "%s probe failed: %s".
  assert.ok(events(report).includes('Warning Unhealthy: Startup probe failed: service unhealthy (responded with "NOT_SERVING")'));
  // kuberuntime_container.go computeInitContainerActions: the next init container starts once the sidecar's startup probe succeeded.
  assert.equal(eventAt(report, 'Pulling', 'Pulling image "busybox:1.36"'), 8);
  assert.deepEqual(starts(report, 'migrate'), [10]);
  assert.deepEqual(starts(report, 'app'), [15]);
  const proxy = container(report, 'proxy');
  assert.deepEqual({ started: proxy.started, ready: proxy.ready, running: !!proxy.state.running }, { started: true, ready: true, running: true });
  // printPod: a restartable init container counts in READY's total.
  assert.deepEqual(columns(report), { ready: '2/2', status: 'Running', restarts: '0' });
  assert.deepEqual(columnsAt(report, 8), { ready: '1/2', status: 'Init:1/2', restarts: '0' });
});

test('a sidecar without a startup probe: the next init container starts once it runs, and it keeps running', () => {
  const { status, report } = runJson('run', fixture('sidecar-plain'));
  assert.equal(status, 0);
  assert.deepEqual(starts(report, 'proxy'), [2]);
  assert.equal(eventAt(report, 'Pulling', 'Pulling image "busybox:1.36"'), 2);
  assert.deepEqual(starts(report, 'migrate'), [4]);
  assert.deepEqual(starts(report, 'app'), [9]);
  assert.equal(container(report, 'migrate').state.terminated?.reason, 'Completed');
  assert.ok(container(report, 'proxy').state.running);
  // generate.go: a sidecar counts for ContainersReady; getPhase counts it running.
  assert.equal(condition(report, 'ContainersReady')?.status, 'True');
  assert.equal(podOf(report).status.phase, 'Running');
  assert.deepEqual(columns(report), { ready: '2/2', status: 'Running', restarts: '0' });
});

test('a sidecar that exits is restarted beside the running container', () => {
  const { report } = runJson('run', fixture('sidecar-exits'), '--for', '45s');
  // Exits 10 s after each start: restarted at once, then after 10 s (CrashLoopBackOff) from its exit at 22.
  assertStarts(starts(report, 'proxy'), [2, 12, ...backoffs(10, 10)]);
  assert.deepEqual(starts(report, 'app'), [4]);
  assert.equal(container(report, 'proxy').restartCount, 2);
  assert.equal(podOf(report).status.phase, 'Running');
  // Initialized stays True once a regular container started (generate.go HasAnyRegularContainerStarted).
  assert.equal(condition(report, 'Initialized')?.status, 'True');
});

test('a slow readiness probe: initialDelaySeconds, periodSeconds and successThreshold decide when the pod turns Ready', () => {
  const { status, report } = runJson('run', fixture('readiness-slow'));
  assert.equal(status, 0);
  // Ticks at 0, 10, 20...; skipped before 5 s of running (worker.go InitialDelaySeconds); the app answers from 32:
  // 10, 20, 30 fail, 40 and 50 succeed, and successThreshold 2 makes it ready at 50.
  const runs = report.trace.filter((e) => e.phase === 'kubelet.probes' && e.step?.name === 'app' && /^readiness probe (failed|succeeded)/.test(e.result)).map((e) => `${e.at} ${e.result.split(' (')[0]}`);
  assert.deepEqual(runs, ['10 readiness probe failed', '20 readiness probe failed', '30 readiness probe failed', '40 readiness probe succeeded', '50 readiness probe succeeded']);
  assert.equal(seconds(condition(report, 'Ready')?.lastTransitionTime), 50);
  // An exec probe's output is the command's (empty) output: "%s probe failed: %s".
  const unhealthy = report.events.find((e) => e.reason === 'Unhealthy');
  assert.deepEqual([unhealthy?.message, (unhealthy as { count?: number } | undefined)?.count], ['Readiness probe failed: ', 3]);
  assert.deepEqual(columnsAt(report, 49), { ready: '0/1', status: 'Running', restarts: '0' });
  assert.deepEqual(columns(report), { ready: '1/1', status: 'Running', restarts: '0' });
});

test('a failing liveness probe: three Unhealthy events, a Killing event, the container restarted', () => {
  const { report } = runJson('run', fixture('liveness-fails'), '--for', '40s');
  // Ticks every 5 s from 0; failing from 22: 25, 30, 35 fail; killed at 35, exits on SIGTERM at 36, restarted at once.
  assert.deepEqual(starts(report, 'app'), [2, 36]);
  // http/http.go: "HTTP probe failed with statuscode: %d"; kuberuntime_manager.go computePodActions:
  // "Container %s failed liveness probe" + ", will be restarted".
  assert.ok(events(report).includes('Warning Unhealthy: Liveness probe failed: HTTP probe failed with statuscode: 500'));
  assert.equal(eventAt(report, 'Killing', 'Container app failed liveness probe, will be restarted'), 35);
  const app = container(report, 'app');
  assert.equal(app.restartCount, 1);
  assert.deepEqual({ exitCode: app.lastState.terminated?.exitCode, reason: app.lastState.terminated?.reason, finishedAt: seconds(app.lastState.terminated?.finishedAt) }, { exitCode: 143, reason: 'Error', finishedAt: 36 });
  assert.deepEqual(columns(report), { ready: '1/1', status: 'Running', restarts: '1 (0s ago)' });
});

test('a startup probe that never passes kills the container after failureThreshold failures', () => {
  const { report } = runJson('run', fixture('startup-fails'), '--for', '25s');
  // tcp/tcp.go: the dialer's error, for the named port resolved to 8080.
  const ip = (podOf(report).status as { podIP?: string }).podIP;
  assert.ok(events(report).includes(`Warning Unhealthy: Startup probe failed: dial tcp ${ip}:8080: connect: connection refused`));
  // computePodActions: "Container %s failed startup probe" + ", will be restarted". Probes at 5, 10 fail (failureThreshold 2).
  assert.equal(report.events.find((e) => e.reason === 'Killing')?.message, 'Container app failed startup probe, will be restarted');
  assert.deepEqual(starts(report, 'app'), [2, 11, 21]);
  assert.equal(container(report, 'app').started, false);
});

test('a crash loop restarts at once, then after back-offs of 10 s and 20 s, with a BackOff event for each wait', () => {
  const { report } = runJson('run', fixture('crash-loop'), '--for', '90s');
  // Runs 5 s each: exits at 7, 12, ... The first restart is at once, then 10 s and 20 s after each exit, each ended by
  // the pod worker's jittered requeue: the fourth start comes by 62 s and exits by 67 s; a fifth cannot come before 92 s.
  const appStarts = starts(report, 'app');
  assertStarts(appStarts, [2, 7, ...backoffs(5, 10, 20)]);
  const app = container(report, 'app');
  assert.equal(app.restartCount, 3);
  // The sync after the fourth exit found a back-off of 40 s (Backoff.Next doubles; the cap is 300 s); the status shows
  // it from the sync at its end (kubelet.go SyncPod sends the status first), so it still shows the exit. The last
  // CrashLoopBackOff sent is the 20 s one, by the sync that ended it with the fourth start.
  assert.deepEqual(app.state.terminated && { exitCode: app.state.terminated.exitCode, reason: app.state.terminated.reason }, { exitCode: 1, reason: 'Error' });
  assert.deepEqual(lastSent(report, 'app', 'CrashLoopBackOff'), { reason: 'CrashLoopBackOff', message: `back-off 20s restarting failed container=app pod=${label(report)}` });
  // Event order: the first pull, then each restart's Pulled (image present), Created, Started, and BackOff while waiting.
  const order = [...new Set(events(report).map((e) => e.split(':')[0]))];
  assert.deepEqual(order, ['Normal Pulling', 'Normal Pulled', 'Normal Created', 'Normal Started', 'Warning BackOff']);
  assert.ok(events(report).includes('Normal Pulled: Container image "nginx:1.27" already present on machine and can be accessed by the pod'));
  // The sync after each exit but the first finds the container in back-off (BackOff) and requeues the pod for the
  // back-off's end (pod_workers.go completeWork, MinBackoffExpiration), when it restarts: one BackOff per wait.
  assert.equal((report.events.find((e) => e.reason === 'BackOff') as { count?: number }).count, 3);
  assert.equal(podOf(report).status.phase, 'Running');
  assert.equal(seconds(app.state.terminated?.finishedAt), Math.floor(appStarts[3]! + 5));
  const before = Math.floor(appStarts[2]! + 5);
  assert.equal(seconds(app.lastState.terminated?.finishedAt), before);
  assert.deepEqual(columns(report), { ready: '0/1', status: 'Error', restarts: `3 (${Math.floor(appStarts[3]! + 5) - before}s ago)` });
  // The status sent at the restart (7): the last exit was then 0 s ago.
  assert.deepEqual(columnsAt(report, 8), { ready: '1/1', status: 'Running', restarts: '1 (0s ago)' });
});

test('a failing postStart hook: FailedPostStartHook, the container killed and restarted, never reported running', () => {
  const { report } = runJson('run', fixture('poststart-fails'), '--for', '30s');
  // kuberuntime_container.go startContainer: Warning FailedPostStartHook "PostStartHook failed" (no output, so
  // secrets do not leak), then killContainer with the message "FailedPostStartHook".
  assert.ok(events(report).includes('Warning FailedPostStartHook: PostStartHook failed'));
  assert.ok(events(report).includes('Normal Killing: FailedPostStartHook'));
  // Hook fails 2 s after each start, the kill takes 1 s: restarted at once at 5, then after a 10 s back-off from 8.
  assertStarts(starts(report, 'app'), [2, 5, ...backoffs(3, 10)]);
  for (const e of report.trace.filter((x) => x.phase === 'kubelet.status')) {
    const statuses = e.detail['containerStatuses'] as ContainerStatus[];
    assert.ok(!statuses.some((s) => s.state.running), `never running (${e.at})`);
  }
  // ErrPostStartHook is "PostStartHookError": the waiting reason until the next sync.
  assert.equal(columnsAt(report, 5).status, 'PostStartHookError');
  // The sync at the back-off's end shows CrashLoopBackOff and starts it again; the hook fails again, and the sync after
  // the kill shows PostStartHookError once more.
  assert.equal(lastSent(report, 'app', 'CrashLoopBackOff')?.message, `back-off 10s restarting failed container=app pod=${label(report)}`);
  const app = container(report, 'app');
  assert.equal(app.state.waiting?.reason, 'PostStartHookError');
  assert.equal(app.lastState.terminated?.exitCode, 143);
});

test('activeDeadlineSeconds fails the pod with DeadlineExceeded and stops its containers', () => {
  const { status, report } = runJson('run', fixture('active-deadline'));
  assert.equal(status, 1);
  assert.equal(report.outcome, 'Failed');
  // active_deadline.go: reason "DeadlineExceeded", message "Pod was active on the node longer than the specified deadline",
  // recorded as a Normal event on the pod.
  const pod = podOf(report).status;
  assert.deepEqual([pod.phase, pod.reason, pod.message], ['Failed', 'DeadlineExceeded', 'Pod was active on the node longer than the specified deadline']);
  assert.equal(eventAt(report, 'DeadlineExceeded', 'Pod was active on the node longer than the specified deadline'), 20);
  assert.equal(report.events.find((e) => e.reason === 'DeadlineExceeded')?.type, 'Normal');
  // killContainer: "Stopping container %s"; SIGTERM, exit 143 after 1 s.
  assert.equal(eventAt(report, 'Killing', 'Stopping container app'), 20);
  const app = container(report, 'app');
  assert.deepEqual({ exitCode: app.state.terminated?.exitCode, reason: app.state.terminated?.reason, finishedAt: seconds(app.state.terminated?.finishedAt) }, { exitCode: 143, reason: 'Error', finishedAt: 21 });
  assert.equal(condition(report, 'Ready')?.reason, 'PodFailed');
  // status_manager.go mergePodStatus: the phase turns Failed only once no container runs.
  const whileKilling = report.trace.find((e) => e.phase === 'kubelet.status' && e.at === 20 && e.result.startsWith('pod past its active deadline'));
  assert.equal(whileKilling?.detail['phase'], 'Running');
  // printPod: the container's terminated reason replaces the pod's reason.
  assert.deepEqual(columns(report), { ready: '0/1', status: 'Error', restarts: '0' });
});

test('a Job-like pod that completes is Succeeded: STATUS Completed, conditions PodCompleted', () => {
  const { status, report } = runJson('run', fixture('job-succeeds'));
  assert.equal(status, 0);
  assert.equal(report.outcome, 'Succeeded');
  // getPhase: RestartPolicy is not Always and every container exited 0 → Succeeded.
  assert.equal(podOf(report).status.phase, 'Succeeded');
  assert.equal(container(report, 'job').state.terminated?.reason, 'Completed');
  assert.deepEqual(['Initialized', 'Ready', 'ContainersReady'].map((t) => `${t}=${condition(report, t)?.status}/${condition(report, t)?.reason ?? ''}`), ['Initialized=True/PodCompleted', 'Ready=False/PodCompleted', 'ContainersReady=False/PodCompleted']);
  // The sandbox is stopped once the pod is done.
  assert.equal(condition(report, 'PodReadyToStartContainers')?.status, 'False');
  assert.deepEqual(columns(report), { ready: '0/1', status: 'Completed', restarts: '0' });
});

test('a Job-like pod that fails is Failed: STATUS Error, the exit code kept', () => {
  const { status, report } = runJson('run', fixture('job-fails'));
  assert.equal(status, 1);
  assert.equal(report.outcome, 'Failed');
  // getPhase: RestartPolicy Never and a container failed → Failed.
  assert.equal(podOf(report).status.phase, 'Failed');
  assert.deepEqual([container(report, 'job').state.terminated?.exitCode, container(report, 'job').state.terminated?.reason], [2, 'Error']);
  assert.equal(condition(report, 'Ready')?.reason, 'PodFailed');
  assert.deepEqual(columns(report), { ready: '0/1', status: 'Error', restarts: '0' });
});

test('a Job-like pod with a sidecar: the sidecar is stopped once the container completed, and the pod Succeeds', () => {
  const { status, report } = runJson('run', fixture('job-sidecar'));
  assert.equal(status, 0);
  assert.equal(report.outcome, 'Succeeded');
  // computePodActions: no container to keep or start → KillPod; sidecars are not restarted then.
  assert.equal(eventAt(report, 'Killing', 'Stopping container logger'), 9);
  assert.equal(container(report, 'logger').state.terminated?.exitCode, 143);
  // getPhase: terminated sidecars do not count; the container succeeded.
  assert.equal(podOf(report).status.phase, 'Succeeded');
  assert.deepEqual(columns(report), { ready: '0/2', status: 'Completed', restarts: '0' });
});

test('a readiness gate whose condition does not exist keeps Ready False with the kubelet\'s message', () => {
  const { report } = runJson('run', fixture('readiness-gate'), '--for', '10s');
  // generate.go GeneratePodReadyCondition: ReadinessGatesNotReady, "corresponding condition of pod readiness gate %q does not exist.".
  assert.deepEqual(
    { status: condition(report, 'Ready')?.status, reason: condition(report, 'Ready')?.reason, message: condition(report, 'Ready')?.message },
    { status: 'False', reason: 'ReadinessGatesNotReady', message: 'corresponding condition of pod readiness gate "example.com/load-balancer-ready" does not exist.' },
  );
  assert.equal(condition(report, 'ContainersReady')?.status, 'True');
  assert.equal(report.outcome, 'Pending');
  assert.deepEqual(columns(report), { ready: '1/1', status: 'Running', restarts: '0' });
});

test('every kubelet.status entry carries the kubectl columns in its detail and its result', () => {
  // examples/pod.yaml has a readiness probe: it runs as soon as the status says the container started (UpdatePodStatus).
  const { report } = runJson('run', 'examples/pod.yaml');
  const entries = report.trace.filter((e) => e.phase === 'kubelet.status');
  assert.ok(entries.length > 0);
  for (const e of entries) {
    const k = e.detail['kubectl'] as { ready: string; status: string; restarts: string };
    assert.ok(e.result.endsWith(`kubectl get pods: READY ${k.ready}, STATUS ${k.status}, RESTARTS ${k.restarts}`), e.result);
  }
  // The status as the first sync began, then as the sync after the container started found it (kubelet.go SyncPod
  // sends it first), then Ready once the readiness probe passed.
  assert.deepEqual(entries.map((e) => (e.detail['kubectl'] as { status: string }).status), ['ContainerCreating', 'Running', 'Running']);
});

test('a probe the application answers too slowly fails on timeoutSeconds with the HTTP client\'s deadline message', () => {
  const { report } = runJson('run', fixture('probe-timeout'), '--for', '50s');
  // Ticks at 0, 10, 20...; the one at 10 is within initialDelaySeconds (8 s after the start at 2). Each probe from 20
  // gives up after timeoutSeconds (2 s): failures reported at 22, 32, 42; killed at 42 (failureThreshold 3, the default).
  const failures = report.trace.filter((e) => e.phase === 'kubelet.probes' && e.result.startsWith('liveness probe failed')).map((e) => e.at);
  assert.deepEqual(failures, [22, 32, 42]);
  const ip = (podOf(report).status as { podIP?: string }).podIP;
  // http/http.go: the client's error for a request past its timeout.
  assert.ok(events(report).includes(`Warning Unhealthy: Liveness probe failed: Get "http://${ip}:80/healthz": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`));
  assert.equal(eventAt(report, 'Killing', 'Container app failed liveness probe, will be restarted'), 42);
  assert.deepEqual(starts(report, 'app'), [2, 43]);
});

test('past its deadline a pod\'s containers stop together and its sidecar last, each within the grace period', () => {
  const { status, report } = runJson('run', fixture('active-deadline-sidecar'));
  assert.equal(status, 1);
  assert.equal(report.outcome, 'Failed');
  // killContainersWithSyncResult kills every container at once: each Killing event at 20.
  for (const name of ['app1', 'app2', 'proxy']) assert.equal(eventAt(report, 'Killing', `Stopping container ${name}`), 20, name);
  const finished = (name: string) => [container(report, name).state.terminated?.exitCode, seconds(container(report, name).state.terminated?.finishedAt)];
  // app2 exits on SIGTERM after 1 s; app1 ignores it and is killed when terminationGracePeriodSeconds (10) runs out;
  // the sidecar waits for them (terminationOrdering), then gets the minimum 2 s window and exits after 1 s.
  assert.deepEqual(finished('app2'), [143, 21]);
  assert.deepEqual(finished('app1'), [137, 30]);
  assert.deepEqual(finished('proxy'), [143, 31]);
  assert.deepEqual([podOf(report).status.phase, podOf(report).status.reason], ['Failed', 'DeadlineExceeded']);
  assert.deepEqual(columns(report), { ready: '0/3', status: 'Error', restarts: '0' });
});

test('a slow postStart hook holds the container back: started at 2, reported running at 7', () => {
  const { status, report } = runJson('run', fixture('poststart-slow'));
  assert.equal(status, 0);
  // kuberuntime_container.go startContainer (v1.36.3): "Container started" is recorded before the hook runs...
  assert.equal(eventAt(report, 'Started', 'Container started'), 2);
  // ...but the pod worker waits for the hook, so no status shows the container running before it returns.
  const firstRunning = report.trace.find((e) => e.phase === 'kubelet.status' && (e.detail['containerStatuses'] as ContainerStatus[]).some((s) => s.state.running));
  assert.equal(firstRunning?.at, 7);
  assert.equal(seconds(container(report, 'app').state.running?.startedAt), 2);
  assert.deepEqual(columnsAt(report, 6), { ready: '0/1', status: 'ContainerCreating', restarts: '0' });
  assert.deepEqual(columns(report), { ready: '1/1', status: 'Running', restarts: '0' });
});

test('an image the node lacks under imagePullPolicy Never: ErrImageNeverPull, retried on every sync', () => {
  const { report } = runJson('run', fixture('never-pull'), '--for', '30s');
  // images/image_manager.go: "Container image %q is not present with pull policy of Never"; the runtime manager's "Error: %v".
  assert.ok(events(report).includes('Warning ErrImageNeverPull: Container image "nginx:1.27" is not present with pull policy of Never'));
  assert.ok(events(report).includes('Warning Failed: Error: ErrImageNeverPull'));
  // The sync that made the sandbox fails; the PLEG's report of the sandbox is a pending update, so the pod worker syncs
  // again at once (pod_workers.go completeWork); from then a failed sync is retried after wait.Jitter(backOffPeriod,
  // 0.5): 10 s plus up to 5 s drawn from the seeded source (kubelet.go backOffPeriod): four syncs in 30 s.
  assert.equal((report.events.find((e) => e.reason === 'ErrImageNeverPull') as { count?: number }).count, 4);
  assert.equal(container(report, 'app').state.waiting?.reason, 'ErrImageNeverPull');
  assert.deepEqual(columns(report), { ready: '0/1', status: 'ErrImageNeverPull', restarts: '0' });
});

test('a sidecar that fails its liveness probe is killed and restarted while the container keeps running', () => {
  const { report } = runJson('run', fixture('sidecar-liveness'), '--for', '30s');
  // Ticks at 0, 5, 10...; failing from 12: 15, 20, 25. computeInitContainerActions: "Init container %s failed liveness probe"
  // (no ", will be restarted": a sidecar is always restarted).
  assert.equal(eventAt(report, 'Killing', 'Init container proxy failed liveness probe'), 25);
  assert.ok(events(report).includes('Warning Unhealthy: Liveness probe failed: dial tcp ' + (podOf(report).status as { podIP?: string }).podIP + ':9901: connect: connection refused'));
  assert.deepEqual(starts(report, 'proxy'), [2, 26]);
  assert.deepEqual(starts(report, 'app'), [4]);
  assert.equal(container(report, 'proxy').restartCount, 1);
  // printPod: a sidecar's restarts count once the pod is initialized (the last status, sent at the restart at 26).
  assert.deepEqual(columns(report), { ready: '2/2', status: 'Running', restarts: '1 (0s ago)' });
});
