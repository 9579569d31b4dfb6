// The READY, STATUS and RESTARTS cells of kubectl get pods, as printPod computes them
// (pkg/printers/internalversion/printers.go, cases after printers_test.go TestPrintPod*).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../../src/engine/api/types';
import { podRow } from '../../../src/engine/console/pod-row';

const now = Date.parse('2026-01-01T01:00:00Z');

/** makePod builds a pod with containers named c0, c1, ... and the given status. */
function makePod(containers: number, status: Record<string, unknown>, extra: { initContainers?: { name: string; restartPolicy?: string }[]; deletionTimestamp?: string } = {}): Pod {
  return {
    kind: 'Pod',
    metadata: { name: 'web', namespace: 'default', creationTimestamp: '2026-01-01T00:00:00Z', ...(extra.deletionTimestamp ? { deletionTimestamp: extra.deletionTimestamp } : {}) },
    spec: { containers: Array.from({ length: containers }, (_, i) => ({ name: `c${i}`, image: 'nginx' })), ...(extra.initContainers ? { initContainers: extra.initContainers.map((c) => ({ ...c, image: 'busybox' })) } : {}) },
    status,
  } as Pod;
}

const running = (name: string, ready = true, restartCount = 0) => ({ name, ready, restartCount, state: { running: { startedAt: '2026-01-01T00:00:05Z' } } });

const cases: { name: string; pod: Pod; want: { ready: string; status: string; restarts: string } }[] = [
  { name: 'a pending pod with no container statuses shows its phase', pod: makePod(1, { phase: 'Pending' }), want: { ready: '0/1', status: 'Pending', restarts: '0' } },
  { name: 'a running pod counts its ready running containers', pod: makePod(2, { phase: 'Running', containerStatuses: [running('c0'), running('c1', false)] }), want: { ready: '1/2', status: 'Running', restarts: '0' } },
  { name: 'a waiting container\'s reason becomes the status', pod: makePod(1, { phase: 'Pending', containerStatuses: [{ name: 'c0', ready: false, restartCount: 0, state: { waiting: { reason: 'ImagePullBackOff' } } }] }), want: { ready: '0/1', status: 'ImagePullBackOff', restarts: '0' } },
  {
    name: 'restarts show how long ago the last one ended',
    pod: makePod(1, { phase: 'Running', containerStatuses: [{ name: 'c0', ready: false, restartCount: 4, state: { waiting: { reason: 'CrashLoopBackOff' } }, lastState: { terminated: { exitCode: 1, reason: 'Error', finishedAt: '2026-01-01T00:58:30Z' } } }] }),
    want: { ready: '0/1', status: 'CrashLoopBackOff', restarts: '4 (90s ago)' },
  },
  { name: 'a terminated container without a reason shows its exit code', pod: makePod(1, { phase: 'Failed', containerStatuses: [{ name: 'c0', ready: false, restartCount: 0, state: { terminated: { exitCode: 3 } } }] }), want: { ready: '0/1', status: 'ExitCode:3', restarts: '0' } },
  { name: 'a container killed by a signal shows it', pod: makePod(1, { phase: 'Failed', containerStatuses: [{ name: 'c0', ready: false, restartCount: 0, state: { terminated: { exitCode: 137, signal: 9 } } }] }), want: { ready: '0/1', status: 'Signal:9', restarts: '0' } },
  { name: 'a pod still in its init containers shows Init:i/n', pod: makePod(1, { phase: 'Pending', initContainerStatuses: [{ name: 'i0', ready: false, restartCount: 0, state: { running: {} } }] }, { initContainers: [{ name: 'i0' }, { name: 'i1' }] }), want: { ready: '0/1', status: 'Init:0/2', restarts: '0' } },
  { name: 'a failing init container shows Init: and its reason', pod: makePod(1, { phase: 'Pending', initContainerStatuses: [{ name: 'i0', ready: false, restartCount: 2, state: { waiting: { reason: 'CrashLoopBackOff' } } }] }, { initContainers: [{ name: 'i0' }] }), want: { ready: '0/1', status: 'Init:CrashLoopBackOff', restarts: '2' } },
  { name: 'a started sidecar counts among the containers and the ready ones', pod: makePod(1, { phase: 'Running', conditions: [{ type: 'Initialized', status: 'True' }], initContainerStatuses: [{ name: 's', ready: true, started: true, restartCount: 0, state: { running: {} } }], containerStatuses: [running('c0')] }, { initContainers: [{ name: 's', restartPolicy: 'Always' }] }), want: { ready: '2/2', status: 'Running', restarts: '0' } },
  { name: 'a pod being deleted shows Terminating', pod: makePod(1, { phase: 'Running', containerStatuses: [running('c0')] }, { deletionTimestamp: '2026-01-01T00:59:00Z' }), want: { ready: '1/1', status: 'Terminating', restarts: '0' } },
  { name: 'a completed container beside a running one reads Running when the pod is Ready', pod: makePod(2, { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }], containerStatuses: [{ name: 'c0', ready: false, restartCount: 0, state: { terminated: { exitCode: 0, reason: 'Completed' } } }, running('c1')] }), want: { ready: '1/2', status: 'Running', restarts: '0' } },
  { name: 'the same pod without the Ready condition reads NotReady', pod: makePod(2, { phase: 'Running', containerStatuses: [{ name: 'c0', ready: false, restartCount: 0, state: { terminated: { exitCode: 0, reason: 'Completed' } } }, running('c1')] }), want: { ready: '1/2', status: 'NotReady', restarts: '0' } },
  { name: 'a pod held by scheduling gates shows SchedulingGated', pod: makePod(1, { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }] }), want: { ready: '0/1', status: 'SchedulingGated', restarts: '0' } },
];

for (const c of cases) {
  test(c.name, () => {
    const row = podRow(c.pod, now);
    assert.deepEqual({ ready: row.ready, status: row.status, restarts: row.restarts }, c.want);
    assert.equal(row.age, '60m');
  });
}
