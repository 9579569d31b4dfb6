// The served cluster's PKI, as kubeadm lays it out: a self-signed CA, a serving certificate for 127.0.0.1 and
// client certificates whose CN is the user and O the groups. ECDSA P-256 keys, ecdsa-with-SHA256, node:crypto only.
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign, X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';
import { children, readDer } from '../engine/apiserver/authn/asn1';
import { EXT_KEY_USAGE } from '../engine/apiserver/authn/certificate';
import {
  bitString, boolean, explicit, integer, namedBits, objectIdentifier, octetString, sequence, set, time, tlv, utf8String,
} from './der';

/** CA_COMMON_NAME is the CommonName of the CA `serve` creates. */
export const CA_COMMON_NAME = 'pod-lifecycle-ca';

/** SERVING_DNS_NAMES are the DNS names of the serving certificate: localhost and the in-cluster names of kube-apiserver. */
export const SERVING_DNS_NAMES = ['localhost', 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc', 'kubernetes.default.svc.cluster.local'] as const;

/** SERVING_IPS are the IP addresses of the serving certificate: the loopback address `serve` listens on. */
export const SERVING_IPS = ['127.0.0.1'] as const;

const OID = {
  commonName: '2.5.4.3', organization: '2.5.4.10', ecdsaWithSHA256: '1.2.840.10045.4.3.2',
  subjectKeyId: '2.5.29.14', keyUsage: '2.5.29.15', subjectAltName: '2.5.29.17', basicConstraints: '2.5.29.19',
  authorityKeyId: '2.5.29.35', extKeyUsage: '2.5.29.37',
} as const;

/** KEY_USAGE names the KeyUsage bits (RFC 5280 section 4.2.1.3), counted from the left. */
export const KEY_USAGE = { digitalSignature: 0, keyEncipherment: 2, keyCertSign: 5, cRLSign: 6 } as const;

/** IssuedCertificate is a certificate with its private key, both PEM, and the parsed certificate. */
export interface IssuedCertificate {
  certificatePem: string;
  /** keyPem is the private key as PKCS#8 (`PRIVATE KEY`), which Go's tls.X509KeyPair and node:tls both read. */
  keyPem: string;
  x509: X509Certificate;
}

/** CertificateAuthority is a CA that can sign: its certificate, its key and the DER of its subject name. */
export interface CertificateAuthority extends IssuedCertificate {
  privateKey: KeyObject;
  /** subject is the CA's DER subject name, copied byte for byte as the issuer of what it signs (Go chains by bytes). */
  subject: Buffer;
  /** keyId is the CA's subject key identifier, the authority key identifier of what it signs. */
  keyId: Buffer;
}

/** Validity bounds a certificate; the default runs from an hour ago (clock skew) to a year from now. */
export interface Validity {
  notBefore: Date;
  notAfter: Date;
}

/** defaultValidity is now-1h to now+1y, in whole seconds as a certificate holds them. */
export function defaultValidity(now: Date = new Date()): Validity {
  const t = Math.floor(now.getTime() / 1000) * 1000;
  return { notBefore: new Date(t - 3600_000), notAfter: new Date(t + 365 * 24 * 3600_000) };
}

/** createCA makes a self-signed CA: basicConstraints CA:true and keyUsage keyCertSign|cRLSign|digitalSignature, both critical. */
export function createCA(commonName: string = CA_COMMON_NAME, validity: Validity = defaultValidity()): CertificateAuthority {
  const { publicKey, privateKey } = newKey();
  const subject = distinguishedName(commonName, []);
  const keyId = subjectKeyId(publicKey);
  const extensions = [
    extension(OID.keyUsage, true, namedBits([KEY_USAGE.digitalSignature, KEY_USAGE.keyCertSign, KEY_USAGE.cRLSign])),
    extension(OID.basicConstraints, true, sequence(boolean(true))),
    extension(OID.subjectKeyId, false, octetString(keyId)),
  ];
  const der = certificate({ issuer: subject, subject, publicKey, validity, extensions, signer: privateKey });
  return { ...issued(der, privateKey), privateKey, subject, keyId };
}

/**
 * issueServingCertificate makes kube-apiserver's serving certificate for `serve`: SAN IP 127.0.0.1 and the DNS
 * names kubeadm gives the apiserver, extKeyUsage serverAuth, keyUsage digitalSignature|keyEncipherment.
 * See cmd/kubeadm/app/phases/certs/certlist.go (KubeadmCertAPIServer).
 */
export function issueServingCertificate(ca: CertificateAuthority, validity: Validity = defaultValidity()): IssuedCertificate {
  const names = [...SERVING_DNS_NAMES.map((n) => tlv(0x82, Buffer.from(n, 'ascii'))), ...SERVING_IPS.map(ipAddressName)];
  return issueLeaf(ca, distinguishedName('kube-apiserver', []), EXT_KEY_USAGE.serverAuth, validity, [
    extension(OID.subjectAltName, false, sequence(...names)),
  ]);
}

/**
 * issueClientCertificate makes a client certificate for a user: CN the user name, one O per group, extKeyUsage
 * clientAuth, as kubeadm's admin.conf certificate (CN=kubernetes-admin, O=kubeadm:cluster-admins).
 */
export function issueClientCertificate(ca: CertificateAuthority, user: string, groups: readonly string[], validity: Validity = defaultValidity()): IssuedCertificate {
  return issueLeaf(ca, distinguishedName(user, groups), EXT_KEY_USAGE.clientAuth, validity, []);
}

function issueLeaf(ca: CertificateAuthority, subject: Buffer, usage: string, validity: Validity, more: Buffer[]): IssuedCertificate {
  const { publicKey, privateKey } = newKey();
  const extensions = [
    extension(OID.keyUsage, true, namedBits([KEY_USAGE.digitalSignature, KEY_USAGE.keyEncipherment])),
    extension(OID.extKeyUsage, false, sequence(objectIdentifier(usage))),
    // Go's CreateCertificate writes an empty sequence (CA:false) for a leaf with BasicConstraintsValid.
    extension(OID.basicConstraints, true, sequence()),
    extension(OID.authorityKeyId, false, sequence(tlv(0x80, ca.keyId))),
    ...more,
  ];
  return issued(certificate({ issuer: ca.subject, subject, publicKey, validity, extensions, signer: ca.privateKey }), privateKey);
}

/** ServePki is everything `serve` needs: the CA, the serving certificate and the admin's client certificate. */
export interface ServePki {
  ca: CertificateAuthority;
  serving: IssuedCertificate;
  admin: IssuedCertificate;
}

/** createServePki makes a fresh CA, its serving certificate and a client certificate for the admin user and groups. */
export function createServePki(admin: { name: string; groups: readonly string[] }, validity: Validity = defaultValidity()): ServePki {
  const ca = createCA(CA_COMMON_NAME, validity);
  return { ca, serving: issueServingCertificate(ca, validity), admin: issueClientCertificate(ca, admin.name, admin.groups, validity) };
}

/**
 * withClientCA adds the CA to a --client-ca-file bundle (the profile's clientCA), so that the engine's x509
 * authenticator accepts the client certificates the CA signed beside those the bundle already trusts.
 */
export function withClientCA(bundle: string | undefined, caPem: string): string {
  if (!bundle) return caPem;
  if (bundle.includes(caPem.trim())) return bundle;
  return `${bundle.replace(/\n*$/, '\n')}${caPem}`;
}

function newKey(): { publicKey: KeyObject; privateKey: KeyObject } {
  return generateKeyPairSync('ec', { namedCurve: 'P-256' });
}

/** distinguishedName writes O values (one RDN each) then the CN, in the order Go's pkix.Name.ToRDNSequence uses. */
function distinguishedName(commonName: string, organizations: readonly string[]): Buffer {
  const rdn = (oid: string, value: string): Buffer => set(sequence(objectIdentifier(oid), utf8String(value)));
  return sequence(...organizations.map((o) => rdn(OID.organization, o)), rdn(OID.commonName, commonName));
}

/** subjectKeyId is RFC 5280's method 1, as Go computes it: SHA-1 of the subjectPublicKey BIT STRING's bits. */
function subjectKeyId(publicKey: KeyObject): Buffer {
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  const bits = children(readDer(spki))[1]!;
  return createHash('sha1').update(bits.value.subarray(1)).digest();
}

function extension(oid: string, critical: boolean, value: Buffer): Buffer {
  // DER leaves out a BOOLEAN equal to its DEFAULT: `critical` is written only when true.
  return sequence(objectIdentifier(oid), ...(critical ? [boolean(true)] : []), octetString(value));
}

function ipAddressName(ip: string): Buffer {
  if (isIP(ip) !== 4) throw new RangeError(`only IPv4 addresses are written: ${ip}`);
  return tlv(0x87, Buffer.from(ip.split('.').map(Number)));
}

/** serialNumber is a random positive 128-bit integer (RFC 5280: positive, at most 20 octets). */
function serialNumber(): bigint {
  const bytes = randomBytes(16);
  bytes[0]! &= 0x7f;
  const n = BigInt(`0x${bytes.toString('hex')}`);
  return n === 0n ? 1n : n;
}

interface TbsInput {
  issuer: Buffer;
  subject: Buffer;
  publicKey: KeyObject;
  validity: Validity;
  extensions: Buffer[];
  signer: KeyObject;
}

/** certificate writes the TBSCertificate (v3), signs it with ecdsa-with-SHA256 and wraps both. See RFC 5280 section 4.1. */
function certificate(t: TbsInput): Buffer {
  // ecdsa-with-SHA256 has no parameters at all (RFC 5758 section 3.2); Go refuses a NULL there.
  const algorithm = sequence(objectIdentifier(OID.ecdsaWithSHA256));
  const tbs = sequence(
    explicit(0, integer(2n)),
    integer(serialNumber()),
    algorithm,
    t.issuer,
    sequence(time(t.validity.notBefore), time(t.validity.notAfter)),
    t.subject,
    t.publicKey.export({ type: 'spki', format: 'der' }),
    explicit(3, sequence(...t.extensions)),
  );
  // node:crypto signs ECDSA as a DER Ecdsa-Sig-Value, which is what the BIT STRING holds.
  return sequence(tbs, algorithm, bitString(sign('sha256', tbs, t.signer)));
}

function issued(der: Buffer, privateKey: KeyObject): IssuedCertificate {
  return {
    certificatePem: pemBlock('CERTIFICATE', der),
    keyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    x509: new X509Certificate(der),
  };
}

/** pemBlock wraps DER in a PEM block of 64-column base64 lines. */
export function pemBlock(label: string, der: Buffer): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}
