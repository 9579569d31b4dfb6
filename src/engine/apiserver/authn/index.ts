// The authenticator chain of kube-apiserver: x509, then the bearer-token union, then anonymous unless one failed.
import type { UserInfo } from '../request';
import { aggregateMessage } from '../authz/aggregate';
import { anonymousUser } from './anonymous';
import { type Authenticator, type AuthnEnv, type Credentials, withAuthenticatedGroup } from './authenticator';
import { bootstrapTokenAuthenticator } from './bootstrap-token';
import { serviceAccountAuthenticator } from './service-account';
import { tokenFileAuthenticator } from './token-file';
import { DEFAULT_CREDENTIALS, x509Authenticator } from './x509';

/** TOKEN_AUTHENTICATORS are the bearer-token authenticators, in the order config.go unions them. */
export const TOKEN_AUTHENTICATORS: readonly Authenticator[] = [tokenFileAuthenticator, serviceAccountAuthenticator, bootstrapTokenAuthenticator];

/** NO_OPINION says why each authenticator passed on the request, for the trace. */
const NO_OPINION: Readonly<Record<string, (c: Credentials) => string>> = {
  x509: (c) => (c.certificatePem === undefined ? 'no client certificate' : 'the certificate has no CommonName'),
  'token-file': (c) => (c.token ? 'the token is not in the token file' : 'no bearer token it reads'),
  'service-account-token': () => 'not a service account token',
  'bootstrap-token': (c) => (c.token ? 'not a valid bootstrap token' : 'no bearer token it reads'),
};

/** AuthnStep is what one link of the chain said, for the trace. */
export interface AuthnStep {
  authenticator: string;
  result: 'accepted' | 'no opinion' | 'error' | 'skipped';
  user?: UserInfo;
  error?: string;
  /** why says in words why the link answered as it did when that is not obvious. */
  why?: string;
}

/** AuthnOutcome is the chain's verdict: the user, or none (401), with what every link said. */
export interface AuthnOutcome {
  user?: UserInfo;
  /** authenticator names the link that accepted the request. */
  authenticator?: string;
  /** error is the chain's aggregated error when a link failed (it is logged, never sent to the client). */
  error?: string;
  steps: AuthnStep[];
}

/**
 * authenticate runs the chain as pkg/kubeapiserver/authenticator/config.go builds it: union(x509,
 * bearertoken(union(token file, service accounts, bootstrap tokens))) inside the authenticated-group adder, then
 * union.NewFailOnError(that, anonymous). Errors do not stop the inner union; any error keeps anonymous out.
 * See staging/src/k8s.io/apiserver/pkg/authentication/request/union/union.go and
 * staging/src/k8s.io/apiserver/pkg/authentication/request/bearertoken/bearertoken.go.
 */
export function authenticate(credentials: Credentials, env: AuthnEnv): AuthnOutcome {
  const steps: AuthnStep[] = [];
  const errors: string[] = [];
  const run = (a: Authenticator): AuthnOutcome | undefined => {
    const r = a.authenticate(credentials, env);
    if (r === null) steps.push({ authenticator: a.name, result: 'no opinion', why: NO_OPINION[a.name]?.(credentials) ?? '' });
    else if ('error' in r) {
      steps.push({ authenticator: a.name, result: 'error', error: r.error });
      return undefined;
    } else {
      const user = withAuthenticatedGroup(r.user);
      steps.push({ authenticator: a.name, result: 'accepted', user });
      return { user, authenticator: a.name, steps };
    }
    return undefined;
  };
  if (!env.profile.authentication.clientCA && credentials.certificatePem !== undefined && credentials.certificatePem !== DEFAULT_CREDENTIALS) {
    steps.push({ authenticator: x509Authenticator.name, result: 'skipped', why: 'no --client-ca-file (the ClusterProfile has no clientCA): the client certificate is not read' });
  } else {
    const accepted = run(x509Authenticator);
    if (accepted) return accepted;
    const last = steps[steps.length - 1];
    if (last?.error) errors.push(last.error);
  }
  if (credentials.token || credentials.serviceAccount !== undefined) {
    const tokenErrors: string[] = [];
    for (const a of TOKEN_AUTHENTICATORS) {
      const accepted = run(a);
      if (accepted) return accepted;
      const last = steps[steps.length - 1];
      if (last?.error) tokenErrors.push(last.error);
    }
    // bearertoken: a token nobody accepted, with no error from them, is "invalid bearer token".
    const error = tokenErrors.length ? aggregateMessage(tokenErrors) : 'invalid bearer token';
    steps.push({ authenticator: 'bearer-token', result: 'error', error });
    errors.push(error);
  }
  if (errors.length) {
    steps.push({ authenticator: 'anonymous', result: 'skipped', why: 'an authenticator failed: bad credentials are never anonymous' });
    return { error: aggregateMessage(errors), steps };
  }
  if (!env.profile.authentication.anonymous) {
    steps.push({ authenticator: 'anonymous', result: 'skipped', why: '--anonymous-auth=false' });
    return { steps };
  }
  const user = anonymousUser();
  steps.push({ authenticator: 'anonymous', result: 'accepted', user });
  return { user, authenticator: 'anonymous', steps };
}
