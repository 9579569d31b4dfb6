// The ABAC authorizer: the policy lines of --authorization-policy-file, the first line that matches allows.
import { isObject } from '../../api/types';
import type { ClusterProfile } from '../../cluster/inputs';
import type { UserInfo } from '../request';
import { type AuthzAttributes, type Authorizer, isReadOnly } from './authorizer';

/** AbacPolicySpec is abac.PolicySpec: who, and what they may do (`*` matches anything). */
export interface AbacPolicySpec {
  user: string;
  group: string;
  readonly: boolean;
  apiGroup: string;
  resource: string;
  namespace: string;
  nonResourcePath: string;
}

/** ABAC_API_VERSION is the versioned policy line's apiVersion. */
export const ABAC_API_VERSION = 'abac.authorization.kubernetes.io/v1beta1';

/**
 * readPolicy reads one policy line. `{apiVersion: abac.authorization.kubernetes.io/v1beta1, kind: Policy, spec}`
 * is a v1beta1 Policy. Any other line (no apiVersion or kind, or ones the decoder does not register) is read as an
 * unversioned (v0) policy and converted as kube-apiserver converts it: no user and no group, or `*` for either,
 * means every authenticated user; an empty namespace or resource is `*`; the API group is always `*`; no
 * namespace and no resource also allows every path. A line that is not a mapping is undefined.
 * See pkg/apis/abac/v0/conversion.go and pkg/auth/authorizer/abac/abac.go (NewFromFile).
 */
export function readPolicy(line: unknown): AbacPolicySpec | undefined {
  if (!isObject(line)) return undefined;
  const str = (o: Record<string, unknown>, k: string): string => (typeof o[k] === 'string' ? (o[k] as string) : '');
  if (line['apiVersion'] === ABAC_API_VERSION && line['kind'] === 'Policy') {
    const s = isObject(line['spec']) ? line['spec'] : {};
    return {
      user: str(s, 'user'), group: str(s, 'group'), readonly: s['readonly'] === true, apiGroup: str(s, 'apiGroup'),
      resource: str(s, 'resource'), namespace: str(s, 'namespace'), nonResourcePath: str(s, 'nonResourcePath'),
    };
  }
  const user = str(line, 'user');
  const group = str(line, 'group');
  const namespace = str(line, 'namespace');
  const resource = str(line, 'resource');
  const everyone = (!user && !group) || user === '*' || group === '*';
  return {
    user: everyone && (user === '*' || group === '*') ? '' : user, group: everyone ? 'system:authenticated' : group, readonly: line['readonly'] === true,
    apiGroup: '*', resource: resource || '*', namespace: namespace || '*', nonResourcePath: !namespace && !resource ? '*' : '',
  };
}

/**
 * abacAuthorizer allows when a policy line matches: its subject (user and group, each `*` or exact when given,
 * at least one given), its verb (every line allows get, list and watch; only a line not readonly allows the
 * rest), and either the resource (namespace, resource and apiGroup, each `*` or exact) or the path (`*`, exact,
 * or a `*`-suffixed prefix). No match is no opinion with the reason "No policy matched.".
 * See pkg/auth/authorizer/abac/abac.go (matches, Authorize).
 */
export const abacAuthorizer: Authorizer = {
  name: 'ABAC',
  authorize(attrs, _store, profile: ClusterProfile) {
    const lines = profile.authorization.abac;
    for (let i = 0; i < lines.length; i++) {
      const policy = readPolicy(lines[i]);
      if (policy && matches(policy, attrs)) return { decision: 'Allow', reason: '', detail: { line: i + 1, policy } };
    }
    return { decision: 'NoOpinion', reason: 'No policy matched.', detail: { lines: lines.length } };
  },
};

function matches(p: AbacPolicySpec, attrs: AuthzAttributes): boolean {
  if (!subjectMatches(p, attrs.user)) return false;
  if (!isReadOnly(attrs) && p.readonly) return false;
  if (attrs.resourceRequest) {
    return (p.namespace === '*' || p.namespace === attrs.namespace) && (p.resource === '*' || p.resource === attrs.resource) && (p.apiGroup === '*' || p.apiGroup === attrs.apiGroup);
  }
  return p.nonResourcePath === '*' || p.nonResourcePath === attrs.path || (p.nonResourcePath.endsWith('*') && attrs.path.startsWith(p.nonResourcePath.replace(/\*+$/, '')));
}

function subjectMatches(p: AbacPolicySpec, user: UserInfo): boolean {
  let matched = false;
  if (p.user) {
    if (p.user === '*') matched = true;
    else if (p.user !== user.name) return false;
    else matched = true;
  }
  if (p.group) {
    if (p.group === '*') matched = true;
    else if (!user.groups.includes(p.group)) return false;
    else matched = true;
  }
  return matched;
}
