// The authorizer chain: system:masters first, then the modes in order; the first Allow or Deny decides with its
// own reason, else the reasons gathered on the way, one a line. See staging/src/k8s.io/apiserver/pkg/authorization/union/union.go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { authorize } from '../../../../src/engine/apiserver/authz';
import { type ClusterProfile, defaultProfile } from '../../../../src/engine/cluster/inputs';
import { bind, res, storeOf, user } from './helpers';

const store = storeOf(bind('ClusterRoleBinding', 'x', 'ClusterRole/ghost', [{ kind: 'User', name: 'bob' }]));
const profile = (modes: string[], set: (p: ClusterProfile) => void = () => undefined): ClusterProfile => {
  const p = defaultProfile();
  p.authorization.modes = modes;
  set(p);
  return p;
};
const attrs = res(user('bob'), 'create', 'pods', { namespace: 'default' });

const cases: { name: string; p: ClusterProfile; u?: ReturnType<typeof user>; want: { allowed: boolean; decision: string; reason: string; by?: string } }[] = [
  { name: 'system:masters is allowed before any mode is asked', p: profile(['AlwaysDeny']), u: user('root', 'system:masters'), want: { allowed: true, decision: 'Allow', reason: '', by: 'SystemPrivilegedGroup' } },
  { name: 'no mode allowing: the reasons of all, one a line', p: profile(['AlwaysDeny', 'RBAC']), want: { allowed: false, decision: 'NoOpinion', reason: 'Everything is forbidden.\nRBAC: clusterrole.rbac.authorization.k8s.io "ghost" not found' } },
  { name: 'AlwaysDeny first does not stop AlwaysAllow after it', p: profile(['AlwaysDeny', 'AlwaysAllow']), want: { allowed: true, decision: 'Allow', reason: '', by: 'AlwaysAllow' } },
  {
    name: 'a webhook Deny ends the chain with only its own reason', p: profile(['Webhook', 'RBAC', 'AlwaysAllow'], (x) => { x.authorization.webhook = [{ user: 'bob', decision: 'deny', reason: 'nope' }]; }),
    want: { allowed: false, decision: 'Deny', reason: 'nope', by: 'Webhook' },
  },
  {
    name: 'a webhook noOpinion passes to the next mode', p: profile(['Webhook', 'AlwaysAllow'], (x) => { x.authorization.webhook = [{ user: 'bob', decision: 'noOpinion', reason: 'not mine' }]; }),
    want: { allowed: true, decision: 'Allow', reason: '', by: 'AlwaysAllow' },
  },
  {
    name: 'ABAC allows when RBAC has no opinion', p: profile(['RBAC', 'ABAC'], (x) => { x.authorization.abac = [{ apiVersion: 'abac.authorization.kubernetes.io/v1beta1', kind: 'Policy', spec: { user: 'bob', namespace: '*', resource: '*', apiGroup: '*' } }]; }),
    want: { allowed: true, decision: 'Allow', reason: '', by: 'ABAC' },
  },
];
for (const c of cases) {
  test(`union: ${c.name}`, () => {
    const out = authorize(c.u ? { ...attrs, user: c.u } : attrs, store, c.p);
    assert.deepEqual({ allowed: out.allowed, decision: out.decision, reason: out.reason, ...(out.authorizer ? { by: out.authorizer } : {}) }, c.want);
  });
}
