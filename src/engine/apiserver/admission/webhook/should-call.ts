// Whether one webhook is called for a request: its selectors, rules and matchConditions, in the order the generic
// webhook plugin checks them. See staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/generic/webhook.go (ShouldCallHook).
import type { EngineContext } from '../../../context';
import { forbidden, type StatusError } from '../../request';
import type { AdmissionAttributes } from '../plugin';
import { authorize } from '../../authz';
import { CelAuthorizer, CelResourceCheck } from '../policy/cel/authorizer';
import { admissionRequest, bindVariables, type CelActivation, toCel } from '../policy/cel/evaluate';
import type { WebhookAccessor } from './config';
import { compileMatchConditions, type ConditionEvaluation, matchConditions } from './match-conditions';
import { matchNamespaceSelector, matchObjectSelector, requestVersion, ruleMatches } from './matching';

/** HookDecision says whether to call a webhook, why not, or the error that fails the request. */
export type HookDecision =
  | { call: true; conditions?: ConditionEvaluation[] }
  | { call: false; reason: string; conditions?: ConditionEvaluation[] }
  | { error: StatusError; conditions?: ConditionEvaluation[] };

/**
 * admissionActivation binds the CEL variables of a request without params or composited variables: object, oldObject,
 * request and, when asked, authorizer; namespaceObject as given (webhooks' match conditions see none).
 */
export function admissionActivation(ctx: EngineContext, attrs: AdmissionAttributes, withAuthorizer: boolean, namespaceObject: unknown = null): CelActivation {
  const kinds = { group: attrs.group, version: requestVersion(attrs), resource: attrs.resource, kind: attrs.kind };
  const authz = { user: attrs.user, store: ctx.store, profile: ctx.profile, authorize };
  const requestResource = new CelResourceCheck(authz, attrs.group, attrs.resource, attrs.subresource, attrs.namespace, attrs.name);
  return bindVariables([], {
    object: attrs.operation === 'DELETE' ? null : toCel(attrs.object),
    oldObject: attrs.oldObject ? toCel(attrs.oldObject) : null,
    request: admissionRequest(attrs, kinds),
    namespaceObject,
    ...(withAuthorizer ? { authorizer: new CelAuthorizer(authz, requestResource) } : {}),
  });
}

/**
 * shouldCallHook decides as ShouldCallHook: a namespaceSelector or objectSelector that does not match skips the
 * webhook; so does a request no rule matches; a selector error counts only once a rule matches; then every
 * matchCondition must hold, and one that errors with failurePolicy Fail is `pods "web" is forbidden: <error>`.
 */
export function shouldCallHook(ctx: EngineContext, hook: WebhookAccessor, attrs: AdmissionAttributes): HookDecision {
  const w = hook.webhook;
  const ns = matchNamespaceSelector(w.namespaceSelector, attrs, ctx.store);
  if ('matches' in ns && !ns.matches) return { call: false, reason: 'namespaceSelector does not match the namespace' };
  const obj = matchObjectSelector(w.objectSelector, attrs);
  if ('matches' in obj && !obj.matches) return { call: false, reason: 'objectSelector does not match the object' };
  // With matchPolicy Equivalent a rule on an equivalent resource (another version or group of the same kind) would
  // match too; the resources the simulation serves have no such equivalent, so the rules are matched as written.
  if (!w.rules.some((rule) => ruleMatches(rule, attrs))) return { call: false, reason: 'no rule matches the request' };
  if ('error' in ns) return { error: ns.error };
  if ('error' in obj) return { error: obj.error };
  if (w.matchConditions.length === 0) return { call: true };
  const compiled = compileMatchConditions(w.matchConditions, { hasParams: false, hasAuthorizer: true, variables: [] });
  const result = matchConditions(compiled, admissionActivation(ctx, attrs, true), w.failurePolicy);
  if (result.error !== undefined) return { error: forbidden(attrs.resource, attrs.group, attrs.name || undefined, result.error), conditions: result.evaluations };
  if (!result.matches) {
    const reason = result.failedCondition ? `matchCondition "${result.failedCondition}" is false` : 'a matchCondition failed and failurePolicy is Ignore';
    return { call: false, reason, conditions: result.evaluations };
  }
  return { call: true, conditions: result.evaluations };
}
