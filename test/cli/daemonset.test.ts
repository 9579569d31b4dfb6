// The DaemonSet controller through the CLI: one pod per node that should run one — the workers, or every node for a
// DaemonSet tolerating the control-plane taint — each pinned to its node and bound there by the scheduler; a later
// apply with a new template is rolled out (RollingUpdate with maxUnavailable or maxSurge, or not at all with
// OnDelete). See pkg/controller/daemon (daemon_controller.go manage, podsShouldBeOnNode, syncNodes; update.go
// rollingUpdate, constructHistory, cleanupHistory) at kubernetes v1.36.3.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runJson, type Report } from './harness';

const F = 'test/fixtures/daemonset';

interface Workload {
  object: string;
  outcome: string;
  note?: string;
}

const created = (r: Report) => r.events.filter((e) => e.source === 'daemonset-controller').map((e) => `${e.at} ${e.type} ${e.reason} ${e.object}`);
const scheduled = (r: Report) => r.events.filter((e) => e.reason === 'Scheduled').map((e) => e.message.replace(/default\/[a-z-]+-[bcdfghjklmnpqrstvwxz2456789]{5} /, 'default/<pod> ')).sort();
const NAME = '[bcdfghjklmnpqrstvwxz2456789]{5}';

const cases: { name: string; args: string[]; status: number; outcome: string; ds: string; nodes: string[]; workloads?: Workload[] }[] = [
  { name: 'no tolerations: two pods, on the workers, Running', args: [`${F}/agent.yaml`], status: 0, outcome: 'Running', ds: 'agent', nodes: ['worker-1', 'worker-2'] },
  { name: 'tolerating the control-plane taint: three pods, Running', args: [`${F}/tolerating.yaml`], status: 0, outcome: 'Running', ds: 'node-exporter', nodes: ['control-plane', 'worker-1', 'worker-2'] },
  { name: 'a nodeSelector and required affinity for worker-2: one pod', args: [`${F}/selector.yaml`], status: 0, outcome: 'Running', ds: 'picky', nodes: ['worker-2'] },
  { name: 'the same template applied again changes nothing: still Running', args: [`${F}/agent.yaml`, '--then-apply', `20s,${F}/agent.yaml`], status: 0, outcome: 'Running', ds: 'agent', nodes: ['worker-1', 'worker-2'] },
];

for (const c of cases) {
  test(`daemonset: ${c.name}`, () => {
    const { status, report } = runJson('run', ...c.args);
    const r = report as typeof report & { workloads?: Workload[] };
    assert.equal(status, c.status);
    assert.equal(r.outcome, c.outcome);
    assert.deepEqual(r.workloads, c.workloads);
    assert.deepEqual(created(r), c.nodes.map(() => `0 Normal SuccessfulCreate DaemonSet/default/${c.ds}`));
    for (const e of r.events.filter((x) => x.source === 'daemonset-controller')) assert.match(e.message, new RegExp(`^Created pod: ${c.ds}-${NAME}$`));
    assert.deepEqual(scheduled(r), c.nodes.map((n) => `Successfully assigned default/<pod> to ${n}`).sort());
    const pods = r.objects.filter((o) => o.kind === 'Pod');
    assert.deepEqual(pods.map((p) => p.spec?.['nodeName']).sort(), c.nodes);
    assert.ok(r.trace.some((e) => e.phase === 'controllers.daemonset'));
  });
}

test('daemonset: the stored DaemonSet, its revision and a pod as the report lists them', () => {
  const { report } = runJson('run', `${F}/agent.yaml`);
  const ds = report.objects.find((o) => o.kind === 'DaemonSet')!;
  assert.equal(ds.metadata.annotations?.['deprecated.daemonset.template.generation'], '1');
  assert.deepEqual(ds.spec?.['updateStrategy'], { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } });
  assert.equal(ds.spec?.['revisionHistoryLimit'], 10);
  assert.deepEqual(ds.status, { currentNumberScheduled: 2, numberMisscheduled: 0, desiredNumberScheduled: 2, numberReady: 2, observedGeneration: 1, updatedNumberScheduled: 2, numberAvailable: 2 });
  const revision = report.objects.find((o) => o.kind === 'ControllerRevision')!;
  const hash = revision.metadata.labels?.['controller-revision-hash'] ?? '';
  assert.equal(revision.metadata.name, `agent-${hash}`);
  assert.deepEqual(revision.metadata.labels, { app: 'agent', 'controller-revision-hash': hash });
  const pod = report.objects.find((o) => o.kind === 'Pod' && o.spec?.['nodeName'] === 'worker-1')!;
  assert.match(pod.metadata.name, new RegExp(`^agent-${NAME}$`));
  assert.deepEqual(pod.metadata.labels, { app: 'agent', 'controller-revision-hash': hash, 'pod-template-generation': '1' });
  assert.deepEqual(pod.spec?.['affinity'], { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['worker-1'] }] }] } } });
  assert.deepEqual((pod.spec?.['tolerations'] as { key: string; effect: string }[]).map((t) => `${t.key}:${t.effect}`), [
    'node.kubernetes.io/not-ready:NoExecute', 'node.kubernetes.io/unreachable:NoExecute', 'node.kubernetes.io/disk-pressure:NoSchedule',
    'node.kubernetes.io/memory-pressure:NoSchedule', 'node.kubernetes.io/pid-pressure:NoSchedule', 'node.kubernetes.io/unschedulable:NoSchedule',
  ]);
});

