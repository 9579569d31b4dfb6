// AlwaysAllow, AlwaysDeny and the system:masters authorizer that precedes every mode.
// See staging/src/k8s.io/apiserver/pkg/authorization/authorizerfactory/builtin.go and pkg/kubeapiserver/authorizer/reload.go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { alwaysAllow, alwaysDeny } from '../../../../src/engine/apiserver/authz/always';
import { privilegedGroupAuthorizer } from '../../../../src/engine/apiserver/authz/privileged-group';
import { defaultProfile } from '../../../../src/engine/cluster/inputs';
import { res, storeOf, user } from './helpers';

const attrs = res(user('bob'), 'delete', 'nodes', { name: 'worker-1' });
const cases = [
  { name: 'AlwaysAllow allows with no reason', a: alwaysAllow, u: user('bob'), want: ['Allow', ''] },
  { name: 'AlwaysDeny has no opinion, with "Everything is forbidden."', a: alwaysDeny, u: user('bob'), want: ['NoOpinion', 'Everything is forbidden.'] },
  { name: 'system:masters is allowed with no reason', a: privilegedGroupAuthorizer, u: user('root', 'system:masters'), want: ['Allow', ''] },
  { name: 'anyone else gets no opinion from the superuser authorizer', a: privilegedGroupAuthorizer, u: user('bob'), want: ['NoOpinion', ''] },
];
for (const c of cases) {
  test(`builtin: ${c.name}`, () => {
    const r = c.a.authorize({ ...attrs, user: c.u }, storeOf(), defaultProfile());
    assert.deepEqual([r.decision, r.reason], c.want);
  });
}
