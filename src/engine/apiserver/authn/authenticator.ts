// The authenticator contract: each one looks at the request's credentials and accepts, fails or has no opinion.
import type { ClusterProfile } from '../../cluster/inputs';
import type { Store } from '../../cluster/store';
import type { ApiRequest, UserInfo } from '../request';

/** Credentials are what a client presents: a client certificate, a bearer token, or neither. */
export type Credentials = ApiRequest['credentials'];

/** AuthnResult is one authenticator's answer: a user, an error (bad credentials), or no opinion (null). */
export type AuthnResult = { user: UserInfo } | { error: string } | null;

/** AuthnEnv is what authenticators read besides the credentials: the profile's flags, the store and the wall clock. */
export interface AuthnEnv {
  profile: ClusterProfile;
  store: Store;
  /** now is the simulated wall-clock time, for certificate and token expiry. */
  now: Date;
}

/** Authenticator is one link of kube-apiserver's authenticator chain. */
export interface Authenticator {
  /** name is how the trace names this authenticator. */
  name: string;
  /** flag is the kube-apiserver flag that configures it, for the trace. */
  flag: string;
  authenticate(credentials: Credentials, env: AuthnEnv): AuthnResult;
}

/** SYSTEM_AUTHENTICATED is the group every authenticated user gets (user.AllAuthenticated). */
export const SYSTEM_AUTHENTICATED = 'system:authenticated';

/** SYSTEM_UNAUTHENTICATED is the group of the anonymous user (user.AllUnauthenticated). */
export const SYSTEM_UNAUTHENTICATED = 'system:unauthenticated';

/** SYSTEM_ANONYMOUS is the anonymous user's name (user.Anonymous). */
export const SYSTEM_ANONYMOUS = 'system:anonymous';

/**
 * withAuthenticatedGroup adds system:authenticated, as the group adder wrapping the chain does, unless the user is
 * system:anonymous or already in system:authenticated or system:unauthenticated; the anonymous authenticator sits
 * outside that wrapper. See staging/src/k8s.io/apiserver/pkg/authentication/group/authenticated_group_adder.go.
 */
export function withAuthenticatedGroup(user: UserInfo): UserInfo {
  if (user.name === SYSTEM_ANONYMOUS || user.groups.includes(SYSTEM_AUTHENTICATED) || user.groups.includes(SYSTEM_UNAUTHENTICATED)) return user;
  return { ...user, groups: [...user.groups, SYSTEM_AUTHENTICATED] };
}
