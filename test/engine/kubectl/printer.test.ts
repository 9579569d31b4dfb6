// The READY, STATUS and RESTARTS columns of `kubectl get pods`, case by case as printPod computes them.
// Source: pkg/printers/internalversion/printers.go (printPod) and k8s.io/apimachinery/pkg/util/duration (HumanDuration).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Container, ContainerStatus, Pod } from '../../../src/engine/api/types';
import { humanDuration, podColumns, podStatusColumn } from '../../../src/engine/kubectl/printer';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const at = (s: number) => new Date(T0 + s * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

const running = (name: string, extra: Partial<ContainerStatus> = {}): ContainerStatus => ({ name, image: 'x', imageID: '', ready: true, restartCount: 0, started: true, state: { running: { startedAt: at(0) } }, ...extra } as ContainerStatus);
const waiting = (name: string, reason: string, extra: Partial<ContainerStatus> = {}): ContainerStatus => ({ name, image: 'x', imageID: '', ready: false, restartCount: 0, started: false, state: { waiting: { reason } }, ...extra } as ContainerStatus);
const terminated = (name: string, exitCode: number, reason: string | undefined, extra: Partial<ContainerStatus> = {}): ContainerStatus => ({ name, image: 'x', imageID: '', ready: false, restartCount: 0, started: false, state: { terminated: { exitCode, ...(reason ? { reason } : {}), startedAt: at(0), finishedAt: at(5) } }, ...extra } as ContainerStatus);
const lastExit = (finished: number) => ({ lastState: { terminated: { exitCode: 1, reason: 'Error', startedAt: at(0), finishedAt: at(finished) } } });

interface Case {
  name: string;
  phase: string;
  containers?: Container[];
  initContainers?: Container[];
  statuses?: ContainerStatus[];
  initStatuses?: ContainerStatus[];
  conditions?: Record<string, string>;
  reason?: string;
  deleting?: boolean;
  now?: number;
  want: { ready: string; status: string; restarts: string };
}

const app: Container[] = [{ name: 'app' }];
const two: Container[] = [{ name: 'app' }, { name: 'log' }];
const init1: Container[] = [{ name: 'setup' }];
const sidecar: Container[] = [{ name: 'proxy', restartPolicy: 'Always' }];

const cases: Case[] = [
  // reason := string(podPhase); a waiting container's reason replaces it.
  { name: 'a pod whose container is being created', phase: 'Pending', containers: app, statuses: [waiting('app', 'ContainerCreating')], want: { ready: '0/1', status: 'ContainerCreating', restarts: '0' } },
  { name: 'a running, ready container', phase: 'Running', containers: app, statuses: [running('app')], conditions: { Ready: 'True' }, want: { ready: '1/1', status: 'Running', restarts: '0' } },
  { name: 'a running container not ready yet still prints Running', phase: 'Running', containers: app, statuses: [running('app', { ready: false })], want: { ready: '0/1', status: 'Running', restarts: '0' } },
  { name: 'a container in CrashLoopBackOff, restarted 3 times, last exit 25 s ago', phase: 'Running', containers: app, now: 30, statuses: [waiting('app', 'CrashLoopBackOff', { restartCount: 3, ...lastExit(5) })], want: { ready: '0/1', status: 'CrashLoopBackOff', restarts: '3 (25s ago)' } },
  { name: 'restarts 150 s ago print in minutes and seconds (HumanDuration)', phase: 'Running', containers: app, now: 155, statuses: [running('app', { restartCount: 1, ...lastExit(5) })], conditions: { Ready: 'True' }, want: { ready: '1/1', status: 'Running', restarts: '1 (2m30s ago)' } },
  { name: 'a container that exited 1 prints its reason Error', phase: 'Failed', containers: app, statuses: [terminated('app', 1, 'Error')], want: { ready: '0/1', status: 'Error', restarts: '0' } },
  { name: 'a container that exited 0 prints Completed', phase: 'Succeeded', containers: app, statuses: [terminated('app', 0, 'Completed')], want: { ready: '0/1', status: 'Completed', restarts: '0' } },
  { name: 'an OOM-killed container prints OOMKilled', phase: 'Running', containers: app, statuses: [terminated('app', 137, 'OOMKilled')], want: { ready: '0/1', status: 'OOMKilled', restarts: '0' } },
  { name: 'a terminated container with no reason prints its exit code', phase: 'Failed', containers: app, statuses: [terminated('app', 2, undefined)], want: { ready: '0/1', status: 'ExitCode:2', restarts: '0' } },
  { name: 'a terminated container with no reason and a signal prints the signal', phase: 'Failed', containers: app, statuses: [terminated('app', 137, undefined, { state: { terminated: { exitCode: 137, signal: 9, startedAt: at(0), finishedAt: at(5) } } } as Partial<ContainerStatus>)], want: { ready: '0/1', status: 'Signal:9', restarts: '0' } },
  { name: 'an image that cannot be pulled', phase: 'Pending', containers: app, statuses: [waiting('app', 'ErrImagePull')], want: { ready: '0/1', status: 'ErrImagePull', restarts: '0' } },
  { name: 'an image pull in back-off', phase: 'Pending', containers: app, statuses: [waiting('app', 'ImagePullBackOff')], want: { ready: '0/1', status: 'ImagePullBackOff', restarts: '0' } },
  // The last container in the list that says something wins (the loop runs backwards).
  { name: 'one container completed while the other runs: Running when the pod is Ready', phase: 'Running', containers: two, statuses: [terminated('app', 0, 'Completed'), running('log')], conditions: { Ready: 'True' }, want: { ready: '1/2', status: 'Running', restarts: '0' } },
  { name: 'one container completed while the other runs: NotReady when the pod is not Ready', phase: 'Running', containers: two, statuses: [terminated('app', 0, 'Completed'), running('log')], conditions: { Ready: 'False' }, want: { ready: '1/2', status: 'NotReady', restarts: '0' } },
  // Init containers: Init:N/M while they run, Init:<reason> when one fails or waits for a reason.
  { name: 'the first init container runs', phase: 'Pending', containers: app, initContainers: init1, initStatuses: [running('setup', { ready: false })], statuses: [waiting('app', 'PodInitializing')], want: { ready: '0/1', status: 'Init:0/1', restarts: '0' } },
  { name: 'an init container not started yet (PodInitializing) counts as Init:0/1', phase: 'Pending', containers: app, initContainers: init1, initStatuses: [waiting('setup', 'PodInitializing')], statuses: [waiting('app', 'PodInitializing')], want: { ready: '0/1', status: 'Init:0/1', restarts: '0' } },
  { name: 'a failed init container under Never', phase: 'Failed', containers: app, initContainers: init1, initStatuses: [terminated('setup', 1, 'Error')], statuses: [waiting('app', 'PodInitializing')], want: { ready: '0/1', status: 'Init:Error', restarts: '0' } },
  { name: 'a failed init container with no reason prints Init:ExitCode', phase: 'Pending', containers: app, initContainers: init1, initStatuses: [terminated('setup', 3, undefined)], statuses: [waiting('app', 'PodInitializing')], want: { ready: '0/1', status: 'Init:ExitCode:3', restarts: '0' } },
  { name: 'an init container in CrashLoopBackOff counts its restarts', phase: 'Pending', containers: app, initContainers: init1, now: 40, initStatuses: [waiting('setup', 'CrashLoopBackOff', { restartCount: 2, ...lastExit(30) })], statuses: [waiting('app', 'PodInitializing')], want: { ready: '0/1', status: 'Init:CrashLoopBackOff', restarts: '2 (10s ago)' } },
  { name: 'all init containers done, the container is being created', phase: 'Pending', containers: app, initContainers: init1, initStatuses: [terminated('setup', 0, 'Completed', { ready: true })], statuses: [waiting('app', 'PodInitializing')], conditions: { Initialized: 'True' }, want: { ready: '0/1', status: 'PodInitializing', restarts: '0' } },
  // Sidecars: counted in READY's total; a started sidecar lets the next init container run.
  { name: 'a sidecar waiting for its startup probe', phase: 'Pending', containers: app, initContainers: [...sidecar, ...init1], initStatuses: [running('proxy', { started: false, ready: false }), waiting('setup', 'PodInitializing')], statuses: [waiting('app', 'PodInitializing')], want: { ready: '0/2', status: 'Init:0/2', restarts: '0' } },
  { name: 'a started sidecar and the next init container running', phase: 'Pending', containers: app, initContainers: [...sidecar, ...init1], initStatuses: [running('proxy'), running('setup', { ready: false })], statuses: [waiting('app', 'PodInitializing')], want: { ready: '1/2', status: 'Init:1/2', restarts: '0' } },
  { name: 'a sidecar and a container both running and ready', phase: 'Running', containers: app, initContainers: sidecar, initStatuses: [running('proxy')], statuses: [running('app')], conditions: { Initialized: 'True', Ready: 'True' }, want: { ready: '2/2', status: 'Running', restarts: '0' } },
  { name: 'a restarted sidecar\'s restarts count once the pod is initialized', phase: 'Running', containers: app, initContainers: sidecar, now: 60, initStatuses: [running('proxy', { restartCount: 1, ...lastExit(50) })], statuses: [running('app')], conditions: { Initialized: 'True', Ready: 'True' }, want: { ready: '2/2', status: 'Running', restarts: '1 (10s ago)' } },
  // Deletion.
  { name: 'a pod being deleted prints Terminating', phase: 'Running', containers: app, statuses: [running('app')], deleting: true, want: { ready: '1/1', status: 'Terminating', restarts: '0' } },
  { name: 'a completed pod being deleted keeps Completed', phase: 'Succeeded', containers: app, statuses: [terminated('app', 0, 'Completed')], deleting: true, want: { ready: '0/1', status: 'Completed', restarts: '0' } },
  { name: 'a pod of an unreachable node being deleted prints Unknown', phase: 'Running', reason: 'NodeLost', containers: app, statuses: [running('app')], deleting: true, want: { ready: '1/1', status: 'Unknown', restarts: '0' } },
  // The pod's own reason when no container says anything.
  { name: 'a pod failed past its deadline with its containers gone prints DeadlineExceeded', phase: 'Failed', reason: 'DeadlineExceeded', containers: app, statuses: [], want: { ready: '0/1', status: 'DeadlineExceeded', restarts: '0' } },
  { name: 'a scheduling-gated pod prints SchedulingGated', phase: 'Pending', containers: app, conditions: { PodScheduled: 'False:SchedulingGated' }, want: { ready: '0/1', status: 'SchedulingGated', restarts: '0' } },
];

for (const c of cases) {
  test(`kubectl get pods: ${c.name}`, () => {
    const pod: Pod = {
      apiVersion: 'v1', kind: 'Pod',
      metadata: { name: 'web', ...(c.deleting ? { deletionTimestamp: at(100) } : {}) },
      spec: { containers: c.containers ?? app, ...(c.initContainers ? { initContainers: c.initContainers } : {}) },
      status: {
        phase: c.phase as never,
        ...(c.reason ? { reason: c.reason } : {}),
        conditions: Object.entries(c.conditions ?? {}).map(([type, v]) => ({ type, status: v.split(':')[0]!, ...(v.includes(':') ? { reason: v.split(':')[1] } : {}) })),
        ...(c.statuses ? { containerStatuses: c.statuses } : {}),
        ...(c.initStatuses ? { initContainerStatuses: c.initStatuses } : {}),
      },
    } as Pod;
    assert.deepEqual(podColumns(pod, T0 + (c.now ?? 10) * 1000), c.want);
    assert.equal(podStatusColumn(pod), c.want.status);
  });
}

// HumanDuration: seconds below 2 minutes, then m/s below 10 minutes, minutes below 3 hours, h/m below 8 hours, hours below 2 days.
const durations: [number, string][] = [[0, '0s'], [-1, '0s'], [-5, '<invalid>'], [119, '119s'], [120, '2m'], [150, '2m30s'], [599, '9m59s'], [600, '10m'], [10_799, '179m'], [10_800, '3h'], [12_600, '3h30m'], [28_800, '8h'], [172_800, '2d'], [183_600, '2d3h'], [691_200, '8d']];
for (const [s, want] of durations) test(`HumanDuration(${s}s) is ${want}`, () => assert.equal(humanDuration(s * 1000), want));
