// What the API server stores (and returns) beyond what a manifest says: the v1 conversion of pod specs (the deprecated
// serviceAccount, a Pod's negative grace period), containers' empty resources, and a Service's defaults and
// allocations. Each expectation is pinned from the reference cluster (kube-apiserver v1.36.3, `npm run oracle` and
// `kubectl get -o json` on .cache/oracle/refcluster), random cluster IPs and node ports apart.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { convertFromV1, convertToV1 } from '../../../src/engine/api/conversion';
import type { KubeObject } from '../../../src/engine/api/types';
import { embeddedCluster } from '../../../src/engine/cluster/files';
import { loadInputs } from '../../../src/engine/cluster/loader';
import { Simulation } from '../../../src/engine/simulation';

/** run simulates a manifest on the embedded cluster. */
function run(manifest: string): Simulation {
  const inputs = loadInputs({ manifest: { file: 'm.yaml', text: manifest }, clusters: [], identity: { kind: 'default' } });
  inputs.cluster.objects.unshift(...embeddedCluster());
  const sim = new Simulation(inputs, {});
  sim.run();
  return sim;
}

type Spec = Record<string, unknown> & { containers: Record<string, unknown>[]; initContainers?: Record<string, unknown>[] };
const podSpec = (sim: Simulation, name: string): Spec => (sim.store.get('Pod', 'default', name) as unknown as { spec: Spec }).spec;
const templateSpec = (sim: Simulation, name: string): Spec =>
  (sim.store.get('Deployment', 'default', name) as unknown as { spec: { template: { spec: Spec } } }).spec.template.spec;
const podsOf = (sim: Simulation, prefix: string): Spec[] =>
  sim.store.list('Pod', 'default').filter((p) => p.metadata?.name?.startsWith(`${prefix}-`)).map((p) => (p as unknown as { spec: Spec }).spec);

test('convertFromV1 takes serviceAccount as the name when serviceAccountName is empty, and a Pod\'s negative grace period as 1', () => {
  const pod: KubeObject = { apiVersion: 'v1', kind: 'Pod', spec: { serviceAccount: 'robot', terminationGracePeriodSeconds: -5, containers: [] } };
  assert.deepEqual(convertFromV1(pod), [
    { field: 'spec.serviceAccountName', from: null, to: 'robot' },
    { field: 'spec.terminationGracePeriodSeconds', from: -5, to: 1 },
  ]);
  assert.deepEqual(pod['spec'], { serviceAccount: 'robot', serviceAccountName: 'robot', terminationGracePeriodSeconds: 1, containers: [] });
  // "If both are specified, ServiceAccountName (the new field) wins"; a template keeps its negative grace period.
  const deployment: KubeObject = { apiVersion: 'apps/v1', kind: 'Deployment', spec: { template: { spec: { serviceAccountName: 'a', serviceAccount: 'b', terminationGracePeriodSeconds: -3 } } } };
  assert.deepEqual(convertFromV1(deployment), []);
  assert.deepEqual(deployment['spec'], { template: { spec: { serviceAccountName: 'a', serviceAccount: 'b', terminationGracePeriodSeconds: -3 } } });
});

test('convertToV1 writes serviceAccount as serviceAccountName and every container\'s resources, in pods and every template', () => {
  const containers = (): Record<string, unknown>[] => [{ name: 'a' }, { name: 'b', resources: { limits: { cpu: '1' } } }];
  const cronJob: KubeObject = { kind: 'CronJob', spec: { jobTemplate: { spec: { template: { spec: { serviceAccountName: 'robot', containers: containers() } } } } } };
  assert.deepEqual(convertToV1(cronJob)['spec'], { jobTemplate: { spec: { template: { spec: {
    serviceAccountName: 'robot', serviceAccount: 'robot', containers: [{ name: 'a', resources: {} }, { name: 'b', resources: { limits: { cpu: '1' } } }],
  } } } } });
  const pod: KubeObject = { kind: 'Pod', spec: { serviceAccount: 'stale', initContainers: [{ name: 'i' }], containers: containers(), ephemeralContainers: [{ name: 'e' }] } };
  // An empty serviceAccountName leaves both out (omitempty).
  assert.deepEqual(convertToV1(pod)['spec'], {
    initContainers: [{ name: 'i', resources: {} }], containers: [{ name: 'a', resources: {} }, { name: 'b', resources: { limits: { cpu: '1' } } }],
    ephemeralContainers: [{ name: 'e', resources: {} }],
  });
  const template: KubeObject = { kind: 'PodTemplate', template: { spec: { serviceAccountName: 'x', containers: [] } } };
  assert.deepEqual(convertToV1(template)['template'], { spec: { serviceAccountName: 'x', serviceAccount: 'x', containers: [] } });
});

