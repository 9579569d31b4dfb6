// The StatefulSet controller's creation path in whole engine runs: the ControllerRevision (its name, hash and patch
// bytes), the ordinal pods with their identity, the claims, OrderedReady and Parallel, the events, the status and the
// outcome. See pkg/controller/statefulset/{stateful_set_control.go,stateful_set_utils.go,stateful_pod_control.go} and
// pkg/controller/history/controller_history.go at kubernetes v1.36.3.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KubeObject, Pod } from '../../../src/engine/api/types';
import { goMarshal, goString } from '../../../src/engine/api/go-json';
import { fnv32, fnv32a } from '../../../src/engine/api/naming';
import { embeddedCluster } from '../../../src/engine/cluster/files';
import { defaultProfile } from '../../../src/engine/cluster/inputs';
import { loadInputs } from '../../../src/engine/cluster/loader';
import { type ControllerRevision, hashControllerRevision, revisionRaw } from '../../../src/engine/controllers/statefulset-revision';
import { parentAndOrdinal, type StatefulSet, type StatefulSetSpec } from '../../../src/engine/controllers/statefulset-identity';
import { MAX_UNAVAILABLE_STATEFULSET, newVersionedPod } from '../../../src/engine/controllers/statefulset-update';
import { dropStatefulSetDisabledFields } from '../../../src/engine/apiserver/registry';
import { Simulation, type SimulationOptions } from '../../../src/engine/simulation';

const FIXTURES = join(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'statefulset');

function simulate(fixture: string, options: SimulationOptions = {}): Simulation {
  const inputs = loadInputs({ manifest: { file: fixture, text: readFileSync(join(FIXTURES, fixture), 'utf8') }, clusters: [], identity: { kind: 'default' } });
  inputs.cluster.objects.unshift(...embeddedCluster());
  inputs.cluster.profile = defaultProfile();
  const sim = new Simulation(inputs, options);
  sim.run();
  return sim;
}

const runs = new Map<string, Simulation>();
const run = (fixture: string): Simulation => {
  if (!runs.has(fixture)) runs.set(fixture, simulate(fixture));
  return runs.get(fixture)!;
};

const revisions = (sim: Simulation): ControllerRevision[] => sim.store.list<ControllerRevision>('ControllerRevision', 'default');

test('fnv32 is FNV-1 (hash/fnv New32), not FNV-1a: the published test vectors of "a"', () => {
  const a = new TextEncoder().encode('a');
  assert.equal(fnv32(a), 0x050c5d7e);
  assert.equal(fnv32a(a), 0xe40c292c);
});

const escapeCases = [
  { name: 'HTML characters are \\u escapes', input: '<b>&</b>', want: '"\\u003cb\\u003e\\u0026\\u003c/b\\u003e"' },
  { name: 'U+2028 and U+2029 are escaped, other non-ASCII is not', input: 'café\u2028\u2029', want: '"café\\u2028\\u2029"' },
  { name: 'control characters: short forms, else \\u00XX', input: '"\\\n\t\u0001', want: '"\\"\\\\\\n\\t\\u0001"' },
];
for (const c of escapeCases) test(`goString: ${c.name}`, () => assert.equal(goString(c.input), c.want));

test('goMarshal sorts keys at every level, "$patch" first', () => {
  assert.equal(goMarshal({ spec: { b: 1, a: [{ z: true, y: null }], $patch: 'replace' } }), '{"spec":{"$patch":"replace","a":[{"y":null,"z":true}],"b":1}}');
});

