// The pod phase and the kubelet's conditions from container statuses, case by case.
// Sources: pkg/kubelet/kubelet_pods.go (getPhase) and pkg/kubelet/status/generate.go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ContainerStatus, Pod } from '../../../src/engine/api/types';
import { containersReadyCondition, getPhase, initializedCondition, podReadyCondition } from '../../../src/engine/kubelet/status';

const running = (name: string, extra: Partial<ContainerStatus> = {}) => ({ name, ready: true, started: true, restartCount: 0, image: '', imageID: '', state: { running: { startedAt: 't' } }, ...extra }) as ContainerStatus;
const exited = (name: string, exitCode: number) => ({ name, ready: false, started: false, restartCount: 0, image: '', imageID: '', state: { terminated: { exitCode, reason: exitCode ? 'Error' : 'Completed' } } }) as ContainerStatus;
const waiting = (name: string, lastExit?: number) => ({ name, ready: false, started: false, restartCount: 0, image: '', imageID: '', state: { waiting: { reason: lastExit === undefined ? 'PodInitializing' : 'CrashLoopBackOff' } }, lastState: lastExit === undefined ? {} : { terminated: { exitCode: lastExit } } }) as ContainerStatus;

const pod = (policy: string, init: { name: string; sidecar?: boolean }[] = [], gates: string[] = []): Pod => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web' },
  spec: {
    restartPolicy: policy as never,
    initContainers: init.map((c) => ({ name: c.name, ...(c.sidecar ? { restartPolicy: 'Always' } : {}) })),
    containers: [{ name: 'app' }],
    readinessGates: gates.map((g) => ({ conditionType: g })),
  },
}) as Pod;

const phases: { name: string; pod: Pod; statuses: ContainerStatus[]; terminal?: boolean; want: string }[] = [
  { name: 'an init container not run yet keeps the pod Pending', pod: pod('Always', [{ name: 'setup' }]), statuses: [waiting('setup'), waiting('app')], want: 'Pending' },
  { name: 'a failed init container under Never fails the pod', pod: pod('Never', [{ name: 'setup' }]), statuses: [exited('setup', 1), waiting('app')], want: 'Failed' },
  { name: 'a failed init container waiting to restart under OnFailure keeps the pod Pending', pod: pod('OnFailure', [{ name: 'setup' }]), statuses: [waiting('setup', 1), waiting('app')], want: 'Pending' },
  { name: 'a sidecar running but not started keeps the pod Pending', pod: pod('Always', [{ name: 'proxy', sidecar: true }]), statuses: [running('proxy', { started: false }), waiting('app')], want: 'Pending' },
  { name: 'a started sidecar and a running container: Running', pod: pod('Always', [{ name: 'proxy', sidecar: true }]), statuses: [running('proxy'), running('app')], want: 'Running' },
  { name: 'under Never a running sidecar keeps a completed pod Running', pod: pod('Never', [{ name: 'proxy', sidecar: true }]), statuses: [running('proxy'), exited('app', 0)], want: 'Running' },
  { name: 'under Never a stopped sidecar does not count: Succeeded', pod: pod('Never', [{ name: 'proxy', sidecar: true }]), statuses: [exited('proxy', 143), exited('app', 0)], want: 'Succeeded' },
  { name: 'under Always an exited container is restarting: Running', pod: pod('Always'), statuses: [exited('app', 1)], want: 'Running' },
  { name: 'under Always a container in CrashLoopBackOff: Running', pod: pod('Always'), statuses: [waiting('app', 1)], want: 'Running' },
  { name: 'under OnFailure a failed container is restarting: Running', pod: pod('OnFailure'), statuses: [exited('app', 1)], want: 'Running' },
  { name: 'under OnFailure a container that exited 0: Succeeded', pod: pod('OnFailure'), statuses: [exited('app', 0)], want: 'Succeeded' },
  { name: 'under Never a container that exited 1: Failed', pod: pod('Never'), statuses: [exited('app', 1)], want: 'Failed' },
  { name: 'a terminal pod under Always whose container exited on SIGTERM: Failed', pod: pod('Always'), statuses: [exited('app', 143)], terminal: true, want: 'Failed' },
  { name: 'a container not started yet: Pending', pod: pod('Always'), statuses: [waiting('app')], want: 'Pending' },
];
for (const c of phases) {
  test(`getPhase: ${c.name}`, () => {
    const started = c.statuses.some((s) => s.name === 'app' && (s.state?.running || s.state?.terminated || s.lastState?.terminated));
    assert.equal(getPhase(c.pod, c.statuses, c.terminal ?? false, !!started), c.want);
  });
}

test('Initialized: an unstarted sidecar and an unfinished init container are incomplete', () => {
  const p = pod('Always', [{ name: 'proxy', sidecar: true }, { name: 'setup' }]);
  assert.deepEqual(initializedCondition(p, [running('proxy', { started: false }), waiting('setup'), waiting('app')], 'Pending'),
    { status: 'False', reason: 'ContainersNotInitialized', message: 'containers with incomplete status: [proxy setup]' });
  assert.deepEqual(initializedCondition(p, [running('proxy'), { ...exited('setup', 0), ready: true }, waiting('app')], 'Pending'), { status: 'True' });
  assert.deepEqual(initializedCondition(p, [exited('proxy', 143), { ...exited('setup', 0), ready: true }, exited('app', 0)], 'Succeeded'), { status: 'True', reason: 'PodCompleted' });
});

test('ContainersReady counts sidecars and containers: "containers with unready status: [...]"', () => {
  const p = pod('Always', [{ name: 'proxy', sidecar: true }]);
  assert.deepEqual(containersReadyCondition(p, [running('proxy', { ready: false }), running('app', { ready: false })], 'Running'),
    { status: 'False', reason: 'ContainersNotReady', message: 'containers with unready status: [proxy app]' });
  assert.deepEqual(containersReadyCondition(p, [running('proxy')], 'Running'),
    { status: 'False', reason: 'ContainersNotReady', message: 'containers with unknown status: [app]' });
  assert.deepEqual(containersReadyCondition(p, [exited('proxy', 143), exited('app', 1)], 'Failed'), { status: 'False', reason: 'PodFailed' });
});

test('Ready: readiness gates whose condition is missing or not True', () => {
  const p = pod('Always', [], ['example.com/lb', 'example.com/dns']);
  const statuses = [running('app')];
  assert.deepEqual(podReadyCondition(p, [{ type: 'example.com/dns', status: 'False' }], statuses, 'Running'), {
    status: 'False', reason: 'ReadinessGatesNotReady',
    message: 'corresponding condition of pod readiness gate "example.com/lb" does not exist., the status of pod readiness gate "example.com/dns" is not "True", but False',
  });
  assert.deepEqual(podReadyCondition(p, [{ type: 'example.com/lb', status: 'True' }, { type: 'example.com/dns', status: 'True' }], statuses, 'Running'), { status: 'True' });
  // When the containers are not ready, Ready says what ContainersReady says.
  assert.deepEqual(podReadyCondition(p, [], [running('app', { ready: false })], 'Running'), { status: 'False', reason: 'ContainersNotReady', message: 'containers with unready status: [app]' });
});