test('A stored Pod has serviceAccount "default" and resources {} on every container, init containers too', () => {
  const sim = run('apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  initContainers:\n  - {name: init, image: busybox}\n  containers:\n  - {name: app, image: nginx:1.27}\n');
  const spec = podSpec(sim, 'web');
  assert.equal(spec['serviceAccount'], 'default');
  assert.equal(spec['serviceAccountName'], 'default');
  assert.deepEqual([...(spec.initContainers ?? []), ...spec.containers].map((c) => c['resources']), [{}, {}]);
});

// The reference's spec.template.spec of `kubectl get deployment d -o json` (d.yaml of this test, v1.36.3).
const D_TEMPLATE = {
  containers: [{ image: 'nginx:1.27', imagePullPolicy: 'IfNotPresent', name: 'app', resources: { requests: { cpu: '100m' } }, terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File' }],
  dnsPolicy: 'ClusterFirst',
  initContainers: [{ image: 'busybox', imagePullPolicy: 'Always', name: 'init', resources: {}, terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File' }],
  restartPolicy: 'Always', schedulerName: 'default-scheduler', securityContext: {}, serviceAccount: 'default', serviceAccountName: 'default', terminationGracePeriodSeconds: -3,
};

test('A Deployment\'s template stores serviceAccount and resources {} as the reference does, and keeps a negative grace period its pods turn into 1', () => {
  const sim = run('apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\nspec:\n  replicas: 1\n  selector:\n    matchLabels: {app: d}\n  template:\n'
    + '    metadata:\n      labels: {app: d}\n    spec:\n      serviceAccountName: default\n      terminationGracePeriodSeconds: -3\n      initContainers:\n'
    + '      - name: init\n        image: busybox\n      containers:\n      - name: app\n        image: nginx:1.27\n        resources:\n          requests: {cpu: "0.100"}\n');
  assert.deepEqual(templateSpec(sim, 'd'), D_TEMPLATE);
  // The reference's pod: d-655756656-xxxxx (the same pod-template-hash), serviceAccount default, grace period 1.
  const pods = podsOf(sim, 'd-655756656');
  assert.equal(pods.length, 1);
  assert.deepEqual([pods[0]!['serviceAccount'], pods[0]!['serviceAccountName'], pods[0]!['terminationGracePeriodSeconds']], ['default', 'default', 1]);
});

test('A template naming only the deprecated serviceAccount gets serviceAccountName from it', () => {
  const sim = run('apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d2\nspec:\n  replicas: 1\n  selector:\n    matchLabels: {app: d2}\n  template:\n'
    + '    metadata:\n      labels: {app: d2}\n    spec:\n      serviceAccount: default\n      containers:\n      - name: app\n        image: nginx:1.27\n');
  const spec = templateSpec(sim, 'd2');
  assert.deepEqual([spec['serviceAccount'], spec['serviceAccountName'], spec.containers[0]!['resources']], ['default', 'default', {}]);
  assert.equal(podsOf(sim, 'd2-5d7cc4d48f').length, 1);
});

test('A Pod naming both fields keeps serviceAccountName and stores serviceAccount as it', () => {
  const spec = podSpec(run('apiVersion: v1\nkind: Pod\nmetadata:\n  name: p2\nspec:\n  serviceAccountName: default\n  serviceAccount: other\n  containers:\n  - {name: app, image: nginx:1.27}\n'), 'p2');
  assert.deepEqual([spec['serviceAccount'], spec['serviceAccountName']], ['default', 'default']);
});

test('A Pod\'s negative terminationGracePeriodSeconds is stored as 1, without a warning, and the decode step says so', () => {
  const sim = run('apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  terminationGracePeriodSeconds: -5\n  containers:\n  - {name: app, image: nginx:1.27}\n');
  assert.equal(podSpec(sim, 'web')['terminationGracePeriodSeconds'], 1);
  assert.equal(sim.result().kubectl, 'pod/web created');
  const decode = sim.result().trace.find((e) => e.step?.name === 'decode');
  assert.match(decode?.result ?? '', /; conversion set spec\.terminationGracePeriodSeconds -5 → 1$/);
});

test('A template without metadata is stored with empty metadata, a struct encoding/json always writes (the reference cluster\'s CronJob)', () => {
  const sim = run('apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: hello\nspec:\n  schedule: "*/1 * * * *"\n  jobTemplate:\n    spec:\n      template:\n'
    + '        spec:\n          restartPolicy: OnFailure\n          containers:\n          - {name: hello, image: busybox:1.36}\n');
  const jobTemplate = (sim.store.get('CronJob', 'default', 'hello') as unknown as { spec: { jobTemplate: { metadata?: unknown; spec: { template: { metadata?: unknown } } } } }).spec.jobTemplate;
  // PodTemplateSpec.ObjectMeta and JobTemplateSpec.ObjectMeta (k8s.io/api core/v1, batch/v1 types.go, v0.36.3).
  assert.deepEqual(jobTemplate.spec.template.metadata, {});
  assert.deepEqual(jobTemplate.metadata, {});
});
