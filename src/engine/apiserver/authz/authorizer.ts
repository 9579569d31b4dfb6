// The authorizer contract: each one allows, denies or has no opinion on the request's attributes.
import type { Store } from '../../cluster/store';
import type { ClusterProfile } from '../../cluster/inputs';
import type { UserInfo } from '../request';

/** AuthzAttributes are what authorizers decide on (authorizer.Attributes). */
export interface AuthzAttributes {
  user: UserInfo;
  /** verb is the API verb of a resource request (`get`, `create`, `impersonate`) or the lowercase HTTP method of a path. */
  verb: string;
  namespace: string;
  apiGroup: string;
  apiVersion: string;
  resource: string;
  subresource: string;
  /** name is empty for a create (the name is not in the URL) and for lists. */
  name: string;
  resourceRequest: boolean;
  /** path is the URL path without the query. */
  path: string;
}

/** Decision is an authorizer's verdict. */
export type Decision = 'Allow' | 'Deny' | 'NoOpinion';

/** AuthzResult is one authorizer's verdict and reason. */
export interface AuthzResult {
  decision: Decision;
  reason: string;
  /** detail names what decided it (the rule, role and binding, the policy line) for the trace. */
  detail?: Record<string, unknown>;
}

/** Authorizer is one mode of --authorization-mode. */
export interface Authorizer {
  name: string;
  authorize(attrs: AuthzAttributes, store: Store, profile: ClusterProfile): AuthzResult;
}

/** isReadOnly is AttributesRecord.IsReadOnly: get, list and watch. */
export function isReadOnly(attrs: AuthzAttributes): boolean {
  return attrs.verb === 'get' || attrs.verb === 'list' || attrs.verb === 'watch';
}

/** noOpinion is the answer of an authorizer that does not speak for the request. */
export function noOpinion(reason = '', detail?: Record<string, unknown>): AuthzResult {
  return { decision: 'NoOpinion', reason, ...(detail ? { detail } : {}) };
}
