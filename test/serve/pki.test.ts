// The served PKI: the DER writer's encodings, the certificates as node:crypto and the engine's reader see them,
// and client certificates going through the engine's authenticator chain into the right user and groups.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readDer, children, timeOf } from '../../src/engine/apiserver/authn/asn1';
import { EXT_KEY_USAGE, parseCertificate, splitPem } from '../../src/engine/apiserver/authn/certificate';
import { authenticate } from '../../src/engine/apiserver/authn/index';
import { ADMIN_USER, DEFAULT_CREDENTIALS } from '../../src/engine/apiserver/authn/x509';
import { derLength, integer, namedBits, time } from '../../src/serve/der';
import {
  CA_COMMON_NAME, createCA, createServePki, defaultValidity, type IssuedCertificate, issueClientCertificate, issueServingCertificate, withClientCA,
} from '../../src/serve/pki';
import { makeEnv } from '../engine/apiserver/authn/env';

const hex = (b: Buffer): string => b.toString('hex');

const derCases: { name: string; got: () => Buffer; want: string }[] = [
  { name: 'a CA key usage (digitalSignature, keyCertSign, cRLSign) has one unused bit', got: () => namedBits([0, 5, 6]), want: '03020186' },
  { name: 'a leaf key usage (digitalSignature, keyEncipherment) has five unused bits', got: () => namedBits([0, 2]), want: '030205a0' },
  { name: 'a key usage reaching into a second octet keeps it, with its own unused bits', got: () => namedBits([0, 8]), want: '0303078080' },
  { name: 'an integer whose top bit is set gets a leading zero octet', got: () => integer(0x80n), want: '02020080' },
  { name: 'a small integer takes one octet, no padding', got: () => integer(1n), want: '020101' },
  { name: 'zero is one zero octet', got: () => integer(0n), want: '020100' },
  { name: 'a length of 200 takes the long form with one octet', got: () => derLength(200), want: '81c8' },
  { name: 'a length of 300 takes the long form with two octets', got: () => derLength(300), want: '82012c' },
  { name: 'a time before 2050 is a UTCTime with seconds', got: () => time(new Date('2049-12-31T23:59:59Z')), want: hex(Buffer.concat([Buffer.from([0x17, 13]), Buffer.from('491231235959Z')])) },
  { name: 'a time from 2050 on is a GeneralizedTime', got: () => time(new Date('2050-01-01T00:00:00Z')), want: hex(Buffer.concat([Buffer.from([0x18, 15]), Buffer.from('20500101000000Z')])) },
];

for (const c of derCases) test(c.name, () => assert.equal(hex(c.got()), c.want));

const validity = { notBefore: new Date('2026-01-01T00:00:00Z'), notAfter: new Date('2027-01-01T00:00:00Z') };
const ca = createCA(CA_COMMON_NAME, validity);
const serving = issueServingCertificate(ca, validity);
const admin = issueClientCertificate(ca, ADMIN_USER.name, ADMIN_USER.groups, validity);
const bob = issueClientCertificate(ca, 'bob', ['dev', 'ops'], validity);
const keyUsage = { digitalSignature: 1 << 0, keyEncipherment: 1 << 2, keyCertSign: 1 << 5, cRLSign: 1 << 6 };

/** seen is what node:crypto and the engine's reader make of a certificate, in one comparable shape. */
function seen(cert: IssuedCertificate) {
  const parsed = parseCertificate(splitPem(cert.certificatePem)[0]!);
  return {
    subject: cert.x509.subject, issuer: cert.x509.issuer, ca: cert.x509.ca, subjectAltName: cert.x509.subjectAltName,
    signedByCA: cert.x509.verify(ca.x509.publicKey), isCA: parsed.isCA, basicConstraintsValid: parsed.basicConstraintsValid,
    keyUsage: parsed.keyUsage, extKeyUsage: parsed.extKeyUsage, authorityKeyIdIsCAs: parsed.authorityKeyId.equals(ca.keyId),
    notBefore: parsed.notBefore.toISOString(), notAfter: parsed.notAfter.toISOString(),
  };
}

