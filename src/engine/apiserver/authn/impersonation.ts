// Impersonation (kubectl --as, --as-group, --as-uid, --as-user-extra): the authenticated user asks to act as
// another; each part of the wanted identity is authorized with the verb `impersonate` before the switch.
import type { ClusterProfile } from '../../cluster/inputs';
import type { Store } from '../../cluster/store';
import type { AuthzAttributes } from '../authz/authorizer';
import { authorize, type AuthzOutcome } from '../authz';
import { forbiddenStatus } from '../authz/forbidden';
import { badRequest, type StatusError, type UserInfo } from '../request';
import { SYSTEM_ANONYMOUS, SYSTEM_AUTHENTICATED, SYSTEM_UNAUTHENTICATED } from './authenticator';

/** ImpersonationRequest is the wanted identity, as the Impersonate-* headers carry it. */
export interface ImpersonationRequest {
  user: string;
  groups: string[];
  uid?: string;
  /** extra maps each Impersonate-Extra-<key> to its values. */
  extra?: Record<string, string[]>;
}

/** ImpersonationCheck is one `impersonate` authorization the filter made, for the trace. */
export interface ImpersonationCheck {
  attributes: AuthzAttributes;
  outcome: AuthzOutcome;
}

/** ImpersonationResult is the user to act as, or the error the filter answers with. */
export type ImpersonationResult = { user: UserInfo; checks: ImpersonationCheck[] } | { error: StatusError; checks: ImpersonationCheck[] };

/** ObjectReference is the v1.ObjectReference the filter builds per header value (the fields %v prints, in order). */
interface ObjectReference {
  kind: string;
  namespace: string;
  name: string;
  apiVersion: string;
  fieldPath: string;
}

const SA_PREFIX = 'system:serviceaccount:';
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/**
 * splitServiceAccount is serviceaccount.SplitUsername: `system:serviceaccount:<ns>:<name>` with a valid namespace
 * (DNS label) and name (DNS subdomain), or undefined.
 */
export function splitServiceAccount(username: string): { namespace: string; name: string } | undefined {
  if (!username.startsWith(SA_PREFIX)) return undefined;
  const parts = username.slice(SA_PREFIX.length).split(':');
  if (parts.length !== 2) return undefined;
  const [namespace, name] = parts as [string, string];
  if (namespace.length > 63 || !DNS_LABEL.test(namespace) || name.length > 253 || !DNS_SUBDOMAIN.test(name)) return undefined;
  return { namespace, name };
}

/**
 * buildRequests is buildImpersonationRequests: the user (a ServiceAccount when its name is one), each group, each
 * extra value (keys in sorted order here; Go walks the header map), then the uid. Groups, extras or a uid without
 * a user are a bad request.
 */
function buildRequests(imp: ImpersonationRequest): ObjectReference[] | StatusError {
  const out: ObjectReference[] = [];
  const sa = imp.user ? splitServiceAccount(imp.user) : undefined;
  if (imp.user) out.push(sa ? { kind: 'ServiceAccount', namespace: sa.namespace, name: sa.name, apiVersion: '', fieldPath: '' } : { kind: 'User', namespace: '', name: imp.user, apiVersion: '', fieldPath: '' });
  for (const g of imp.groups) out.push({ kind: 'Group', namespace: '', name: g, apiVersion: '', fieldPath: '' });
  for (const key of Object.keys(imp.extra ?? {}).sort()) {
    for (const value of imp.extra?.[key] ?? []) out.push({ kind: 'UserExtra', namespace: '', name: value, apiVersion: 'authentication.k8s.io/v1', fieldPath: key.toLowerCase() });
  }
  if (imp.uid) out.push({ kind: 'UID', namespace: '', name: imp.uid, apiVersion: 'authentication.k8s.io/v1', fieldPath: '' });
  if (!imp.user && out.length > 0) {
    // %v of []v1.ObjectReference: each struct's seven fields (Kind Namespace Name UID APIVersion ResourceVersion FieldPath) space-separated.
    const refs = out.map((r) => `{${[r.kind, r.namespace, r.name, '', r.apiVersion, '', r.fieldPath].join(' ')}}`).join(' ');
    return badRequest(`requested [${refs}] without impersonating a user`);
  }
  return out;
}

/**
 * impersonate is the legacy impersonation filter (the ConstrainedImpersonation gate is alpha and off in 1.36): each
 * wanted part is authorized for the requestor with the verb `impersonate` — users, groups and serviceaccounts
 * in the core group, userextras/<key> and uids in authentication.k8s.io — and the first refusal is a 403 on that
 * part. A service account without groups gets its own two; any user but system:anonymous gets
 * system:authenticated unless system:authenticated or system:unauthenticated was asked for; system:anonymous
 * gets system:unauthenticated. See staging/src/k8s.io/apiserver/pkg/endpoints/filters/impersonation/impersonation.go.
 */
export function impersonate(requestor: UserInfo, imp: ImpersonationRequest, store: Store, profile: ClusterProfile): ImpersonationResult {
  const requests = buildRequests(imp);
  const checks: ImpersonationCheck[] = [];
  if (!Array.isArray(requests)) return { error: requests, checks };
  const groupsSpecified = imp.groups.length > 0;
  let username = '';
  let groups: string[] = [];
  const extra: Record<string, string[]> = {};
  let uid = '';
  for (const r of requests) {
    const attributes: AuthzAttributes = {
      user: requestor, verb: 'impersonate', namespace: r.namespace, apiGroup: r.apiVersion ? 'authentication.k8s.io' : '', apiVersion: 'v1',
      resource: '', subresource: '', name: r.name, resourceRequest: true, path: '',
    };
    switch (r.kind) {
      case 'ServiceAccount':
        attributes.resource = 'serviceaccounts';
        username = `${SA_PREFIX}${r.namespace}:${r.name}`;
        if (!groupsSpecified) groups = ['system:serviceaccounts', `system:serviceaccounts:${r.namespace}`];
        break;
      case 'User':
        attributes.resource = 'users';
        username = r.name;
        break;
      case 'Group':
        attributes.resource = 'groups';
        groups.push(r.name);
        break;
      case 'UserExtra':
        attributes.resource = 'userextras';
        attributes.subresource = r.fieldPath;
        (extra[r.fieldPath] ??= []).push(r.name);
        break;
      default:
        attributes.resource = 'uids';
        uid = r.name;
    }
    const outcome = authorize(attributes, store, profile);
    checks.push({ attributes, outcome });
    if (!outcome.allowed) return { error: forbiddenStatus(attributes, outcome.reason), checks };
  }
  if (username !== SYSTEM_ANONYMOUS) {
    if (!groups.includes(SYSTEM_AUTHENTICATED) && !groups.includes(SYSTEM_UNAUTHENTICATED)) groups.push(SYSTEM_AUTHENTICATED);
  } else if (!groups.includes(SYSTEM_UNAUTHENTICATED)) groups.push(SYSTEM_UNAUTHENTICATED);
  const user: UserInfo = { name: username, groups, ...(uid ? { uid } : {}), ...(Object.keys(extra).length ? { extra } : {}) };
  return { user, checks };
}
