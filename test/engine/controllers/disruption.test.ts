// The disruption controller in whole engine runs: a PodDisruptionBudget's status from minAvailable or maxUnavailable
// (an int or a percentage, rounded up) over a Deployment of 3, the scale of the pods' controllers, the DisruptionAllowed
// condition, its events (NoPods, UnmanagedPods, CalculateExpectedPodCountFailed) and the failed sync's SyncFailed. See
// pkg/controller/disruption/disruption.go at v1.36.3. The status shapes were checked against kube-controller-manager
// v1.36.3 (a Deployment of 3 with minAvailable 2: expectedPods 3, desiredHealthy 2, disruptionsAllowed 1 once the pods
// are Ready; maxUnavailable 50%: desiredHealthy 1; the NoPods event from source "controllermanager").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PodDisruptionBudget } from '../../../src/engine/api/pod-disruption-budget';
import type { Pod } from '../../../src/engine/api/types';
import { DELETION_TIMEOUT_MS, syncPodDisruptionBudget } from '../../../src/engine/controllers/disruption';
import { evaluateConsole } from '../../../src/engine/console';
import type { Simulation } from '../../../src/engine/simulation';
import { budget, deployment, simulate } from '../../support/budgets';

const selectWeb = '  selector: {matchLabels: {app: web}}\n';

/** statusOf is the budget's status with its condition's lastTransitionTime left out. */
function statusOf(sim: Simulation, name = 'web'): Record<string, unknown> {
  const pdb = sim.store.get<PodDisruptionBudget>('PodDisruptionBudget', 'default', name)!;
  const { conditions, ...rest } = pdb.status!;
  return { ...rest, conditions: (conditions ?? []).map(({ lastTransitionTime: _t, ...c }) => c) };
}

const allowed = (n: number) => ({ type: 'DisruptionAllowed', status: n > 0 ? 'True' : 'False', observedGeneration: 1, reason: n > 0 ? 'SufficientPods' : 'InsufficientPods', message: '' });
const status = (expectedPods: number, desiredHealthy: number, currentHealthy: number, disruptionsAllowed: number) => ({
  observedGeneration: 1, disruptionsAllowed, currentHealthy, desiredHealthy, expectedPods, conditions: [allowed(disruptionsAllowed)],
});

const statusCases = [
  { name: 'minAvailable 2: expectedPods is the pods selected, one disruption allowed', spec: `  minAvailable: 2\n${selectWeb}`, want: status(3, 2, 3, 1) },
  { name: 'minAvailable 3: every pod is needed, none may go', spec: `  minAvailable: 3\n${selectWeb}`, want: status(3, 3, 3, 0) },
  { name: 'minAvailable 5: more than there are, none may go', spec: `  minAvailable: 5\n${selectWeb}`, want: status(3, 5, 3, 0) },
  { name: 'minAvailable 50%: of the Deployment\'s 3 replicas, rounded up to 2', spec: `  minAvailable: "50%"\n${selectWeb}`, want: status(3, 2, 3, 1) },
  { name: 'minAvailable 67%: 2.01 rounds up to 3, none may go', spec: `  minAvailable: "67%"\n${selectWeb}`, want: status(3, 3, 3, 0) },
  { name: 'maxUnavailable 1: desiredHealthy is the scale less one', spec: `  maxUnavailable: 1\n${selectWeb}`, want: status(3, 2, 3, 1) },
  { name: 'maxUnavailable 34%: 1.02 rounds up to 2 unavailable, desiredHealthy 1', spec: `  maxUnavailable: "34%"\n${selectWeb}`, want: status(3, 1, 3, 2) },
  { name: 'maxUnavailable 50%: rounds up to 2, desiredHealthy 1 (as kube-controller-manager 1.36 wrote it)', spec: `  maxUnavailable: "50%"\n${selectWeb}`, want: status(3, 1, 3, 2) },
  { name: 'maxUnavailable 100%: every pod may go', spec: `  maxUnavailable: "100%"\n${selectWeb}`, want: status(3, 0, 3, 3) },
  { name: 'maxUnavailable 5: more than the scale, desiredHealthy stays 0', spec: `  maxUnavailable: 5\n${selectWeb}`, want: status(3, 0, 3, 3) },
  { name: 'an empty selector selects every pod of the namespace (policy/v1)', spec: '  minAvailable: 2\n  selector: {}\n', want: status(3, 2, 3, 1) },
  { name: 'no selector selects nothing: expectedPods 0, so no disruption is allowed', spec: '  minAvailable: 0\n', want: status(0, 0, 0, 0) },
];

