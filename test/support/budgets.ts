// What the disruption budget tests share: a manifest run to its end on the embedded cluster, and builders of a
// Deployment and a PodDisruptionBudget as YAML.
import { embeddedCluster } from '../../src/engine/cluster/files';
import { defaultProfile } from '../../src/engine/cluster/inputs';
import { loadInputs } from '../../src/engine/cluster/loader';
import { Simulation } from '../../src/engine/simulation';

/** simulate runs a manifest on the embedded cluster to its end. */
export function simulate(text: string): Simulation {
  const inputs = loadInputs({ manifest: { file: 'budget.yaml', text }, clusters: [], identity: { kind: 'default' } });
  inputs.cluster.objects.unshift(...embeddedCluster());
  inputs.cluster.profile = defaultProfile();
  const sim = new Simulation(inputs, {});
  sim.run();
  return sim;
}

/** deployment is a Deployment `web` of `replicas` nginx pods labelled app=web. */
export const deployment = (replicas = 3, name = 'web') => `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec:
      containers: [{name: app, image: "nginx:1.27"}]
`;

/** budget is a PodDisruptionBudget named `name` with the given spec lines. */
export const budget = (spec: string, name = 'web') => `---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: ${name}}
spec:
${spec}`;

