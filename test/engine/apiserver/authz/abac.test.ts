// The ABAC authorizer: versioned and unversioned policy lines, subject, readonly, resource and path matching.
// See pkg/auth/authorizer/abac/abac.go and pkg/apis/abac/v0/conversion.go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AuthzAttributes } from '../../../../src/engine/apiserver/authz/authorizer';
import { abacAuthorizer, readPolicy } from '../../../../src/engine/apiserver/authz/abac';
import { defaultProfile } from '../../../../src/engine/cluster/inputs';
import { path, res, storeOf, user } from './helpers';

const v1 = (spec: object): object => ({ apiVersion: 'abac.authorization.kubernetes.io/v1beta1', kind: 'Policy', spec });
const profile = defaultProfile();
profile.authorization.modes = ['ABAC'];
profile.authorization.abac = [
  v1({ user: 'alice', namespace: '*', resource: '*', apiGroup: '*' }),
  v1({ group: 'viewers', readonly: true, namespace: 'prod', resource: 'pods', apiGroup: '' }),
  v1({ user: 'bob', namespace: 'dev', resource: 'deployments', apiGroup: 'apps' }),
  v1({ user: '*', nonResourcePath: '/healthz' }),
  v1({ group: 'system:authenticated', readonly: true, nonResourcePath: '/openapi/*' }),
  { user: 'carol' },
];

const cases: { name: string; attrs: AuthzAttributes; allow: boolean }[] = [
  { name: 'a user line of * everywhere allows anything of that user', attrs: res(user('alice'), 'delete', 'secrets', { namespace: 'x' }), allow: true },
  { name: 'a * resource line does not match a path', attrs: path(user('alice'), 'get', '/metrics'), allow: false },
  { name: 'a readonly group line allows get', attrs: res(user('v', 'viewers'), 'get', 'pods', { namespace: 'prod' }), allow: true },
  { name: 'a readonly group line refuses create', attrs: res(user('v', 'viewers'), 'create', 'pods', { namespace: 'prod' }), allow: false },
  { name: 'the namespace must match', attrs: res(user('v', 'viewers'), 'get', 'pods', { namespace: 'dev' }), allow: false },
  { name: 'the API group must match', attrs: res(user('bob'), 'create', 'deployments', { group: 'apps', namespace: 'dev' }), allow: true },
  { name: 'another group is not matched', attrs: res(user('bob'), 'create', 'deployments', { group: 'extensions', namespace: 'dev' }), allow: false },
  { name: 'a path line with user * matches anyone', attrs: path(user('zed'), 'get', '/healthz'), allow: true },
  { name: 'a path line with a * suffix matches the paths below', attrs: path(user('zed'), 'get', '/openapi/v3'), allow: true },
  { name: 'a readonly path line refuses a post', attrs: path(user('zed'), 'post', '/openapi/v3'), allow: false },
  { name: 'an unversioned line of a user gives everything of every namespace and group', attrs: res(user('carol'), 'create', 'pods', { group: 'x.io', namespace: 'y' }), allow: true },
  { name: 'an unversioned line without namespace and resource allows paths too', attrs: path(user('carol'), 'get', '/metrics'), allow: true },
];
for (const c of cases) {
  test(`ABAC: ${c.name}`, () => {
    const r = abacAuthorizer.authorize(c.attrs, storeOf(), profile);
    assert.deepEqual([r.decision, r.reason], c.allow ? ['Allow', ''] : ['NoOpinion', 'No policy matched.']);
  });
}

const conversions = [
  { name: 'no user and no group is every authenticated user', line: { resource: 'pods' }, want: { user: '', group: 'system:authenticated', readonly: false, apiGroup: '*', resource: 'pods', namespace: '*', nonResourcePath: '' } },
  { name: 'user * becomes the authenticated group', line: { user: '*', readonly: true }, want: { user: '', group: 'system:authenticated', readonly: true, apiGroup: '*', resource: '*', namespace: '*', nonResourcePath: '*' } },
  { name: 'a line of another apiVersion is read as unversioned', line: { apiVersion: 'abac.authorization.kubernetes.io/v1', kind: 'Policy', spec: { user: 'x' } }, want: { user: '', group: 'system:authenticated', readonly: false, apiGroup: '*', resource: '*', namespace: '*', nonResourcePath: '*' } },
];
for (const c of conversions) test(`ABAC v0: ${c.name}`, () => assert.deepEqual(readPolicy(c.line), c.want));