const certCases: { name: string; cert: IssuedCertificate; want: ReturnType<typeof seen> }[] = [
  {
    name: 'the CA is self-signed, a CA, and may sign certificates and CRLs',
    cert: ca,
    want: {
      subject: 'CN=pod-lifecycle-ca', issuer: 'CN=pod-lifecycle-ca', ca: true, subjectAltName: undefined, signedByCA: true, isCA: true,
      basicConstraintsValid: true, keyUsage: keyUsage.digitalSignature | keyUsage.keyCertSign | keyUsage.cRLSign, extKeyUsage: [],
      authorityKeyIdIsCAs: false, notBefore: '2026-01-01T00:00:00.000Z', notAfter: '2027-01-01T00:00:00.000Z',
    },
  },
  {
    name: 'the serving certificate names 127.0.0.1 and the apiserver DNS names, for server auth',
    cert: serving,
    want: {
      subject: 'CN=kube-apiserver', issuer: 'CN=pod-lifecycle-ca', ca: false,
      subjectAltName: 'DNS:localhost, DNS:kubernetes, DNS:kubernetes.default, DNS:kubernetes.default.svc, DNS:kubernetes.default.svc.cluster.local, IP Address:127.0.0.1',
      signedByCA: true, isCA: false, basicConstraintsValid: true, keyUsage: keyUsage.digitalSignature | keyUsage.keyEncipherment,
      extKeyUsage: [EXT_KEY_USAGE.serverAuth], authorityKeyIdIsCAs: true, notBefore: '2026-01-01T00:00:00.000Z', notAfter: '2027-01-01T00:00:00.000Z',
    },
  },
  {
    name: "the admin's client certificate is admin.conf's: O=kubeadm:cluster-admins, CN=kubernetes-admin, for client auth",
    cert: admin,
    want: {
      subject: 'O=kubeadm:cluster-admins\nCN=kubernetes-admin', issuer: 'CN=pod-lifecycle-ca', ca: false, subjectAltName: undefined, signedByCA: true,
      isCA: false, basicConstraintsValid: true, keyUsage: keyUsage.digitalSignature | keyUsage.keyEncipherment, extKeyUsage: [EXT_KEY_USAGE.clientAuth],
      authorityKeyIdIsCAs: true, notBefore: '2026-01-01T00:00:00.000Z', notAfter: '2027-01-01T00:00:00.000Z',
    },
  },
  {
    name: 'a client certificate carries one O per group, in order',
    cert: bob,
    want: {
      subject: 'O=dev\nO=ops\nCN=bob', issuer: 'CN=pod-lifecycle-ca', ca: false, subjectAltName: undefined, signedByCA: true,
      isCA: false, basicConstraintsValid: true, keyUsage: keyUsage.digitalSignature | keyUsage.keyEncipherment, extKeyUsage: [EXT_KEY_USAGE.clientAuth],
      authorityKeyIdIsCAs: true, notBefore: '2026-01-01T00:00:00.000Z', notAfter: '2027-01-01T00:00:00.000Z',
    },
  },
];

for (const c of certCases) test(c.name, () => assert.deepEqual(seen(c.cert), c.want));

test('the serving certificate matches 127.0.0.1 and localhost, and no other name', () => {
  assert.deepEqual(
    [serving.x509.checkIP('127.0.0.1'), serving.x509.checkHost('localhost'), serving.x509.checkHost('kubernetes.default.svc'), serving.x509.checkIP('10.0.0.1'), serving.x509.checkHost('example.com')],
    ['127.0.0.1', 'localhost', 'kubernetes.default.svc', undefined, undefined],
  );
});

test('serial numbers are random, positive and at most 128 bits', () => {
  const serials = [ca, serving, admin, bob].map((c) => parseCertificate(splitPem(c.certificatePem)[0]!).serialNumber);
  assert.equal(new Set(serials).size, serials.length);
  for (const s of serials) assert.ok(s > 0n && s < 1n << 128n, `serial ${s}`);
});

test('the default validity runs from an hour ago to a year from now, in whole seconds', () => {
  const now = new Date('2026-12-02T15:30:45.678Z');
  assert.deepEqual(defaultValidity(now), { notBefore: new Date('2026-12-02T14:30:45Z'), notAfter: new Date('2027-12-02T15:30:45Z') });
});

test('a validity past 2049 is written as GeneralizedTime and read back by the engine and node:crypto', () => {
  const late = createCA('late', { notBefore: new Date('2049-06-01T00:00:00Z'), notAfter: new Date('2051-06-01T00:00:00Z') });
  const tbs = children(children(readDer(splitPem(late.certificatePem)[0]!))[0]!);
  const [from, to] = children(tbs[4]!);
  assert.deepEqual([from!.tag, to!.tag, timeOf(from!).toISOString(), timeOf(to!).toISOString(), late.x509.validTo],
    [0x17, 0x18, '2049-06-01T00:00:00.000Z', '2051-06-01T00:00:00.000Z', 'Jun  1 00:00:00 2051 GMT']);
});

