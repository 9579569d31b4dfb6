// Adoption and release (pkg/controller/controller_ref_manager.go) and a paused Deployment (pkg/controller/deployment/
// sync.go checkPausedConditions, sync), in the pure rules and in whole in-process runs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Deployment, KubeObject } from '../../../src/engine/api/types';
import { embeddedCluster } from '../../../src/engine/cluster/files';
import { defaultProfile } from '../../../src/engine/cluster/inputs';
import { loadInputs } from '../../../src/engine/cluster/loader';
import { ControllerClient } from '../../../src/engine/controllers/client';
import { adoptPatch, claimDecision, type ClaimDecision, releasePatch } from '../../../src/engine/controllers/controller-ref';
import { pausedConditions } from '../../../src/engine/controllers/deployment-pause';
import type { DeploymentCondition } from '../../../src/engine/controllers/deployment-util';
import { Simulation } from '../../../src/engine/simulation';

const rs = (extra: { deletionTimestamp?: string; namespace?: string } = {}): KubeObject => ({
  apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'frontend', namespace: extra.namespace ?? 'default', uid: 'rs-uid', ...(extra.deletionTimestamp ? { deletionTimestamp: extra.deletionTimestamp } : {}) },
});
const pod = (owner?: string, extra: { deletionTimestamp?: string; namespace?: string } = {}): KubeObject => ({
  apiVersion: 'v1', kind: 'Pod',
  metadata: {
    name: 'p', namespace: extra.namespace ?? 'default', uid: 'pod-uid', ...(extra.deletionTimestamp ? { deletionTimestamp: extra.deletionTimestamp } : {}),
    ...(owner ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'x', uid: owner, controller: true }] } : {}),
  },
});

// controller_ref_manager.go ClaimObject, case by case.
const decisions: { name: string; controller: KubeObject; obj: KubeObject; matches: boolean; want: ClaimDecision }[] = [
  { name: 'an orphan whose labels match is adopted', controller: rs(), obj: pod(), matches: true, want: 'adopt' },
  { name: 'an orphan whose labels do not match is left alone', controller: rs(), obj: pod(), matches: false, want: 'ignore' },
  { name: 'an orphan being deleted is not adopted', controller: rs(), obj: pod(undefined, { deletionTimestamp: '2026-01-01T00:00:00Z' }), matches: true, want: 'ignore' },
  { name: 'a controller being deleted adopts nothing', controller: rs({ deletionTimestamp: '2026-01-01T00:00:00Z' }), obj: pod(), matches: true, want: 'ignore' },
  { name: 'an orphan of another namespace is not adopted', controller: rs(), obj: pod(undefined, { namespace: 'other' }), matches: true, want: 'ignore' },
  { name: 'an object another controller owns is left alone, even when it matches', controller: rs(), obj: pod('someone-else'), matches: true, want: 'ignore' },
  { name: 'an owned object that still matches stays claimed', controller: rs(), obj: pod('rs-uid'), matches: true, want: 'owned' },
  { name: 'an owned object that no longer matches is released', controller: rs(), obj: pod('rs-uid'), matches: false, want: 'release' },
  { name: 'a controller being deleted releases nothing', controller: rs({ deletionTimestamp: '2026-01-01T00:00:00Z' }), obj: pod('rs-uid'), matches: false, want: 'ignore' },
  { name: 'a controller being deleted still claims what it owns and matches', controller: rs({ deletionTimestamp: '2026-01-01T00:00:00Z' }), obj: pod('rs-uid'), matches: true, want: 'owned' },
];
for (const c of decisions) test(`ClaimObject: ${c.name}`, () => assert.equal(claimDecision(c.controller, c.obj, c.matches), c.want));

test('the adoption and release patches are the bytes the controllers send (json.Marshal field order)', () => {
  // controller_ref_manager.go ownerRefControllerPatch (objectMetaForPatch: ownerReferences, then uid) and
  // GenerateDeleteOwnerRefStrategicMergeBytes (objectMetaForMergePatch: uid, then ownerReferences; map keys sorted).
  assert.equal(JSON.stringify(adoptPatch(rs(), 'pod-uid')), '{"metadata":{"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"frontend","uid":"rs-uid","controller":true,"blockOwnerDeletion":true}],"uid":"pod-uid"}}');
  assert.equal(JSON.stringify(releasePatch('rs-uid', 'pod-uid')), '{"metadata":{"uid":"pod-uid","ownerReferences":[{"$patch":"delete","uid":"rs-uid"}]}}');
});

const NOW = '2026-01-01T00:10:00Z';
const cond = (reason: string, status = 'True', at = '2026-01-01T00:00:00Z'): DeploymentCondition => ({ type: 'Progressing', status, reason, message: 'm', lastUpdateTime: at, lastTransitionTime: at });
const dep = (paused: boolean, conditions: DeploymentCondition[], deadline: number | null = 600): Deployment =>
  ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { paused, ...(deadline === null ? {} : { progressDeadlineSeconds: deadline }), selector: {}, template: {} }, status: { conditions } } as Deployment);

