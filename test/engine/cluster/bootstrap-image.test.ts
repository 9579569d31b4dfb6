// A run started from a bootstrap image is the run that stores the cluster itself: same trace, events, objects and
// outcome, whatever the cluster holds (Secrets, workloads brought up before kubectl acts, several namespaces).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bootstrapImage } from '../../../src/engine/cluster/bootstrap';
import { loadRunFiles } from '../../../src/engine/cluster/files';
import { Simulation, type SimulationOptions } from '../../../src/engine/simulation';

const root = join(__dirname, '..', '..', '..', '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const F = 'test/fixtures';

const cases: { name: string; manifest: string; clusters?: string[]; options?: SimulationOptions }[] = [
  { name: 'a pod on the embedded cluster', manifest: 'examples/pod.yaml' },
  { name: 'a Deployment, deleted once it runs', manifest: 'examples/deployment.yaml', options: { delete: {} } },
  { name: 'a cluster with Secrets the pod mounts', manifest: `${F}/secrets/manifest.yaml`, clusters: [`${F}/secrets/cluster.yaml`] },
  { name: 'a cluster whose own workloads come up before kubectl acts', manifest: `${F}/controllers/frontend-manual-relabel.yaml`, clusters: ['src/engine/cluster/default-cluster.yaml', `${F}/controllers/frontend-adopted-cluster.yaml`] },
  { name: 'another seed', manifest: 'examples/deployment.yaml', options: { seed: 42 } },
];

/** report is what a run shows a user: the result as --json has it. */
function report(sim: Simulation): string {
  sim.run();
  return JSON.stringify(sim.result());
}

for (const c of cases) {
  test(`bootstrap image: ${c.name} runs the same from the image`, () => {
    const inputs = loadRunFiles({ manifest: c.manifest, clusters: c.clusters ?? [], identity: { kind: 'default' } }, read);
    const cold = report(new Simulation(inputs, c.options));
    const image = bootstrapImage(inputs.cluster, c.options?.seed ?? 1);
    const warm = report(new Simulation(inputs, { ...c.options, bootstrapped: image }));
    assert.equal(warm, cold);
    // The image serves any number of runs: a second one is the same again.
    assert.equal(report(new Simulation(inputs, { ...c.options, bootstrapped: image })), cold);
  });
}

test('bootstrap image: an image of another seed or cluster is not used', () => {
  const inputs = loadRunFiles({ manifest: 'examples/pod.yaml', clusters: [], identity: { kind: 'default' } }, read);
  const cold = report(new Simulation(inputs, { seed: 3 }));
  assert.equal(report(new Simulation(inputs, { seed: 3, bootstrapped: bootstrapImage(inputs.cluster, 1) })), cold);
  const other = { ...inputs.cluster, objects: [] };
  assert.equal(report(new Simulation(inputs, { seed: 3, bootstrapped: bootstrapImage(other, 3) })), cold);
});
