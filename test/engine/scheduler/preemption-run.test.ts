// A whole run in-process: low-priority pods fill both workers, then a pod of PriorityClass `high` (1000) arrives. Its first
// attempt fails with the filters' message alone (a successful PostFilter adds none), and DefaultPreemption's trace entry
// names the node to nominate and the victim there. See pkg/scheduler/schedule_one.go (schedulingCycle) and
// pkg/scheduler/framework/preemption/preemption.go (Preempt).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../../src/engine/api/types';
import { embeddedCluster } from '../../../src/engine/cluster/files';
import { defaultProfile } from '../../../src/engine/cluster/inputs';
import { loadInputs } from '../../../src/engine/cluster/loader';
import { Simulation } from '../../../src/engine/simulation';
import type { PreemptionDetail } from '../../../src/engine/scheduler/plugins/defaultpreemption';

const pod = (name: string, cpu: string, extra = '') => `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
spec:
${extra}  containers:
    - name: app
      image: nginx:1.27
      resources:
        requests:
          cpu: "${cpu}"
`;

const MANIFEST = [
  'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: high\nvalue: 1000\n',
  pod('low-1', '3'),
  pod('low-2', '3'),
  pod('web', '2', '  priorityClassName: high\n'),
].join('---\n');

function simulate(): Simulation {
  const inputs = loadInputs({ manifest: { file: 'pod.yaml', text: MANIFEST }, clusters: [], identity: { kind: 'default' } });
  inputs.cluster.objects.unshift(...embeddedCluster());
  inputs.cluster.profile = defaultProfile();
  const sim = new Simulation(inputs, { forMs: 60_000 });
  sim.run();
  return sim;
}

test('The high-priority pod\'s first attempt fails with the filters\' message, and preemption picks a worker and its low pod', () => {
  const sim = simulate();
  const webRef = 'Pod/default/web';
  const failed = sim.events.find((e) => e.object === webRef && e.reason === 'FailedScheduling');
  assert.equal(failed?.message, '0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu.');

  const entry = sim.trace.find((t) => t.object === webRef && t.phase === 'scheduler.postFilter' && t.step?.name === 'DefaultPreemption');
  assert.ok(entry, 'a scheduler.postFilter entry for DefaultPreemption');
  const detail = entry.detail as PreemptionDetail & { nominatedNodeName: string; code: string };
  assert.equal(detail.code, 'Success');
  assert.equal(detail.nominatedNodeName, detail.node);

  // The victim is the low pod the scheduler had put on the nominated node; both workers were candidates.
  const victim = detail.victims[0]!;
  assert.deepEqual(detail.victims.map((v) => [v.namespace, v.name, v.priority]), [['default', victim.name, 0]]);
  const persisted = sim.trace.find((t) => t.phase === 'etcd.persist' && t.object === `Pod/default/${victim.name}`);
  assert.equal(victim.uid, persisted?.detail['uid']);
  // The scheduler evicts it (pkg/scheduler/framework/preemption/executor.go) and the preemptor runs in its place.
  const stored = sim.result().objects.filter((o) => o.kind === 'Pod') as Pod[];
  assert.ok(!stored.some((p) => p.metadata?.uid === victim.uid), 'the victim is gone');
  assert.ok(sim.events.some((e) => e.object === `Pod/default/${victim.name}` && e.reason === 'Preempted'));
  assert.equal(stored.find((p) => p.metadata?.name === 'web')?.spec?.nodeName, detail.node);
  assert.ok(['worker-1', 'worker-2'].includes(detail.node));
  assert.deepEqual(detail.candidates.map((c) => c.node).sort(), ['worker-1', 'worker-2']);
  // The low pods started at different times, so the latest-started victim decides (pickOneNodeForPreemption).
  assert.equal(detail.decidedBy, 'latest start of the highest-priority victims');
});

test('The same seed nominates the same node and victim', () => {
  const pick = (sim: Simulation) => {
    const e = sim.trace.find((t) => t.object === 'Pod/default/web' && t.step?.name === 'DefaultPreemption');
    const d = e?.detail as PreemptionDetail | undefined;
    return [d?.node, d?.victims.map((v) => v.name)];
  };
  assert.deepEqual(pick(simulate()), pick(simulate()));
});