for (const c of statusCases) {
  test(`disruption controller: ${c.name}`, () => {
    const sim = simulate(deployment() + budget(c.spec));
    assert.deepEqual(statusOf(sim), c.want);
    assert.equal(sim.result().outcome, 'Running');
  });
}

test('disruption controller: a budget alone is no workload: Succeeded once stored, with its NoPods event from "controllermanager"', () => {
  const sim = simulate(budget(`  minAvailable: 1\n${selectWeb}`).replace(/^---\n/, ''));
  assert.equal(sim.result().outcome, 'Succeeded');
  assert.equal(sim.result().workloads, undefined);
  assert.deepEqual(statusOf(sim), status(0, 1, 0, 0));
  assert.deepEqual(sim.events.filter((e) => e.object === 'PodDisruptionBudget/default/web').map((e) => [e.type, e.reason, e.source, e.message]), [['Normal', 'NoPods', 'controllermanager', 'No matching pods found']]);
});

test('disruption controller: the trace says how the numbers came, in phase controllers.disruption', () => {
  const sim = simulate(deployment() + budget(`  minAvailable: 2\n${selectWeb}`));
  const last = sim.trace.filter((e) => e.phase === 'controllers.disruption').at(-1)!;
  assert.equal(last.object, 'PodDisruptionBudget/default/web');
  assert.equal(last.field, 'spec.minAvailable');
  assert.equal(last.result, 'minAvailable 2: 3 pod(s) selected, expectedPods 3, desiredHealthy 2, currentHealthy 3: disruptionsAllowed 1 (DisruptionAllowed True SufficientPods)');
});

const bare = (name: string, labels = 'app: web') => `---
apiVersion: v1
kind: Pod
metadata: {name: ${name}, labels: {${labels}}}
spec:
  containers: [{name: app, image: "nginx:1.27"}]
`;

const daemonSet = `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      containers: [{name: agent, image: "busybox:1.36", command: [sleep, "3600"]}]
`;

const failures = [
  {
    name: 'a bare pod under maxUnavailable is unmanaged: a Warning naming the selector as Go prints it, and no controller to expect pods of',
    manifest: bare('solo') + budget(`  maxUnavailable: 1\n${selectWeb}`),
    events: [['Warning', 'UnmanagedPods', 'Pods selected by this PodDisruptionBudget (selector: &LabelSelector{MatchLabels:map[string]string{app: web,},MatchExpressions:[]LabelSelectorRequirement{},}) were found to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. To account for these pods please set ".spec.minAvailable" field of the PDB to an integer value.']],
    want: status(0, 0, 1, 0),
  },
  {
    name: 'DaemonSet pods under a percentage: the DaemonSet has no scale subresource, the sync fails safe with SyncFailed',
    manifest: daemonSet + budget('  minAvailable: "50%"\n  selector: {matchLabels: {app: agent}}\n', 'agent'),
    pdb: 'agent',
    events: [['Warning', 'CalculateExpectedPodCountFailed', 'Failed to calculate the number of expected pods: daemonsets.apps does not implement the scale subresource']],
    want: {
      disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0,
      conditions: [{ type: 'DisruptionAllowed', status: 'False', reason: 'SyncFailed', message: 'daemonsets.apps does not implement the scale subresource' }],
    },
  },
];

for (const c of failures) {
  test(`disruption controller: ${c.name}`, () => {
    const sim = simulate(c.manifest);
    const name = c.pdb ?? 'web';
    const events = sim.events.filter((e) => e.object === `PodDisruptionBudget/default/${name}` && e.type === 'Warning');
    assert.deepEqual([...new Set(events.map((e) => JSON.stringify([e.type, e.reason, e.message])))].map((e) => JSON.parse(e) as string[]), c.events);
    assert.deepEqual(statusOf(sim, name), c.want);
  });
}

/** drive runs a sync's steps to their end and returns its result. */
function drive<R>(gen: Generator<unknown, R, void>): R {
  for (;;) {
    const r = gen.next();
    if (r.done) return r.value;
  }
}

