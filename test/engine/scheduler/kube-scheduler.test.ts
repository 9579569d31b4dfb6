// kube-scheduler in whole runs, in-process: retries with the real backoff and flushes, a Node added during the run, gated
// pods, profiles chosen by schedulerName, a configuration that changes the chosen node, the binding and preemption.
// Expected behaviour from pkg/scheduler/schedule_one.go, backend/queue/scheduling_queue.go and eventhandlers.go (1.36).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject, Node, Pod } from '../../../src/engine/api/types';
import { embeddedCluster } from '../../../src/engine/cluster/files';
import { defaultProfile, type SourceDocument } from '../../../src/engine/cluster/inputs';
import { loadInputs } from '../../../src/engine/cluster/loader';
import { Simulation, type SimulationOptions } from '../../../src/engine/simulation';

interface Run {
  manifest: string;
  /** config is cluster-file YAML (a KubeSchedulerConfiguration). */
  config?: string;
  options?: SimulationOptions;
  /** cluster edits the embedded cluster's documents. */
  cluster?: (docs: SourceDocument[]) => SourceDocument[];
  /** during schedules test-only changes at virtual times. */
  during?: (sim: Simulation) => void;
}

function simulate(r: Run): Simulation {
  const inputs = loadInputs({ manifest: { file: 'pod.yaml', text: r.manifest }, clusters: r.config ? [{ file: 'sched.yaml', text: r.config }] : [], identity: { kind: 'default' } });
  const docs = embeddedCluster();
  inputs.cluster.objects.unshift(...(r.cluster ? r.cluster(docs) : docs));
  inputs.cluster.profile = defaultProfile();
  const sim = new Simulation(inputs, r.options ?? {});
  r.during?.(sim);
  sim.run();
  return sim;
}

const pod = (name: string, cpu = '100m', extra = '', meta = '') => `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
${meta}spec:
${extra}  containers:
    - name: app
      image: nginx:1.27
      resources:
        requests:
          cpu: "${cpu}"
`;

const events = (sim: Simulation, object: string, reason: string) => sim.events.filter((e) => e.object === object && e.reason === reason);
const stored = (sim: Simulation, name: string) => sim.store.get<Pod>('Pod', 'default', name);
const withoutNodes = (docs: SourceDocument[]) => docs.filter((d) => d.object.kind !== 'Node');

/** addNode schedules a test-only Node creation at a virtual time. */
function addNode(sim: Simulation, atMs: number, name: string, cpu: string, taint?: string): void {
  sim.ctx.schedule(atMs, `test: add Node ${name}`, function* () {
    const node: Node = {
      apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux' } },
      spec: taint ? { taints: [{ key: taint, effect: 'NoSchedule' }] } : {}, status: { allocatable: { cpu, memory: '8Gi', pods: '110' }, capacity: { cpu, memory: '8Gi', pods: '110' }, conditions: [{ type: 'Ready', status: 'True' }] },
    };
    sim.store.put(node as KubeObject);
  });
}

test('With no node in the cluster, the pod is retried after 1, 2, 4, 8 and 10 s, flushed at whole seconds, and FailedScheduling counts up', () => {
  const sim = simulate({ manifest: pod('web'), cluster: withoutNodes, options: { forMs: 60_000 } });
  const failed = events(sim, 'Pod/default/web', 'FailedScheduling');
  assert.deepEqual(failed.map((e) => [e.message, e.count, e.at]), [['no nodes available to schedule pods', 8, 52]]);
  const attempts = sim.trace.filter((e) => e.object === 'Pod/default/web' && e.phase === 'scheduler.queue' && e.result.startsWith('popped')).map((e) => e.at);
  assert.deepEqual(attempts, [0, 2, 5, 10, 19, 30, 41, 52]);
  const backoff = sim.trace.find((e) => e.object === 'Pod/default/web' && e.phase === 'scheduler.queue' && e.result.startsWith('moved to backoffQ'));
  assert.equal(backoff?.result, 'moved to backoffQ on ScheduleAttemptFailure: backing off for 2s after 1 attempt(s)');
  assert.equal(stored(sim, 'web')?.status?.conditions?.find((c) => c.type === 'PodScheduled')?.reason, 'Unschedulable');
});

test('An untainted Node too small still wakes a pod TaintToleration rejected: its hint sees a node it tolerates', () => {
  const sim = simulate({ manifest: pod('web', '6'), options: { forMs: 60_000 }, during: (s) => addNode(s, 10_000, 'worker-small', '2') });
  assert.deepEqual(events(sim, 'Pod/default/web', 'FailedScheduling').map((e) => [e.at, e.message]), [
    [0, '0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu. no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.'],
    [10, '0/4 nodes are available: 1 node(s) had untolerated taint(s), 3 Insufficient cpu. no new claims to deallocate, preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.'],
  ]);
});