// The pinned names and patch bytes were printed by a throwaway Go program built against the k8s.io/kubernetes v1.36.3
// module cache (outside the project): it read each fixture's StatefulSet with sigs.k8s.io/yaml, applied
// legacyscheme.Scheme.Default (pkg/apis/apps/install), ran a copy of getPatch (runtime.Encode with
// scheme.Codecs.LegacyCodec(apps/v1), json.Unmarshal into a map, "$patch": "replace", json.Marshal) and called the
// real history.NewControllerRevision(set, StatefulSet kind, template labels, RawExtension{Raw: patch}, 1, &0),
// printing cr.Name, the controller.kubernetes.io/hash label and the patch.
const revisionCases = [
  { name: 'the docs example with a claim template', fixture: 'web-local.yaml', set: 'web', revision: 'web-f99c84b4b' },
  { name: 'a set without claims', fixture: 'plain.yaml', set: 'db', revision: 'db-965d5df76' },
  {
    name: 'a template with HTML characters, quantities, empty lists and an always-written divisor', fixture: 'tricky-template.yaml', set: 'tricky', revision: 'tricky-5446b4f7b7',
    raw: '{"spec":{"template":{"$patch":"replace","metadata":{"annotations":{"note":"\\u003cb\\u003ebold\\u003c/b\\u003e \\u0026 café \\u2028"},"labels":{"app":"tricky"}},"spec":{"affinity":{"nodeAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"preference":{"matchExpressions":[{"key":"disk","operator":"In","values":["ssd"]}]},"weight":10}]}},"containers":[{"command":["sh","-c","echo \\"$A\\" \\u003e /tmp/x \\u0026\\u0026 cat \\u003c/tmp/x"],"env":[{"name":"A","value":"1 \\u003c 2 \\u0026\\u0026 3 \\u003e 2"},{"name":"EMPTY"},{"name":"LIMIT","valueFrom":{"resourceFieldRef":{"divisor":"0","resource":"limits.cpu"}}}],"image":"nginx","imagePullPolicy":"Always","name":"app","readinessProbe":{"failureThreshold":3,"httpGet":{"httpHeaders":[{"name":"X-Empty","value":""}],"path":"/","port":80,"scheme":"HTTP"},"periodSeconds":10,"successThreshold":1,"timeoutSeconds":1},"resources":{"limits":{"cpu":"1","memory":"1Gi"},"requests":{"cpu":"500m","memory":"1Gi"}},"securityContext":{"allowPrivilegeEscalation":false,"privileged":false},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","volumeMounts":[{"mountPath":"/cache","name":"cache"}]}],"dnsPolicy":"ClusterFirst","restartPolicy":"Always","schedulerName":"default-scheduler","securityContext":{},"terminationGracePeriodSeconds":30,"volumes":[{"emptyDir":{},"name":"cache"}]}}}}',
  },
];
for (const c of revisionCases) {
  test(`ControllerRevision: ${c.name} is ${c.revision}, as kube-controller-manager v1.36.3 names it`, () => {
    const sim = run(c.fixture);
    const [rev, ...more] = revisions(sim);
    assert.equal(more.length, 0);
    assert.equal(rev!.metadata?.name, c.revision);
    assert.equal(rev!.revision, 1);
    const hash = c.revision.slice(c.set.length + 1);
    assert.equal(rev!.metadata?.labels?.['controller.kubernetes.io/hash'], hash);
    assert.equal(hashControllerRevision(revisionRaw(rev!), 0), hash);
    if (c.raw) assert.equal(revisionRaw(rev!), c.raw);
    const set = sim.store.get<KubeObject>('StatefulSet', 'default', c.set)!;
    assert.deepEqual(rev!.metadata?.ownerReferences, [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: c.set, uid: set.metadata?.uid, controller: true, blockOwnerDeletion: true }]);
  });
}

test('the revision carries the set\'s annotations', () => {
  assert.equal(revisions(run('tricky-template.yaml'))[0]!.metadata?.annotations?.['team'], 'a&b');
});

test('pods: ordinal names, identity labels, hostname and subdomain, the claim volume and the controller reference', () => {
  const sim = run('web-local.yaml');
  const set = sim.store.get<KubeObject>('StatefulSet', 'default', 'web')!;
  const pods = sim.store.list<Pod>('Pod', 'default').filter((p) => p.metadata?.name?.startsWith('web-')).sort((a, b) => (a.metadata!.name! < b.metadata!.name! ? -1 : 1));
  assert.deepEqual(pods.map((p) => p.metadata?.name), ['web-0', 'web-1']);
  pods.forEach((pod, i) => {
    assert.deepEqual(pod.metadata?.labels, {
      app: 'nginx', 'apps.kubernetes.io/pod-index': String(i), 'controller-revision-hash': 'web-f99c84b4b', 'statefulset.kubernetes.io/pod-name': `web-${i}`,
    });
    // GetPodFromTemplate gives every pod the generateName `<set>-`; the name is set beside it.
    assert.equal(pod.metadata?.generateName, 'web-');
    const spec = pod.spec as unknown as Record<string, unknown>;
    assert.equal(spec['hostname'], `web-${i}`);
    assert.equal(spec['subdomain'], 'nginx');
    assert.deepEqual((spec['volumes'] as unknown[])[0], { name: 'www', persistentVolumeClaim: { claimName: `www-web-${i}` } });
    assert.deepEqual(pod.metadata?.ownerReferences, [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: set.metadata?.uid, controller: true, blockOwnerDeletion: true }]);
  });
});

