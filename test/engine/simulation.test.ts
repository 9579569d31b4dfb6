// Whole runs of the engine, in-process: outcomes, Kubernetes' messages and virtual timings for small manifests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../src/engine/api/types';
import { embeddedCluster } from '../../src/engine/cluster/files';
import { defaultProfile, type Identity } from '../../src/engine/cluster/inputs';
import { loadInputs } from '../../src/engine/cluster/loader';
import { Simulation, type SimulationOptions } from '../../src/engine/simulation';

function simulate(manifest: string, options: SimulationOptions = {}, identity: Identity = { kind: 'default' }): Simulation {
  const inputs = loadInputs({ manifest: { file: 'pod.yaml', text: manifest }, clusters: [], identity });
  inputs.cluster.objects.unshift(...embeddedCluster());
  inputs.cluster.profile = defaultProfile();
  const sim = new Simulation(inputs, options);
  sim.run();
  return sim;
}

const pod = (spec: string, extra = '') => `apiVersion: v1
kind: Pod
metadata:
  name: web
${extra}spec:
${spec}`;

const nginx = '  containers:\n    - name: app\n      image: nginx:1.27\n';

const cases: { name: string; manifest: string; options?: SimulationOptions; identity?: Identity; outcome: string; kubectl?: string; event?: { reason: string; message: string; at?: number } }[] = [
  {
    name: 'a plain pod runs on a worker after its image is pulled',
    manifest: pod(nginx), outcome: 'Running', kubectl: 'pod/web created',
    // "Container started" (since 1.35, #134043): pkg/kubelet/kuberuntime/kuberuntime_container.go (startContainer), v1.36.3.
    event: { reason: 'Started', message: 'Container started', at: 2 },
  },
  {
    name: 'a pod that asks for more cpu than any node has stays Pending with the scheduler\'s message',
    manifest: pod(`${nginx}      resources:\n        requests:\n          cpu: "64"\n`), outcome: 'Pending',
    // A request above every node's allocatable cannot be helped by preemption; DynamicResources' PostFilter speaks first.
    event: { reason: 'FailedScheduling', message: '0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu. no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.' },
  },
  {
    name: 'a pod in a namespace that does not exist is refused by NamespaceLifecycle',
    manifest: pod(nginx, '  namespace: dev\n'), outcome: 'Rejected',
    kubectl: 'Error from server (NotFound): error when creating "pod.yaml": namespaces "dev" not found',
  },
  {
    // kubectl's first request is the OpenAPI index (--validate=strict); system:anonymous may not read /openapi/*, and
    // client-go's Raw() reads the 403's JSON body as "unknown". See kubectl/discovery.ts.
    name: 'an anonymous request is forbidden the OpenAPI documents, and kubectl cannot validate',
    manifest: pod(nginx), identity: { kind: 'anonymous' }, outcome: 'Rejected',
    kubectl: 'error: error validating "pod.yaml": error validating data: failed to download openapi: unknown; if you choose to ignore these errors, turn validation off with --validate=false',
  },
  {
    name: 'an unknown token is unauthorized on kubectl\'s first request, the OpenAPI download',
    manifest: pod(nginx), identity: { kind: 'token', token: 'nope' }, outcome: 'Rejected',
    kubectl: 'error: error validating "pod.yaml": error validating data: failed to download openapi: the server has asked for the client to provide credentials; if you choose to ignore these errors, turn validation off with --validate=false',
  },
  {
    name: 'a container that exits 0 under restartPolicy Never completes the pod',
    manifest: `${pod(`  restartPolicy: Never\n${nginx}`)}---\napiVersion: podlifecycle.debug/v1alpha1\nkind: Behavior\ncontainers:\n  app: {exitAfterSeconds: 5}\n`,
    outcome: 'Succeeded',
  },
  {
    name: 'a container that exits 1 under restartPolicy Never fails the pod',
    manifest: `${pod(`  restartPolicy: Never\n${nginx}`)}---\napiVersion: podlifecycle.debug/v1alpha1\nkind: Behavior\ncontainers:\n  app: {exitAfterSeconds: 5, exitCode: 1}\n`,
    outcome: 'Failed',
  },
  {
    name: 'an image that does not exist leaves the pod Pending in ImagePullBackOff, retried after 10 s, 20 s, 40 s',
    manifest: `${pod(nginx)}---\napiVersion: podlifecycle.debug/v1alpha1\nkind: Behavior\nimages:\n  "nginx:1.27": {exists: false}\n`,
    options: { forMs: 120_000 }, outcome: 'Pending',
    event: { reason: 'Pulling', message: 'Pulling image "nginx:1.27"' },
  },
  {
    name: 'deletion waits for a container that ignores SIGTERM until the grace period ends',
    manifest: `${pod(`  terminationGracePeriodSeconds: 10\n${nginx}`)}---\napiVersion: podlifecycle.debug/v1alpha1\nkind: Behavior\ncontainers:\n  app: {sigtermSeconds: never}\n`,
    options: { delete: {} }, outcome: 'Deleted', kubectl: 'pod/web created\npod "web" deleted from default namespace',
    event: { reason: 'Killing', message: 'Stopping container app', at: 2 },
  },
  {
    name: 'a forced deletion with a grace period of 0 is printed as force deleted',
    manifest: pod(nginx), options: { delete: { gracePeriodSeconds: 0, force: true } }, outcome: 'Deleted',
    kubectl: 'pod/web created\nWarning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.\npod "web" force deleted from default namespace',
  },
];

