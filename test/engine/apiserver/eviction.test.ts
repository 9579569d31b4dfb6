// The eviction subresource served by the engine's API server after a whole run: an eviction a budget allows (201
// Success, one disruption taken, the pod recorded in disruptedPods, the DisruptionTarget condition, the pod deleted),
// refused (429 with the budget's cause), two budgets (500), a pod not running yet, an unready pod under IfHealthyBudget
// and AlwaysAllow, a dry run, and the request's own errors (404, 403, 400). See
// pkg/registry/core/pod/storage/eviction.go at v1.36.3. The Status bodies marked "reference" are the ones
// kube-apiserver v1.36.3 answered to the same requests (`kubectl create --raw .../eviction -v=9`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PodDisruptionBudget } from '../../../src/engine/api/pod-disruption-budget';
import type { Pod } from '../../../src/engine/api/types';
import type { ApiOutcome } from '../../../src/engine/apiserver/server';
import { credentialsFor } from '../../../src/engine/kubectl/credentials';
import { entriesOf, type StepYield, type Steps } from '../../../src/engine/runtime/step';
import type { Simulation } from '../../../src/engine/simulation';
import { budget, deployment, simulate } from '../../support/budgets';

/** STEPS are the steps the last request yielded, as the trace would record them. */
let STEPS: StepYield[] = [];

/** drive runs a request's steps to their end (an eviction does not wait), keeping them in STEPS. */
function drive(gen: Steps<ApiOutcome>): ApiOutcome {
  STEPS = [];
  for (;;) {
    const r = gen.next();
    if (r.done) return r.value;
    STEPS.push(r.value);
  }
}

/** evict POSTs an Eviction of the pod as `who` (the cluster admin by default). */
function evict(sim: Simulation, pod: string, opts: { as?: string; urlName?: string; deleteOptions?: Record<string, unknown> } = {}): ApiOutcome {
  const credentials = credentialsFor(opts.as ? { kind: 'impersonate', user: opts.as, groups: [] } : { kind: 'default' });
  const name = opts.urlName ?? pod;
  const object = { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: pod, namespace: 'default' }, ...(opts.deleteOptions ? { deleteOptions: opts.deleteOptions } : {}) };
  return drive(sim.api.serve({
    verb: 'create', method: 'POST', path: `/api/v1/namespaces/default/pods/${name}/eviction`, apiVersion: 'policy/v1', kind: 'Eviction', group: '',
    resource: 'pods', subresource: 'eviction', namespace: 'default', name, object, credentials,
  }, `Pod/default/${name}`));
}

const webPods = (sim: Simulation): Pod[] => sim.store.list<Pod>('Pod', 'default').filter((p) => p.metadata?.labels?.['app'] === 'web');
const statusBody = (out: ApiOutcome) => JSON.stringify(out.ok ? out.object : out.error.status);
const selectWeb = '  selector: {matchLabels: {app: web}}\n';

