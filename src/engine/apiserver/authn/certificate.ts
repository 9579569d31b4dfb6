// X.509 certificates as Go's crypto/x509 sees them: parsed from PEM with node:crypto and the DER reader,
// and verified against a pool of roots the way (*Certificate).Verify does for a client certificate.
import { X509Certificate } from 'node:crypto';
import { children, type Der, oidOf, readDer, stringOf, TAG, timeOf, integerOf } from './asn1';

/** Certificate is a parsed certificate: the fields Verify and CommonNameUserConversion read. */
export interface Certificate {
  x509: X509Certificate;
  raw: Buffer;
  serialNumber: bigint;
  /** rawSubject and rawIssuer are the DER names; Go finds a parent by comparing them byte for byte. */
  rawSubject: Buffer;
  rawIssuer: Buffer;
  subject: { commonName: string; organization: string[] };
  issuerCommonName: string;
  notBefore: Date;
  notAfter: Date;
  version: number;
  basicConstraintsValid: boolean;
  isCA: boolean;
  /** keyUsage is the bit string of the key usage extension, 0 when absent (Go's KeyUsage). */
  keyUsage: number;
  extKeyUsage: string[];
  subjectKeyId: Buffer;
  authorityKeyId: Buffer;
}

const OID = {
  commonName: '2.5.4.3', organization: '2.5.4.10', basicConstraints: '2.5.29.19', keyUsage: '2.5.29.15',
  extKeyUsage: '2.5.29.37', subjectKeyId: '2.5.29.14', authorityKeyId: '2.5.29.35',
} as const;

/** EXT_KEY_USAGE names the extended key usages Verify compares. */
export const EXT_KEY_USAGE = { any: '2.5.29.37.0', clientAuth: '1.3.6.1.5.5.7.3.2', serverAuth: '1.3.6.1.5.5.7.3.1' } as const;

/** KEY_USAGE_CERT_SIGN is x509.KeyUsageCertSign: bit 5 of the key usage bit string. */
export const KEY_USAGE_CERT_SIGN = 1 << 5;

/** splitPem returns the DER of each CERTIFICATE block of a PEM bundle, in order. */
export function splitPem(pem: string): Buffer[] {
  const out: Buffer[] = [];
  const re = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g;
  for (let m = re.exec(pem); m; m = re.exec(pem)) out.push(Buffer.from(m[1]!.replace(/\s+/g, ''), 'base64'));
  return out;
}

/** parseCertificate reads one DER certificate; it throws when node:crypto or the DER reader cannot. */
export function parseCertificate(der: Buffer): Certificate {
  const x509 = new X509Certificate(der);
  const tbs = children(children(readDer(der))[0]!);
  let i = 0;
  let version = 1;
  if (tbs[0]!.tag === 0xa0) {
    version = Number(integerOf(children(tbs[0]!)[0]!)) + 1;
    i = 1;
  }
  const serialNumber = integerOf(tbs[i]!);
  const issuer = tbs[i + 2]!;
  const validity = children(tbs[i + 3]!);
  const subject = tbs[i + 4]!;
  const cert: Certificate = {
    x509, raw: der, serialNumber, rawSubject: subject.raw, rawIssuer: issuer.raw,
    subject: readName(subject), issuerCommonName: readName(issuer).commonName,
    notBefore: timeOf(validity[0]!), notAfter: timeOf(validity[1]!), version,
    basicConstraintsValid: false, isCA: false, keyUsage: 0, extKeyUsage: [], subjectKeyId: Buffer.alloc(0), authorityKeyId: Buffer.alloc(0),
  };
  const extensions = tbs.slice(i + 6).find((n) => n.tag === 0xa3);
  if (extensions) for (const ext of children(children(extensions)[0]!)) readExtension(cert, children(ext));
  return cert;
}

/** readName reads a distinguished name as pkix.Name.FillFromRDNSequence does: the last CN, every O in order. */
function readName(name: Der): { commonName: string; organization: string[] } {
  let commonName = '';
  const organization: string[] = [];
  for (const rdn of children(name)) {
    for (const atv of children(rdn)) {
      const [type, value] = children(atv);
      if (!type || !value) continue;
      const oid = oidOf(type);
      if (oid === OID.commonName) commonName = stringOf(value);
      else if (oid === OID.organization) organization.push(stringOf(value));
    }
  }
  return { commonName, organization };
}

function readExtension(cert: Certificate, parts: Der[]): void {
  const oid = oidOf(parts[0]!);
  const value = readDer(parts[parts.length - 1]!.value);
  switch (oid) {
    case OID.basicConstraints: {
      cert.basicConstraintsValid = true;
      const first = children(value)[0];
      cert.isCA = first?.tag === TAG.boolean && first.value[0] !== 0;
      break;
    }
    case OID.keyUsage: {
      // The bit string's first content octet counts unused bits; bit n of Go's KeyUsage is the n-th bit from the left.
      let usage = 0;
      for (let n = 0; n < (value.value.length - 1) * 8; n++) {
        if (value.value[1 + (n >> 3)]! & (0x80 >> (n & 7))) usage |= 1 << n;
      }
      cert.keyUsage = usage;
      break;
    }
    case OID.extKeyUsage:
      cert.extKeyUsage = children(value).map(oidOf);
      break;
    case OID.subjectKeyId:
      cert.subjectKeyId = Buffer.from(value.value);
      break;
    case OID.authorityKeyId: {
      const keyId = children(value).find((n) => n.tag === 0x80);
      if (keyId) cert.authorityKeyId = Buffer.from(keyId.value);
      break;
    }
  }
}

