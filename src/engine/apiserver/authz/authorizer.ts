// The authorizer contract: each one allows, denies or has no opinion on the request's attributes.
import type { Store } from '../../cluster/store';
import type { ClusterProfile } from '../../cluster/inputs';
import type { UserInfo } from '../request';

/** AuthzAttributes are what authorizers decide on (authorizer.Attributes). */
export interface AuthzAttributes {
  user: UserInfo;
  verb: string;
  namespace: string;
  apiGroup: string;
  apiVersion: string;
  resource: string;
  subresource: string;
  /** name is empty for a create (the name is not in the URL) and for lists. */
  name: string;
  resourceRequest: boolean;
  path: string;
}

/** Decision is an authorizer's verdict. */
export type Decision = 'Allow' | 'Deny' | 'NoOpinion';

/** AuthzResult is one authorizer's verdict and reason. */
export interface AuthzResult {
  decision: Decision;
  reason: string;
  /** detail names what decided it (the rule, role and binding) for the trace. */
  detail?: Record<string, unknown>;
}

/** Authorizer is one mode of --authorization-mode. */
export interface Authorizer {
  name: string;
  authorize(attrs: AuthzAttributes, store: Store, profile: ClusterProfile): AuthzResult;
}
