// The ReplicationController controller in whole engine runs: kube-controller-manager runs the ReplicaSet controller for
// ReplicationControllers through a conversion layer, so an RC's pods, events and status are the ReplicaSet's, with the
// RC's kind (ownerReferences v1 ReplicationController), its event source "replication-controller" and its status form
// (no terminatingReplicas). See pkg/controller/replication/replication_controller.go, conversion.go and
// pkg/controller/replicaset/replica_set.go at kubernetes v1.36.3.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject, Pod } from '../../../src/engine/api/types';
import { embeddedCluster } from '../../../src/engine/cluster/files';
import { defaultProfile } from '../../../src/engine/cluster/inputs';
import { loadInputs } from '../../../src/engine/cluster/loader';
import { Simulation } from '../../../src/engine/simulation';

const NAME = /^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/;

/** makeRC builds a ReplicationController `web` selecting app=web, with `replicas` when given. */
function makeRC(replicas?: number, spec: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: 'web' },
    spec: {
      ...(replicas !== undefined ? { replicas } : {}),
      selector: { app: 'web' },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } },
      ...spec,
    },
  };
}

/** makeOrphan builds a bare pod a person created, labelled as the RC selects. */
function makeOrphan(name: string): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } };
}

/** simulate runs a manifest of objects on the embedded cluster plus `cluster` objects (JSON is YAML). */
function simulate(manifest: KubeObject[], cluster: KubeObject[] = []): Simulation {
  const inputs = loadInputs({
    manifest: { file: 'rc.yaml', text: manifest.map((o) => JSON.stringify(o)).join('\n---\n') },
    clusters: cluster.length ? [{ file: 'cluster.yaml', text: cluster.map((o) => JSON.stringify(o)).join('\n---\n') }] : [],
    identity: { kind: 'default' },
  });
  inputs.cluster.objects.unshift(...embeddedCluster());
  inputs.cluster.profile = defaultProfile();
  const sim = new Simulation(inputs, {});
  sim.run();
  return sim;
}

function rcEvents(sim: Simulation): string[] {
  return sim.events.filter((e) => e.object === 'ReplicationController/default/web').map((e) => `${e.source} ${e.reason} ${e.message.replace(/web-[a-z0-9]+/, 'web-xxxxx')}`);
}

const created = (n: number) => Array<string>(n).fill('replication-controller SuccessfulCreate Created pod: web-xxxxx');
const deleted = (n: number) => Array<string>(n).fill('replication-controller SuccessfulDelete Deleted pod: web-xxxxx');

const cases: { name: string; manifest: KubeObject[]; cluster?: KubeObject[]; pods: number; orphansKept: string[]; events: string[]; status: Record<string, unknown>; outcome?: string }[] = [
  {
    name: 'three replicas: three pods made from the template, named <rc>-<5 random characters>',
    manifest: [makeRC(3)], pods: 3, orphansKept: [], events: created(3),
    status: { replicas: 3, fullyLabeledReplicas: 3, readyReplicas: 3, availableReplicas: 3, observedGeneration: 1 },
  },
  {
    name: 'no replicas given: defaulted to 1',
    manifest: [makeRC()], pods: 1, orphansKept: [], events: created(1),
    status: { replicas: 1, fullyLabeledReplicas: 1, readyReplicas: 1, availableReplicas: 1, observedGeneration: 1 },
  },
  {
    name: 'two matching orphans for two replicas: both adopted, nothing created',
    manifest: [makeRC(2)], cluster: [makeOrphan('web-a'), makeOrphan('web-b')], pods: 0, orphansKept: ['web-a', 'web-b'], events: [],
    status: { replicas: 2, fullyLabeledReplicas: 2, readyReplicas: 2, availableReplicas: 2, observedGeneration: 1 },
  },
  {
    name: 'three matching orphans for one replica: all adopted, two deleted',
    manifest: [makeRC(1)], cluster: [makeOrphan('web-a'), makeOrphan('web-b'), makeOrphan('web-c')], pods: 0, orphansKept: ['one'], events: deleted(2),
    status: { replicas: 1, fullyLabeledReplicas: 1, readyReplicas: 1, availableReplicas: 1, observedGeneration: 1 },
  },
  {
    name: 'zero replicas: no pod, replicas 0 written (it is not omitempty)',
    manifest: [makeRC(0)], pods: 0, orphansKept: [], events: [], status: { replicas: 0, observedGeneration: 1 },
    // As for a ReplicaSet of zero replicas: nothing is left to run.
    outcome: 'Succeeded',
  },
];