/** rfc3339 formats a time as Go's time.RFC3339 does for a UTC time. */
export function rfc3339(t: Date): string {
  return t.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** VerifyError is the error (*Certificate).Verify returns, with Go's text. */
export class VerifyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VerifyError';
  }
}

/** isValid is Go's (*Certificate).isValid for what a client certificate chain can hit: the validity period. */
function isValid(cert: Certificate, now: Date): VerifyError | undefined {
  const t = new Date(Math.floor(now.getTime() / 1000) * 1000);
  if (t < cert.notBefore) return new VerifyError(`x509: certificate has expired or is not yet valid: current time ${rfc3339(t)} is before ${rfc3339(cert.notBefore)}`);
  if (t > cert.notAfter) return new VerifyError(`x509: certificate has expired or is not yet valid: current time ${rfc3339(t)} is after ${rfc3339(cert.notAfter)}`);
  return undefined;
}

/** checkSignatureFrom is Go's (*Certificate).CheckSignatureFrom: the parent must be allowed to sign, then the signature must hold. */
function checkSignatureFrom(cert: Certificate, parent: Certificate): VerifyError | undefined {
  if ((parent.version === 3 && !parent.basicConstraintsValid) || (parent.basicConstraintsValid && !parent.isCA)) {
    return new VerifyError('x509: invalid signature: parent certificate cannot sign this kind of certificate');
  }
  if (parent.keyUsage !== 0 && (parent.keyUsage & KEY_USAGE_CERT_SIGN) === 0) {
    return new VerifyError('x509: invalid signature: parent certificate cannot sign this kind of certificate');
  }
  if (cert.x509.verify(parent.x509.publicKey)) return undefined;
  // Why: the error texts of crypto/rsa, crypto/ecdsa and crypto/ed25519 as crypto/x509's checkSignature returns them.
  const type = parent.x509.publicKey.asymmetricKeyType;
  return new VerifyError(type === 'rsa' || type === 'rsa-pss' ? 'crypto/rsa: verification error' : type === 'ec' ? 'x509: ECDSA verification failure' : 'x509: Ed25519 verification failure');
}

/**
 * verifyChains is (*Certificate).Verify with KeyUsages [ClientAuth], for a leaf, the intermediates sent with it
 * and the roots of the client CA bundle. It returns the chains, or the error Go would.
 * See src/crypto/x509/verify.go (Verify, buildChains, checkChainForKeyUsage).
 */
export function verifyChains(leaf: Certificate, intermediates: Certificate[], roots: Certificate[], now: Date): Certificate[][] | VerifyError {
  const invalid = isValid(leaf, now);
  if (invalid) return invalid;
  let chains: Certificate[][];
  if (roots.some((r) => r.raw.equals(leaf.raw))) chains = [[leaf]];
  else {
    const built = buildChains([leaf], intermediates, roots, now);
    if (built instanceof VerifyError) return built;
    chains = built;
  }
  const usable = chains.filter((chain) => chainAllowsClientAuth(chain));
  if (usable.length === 0) return new VerifyError('x509: certificate specifies an incompatible key usage');
  return usable;
}

function buildChains(current: Certificate[], intermediates: Certificate[], roots: Certificate[], now: Date): Certificate[][] | VerifyError {
  const cert = current[current.length - 1]!;
  const chains: Certificate[][] = [];
  let hint: { error: VerifyError; cert: Certificate } | undefined;
  const consider = (candidate: Certificate, isRoot: boolean): void => {
    if (current.some((c) => c.raw.equals(candidate.raw))) return;
    const error = checkSignatureFrom(cert, candidate) ?? isValid(candidate, now);
    if (error) {
      hint ??= { error, cert: candidate };
      return;
    }
    if (isRoot) chains.push([...current, candidate]);
    else {
      const deeper = buildChains([...current, candidate], intermediates, roots, now);
      if (!(deeper instanceof VerifyError)) chains.push(...deeper);
    }
  };
  for (const root of roots) if (root.rawSubject.equals(cert.rawIssuer)) consider(root, true);
  for (const intermediate of intermediates) if (intermediate.rawSubject.equals(cert.rawIssuer)) consider(intermediate, false);
  if (chains.length > 0) return chains;
  let message = 'x509: certificate signed by unknown authority';
  if (hint) {
    const name = hint.cert.subject.commonName || hint.cert.subject.organization[0] || `serial:${hint.cert.serialNumber}`;
    message += ` (possibly because of ${JSON.stringify(hint.error.message)} while trying to verify candidate authority certificate ${JSON.stringify(name)})`;
  }
  return new VerifyError(message);
}

/** chainAllowsClientAuth is checkChainForKeyUsage for the one usage the x509 authenticator asks for. */
function chainAllowsClientAuth(chain: Certificate[]): boolean {
  return chain.every((c) => c.extKeyUsage.length === 0 || c.extKeyUsage.includes(EXT_KEY_USAGE.any) || c.extKeyUsage.includes(EXT_KEY_USAGE.clientAuth));
}

/** columnSeparatedHex renders key identifiers as x509.go's certificateIdentifier does: `AB:CD:…`. */
export function columnSeparatedHex(bytes: Buffer): string {
  return (bytes.toString('hex').toUpperCase().match(/../g) ?? []).join(':');
}

/** certificateIdentifier names a certificate in an authentication error: `SN=…, SKID=…, AKID=…`. */
export function certificateIdentifier(cert: Certificate): string {
  return `SN=${cert.serialNumber}, SKID=${columnSeparatedHex(cert.subjectKeyId)}, AKID=${columnSeparatedHex(cert.authorityKeyId)}`;
}
