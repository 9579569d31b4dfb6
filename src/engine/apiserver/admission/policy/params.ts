// The params of a policy binding: the paramKind's objects the binding's paramRef names or selects, from the store.
// See staging/src/k8s.io/apiserver/pkg/admission/plugin/policy/generic/policy_dispatcher.go (CollectParams) and
// policy_source.go (ensureParamsForPolicyLocked).
import { matchesLabelSelector } from '../../../api/labels';
import type { KubeObject, LabelSelector } from '../../../api/types';
import { RESOURCES, type Store } from '../../../cluster/store';

/** ParamRef is a binding's spec.paramRef. */
export interface ParamRef {
  name?: string;
  namespace?: string;
  selector?: LabelSelector;
  parameterNotFoundAction?: string;
}

/** ParamScope says whether the paramKind lives in namespaces, or the configuration error of a kind the server does not serve. */
export type ParamScope = { namespaced: boolean } | { error: string };

/**
 * paramScope resolves a paramKind as the REST mapper would: a kind the API server serves (RESOURCES, or any kind with
 * objects in the cluster, as a CRD's would be) in the group of its apiVersion. Otherwise it is the policy's
 * configuration error `failed to find resource referenced by paramKind: '<group>/<version>, Kind=<kind>'`.
 */
export function paramScope(store: Store, paramKind: { apiVersion?: string; kind?: string }): ParamScope {
  const apiVersion = paramKind.apiVersion ?? '';
  const kind = paramKind.kind ?? '';
  const slash = apiVersion.lastIndexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const version = apiVersion.slice(slash + 1);
  const known = Object.hasOwn(RESOURCES, kind) ? RESOURCES[kind] : undefined;
  if (known && known.group === group) return { namespaced: known.namespaced };
  const existing = store.list<KubeObject>(kind).filter((o) => o.apiVersion === apiVersion);
  if (!known && existing.length > 0) return { namespaced: existing.some((o) => !!o.metadata?.namespace) };
  // Why: schema.GroupVersionKind's String(): `group/version, Kind=kind`.
  return { error: `failed to find resource referenced by paramKind: '${group}/${version}, Kind=${kind}'` };
}

/** CollectedParams are the param objects to evaluate with (null for a binding without params), or a configuration error. */
export type CollectedParams = { params: (KubeObject | null)[] } | { error: string };

/**
 * collectParams is CollectParams: without a paramKind, or a binding without a paramRef, one evaluation with null params;
 * a named param, or the params a selector picks, in the paramRef's namespace or the request's; none found is either
 * nothing to evaluate or, with parameterNotFoundAction Deny, an error.
 */
export function collectParams(
  store: Store,
  paramKind: { apiVersion?: string; kind?: string } | undefined,
  scope: ParamScope | undefined,
  paramRef: ParamRef | undefined,
  requestNamespace: string,
): CollectedParams {
  if (!paramKind || !paramRef) return { params: [null] };
  if (!scope || 'error' in scope) return { error: `paramKind kind \`${paramKind.kind ?? ''}\` not known` };
  let namespace: string | undefined;
  if (scope.namespaced) {
    namespace = paramRef.namespace || requestNamespace;
    if (!namespace) return { error: 'cannot use namespaced paramRef in policy binding that matches cluster-scoped resources' };
  } else if (paramRef.namespace) {
    return { error: 'paramRef.namespace must not be provided for a cluster-scoped `paramKind`' };
  }
  const kind = paramKind.kind ?? '';
  const candidates = store.list<KubeObject>(kind, namespace).filter((o) => !o.apiVersion || o.apiVersion === paramKind.apiVersion);
  let params: KubeObject[];
  if (paramRef.name) {
    if (paramRef.selector) return { error: 'paramRef.name and paramRef.selector are mutually exclusive' };
    params = candidates.filter((o) => o.metadata?.name === paramRef.name);
  } else if (paramRef.selector) {
    params = candidates.filter((o) => matchesLabelSelector(paramRef.selector, o.metadata?.labels));
  } else {
    return { error: 'one of name or selector must be provided' };
  }
  if (params.length === 0 && paramRef.parameterNotFoundAction === 'Deny') {
    return { error: 'no params found for policy binding with `Deny` parameterNotFoundAction' };
  }
  return { params };
}
