// Whole runs with pod anti-affinity and topology spread constraints on the embedded cluster (a tainted control plane,
// two workers): the scheduler's decisions and FailedScheduling messages as Kubernetes writes them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../../src/engine/api/types';
import { embeddedCluster } from '../../../src/engine/cluster/files';
import { defaultProfile } from '../../../src/engine/cluster/inputs';
import { loadInputs } from '../../../src/engine/cluster/loader';
import { Simulation } from '../../../src/engine/simulation';

function simulate(manifest: string): Simulation {
  const inputs = loadInputs({ manifest: { file: 'web.yaml', text: manifest }, clusters: [], identity: { kind: 'default' } });
  inputs.cluster.objects.unshift(...embeddedCluster());
  inputs.cluster.profile = defaultProfile();
  const sim = new Simulation(inputs, {});
  sim.run();
  return sim;
}

/** deployment is a Deployment of nginx pods labelled app=web with this much pod spec (indented for the template). */
const deployment = (replicas: number, podSpec: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: ${replicas}
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
${podSpec}      containers:
        - name: app
          image: nginx:1.27
`;

const antiAffinity = `      affinity:
        podAntiAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            - labelSelector:
                matchLabels:
                  app: web
              topologyKey: kubernetes.io/hostname
`;

const spread = (extra = '') => `      topologySpreadConstraints:
        - maxSkew: 1
          topologyKey: kubernetes.io/hostname
          whenUnsatisfiable: DoNotSchedule
          labelSelector:
            matchLabels:
              app: web
${extra}`;

/** placement counts the Deployment's pods per node ('' for Pending). */
function placement(sim: Simulation): Record<string, number> {
  const out: Record<string, number> = {};
  for (const p of sim.store.list<Pod>('Pod', 'default')) {
    const node = p.spec?.nodeName ?? '';
    out[node] = (out[node] ?? 0) + 1;
  }
  return out;
}

const PREEMPTION_NOT_HELPFUL = 'no new claims to deallocate, preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.';

test('Required anti-affinity on hostname places one replica per worker and leaves the third Pending', () => {
  const sim = simulate(deployment(3, antiAffinity));
  const result = sim.result();
  assert.equal(result.outcome, 'Pending');
  assert.deepEqual(placement(sim), { 'worker-1': 1, 'worker-2': 1, '': 1 });
  const failed = result.events.filter((e) => e.reason === 'FailedScheduling').map((e) => e.message);
  assert.deepEqual(failed, [
    `0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 node(s) didn't match pod anti-affinity rules. ${PREEMPTION_NOT_HELPFUL}`,
  ]);
});

test('A hostname spread constraint with nodeTaintsPolicy Honor spreads four replicas two by two over the workers', () => {
  const sim = simulate(deployment(4, spread('          nodeTaintsPolicy: Honor\n')));
  assert.equal(sim.result().outcome, 'Running');
  assert.deepEqual(placement(sim), { 'worker-1': 2, 'worker-2': 2 });
});

test('Without nodeTaintsPolicy Honor the empty control-plane domain holds the global minimum at 0', () => {
  // The tainted control-plane node still counts as a hostname domain (nodeTaintsPolicy defaults to Ignore), so once
  // each worker has a pod, a third one would make the skew 2.
  const sim = simulate(deployment(3, spread()));
  const result = sim.result();
  assert.equal(result.outcome, 'Pending');
  assert.deepEqual(placement(sim), { 'worker-1': 1, 'worker-2': 1, '': 1 });
  const failed = result.events.find((e) => e.reason === 'FailedScheduling');
  assert.equal(failed?.message, `0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 node(s) didn't match pod topology spread constraints. ${PREEMPTION_NOT_HELPFUL}`);
});

test('The system default spreading scores a ReplicaSet\'s second pod away from the worker that has the first', () => {
  const sim = simulate(deployment(2, ''));
  assert.equal(sim.result().outcome, 'Running');
  assert.deepEqual(placement(sim), { 'worker-1': 1, 'worker-2': 1 });
  const entries = sim.result().trace.filter((e) => e.phase === 'scheduler.score' && (e as { step?: { name?: string } }).step?.name === 'PodTopologySpread');
  assert.equal(entries.length, 2);
  // Hostname (maxSkew 3) over 2 feasible nodes: 1 × log(4) + 2 rounds to 3 where the first pod runs, 0 + 2 = 2 elsewhere;
  // reversed onto [0, 100]: 100 × (3 + 2 − 3) / 3 = 66 and 100. The nodes have no zone label: that constraint is skipped.
  const second = (entries[1]!.detail as { nodes: Record<string, { raw: number; normalized: number }> }).nodes;
  const first = sim.store.list<Pod>('Pod', 'default').map((p) => p.spec?.nodeName).find((n) => second[n ?? '']?.raw === 3);
  assert.ok(first, 'the first pod\'s node scored 3');
  assert.deepEqual(Object.values(second).map((n) => [n.raw, n.normalized]).sort(), [[2, 100], [3, 66]]);
  assert.equal(entries[1]!.field, 'metadata.labels');
});