test('claims: `<template>-<set>-<ordinal>`, the template\'s labels plus the selector\'s, no owner with the Retain policy, bound', () => {
  const sim = run('web-local.yaml');
  for (const i of [0, 1]) {
    const claim = sim.store.get<KubeObject>('PersistentVolumeClaim', 'default', `www-web-${i}`)!;
    assert.ok(claim, `www-web-${i}`);
    assert.deepEqual(claim.metadata?.labels, { tier: 'storage', app: 'nginx' });
    assert.equal(claim.metadata?.ownerReferences, undefined);
    assert.equal((claim['status'] as { phase?: string }).phase, 'Bound');
  }
});

const statefulEvents = (sim: Simulation) => sim.result().events.filter((e) => e.source === 'statefulset-controller').map((e) => `${e.at} ${e.type} ${e.reason} ${e.object}: ${e.message}`);

test('events: each claim, then its pod, as recordClaimEvent and recordPodEvent word them', () => {
  assert.deepEqual(statefulEvents(run('web-local.yaml')), [
    '0 Normal SuccessfulCreate StatefulSet/default/web: Create Claim www-web-0 Pod web-0 in StatefulSet web success',
    '0 Normal SuccessfulCreate StatefulSet/default/web: Create Pod web-0 in StatefulSet web successful',
    '2 Normal SuccessfulCreate StatefulSet/default/web: Create Claim www-web-1 Pod web-1 in StatefulSet web success',
    '2 Normal SuccessfulCreate StatefulSet/default/web: Create Pod web-1 in StatefulSet web successful',
  ]);
});

const orderCases = [
  // OrderedReady: db-1 only once db-0 is Running and Ready (its image pulled, 2 s), and so on.
  { name: 'OrderedReady creates each ordinal once the one below is Running and Ready', fixture: 'plain.yaml', at: [0, 2, 4] },
  // Parallel: slowStartBatch of 1, then 2: all three in the first sync.
  { name: 'Parallel creates every missing ordinal at once', fixture: 'parallel.yaml', at: [0, 0, 0] },
];
for (const c of orderCases) {
  test(`podManagementPolicy: ${c.name}`, () => {
    const created = run(c.fixture).result().events.filter((e) => e.reason === 'SuccessfulCreate' && e.source === 'statefulset-controller');
    assert.deepEqual(created.map((e) => e.message), ['db-0', 'db-1', 'db-2'].map((p) => `Create Pod ${p} in StatefulSet db successful`));
    assert.deepEqual(created.map((e) => e.at), c.at);
  });
}

test('status: the counts, revisions and collision count updateStatefulSet writes, and the outcome is Running', () => {
  for (const fixture of ['plain.yaml', 'parallel.yaml']) {
    const sim = run(fixture);
    const set = sim.store.get<KubeObject>('StatefulSet', 'default', 'db')!;
    assert.deepEqual(set['status'], {
      observedGeneration: 1, replicas: 3, readyReplicas: 3, currentReplicas: 3, updatedReplicas: 3,
      currentRevision: 'db-965d5df76', updateRevision: 'db-965d5df76', collisionCount: 0, availableReplicas: 3,
    });
    assert.equal(sim.result().outcome, 'Running');
  }
});

test('defaults: SetDefaults_StatefulSet fills the policies, the strategy and the claim templates', () => {
  const set = run('web-local.yaml').store.get<KubeObject>('StatefulSet', 'default', 'web')!;
  const spec = set['spec'] as Record<string, unknown>;
  assert.equal(spec['podManagementPolicy'], 'OrderedReady');
  assert.deepEqual(spec['updateStrategy'], { type: 'RollingUpdate', rollingUpdate: { partition: 0 } });
  assert.deepEqual(spec['persistentVolumeClaimRetentionPolicy'], { whenDeleted: 'Retain', whenScaled: 'Retain' });
  assert.equal(spec['revisionHistoryLimit'], 10);
  const claim = (spec['volumeClaimTemplates'] as Record<string, Record<string, unknown>>[])[0]!;
  assert.equal(claim['spec']!['volumeMode'], 'Filesystem');
  assert.deepEqual(claim['status'], { phase: 'Pending' });
});

const ordinalCases = [
  { name: 'web-0', parent: 'web', ordinal: 0 },
  { name: 'my-set-12', parent: 'my-set', ordinal: 12 },
  { name: 'web', parent: '', ordinal: -1 },
  { name: 'web-99999999999', parent: 'web', ordinal: -1 },
];
for (const c of ordinalCases) test(`getParentNameAndOrdinal: ${c.name}`, () => assert.deepEqual(parentAndOrdinal(c.name), { parent: c.parent, ordinal: c.ordinal }));

