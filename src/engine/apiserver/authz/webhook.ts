// The Webhook authorizer: a SubjectAccessReview to a remote service; the profile's rules stand for its answers.
import type { AuthzWebhookRule } from '../../cluster/inputs';
import type { AuthzAttributes, Authorizer } from './authorizer';

/**
 * webhookAuthorizer answers as the webhook would: the first rule of `authorization.webhook` whose given fields
 * (user, group, verb, resource — `pods` or `pods/log` —, namespace) all match decides. `allow` is Allow and `deny`
 * is Deny, each with the rule's reason (status.allowed, status.denied and status.reason of the review); `noOpinion`,
 * or no rule matching, is no opinion, and the next mode decides.
 * See staging/src/k8s.io/apiserver/plugin/pkg/authorizer/webhook/webhook.go (Authorize).
 */
export const webhookAuthorizer: Authorizer = {
  name: 'Webhook',
  authorize(attrs, _store, profile) {
    const rules = profile.authorization.webhook;
    const i = rules.findIndex((r) => ruleMatches(r, attrs));
    const rule = rules[i];
    if (!rule) return { decision: 'NoOpinion', reason: '', detail: { rule: 'none matched' } };
    const reason = rule.reason ?? '';
    const detail = { rule: i + 1, subjectAccessReview: { allowed: rule.decision === 'allow', denied: rule.decision === 'deny', reason } };
    if (rule.decision === 'allow') return { decision: 'Allow', reason, detail };
    if (rule.decision === 'deny') return { decision: 'Deny', reason, detail };
    return { decision: 'NoOpinion', reason, detail };
  },
};

/** ruleMatches: every field the rule gives equals the request's (a group by membership); `*` matches anything. */
export function ruleMatches(rule: AuthzWebhookRule, attrs: AuthzAttributes): boolean {
  const eq = (want: string | undefined, got: string): boolean => want === undefined || want === '*' || want === got;
  const combined = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
  return eq(rule.user, attrs.user.name)
    && (rule.group === undefined || rule.group === '*' || attrs.user.groups.includes(rule.group))
    && eq(rule.verb, attrs.verb)
    && (rule.resource === undefined || rule.resource === '*' || (attrs.resourceRequest && (rule.resource === attrs.resource || rule.resource === combined)))
    && eq(rule.namespace, attrs.namespace);
}
