// The pure rules of deletion and termination: the API server's grace period, kubectl's, the pod worker's, the kill
// plan of killContainer (with sidecars), the node monitor's timing, the taint eviction's delay, and the Behavior fields.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod, Taint, Toleration } from '../../../src/engine/api/types';
import { podGracePeriod } from '../../../src/engine/apiserver/delete';
import { parseDocuments } from '../../../src/engine/cluster/loader';
import { parseBehavior } from '../../../src/engine/cluster/own-kinds';
import { lastHeartbeatAt, unknownAt } from '../../../src/engine/controllers/node-lifecycle';
import { evictionDelay } from '../../../src/engine/controllers/taint-eviction';
import { kubectlGracePeriod } from '../../../src/engine/kubectl/apply';
import { effectiveGracePeriod, type KillInput, planKill } from '../../../src/engine/kubelet/terminate';

const makePod = (spec: Partial<NonNullable<Pod['spec']>>, phase?: string, meta: Partial<NonNullable<Pod['metadata']>> = {}): Pod =>
  ({ metadata: { name: 'web', ...meta }, spec: { containers: [], ...spec }, ...(phase ? { status: { phase } } : {}) }) as Pod;

// pkg/registry/core/pod/strategy.go CheckGracefulDelete, after rest/delete.go BeforeDelete turned a negative request into 1.
const graceCases = [
  { name: 'the spec\'s terminationGracePeriodSeconds when the request gives none', pod: makePod({ nodeName: 'w', terminationGracePeriodSeconds: 45 }), requested: undefined, want: 45 },
  { name: 'the request\'s grace period over the spec\'s', pod: makePod({ nodeName: 'w', terminationGracePeriodSeconds: 45 }), requested: 5, want: 5 },
  { name: 'a negative request is 1', pod: makePod({ nodeName: 'w', terminationGracePeriodSeconds: 30 }), requested: -7, want: 1 },
  { name: 'a request of 0 stays 0', pod: makePod({ nodeName: 'w', terminationGracePeriodSeconds: 30 }), requested: 0, want: 0 },
  { name: 'a pod not scheduled is deleted at once', pod: makePod({ terminationGracePeriodSeconds: 30 }), requested: 10, want: 0 },
  { name: 'a Succeeded pod is deleted at once', pod: makePod({ nodeName: 'w', terminationGracePeriodSeconds: 30 }, 'Succeeded'), requested: undefined, want: 0 },
  { name: 'a Failed pod is deleted at once', pod: makePod({ nodeName: 'w', terminationGracePeriodSeconds: 30 }, 'Failed'), requested: 10, want: 0 },
];
for (const c of graceCases) test(`CheckGracefulDelete: ${c.name}`, () => assert.equal(podGracePeriod(c.pod, c.requested), c.want));

// staging/src/k8s.io/kubectl/pkg/cmd/delete/delete.go Complete: -1 is "not sent".
const kubectlCases = [
  { name: 'no flag: -1, not sent', flag: undefined, force: false, want: -1 },
  { name: '--grace-period=0 becomes 1', flag: 0, force: false, want: 1 },
  { name: '--grace-period=0 --force stays 0', flag: 0, force: true, want: 0 },
  { name: '--force alone becomes 0', flag: undefined, force: true, want: 0 },
  { name: '--grace-period=5 stays 5', flag: 5, force: false, want: 5 },
];
for (const c of kubectlCases) test(`kubectl delete: ${c.name}`, () => assert.equal(kubectlGracePeriod(c.flag, c.force), c.want));

// pkg/kubelet/pod_workers.go calculateEffectiveGracePeriod.
const effectiveCases = [
  { name: 'deletionGracePeriodSeconds wins', pod: makePod({ terminationGracePeriodSeconds: 30 }, undefined, { deletionGracePeriodSeconds: 5 }), want: { seconds: 5, from: 'deletionGracePeriodSeconds' } },
  { name: 'a deletionGracePeriodSeconds of 0 (force) is raised to 1, not replaced by the spec\'s', pod: makePod({ terminationGracePeriodSeconds: 30 }, undefined, { deletionGracePeriodSeconds: 0 }), want: { seconds: 1, from: 'deletionGracePeriodSeconds' } },
  { name: 'without one, the spec\'s', pod: makePod({ terminationGracePeriodSeconds: 30 }), want: { seconds: 30, from: 'terminationGracePeriodSeconds' } },
  { name: 'a spec of 0 is raised to 1', pod: makePod({ terminationGracePeriodSeconds: 0 }), want: { seconds: 1, from: 'terminationGracePeriodSeconds' } },
];
for (const c of effectiveCases) test(`pod worker grace period: ${c.name}`, () => assert.deepEqual(effectiveGracePeriod(c.pod), c.want));

const main = (name: string, more: Partial<KillInput> = {}): KillInput => ({ name, sidecar: false, sigtermSeconds: 1, ...more });
const sidecar = (name: string, more: Partial<KillInput> = {}): KillInput => ({ name, sidecar: true, sigtermSeconds: 1, ...more });
const brief = (plans: ReturnType<typeof planKill>) => plans.map((p) => `${p.name}: SIGTERM ${p.sigtermAt} window ${p.window} exit ${p.exitAt} (${p.exitCode})`);