// sync.go checkPausedConditions.
const pausedCases: { name: string; d: Deployment; want: [string, string, string, string] | undefined }[] = [
  { name: 'pausing sets Progressing Unknown DeploymentPaused "Deployment is paused"', d: dep(true, [cond('NewReplicaSetAvailable')]), want: ['Unknown', 'DeploymentPaused', 'Deployment is paused', NOW] },
  { name: 'resuming sets Progressing Unknown DeploymentResumed "Deployment is resumed", the deadline counting from now', d: dep(false, [cond('DeploymentPaused', 'Unknown')]), want: ['Unknown', 'DeploymentResumed', 'Deployment is resumed', NOW] },
  { name: 'staying paused changes nothing, however long ago it was paused', d: dep(true, [cond('DeploymentPaused', 'Unknown', '2025-01-01T00:00:00Z')]), want: undefined },
  { name: 'a Deployment that already timed out keeps ProgressDeadlineExceeded when paused', d: dep(true, [cond('ProgressDeadlineExceeded', 'False')]), want: undefined },
  { name: 'without a progress deadline there is no paused condition', d: dep(true, [], null), want: undefined },
  { name: 'progressDeadlineSeconds math.MaxInt32 counts as no deadline', d: dep(true, [], 2147483647), want: undefined },
  { name: 'a Deployment never paused gets no resumed condition', d: dep(false, [cond('ReplicaSetUpdated')]), want: undefined },
];
for (const c of pausedCases) {
  test(`checkPausedConditions: ${c.name}`, () => {
    const out = pausedConditions(c.d, NOW)?.find((x) => x.type === 'Progressing');
    assert.deepEqual(out && [out.status, out.reason, out.message, out.lastUpdateTime], c.want);
  });
}

const ORPHANS = ['frontend-a', 'frontend-b', 'backend-a'].map((n) => `---
apiVersion: v1
kind: Pod
metadata:
  name: ${n}
  namespace: default
  labels:
    tier: ${n.split('-')[0]}
spec:
  containers:
    - name: app
      image: nginx:1.27
`).join('');
const frontend = (replicas: number) => `apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: frontend
spec:
  replicas: ${replicas}
  selector:
    matchLabels:
      tier: frontend
  template:
    metadata:
      labels:
        tier: frontend
    spec:
      containers:
        - name: app
          image: nginx:1.27
`;

function simulate(manifest: string, cluster: string): Simulation {
  const inputs = loadInputs({ manifest: { file: 'm.yaml', text: manifest }, clusters: [{ file: 'c.yaml', text: cluster }], identity: { kind: 'default' } });
  inputs.cluster.objects.unshift(...embeddedCluster());
  inputs.cluster.profile = defaultProfile();
  const sim = new Simulation(inputs);
  sim.run();
  return sim;
}

const adoptionRuns: { name: string; replicas: number; adopted: string[]; events: [number, string, RegExp][]; pods: string[] }[] = [
  {
    name: 'a ReplicaSet of 3 adopts the 2 matching orphans, leaves the other one, and creates only 1 pod',
    replicas: 3, adopted: ['frontend-a', 'frontend-b'],
    // controller_utils.go RealPodControl: "Created pod: %v"; no event for the adoptions.
    events: [[0, 'SuccessfulCreate', /^Created pod: frontend-[a-z0-9]{5}$/]],
    pods: ['backend-a', 'frontend-a', 'frontend-b', 'frontend-*'],
  },
  {
    name: 'a ReplicaSet of 1 adopts both matching orphans, then deletes the surplus one by its ranking',
    replicas: 1, adopted: ['frontend-a', 'frontend-b'],
    // controller_utils.go RealPodControl.DeletePod: "Deleted pod: %v".
    events: [[0, 'SuccessfulDelete', /^Deleted pod: frontend-[ab]$/]],
    pods: ['backend-a', 'frontend-?'],
  },
];
for (const c of adoptionRuns) {
  test(`adoption: ${c.name}`, () => {
    const sim = simulate(frontend(c.replicas), ORPHANS);
    const steps = sim.trace.filter((e) => e.phase === 'controllers.replicaset' && e.field === 'metadata.ownerReferences');
    assert.deepEqual(steps.map((e) => [e.at, e.step?.name]), c.adopted.map((n) => [0, n]));
    for (const s of steps) assert.match(String(s.detail['body']), /^\{"metadata":\{"ownerReferences":\[\{"apiVersion":"apps\/v1","kind":"ReplicaSet","name":"frontend","uid":"[0-9a-f-]+","controller":true,"blockOwnerDeletion":true\}\],"uid":"[0-9a-f-]+"\}\}$/);
    const events = sim.events.filter((e) => e.object.startsWith('ReplicaSet/'));
    assert.equal(events.length, c.events.length);
    c.events.forEach(([at, reason, message], i) => { assert.equal(events[i]?.at, at); assert.equal(events[i]?.reason, reason); assert.match(events[i]?.message ?? '', message); });
    const pods = sim.store.list('Pod', 'default').map((p) => p.metadata?.name ?? '').sort();
    assert.equal(pods.length, c.pods.length);
    for (const p of sim.store.list('Pod', 'default')) {
      const owner = p.metadata?.ownerReferences?.[0];
      assert.equal(owner?.name, p.metadata?.labels?.['tier'] === 'frontend' ? 'frontend' : undefined, `${p.metadata?.name}'s controller`);
    }
  });
}

test('a claim patch naming another uid is refused as Invalid: metadata.uid is immutable (ReleasePod ignores that 422)', () => {
  // apimachinery/pkg/api/validation/objectmeta.go ValidateObjectMetaUpdate: ValidateImmutableField on metadata.uid.
  const sim = simulate(frontend(3), ORPHANS);
  const target = sim.store.get('Pod', 'default', 'backend-a');
  assert.ok(target);
  const steps = new ControllerClient(sim.api, 'replicaset-controller', 'controllers.replicaset').patch(target, releasePatch('rs-uid', 'not-the-uid'));
  let r = steps.next();
  while (!r.done) r = steps.next();
  assert.equal(r.value.ok, false);
  if (!r.value.ok) {
    assert.equal(r.value.error.status.code, 422);
    assert.match(r.value.error.message, /metadata\.uid: Invalid value: "not-the-uid": field is immutable/);
  }
});
