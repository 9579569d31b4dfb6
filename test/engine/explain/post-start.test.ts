// Why a container whose postStart hook fails keeps being killed, and why an image reference the kubelet cannot parse is
// never pulled: the causes read from the events on the container (involvedObject.fieldPath), its status and the trace.
// Texts: pkg/kubelet/kuberuntime/kuberuntime_container.go startContainer, pkg/kubelet/lifecycle/handlers.go Run,
// pkg/kubelet/images/image_manager.go EnsureImageExists, v1.36.3.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { diagnosePod, type PodDiagnosis } from '../../../src/engine/explain/diagnosis';
import type { DiagnosisEvent, DiagnosisInput } from '../../../src/engine/explain/pod-view';
import { ev, input, PodBuilder, step, ts } from './builders';

const POD_LABEL = 'web_default(uid-1)';
const HOOK = { exec: { command: ['sh', '-c', '/bin/warmup'] } };
// handlers.go Run: "Exec lifecycle hook (%v) for Container %q in Pod %q failed - error: %v, message: %q".
const HOOK_ERROR = `Exec lifecycle hook ([sh -c /bin/warmup]) for Container "app" in Pod "${POD_LABEL}" failed - error: command 'sh -c /bin/warmup' exited with 1: , message: ""`;
const on = (e: DiagnosisEvent, fieldPath = 'spec.containers{app}'): DiagnosisEvent => ({ ...e, fieldPath });
const hookEvents = (count: number, fieldPath?: string) => [
  on(ev(4, 'Warning', 'FailedPostStartHook', 'PostStartHook failed', count), fieldPath),
  on(ev(4, 'Normal', 'Killing', 'FailedPostStartHook', count), fieldPath),
];
const hookFailed = (at: number) => step(at, 'kubelet.containers', `postStart hook failed: ${HOOK_ERROR}; the container is killed`, { field: 'spec.containers[0].lifecycle.postStart', step: { kind: 'container', name: 'app' }, outcome: 'failed', detail: { error: HOOK_ERROR } });
const hookDone = (at: number) => step(at, 'kubelet.containers', 'postStart hook completed', { field: 'spec.containers[0].lifecycle.postStart', step: { kind: 'container', name: 'app' } });

const killed = { terminated: { exitCode: 143, reason: 'Error', startedAt: ts(2), finishedAt: ts(5) } };

