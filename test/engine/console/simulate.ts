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

/**
 * fill puts a run's own values into an expected text: {NODE}, {NODE_IP}, {POD_IP}, {SA_VOLUME} and {CID:container}.
 * They come from the seeded random source (the node tie break, IPs, ids), so an engine change that draws one more
 * number must not rewrite every expected table; the layout around them is what these tests check.
 */
export function fill(sim: Simulation, podName: string, text: string): string {
  const pod = sim.store.get<import('../../../src/engine/api/types').Pod>('Pod', 'default', podName);
  const nodeName = pod?.spec?.nodeName ?? '';
  const node = sim.store.get<import('../../../src/engine/api/types').Node>('Node', undefined, nodeName);
  const statuses = [...(pod?.status?.initContainerStatuses ?? []), ...(pod?.status?.containerStatuses ?? [])];
  return text
    .replace(/\{NODE\}/g, nodeName)
    .replace(/\{NODE_IP\}/g, node?.status?.addresses?.find((a) => a.type === 'InternalIP')?.address ?? '')
    .replace(/\{POD_IP\}/g, pod?.status?.podIP ?? '')
    .replace(/\{SA_VOLUME\}/g, pod?.spec?.volumes?.find((v) => v.name.startsWith('kube-api-access-'))?.name ?? '')
    .replace(/\{CID:([^}]+)\}/g, (_, name: string) => statuses.find((s) => s.name === name)?.containerID ?? '');
}
