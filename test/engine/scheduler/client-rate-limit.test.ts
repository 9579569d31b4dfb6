// kube-scheduler's client-side rate limit: its clientset's token bucket at clientConnection's qps and burst (50 and 100
// by default, pkg/scheduler/apis/config/v1/defaults.go v1.36.3; client-go rest/request.go at v0.36.3). Its bindings
// wait for it: on a cluster whose controller manager creates pods faster than 50 a second, the 101st binding waits. So
// does the PodScheduled condition a failed attempt writes (updatePod in schedule_one.go, v1.36.3), and the scheduling
// loop with it: the 101st pod no node fits holds the loop 20 ms before the next pod's cycle begins.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { embeddedCluster } from '../../../src/engine/cluster/files';
import { loadInputs } from '../../../src/engine/cluster/loader';
import { Simulation } from '../../../src/engine/simulation';

function run(replicas: number, clusterFile: string, cpu = '1m'): Simulation {
  const manifest = [
    'apiVersion: apps/v1', 'kind: Deployment', 'metadata: {name: web}', 'spec:', `  replicas: ${replicas}`, '  selector: {matchLabels: {app: web}}',
    '  template:', '    metadata: {labels: {app: web}}', '    spec:', `      containers: [{name: app, image: nginx:1.27, resources: {requests: {cpu: ${cpu}}}}]`, '',
  ].join('\n');
  const inputs = loadInputs({ manifest: { file: 'm.yaml', text: manifest }, clusters: [{ file: 'c.yaml', text: clusterFile }], identity: { kind: 'default' } });
  inputs.cluster.objects.unshift(...embeddedCluster().filter((d) => !inputs.cluster.objects.some((o) => o.object.kind === d.object.kind && o.object.metadata?.name === d.object.metadata?.name)));
  const sim = new Simulation(inputs, { forMs: 10_000 });
  sim.run();
  return sim;
}

/** FAST_MANAGER lets the controller manager create every pod at once: the scheduler's limit is the one that shows. */
const FAST_MANAGER = 'apiVersion: podlifecycle.debug/v1alpha1\nkind: ClusterProfile\ncontrollerManager: {kubeAPIQPS: 1000, kubeAPIBurst: 2000}\n';

const cases: { name: string; replicas: number; config: string; lastBindAt: number; waits: number; firstWait?: string }[] = [
  {
    name: 'the default 50 and 100: 100 bindings at once, then one every 20 ms', replicas: 150, config: '', lastBindAt: 1, waits: 50,
    firstWait: 'kube-scheduler\'s client waits 20ms before it sends POST /api/v1/namespaces/default/pods/NAME/binding: its rate limiter allows 50 requests a second after a burst of 100 (clientConnection.qps, clientConnection.burst)',
  },
  { name: 'a KubeSchedulerConfiguration raising them to 500 and 1000', replicas: 150, config: '---\napiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nclientConnection: {qps: 500, burst: 1000}\n', lastBindAt: 0, waits: 0 },
  { name: 'a qps of 0 is the scheduler\'s default 50, not client-go\'s 5', replicas: 150, config: '---\napiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nclientConnection: {qps: 0}\n', lastBindAt: 1, waits: 50 },
];
for (const c of cases) {
  test(`scheduler rate limit: ${c.name}`, () => {
    const sim = run(c.replicas, FAST_MANAGER + c.config);
    const binds = sim.trace.filter((e) => e.phase === 'scheduler.bind' && /^Bind DefaultBinder: POST/.test(e.result));
    assert.equal(binds.length, c.replicas);
    assert.equal(binds.at(-1)?.at, c.lastBindAt);
    const waits = sim.trace.filter((e) => e.phase === 'scheduler.bind' && e.outcome === 'waiting' && /binding/.test(e.result));
    assert.equal(waits.length, c.waits);
    if (c.firstWait) assert.equal(waits[0]?.result.replace(/pods\/[a-z0-9-]+\/binding/, 'pods/NAME/binding'), c.firstWait);
  });
}

test('scheduler rate limit: the PodScheduled condition of each pod no node fits is a PATCH that waits, and the scheduling loop with it', () => {
  const sim = run(150, FAST_MANAGER, '1000');
  const waits = sim.trace.filter((e) => e.outcome === 'waiting' && /\/status:/.test(e.result));
  assert.equal(waits.length, 50);
  assert.equal(
    waits[0]?.result.replace(/pods\/[a-z0-9-]+\/status/, 'pods/NAME/status'),
    'kube-scheduler\'s client waits 20ms before it sends PATCH /api/v1/namespaces/default/pods/NAME/status: its rate limiter allows 50 requests a second after a burst of 100 (clientConnection.qps, clientConnection.burst)',
  );
  assert.ok(waits.every((e) => e.phase === 'scheduler.postFilter'));
  // Each wait holds the loop: the last pod's cycle begins 49 waits of 20 ms after the first, and its condition is written 20 ms later.
  const failedAt = sim.events.filter((e) => e.reason === 'FailedScheduling').map((e) => e.firstAt ?? e.at);
  assert.equal(failedAt.length, 150);
  assert.equal(Math.round((Math.max(...failedAt) - Math.min(...failedAt)) * 1000), 980);
  const last = sim.trace.filter((e) => e.outcome === 'waiting' && /\/status:/.test(e.result)).at(-1)!;
  const pod = sim.store.get<{ status?: { conditions?: { type: string; status: string }[] } }>('Pod', 'default', last.object!.split('/').at(-1)!);
  assert.equal(pod?.status?.conditions?.find((c) => c.type === 'PodScheduled')?.status, 'False');
});