const cases: { name: string; input: DiagnosisInput; kinds: string[]; want?: (d: PodDiagnosis) => void }[] = [
  {
    name: 'PostStartHookError right after the kill: the hook, what it ran and its error, not a SIGTERM exit',
    input: input(new PodBuilder().container({ lifecycle: { postStart: HOOK } }).notReady()
      .status({ ready: false, started: false, restartCount: 0, state: { waiting: { reason: 'PostStartHookError', message: HOOK_ERROR } }, lastState: killed }).build(), { now: 6, events: hookEvents(1) }),
    kinds: ['PostStartHook'],
    want: (d) => {
      const c = d.causes[0]!;
      assert.equal(c.title, 'the postStart hook of container app failed (exec [sh -c /bin/warmup]): the kubelet killed the container and restarts it (0 restarts so far)');
      assert.ok(c.detail?.startsWith(`the hook's error: ${HOOK_ERROR}. `), c.detail);
      assert.match(c.detail ?? '', /its exit code 143 is the kill's \(SIGTERM\), not the application's/);
      assert.deepEqual(c.evidence.map((e) => [e.ref, e.text]), [
        ['spec.containers[0].lifecycle.postStart', 'exec [sh -c /bin/warmup]'],
        ['status.containerStatuses[0].state.waiting', `PostStartHookError: ${HOOK_ERROR}`],
        ['status.containerStatuses[0].lastState.terminated', 'exitCode 143, reason Error'],
        ['Warning FailedPostStartHook', 'PostStartHook failed'],
        ['Normal Killing', 'FailedPostStartHook'],
      ]);
      assert.ok(c.checks.includes('kubectl get events --field-selector \'involvedObject.name=web,involvedObject.fieldPath=spec.containers{app}\''));
      assert.ok(c.checks.includes('kubectl exec web -c app -- sh -c /bin/warmup   # while the container runs'));
      assert.match(c.source, /^pkg\/kubelet\/kuberuntime\/kuberuntime_container\.go \(startContainer\)/);
    },
  },
  {
    name: 'CrashLoopBackOff after failed hooks: the hook is the cause, with the back-off, and the error from the trace',
    input: input(new PodBuilder().container({ lifecycle: { postStart: HOOK } }).notReady()
      .status({ ready: false, started: false, restartCount: 3, state: { waiting: { reason: 'CrashLoopBackOff', message: `back-off 40s restarting failed container=app pod=${POD_LABEL}` } }, lastState: killed }).build(),
    { now: 60, events: hookEvents(4), trace: [hookFailed(4), hookFailed(52)] }),
    kinds: ['PostStartHook'],
    want: (d) => {
      const c = d.causes[0]!;
      assert.equal(c.title, 'the postStart hook of container app failed (exec [sh -c /bin/warmup]): the kubelet killed the container and waits 40s before restarting it (CrashLoopBackOff, 3 restarts)');
      assert.ok(c.detail?.startsWith(`the hook's error: ${HOOK_ERROR}. `));
      assert.match(c.detail ?? '', /; last failure at 52s$/);
      assert.deepEqual(c.evidence.at(-1), { kind: 'trace', ref: 'kubelet.containers', at: 52, text: `postStart hook failed: ${HOOK_ERROR}; the container is killed`, field: 'spec.containers[0].lifecycle.postStart' });
    },
  },
  {
    name: 'a hook that failed once but completed since is not blamed for a later crash loop',
    input: input(new PodBuilder().container({ lifecycle: { postStart: HOOK } }).notReady()
      .status({ ready: false, started: false, restartCount: 2, state: { waiting: { reason: 'CrashLoopBackOff', message: `back-off 20s restarting failed container=app pod=${POD_LABEL}` } }, lastState: { terminated: { exitCode: 1, reason: 'Error', finishedAt: ts(30) } } }).build(),
    { now: 40, events: hookEvents(1), trace: [hookFailed(4), hookDone(15)] }),
    kinds: ['CrashLoopBackOff'],
  },
  {
    name: 'a FailedPostStartHook on another container is not this container\'s',
    input: input(new PodBuilder().container({ lifecycle: { postStart: HOOK } }).notReady()
      .status({ ready: false, started: false, restartCount: 2, state: { waiting: { reason: 'CrashLoopBackOff', message: `back-off 20s restarting failed container=app pod=${POD_LABEL}` } }, lastState: { terminated: { exitCode: 1, reason: 'Error', finishedAt: ts(30) } } }).build(),
    { now: 40, events: hookEvents(1, 'spec.containers{other}') }),
    kinds: ['CrashLoopBackOff'],
  },
  {
    name: 'an httpGet hook is named by its path and port, and the fix says only a request that gets no answer fails',
    input: input(new PodBuilder().container({ lifecycle: { postStart: { httpGet: { path: '/warm', port: 8080 } } } }).notReady()
      .status({ ready: false, started: false, restartCount: 0, state: { waiting: { reason: 'PostStartHookError', message: `HTTP lifecycle hook (/warm) for Container "app" in Pod "${POD_LABEL}" failed - error: Get "http://10.244.1.2:8080/warm": dial tcp 10.244.1.2:8080: connect: connection refused` } }, lastState: killed }).build(), { now: 6, events: hookEvents(1) }),
    kinds: ['PostStartHook'],
    want: (d) => {
      assert.match(d.causes[0]!.title, /^the postStart hook of container app failed \(httpGet \/warm on port 8080\): /);
      assert.match(d.causes[0]!.fix ?? '', /any HTTP answer passes; only a request that gets none fails/);
    },
  },
  {
    name: 'InvalidImageName: the reference cannot be parsed, with the InspectFailed event on the container as evidence',
    input: input(new PodBuilder().container({ image: 'nginx::1.25' }).notReady().podStatus({ phase: 'Pending' })
      .status({ ready: false, started: false, image: 'nginx::1.25', state: { waiting: { reason: 'InvalidImageName', message: 'Failed to apply default image tag "nginx::1.25": couldn\'t parse image name "nginx::1.25": invalid reference format' } } }).build(), {
      now: 30,
      events: [
        on(ev(25, 'Warning', 'InspectFailed', 'Failed to apply default image tag "nginx::1.25": couldn\'t parse image name "nginx::1.25": invalid reference format', 3)),
        on(ev(25, 'Warning', 'Failed', 'Error: InvalidImageName', 3)),
      ],
    }),
    kinds: ['ImagePull'],
    want: (d) => {
      const c = d.causes[0]!;
      assert.equal(c.title, 'the image "nginx::1.25" of container app cannot be pulled (InvalidImageName): the kubelet cannot parse the image reference (invalid reference format), so it never pulls it');
      assert.deepEqual(c.evidence.map((e) => e.ref), ['status.containerStatuses[0].state.waiting', 'Warning InspectFailed']);
    },
  },
];

for (const c of cases) {
  test(c.name, () => {
    const d = diagnosePod(c.input, c.input.objects[0] as never);
    assert.deepEqual(d.causes.map((x) => x.kind), c.kinds);
    c.want?.(d);
  });
}
