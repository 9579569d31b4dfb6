// The authorization filter of kube-apiserver's handler chain: ask the authorizers, answer 403 when none allows.
import type { EngineContext } from '../../context';
import { quietSteps, type TraceInput } from '../../runtime/recorder';
import type { Steps } from '../../runtime/step';
import type { StatusError } from '../request';
import type { AuthzAttributes } from './authorizer';
import { forbiddenStatus } from './forbidden';
import { authorize, type AuthzOutcome } from './index';

/** AuthzFilterResult is who allowed the request, or the 403 it is answered with. */
export type AuthzFilterResult = { allowedBy: string } | { error: StatusError };

/**
 * authorizationFilter asks the authorizer chain; an Allow lets the request through (even if an authorizer also
 * erred), anything else is responsewriters.Forbidden with the chain's reason. With a `sink`, the entries go there
 * instead of into the trace. See staging/src/k8s.io/apiserver/pkg/endpoints/filters/authorization.go.
 */
export function* authorizationFilter(ctx: EngineContext, attrs: AuthzAttributes, ref: string, field?: string, sink?: TraceInput[]): Steps<AuthzFilterResult> {
  const verdict = authorize(attrs, ctx.store, ctx.profile);
  const error = verdict.allowed ? undefined : forbiddenStatus(attrs, verdict.reason);
  // A request about an object the trace keeps nothing more of makes its steps without their results and details.
  const entries = ctx.recorder.isQuiet(ref)
    ? quietSteps('apiserver.authorize', ref, 'authorizer', verdict.steps.map((s) => s.authorizer), field)
    : traceEntries(attrs, verdict, error, ref, field);
  if (sink) sink.push(...entries);
  else yield entries;
  if (error) return { error };
  return { allowedBy: `${verdict.authorizer}${verdict.reason ? ` (${verdict.reason})` : ''}` };
}

function traceEntries(attrs: AuthzAttributes, verdict: AuthzOutcome, error: StatusError | undefined, ref: string, field: string | undefined): TraceInput[] {
  const what = attrs.resourceRequest
    ? { user: attrs.user.name, groups: attrs.user.groups, verb: attrs.verb, resource: attrs.resource, subresource: attrs.subresource, apiGroup: attrs.apiGroup, namespace: attrs.namespace, name: attrs.name }
    : { user: attrs.user.name, groups: attrs.user.groups, verb: attrs.verb, path: attrs.path };
  const entries: TraceInput[] = [{
    phase: 'apiserver.authorize', object: ref, ...(field ? { field } : {}),
    result: verdict.allowed ? `allowed by ${verdict.authorizer}${verdict.reason ? ` (${verdict.reason})` : ''}` : `forbidden: ${error?.message}`,
    detail: { attributes: what, decision: verdict.decision, ...(verdict.authorizer ? { decidedBy: verdict.authorizer } : {}), reason: verdict.reason, modes: verdict.steps },
    outcome: verdict.allowed ? 'ok' : 'rejected',
  }];
  for (const s of verdict.steps) {
    entries.push({ phase: 'apiserver.authorize', object: ref, step: { kind: 'authorizer', name: s.authorizer }, result: `${s.decision}${s.reason ? `: ${s.reason}` : ''}`, detail: { ...s } });
  }
  return entries;
}