test('private keys are PKCS#8 PEM', () => {
  for (const c of [ca, serving, admin]) assert.match(c.keyPem, /^-----BEGIN PRIVATE KEY-----\n[\s\S]+\n-----END PRIVATE KEY-----\n$/);
});

test('withClientCA adds the CA to a client CA bundle once, or is the CA alone', () => {
  const other = createCA('other', validity);
  const both = withClientCA(other.certificatePem, ca.certificatePem);
  assert.deepEqual([withClientCA(undefined, ca.certificatePem), splitPem(both).length, withClientCA(both, ca.certificatePem)], [ca.certificatePem, 2, both]);
});

// (b) The engine's authenticator chain, with the profile's client CA bundle holding ours (as serve will set it).
const now = new Date();
const pki = createServePki(ADMIN_USER);
const stranger = createCA(CA_COMMON_NAME);
const otherBundle = createCA('corp-ca').certificatePem;
const credentialId = (cert: IssuedCertificate): string[] => [`X509SHA256=${cert.x509.fingerprint256.replace(/:/g, '').toLowerCase()}`];
const carol = issueClientCertificate(pki.ca, 'carol', []);
const fromStranger = issueClientCertificate(stranger, 'mallory', ['system:masters']);

const authnCases: { name: string; pem: string; bundle?: string; want: { user?: { name: string; groups: string[] }; extra?: string[]; error?: RegExp } }[] = [
  {
    name: "the admin's certificate authenticates as kubernetes-admin in kubeadm:cluster-admins, as the engine's default admin does",
    pem: pki.admin.certificatePem, want: { user: { name: 'kubernetes-admin', groups: ['kubeadm:cluster-admins', 'system:authenticated'] }, extra: credentialId(pki.admin) },
  },
  {
    name: 'a client certificate is the user of its CN in the groups of its O values',
    pem: issueClientCertificate(pki.ca, 'bob', ['dev', 'ops']).certificatePem, want: { user: { name: 'bob', groups: ['dev', 'ops', 'system:authenticated'] } },
  },
  { name: 'a client certificate without O is a user with no group but system:authenticated', pem: carol.certificatePem, want: { user: { name: 'carol', groups: ['system:authenticated'] }, extra: credentialId(carol) } },
  {
    name: 'our CA added to an existing client CA bundle still verifies our certificates',
    pem: pki.admin.certificatePem, bundle: withClientCA(otherBundle, pki.ca.certificatePem), want: { user: { name: 'kubernetes-admin', groups: ['kubeadm:cluster-admins', 'system:authenticated'] } },
  },
  { name: 'a certificate another CA of the same name signed fails: unknown authority', pem: fromStranger.certificatePem, want: { error: /^verifying certificate SN=\d+, SKID=, AKID=[0-9A-F:]+ failed: x509: certificate signed by unknown authority/ } },
  { name: 'the serving certificate is no client certificate: incompatible key usage', pem: pki.serving.certificatePem, want: { error: /x509: certificate specifies an incompatible key usage$/ } },
];

for (const c of authnCases) {
  test(c.name, () => {
    const outcome = authenticate({ certificatePem: c.pem }, makeEnv((p) => (p.authentication.clientCA = c.bundle ?? withClientCA(undefined, pki.ca.certificatePem)), [], now));
    if (c.want.error) {
      assert.equal(outcome.user, undefined);
      assert.match(outcome.error ?? '', c.want.error);
      return;
    }
    assert.equal(outcome.authenticator, 'x509');
    assert.deepEqual({ name: outcome.user?.name, groups: outcome.user?.groups }, c.want.user);
    if (c.want.extra) assert.deepEqual(outcome.user?.extra?.['authentication.kubernetes.io/credential-id'], c.want.extra);
  });
}

test("the served admin is the same user and groups as the engine's built-in admin credentials", () => {
  const env = makeEnv((p) => (p.authentication.clientCA = pki.ca.certificatePem), [], now);
  const served = authenticate({ certificatePem: pki.admin.certificatePem }, env).user;
  const builtIn = authenticate({ certificatePem: DEFAULT_CREDENTIALS }, env).user;
  assert.deepEqual({ name: served?.name, groups: served?.groups }, { name: builtIn?.name, groups: builtIn?.groups });
});