test('a failed pull is retried at the first sync after its back-off of 10 s, 20 s, then 40 s', () => {
  // The image back-off (10 s doubling) only says when a pull may come again; the pull comes with the next sync, which
  // the pod worker requeues 10 to 15 s after each failed one (pod_workers.go completeWork, wait.Jitter(10s, 0.5)).
  const sim = simulate(`${pod(nginx)}---\napiVersion: podlifecycle.debug/v1alpha1\nkind: Behavior\nimages:\n  "nginx:1.27": {exists: false}\n`, { forMs: 120_000 });
  const pulls = sim.trace.filter((e) => e.phase === 'kubelet.imagePull' && e.result.startsWith('app: pulling')).map((e) => e.at);
  const failures = sim.trace.filter((e) => e.phase === 'kubelet.imagePull' && e.result.startsWith('ErrImagePull')).map((e) => e.at);
  assert.ok(pulls.length >= 4, `pulls at ${pulls.join(', ')}`);
  [10, 20, 40].forEach((backoff, i) => {
    const gap = pulls[i + 1]! - failures[i]!;
    assert.ok(gap >= backoff && gap <= backoff + 15, `pull ${i + 2} came ${gap}s after the failure before it, with a back-off of ${backoff}s`);
  });
});

for (const c of cases) {
  test(c.name, () => {
    const sim = simulate(c.manifest, c.options, c.identity);
    const result = sim.result();
    assert.equal(result.outcome, c.outcome, result.kubectl);
    if (c.kubectl !== undefined) assert.equal(result.kubectl, c.kubectl);
    if (c.event) {
      const ev = result.events.find((e) => e.reason === c.event!.reason);
      assert.ok(ev, `event ${c.event.reason} recorded`);
      assert.equal(ev.message, c.event.message);
      if (c.event.at !== undefined) assert.equal(ev.at, c.event.at);
    }
  });
}

test('a failed pull reports the runtime\'s error and the back-off on the container', () => {
  const sim = simulate(`${pod(nginx)}---\napiVersion: podlifecycle.debug/v1alpha1\nkind: Behavior\nimages:\n  "nginx:1.27": {exists: false}\n`, { forMs: 20_000 });
  const messages = sim.result().events.map((e) => `${e.type} ${e.reason}: ${e.message}`);
  assert.deepEqual(messages.slice(2), [
    'Warning Failed: Failed to pull image "nginx:1.27": rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:1.27": failed to resolve reference "docker.io/library/nginx:1.27": docker.io/library/nginx:1.27: not found',
    'Warning Failed: Error: ErrImagePull',
    'Normal BackOff: Back-off pulling image "nginx:1.27"',
    'Warning Failed: Error: ImagePullBackOff',
  ]);
  // The status shows the back-off from the sync after the one that found it, 10 to 15 s later (kubelet.go SyncPod).
  const waiting = sim.store.get<Pod>('Pod', 'default', 'web')?.status?.containerStatuses?.[0]?.state?.waiting;
  assert.equal(waiting?.reason, 'ImagePullBackOff');
  assert.match(waiting?.message ?? '', /^Back-off pulling image "nginx:1\.27": ErrImagePull: rpc error: code = NotFound/);
});

test('a running pod has the conditions, IP and container state the kubelet reports', () => {
  const sim = simulate(pod(nginx));
  const stored = sim.store.get<Pod>('Pod', 'default', 'web')!;
  assert.deepEqual(stored.status?.conditions?.map((c) => `${c.type}=${c.status}`), ['PodReadyToStartContainers=True', 'Initialized=True', 'Ready=True', 'ContainersReady=True', 'PodScheduled=True']);
  assert.match(stored.status?.podIP ?? '', /^10\.244\.[12]\.2$/);
  assert.equal(stored.status?.qosClass, 'BestEffort');
  const c = stored.status?.containerStatuses?.[0];
  assert.equal(c?.image, 'docker.io/library/nginx:1.27');
  assert.ok(c?.state?.running?.startedAt);
  assert.equal(stored.spec?.serviceAccountName, 'default');
  assert.match(stored.spec?.volumes?.[0]?.name ?? '', /^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  assert.deepEqual(stored.spec?.tolerations?.map((t) => `${t.key}:${t.effect}:${t.tolerationSeconds}`), ['node.kubernetes.io/not-ready:NoExecute:300', 'node.kubernetes.io/unreachable:NoExecute:300']);
  assert.ok(stored.metadata?.annotations?.['kubectl.kubernetes.io/last-applied-configuration']?.startsWith('{"apiVersion":"v1","kind":"Pod","metadata":{"annotations":{},"name":"web","namespace":"default"}'));
});

test('stepping pauses at every trace entry and snapshots the store there', () => {
  const inputs = loadInputs({ manifest: { file: 'pod.yaml', text: pod(nginx) }, clusters: [], identity: { kind: 'default' } });
  inputs.cluster.objects.unshift(...embeddedCluster());
  const sim = new Simulation(inputs, { snapshots: true });
  const persisted = sim.runUntil((e) => e.phase === 'etcd.persist');
  assert.ok(persisted);
  assert.equal(sim.snapshot(persisted.seq).filter((o) => o.kind === 'Pod').length, 1);
  assert.equal(sim.snapshot(persisted.seq - 1).filter((o) => o.kind === 'Pod').length, 0);
  const bound = sim.runUntil((e) => e.phase === 'scheduler.bind');
  assert.ok(bound && bound.seq > persisted.seq);
  sim.run();
  assert.ok(sim.finished);
  assert.equal(sim.step(), undefined);
});
