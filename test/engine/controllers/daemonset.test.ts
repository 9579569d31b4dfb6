// The DaemonSet controller's creation path in whole engine runs and in its helpers: which nodes should run a daemon
// pod, the pod it makes for each (generateName, labels, the node-name affinity, the daemon tolerations), the
// ControllerRevision, the slow-start events, the status and the outcome. See pkg/controller/daemon/daemon_controller.go,
// update.go and util/daemonset_util.go at kubernetes v1.36.3.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Node, Pod } from '../../../src/engine/api/types';
import { embeddedCluster } from '../../../src/engine/cluster/files';
import { defaultProfile } from '../../../src/engine/cluster/inputs';
import { loadInputs } from '../../../src/engine/cluster/loader';
import {
  daemonTolerations, type DaemonSet, nodeShouldRunDaemonPod, replaceNodeNameAffinity, targetNodeName,
} from '../../../src/engine/controllers/daemonset';
import type { ControllerRevision } from '../../../src/engine/controllers/statefulset-revision';
import { Simulation } from '../../../src/engine/simulation';

const FIXTURES = join(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'daemonset');

function simulate(fixture: string): Simulation {
  const inputs = loadInputs({ manifest: { file: fixture, text: readFileSync(join(FIXTURES, fixture), 'utf8') }, clusters: [], identity: { kind: 'default' } });
  inputs.cluster.objects.unshift(...embeddedCluster());
  inputs.cluster.profile = defaultProfile();
  const sim = new Simulation(inputs, {});
  sim.run();
  return sim;
}

const DAEMON_TOLERATIONS = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
];
const NETWORK = { key: 'node.kubernetes.io/network-unavailable', operator: 'Exists', effect: 'NoSchedule' };
const CONTROL_PLANE = { key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' };
const pinned = (node: string) => ({ nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }] }] } } });

const runCases = [
  {
    name: 'no tolerations: a pod on each worker, none on the tainted control plane', fixture: 'agent.yaml', ds: 'agent',
    nodes: ['worker-1', 'worker-2'], tolerations: DAEMON_TOLERATIONS,
  },
  {
    name: 'tolerating the control-plane taint, hostNetwork: three pods, network-unavailable tolerated too', fixture: 'tolerating.yaml', ds: 'node-exporter',
    nodes: ['control-plane', 'worker-1', 'worker-2'], tolerations: [CONTROL_PLANE, ...DAEMON_TOLERATIONS, NETWORK],
  },
  {
    name: 'nodeSelector and required node affinity: the one node they pick; the injected affinity replaces the terms', fixture: 'selector.yaml', ds: 'picky',
    nodes: ['worker-2'], tolerations: DAEMON_TOLERATIONS,
  },
];

for (const c of runCases) {
  test(`daemonset run: ${c.name}`, () => {
    const sim = simulate(c.fixture);
    const ds = sim.store.get<DaemonSet>('DaemonSet', 'default', c.ds)!;
    const revs = sim.store.list<ControllerRevision>('ControllerRevision', 'default');
    assert.equal(revs.length, 1);
    const rev = revs[0]!;
    const hash = rev.metadata?.labels?.['controller-revision-hash'] ?? '';
    assert.match(hash, /^[bcdfghjklmnpqrstvwxz2456789]{1,10}$/);
    assert.equal(rev.metadata?.name, `${c.ds}-${hash}`);
    assert.equal(rev.revision, 1);
    assert.deepEqual(rev.metadata?.labels, { app: c.ds, 'controller-revision-hash': hash });
    assert.equal(rev.metadata?.annotations?.['deprecated.daemonset.template.generation'], '1');
    assert.deepEqual(rev.metadata?.ownerReferences?.map((r) => [r.kind, r.name, r.controller]), [['DaemonSet', c.ds, true]]);

    const pods = sim.store.list<Pod>('Pod', 'default').sort((a, b) => (a.spec?.nodeName ?? '').localeCompare(b.spec?.nodeName ?? ''));
    assert.deepEqual(pods.map((p) => p.spec?.nodeName), c.nodes);
    for (const pod of pods) {
      assert.match(pod.metadata?.name ?? '', new RegExp(`^${c.ds}-[bcdfghjklmnpqrstvwxz2456789]{5}$`));
      assert.equal(pod.metadata?.generateName, `${c.ds}-`);
      assert.deepEqual(pod.metadata?.labels, { app: c.ds, 'controller-revision-hash': hash, 'pod-template-generation': '1' });
      assert.deepEqual(pod.metadata?.ownerReferences?.map((r) => [r.apiVersion, r.kind, r.name, r.uid, r.controller, r.blockOwnerDeletion]), [['apps/v1', 'DaemonSet', c.ds, ds.metadata?.uid, true, true]]);
      assert.deepEqual(pod.spec?.affinity, pinned(pod.spec?.nodeName ?? ''));
      assert.deepEqual(pod.spec?.tolerations, c.tolerations);
      assert.equal(pod.status?.phase, 'Running');
    }

    // Slow start: batches of 1, then 2 — all in the first sync, each announced by RealPodControl's event.
    const result = sim.result();
    const created = result.events.filter((e) => e.source === 'daemonset-controller');
    assert.deepEqual(created.map((e) => `${e.at} ${e.type} ${e.reason} ${e.object}`), pods.map(() => `0 Normal SuccessfulCreate DaemonSet/default/${c.ds}`));
    assert.deepEqual(created.map((e) => e.message).sort(), pods.map((p) => `Created pod: ${p.metadata?.name}`).sort());
    const batches = result.trace.filter((s) => s.phase === 'controllers.daemonset' && /^created pod /.test(s.result)).map((s) => (s.detail as { batch: number }).batch);
    assert.deepEqual(batches, c.nodes.length === 3 ? [1, 2, 2] : c.nodes.length === 2 ? [1, 1] : [1]);

    const n = c.nodes.length;
    assert.deepEqual(ds.status, { currentNumberScheduled: n, numberMisscheduled: 0, desiredNumberScheduled: n, numberReady: n, observedGeneration: 1, updatedNumberScheduled: n, numberAvailable: n });
    assert.equal(result.outcome, 'Running');
  });
}

