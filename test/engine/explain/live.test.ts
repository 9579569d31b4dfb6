// The diagnosis of a live pod from plain objects, as kubectl returns them: the engine's scheduling cycle on the real
// nodes beside the cluster's FailedScheduling message, the causes read from core/v1 Events, a deletion past its grace
// period, and the objects around the pod.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject, Node, Pod, Taint } from '../../../src/engine/api/types';
import { explainLive, type LiveReport, type LiveState } from '../../../src/engine/explain/live';
import { liveEvents } from '../../../src/engine/explain/live-events';
import { agreementOf } from '../../../src/engine/explain/live-scheduling';
import { renderLive } from '../../../src/engine/report/live-text';
import { style } from '../../../src/engine/report/human';
import { EPOCH, PodBuilder, ts } from './builders';

const CONTROL_PLANE_TAINT: Taint = { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' };
// pkg/scheduler/schedule_one.go (FitError.Error) with DynamicResources' and DefaultPreemption's PostFilter messages.
const CPU_MESSAGE = '0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu. no new claims to deallocate, ' +
  'preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.';

/** makeNode is a Ready node with 4 cpu, 8Gi and 110 pods allocatable. */
function makeNode(name: string, ready = 'True', taints: Taint[] = []): Node {
  const capacity = { cpu: '4', memory: '8Gi', pods: '110' };
  return {
    apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'kubernetes.io/hostname': name } }, spec: taints.length ? { taints } : {},
    status: { capacity, allocatable: capacity, conditions: [{ type: 'Ready', status: ready, reason: ready === 'True' ? 'KubeletReady' : 'NodeStatusUnknown', message: ready === 'True' ? 'kubelet is posting ready status' : 'Kubelet stopped posting node status.' }] },
  } as Node;
}

const NODES = [makeNode('control-plane', 'True', [CONTROL_PLANE_TAINT]), makeNode('worker-1'), makeNode('worker-2')];

/** coreEvent is a core/v1 Event about the pod default/web (uid-1) as kubectl get events -o json returns it. */
function coreEvent(at: number, type: string, reason: string, message: string, more: { count?: number; fieldPath?: string; uid?: string; kind?: string; name?: string; source?: string } = {}): KubeObject {
  return {
    apiVersion: 'v1', kind: 'Event', metadata: { name: `web.${reason}.${at}`, namespace: 'default' },
    involvedObject: { kind: more.kind ?? 'Pod', namespace: 'default', name: more.name ?? 'web', uid: more.uid ?? 'uid-1', ...(more.fieldPath ? { fieldPath: more.fieldPath } : {}) },
    type, reason, message, count: more.count ?? 1, firstTimestamp: ts(at), lastTimestamp: ts(at), source: { component: more.source ?? 'kubelet' },
  } as KubeObject;
}

function unscheduled(cpu: string): PodBuilder {
  return new PodBuilder().container({ resources: { requests: { cpu } } }).spec({ nodeName: undefined, schedulerName: 'default-scheduler', priority: 0 })
    .podStatus({ phase: 'Pending', containerStatuses: undefined, conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: CPU_MESSAGE }] });
}

/** other is another pod of the cluster: its own uid. */
function other(b: PodBuilder): Pod {
  const pod = b.build();
  return { ...pod, metadata: { ...pod.metadata, uid: `uid-${pod.metadata?.name}` } } as Pod;
}

function state(pod: Pod, more: Partial<LiveState> = {}): LiveState {
  return { pod, events: [], nodes: NODES, pods: [], related: [], readAt: ts(100), ...more };
}

interface Case {
  name: string;
  state: LiveState;
  want: (r: LiveReport) => void;
}

