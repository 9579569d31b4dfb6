// The authenticator contract: each one looks at the request's credentials and accepts, rejects or passes.
import type { ClusterProfile } from '../../cluster/inputs';
import type { ApiRequest, UserInfo } from '../request';

/** AuthnResult is one authenticator's answer: a user, an error (bad credentials), or no opinion. */
export type AuthnResult = { user: UserInfo } | { error: string } | null;

/** Authenticator is one link of kube-apiserver's union authenticator. */
export interface Authenticator {
  /** name is how the trace names this authenticator (the flag that enables it). */
  name: string;
  authenticate(request: ApiRequest, profile: ClusterProfile): AuthnResult;
}

/** SYSTEM_AUTHENTICATED is the group every authenticated user gets (user.AllAuthenticated). */
export const SYSTEM_AUTHENTICATED = 'system:authenticated';

/**
 * withAuthenticatedGroup adds system:authenticated unless present, as the group adder wrapping the
 * authenticators does. See staging/src/k8s.io/apiserver/pkg/authentication/group/authenticated_group_adder.go.
 */
export function withAuthenticatedGroup(user: UserInfo): UserInfo {
  if (user.name === 'system:anonymous' || user.groups.includes(SYSTEM_AUTHENTICATED)) return user;
  return { ...user, groups: [...user.groups, SYSTEM_AUTHENTICATED] };
}
