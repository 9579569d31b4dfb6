// MutatingAdmissionWebhook: calls the MutatingWebhookConfiguration webhooks one after another, applies their JSONPatches,
// and reinvokes the IfNeeded ones once when a later webhook changed the object.
import type { EngineContext } from '../../context';
import type { AdmissionAttributes, AdmissionPlugin, AdmissionResult } from './plugin';
import { callWebhook, toStatusErr } from './webhook/call';
import { type WebhookAccessor, webhooksOf } from './webhook/config';
import { internalError, isExemptAdmissionConfigurationResource } from './webhook/matching';
import { applyWebhookPatch } from './webhook/patch';
import { shouldCallHook } from './webhook/should-call';
import type { StatusError } from '../request';

/** WebhookRecord is what the trace shows of one webhook in one round. */
export interface WebhookRecord {
  configuration: string;
  webhook: string;
  round?: number;
  called: boolean;
  result: string;
  failurePolicy: string;
  url?: string;
  seconds?: number;
  message?: string;
  changes?: string[];
  warnings?: string[];
  conditions?: unknown[];
}

/**
 * ReinvokeContext is webhookReinvokeContext: the IfNeeded webhooks called so far, moved to the reinvoke set whenever a
 * later webhook changes the object. See webhook/mutating/reinvocationcontext.go.
 */
class ReinvokeContext {
  private previouslyInvoked = new Set<string>();
  private reinvoke = new Set<string>();
  shouldReinvokeChain = false;

  requireReinvokingPreviouslyInvoked(): void {
    for (const uid of this.previouslyInvoked) this.reinvoke.add(uid);
    this.previouslyInvoked.clear();
  }

  addReinvocable(uid: string): void {
    this.previouslyInvoked.add(uid);
  }

  shouldReinvoke(uid: string): boolean {
    return this.reinvoke.has(uid);
  }
}

/** RoundOutcome is how a round ended: on an error, or having run every webhook. */
interface RoundOutcome {
  error?: StatusError;
}

/** Run carries one admission call's state across rounds: records, warnings, virtual seconds and changed fields. */
interface Run {
  ctx: EngineContext;
  attrs: AdmissionAttributes;
  hooks: WebhookAccessor[];
  reinvoke: ReinvokeContext;
  records: WebhookRecord[];
  warnings: string[];
  seconds: number;
  changes: string[];
}

/**
 * runRound is one pass of the mutating dispatcher (Dispatch): for each webhook, ShouldCallHook; in the reinvocation round
 * only the webhooks marked for it; then the call, whose calling failures the failure policy decides, whose denial ends
 * admission, and whose patch replaces the object. Why: webhook/mutating/dispatcher.go.
 */
