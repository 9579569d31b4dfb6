// --client-ca-file: a client certificate that chains to the client CA names the user (CN) and groups (O).
import { createHash } from 'node:crypto';
import type { Authenticator, AuthnResult } from './authenticator';
import { type Certificate, certificateIdentifier, parseCertificate, splitPem, VerifyError, verifyChains } from './certificate';

/** ADMIN_USER is the user of the admin kubeconfig kubeadm writes: its certificate's CN and O. */
export const ADMIN_USER = { name: 'kubernetes-admin', groups: ['kubeadm:cluster-admins'] } as const;

/** DEFAULT_CREDENTIALS marks the admin kubeconfig's certificate, which the embedded cluster's CA signed. */
export const DEFAULT_CREDENTIALS = 'default-admin-certificate';

/** CREDENTIAL_ID_KEY is the user extra naming the credential (user.CredentialIDKey). */
export const CREDENTIAL_ID_KEY = 'authentication.kubernetes.io/credential-id';

/**
 * x509Authenticator verifies the client certificate (and the intermediates sent with it) against the profile's
 * client CA, requiring the client-auth extended key usage, then maps the leaf to a user: CommonName the name,
 * Organization the groups, the certificate's SHA-256 the credential id. No client CA means the authenticator is
 * not in the chain at all. A verification failure is an error, which ends in 401.
 * See staging/src/k8s.io/apiserver/pkg/authentication/request/x509/x509.go (AuthenticateRequest,
 * DefaultVerifyOptions, CommonNameUserConversion) and pkg/kubeapiserver/authenticator/config.go.
 */
export const x509Authenticator: Authenticator = {
  name: 'x509',
  flag: '--client-ca-file',
  authenticate(credentials, env) {
    const pem = credentials.certificatePem;
    if (pem === undefined) return null;
    // The admin certificate stands for admin.conf's, which the cluster's own CA signed; it has no PEM to hash.
    if (pem === DEFAULT_CREDENTIALS) return { user: { name: ADMIN_USER.name, groups: [...ADMIN_USER.groups] } };
    const bundle = env.profile.authentication.clientCA;
    if (!bundle) return null;
    let presented: Certificate[];
    let roots: Certificate[];
    try {
      presented = splitPem(pem).map(parseCertificate);
      roots = splitPem(bundle).map(parseCertificate);
    } catch (err) {
      // The TLS handshake would have refused a certificate Go cannot parse; the request never gets this far.
      return { error: `tls: failed to parse certificate: ${(err as Error).message}` };
    }
    const leaf = presented[0];
    if (!leaf) return null;
    return userOf(leaf, verifyChains(leaf, presented.slice(1), roots, env.now));
  },
};

function userOf(leaf: Certificate, chains: Certificate[][] | VerifyError): AuthnResult {
  if (chains instanceof VerifyError) return { error: `verifying certificate ${certificateIdentifier(leaf)} failed: ${chains.message}` };
  // CommonNameUserConversion has no opinion on a certificate without a CommonName: the chain goes on (to anonymous).
  if (!leaf.subject.commonName) return null;
  return {
    user: { name: leaf.subject.commonName, groups: [...leaf.subject.organization], extra: { [CREDENTIAL_ID_KEY]: [`X509SHA256=${sha256Hex(leaf.raw)}`] } },
  };
}

function sha256Hex(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}