const cases: Case[] = [
  {
    name: 'A pod asking for more cpu than any node has: the engine\'s cycle names each node and reason, and writes the event\'s message',
    state: state(unscheduled('1000').build(), { events: [coreEvent(5, 'Warning', 'FailedScheduling', CPU_MESSAGE, { count: 3, source: 'default-scheduler' })] }),
    want: (r) => {
      assert.equal(r.diagnosis?.question, 'unscheduled');
      assert.deepEqual(r.scheduling.whyNot, {
        'control-plane': 'TaintToleration: node(s) had untolerated taint(s) (taint node-role.kubernetes.io/control-plane:NoSchedule)',
        'worker-1': 'NodeResourcesFit: Insufficient cpu (4 of 4 cpu free, 1k requested)',
        'worker-2': 'NodeResourcesFit: Insufficient cpu (4 of 4 cpu free, 1k requested)',
      });
      assert.deepEqual(r.live.failedScheduling, { engine: CPU_MESSAGE, event: CPU_MESSAGE, condition: CPU_MESSAGE, agreement: 'same' });
    },
  },
  {
    name: 'The pods bound to a node count against it: a pod that fits an empty worker does not fit one already full',
    state: state(unscheduled('3').build(), {
      pods: [other(new PodBuilder('big').container({ resources: { requests: { cpu: '2' } } }).spec({ nodeName: 'worker-1' })),
        other(new PodBuilder('done').container({ resources: { requests: { cpu: '4' } } }).spec({ nodeName: 'worker-2' }).podStatus({ phase: 'Succeeded' }))],
    }),
    want: (r) => {
      // The Succeeded pod on worker-2 is not counted, as kube-scheduler's informer leaves terminal pods out.
      assert.equal(r.scheduling.whyNot['worker-1'], 'NodeResourcesFit: Insufficient cpu (2 of 4 cpu free, 3 requested)');
      assert.equal(r.scheduling.chosen, 'worker-2');
      assert.equal(r.live.failedScheduling?.chosen, 'worker-2');
      assert.equal(r.live.failedScheduling?.agreement, 'differs');
    },
  },
  {
    name: 'A gated pod is explained by its gates: no cycle runs',
    state: state(unscheduled('1').spec({ schedulingGates: [{ name: 'acme.io/quota' }] }).build()),
    want: (r) => {
      assert.equal(r.scheduling.why, 'held by scheduling gates: acme.io/quota');
      assert.equal(r.live.failedScheduling, undefined);
    },
  },
  {
    name: 'ImagePullBackOff takes its evidence from the kubelet\'s events on the container, at seconds since the pod was created',
    state: state(new PodBuilder().notReady().podStatus({ phase: 'Pending' }).container({ image: 'acme/missing:1.0' }).status({
      ready: false, started: false, state: { waiting: { reason: 'ImagePullBackOff', message: 'Back-off pulling image "acme/missing:1.0": ErrImagePull: not found' } },
    }).build(), { events: [
      coreEvent(3, 'Warning', 'Failed', 'Failed to pull image "acme/missing:1.0": not found', { fieldPath: 'spec.containers{app}', count: 4 }),
      coreEvent(2, 'Normal', 'Scheduled', 'Successfully assigned default/web to worker-1', { source: 'default-scheduler' }),
      coreEvent(1, 'Warning', 'Failed', 'Failed to pull image "acme/missing:1.0": not found', { uid: 'uid-of-an-earlier-web' }),
    ] }),
    want: (r) => {
      assert.equal(r.diagnosis?.question, 'notReady');
      const c = r.diagnosis!.causes[0]!;
      assert.equal(c.kind, 'ImagePull');
      assert.deepEqual(c.evidence.filter((e) => e.kind === 'event').map((e) => [e.ref, e.at, e.count]), [['Warning Failed', 3, 4]]);
      assert.equal(r.scheduling.why, 'default-scheduler: Successfully assigned default/web to worker-1');
    },
  },
  {
    name: 'A readiness probe that fails is read from the kubelet\'s Unhealthy events on the container',
    state: state(new PodBuilder().notReady().container({ readinessProbe: { httpGet: { path: '/ready', port: 8080 } } }).status({ ready: false }).build(), { events: [
      coreEvent(30, 'Warning', 'Unhealthy', 'Readiness probe failed: HTTP probe failed with statuscode: 503', { fieldPath: 'spec.containers{app}', count: 7 }),
    ] }),
    want: (r) => {
      const c = r.diagnosis!.causes.find((x) => x.kind === 'ReadinessProbe');
      assert.match(c?.title ?? '', /^the readiness probe of app fails for 1m38s since the container started at 2s$/);
      assert.deepEqual(c?.evidence.filter((e) => e.kind === 'event').map((e) => [e.ref, e.at, e.count]), [['Warning Unhealthy', 30, 7]]);
    },
  },
  {
    name: 'A container OOMKilled and restarted says so, with its memory limit',
    state: state(new PodBuilder().container({ resources: { limits: { memory: '64Mi' } } }).status({
      restartCount: 2, lastState: { terminated: { exitCode: 137, reason: 'OOMKilled', finishedAt: ts(40) } },
    }).build()),
    want: (r) => {
      assert.equal(r.diagnosis?.question, 'restarting');
      assert.equal(r.diagnosis!.causes[0]!.title, 'container app was OOMKilled (exit code 137): it went over its memory limit of 64Mi');
    },
  },
  {
    name: 'A deletion past its grace period with the container still running and a finalizer left gives both causes',
    state: state(new PodBuilder().deleted(20, 30).finalizers('acme.io/cleanup').build()),
    want: (r) => {
      assert.equal(r.diagnosis?.question, 'terminating');
      assert.deepEqual(r.diagnosis!.causes.map((c) => c.kind), ['KubeletNotResponding', 'Finalizer']);
      assert.match(r.diagnosis!.causes[0]!.title, /^the grace period ended 50s ago \(metadata\.deletionTimestamp 2026-01-01T00:00:50Z\) and app still runs$/);
    },
  },
  {
    name: 'A terminating pod on an unreachable node is explained by the node, once',
    state: state(new PodBuilder().deleted(20, 30).build(), { nodes: [makeNode('worker-1', 'Unknown')] }),
    want: (r) => {
      assert.deepEqual(r.diagnosis!.causes.map((c) => c.kind), ['KubeletNotResponding']);
      assert.match(r.diagnosis!.causes[0]!.title, /^the kubelet on worker-1 stopped posting node status/);
    },
  },
  {
    name: 'A Running Ready pod has nothing wrong; its owners, budget, Service and a used-up quota are listed around it',
    state: state({ ...new PodBuilder().build(), metadata: { ...new PodBuilder().build().metadata, labels: { app: 'web' }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-7d', uid: 'rs', controller: true }] } } as Pod, {
      related: [
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'web-7d', namespace: 'default', ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'd', controller: true }] }, spec: { replicas: 2 }, status: { readyReplicas: 1 } },
        { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default' }, spec: { replicas: 2 }, status: { readyReplicas: 1, availableReplicas: 1 } },
        { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'web', namespace: 'default' }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } }, status: { disruptionsAllowed: 0 } },
        { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'default' }, spec: { selector: { app: 'web' } } },
        { apiVersion: 'v1', kind: 'Service', metadata: { name: 'other', namespace: 'default' }, spec: { selector: { app: 'other' } } },
        { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q', namespace: 'default' }, spec: { hard: { pods: '2' } }, status: { hard: { pods: '2' }, used: { pods: '2' } } },
      ] as unknown as KubeObject[],
    }),
    want: (r) => {
      assert.equal(r.diagnosis?.question, 'none');
      assert.deepEqual(r.live.related, [
        { object: 'ReplicaSet/web-7d', relation: 'owner', note: '1/2 ready' },
        { object: 'Deployment/web', relation: 'owner', note: '1/2 ready, 1 available' },
        { object: 'ResourceQuota/q', relation: 'quota', note: 'pods 2/2 (pods used up)', problem: true },
        { object: 'PodDisruptionBudget/web', relation: 'budget', note: 'minAvailable 1: 0 disruptions allowed (evictions and drains of this pod are refused)' },
        { object: 'Service/web', relation: 'service', note: 'selects the pod: it is among its ready endpoints' },
      ]);
    },
  },
  {
    name: 'A claim the pod names and the cluster does not have is flagged',
    state: state(new PodBuilder().spec({ volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }] }).build()),
    want: (r) => assert.deepEqual(r.live.related, [{ object: 'PersistentVolumeClaim/data', relation: 'claim', note: 'not found', problem: true }]),
  },
];

