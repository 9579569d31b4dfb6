// The warm-up brings a cluster file's own workloads up before kubectl acts, for at most DEFAULT_MAX_MS of virtual time:
// a workload that never settles (no node for its pods) is left as it stands then, not retried to the step budget.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadRunFiles } from '../../src/engine/cluster/files';
import { Simulation } from '../../src/engine/simulation';

const root = join(__dirname, '..', '..', '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

test('warm-up: a cluster file whose ReplicaSet has no node for its pods starts the run after at most 10 minutes', () => {
  // The cluster file has a ReplicaSet of 3 and no Node: kube-scheduler answers every attempt with ErrNoNodesAvailable.
  const inputs = loadRunFiles({ manifest: 'test/fixtures/controllers/frontend-manual-relabel.yaml', clusters: ['test/fixtures/controllers/frontend-adopted-cluster.yaml'], identity: { kind: 'default' } }, read);
  const sim = new Simulation(inputs, { budget: { steps: 20_000, objects: 1000 } });
  const result = sim.run();
  assert.equal(result.stopped, undefined, 'the run ends on its own, within its budget');
  assert.equal(result.outcome, 'Pending');
  // pkg/scheduler/schedule_one.go (ErrNoNodesAvailable), v1.36.3.
  assert.ok(result.events.some((e) => e.reason === 'FailedScheduling' && e.message.startsWith('no nodes available to schedule pods')));
});
