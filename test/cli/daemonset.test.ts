// The DaemonSet controller through the CLI: one pod per node that should run one — the workers, or every node for a
// DaemonSet tolerating the control-plane taint — each pinned to its node and bound there by the scheduler; a later
// apply with a new template is NotSimulated with a note, never a false success. See pkg/controller/daemon at
// kubernetes v1.36.3.
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
  {
    name: 'a later apply with a new image is NotSimulated: no rolling update replaces the pods',
    args: [`${F}/agent.yaml`, '--then-apply', `20s,${F}/agent-new-image.yaml`], status: 1, outcome: 'NotSimulated', ds: 'agent', nodes: ['worker-1', 'worker-2'],
    workloads: [{ object: 'DaemonSet/default/agent', outcome: 'NotSimulated', note: 'updating a DaemonSet\'s pod template (a rolling update) is not simulated yet: the template matches none of its revisions and no pod was replaced' }],
  },
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