test('daemonset: a deleted DaemonSet is Deleted, its pods collected', () => {
  const { status, report } = runJson('run', `${F}/agent.yaml`, '--delete');
  assert.equal(status, 0);
  assert.equal(report.outcome, 'Deleted');
  assert.deepEqual(report.objects.filter((o) => o.kind === 'Pod' || o.kind === 'DaemonSet'), []);
});

/** rollout is the update's timeline from the trace, from `from` seconds on: each pod deleted or created, and each pod Ready, by node. */
const rollout = (r: Report, from: number): string[] => {
  const nodeOf = new Map(r.events.filter((e) => e.reason === 'Scheduled').map((e) => [e.object.split('/')[2]!, e.message.split(' ').pop()!]));
  return r.trace
    .filter((e) => (e.at ?? 0) >= from && ((e.phase === 'controllers.daemonset' && /^(deleting|created) pod /.test(e.result)) || (e.phase === 'kubelet.status' && / Ready True/.test(e.result))))
    .map((e) => {
      const pod = e.phase === 'kubelet.status' ? e.object!.split('/')[2]! : e.result.split(' ')[2]!.replace(':', '');
      return `${e.at} ${e.phase === 'kubelet.status' ? 'ready' : e.result.startsWith('deleting') ? 'delete' : 'create'} ${nodeOf.get(pod)}`;
    });
};

/** OLD and NEW are the revisions of spread.yaml's template (busybox:1.36) and of its new image (1.37). */
const OLD = '58bdbcd6d7';
const NEW = '6458c46976';

/** DONE is the status of a finished update (observedGeneration 2: the template change bumped the generation). */
const DONE = { currentNumberScheduled: 3, numberMisscheduled: 0, desiredNumberScheduled: 3, numberReady: 3, observedGeneration: 2, updatedNumberScheduled: 3, numberAvailable: 3 };

/** ONE_AT_A_TIME: maxUnavailable 1 — a node's old pod deleted, the new one made once it is gone, Ready before the next node. */
const ONE_AT_A_TIME = [
  '30 delete control-plane', '31 create control-plane', '33 ready control-plane', '33 delete worker-1', '34 create worker-1', '36 ready worker-1',
  '36 delete worker-2', '37 create worker-2', '39 ready worker-2',
];
const TWO_AT_A_TIME = [
  '30 delete control-plane', '30 delete worker-1', '31 create control-plane', '31 create worker-1', '33 ready control-plane', '33 ready worker-1',
  '33 delete worker-2', '34 create worker-2', '36 ready worker-2',
];

