// The x509 authenticator on real certificates: verification against the client CA with Go's error texts
// (src/crypto/x509/verify.go), and the user CommonNameUserConversion makes
// (staging/src/k8s.io/apiserver/pkg/authentication/request/x509/x509.go).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { x509Authenticator } from '../../../../src/engine/apiserver/authn/x509';
import type { AuthnResult } from '../../../../src/engine/apiserver/authn/authenticator';
import { makeEnv } from './env';
import { CLIENT_AUTH, type Issued, issue, newCA, newClient, newKey, SERVER_AUTH } from './pki';

const ca = newCA('kubernetes');
const otherCA = newCA('other-ca');
const impostorEC = newCA('kubernetes');
const impostorRSA = newCA('kubernetes', 'rsa');
const rsaCA = newCA('kubernetes', 'rsa');
const expiredCA = newCA('kubernetes', 'ec', { notAfter: new Date('2025-06-01T00:00:00Z') });
const notACA = issue({ subject: { cn: 'kubernetes' }, key: newKey(), ca: false });
const intermediate = issue({ subject: { cn: 'intermediate' }, key: newKey(), issuer: ca, ca: true, keyUsage: 0x04, serial: 7n });

const hex = (b: Buffer): string => (b.toString('hex').toUpperCase().match(/../g) ?? []).join(':');
const sha1 = (i: Issued): Buffer => createHash('sha1').update(i.key.publicKey.export({ type: 'spki', format: 'der' })).digest();
/** ident is x509.go's certificateIdentifier: SN in decimal, SKID and AKID as colon-separated hex. */
const ident = (cert: Issued, issuer: Issued, serial = 1000n): string => `SN=${serial}, SKID=${hex(sha1(cert))}, AKID=${hex(sha1(issuer))}`;

const jane = newClient(ca, { cn: 'jane', o: ['dev', 'ops'] });
const fromOther = newClient(otherCA, { cn: 'jane' });
const fromImpostorEC = newClient(impostorEC, { cn: 'jane' });
const fromImpostorRSA = newClient(impostorRSA, { cn: 'jane' });
const expired = newClient(ca, { cn: 'jane' }, { notAfter: new Date('2025-12-31T23:59:59Z') });
const notYet = newClient(ca, { cn: 'jane' }, { notBefore: new Date('2026-01-01T00:00:01Z') });
const serverOnly = newClient(ca, { cn: 'jane' }, { extKeyUsage: [SERVER_AUTH] });
const noEku = issue({ subject: { cn: 'jane' }, key: newKey(), issuer: ca });
const noCN = newClient(ca, { o: ['dev'] });
const viaExpiredCA = newClient(expiredCA, { cn: 'jane' });
const viaLeafCA = newClient(notACA, { cn: 'jane' });
const viaIntermediate = newClient(intermediate, { cn: 'jane' }, { extKeyUsage: [CLIENT_AUTH] });

