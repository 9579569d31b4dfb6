// The kubeconfig `serve` writes: one cluster (the HTTPS server on 127.0.0.1 and its CA), the admin's context, and one
// context per identity the cluster defines (static tokens, users with groups), as kubeadm writes admin.conf.
import { stringify } from 'yaml';
import { ADMIN_USER } from '../engine/apiserver/authn/x509';
import { parseCertificate, splitPem } from '../engine/apiserver/authn/certificate';
import type { ClusterProfile, Identity } from '../engine/cluster/inputs';
import { type CertificateAuthority, type IssuedCertificate, issueClientCertificate } from './pki';

/** CLUSTER_NAME is the cluster's name in the kubeconfig. */
export const CLUSTER_NAME = 'pod-lifecycle';

/** DEFAULT_NAMESPACE is the namespace of every context, as kubeadm's admin.conf leaves it (default). */
export const DEFAULT_NAMESPACE = 'default';

/**
 * ServeUser is who a context speaks as: a bearer token (a --token-auth-file line) or a user with groups (a client
 * certificate our CA signs for it). There is no anonymous context: kubectl prompts for a username and password
 * when a kubeconfig user has no credentials at all ("Please enter Username:"), and fails on EOF without a terminal.
 */
export type ServeUser =
  | { kind: 'token'; name: string; token: string }
  | { kind: 'certificate'; name: string; groups: readonly string[] };

/** contextName names a user's context as kubeadm does: `kubernetes-admin@kubernetes`, here `<user>@pod-lifecycle`. */
export function contextName(user: string): string {
  return `${user}@${CLUSTER_NAME}`;
}

/**
 * serveUsers lists the identities the cluster defines besides the admin: every static token of the profile
 * (authentication.tokens), then the run's own identity when it is not the admin: a token not in the file stays a
 * token, a certificate becomes its CN and O (re-issued by our CA, whose key we hold), an impersonated user becomes a
 * certificate user with its groups; anonymous gets no context (see ServeUser).
 */
export function serveUsers(profile: ClusterProfile, identity: Identity = { kind: 'default' }): ServeUser[] {
  const users: ServeUser[] = profile.authentication.tokens.map((t) => ({ kind: 'token', name: t.user, token: t.token }));
  switch (identity.kind) {
    case 'token':
      if (!users.some((u) => u.kind === 'token' && u.token === identity.token)) users.push({ kind: 'token', name: 'token-user', token: identity.token });
      break;
    case 'certificate': {
      const subject = subjectOf(identity.certificatePem);
      if (subject?.commonName) users.push({ kind: 'certificate', name: subject.commonName, groups: subject.organization });
      break;
    }
    case 'impersonate':
      users.push({ kind: 'certificate', name: identity.user, groups: identity.groups });
      break;
    case 'anonymous':
    case 'default':
      break;
  }
  return users;
}

/** subjectOf reads the CN and O values of a PEM certificate; an unreadable one has none (and gets no context). */
function subjectOf(pem: string): { commonName: string; organization: string[] } | undefined {
  try {
    const der = splitPem(pem)[0];
    return der ? parseCertificate(der).subject : undefined;
  } catch {
    return undefined;
  }
}

/** KubeconfigInput is what the kubeconfig is built from: the server's port, the CA, the admin's certificate, the other users. */
export interface KubeconfigInput {
  port: number;
  ca: CertificateAuthority;
  admin: IssuedCertificate;
  users?: readonly ServeUser[];
}

/** ServeKubeconfig is the kubeconfig's YAML, its contexts in order (the admin's first) and the certificates minted for it. */
export interface ServeKubeconfig {
  yaml: string;
  contexts: string[];
  currentContext: string;
  /** certificates are the client certificates minted for certificate users, by their kubeconfig user name. */
  certificates: Map<string, IssuedCertificate>;
}

interface NamedUser {
  name: string;
  user: Record<string, string>;
}

const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');

/**
 * buildKubeconfig writes the kubeconfig: cluster `pod-lifecycle` at https://127.0.0.1:PORT with the CA's data,
 * the admin context (current) with the admin's client certificate and key, then one context per user.
 * Context and user names are unique: a later user whose name is taken gets a `-2`, `-3` … suffix.
 * See cmd/kubeadm/app/util/kubeconfig/kubeconfig.go (CreateWithCerts, CreateWithToken).
 */
export function buildKubeconfig(input: KubeconfigInput): ServeKubeconfig {
  const taken = new Set<string>();
  const unique = (name: string): string => {
    let candidate = name;
    for (let n = 2; taken.has(candidate); n++) candidate = `${name}-${n}`;
    taken.add(candidate);
    return candidate;
  };
  const users: NamedUser[] = [];
  const contexts: { name: string; context: { cluster: string; namespace: string; user: string } }[] = [];
  const certificates = new Map<string, IssuedCertificate>();
  const add = (userName: string, user: Record<string, string>): string => {
    const name = unique(userName);
    users.push({ name, user });
    contexts.push({ name: contextName(name), context: { cluster: CLUSTER_NAME, namespace: DEFAULT_NAMESPACE, user: name } });
    return name;
  };
  add(ADMIN_USER.name, certificateUser(input.admin));
  for (const u of input.users ?? []) {
    if (u.kind === 'token') add(u.name, { token: u.token });
    else {
      const cert = issueClientCertificate(input.ca, u.name, u.groups);
      certificates.set(add(u.name, certificateUser(cert)), cert);
    }
  }
  const currentContext = contexts[0]!.name;
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: CLUSTER_NAME, cluster: { 'certificate-authority-data': b64(input.ca.certificatePem), server: `https://127.0.0.1:${input.port}` } }],
    contexts,
    'current-context': currentContext,
    preferences: {},
    users,
  };
  return { yaml: stringify(config, { lineWidth: 0 }), contexts: contexts.map((c) => c.name), currentContext, certificates };
}

/** certificateUser is a kubeconfig user holding a client certificate and its key inline (client-go reads PKCS#8 keys). */
function certificateUser(cert: IssuedCertificate): Record<string, string> {
  return { 'client-certificate-data': b64(cert.certificatePem), 'client-key-data': b64(cert.keyPem) };
}