// kuberuntime_container.go killContainer and kuberuntime_termination_order.go: each container in parallel; the hook's
// whole seconds are taken from the grace period; sidecars wait for the main containers, then for the later sidecars.
const killCases = [
  { name: 'a container exits 1 s after SIGTERM', grace: 30, input: [main('app')], want: ['app: SIGTERM 0 window 30 exit 1 (143)'] },
  { name: 'a 10 s hook leaves 20 s', grace: 30, input: [main('app', { hookSeconds: 10 })], want: ['app: SIGTERM 10 window 20 exit 11 (143)'] },
  { name: 'a 2.5 s hook costs 2 whole seconds', grace: 30, input: [main('app', { hookSeconds: 2.5 })], want: ['app: SIGTERM 2.5 window 28 exit 3.5 (143)'] },
  { name: 'a hook of 29 s leaves 1 s, raised to 2', grace: 30, input: [main('app', { hookSeconds: 29, sigtermSeconds: 'never' })], want: ['app: SIGTERM 29 window 2 exit 31 (137)'] },
  { name: 'a hook past the grace period is cut at it, then 2 s', grace: 30, input: [main('app', { hookSeconds: 40, sigtermSeconds: 5 })], want: ['app: SIGTERM 30 window 2 exit 32 (137)'] },
  {
    name: 'a sidecar gets SIGTERM once the main container exited',
    grace: 30, input: [main('app', { sigtermSeconds: 4 }), sidecar('proxy')],
    want: ['app: SIGTERM 0 window 30 exit 4 (143)', 'proxy: SIGTERM 4 window 26 exit 5 (143)'],
  },
  {
    name: 'sidecars stop in reverse order, each after the one declared after it',
    grace: 30, input: [main('app', { sigtermSeconds: 3 }), sidecar('log'), sidecar('proxy')],
    want: ['app: SIGTERM 0 window 30 exit 3 (143)', 'log: SIGTERM 4 window 26 exit 5 (143)', 'proxy: SIGTERM 3 window 27 exit 4 (143)'],
  },
  {
    name: 'a sidecar whose main container outlives the grace period gets SIGTERM at its end with the 2 s minimum',
    grace: 10, input: [main('app', { sigtermSeconds: 'never' }), sidecar('proxy', { sigtermSeconds: 'never' })],
    want: ['app: SIGTERM 0 window 10 exit 10 (137)', 'proxy: SIGTERM 10 window 2 exit 12 (137)'],
  },
  {
    name: 'a sidecar\'s preStop hook runs at once, in parallel with the main container\'s stop',
    grace: 30, input: [main('app', { sigtermSeconds: 8 }), sidecar('proxy', { hookSeconds: 5 })],
    want: ['app: SIGTERM 0 window 30 exit 8 (143)', 'proxy: SIGTERM 8 window 22 exit 9 (143)'],
  },
];
for (const c of killCases) test(`killContainer: ${c.name}`, () => assert.deepEqual(brief(planKill(c.grace, c.input)), c.want));

// node_lifecycle_controller.go: leases every 10 s, Unknown at the first 5 s monitor pass strictly after heartbeat + 50 s.
const monitorCases = [
  { name: 'a kubelet down from the start', downAt: 0, heartbeat: 0, unknown: 55_000 },
  { name: 'a kubelet that stops at 20 s (last renewal 10 s)', downAt: 20_000, heartbeat: 10_000, unknown: 65_000 },
  { name: 'a kubelet that stops at 25 s (last renewal 20 s)', downAt: 25_000, heartbeat: 20_000, unknown: 75_000 },
];
for (const c of monitorCases) {
  test(`node monitor: ${c.name}`, () => {
    assert.equal(lastHeartbeatAt(c.downAt), c.heartbeat);
    assert.equal(unknownAt(c.heartbeat), c.unknown);
  });
}

// taint_eviction.go processPodOnNode / getMinTolerationTime.
const unreachable: Taint = { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' };
const tol = (t: Partial<Toleration>): Toleration => ({ operator: 'Exists', effect: 'NoExecute', ...t });
const evictionCases = [
  { name: 'the default toleration of 300 s', tolerations: [tol({ key: 'node.kubernetes.io/unreachable', tolerationSeconds: 300 })], want: 300 },
  { name: 'no matching toleration: at once', tolerations: [tol({ key: 'node.kubernetes.io/not-ready', tolerationSeconds: 300 })], want: 0 },
  { name: 'a toleration without tolerationSeconds: never', tolerations: [tol({ key: 'node.kubernetes.io/unreachable' })], want: undefined },
  { name: 'an empty key with Exists tolerates everything', tolerations: [tol({ tolerationSeconds: 60 })], want: 60 },
  { name: 'a negative tolerationSeconds: at once', tolerations: [tol({ key: 'node.kubernetes.io/unreachable', tolerationSeconds: -5 })], want: 0 },
];
for (const c of evictionCases) test(`taint eviction: ${c.name}`, () => assert.equal(evictionDelay([unreachable], c.tolerations), c.want));

test('Behavior: preStopFails and a node\'s downAfterSeconds parse; a wrong type is an error', () => {
  const docs = parseDocuments('apiVersion: podlifecycle.debug/v1alpha1\nkind: Behavior\ncontainers:\n  app: {preStopSeconds: 3, preStopFails: true}\nnodes:\n  worker-1: {kubelet: down, downAfterSeconds: 20}\n', 'b.yaml');
  const b = parseBehavior(docs);
  assert.deepEqual(b.containers['app'], { preStopSeconds: 3, preStopFails: true });
  assert.deepEqual(b.nodes['worker-1'], { kubelet: 'down', downAfterSeconds: 20 });
  const bad = parseDocuments('apiVersion: podlifecycle.debug/v1alpha1\nkind: Behavior\nnodes:\n  worker-1: {downAfterSeconds: soon}\n', 'b.yaml');
  assert.throws(() => parseBehavior(bad), /nodes\.worker-1\.downAfterSeconds/);
});
