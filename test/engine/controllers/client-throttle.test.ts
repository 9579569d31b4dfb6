// kube-controller-manager's client-side rate limit (--kube-api-qps 20, --kube-api-burst 30, one token bucket per
// controller's clientset, its Events' broadcaster included: client-go kubernetes/clientset.go, rest/request.go and
// tools/record at v0.36.3, golang.org/x/time/rate),
// and the work queue that never syncs one key twice at once (client-go util/workqueue queue.go, processing and dirty).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { embeddedCluster } from '../../../src/engine/cluster/files';
import { type ControllerManagerFlags, defaultProfile } from '../../../src/engine/cluster/inputs';
import { loadInputs } from '../../../src/engine/cluster/loader';
import { KUBE_API_BURST, KUBE_API_QPS } from '../../../src/engine/controllers/client-throttle';
import { TokenBucket } from '../../../src/engine/runtime/client-rate-limit';
import { budgetReached, Simulation, type SimulationOptions } from '../../../src/engine/simulation';

// Each case takes tokens at the given times (ms) and wants each request's wait (ms).
const bucketCases: { name: string; qps: number; burst: number; at: number[]; want: number[] }[] = [
  { name: 'the burst goes at once', qps: 20, burst: 3, at: [0, 0, 0], want: [0, 0, 0] },
  { name: 'past the burst, each request waits one more token (50 ms at 20 a second)', qps: 20, burst: 2, at: [0, 0, 0, 0, 0], want: [0, 0, 50, 100, 150] },
  { name: 'time refills the bucket', qps: 20, burst: 2, at: [0, 0, 100, 100, 100], want: [0, 0, 0, 0, 50] },
  { name: 'a refill never holds more than the burst', qps: 20, burst: 2, at: [0, 10_000, 10_000, 10_000], want: [0, 0, 0, 50] },
  { name: 'a reserved token is paid back before the next', qps: 10, burst: 1, at: [0, 0, 50, 50], want: [0, 100, 150, 250] },
];
for (const c of bucketCases) {
  test(`token bucket: ${c.name}`, () => {
    const bucket = new TokenBucket(c.qps, c.burst, 0);
    assert.deepEqual(c.at.map((t) => bucket.reserve(t)), c.want);
  });
}

test('the defaults are kube-controller-manager\'s: --kube-api-qps 20, --kube-api-burst 30', () => {
  assert.deepEqual([KUBE_API_QPS, KUBE_API_BURST], [20, 30]);
});

function deployment(replicas: number): string {
  return [
    'apiVersion: apps/v1', 'kind: Deployment', 'metadata: {name: web}', 'spec:', `  replicas: ${replicas}`, '  selector: {matchLabels: {app: web}}',
    '  template:', '    metadata: {labels: {app: web}}', '    spec:', '      containers: [{name: app, image: nginx:1.27, resources: {requests: {cpu: 1m}}}]', '',
  ].join('\n');
}

function run(replicas: number, options: SimulationOptions = { forMs: 10_000 }, controllerManager?: ControllerManagerFlags): Simulation {
  const inputs = loadInputs({ manifest: { file: 'm.yaml', text: deployment(replicas) }, clusters: [], identity: { kind: 'default' } });
  inputs.cluster.objects.unshift(...embeddedCluster());
  inputs.cluster.profile = { ...defaultProfile(), ...(controllerManager ? { controllerManager } : {}) };
  const sim = new Simulation(inputs, options);
  sim.run();
  return sim;
}

// The ReplicaSet's pods: when each create was sent (its persist), and what the controller recorded of its waits. Each
// SuccessfulCreate Event its broadcaster sends takes a token of the same bucket, up to the spam filter's 25 for one
// object: the batches of 1, 2, 4 and 8 and their Events spend the burst; then a batch's creates, sent at once, take the
// next tokens 50 ms apart, and the Events of its pods the tokens after them, holding up the next batch.
const runCases: { name: string; replicas: number; firstAt: number[]; lastAt: number; waits: number }[] = [
  { name: '10 replicas: creates and Events within the burst, no wait', replicas: 10, firstAt: Array<number>(10).fill(0), lastAt: 0, waits: 0 },
  { name: '30 replicas: 15 at once, then the batch of 15 one every 50 ms', replicas: 30, firstAt: [...Array<number>(15).fill(0), 0.05, 0.1], lastAt: 0.75, waits: 15 },
  { name: '100 replicas: 15 at once, then one every 50 ms between the batches\' Events', replicas: 100, firstAt: [...Array<number>(15).fill(0), 0.05, 0.1], lastAt: 4.75, waits: 85 },
];
for (const c of runCases) {
  test(`replicaset controller: ${c.name}`, () => {
    const sim = run(c.replicas);
    const creates = sim.trace.filter((e) => e.phase === 'etcd.persist' && e.object?.startsWith('Pod/') && /^stored Pod/.test(e.result));
    assert.equal(creates.length, c.replicas);
    assert.deepEqual(creates.slice(0, c.firstAt.length).map((e) => e.at), c.firstAt);
    assert.equal(creates.at(-1)?.at, c.lastAt);
    const waits = sim.trace.filter((e) => e.phase === 'controllers.replicaset' && e.outcome === 'waiting' && /POST \/api\/v1\/namespaces\/default\/pods/.test(e.result));
    assert.equal(waits.length, c.waits);
    if (c.waits > 0) {
      assert.equal(waits[0]!.result, 'replicaset-controller\'s client waits 50ms before it sends POST /api/v1/namespaces/default/pods: its rate limiter allows 20 requests a second after a burst of 30 (--kube-api-qps, --kube-api-burst)');
      assert.deepEqual(waits[0]!.detail, { delay: '50ms', reason: 'client-side throttling, not priority and fairness', verb: 'POST', path: '/api/v1/namespaces/default/pods', qps: 20, burst: 30 });
    }
  });
}