// The rolling update's pure rules. See pkg/controller/statefulset/stateful_set_utils.go (newVersionedStatefulSetPod,
// ApplyRevision), pkg/registry/apps/statefulset/strategy.go (dropStatefulSetDisabledFields) and
// pkg/features/kube_features.go (MaxUnavailableStatefulSet) at kubernetes v1.36.3.
test('MaxUnavailableStatefulSet is off, as it is by default in 1.36 (Beta, default false): maxUnavailable is not read', () => {
  assert.equal(MAX_UNAVAILABLE_STATEFULSET, false);
});

const dropCases = [
  { name: 'a create drops maxUnavailable', set: { partition: 0, maxUnavailable: 2 }, old: undefined, want: { partition: 0 } },
  { name: 'an update drops a new maxUnavailable', set: { partition: 1, maxUnavailable: '50%' }, old: { partition: 1 }, want: { partition: 1 } },
  { name: 'an update keeps one the stored set already has (maxUnavailableInUse)', set: { partition: 0, maxUnavailable: 3 }, old: { partition: 0, maxUnavailable: 2 }, want: { partition: 0, maxUnavailable: 3 } },
];
for (const c of dropCases) {
  test(`dropStatefulSetDisabledFields: ${c.name}`, () => {
    const of = (rollingUpdate: Record<string, unknown>): KubeObject => ({ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'db' }, spec: { updateStrategy: { type: 'RollingUpdate', rollingUpdate } } });
    const out = dropStatefulSetDisabledFields(of(c.set), c.old ? of(c.old) : undefined);
    assert.deepEqual((out['spec'] as { updateStrategy: unknown }).updateStrategy, { type: 'RollingUpdate', rollingUpdate: c.want });
  });
}

const revisionOf = (name: string, image: string): ControllerRevision => ({
  apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name }, revision: 1,
  data: { spec: { template: { $patch: 'replace', metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'db', image }] } } } },
});
const CURRENT = revisionOf('db-old', 'nginx:old');
const UPDATE = revisionOf('db-new', 'nginx:new');

const versionedCases: { name: string; strategy: StatefulSetSpec['updateStrategy']; currentReplicas?: number; ordinal: number; want: string }[] = [
  { name: 'RollingUpdate below the partition: the current revision', strategy: { type: 'RollingUpdate', rollingUpdate: { partition: 2 } }, ordinal: 1, want: 'db-old nginx:old' },
  { name: 'RollingUpdate at the partition: the update revision', strategy: { type: 'RollingUpdate', rollingUpdate: { partition: 2 } }, ordinal: 2, want: 'db-new nginx:new' },
  { name: 'RollingUpdate, partition 0: the update revision', strategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } }, ordinal: 0, want: 'db-new nginx:new' },
  // Type RollingUpdate given without rollingUpdate: SetDefaults_StatefulSet adds none, and Go's condition then
  // compares the ordinal with status.currentReplicas.
  { name: 'RollingUpdate without rollingUpdate, below status.currentReplicas: the current revision', strategy: { type: 'RollingUpdate' }, currentReplicas: 2, ordinal: 1, want: 'db-old nginx:old' },
  { name: 'RollingUpdate without rollingUpdate, at status.currentReplicas: the update revision', strategy: { type: 'RollingUpdate' }, currentReplicas: 2, ordinal: 2, want: 'db-new nginx:new' },
  { name: 'OnDelete: a pod made again is at the update revision', strategy: { type: 'OnDelete' }, currentReplicas: 3, ordinal: 0, want: 'db-new nginx:new' },
];
for (const c of versionedCases) {
  test(`newVersionedStatefulSetPod: ${c.name}`, () => {
    const set: StatefulSet = {
      apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'db', namespace: 'default', uid: 'u' },
      spec: { replicas: 3, serviceName: 'db', updateStrategy: c.strategy, template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'db', image: 'nginx:new' }] } as Pod['spec'] } },
      status: c.currentReplicas !== undefined ? { currentReplicas: c.currentReplicas } : {},
    };
    const pod = newVersionedPod(set, CURRENT, UPDATE, c.ordinal);
    assert.equal(`${pod.metadata?.labels?.['controller-revision-hash']} ${pod.spec?.containers[0]?.image}`, c.want);
    assert.equal(pod.metadata?.name, `db-${c.ordinal}`);
  });
}