for (const c of cases) {
  test(`replication controller: ${c.name}`, () => {
    const sim = simulate(c.manifest, c.cluster);
    const rc = sim.store.get<KubeObject>('ReplicationController', 'default', 'web')!;
    const pods = sim.store.list<Pod>('Pod', 'default').filter((p) => !p.metadata?.deletionTimestamp);
    const made = pods.filter((p) => NAME.test(p.metadata?.name ?? ''));
    assert.equal(made.length, c.pods);
    for (const pod of made) {
      assert.equal(pod.metadata?.generateName, 'web-');
      assert.deepEqual(pod.metadata?.labels, { app: 'web' });
      assert.equal(pod.status?.phase, 'Running');
    }
    // Every pod left is the RC's, by a controller reference to apiVersion v1, kind ReplicationController.
    for (const pod of pods) {
      assert.deepEqual(pod.metadata?.ownerReferences, [{ apiVersion: 'v1', kind: 'ReplicationController', name: 'web', uid: rc.metadata?.uid, controller: true, blockOwnerDeletion: true }]);
    }
    const kept = pods.filter((p) => !NAME.test(p.metadata?.name ?? '')).map((p) => p.metadata?.name);
    if (c.orphansKept[0] === 'one') assert.equal(kept.length, 1);
    else assert.deepEqual(kept, c.orphansKept);
    assert.deepEqual(rcEvents(sim), c.events);
    assert.deepEqual(rc['status'], c.status);
    assert.equal(sim.result().outcome, c.outcome ?? 'Running');
  });
}

test('replication controller: the API server defaults the selector and labels from the template, and replicas to 1', () => {
  const bare = makeRC();
  const spec = bare['spec'] as Record<string, unknown>;
  delete spec['selector'];
  const sim = simulate([bare]);
  const rc = sim.store.get<KubeObject>('ReplicationController', 'default', 'web')!;
  assert.deepEqual((rc['spec'] as { selector?: unknown }).selector, { app: 'web' });
  assert.deepEqual(rc.metadata?.labels, { app: 'web' });
  assert.equal((rc['spec'] as { replicas?: number }).replicas, 1);
  assert.equal(rc.metadata?.generation, 1);
});

test('replication controller: pods are created as the replication-controller service account, in slow-start batches', () => {
  const sim = simulate([makeRC(3)]);
  const steps = sim.trace.filter((e) => e.phase === 'controllers.replicaset' && e.object === 'ReplicationController/default/web').map((e) => e.result.replace(/web-[a-z0-9]{5}/, 'web-xxxxx'));
  assert.deepEqual(steps.slice(0, 4), ['0 of 3 pods exist: creating 3', 'created pod web-xxxxx (batch of 1)', 'created pod web-xxxxx (batch of 2)', 'created pod web-xxxxx (batch of 2)']);
  const users = sim.trace.filter((e) => e.phase === 'apiserver.authenticate').map((e) => /authenticated as "([^"]+)"/.exec(e.result)?.[1]).filter((u) => u?.includes('controller'));
  assert.ok(users.includes('system:serviceaccount:kube-system:replication-controller'), JSON.stringify(users));
  assert.ok(!users.includes('system:serviceaccount:kube-system:replicaset-controller'), JSON.stringify(users));
});

test('replication controller: a create the quota refuses is a FailedCreate event and the ReplicaFailure condition', () => {
  const quota: KubeObject = {
    apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'pods', namespace: 'default' },
    spec: { hard: { pods: '1' } }, status: { hard: { pods: '1' }, used: { pods: '0' } },
  };
  const sim = simulate([makeRC(2)], [quota]);
  const refused = 'pods "web-xxxxx" is forbidden: exceeded quota: pods, requested: pods=1, used: pods=1, limited: pods=1';
  const events = rcEvents(sim);
  assert.equal(events[0], 'replication-controller SuccessfulCreate Created pod: web-xxxxx');
  assert.equal(events[1], `replication-controller FailedCreate Error creating: ${refused}`);
  const rc = sim.store.get<KubeObject>('ReplicationController', 'default', 'web')!;
  const status = rc['status'] as { replicas?: number; conditions?: Record<string, string>[] };
  assert.equal(status.replicas, 1);
  assert.deepEqual(status.conditions?.map((c) => ({ ...c, message: c['message']?.replace(/web-[a-z0-9]{5}/, 'web-xxxxx') })), [
    { type: 'ReplicaFailure', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'FailedCreate', message: refused },
  ]);
  assert.equal(sim.result().outcome, 'Pending');
});
