// The authorization a ValidatingAdmissionPolicy's and a binding's strategy adds to a well-formed object: whoever
// writes a policy with a paramKind must be able to get every object of that kind, whoever writes a binding with a
// paramRef must be able to get (by name) or list (by selector) what it refers to. A refusal is a Forbidden field error
// (spec.paramKind, spec.paramRef) in the 422 Invalid answer. See
// pkg/registry/admissionregistration/validatingadmissionpolicy{,binding}/authz.go and strategy.go (k8s.io/kubernetes v1.36.3).
import { isObject, type KubeObject } from '../api/types';
import type { ClusterProfile } from '../cluster/inputs';
import { RESOURCES, type Store } from '../cluster/store';
import { authorize } from './authz';
import { SYSTEM_MASTERS } from './authz/privileged-group';
import type { UserInfo } from './request';
import { type FieldError, forbidden } from './validation/field-errors';

type Rec = Record<string, unknown>;
const rec = (v: unknown): Rec => (isObject(v) ? v : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** ParamKind is admissionregistration.ParamKind as the strategies read it. */
interface ParamKind { apiVersion: string; kind: string }

/**
 * paramAuthorization is the strategies' authorizeCreate (old undefined) and authorizeUpdate. A policy whose paramKind
 * is as it was is not asked again; a binding always is, for Go compares its paramRef's pointer fields
 * (parameterNotFoundAction, selector) by address. A member of system:masters passes (rbacregistry.EscalationAllowed).
 */
export function paramAuthorization(store: Store, profile: ClusterProfile, obj: KubeObject, old: KubeObject | undefined, user: UserInfo): FieldError[] {
  if (user.groups.includes(SYSTEM_MASTERS)) return [];
  if (obj.kind === 'ValidatingAdmissionPolicy') {
    const paramKind = paramKindOf(obj);
    if (!paramKind) return [];
    const was = old && paramKindOf(old);
    if (was && was.apiVersion === paramKind.apiVersion && was.kind === paramKind.kind) return [];
    const target = resolve(paramKind);
    const allowed = authorize({ user, verb: 'get', namespace: '*', name: '*', ...target.attrs, subresource: '', resourceRequest: true, path: '' }, store, profile).allowed;
    if (allowed) return [];
    return [forbidden('spec.paramKind', `user ${goUser(user)} must have "get" permission on all objects of the referenced paramKind (kind=${paramKind.kind}, apiVersion=${paramKind.apiVersion})`)];
  }
  if (obj.kind === 'ValidatingAdmissionPolicyBinding') {
    const spec = rec(obj['spec']);
    if (!isObject(spec['paramRef'])) return [];
    const paramRef = spec['paramRef'];
    const policyName = str(spec['policyName']);
    const policy = store.get('ValidatingAdmissionPolicy', undefined, policyName);
    const paramKind = policy ? paramKindOf(policy) : undefined;
    const target = paramKind ? resolve(paramKind) : { attrs: { apiGroup: '*', apiVersion: '*', resource: '*' } };
    const name = str(paramRef['name']);
    const verb = name.length === 0 ? 'list' : 'get';
    const allowed = authorize({ user, verb, namespace: str(paramRef['namespace']), name, ...target.attrs, subresource: '', resourceRequest: true, path: '' }, store, profile).allowed;
    if (allowed) return [];
    const everything = `user ${goUser(user)} does not have "${verb}" permission for all groups, versions and resources`;
    let message = `user ${goUser(user)} does not have "${verb}" permission on the object referenced by paramRef`;
    if (!policy) message = `unable to get policy ${policyName} to determine minimum required permissions and ${everything}`;
    else if (paramKind && 'parseError' in target) message = `unable to parse paramKind &{${paramKind.apiVersion} ${paramKind.kind}} to determine minimum required permissions and ${everything}`;
    else if (paramKind && 'unresolved' in target) message = `unable to resolve paramKind &{${paramKind.apiVersion} ${paramKind.kind}} to determine minimum required permissions and ${everything}`;
    return [forbidden('spec.paramRef', message)];
  }
  return [];
}

function paramKindOf(policy: KubeObject): ParamKind | undefined {
  const paramKind = rec(policy['spec'])['paramKind'];
  return isObject(paramKind) ? { apiVersion: str(paramKind['apiVersion']), kind: str(paramKind['kind']) } : undefined;
}

type Target = { attrs: { apiGroup: string; apiVersion: string; resource: string }; parseError?: true; unresolved?: true };

/**
 * resolve is the strategies' reading of a paramKind: every group, version and resource (`*`) unless its apiVersion
 * parses (schema.ParseGroupVersion), then its group and version, and its resource when the kind is known. The
 * engine knows a kind by its name and group (RESOURCES); the real resolver asks discovery, which also knows the
 * versions served and the custom resources.
 */
function resolve(paramKind: ParamKind): Target {
  const gv = paramKind.apiVersion;
  const slashes = gv.split('/').length - 1;
  if (slashes > 1) return { attrs: { apiGroup: '*', apiVersion: '*', resource: '*' }, parseError: true };
  const [group, version] = gv === '' || gv === '/' ? ['', ''] : slashes === 0 ? ['', gv] : (gv.split('/') as [string, string]);
  const known = RESOURCES[paramKind.kind];
  if (known && known.group === group && version !== '') return { attrs: { apiGroup: group, apiVersion: version, resource: known.resource } };
  return { attrs: { apiGroup: group, apiVersion: version, resource: '*' }, unresolved: true };
}

/**
 * goUser prints a user.Info as `%v` prints Go's *user.DefaultInfo: `&{name uid [groups] map[extra]}`, the extra
 * keys sorted and each value a list.
 */
function goUser(user: UserInfo): string {
  const extra = Object.keys(user.extra ?? {}).sort().map((k) => `${k}:[${(user.extra?.[k] ?? []).join(' ')}]`).join(' ');
  return `&{${user.name} ${user.uid ?? ''} [${user.groups.join(' ')}] map[${extra}]}`;
}
