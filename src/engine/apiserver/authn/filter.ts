// The authentication and impersonation filters of kube-apiserver's handler chain, recorded as trace entries.
import type { EngineContext } from '../../context';
import { quietSteps, type TraceInput } from '../../runtime/recorder';
import type { Steps } from '../../runtime/step';
import { StatusError, unauthorized, type UserInfo } from '../request';
import { type AuthnEnv, type Credentials } from './authenticator';
import { authenticate, type AuthnStep } from './index';
import { impersonate, type ImpersonationCheck } from './impersonation';

/** AuthnFilterResult is who the request acts as (and who said so), or the error it is answered with. */
export type AuthnFilterResult = { user: UserInfo; authenticatedBy: string; impersonating?: boolean } | { error: StatusError };

/** authnEnv is what the authenticators read of the simulated cluster, the wall clock at the virtual now. */
export function authnEnv(ctx: EngineContext): AuthnEnv {
  return { profile: ctx.profile, store: ctx.store, now: new Date(ctx.clock.epoch.getTime() + ctx.clock.now) };
}

/**
 * authenticationFilter runs the authenticator chain, then impersonation when the request asks for it. A request
 * no authenticator accepts is answered 401 with kube-apiserver's bare Unauthorized Status; the reason stays in
 * the server's log (here, the trace). With a `sink`, the entries go there instead of into the trace, for the
 * caller to record only when the request is refused.
 * See staging/src/k8s.io/apiserver/pkg/endpoints/filters/authentication.go and filters/impersonation.
 */
export function* authenticationFilter(ctx: EngineContext, credentials: Credentials, request: string, ref: string, sink?: TraceInput[]): Steps<AuthnFilterResult> {
  const outcome = authenticate(credentials, authnEnv(ctx));
  const entries: TraceInput[] = [];
  const user = outcome.user;
  const imp = credentials.impersonate;
  const emit = function* (): Steps<void> {
    if (sink) sink.push(...entries);
    else yield entries;
  };
  // A request about an object the trace keeps nothing more of makes its steps without their results and details.
  if (user && !imp && ctx.recorder.isQuiet(ref)) {
    entries.push(...quietSteps('apiserver.authenticate', ref, 'authenticator', outcome.steps.map((s) => s.authenticator)));
    yield* emit();
    return { user, authenticatedBy: outcome.authenticator ?? '' };
  }
  entries.push({
    phase: 'apiserver.authenticate', object: ref,
    result: user
      ? `authenticated as "${user.name}" by ${outcome.authenticator} (groups: ${user.groups.join(', ')})${imp ? `, asking to impersonate "${imp.user}"` : ''}`
      : `401 Unauthorized: ${outcome.error ?? 'no credentials, and anonymous authentication is off'}`,
    detail: { request, ...(user ? { user, authenticator: outcome.authenticator } : { status: unauthorized().status }), ...(outcome.error ? { error: outcome.error } : {}), authenticators: outcome.steps, ...(imp ? { impersonate: imp } : {}) },
    outcome: user ? 'ok' : 'rejected',
  });
  for (const s of outcome.steps) {
    entries.push({ phase: 'apiserver.authenticate', object: ref, step: { kind: 'authenticator', name: s.authenticator }, result: stepResult(s), detail: { ...s } });
  }
  if (!user) {
    yield* emit();
    return { error: unauthorized() };
  }
  if (!imp) {
    yield* emit();
    return { user, authenticatedBy: outcome.authenticator ?? '' };
  }
  const acting = impersonate(user, imp, ctx.store, ctx.profile);
  for (const c of acting.checks) entries.push(checkEntry(ref, c));
  if ('error' in acting) {
    entries.push({ phase: 'apiserver.authenticate', object: ref, step: { kind: 'authorizer', name: 'impersonation' }, result: `impersonation refused: ${acting.error.message}`, detail: { status: acting.error.status }, outcome: 'rejected' });
    yield* emit();
    return { error: acting.error };
  }
  entries.push({
    phase: 'apiserver.authenticate', object: ref, step: { kind: 'authorizer', name: 'impersonation' },
    result: `"${user.name}" impersonates "${acting.user.name}" (groups: ${acting.user.groups.join(', ')})`, detail: { impersonator: user, user: acting.user },
  });
  yield* emit();
  return { user: acting.user, authenticatedBy: outcome.authenticator ?? '', impersonating: true };
}

function stepResult(s: AuthnStep): string {
  switch (s.result) {
    case 'accepted': return `accepted: user "${s.user?.name}"`;
    case 'error': return `error: ${s.error}`;
    case 'skipped': return `not consulted: ${s.why}`;
    default: return `no opinion${s.why ? `: ${s.why}` : ''}`;
  }
}

function checkEntry(ref: string, c: ImpersonationCheck): TraceInput {
  const a = c.attributes;
  const what = `impersonate ${a.subresource ? `${a.resource}/${a.subresource}` : a.resource} ${JSON.stringify(a.name)}${a.namespace ? ` in ${JSON.stringify(a.namespace)}` : ''}`;
  return {
    phase: 'apiserver.authenticate', object: ref, step: { kind: 'authorizer', name: 'impersonation' },
    result: `"${a.user.name}" ${c.outcome.allowed ? 'may' : 'may not'} ${what}${c.outcome.reason ? ` (${c.outcome.reason})` : ''}`,
    detail: { attributes: { ...c.attributes, user: c.attributes.user.name }, decision: c.outcome.decision, by: c.outcome.authorizer, steps: c.outcome.steps },
    outcome: c.outcome.allowed ? 'ok' : 'rejected',
  };
}
