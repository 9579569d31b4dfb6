// What webhooks and admission policies share to decide whether they apply: rules (operations, groups, versions,
// resources with subresources, scope), namespaceSelector, objectSelector, and the exempt admission configuration kinds.
// See staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/predicates/{rules,namespace,object}.
import { labelSelectorAsSelector, selectorMatches, SelectorError } from '../../../api/labels';
import type { KubeObject, LabelSelector } from '../../../api/types';
import type { Store } from '../../../cluster/store';
import { notFound, StatusError } from '../../request';
import type { AdmissionAttributes } from '../plugin';

/** RuleWithOperations is admissionregistration/v1 RuleWithOperations; NamedRule adds resourceNames (policies' rules). */
export interface RuleWithOperations {
  operations?: string[];
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
  scope?: string;
  resourceNames?: string[];
}

/** requestVersion is the version of the request's resource: the object's apiVersion, `v1` for the core group. */
export function requestVersion(attrs: AdmissionAttributes): string {
  const apiVersion = (attrs.object?.apiVersion ?? attrs.oldObject?.apiVersion ?? 'v1') as string;
  return apiVersion.slice(apiVersion.lastIndexOf('/') + 1);
}

/** exactOrWildcard is rules.exactOrWildcard: the item list holds `*` or the requested value. */
function exactOrWildcard(items: readonly string[] | undefined, requested: string): boolean {
  return (items ?? []).some((item) => item === '*' || item === requested);
}

/** isNamespaceResource tells a request on core v1 namespaces, which are cluster-scoped yet carry their own name as namespace. */
function isNamespaceResource(attrs: AdmissionAttributes, version: string): boolean {
  return attrs.group === '' && version === 'v1' && attrs.resource === 'namespaces';
}

/**
 * ruleMatches is rules.Matcher.Matches: scope (`*` when unset; Namespaced for namespaced requests other than namespaces,
 * Cluster for cluster-scoped ones and namespaces), operations (`*` is all), groups, versions, and resources where
 * `pods/*` matches every subresource, `*` only the main resource, `*\/*` everything.
 */
export function ruleMatches(rule: RuleWithOperations, attrs: AdmissionAttributes): boolean {
  const version = requestVersion(attrs);
  const scope = rule.scope ?? '*';
  let scoped: boolean;
  if (scope === '*') scoped = true;
  else if (scope === 'Namespaced') scoped = !isNamespaceResource(attrs, version) && attrs.namespace !== '';
  else if (scope === 'Cluster') scoped = isNamespaceResource(attrs, version) || attrs.namespace === '';
  else scoped = false;
  if (!scoped) return false;
  if (!(rule.operations ?? []).some((op) => op === '*' || op === attrs.operation)) return false;
  if (!exactOrWildcard(rule.apiGroups, attrs.group) || !exactOrWildcard(rule.apiVersions, version)) return false;
  return (rule.resources ?? []).some((entry) => {
    const slash = entry.indexOf('/');
    const res = slash < 0 ? entry : entry.slice(0, slash);
    const sub = slash < 0 ? '' : entry.slice(slash + 1);
    return (res === '*' || res === attrs.resource) && (sub === '*' || sub === attrs.subresource);
  });
}

/** SelectorOutcome is whether a selector matched, or the error that stands once the rules match too. */
export type SelectorOutcome = { matches: boolean } | { error: StatusError };

/** internalError is apierrors.NewInternalError: `Internal error occurred: <message>`, 500 InternalError. */
export function internalError(message: string): StatusError {
  return new StatusError({
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `Internal error occurred: ${message}`,
    reason: 'InternalError', details: { causes: [{ reason: '', message, field: '' }] }, code: 500,
  });
}

/** parseSelector turns a LabelSelector into a matcher; an absent one is empty (everything), as v1 defaulting makes it. */
function parseSelector(selector: LabelSelector | undefined | null): ((labels: Record<string, string> | undefined) => boolean) | StatusError {
  try {
    const parsed = labelSelectorAsSelector(selector ?? {});
    return (labels) => selectorMatches(parsed, labels);
  } catch (err) {
    if (err instanceof SelectorError) return internalError(err.message);
    throw err;
  }
}

/**
 * matchNamespaceSelector is namespace.Matcher.MatchNamespaceSelector: a cluster-scoped request other than on a namespace
 * always matches; an empty selector matches; otherwise the namespace's labels (the object's own for a namespace request)
 * decide, and a namespace that does not exist is the 404 `namespaces "x" not found`.
 */
export function matchNamespaceSelector(selector: LabelSelector | undefined, attrs: AdmissionAttributes, store: Store): SelectorOutcome {
  const version = requestVersion(attrs);
  if (attrs.namespace === '' && attrs.resource !== 'namespaces') return { matches: true };
  const matcher = parseSelector(selector);
  if (matcher instanceof StatusError) return { error: matcher };
  if (Object.keys(selector?.matchLabels ?? {}).length === 0 && (selector?.matchExpressions ?? []).length === 0) return { matches: true };
  let labels: Record<string, string> | undefined;
  if (isNamespaceResource(attrs, version) && attrs.operation !== 'DELETE') {
    labels = attrs.object.metadata?.labels;
  } else {
    const ns = store.get<KubeObject>('Namespace', undefined, attrs.namespace);
    if (!ns) return { error: notFound('namespaces', '', attrs.namespace) };
    labels = ns.metadata?.labels;
  }
  return { matches: matcher(labels) };
}

/** matchObjectSelector is object.Matcher.MatchObjectSelector: the labels of the object, or of the old object, match. */
export function matchObjectSelector(selector: LabelSelector | undefined, attrs: AdmissionAttributes): SelectorOutcome {
  const matcher = parseSelector(selector);
  if (matcher instanceof StatusError) return { error: matcher };
  if (Object.keys(selector?.matchLabels ?? {}).length === 0 && (selector?.matchExpressions ?? []).length === 0) return { matches: true };
  const objectLabels = attrs.operation === 'DELETE' ? undefined : attrs.object?.metadata?.labels;
  const matchesObject = attrs.operation !== 'DELETE' && matcher(objectLabels);
  return { matches: matchesObject || (!!attrs.oldObject && matcher(attrs.oldObject.metadata?.labels)) };
}

/**
 * isExemptAdmissionConfigurationResource tells a request on a webhook configuration itself, which webhooks never see
 * (so a broken webhook cannot lock its own configuration). See rules.IsExemptAdmissionConfigurationResource.
 */
export function isExemptAdmissionConfigurationResource(attrs: AdmissionAttributes): boolean {
  return attrs.group === 'admissionregistration.k8s.io' && (attrs.kind === 'ValidatingWebhookConfiguration' || attrs.kind === 'MutatingWebhookConfiguration');
}