test('A pod no node fits waits in unschedulablePods and is retried by the 5-minute flush, at the 330 s tick', () => {
  const sim = simulate({ manifest: pod('web', '64'), options: { forMs: 400_000 } });
  const failed = events(sim, 'Pod/default/web', 'FailedScheduling');
  assert.deepEqual(failed.map((e) => [e.count, e.at]), [[2, 330]]);
  const waits = sim.trace.filter((e) => e.object === 'Pod/default/web' && e.phase === 'scheduler.queue').map((e) => `${e.at} ${e.result}`);
  assert.deepEqual(waits, [
    '0 entered activeQ (UnschedulablePodAdd)',
    '0 popped from activeQ for attempt 1 (priority 0)',
    '0 moved to unschedulablePods on ScheduleAttemptFailure: waits for a cluster event NodeResourcesFit, TaintToleration may act on, or 5 minutes',
    '330 moved to activeQ on UnschedulableTimeout',
    '330 popped from activeQ for attempt 2 (priority 0)',
    '330 moved to unschedulablePods on ScheduleAttemptFailure: waits for a cluster event NodeResourcesFit, TaintToleration may act on, or 5 minutes',
  ]);
});

test('A pending pod schedules when a Node that fits is added during the run; a tainted Node too small wakes neither rejecting plugin', () => {
  const sim = simulate({
    manifest: pod('web', '6'), options: { forMs: 60_000 },
    during: (s) => {
      addNode(s, 10_000, 'worker-small', '2', 'example.com/special');
      addNode(s, 20_000, 'worker-3', '8');
    },
  });
  assert.deepEqual(events(sim, 'Pod/default/web', 'FailedScheduling').map((e) => [e.count, e.at]), [[1, 0]]);
  assert.deepEqual(events(sim, 'Pod/default/web', 'Scheduled').map((e) => [e.at, e.message]), [[20, 'Successfully assigned default/web to worker-3']]);
  assert.equal(stored(sim, 'web')?.spec?.nodeName, 'worker-3');
  const woken = sim.trace.find((e) => e.object === 'Pod/default/web' && e.result.startsWith('moved to activeQ'));
  assert.deepEqual([woken?.at, woken?.result], [20, 'moved to activeQ on NodeAdd (Node/worker-3)']);
});

test('A gated pod stays out of the queue with PodScheduled=False SchedulingGated, and is scheduled once its gate is removed', () => {
  const sim = simulate({
    manifest: pod('web', '100m', '  schedulingGates:\n    - name: example.com/wait\n'), options: { forMs: 30_000 },
    during: (s) => s.ctx.schedule(5000, 'test: remove the gate', function* () {
      s.store.update<Pod>('Pod', 'default', 'web', (p) => void (p.spec!.schedulingGates = []));
    }),
  });
  const held = sim.trace.find((e) => e.object === 'Pod/default/web' && e.phase === 'scheduler.queue' && e.outcome === 'waiting');
  assert.deepEqual([held?.at, held?.result, held?.field, held?.detail.schedulingGates], [
    0, 'held by scheduling gates: example.com/wait (PreEnqueue SchedulingGates: waiting for scheduling gates: [example.com/wait])', 'spec.schedulingGates', ['example.com/wait'],
  ]);
  assert.deepEqual(events(sim, 'Pod/default/web', 'FailedScheduling'), []);
  assert.deepEqual(events(sim, 'Pod/default/web', 'Scheduled').map((e) => e.at), [5]);
});

test('A pod still gated keeps the condition the API server gave it and gets no event', () => {
  const sim = simulate({ manifest: pod('web', '100m', '  schedulingGates:\n    - name: example.com/wait\n') });
  const condition = stored(sim, 'web')?.status?.conditions?.find((c) => c.type === 'PodScheduled');
  assert.deepEqual([condition?.status, condition?.reason, condition?.message], ['False', 'SchedulingGated', 'Scheduling is blocked due to non-empty scheduling gates']);
  assert.deepEqual(sim.events.filter((e) => e.object === 'Pod/default/web').map((e) => e.reason), []);
});

const TWO_PROFILES = `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
  - schedulerName: default-scheduler
  - schedulerName: batch-scheduler
`;

test('A pod naming the second profile is scheduled by it, and its events come from that scheduler name', () => {
  const sim = simulate({ manifest: pod('web', '100m', '  schedulerName: batch-scheduler\n'), config: TWO_PROFILES });
  assert.deepEqual(events(sim, 'Pod/default/web', 'Scheduled').map((e) => e.source), ['batch-scheduler']);
  assert.equal(sim.result().outcome, 'Running');
});