const rollingCases: { name: string; fixtures: [string, string]; rollout: string[]; status: Record<string, unknown>; revisions: string[]; at: string; generation: string }[] = [
  {
    name: 'RollingUpdate, maxUnavailable 1 (the default): one node at a time, each new pod made once the old is gone',
    fixtures: ['spread', 'spread-new-image'], rollout: ONE_AT_A_TIME, status: DONE, revisions: [`spread-${OLD} 1`, `spread-${NEW} 2`], at: NEW, generation: '2',
  },
  {
    name: 'maxUnavailable 2: two nodes at once, then the third once both new pods are available',
    fixtures: ['spread', 'spread-unavailable-2'], rollout: TWO_AT_A_TIME, status: DONE, revisions: [`spread-${OLD} 1`, `spread-${NEW} 2`], at: NEW, generation: '2',
  },
  {
    // UnavailableCount: GetScaledValueFromIntOrPercent(maxUnavailable, desired, true) — rounded up, unlike a Deployment's.
    name: 'maxUnavailable 34% of 3 nodes is rounded up to 2',
    fixtures: ['spread', 'spread-percent'], rollout: TWO_AT_A_TIME, status: DONE, revisions: [`spread-${OLD} 1`, `spread-${NEW} 2`], at: NEW, generation: '2',
  },
  {
    // rollingUpdate makes the surge pod; podsShouldBeOnNode deletes the old one once the new is available, and the
    // next sync surges onto the next node.
    name: 'maxSurge 1, maxUnavailable 0: a new pod beside the old, the old deleted once the new one is available',
    fixtures: ['spread', 'spread-surge'],
    rollout: ['30 create control-plane', '32 ready control-plane', '32 delete control-plane', '32 create worker-1', '34 ready worker-1', '34 delete worker-1', '34 create worker-2', '36 ready worker-2', '36 delete worker-2'],
    status: DONE, revisions: [`spread-${OLD} 1`, `spread-${NEW} 2`], at: NEW, generation: '2',
  },
  {
    // isPodAvailable with minReadySeconds: the next node waits until the new pod has been Ready for 5 s. The run ends
    // with the last new pod Ready, not yet available.
    name: 'minReadySeconds 5: each next node 5 s after the new pod is Ready',
    fixtures: ['spread-min-ready', 'spread-min-ready-new-image'],
    rollout: ['30 delete control-plane', '31 create control-plane', '33 ready control-plane', '38 delete worker-1', '39 create worker-1', '41 ready worker-1', '46 delete worker-2', '47 create worker-2', '49 ready worker-2'],
    status: { ...DONE, numberAvailable: 2, numberUnavailable: 1 }, revisions: [`spread-${OLD} 1`, `spread-${NEW} 2`], at: NEW, generation: '2',
  },
  {
    name: 'OnDelete: the new revision is made, no pod is replaced',
    fixtures: ['spread-ondelete', 'spread-ondelete-new-image'], rollout: [],
    status: { currentNumberScheduled: 3, numberMisscheduled: 0, desiredNumberScheduled: 3, numberReady: 3, observedGeneration: 2, numberAvailable: 3 },
    revisions: [`spread-${OLD} 1`, `spread-${NEW} 2`], at: OLD, generation: '1',
  },
  {
    // cleanupHistory: the old revision goes once no pod is labelled with its hash.
    name: 'revisionHistoryLimit 0: the old revision is deleted once no pod is at it',
    fixtures: ['spread-history-0', 'spread-history-0-new-image'], rollout: ONE_AT_A_TIME, status: DONE, revisions: [`spread-${NEW} 2`], at: NEW, generation: '2',
  },
];

for (const c of rollingCases) {
  test(`daemonset update: ${c.name}`, () => {
    const { status, report } = runJson('run', `${F}/${c.fixtures[0]}.yaml`, '--then-apply', `30s,${F}/${c.fixtures[1]}.yaml`);
    const r = report as typeof report & { workloads?: Workload[] };
    // A template change is simulated now: never NotSimulated, no note.
    assert.equal(status, 0);
    assert.equal(r.outcome, 'Running');
    assert.equal(r.workloads, undefined);
    assert.deepEqual(rollout(r, 30), c.rollout);
    const ds = r.objects.find((o) => o.kind === 'DaemonSet')!;
    assert.deepEqual(ds.status, c.status);
    assert.equal(ds.metadata.annotations?.['deprecated.daemonset.template.generation'], '2');
    const revisions = r.objects.filter((o) => o.kind === 'ControllerRevision') as unknown as { metadata: { name: string; annotations?: Record<string, string> }; revision: number }[];
    assert.deepEqual(revisions.map((o) => `${o.metadata.name} ${o.revision}`).sort(), c.revisions);
    // snapshot copies the DaemonSet's annotations: the new revision carries template generation 2.
    assert.equal(revisions.find((o) => o.metadata.name === `spread-${NEW}`)?.metadata.annotations?.['deprecated.daemonset.template.generation'], '2');
    const pods = r.objects.filter((o) => o.kind === 'Pod');
    assert.deepEqual(pods.map((p) => p.spec?.['nodeName']).sort(), ['control-plane', 'worker-1', 'worker-2']);
    for (const p of pods) {
      assert.deepEqual(p.metadata.labels, { app: 'spread', 'controller-revision-hash': c.at, 'pod-template-generation': c.generation });
      assert.equal((p.spec?.['containers'] as { image: string }[])[0]!.image, c.at === NEW ? 'busybox:1.37' : 'busybox:1.36');
    }
  });
}