for (const c of cases) test(c.name, () => c.want(explainLive(c.state)));

test('liveEvents keeps the events of this pod (by uid) and of its node, oldest first', () => {
  const pod = new PodBuilder().build();
  const events = liveEvents([
    coreEvent(9, 'Warning', 'NodeNotReady', 'Node worker-1 status is now: NodeNotReady', { kind: 'Node', name: 'worker-1', uid: 'node' }),
    coreEvent(4, 'Normal', 'Pulled', 'Successfully pulled image', { fieldPath: 'spec.containers{app}' }),
    coreEvent(1, 'Normal', 'Pulled', 'an earlier pod of the same name', { uid: 'uid-0' }),
    coreEvent(2, 'Normal', 'Killing', 'a node elsewhere', { kind: 'Node', name: 'worker-2' }),
  ], pod, Date.parse(EPOCH));
  assert.deepEqual(events.map((e) => [e.at, e.object, e.reason, e.fieldPath]), [[4, 'Pod/default/web', 'Pulled', 'spec.containers{app}'], [9, 'Node/worker-1', 'NodeNotReady', undefined]]);
});

const agreements = [
  { name: 'the same message agrees', engine: CPU_MESSAGE, cluster: CPU_MESSAGE, want: 'same' },
  { name: 'only the preemption part differing keeps the filter reasons', engine: CPU_MESSAGE, cluster: '0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never.', want: 'sameFilterReasons' },
  { name: 'other filter reasons differ', engine: CPU_MESSAGE, cluster: '0/3 nodes are available: 3 Insufficient memory.', want: 'differs' },
  { name: 'no message from the cluster says so', engine: CPU_MESSAGE, cluster: undefined, want: 'noClusterMessage' },
] as const;
for (const c of agreements) test(`agreementOf: ${c.name}`, () => assert.equal(agreementOf(c.engine, c.cluster), c.want));