test('A pod naming no profile stays Pending without an event or condition: no kube-scheduler profile takes it', () => {
  const sim = simulate({ manifest: pod('web', '100m', '  schedulerName: nobody\n'), config: TWO_PROFILES });
  assert.equal(sim.result().outcome, 'Pending');
  assert.deepEqual(sim.events.filter((e) => e.object === 'Pod/default/web').map((e) => e.reason), []);
  assert.equal(stored(sim, 'web')?.status?.conditions?.find((c) => c.type === 'PodScheduled'), undefined);
  const entry = sim.trace.find((e) => e.object === 'Pod/default/web' && e.phase === 'scheduler.queue');
  assert.equal(entry?.result, 'not queued: no profile of kube-scheduler is named "nobody" (profiles: default-scheduler, batch-scheduler); the pod waits for that scheduler');
});

/** preferWorker1 is a pod that prefers worker-1 by node affinity, while worker-1 has a PreferNoSchedule taint. */
const preferWorker1 = pod('web', '100m', `  affinity:
    nodeAffinity:
      preferredDuringSchedulingIgnoredDuringExecution:
        - weight: 100
          preference:
            matchExpressions:
              - {key: kubernetes.io/hostname, operator: In, values: [worker-1]}
`);
const taintWorker1 = (docs: SourceDocument[]) => docs.map((d) => {
  if (d.object.kind !== 'Node' || d.object.metadata?.name !== 'worker-1') return d;
  const node = structuredClone(d.object) as Node & KubeObject;
  node.spec = { ...node.spec, taints: [{ key: 'example.com/slow', effect: 'PreferNoSchedule' }] };
  return { ...d, object: node };
});

const configCases: { name: string; config?: string; want: string }[] = [
  { name: 'By default TaintToleration (weight 3) outweighs the preferred affinity (weight 2): worker-2', want: 'worker-2' },
  {
    name: 'NodeAffinity at weight 5 makes the preference win: worker-1',
    config: 'apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n  - plugins:\n      multiPoint:\n        enabled:\n          - name: NodeAffinity\n            weight: 5\n',
    want: 'worker-1',
  },
  {
    name: 'TaintToleration disabled at Score leaves the preference alone: worker-1',
    config: 'apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n  - plugins:\n      score:\n        disabled:\n          - name: TaintToleration\n',
    want: 'worker-1',
  },
];

for (const c of configCases) {
  test(c.name, () => {
    const sim = simulate({ manifest: preferWorker1, cluster: taintWorker1, ...(c.config ? { config: c.config } : {}) });
    assert.equal(stored(sim, 'web')?.spec?.nodeName, c.want);
  });
}

test('The binding shows the assumed node first, then each extension point\'s plugins as sub-steps', () => {
  const sim = simulate({ manifest: pod('web') });
  const bind = sim.trace.filter((e) => e.object === 'Pod/default/web' && e.phase === 'scheduler.bind');
  assert.equal(bind[0]?.step, undefined);
  assert.equal(bind[0]?.field, 'spec.nodeName');
  assert.match(bind[0]?.result ?? '', /^DefaultBinder: assume web on worker-\d, then POST pods\/web\/binding to worker-\d$/);
  assert.ok(bind.slice(1).every((e) => e.step?.kind === 'plugin'));
  const last = bind.at(-1)!;
  assert.deepEqual([last.step?.name, last.detail.extensionPoint], ['DefaultBinder', 'Bind']);
});

test('A pod scheduled in its own cycle is seen by the next: two pods that each fill a worker land on different workers', () => {
  const sim = simulate({ manifest: [pod('a', '3'), pod('b', '3')].join('---\n') });
  assert.notEqual(stored(sim, 'a')?.spec?.nodeName, stored(sim, 'b')?.spec?.nodeName);
  assert.equal(sim.result().outcome, 'Running');
});

test('Preemption deletes the victim gracefully with a Preempted event, and the preemptor is scheduled on the nominated node', () => {
  const manifest = [
    'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: high\nvalue: 1000\n',
    pod('low-1', '3'), pod('low-2', '3'), pod('web', '2', '  priorityClassName: high\n'),
  ].join('---\n');
  const sim = simulate({ manifest, options: { forMs: 120_000 } });
  const web = stored(sim, 'web')!;
  const preempted = sim.events.filter((e) => e.reason === 'Preempted');
  assert.equal(preempted.length, 1);
  const victim = preempted[0]!.object.split('/')[2]!;
  assert.equal(preempted[0]!.message, `Preempted by pod ${web.metadata?.uid} on node ${web.spec?.nodeName}`);
  const nominated = sim.trace.find((e) => e.object === 'Pod/default/web' && e.step?.name === 'DefaultPreemption');
  assert.equal(nominated?.detail.nominatedNodeName, web.spec?.nodeName);
  assert.equal(stored(sim, victim), undefined, 'the victim is gone');
  const deleted = sim.trace.find((e) => e.object === `Pod/default/${victim}` && e.phase === 'apiserver.delete');
  assert.match(deleted?.result ?? '', /^graceful deletion: deletionTimestamp .*, grace period 30s$/);
});