const node = (name: string, taints: Node['spec'] extends infer S ? S extends { taints?: infer T } ? T : never : never = [], labels: Record<string, string> = {}): Node =>
  ({ apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'kubernetes.io/hostname': name, ...labels } }, spec: { taints } });
const daemonSet = (spec: Record<string, unknown> = {}): DaemonSet => ({
  apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'd', namespace: 'default' },
  spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }], ...spec } } },
});

const eligibilityCases: { name: string; node: Node; ds: DaemonSet; want: [boolean, boolean] }[] = [
  { name: 'an untainted node', node: node('n'), ds: daemonSet(), want: [true, true] },
  { name: 'a NoSchedule taint not tolerated: should not run, may continue', node: node('n', [{ key: 'k', effect: 'NoSchedule' }]), ds: daemonSet(), want: [false, true] },
  { name: 'a NoExecute taint not tolerated: neither', node: node('n', [{ key: 'k', effect: 'NoExecute' }]), ds: daemonSet(), want: [false, false] },
  { name: 'a PreferNoSchedule taint is no bar', node: node('n', [{ key: 'k', effect: 'PreferNoSchedule' }]), ds: daemonSet(), want: [true, true] },
  { name: 'the unschedulable taint is tolerated by every daemon pod', node: node('n', [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }]), ds: daemonSet(), want: [true, true] },
  { name: 'network-unavailable only with hostNetwork (without)', node: node('n', [{ key: 'node.kubernetes.io/network-unavailable', effect: 'NoSchedule' }]), ds: daemonSet(), want: [false, true] },
  { name: 'network-unavailable only with hostNetwork (with)', node: node('n', [{ key: 'node.kubernetes.io/network-unavailable', effect: 'NoSchedule' }]), ds: daemonSet({ hostNetwork: true }), want: [true, true] },
  { name: 'a nodeSelector the node does not match', node: node('n'), ds: daemonSet({ nodeSelector: { disk: 'ssd' } }), want: [false, false] },
  { name: 'a nodeSelector the node matches', node: node('n', [], { disk: 'ssd' }), ds: daemonSet({ nodeSelector: { disk: 'ssd' } }), want: [true, true] },
  { name: 'the template\'s nodeName names another node', node: node('n'), ds: daemonSet({ nodeName: 'm' }), want: [false, false] },
  { name: 'the template\'s nodeName names this node', node: node('n'), ds: daemonSet({ nodeName: 'n' }), want: [true, true] },
  {
    name: 'a required node affinity the node does not match', node: node('n'),
    ds: daemonSet({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }] } } } }),
    want: [false, false],
  },
];
for (const c of eligibilityCases) test(`nodeShouldRunDaemonPod: ${c.name}`, () => assert.deepEqual(nodeShouldRunDaemonPod(c.node, c.ds), c.want));

const tolerationCases = [
  { name: 'none: the six, in order', spec: {}, want: DAEMON_TOLERATIONS },
  { name: 'hostNetwork: network-unavailable last', spec: { hostNetwork: true }, want: [...DAEMON_TOLERATIONS, NETWORK] },
  { name: 'the user\'s first, kept in place', spec: { tolerations: [CONTROL_PLANE] }, want: [CONTROL_PLANE, ...DAEMON_TOLERATIONS] },
  {
    name: 'a matching one with tolerationSeconds is replaced in place by the plain one',
    spec: { tolerations: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 }] },
    want: [DAEMON_TOLERATIONS[1], DAEMON_TOLERATIONS[0], ...DAEMON_TOLERATIONS.slice(2)],
  },
];
for (const c of tolerationCases) test(`AddOrUpdateDaemonPodTolerations: ${c.name}`, () => assert.deepEqual(daemonTolerations({ containers: [], ...c.spec }), c.want));

const affinityCases = [
  { name: 'no affinity', affinity: undefined, want: pinned('n') },
  { name: 'pod affinity only: node affinity added beside it', affinity: { podAffinity: {} }, want: { podAffinity: {}, ...pinned('n') } },
  {
    name: 'required terms are all replaced; preferred ones stay',
    affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'a', operator: 'Exists' }] }, { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['x'] }] }] }, preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, preference: {} }] } },
    want: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: pinned('n').nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution, preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, preference: {} }] } },
  },
];
for (const c of affinityCases) test(`ReplaceDaemonSetPodNodeNameNodeAffinity: ${c.name}`, () => assert.deepEqual(replaceNodeNameAffinity(c.affinity, 'n'), c.want));

const targetCases: { name: string; pod: Pod; want: string | undefined }[] = [
  { name: 'spec.nodeName first', pod: { spec: { containers: [], nodeName: 'a', affinity: pinned('b') } }, want: 'a' },
  { name: 'else the matchFields term', pod: { spec: { containers: [], affinity: pinned('b') } }, want: 'b' },
  { name: 'else none', pod: { spec: { containers: [] } }, want: undefined },
];
for (const c of targetCases) test(`GetTargetNodeName: ${c.name}`, () => assert.equal(targetNodeName(c.pod), c.want));
