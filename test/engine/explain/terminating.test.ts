// Why a pod is stuck Terminating: each cause from constructed pods, events and trace steps, with the Kubernetes texts
// it keys on beside their source.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { diagnosePod, type PodDiagnosis } from '../../../src/engine/explain/diagnosis';
import type { DiagnosisInput } from '../../../src/engine/explain/pod-view';
import { ev, input, node, PodBuilder, running, step, ts } from './builders';

const deleteStep = (at: number, grace: number) =>
  step(at, 'apiserver.delete', `graceful deletion: deletionTimestamp ${ts(at + grace)}, grace period ${grace}s`, { detail: { deletionGracePeriodSeconds: grace } });

// pkg/kubelet/kuberuntime/kuberuntime_container.go (killContainer): Normal Killing "Stopping container <name>".
const killing = (at: number) => ev(at, 'Normal', 'Killing', 'Stopping container app');

const PRESTOP = { exec: { command: ['sh', '-c', 'sleep 100'] } };

interface Case {
  name: string;
  input: DiagnosisInput;
  want: (d: PodDiagnosis) => void;
}

const cases: Case[] = [
  {
    name: 'A finalizer nobody removes is named, with the patch a person would run and its caution',
    input: input(new PodBuilder().deleted(2, 30).finalizers('example.com/protect').podStatus({ phase: 'Failed', containerStatuses: [] }).build(), {
      now: 40,
      trace: [deleteStep(2, 30), step(3, 'kubelet.cleanup', 'unmounted 1 volume(s)'), step(3, 'apiserver.finalize', 'kept: finalizers example.com/protect must be removed before the object goes', { field: 'metadata.finalizers', outcome: 'waiting' })],
    }),
    want: (d) => {
      assert.deepEqual(d.causes.map((c) => c.kind), ['Finalizer']);
      const c = d.causes[0]!;
      assert.match(c.title, /^finalizer example\.com\/protect is still on the pod/);
      assert.equal(c.fix, 'let the owning controller finish; by hand: kubectl patch pod web -p \'{"metadata":{"finalizers":null}}\'');
      assert.match(c.caution ?? '', /skips the cleanup its controller was to do/);
      assert.deepEqual(c.evidence.map((e) => [e.kind, e.ref, e.at]), [['field', 'metadata.finalizers', undefined], ['trace', 'apiserver.finalize', 3]]);
      assert.equal(d.summary, `deleted at 2s with a grace period of 30s (metadata.deletionTimestamp ${ts(32)}); still Terminating at 40s`);
    },
  },
  {
    name: 'The Job controller\'s finalizer is named with its owner',
    input: input(new PodBuilder().deleted(0, 30).finalizers('batch.kubernetes.io/job-tracking').build(), { now: 1, trace: [deleteStep(0, 30), step(0, 'kubelet.terminate', 'SIGTERM to app', { step: { kind: 'container', name: 'app' } }), step(1, 'kubelet.terminate', 'app exited on SIGTERM, exit code 143', { step: { kind: 'container', name: 'app' }, detail: { exitCode: 143 } })] }),
    want: (d) => assert.match(d.causes.find((c) => c.kind === 'Finalizer')!.detail ?? '', /batch\.kubernetes\.io\/job-tracking: removed by the Job controller/),
  },
  {
    name: 'A preStop hook within the grace period says how long it ran, the grace period and the 2 s minimum after it',
    input: input(new PodBuilder().container({ lifecycle: { preStop: PRESTOP } }).deleted(2, 30).build(), {
      now: 20, events: [killing(2)],
      trace: [deleteStep(2, 30), step(2, 'kubelet.preStop', 'running the preStop hook of app', { step: { kind: 'container', name: 'app' }, field: 'spec.containers[0].lifecycle.preStop' })],
    }),
    want: (d) => {
      assert.deepEqual(d.causes.map((c) => [c.kind, c.container]), [['PreStopHookRunning', 'app']]);
      const c = d.causes[0]!;
      assert.equal(c.title, 'the preStop hook of app is still running (since 2s)');
      assert.match(c.detail ?? '', /^it has run 18s of the grace period of 30s; .* at least 2s \(a one-off extension\), .* gone by about 34s/);
      assert.ok(c.evidence.some((e) => e.kind === 'field' && e.field === 'spec.containers[0].lifecycle.preStop'));
      assert.ok(c.evidence.some((e) => e.kind === 'event' && e.text === 'Stopping container app' && e.at === 2));
    },
  },
  {
    name: 'A preStop hook past the grace period is in the kubelet\'s one-off 2 s extension',
    input: input(new PodBuilder().container({ lifecycle: { preStop: PRESTOP } }).deleted(0, 10).build(), {
      now: 11, trace: [deleteStep(0, 10), step(0, 'kubelet.preStop', 'running the preStop hook of app', { step: { kind: 'container', name: 'app' } })],
    }),
    want: (d) => assert.match(d.causes[0]!.detail ?? '', /^it has run 11s, past the grace period of 10s: .* one-off 2s extension before SIGKILL/),
  },
  {
    name: 'A failed preStop hook is shown by its FailedPreStopHook event',
    input: input(new PodBuilder().container({ lifecycle: { preStop: PRESTOP } }).deleted(0, 30).build(), {
      now: 5,
      // pkg/kubelet/kuberuntime/kuberuntime_container.go (executePreStopHook): Warning FailedPreStopHook "PreStopHook failed".
      events: [killing(0), ev(0, 'Warning', 'FailedPreStopHook', 'PreStopHook failed')],
      trace: [deleteStep(0, 30), step(0, 'kubelet.preStop', 'preStop hook of app failed', { step: { kind: 'container', name: 'app' }, outcome: 'failed' }), step(0, 'kubelet.terminate', 'SIGTERM to app; it has 30s before SIGKILL, and ignores SIGTERM', { step: { kind: 'container', name: 'app' }, detail: { gracePeriodSeconds: 30 } })],
    }),
    want: (d) => {
      assert.deepEqual(d.causes.map((c) => c.kind), ['FailedPreStopHook', 'SigtermIgnored']);
      assert.deepEqual(d.causes[0]!.evidence.map((e) => [e.ref, e.text]), [['Warning FailedPreStopHook', 'PreStopHook failed']]);
    },
  },
  {
    name: 'A container ignoring SIGTERM is killed when the grace period ends, with exit code 137',
    input: input(new PodBuilder().deleted(2, 120).build(), {
      now: 62, events: [killing(2)],
      trace: [deleteStep(2, 120), step(2, 'kubelet.terminate', 'SIGTERM to app; it has 120s before SIGKILL, and ignores SIGTERM', { step: { kind: 'container', name: 'app' }, detail: { gracePeriodSeconds: 120, sigtermSeconds: 'never' } })],
    }),
    want: (d) => {
      assert.deepEqual(d.causes.map((c) => c.kind), ['SigtermIgnored']);
      const c = d.causes[0]!;
      assert.equal(c.title, 'app got SIGTERM at 2s and is still running at 1m2s: it does not exit on SIGTERM');
      assert.equal(c.detail, 'the kubelet sends SIGKILL when the grace period of 120s runs out, at about 2m2s (1m0s from now); the container then ends with exit code 137 (128 + SIGKILL 9)');
      assert.deepEqual(c.evidence.map((e) => `${e.at ?? '-'} ${e.kind} ${e.ref}`), ['2 trace apiserver.delete', '2 trace kubelet.terminate', '2 event Normal Killing', '- field status.containerStatuses[0].state']);
    },
  },
  {
    name: 'A volume that will not unmount holds the pod after its containers stopped',
    input: input(new PodBuilder().deleted(0, 30).spec({ volumes: [{ name: 'data', nfs: { server: 'nfs.local', path: '/data' } }] }).podStatus({ phase: 'Failed', containerStatuses: [{ ...running('app', 0, false), state: { terminated: { exitCode: 143, reason: 'Error' } } }] }).build(), {
      now: 100,
      trace: [deleteStep(0, 30), step(1, 'kubelet.terminate', 'app exited on SIGTERM, exit code 143', { step: { kind: 'container', name: 'app' }, detail: { exitCode: 143 } }), step(1, 'kubelet.cleanup', 'UnmountVolume.TearDown of data has not finished', { step: { kind: 'volume', name: 'data' }, outcome: 'waiting', field: 'spec.volumes[0]' })],
    }),
    want: (d) => {
      assert.deepEqual(d.causes.map((c) => c.kind), ['VolumeNotUnmounted']);
      const c = d.causes[0]!;
      assert.equal(c.title, 'the containers have stopped but volume data will not unmount');
      assert.ok(c.checks.includes('mount | grep uid-1   # on worker-1'));
      assert.match(c.caution ?? '', /leaves the mount and \/var\/lib\/kubelet\/pods\/uid-1 on the node/);
    },
  },
  {
    name: 'An unreachable kubelet: the node\'s Ready Unknown, its taints and events, journalctl, and only force deletion or the node\'s removal',
    input: input(new PodBuilder().deleted(0, 30).build(), {
      now: 400,
      // pkg/controller/nodelifecycle/node_lifecycle_controller.go (tryUpdateNodeHealth): Ready Unknown, NodeStatusUnknown, "Kubelet stopped posting node status."
      nodes: [node('worker-1', { status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' }, [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' }, { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' }])],
      events: [
        // pkg/controller/util/node/controller_utils.go (MarkPodsNotReady): Warning NodeNotReady "Node is not ready".
        ev(50, 'Warning', 'NodeNotReady', 'Node is not ready'),
        // pkg/controller/tainteviction/taint_eviction.go: Normal TaintManagerEviction "Marking for deletion Pod <ns>/<name>".
        ev(350, 'Normal', 'TaintManagerEviction', 'Marking for deletion Pod default/web'),
      ],
      trace: [deleteStep(0, 30)],
    }),
    want: (d) => {
      assert.deepEqual(d.causes.map((c) => c.kind), ['KubeletNotResponding']);
      const c = d.causes[0]!;
      assert.match(c.title, /^the kubelet on worker-1 stopped posting node status: the node is unreachable/);
      assert.deepEqual(c.evidence.map((e) => e.text), [
        'Ready Unknown, NodeStatusUnknown, Kubelet stopped posting node status.',
        'node.kubernetes.io/unreachable:NoExecute, node.kubernetes.io/unreachable:NoSchedule',
        'Node is not ready', 'Marking for deletion Pod default/web',
      ]);
      assert.ok(c.checks.includes('journalctl -u kubelet   # on worker-1'));
      assert.match(c.fix ?? '', /only a force deletion \(kubectl delete pod web --grace-period=0 --force\) or the node's removal \(kubectl delete node worker-1/);
      assert.match(c.caution ?? '', /may keep running on the node/);
    },
  },
  {
    name: 'A kubelet that took no step since the deletion is found by its silence',
    input: input(new PodBuilder().deleted(5, 30).build(), { now: 5, trace: [deleteStep(5, 30)] }),
    want: (d) => {
      assert.deepEqual(d.causes.map((c) => c.kind), ['KubeletNotResponding']);
      assert.equal(d.causes[0]!.title, 'the kubelet on worker-1 has not acted on the deletion requested at 5s (no step, no event from it since)');
      assert.ok(d.causes[0]!.evidence.some((e) => e.text === 'Ready True, KubeletReady, kubelet is posting ready status'));
    },
  },
];

for (const c of cases) {
  test(c.name, () => {
    const d = diagnosePod(c.input, c.input.objects[0] as never);
    assert.equal(d.question, 'terminating');
    c.want(d);
  });
}

test('A pod outside default is named with -n in every command', () => {
  const pod = new PodBuilder('web', 'shop').deleted(0, 30).finalizers('example.com/x').build();
  const d = diagnosePod({ ...input(pod, { now: 1 }), trace: [] }, pod);
  assert.equal(d.pod, 'shop/web');
  assert.match(d.causes[0]!.fix ?? '', /kubectl patch pod web -n shop -p/);
});