test('work queue: a ReplicaSet is never synced twice at once: its status is written once all the waiting creates are done', () => {
  const sim = run(100);
  const rsEntries = sim.trace.filter((e) => e.phase === 'controllers.replicaset' && e.object?.startsWith('ReplicaSet/'));
  const firstStatus = rsEntries.find((e) => /^status: /.test(e.result));
  // The status PUT takes its token after the 85 waiting creates: 4.75 s, then waits 50 ms itself.
  assert.equal(firstStatus?.at, 4.8);
  assert.match(firstStatus?.result ?? '', /^status: 100 replicas/);
  assert.equal(rsEntries.filter((e) => /^\d+ of \d+ pods exist: creating/.test(e.result)).length, 1);
});

// A run without --for goes until the workload settles, at most its time limit (10 minutes; a shorter maxMs here): one
// cut while the ReplicaSet's creates still wait for their client says it stopped short, and which controller was at
// work, rather than leaving the workload Pending for no reason of its own.
const limitCases: { name: string; replicas: number; options: SimulationOptions; outcome: string; stopped?: unknown }[] = [
  { name: 'cut at 2 s, 100 replicas still being created', replicas: 100, options: { maxMs: 2_000 }, outcome: 'Pending', stopped: { budget: 'time', limit: 2, busy: ['replicaset-controller'] } },
  { name: 'settled well before its limit', replicas: 100, options: {}, outcome: 'Running' },
  { name: '--for 2s: the time given ran out, nothing stopped short', replicas: 100, options: { forMs: 2_000 }, outcome: 'Pending' },
];
for (const c of limitCases) {
  test(`time limit: ${c.name}`, () => {
    const result = run(c.replicas, c.options).result();
    assert.equal(result.outcome, c.outcome);
    assert.deepEqual(result.stopped, c.stopped);
  });
}

test('time limit: every front says it the same way', () => {
  assert.equal(budgetReached({ budget: 'time', limit: 600, busy: ['replicaset-controller'] }),
    'the run reached its time limit of 10 minutes of virtual time before the workload settled: replicaset-controller still at work');
  assert.equal(budgetReached({ budget: 'time', limit: 90, busy: ['replicaset-controller', 'job-controller'] }),
    'the run reached its time limit of 90 seconds of virtual time before the workload settled: replicaset-controller, job-controller still at work');
});

// A ClusterProfile's controllerManager sets the manager's flags: a big cluster's raised limit, none (below 0), or 0,
// with which each API group's client of a controller makes client-go's default limiter (5 a second, a burst of 10):
// the pods' creates and their Events share the core/v1 client's (5 creates and 5 Events at once; then each batch's
// creates 200 ms apart, the Events of its pods after them; the last batch's Events come after its last create, at 7 s).
const flagCases: { name: string; flags: ControllerManagerFlags; replicas: number; lastAt: number; waits: number; firstWait?: string }[] = [
  { name: '--kube-api-qps 100 --kube-api-burst 200: 100 replicas and their Events within the burst', flags: { kubeAPIQPS: 100, kubeAPIBurst: 200 }, replicas: 100, lastAt: 0, waits: 0 },
  { name: '--kube-api-qps -1: no limit', flags: { kubeAPIQPS: -1, kubeAPIBurst: 30 }, replicas: 100, lastAt: 0, waits: 0 },
  {
    name: '--kube-api-qps 0: client-go\'s 5 a second after 10 for the core/v1 client', flags: { kubeAPIQPS: 0, kubeAPIBurst: 0 }, replicas: 30, lastAt: 7, waits: 25,
    firstWait: 'replicaset-controller\'s client waits 200ms before it sends POST /api/v1/namespaces/default/pods: its rate limiter allows 5 requests a second after a burst of 10 (client-go\'s defaults for its v1 client, as --kube-api-qps is 0)',
  },
];
for (const c of flagCases) {
  test(`controller manager flags: ${c.name}`, () => {
    const sim = run(c.replicas, { forMs: 30_000 }, c.flags);
    const creates = sim.trace.filter((e) => e.phase === 'etcd.persist' && e.object?.startsWith('Pod/') && /^stored Pod/.test(e.result));
    assert.equal(creates.length, c.replicas);
    assert.equal(creates.at(-1)?.at, c.lastAt);
    const waits = sim.trace.filter((e) => e.phase === 'controllers.replicaset' && e.outcome === 'waiting');
    assert.equal(waits.length, c.waits);
    if (c.firstWait) assert.equal(waits[0]?.result, c.firstWait);
  });
}