test('daemonset update: the events of a rolling update, as RealPodControl records them', () => {
  const { report } = runJson('run', `${F}/spread.yaml`, '--then-apply', `30s,${F}/spread-new-image.yaml`);
  const events = report.events.filter((e) => e.source === 'daemonset-controller' && e.at >= 30);
  assert.deepEqual(events.map((e) => `${e.at} ${e.type} ${e.reason}`), [
    '30 Normal SuccessfulDelete', '31 Normal SuccessfulCreate', '33 Normal SuccessfulDelete', '34 Normal SuccessfulCreate', '36 Normal SuccessfulDelete', '37 Normal SuccessfulCreate',
  ]);
  for (const e of events) assert.match(e.message, new RegExp(`^(Deleted|Created) pod: spread-${NAME}$`));
  // The pod each SuccessfulDelete names is one the first apply made.
  const first = report.events.filter((e) => e.source === 'daemonset-controller' && e.at < 30).map((e) => e.message.replace('Created pod: ', ''));
  assert.deepEqual(events.filter((e) => e.reason === 'SuccessfulDelete').map((e) => e.message.replace('Deleted pod: ', '')).sort(), first.sort());
});

test('daemonset update: the status during a rolling update counts the pods the sync started with', () => {
  const { report } = runJson('run', `${F}/spread.yaml`, '--then-apply', `30s,${F}/spread-new-image.yaml`);
  const trail = report.trace.filter((e) => e.phase === 'controllers.daemonset' && e.field === 'status' && (e.at ?? 0) >= 30).map((e) => {
    const s = e.detail['status'] as Record<string, number | undefined>;
    return `${e.at} ${s['currentNumberScheduled']} scheduled, ${s['numberReady']} ready, ${s['numberAvailable'] ?? 0} available, ${s['updatedNumberScheduled'] ?? 0} updated, ${s['numberUnavailable'] ?? 0} unavailable, generation ${s['observedGeneration']}`;
  });
  assert.deepEqual(trail, [
    '30 3 scheduled, 3 ready, 3 available, 0 updated, 0 unavailable, generation 2',
    '31 2 scheduled, 2 ready, 2 available, 0 updated, 1 unavailable, generation 2',
    '31 3 scheduled, 2 ready, 2 available, 1 updated, 1 unavailable, generation 2',
    '33 3 scheduled, 3 ready, 3 available, 1 updated, 0 unavailable, generation 2',
    '34 2 scheduled, 2 ready, 2 available, 1 updated, 1 unavailable, generation 2',
    '34 3 scheduled, 2 ready, 2 available, 2 updated, 1 unavailable, generation 2',
    '36 3 scheduled, 3 ready, 3 available, 2 updated, 0 unavailable, generation 2',
    '37 2 scheduled, 2 ready, 2 available, 2 updated, 1 unavailable, generation 2',
    '37 3 scheduled, 2 ready, 2 available, 3 updated, 1 unavailable, generation 2',
    '39 3 scheduled, 3 ready, 3 available, 3 updated, 0 unavailable, generation 2',
  ]);
});

test('daemonset update: the workers-only agent with a new image is Running, each worker replaced in turn', () => {
  const { status, report } = runJson('run', `${F}/agent.yaml`, '--then-apply', `20s,${F}/agent-new-image.yaml`);
  const r = report as typeof report & { workloads?: Workload[] };
  assert.equal(status, 0);
  assert.equal(r.outcome, 'Running');
  assert.equal(r.workloads, undefined);
  assert.deepEqual(rollout(r, 20), ['20 delete worker-1', '21 create worker-1', '23 ready worker-1', '23 delete worker-2', '24 create worker-2', '26 ready worker-2']);
});

test('daemonset update: the old template applied again rolls back: its revision becomes number 3 and the pods go back to it', () => {
  const { status, report } = runJson('run', `${F}/spread.yaml`, '--then-apply', `30s,${F}/spread-new-image.yaml`, '--then-apply', `60s,${F}/spread.yaml`);
  assert.equal(status, 0);
  assert.equal(report.outcome, 'Running');
  // constructHistory: the current revision numbered below maxRevision(old) + 1 is renumbered.
  const revisions = report.objects.filter((o) => o.kind === 'ControllerRevision') as unknown as { metadata: { name: string }; revision: number }[];
  assert.deepEqual(revisions.map((o) => `${o.metadata.name} ${o.revision}`).sort(), [`spread-${OLD} 3`, `spread-${NEW} 2`]);
  assert.deepEqual(rollout(report, 60), [
    '60 delete control-plane', '61 create control-plane', '61 ready control-plane', '61 delete worker-1', '62 create worker-1', '62 ready worker-1',
    '62 delete worker-2', '63 create worker-2', '63 ready worker-2',
  ]);
  for (const p of report.objects.filter((o) => o.kind === 'Pod')) {
    assert.deepEqual(p.metadata.labels, { app: 'spread', 'controller-revision-hash': OLD, 'pod-template-generation': '3' });
  }
});