test('eviction allowed: 201 Success, disruptionsAllowed 1 → 0 with the pod in disruptedPods, DisruptionTarget, then the graceful delete', () => {
  const sim = simulate(deployment() + budget(`  minAvailable: 2\n${selectWeb}`));
  const pod = webPods(sim)[0]!;
  const name = pod.metadata!.name!;
  const out = evict(sim, name);
  assert.equal(out.ok && out.code, 201);
  assert.equal(statusBody(out), '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success","code":201}');
  const pdb = sim.store.get<PodDisruptionBudget>('PodDisruptionBudget', 'default', 'web')!;
  const now = sim.clock.timestamp();
  assert.deepEqual(pdb.status!.disruptedPods, { [name]: now });
  assert.equal(pdb.status!.disruptionsAllowed, 0);
  assert.deepEqual(pdb.status!.conditions!.map((c) => [c.type, c.status, c.reason, c.message]), [['DisruptionAllowed', 'False', 'InsufficientPods', '']]);
  const evicted = sim.store.get<Pod>('Pod', 'default', name)!;
  const condition = evicted.status!.conditions!.find((c) => c.type === 'DisruptionTarget')!;
  assert.deepEqual(condition, { type: 'DisruptionTarget', status: 'True', lastProbeTime: null, lastTransitionTime: now, reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting' });
  assert.equal(evicted.metadata!.deletionGracePeriodSeconds, 30);
  assert.deepEqual(STEPS.flatMap(entriesOf).flatMap((e) => (e.phase === 'apiserver.evict' ? [e.result] : [])), [
    `PodDisruptionBudget web allows 1 disruption(s): disruptionsAllowed 1 → 0, disruptedPods[${name}] recorded`,
    'DisruptionTarget True (EvictionByEvictionAPI: "Eviction API: evicting") added to the pod\'s status, then the pod is deleted',
  ]);
});

const refusals = [
  {
    name: 'a budget that needs every pod refuses with 429 and its cause (reference)',
    manifest: deployment(2) + budget(`  minAvailable: 2\n${selectWeb}`),
    body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Cannot evict pod as it would violate the pod\'s disruption budget.","reason":"TooManyRequests","details":{"causes":[{"reason":"DisruptionBudget","message":"The disruption budget web needs 2 healthy pods and has 2 currently"}]},"code":429}',
  },
  {
    name: 'a pod two budgets select gets a 500 Status with no reason (reference)',
    manifest: deployment() + budget(`  minAvailable: 2\n${selectWeb}`) + budget(`  maxUnavailable: 50%\n${selectWeb}`, 'web2'),
    body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.","code":500}',
  },
];

for (const c of refusals) {
  test(`eviction refused: ${c.name}; the pod and the budget are left as they were`, () => {
    const sim = simulate(c.manifest);
    const pod = webPods(sim)[0]!;
    const before = sim.store.get<PodDisruptionBudget>('PodDisruptionBudget', 'default', 'web')!.metadata!.resourceVersion;
    const out = evict(sim, pod.metadata!.name!);
    assert.equal(out.ok, false);
    assert.equal(statusBody(out), c.body);
    const after = sim.store.get<Pod>('Pod', 'default', pod.metadata!.name!)!;
    assert.equal(after.metadata!.deletionTimestamp, undefined);
    assert.equal(after.status!.conditions!.some((cond) => cond.type === 'DisruptionTarget'), false);
    assert.equal(sim.store.get<PodDisruptionBudget>('PodDisruptionBudget', 'default', 'web')!.metadata!.resourceVersion, before);
  });
}

const requestErrors = [
  { name: 'a pod that does not exist: 404 (reference)', pod: 'nope', opts: {}, body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods \\"nope\\" not found","reason":"NotFound","details":{"name":"nope","kind":"pods"},"code":404}' },
  {
    name: 'a user RBAC does not let create pods/eviction: 403 naming the subresource (reference)', pod: 'nope', opts: { as: 'bob' },
    body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods \\"nope\\" is forbidden: User \\"bob\\" cannot create resource \\"pods/eviction\\" in API group \\"\\" in the namespace \\"default\\"","reason":"Forbidden","details":{"name":"nope","kind":"pods"},"code":403}',
  },
  { name: 'a URL that names another pod: 400 (reference)', pod: 'nope', opts: { urlName: 'other' }, body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"name in URL does not match name in Eviction object","reason":"BadRequest","code":400}' },
];

for (const c of requestErrors) {
  test(`eviction request error: ${c.name}`, () => {
    const sim = simulate(deployment(1));
    assert.equal(statusBody(evict(sim, c.pod, c.opts)), c.body);
  });
}

test('eviction of a pod not yet running (Pending): deleted without asking its budget, even one that allows nothing', () => {
  const pending = deployment(1).replace('containers:', 'nodeSelector: {disk: none}\n      containers:');
  const sim = simulate(pending + budget(`  minAvailable: 5\n${selectWeb}`));
  const pod = webPods(sim)[0]!;
  assert.equal(pod.status!.phase, 'Pending');
  const out = evict(sim, pod.metadata!.name!);
  assert.equal(out.ok, true);
  // Never scheduled: the grace period is 0 and the pod is removed at once.
  assert.equal(sim.store.get('Pod', 'default', pod.metadata!.name!), undefined);
  assert.equal(sim.store.get<PodDisruptionBudget>('PodDisruptionBudget', 'default', 'web')!.status!.disruptedPods, undefined);
});

const notReady = `---
apiVersion: podlifecycle.debug/v1alpha1
kind: Behavior
containers:
  app: {readyAfterSeconds: 100000}
`;
const probed = deployment().replace('image: "nginx:1.27"}', 'image: "nginx:1.27", readinessProbe: {httpGet: {port: 80}}}');

const unready = [
  {
    name: 'IfHealthyBudget (the default) with the budget short of healthy pods: 429, the budget needs 3 and has 0',
    spec: `  minAvailable: 3\n${selectWeb}`, ok: false,
    cause: 'The disruption budget web needs 3 healthy pods and has 0 currently',
  },
  { name: 'AlwaysAllow: an unready pod goes without taking a disruption', spec: `  minAvailable: 3\n  unhealthyPodEvictionPolicy: AlwaysAllow\n${selectWeb}`, ok: true },
];

for (const c of unready) {
  test(`eviction of an unready pod: ${c.name}`, () => {
    const sim = simulate(probed + budget(c.spec) + notReady);
    const pod = webPods(sim)[0]!;
    assert.equal(pod.status!.phase, 'Running');
    const out = evict(sim, pod.metadata!.name!);
    assert.equal(out.ok, c.ok);
    if (!out.ok) assert.equal(out.error.status.details!.causes![0]!.message, c.cause);
    else assert.equal(sim.store.get<PodDisruptionBudget>('PodDisruptionBudget', 'default', 'web')!.status!.disruptionsAllowed, 0);
  });
}

test('eviction dry run (deleteOptions.dryRun [All]): Success, and nothing written', () => {
  const sim = simulate(deployment() + budget(`  minAvailable: 2\n${selectWeb}`));
  const name = webPods(sim)[0]!.metadata!.name!;
  const rv = sim.store.resourceVersion;
  const out = evict(sim, name, { deleteOptions: { dryRun: ['All'] } });
  assert.equal(statusBody(out), '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success","code":201}');
  assert.equal(sim.store.resourceVersion, rv);
});
