// Runs a manifest on the embedded cluster for the console's tests, as test/engine/simulation.test.ts does.
import { readFileSync } from 'node:fs';
import { embeddedCluster } from '../../../src/engine/cluster/files';
import { defaultProfile, type Identity, type SimulationInputs } from '../../../src/engine/cluster/inputs';
import { loadInputs } from '../../../src/engine/cluster/loader';
import { Simulation, type SimulationOptions } from '../../../src/engine/simulation';

/** inputsFor loads a manifest text with the embedded cluster and profile. */
export function inputsFor(manifest: string, identity: Identity = { kind: 'default' }): SimulationInputs {
  const inputs = loadInputs({ manifest: { file: 'pod.yaml', text: manifest }, clusters: [], identity });
  inputs.cluster.objects.unshift(...embeddedCluster());
  inputs.cluster.profile = defaultProfile();
  return inputs;
}

/** simulate runs a manifest text to its end (or for options.forMs) and returns the simulation. */
export function simulate(manifest: string, options: SimulationOptions = {}, identity: Identity = { kind: 'default' }): Simulation {
  const sim = new Simulation(inputsFor(manifest, identity), options);
  sim.run();
  return sim;
}

/** fixture reads a file under test/fixtures (tests run from the repository root). */
export function fixture(path: string): string {
  return readFileSync(`test/fixtures/${path}`, 'utf8');
}
