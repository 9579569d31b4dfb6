// OwnerReferencesPermissionEnforcement: only who may delete an object may change its owner references, and only
// who may set finalizers on an owner may make it wait for the object (blockOwnerDeletion) (off by default).
import type { OwnerReference } from '../../api/types';
import { RESOURCES } from '../../cluster/store';
import type { EngineContext } from '../../context';
import { authorize } from '../authz';
import type { AuthzAttributes } from '../authz/authorizer';
import { newForbidden } from './errors';
import type { AdmissionAttributes, AdmissionPlugin, AdmissionResult } from './plugin';

/** WHITELIST are the requests the plugin skips: pods/status, whose strategy keeps owner references as they are. */
const WHITELIST: ReadonlyArray<{ group: string; resource: string; subresource: string }> = [{ group: '', resource: 'pods', subresource: 'status' }];

/** sameRef compares two owner references field by field (apiequality.Semantic.DeepEqual). */
function sameRef(x: OwnerReference, y: OwnerReference): boolean {
  return x.apiVersion === y.apiVersion && x.kind === y.kind && x.name === y.name && x.uid === y.uid &&
    (x.controller ?? null) === (y.controller ?? null) && (x.blockOwnerDeletion ?? null) === (y.blockOwnerDeletion ?? null);
}

/** isChangingOwnerReference tells a create with owner references, or an update that changes them. */
function isChangingOwnerReference(a: AdmissionAttributes): boolean {
  const next = a.object.metadata?.ownerReferences ?? [];
  if (!a.oldObject) return next.length > 0;
  const prev = a.oldObject.metadata?.ownerReferences ?? [];
  return prev.length !== next.length || prev.some((r, i) => !sameRef(r, next[i]!));
}

/** newBlockingRefs are the references that block owner deletion and did not before (matched by uid). */
function newBlockingRefs(a: AdmissionAttributes): OwnerReference[] {
  const blocking = (a.object.metadata?.ownerReferences ?? []).filter((r) => r.blockOwnerDeletion === true);
  if (!a.oldObject) return blocking;
  const old = new Map((a.oldObject.metadata?.ownerReferences ?? []).map((r) => [r.uid, r]));
  return blocking.filter((r) => old.get(r.uid)?.blockOwnerDeletion !== true);
}

/** check asks the authorizers; its text is `<reason>, <error>` as the plugin prints them (the error is nil here). */
function check(ctx: EngineContext, attrs: Omit<AuthzAttributes, 'resourceRequest' | 'path'>): { allowed: boolean; why: string } {
  const verdict = authorize({ ...attrs, resourceRequest: true, path: '' }, ctx.store, ctx.profile);
  return { allowed: verdict.allowed, why: `${verdict.reason}, <nil>` };
}

/** ownerResource maps an owner reference's apiVersion and kind to its resource, as the RESTMapper does. */
function ownerResource(ref: OwnerReference): { group: string; version: string; resource: string } | undefined {
  const [group, version] = ref.apiVersion.includes('/') ? ref.apiVersion.split('/', 2) as [string, string] : ['', ref.apiVersion];
  const info = RESOURCES[ref.kind];
  return info && info.group === group ? { group, version, resource: info.resource } : undefined;
}

/** validate is the plugin's Validate. */
function validate(a: AdmissionAttributes, ctx: EngineContext): AdmissionResult {
  if (WHITELIST.some((w) => w.group === a.group && w.resource === a.resource && w.subresource === a.subresource)) return { note: 'whitelisted' };
  if (!isChangingOwnerReference(a)) return { note: 'owner references unchanged' };
  const base = { user: a.user, namespace: a.namespace, apiVersion: 'v1' };
  const checks: Array<{ verb: string; resource: string; name: string; allowed: boolean }> = [];
  // Whoever creates an object could as well not have: only updates need the right to delete it.
  if (a.operation !== 'CREATE') {
    const del = check(ctx, { ...base, verb: 'delete', apiGroup: a.group, resource: a.resource, subresource: a.subresource, name: a.name });
    checks.push({ verb: 'delete', resource: a.resource, name: a.name, allowed: del.allowed });
    if (!del.allowed) return { error: newForbidden(a, `cannot set an ownerRef on a resource you can't delete: ${del.why}`), detail: { checks } };
  }
  const blocking = newBlockingRefs(a);
  if (blocking.length === 0) return { note: 'no new blockOwnerDeletion', detail: { checks } };
  // One check whether the user may set finalizers on anything spares the RESTMapper lookups.
  const anything = check(ctx, { ...base, namespace: '', verb: 'update', apiGroup: '*', apiVersion: '*', resource: '*', subresource: 'finalizers', name: '*' });
  checks.push({ verb: 'update', resource: '*/finalizers', name: '*', allowed: anything.allowed });
  if (anything.allowed) return { note: 'may set finalizers on anything', detail: { checks } };
  for (const ref of blocking) {
    const mapped = ownerResource(ref);
    if (!mapped) {
      return {
        error: newForbidden(a, `cannot set blockOwnerDeletion in this case because cannot find RESTMapping for APIVersion ${ref.apiVersion} Kind ${ref.kind}: no matches for kind "${ref.kind}" in version "${ref.apiVersion}"`),
        detail: { checks },
      };
    }
    const fin = check(ctx, { ...base, verb: 'update', apiGroup: mapped.group, apiVersion: mapped.version, resource: mapped.resource, subresource: 'finalizers', name: ref.name });
    checks.push({ verb: 'update', resource: `${mapped.resource}/finalizers`, name: ref.name, allowed: fin.allowed });
    if (!fin.allowed) {
      return { error: newForbidden(a, `cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set finalizers on: ${fin.why}`), detail: { checks } };
    }
  }
  return { note: 'may set finalizers on every blocking owner', detail: { checks } };
}

/**
 * ownerReferencesPermissionEnforcement checks, in the validating pass, that a user changing owner references may
 * delete the object (on updates) and may update the finalizers subresource of every owner it newly marks
 * blockOwnerDeletion. See plugin/pkg/admission/gc/gc_admission.go.
 */
export const ownerReferencesPermissionEnforcement: AdmissionPlugin = {
  name: 'OwnerReferencesPermissionEnforcement',
  source: 'plugin/pkg/admission/gc/gc_admission.go',
  handles: (a) => a.operation === 'CREATE' || a.operation === 'UPDATE',
  validate,
};
