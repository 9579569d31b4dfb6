// What kubectl presents with each request for the run's identity: a client certificate, a bearer token, nothing
// (anonymous), or the admin's certificate with impersonation headers (--as, --as-group).
import { DEFAULT_CREDENTIALS } from '../apiserver/authn/x509';
import type { Identity } from '../cluster/inputs';
import type { Credentials } from './apply';

/** credentialsFor is what kubectl sends for an identity; the default is the cluster admin's client certificate. */
export function credentialsFor(id: Identity): Credentials {
  switch (id.kind) {
    case 'token': return { token: id.token };
    case 'certificate': return { certificatePem: id.certificatePem };
    case 'anonymous': return {};
    case 'impersonate': return { certificatePem: DEFAULT_CREDENTIALS, impersonate: { user: id.user, groups: id.groups } };
    default: return { certificatePem: DEFAULT_CREDENTIALS };
  }
}