test('disruption controller: an eviction recorded over 2 minutes ago whose pod is not being deleted is dropped, with NotDeleted on the pod; a recent one is kept and rechecked', () => {
  const sim = simulate(deployment() + budget(`  minAvailable: 1\n${selectWeb}`));
  const [old, recent] = sim.store.list<Pod>('Pod', 'default').map((p) => p.metadata!.name!);
  const now = sim.ctx.clock.epoch.getTime() + sim.ctx.clock.now;
  const stamp = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
  sim.store.update<PodDisruptionBudget>('PodDisruptionBudget', 'default', 'web', (o) => {
    o.status = { ...o.status!, disruptedPods: { [old!]: stamp(now - DELETION_TIMEOUT_MS - 1000), [recent!]: stamp(now) } };
  });
  const r = drive(syncPodDisruptionBudget(sim.ctx, 'default', 'web'));
  assert.deepEqual(r, { recheckAfter: DELETION_TIMEOUT_MS - (now % 1000) });
  const status = sim.store.get<PodDisruptionBudget>('PodDisruptionBudget', 'default', 'web')!.status!;
  assert.deepEqual(status.disruptedPods, { [recent!]: stamp(now) });
  // The recent one counts as already gone: 2 of 3 healthy.
  assert.deepEqual([status.currentHealthy, status.disruptionsAllowed], [2, 1]);
  assert.deepEqual(sim.events.filter((e) => e.reason === 'NotDeleted').map((e) => [e.object, e.type, e.message]),
    [[`Pod/default/${old}`, 'Warning', "Pod was expected by PDB default/default to be deleted but it wasn't"]]);
});

test('disruption controller: a selector that does not parse fails the sync: Warning NoPods "Failed to get pods", and SyncFailed', () => {
  // The API server refuses such a budget (ValidateLabelSelector, pkg/apis/policy/validation): one can only be met
  // stored from before, as here, written to the store past validation.
  const sim = simulate(budget(`  minAvailable: 1\n${selectWeb}`).replace(/^---\n/, ''));
  sim.store.update<PodDisruptionBudget>('PodDisruptionBudget', 'default', 'web', (o) => {
    o.spec = { ...o.spec, selector: { matchExpressions: [{ key: 'app', operator: 'Within', values: ['web'] }] } };
  });
  drive(syncPodDisruptionBudget(sim.ctx, 'default', 'web'));
  assert.deepEqual(sim.events.filter((e) => e.type === 'Warning').map((e) => [e.reason, e.message])[0], ['NoPods', 'Failed to get pods: "Within" is not a valid label selector operator']);
  // failSafe keeps the observedGeneration of the budget's last good sync.
  assert.deepEqual(statusOf(sim).conditions, [{ type: 'DisruptionAllowed', status: 'False', observedGeneration: 1, reason: 'SyncFailed', message: '"Within" is not a valid label selector operator' }]);
});

test('disruption controller: the API server refuses a budget whose selector operator is not one', () => {
  const sim = simulate(budget('  minAvailable: 1\n  selector: {matchExpressions: [{key: app, operator: Within, values: [web]}]}\n').replace(/^---\n/, ''));
  const result = sim.result();
  assert.equal(result.outcome, 'Rejected');
  assert.equal(result.rejection?.message, 'PodDisruptionBudget.policy "web" is invalid: spec.selector.matchExpressions[0].operator: Invalid value: "Within": not a valid selector operator');
});

test('disruption controller: with two budgets over the same pods, only the first is synced on their changes; kubectl get pdb shows both', () => {
  const sim = simulate(deployment() + budget(`  minAvailable: 2\n${selectWeb}`) + budget(`  maxUnavailable: "50%"\n${selectWeb}`, 'half'));
  const got = evaluateConsole(sim, 'kubectl get pdb');
  assert.ok(!got.error);
  // getPdbForPod enqueues pdbs[0] alone ("Chose ... arbitrarily"): `web` kept the status of its own last sync, made
  // before its pods were Ready. The run lasts until the Deployment's progress deadline check is past its 10 minutes.
  assert.equal(got.output, [
    'NAME   MIN AVAILABLE   MAX UNAVAILABLE   ALLOWED DISRUPTIONS   AGE',
    'half   N/A             50%               2                     10m',
    'web    2               N/A               0                     10m',
  ].join('\n'));
  assert.ok(sim.events.some((e) => e.reason === 'MultiplePodDisruptionBudgets' && e.message.endsWith('matches multiple PodDisruptionBudgets.  Chose "half" arbitrarily.')));
});