const renders = [
  {
    name: 'renderLive prints the pod as explain does, the cluster\'s message beside the engine\'s, and whether they agree',
    state: state(unscheduled('1000').build(), { context: 'prod', events: [coreEvent(5, 'Warning', 'FailedScheduling', CPU_MESSAGE)] }),
    lines: ['$ kubectl get pod/web -n default --context prod', 'POD default/web  Pending, not scheduled',
      'SCHEDULING (the engine\'s scheduling cycle on the cluster\'s nodes and the pods bound to them)', `  event:      ${CPU_MESSAGE}`,
      '  the engine\'s cycle on the cluster\'s nodes writes the same message'],
  },
  {
    name: 'renderLive says a node fits now when the cluster changed since kube-scheduler\'s last attempt',
    state: state(unscheduled('1').build(), { events: [coreEvent(5, 'Warning', 'FailedScheduling', CPU_MESSAGE)] }),
    lines: ['  engine:     worker-1 fits now: the cluster changed since kube-scheduler\'s last attempt, which the next one should bind'],
  },
  {
    name: 'renderLive says plainly that a healthy pod has nothing wrong, and lists what was not read',
    state: state(new PodBuilder().build(), { unread: ['nodes: kubectl get nodes -o json: Error from server (Forbidden): nodes is forbidden'] }),
    lines: ['NOTHING WRONG Running and Ready on worker-1, no restarts', 'not read: nodes: kubectl get nodes -o json: Error from server (Forbidden): nodes is forbidden'],
  },
];

for (const c of renders) {
  test(c.name, () => {
    const lines = renderLive(explainLive(c.state), style(false)).split('\n');
    for (const line of c.lines) assert.ok(lines.includes(line), `${line}\nnot in:\n${lines.join('\n')}`);
  });
}