const cases: { name: string; pem: string; bundle?: string; want: AuthnResult }[] = [
  {
    name: 'a certificate the client CA signed is the user of its CN, in the groups of its O values',
    pem: jane.pem,
    want: { user: { name: 'jane', groups: ['dev', 'ops'], extra: { 'authentication.kubernetes.io/credential-id': [`X509SHA256=${createHash('sha256').update(jane.der).digest('hex')}`] } } },
  },
  {
    name: 'a certificate another CA signed fails verification: unknown authority',
    pem: fromOther.pem,
    want: { error: `verifying certificate ${ident(fromOther, otherCA)} failed: x509: certificate signed by unknown authority` },
  },
  {
    name: 'a CA with the same name but another ECDSA key is named in the hint',
    pem: fromImpostorEC.pem,
    want: { error: `verifying certificate ${ident(fromImpostorEC, impostorEC)} failed: x509: certificate signed by unknown authority (possibly because of "x509: ECDSA verification failure" while trying to verify candidate authority certificate "kubernetes")` },
  },
  {
    name: 'the client CA is RSA and the signature does not verify: crypto/rsa says so in the hint',
    pem: fromImpostorRSA.pem, bundle: rsaCA.pem,
    want: { error: `verifying certificate ${ident(fromImpostorRSA, impostorRSA)} failed: x509: certificate signed by unknown authority (possibly because of "crypto/rsa: verification error" while trying to verify candidate authority certificate "kubernetes")` },
  },
  {
    name: 'an expired certificate fails before any chain is built',
    pem: expired.pem,
    want: { error: `verifying certificate ${ident(expired, ca)} failed: x509: certificate has expired or is not yet valid: current time 2026-01-01T00:00:00Z is after 2025-12-31T23:59:59Z` },
  },
  {
    name: 'a certificate not yet valid fails the same way, "before"',
    pem: notYet.pem,
    want: { error: `verifying certificate ${ident(notYet, ca)} failed: x509: certificate has expired or is not yet valid: current time 2026-01-01T00:00:00Z is before 2026-01-01T00:00:01Z` },
  },
  {
    name: 'a server-auth-only certificate has the wrong extended key usage',
    pem: serverOnly.pem,
    want: { error: `verifying certificate ${ident(serverOnly, ca)} failed: x509: certificate specifies an incompatible key usage` },
  },
  {
    name: 'a certificate with no extended key usage is good for client auth',
    pem: noEku.pem,
    want: { user: { name: 'jane', groups: [], extra: { 'authentication.kubernetes.io/credential-id': [`X509SHA256=${createHash('sha256').update(noEku.der).digest('hex')}`] } } },
  },
  { name: 'a verified certificate without a CommonName has no opinion', pem: noCN.pem, want: null },
  {
    name: 'an expired client CA is the hint of an unknown authority',
    pem: viaExpiredCA.pem, bundle: expiredCA.pem,
    want: { error: `verifying certificate ${ident(viaExpiredCA, expiredCA)} failed: x509: certificate signed by unknown authority (possibly because of "x509: certificate has expired or is not yet valid: current time 2026-01-01T00:00:00Z is after 2025-06-01T00:00:00Z" while trying to verify candidate authority certificate "kubernetes")` },
  },
  {
    name: 'a "CA" that is not a CA (basicConstraints cA false) cannot sign',
    pem: viaLeafCA.pem, bundle: notACA.pem,
    want: { error: `verifying certificate ${ident(viaLeafCA, notACA)} failed: x509: certificate signed by unknown authority (possibly because of "x509: invalid signature: parent certificate cannot sign this kind of certificate" while trying to verify candidate authority certificate "kubernetes")` },
  },
];

for (const c of cases) {
  test(`x509: ${c.name}`, () => {
    const env = makeEnv((p) => { p.authentication.clientCA = c.bundle ?? ca.pem; });
    assert.deepEqual(x509Authenticator.authenticate({ certificatePem: c.pem }, env), c.want);
  });
}

test('x509: a leaf sent with its intermediate chains to the root', () => {
  const env = makeEnv((p) => { p.authentication.clientCA = ca.pem; });
  const r = x509Authenticator.authenticate({ certificatePem: viaIntermediate.pem + intermediate.pem }, env);
  assert.ok(r && 'user' in r && r.user.name === 'jane', JSON.stringify(r));
});

test('x509: the same leaf without its intermediate is of an unknown authority', () => {
  const env = makeEnv((p) => { p.authentication.clientCA = ca.pem; });
  const r = x509Authenticator.authenticate({ certificatePem: viaIntermediate.pem }, env);
  assert.deepEqual(r, { error: `verifying certificate ${ident(viaIntermediate, intermediate)} failed: x509: certificate signed by unknown authority` });
});

test('x509: a bundle of several CAs accepts a certificate of any of them', () => {
  const env = makeEnv((p) => { p.authentication.clientCA = otherCA.pem + ca.pem; });
  const r = x509Authenticator.authenticate({ certificatePem: jane.pem }, env);
  assert.ok(r && 'user' in r && r.user.name === 'jane');
});

test('x509: without a client CA the authenticator is not there: no opinion', () => {
  assert.equal(x509Authenticator.authenticate({ certificatePem: jane.pem }, makeEnv()), null);
});

test('x509: no certificate is no opinion', () => {
  assert.equal(x509Authenticator.authenticate({}, makeEnv((p) => { p.authentication.clientCA = ca.pem; })), null);
});

test('x509: the admin kubeconfig certificate is kubernetes-admin in kubeadm:cluster-admins', () => {
  assert.deepEqual(x509Authenticator.authenticate({ certificatePem: 'default-admin-certificate' }, makeEnv()), { user: { name: 'kubernetes-admin', groups: ['kubeadm:cluster-admins'] } });
});
