// --client-ca-file: a client certificate signed by the cluster's CA names the user (CN) and groups (O).
import { X509Certificate } from 'node:crypto';
import type { Authenticator } from './authenticator';

/** ADMIN_USER is the user of the admin kubeconfig kubeadm writes: its certificate's CN and O. */
export const ADMIN_USER = { name: 'kubernetes-admin', groups: ['kubeadm:cluster-admins'] } as const;

/** DEFAULT_CREDENTIALS marks the admin kubeconfig's certificate, which the embedded cluster's CA signed. */
export const DEFAULT_CREDENTIALS = 'default-admin-certificate';

/**
 * x509Authenticator verifies a client certificate against the profile's client CA.
 * See staging/src/k8s.io/apiserver/pkg/authentication/request/x509/x509.go (CommonNameUserConversion):
 * the user is the subject's CommonName, the groups its Organization values.
 */
export const x509Authenticator: Authenticator = {
  name: 'x509',
  authenticate(request, profile) {
    const pem = request.credentials.certificatePem;
    if (pem === undefined) return null;
    if (pem === DEFAULT_CREDENTIALS) return { user: { name: ADMIN_USER.name, groups: [...ADMIN_USER.groups] } };
    let cert: X509Certificate;
    try {
      cert = new X509Certificate(pem);
    } catch {
      return { error: 'x509: malformed certificate' };
    }
    if (!profile.authentication.clientCA) return null;
    let ca: X509Certificate;
    try {
      ca = new X509Certificate(profile.authentication.clientCA);
    } catch {
      return { error: 'x509: the client CA of the cluster profile is not a valid certificate' };
    }
    if (!cert.checkIssued(ca) || !cert.verify(ca.publicKey)) {
      return { error: 'verifying certificate: x509: certificate signed by unknown authority' };
    }
    const now = new Date();
    if (new Date(cert.validTo) < now || new Date(cert.validFrom) > now) {
      return { error: 'verifying certificate: x509: certificate has expired or is not yet valid' };
    }
    const fields = parseSubject(cert.subject);
    const name = fields.get('CN')?.[0] ?? '';
    if (!name) return { error: 'x509: subject with cn= is required' };
    return { user: { name, groups: fields.get('O') ?? [] } };
  },
};

function parseSubject(subject: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const line of subject.split('\n')) {
    const eq = line.indexOf('=');
    if (eq < 0) continue;
    const key = line.slice(0, eq);
    out.set(key, [...(out.get(key) ?? []), line.slice(eq + 1)]);
  }
  return out;
}
