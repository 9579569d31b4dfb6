// The Webhook authorizer, answering from the profile's rules as the SubjectAccessReview would.
// See staging/src/k8s.io/apiserver/plugin/pkg/authorizer/webhook/webhook.go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AuthzAttributes } from '../../../../src/engine/apiserver/authz/authorizer';
import { webhookAuthorizer } from '../../../../src/engine/apiserver/authz/webhook';
import { defaultProfile } from '../../../../src/engine/cluster/inputs';
import { path, res, storeOf, user } from './helpers';

const profile = defaultProfile();
profile.authorization.modes = ['Webhook', 'RBAC'];
profile.authorization.webhook = [
  { user: 'bob', verb: 'create', resource: 'pods', decision: 'deny', reason: 'pods are created by the release pipeline' },
  { group: 'auditors', decision: 'allow', reason: 'auditors see everything' },
  { resource: 'pods/exec', decision: 'deny', reason: 'no exec' },
  { namespace: 'sandbox', decision: 'noOpinion', reason: 'sandbox is RBAC\'s' },
];

const cases: { name: string; attrs: AuthzAttributes; want: [string, string] }[] = [
  { name: 'the first matching rule denies with its reason', attrs: res(user('bob'), 'create', 'pods', { namespace: 'default' }), want: ['Deny', 'pods are created by the release pipeline'] },
  { name: 'a field that does not match skips the rule', attrs: res(user('bob'), 'get', 'pods', { namespace: 'default' }), want: ['NoOpinion', ''] },
  { name: 'a group rule matches members, paths too', attrs: path(user('ann', 'auditors'), 'get', '/metrics'), want: ['Allow', 'auditors see everything'] },
  { name: 'a resource rule names a subresource as resource/sub', attrs: res(user('eve'), 'create', 'pods/exec', { namespace: 'default', name: 'web' }), want: ['Deny', 'no exec'] },
  { name: 'a resource rule never matches a path', attrs: path(user('eve'), 'get', '/pods/exec'), want: ['NoOpinion', ''] },
  { name: 'a noOpinion rule gives its reason and lets the next mode decide', attrs: res(user('eve'), 'get', 'pods', { namespace: 'sandbox' }), want: ['NoOpinion', 'sandbox is RBAC\'s'] },
];
for (const c of cases) {
  test(`Webhook: ${c.name}`, () => {
    const r = webhookAuthorizer.authorize(c.attrs, storeOf(), profile);
    assert.deepEqual([r.decision, r.reason], c.want);
  });
}
