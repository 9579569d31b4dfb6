// The Deployment controller's arithmetic. See pkg/controller/deployment/util/deployment_util.go.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Deployment, ReplicaSet } from '../../../src/engine/api/types';
import { newRSNewReplicas, replicaSetProportion, resolveFenceposts, setCondition } from '../../../src/engine/controllers/deployment-util';

const deployment = (replicas: number, maxSurge?: number | string, maxUnavailable?: number | string): Deployment => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' },
  spec: { replicas, selector: {}, template: {}, strategy: { type: 'RollingUpdate', rollingUpdate: { ...(maxSurge !== undefined ? { maxSurge } : {}), ...(maxUnavailable !== undefined ? { maxUnavailable } : {}) } } },
} as Deployment);
const rs = (replicas: number, maxReplicas?: number): ReplicaSet => ({
  apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: `rs-${replicas}`, ...(maxReplicas !== undefined ? { annotations: { 'deployment.kubernetes.io/max-replicas': String(maxReplicas) } } : {}) }, spec: { replicas, selector: {} },
} as ReplicaSet);

const fenceposts: { name: string; d: Deployment; want: { surge: number; unavailable: number } }[] = [
  { name: '25% of 3: surge rounds up to 1, unavailable down to 0', d: deployment(3), want: { surge: 1, unavailable: 0 } },
  { name: '25% of 10: surge 3, unavailable 2', d: deployment(10), want: { surge: 3, unavailable: 2 } },
  { name: 'both 0 makes maxUnavailable 1', d: deployment(4, 0, 0), want: { surge: 0, unavailable: 1 } },
  { name: 'integers are taken as they are', d: deployment(4, 2, 1), want: { surge: 2, unavailable: 1 } },
];
for (const c of fenceposts) test(`ResolveFenceposts: ${c.name}`, () => assert.deepEqual(resolveFenceposts(c.d), c.want));

test('NewRSNewReplicas: the new ReplicaSet grows only up to replicas + maxSurge pods in all', () => {
  const d = deployment(3);
  assert.equal(newRSNewReplicas(d, [rs(3), rs(0)], rs(0)), 1);
  assert.equal(newRSNewReplicas(d, [rs(2), rs(1)], rs(1)), 2);
  assert.equal(newRSNewReplicas(d, [rs(3), rs(1)], rs(1)), 1);
});

test('proportional scaling: 10 -> 15 replicas mid-rollout (8 old, 5 new, maxSurge 3) adds 3 to the old and 2 to the new', () => {
  // The documented example (concepts/workloads/controllers/deployment "Proportional scaling"); max-replicas was 13 before.
  const d = deployment(15, 3, 2);
  const old = replicaSetProportion(d, rs(8, 13), 5, 0);
  const neu = replicaSetProportion(d, rs(5, 13), 5, old);
  assert.deepEqual([old, neu], [3, 2]);
});

test('SetDeploymentCondition keeps lastTransitionTime when only the reason changes, and moves the condition last', () => {
  const c = (type: string, status: string, reason: string, at: string) => ({ type, status, reason, message: '', lastUpdateTime: at, lastTransitionTime: at });
  const out = setCondition([c('Progressing', 'True', 'NewReplicaSetCreated', 't0'), c('Available', 'False', 'MinimumReplicasUnavailable', 't0')], c('Progressing', 'True', 'NewReplicaSetAvailable', 't1'));
  assert.deepEqual(out.map((x) => [x.type, x.reason, x.lastUpdateTime, x.lastTransitionTime]), [['Available', 'MinimumReplicasUnavailable', 't0', 't0'], ['Progressing', 'NewReplicaSetAvailable', 't1', 't0']]);
});