function runRound(run: Run, round: 0 | 1): RoundOutcome {
  const { ctx, attrs, reinvoke } = run;
  for (const hook of run.hooks) {
    const w = hook.webhook;
    const base = { configuration: hook.configuration, webhook: w.name, ...(round ? { round } : {}), failurePolicy: w.failurePolicy };
    const decision = shouldCallHook(ctx, hook, attrs);
    const conditions = decision.conditions ? { conditions: decision.conditions } : {};
    if ('error' in decision) {
      run.records.push({ ...base, called: false, result: 'rejected', message: decision.error.message, ...conditions });
      return { error: decision.error };
    }
    if (!decision.call) {
      if (round === 0) run.records.push({ ...base, called: false, result: `skipped: ${decision.reason}`, ...conditions });
      continue;
    }
    // During reinvocation a webhook is never called for the first time, only again.
    if (round === 1 && !reinvoke.shouldReinvoke(hook.uid)) continue;
    const outcome = callWebhook(ctx, w, true);
    run.seconds += outcome.seconds;
    const call = { ...base, called: true, url: outcome.url, seconds: outcome.seconds, ...conditions };
    let changed = false;
    let error: StatusError | undefined;
    let callError: string | undefined;
    if (outcome.kind === 'failed') {
      callError = outcome.error;
    } else {
      const { response } = outcome;
      run.warnings.push(...response.warnings);
      const warnings = response.warnings.length ? { warnings: response.warnings } : {};
      if (!response.allowed) {
        error = toStatusErr(w.name, response.result);
        run.records.push({ ...call, result: 'denied', message: error.message, ...warnings });
      } else if (response.patch === undefined) {
        run.records.push({ ...call, result: 'admitted', ...warnings });
      } else {
        const patched = applyWebhookPatch(attrs.object, response.patch);
        if ('callError' in patched) callError = `failed calling webhook "${w.name}": ${patched.callError}`;
        else if ('error' in patched) {
          error = patched.error;
          run.records.push({ ...call, result: 'rejected', message: error.message, ...warnings });
        } else {
          changed = patched.changed;
          attrs.object = patched.object;
          if (changed) run.changes.push(...patched.paths.filter((p) => !run.changes.includes(p)));
          run.records.push({ ...call, result: changed ? 'patched' : 'admitted (the patch changed nothing)', changes: patched.paths, ...warnings });
        }
      }
    }
    if (changed) {
      reinvoke.requireReinvokingPreviouslyInvoked();
      reinvoke.shouldReinvokeChain = true;
    }
    if (w.reinvocationPolicy === 'IfNeeded') reinvoke.addReinvocable(hook.uid);
    if (callError !== undefined) {
      if (w.failurePolicy === 'Ignore') {
        run.records.push({ ...call, result: 'failed open (failurePolicy Ignore): the call is skipped', message: callError });
        continue;
      }
      error = internalError(callError);
      run.records.push({ ...call, result: 'failed closed (failurePolicy Fail)', message: error.message });
    }
    if (error) return { error };
  }
  return {};
}

/** summarize writes the trace note: which webhooks were called and what came of it. */
function summarize(run: Run): string {
  const called = run.records.filter((r) => r.called);
  if (called.length === 0) return 'no webhook matched the request';
  const parts = called.map((r) => `${r.webhook}${r.round ? ' (reinvoked)' : ''}: ${r.result.replace(/ \(.*$|:.*$/, '')}`);
  return `${parts.join('; ')}${run.seconds ? `; ${run.seconds}s spent waiting on webhooks` : ''}`;
}

/**
 * admit runs the first round, and a second when a webhook changed the object, calling again only the IfNeeded
 * webhooks invoked before that change. kube-apiserver's reinvocation re-runs the whole mutating chain (the in-tree
 * plugins too, see admission/reinvocation.go); here only the webhooks are reinvoked, inside this plugin.
 */
function admit(attrs: AdmissionAttributes, ctx: EngineContext): AdmissionResult {
  if (isExemptAdmissionConfigurationResource(attrs)) return { note: 'webhook configurations are never sent to webhooks' };
  const hooks = webhooksOf(ctx.store, 'MutatingWebhookConfiguration');
  const configurations = [...new Set(hooks.map((h) => h.configuration))];
  if (hooks.length === 0) return { note: 'no MutatingWebhookConfiguration', detail: { configurations, webhooks: [], delaySeconds: 0 } };
  const run: Run = { ctx, attrs, hooks, reinvoke: new ReinvokeContext(), records: [], warnings: [], seconds: 0, changes: [] };
  let outcome = runRound(run, 0);
  if (!outcome.error && run.reinvoke.shouldReinvokeChain) outcome = runRound(run, 1);
  const detail = { configurations, webhooks: run.records, delaySeconds: run.seconds, reinvoked: run.records.some((r) => r.round === 1) };
  return {
    ...(outcome.error ? { error: outcome.error } : {}),
    changes: run.changes,
    note: summarize(run),
    ...(run.warnings.length ? { warnings: run.warnings } : {}),
    detail,
  };
}

/** mutatingAdmissionWebhook is the MutatingAdmissionWebhook admission plugin (staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/mutating/plugin.go). */
export const mutatingAdmissionWebhook: AdmissionPlugin = {
  name: 'MutatingAdmissionWebhook',
  source: 'staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/mutating/plugin.go',
  // Why: NewMutatingWebhook registers admission.NewHandler(Connect, Create, Delete, Update).
  handles: () => true,
  admit,
};
