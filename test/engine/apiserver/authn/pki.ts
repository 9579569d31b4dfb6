// A tiny certificate authority for tests: keys from node:crypto, certificates encoded with a small DER writer and
// signed with the issuer's key (ECDSA P-256 or RSA, SHA-256), so tests hold real PEM certificates.
import { createHash, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { boolean, explicit, integer, objectIdentifier, octetString, sequence, set, time, tlv, utf8String } from '../../../../src/serve/der';

/** KeyPair is a generated key pair. */
export interface KeyPair {
  publicKey: KeyObject;
  privateKey: KeyObject;
}

/** newKey makes an EC P-256 key (fast) or, when asked, an RSA 2048 key. */
export function newKey(type: 'ec' | 'rsa' = 'ec'): KeyPair {
  return type === 'rsa' ? generateKeyPairSync('rsa', { modulusLength: 2048 }) : generateKeyPairSync('ec', { namedCurve: 'P-256' });
}

// The DER writer is serve's (src/serve/der.ts): the same encoder signs these test certificates.
const seq = sequence;
const octets = octetString;
const utf8 = utf8String;
const oid = objectIdentifier;
const bool = boolean;
const nil = (): Buffer => Buffer.from([0x05, 0x00]);

/** Name is a subject or issuer: a CommonName and Organization values. */
export interface Name {
  cn?: string;
  o?: string[];
}

function name(n: Name): Buffer {
  const rdns: Buffer[] = [];
  for (const o of n.o ?? []) rdns.push(set(seq(oid('2.5.4.10'), utf8(o))));
  if (n.cn !== undefined) rdns.push(set(seq(oid('2.5.4.3'), utf8(n.cn))));
  return seq(...rdns);
}

/** CertOptions describe a certificate to issue. */
export interface CertOptions {
  subject: Name;
  key: KeyPair;
  /** issuer signs it; absent means self-signed. */
  issuer?: { subject: Name; key: KeyPair };
  serial?: bigint;
  notBefore?: Date;
  notAfter?: Date;
  /** ca sets basicConstraints cA (undefined: no basicConstraints extension at all). */
  ca?: boolean;
  /** extKeyUsage lists OIDs (clientAuth 1.3.6.1.5.5.7.3.2, serverAuth 1.3.6.1.5.5.7.3.1). */
  extKeyUsage?: string[];
  /** keyUsage is the bit string's first byte (0x04 keyCertSign, 0x80 digitalSignature). */
  keyUsage?: number;
}

/** CLIENT_AUTH and SERVER_AUTH are the extended key usage OIDs. */
export const CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';
export const SERVER_AUTH = '1.3.6.1.5.5.7.3.1';

/** VALID_FROM and VALID_TO bracket the simulation's virtual epoch (2026-01-01). */
export const VALID_FROM = new Date('2025-01-01T00:00:00Z');
export const VALID_TO = new Date('2035-01-01T00:00:00Z');

/** Issued is a certificate with its key, its name and its PEM. */
export interface Issued {
  subject: Name;
  key: KeyPair;
  pem: string;
  der: Buffer;
}

/** issue makes and signs a certificate. */
export function issue(o: CertOptions): Issued {
  const signer = o.issuer ?? { subject: o.subject, key: o.key };
  const rsa = signer.key.privateKey.asymmetricKeyType === 'rsa';
  const sigAlg = rsa ? seq(oid('1.2.840.113549.1.1.11'), nil()) : seq(oid('1.2.840.10045.4.3.2'));
  const spki = o.key.publicKey.export({ type: 'spki', format: 'der' });
  const skid = createHash('sha1').update(spki).digest();
  const issuerSpki = signer.key.publicKey.export({ type: 'spki', format: 'der' });
  const akid = createHash('sha1').update(issuerSpki).digest();
  const exts: Buffer[] = [];
  if (o.ca !== undefined) exts.push(seq(oid('2.5.29.19'), bool(true), octets(seq(...(o.ca ? [bool(true)] : [])))));
  if (o.keyUsage !== undefined) exts.push(seq(oid('2.5.29.15'), bool(true), octets(tlv(0x03, Buffer.from([0, o.keyUsage])))));
  if (o.extKeyUsage) exts.push(seq(oid('2.5.29.37'), octets(seq(...o.extKeyUsage.map(oid)))));
  exts.push(seq(oid('2.5.29.14'), octets(octets(skid))));
  exts.push(seq(oid('2.5.29.35'), octets(seq(tlv(0x80, akid)))));
  const tbs = seq(
    explicit(0, integer(2n)), integer(o.serial ?? 1000n), sigAlg, name(signer.subject),
    seq(time(o.notBefore ?? VALID_FROM), time(o.notAfter ?? VALID_TO)), name(o.subject), spki, explicit(3, seq(...exts)),
  );
  const signature = sign('sha256', tbs, signer.key.privateKey);
  const der = seq(tbs, sigAlg, tlv(0x03, Buffer.concat([Buffer.from([0]), signature])));
  return { subject: o.subject, key: o.key, der, pem: toPem(der) };
}

/** toPem wraps DER as a PEM CERTIFICATE block. */
export function toPem(der: Buffer): string {
  const b64 = der.toString('base64').match(/.{1,64}/g)!.join('\n');
  return `-----BEGIN CERTIFICATE-----\n${b64}\n-----END CERTIFICATE-----\n`;
}

/** newCA makes a self-signed CA, as kubeadm's `kubernetes` CA is (keyCertSign, cA true). */
export function newCA(cn = 'kubernetes', type: 'ec' | 'rsa' = 'ec', extra: Partial<CertOptions> = {}): Issued {
  return issue({ subject: { cn }, key: newKey(type), ca: true, keyUsage: 0x04 | 0x80, serial: 1n, ...extra });
}

/** newClient issues a client certificate (clientAuth) from a CA. */
export function newClient(ca: Issued, subject: Name, extra: Partial<CertOptions> = {}): Issued {
  return issue({ subject, key: newKey(), issuer: { subject: ca.subject, key: ca.key }, extKeyUsage: [CLIENT_AUTH], keyUsage: 0x80, ...extra });
}
