// The kubeconfig serve writes: its cluster and contexts, read back by the engine's own kubeconfig reader, and each
// context's credentials authenticated by the engine's chain as the user they stand for.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { authenticate } from '../../src/engine/apiserver/authn/index';
import { ADMIN_USER } from '../../src/engine/apiserver/authn/x509';
import { defaultProfile, type Identity } from '../../src/engine/cluster/inputs';
import { identityFromKubeconfig } from '../../src/engine/cluster/kubeconfig';
import { credentialsFor } from '../../src/engine/kubectl/credentials';
import { buildKubeconfig, serveUsers, type ServeUser } from '../../src/serve/kubeconfig';
import { createServePki, issueClientCertificate, withClientCA } from '../../src/serve/pki';
import { makeEnv } from '../engine/apiserver/authn/env';

const pki = createServePki(ADMIN_USER);
const noFiles = (path: string): string => {
  throw new Error(`no file ${path}`);
};

test('the kubeconfig names one cluster at https://127.0.0.1:PORT with the CA, and the admin context is current', () => {
  const kubeconfig = buildKubeconfig({ port: 6443, ca: pki.ca, admin: pki.admin });
  const doc = parse(kubeconfig.yaml) as { clusters: { name: string; cluster: Record<string, string> }[]; contexts: unknown[]; 'current-context': string; users: { name: string; user: Record<string, string> }[] };
  assert.deepEqual({
    clusters: doc.clusters.map((c) => ({ name: c.name, server: c.cluster['server'], ca: Buffer.from(c.cluster['certificate-authority-data']!, 'base64').toString() })),
    contexts: doc.contexts, current: doc['current-context'], users: doc.users.map((u) => ({ name: u.name, fields: Object.keys(u.user) })),
  }, {
    clusters: [{ name: 'pod-lifecycle', server: 'https://127.0.0.1:6443', ca: pki.ca.certificatePem }],
    contexts: [{ name: 'kubernetes-admin@pod-lifecycle', context: { cluster: 'pod-lifecycle', namespace: 'default', user: 'kubernetes-admin' } }],
    current: 'kubernetes-admin@pod-lifecycle', users: [{ name: 'kubernetes-admin', fields: ['client-certificate-data', 'client-key-data'] }],
  });
  assert.equal(Buffer.from(doc.users[0]!.user['client-key-data']!, 'base64').toString(), pki.admin.keyPem);
});

const profile = defaultProfile();
profile.authentication.tokens = [{ token: '31ada4fd', user: 'alice', uid: '1001', groups: ['dev'] }, { token: 'b0b5ecre7', user: 'bob' }];
profile.authentication.clientCA = withClientCA(undefined, pki.ca.certificatePem);
const alice: ServeUser = { kind: 'token', name: 'alice', token: '31ada4fd' };
const bob: ServeUser = { kind: 'token', name: 'bob', token: 'b0b5ecre7' };

const userCases: { name: string; identity?: Identity; want: ServeUser[] }[] = [
  { name: 'every static token of the profile is a token user, in order', want: [alice, bob] },
  { name: 'the run identity being the admin adds nobody', identity: { kind: 'default' }, want: [alice, bob] },
  { name: 'a token already in the token file is not added twice', identity: { kind: 'token', token: '31ada4fd' }, want: [alice, bob] },
  { name: 'a token the file does not hold stays a token user (it will get 401)', identity: { kind: 'token', token: 'nope' }, want: [alice, bob, { kind: 'token', name: 'token-user', token: 'nope' }] },
  { name: 'an impersonated user becomes a certificate user with its groups', identity: { kind: 'impersonate', user: 'jane', groups: ['qa'] }, want: [alice, bob, { kind: 'certificate', name: 'jane', groups: ['qa'] }] },
  {
    name: 'a certificate identity becomes a certificate user of its CN and O values',
    identity: { kind: 'certificate', certificatePem: issueClientCertificate(pki.ca, 'dave', ['ops', 'sre']).certificatePem },
    want: [alice, bob, { kind: 'certificate', name: 'dave', groups: ['ops', 'sre'] }],
  },
  { name: 'a certificate identity that does not parse gets no context', identity: { kind: 'certificate', certificatePem: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n' }, want: [alice, bob] },
  { name: 'anonymous gets no context, since kubectl prompts for a password for a user without credentials', identity: { kind: 'anonymous' }, want: [alice, bob] },
];

for (const c of userCases) test(c.name, () => assert.deepEqual(serveUsers(profile, c.identity), c.want));

// Every context, read back by the engine's kubeconfig reader and authenticated as the engine would.
const kubeconfig = buildKubeconfig({
  port: 6443, ca: pki.ca, admin: pki.admin,
  users: [...serveUsers(profile, { kind: 'impersonate', user: 'jane', groups: ['qa', 'dev'] }), { kind: 'certificate', name: 'alice', groups: [] }],
});

test('contexts come in order with unique names: the admin, the token users, the certificate users', () => {
  assert.deepEqual(kubeconfig.contexts, ['kubernetes-admin@pod-lifecycle', 'alice@pod-lifecycle', 'bob@pod-lifecycle', 'jane@pod-lifecycle', 'alice-2@pod-lifecycle']);
  assert.deepEqual([...kubeconfig.certificates.keys()], ['jane', 'alice-2']);
});

const contextCases: { name: string; context?: string; want: { kind: Identity['kind']; user: string; groups: string[] } }[] = [
  { name: 'the current context is the admin, with a certificate the engine authenticates as kubernetes-admin', want: { kind: 'certificate', user: 'kubernetes-admin', groups: ['kubeadm:cluster-admins', 'system:authenticated'] } },
  { name: "a token user's context sends its token, which the token file maps to the user", context: 'alice@pod-lifecycle', want: { kind: 'token', user: 'alice', groups: ['dev', 'system:authenticated'] } },
  { name: 'a token user without groups is only system:authenticated', context: 'bob@pod-lifecycle', want: { kind: 'token', user: 'bob', groups: ['system:authenticated'] } },
  { name: "a certificate user's context sends a certificate our CA signed for its name and groups", context: 'jane@pod-lifecycle', want: { kind: 'certificate', user: 'jane', groups: ['qa', 'dev', 'system:authenticated'] } },
  { name: 'a second user of a taken name gets its own context and the certificate of its own name', context: 'alice-2@pod-lifecycle', want: { kind: 'certificate', user: 'alice', groups: ['system:authenticated'] } },
];

for (const c of contextCases) {
  test(c.name, () => {
    const identity = identityFromKubeconfig('kubeconfig', kubeconfig.yaml, c.context, noFiles);
    const outcome = authenticate(credentialsFor(identity), makeEnv((p) => Object.assign(p, profile), [], new Date()));
    assert.deepEqual({ kind: identity.kind, user: outcome.user?.name, groups: outcome.user?.groups }, c.want);
  });
}
