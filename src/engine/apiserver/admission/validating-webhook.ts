// ValidatingAdmissionWebhook: calls every matching ValidatingWebhookConfiguration webhook in parallel; the first failure
// to come back rejects the request.
import type { EngineContext } from '../../context';
import type { WebhookRecord } from './mutating-webhook';
import type { AdmissionAttributes, AdmissionPlugin, AdmissionResult } from './plugin';
import { callWebhook, toStatusErr } from './webhook/call';
import { webhooksOf } from './webhook/config';
import { internalError, isExemptAdmissionConfigurationResource } from './webhook/matching';
import { shouldCallHook } from './webhook/should-call';
import type { StatusError } from '../request';

/** Finished is one webhook's call as it completed: when, its record, its error and its warnings. */
interface Finished {
  order: number;
  seconds: number;
  record: WebhookRecord;
  error?: StatusError;
  warnings: string[];
}

/**
 * validate runs the validating dispatcher (Dispatch): ShouldCallHook for every webhook first (a selector or
 * matchCondition error rejects before any call), then all the calls at once. The calls run concurrently, so the
 * request waits for the slowest, and of several failures the one that arrived first is returned; here arrival is the
 * virtual time each call took, ties in configuration order. A calling failure with failurePolicy Ignore is skipped.
 * Why: staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/validating/dispatcher.go.
 */
function validate(attrs: AdmissionAttributes, ctx: EngineContext): AdmissionResult {
  if (isExemptAdmissionConfigurationResource(attrs)) return { note: 'webhook configurations are never sent to webhooks' };
  const hooks = webhooksOf(ctx.store, 'ValidatingWebhookConfiguration');
  const configurations = [...new Set(hooks.map((h) => h.configuration))];
  if (hooks.length === 0) return { note: 'no ValidatingWebhookConfiguration', detail: { configurations, webhooks: [], delaySeconds: 0 } };
  const records: WebhookRecord[] = [];
  const relevant: typeof hooks = [];
  for (const hook of hooks) {
    const base = { configuration: hook.configuration, webhook: hook.webhook.name, failurePolicy: hook.webhook.failurePolicy };
    const decision = shouldCallHook(ctx, hook, attrs);
    const conditions = decision.conditions ? { conditions: decision.conditions } : {};
    if ('error' in decision) {
      records.push({ ...base, called: false, result: 'rejected', message: decision.error.message, ...conditions });
      return { error: decision.error, note: `${hook.webhook.name}: ${decision.error.message}`, detail: { configurations, webhooks: records, delaySeconds: 0 } };
    }
    if (!decision.call) records.push({ ...base, called: false, result: `skipped: ${decision.reason}`, ...conditions });
    else relevant.push(hook);
  }
  if (relevant.length === 0) return { note: 'no webhook matched the request', detail: { configurations, webhooks: records, delaySeconds: 0 } };

  const finished: Finished[] = relevant.map((hook, order) => {
    const w = hook.webhook;
    const outcome = callWebhook(ctx, w, false);
    const base = { configuration: hook.configuration, webhook: w.name, failurePolicy: w.failurePolicy, called: true, url: outcome.url, seconds: outcome.seconds };
    if (outcome.kind === 'failed') {
      if (w.failurePolicy === 'Ignore') {
        return { order, seconds: outcome.seconds, warnings: [], record: { ...base, result: 'failed open (failurePolicy Ignore): the call is skipped', message: outcome.error } };
      }
      const error = internalError(outcome.error);
      return { order, seconds: outcome.seconds, warnings: [], error, record: { ...base, result: 'failed closed (failurePolicy Fail)', message: error.message } };
    }
    const { response } = outcome;
    const warnings = response.warnings.length ? { warnings: response.warnings } : {};
    if (response.allowed) return { order, seconds: outcome.seconds, warnings: response.warnings, record: { ...base, result: 'admitted', ...warnings } };
    const error = toStatusErr(w.name, response.result);
    return { order, seconds: outcome.seconds, warnings: response.warnings, error, record: { ...base, result: 'denied', message: error.message, ...warnings } };
  });
  const byArrival = [...finished].sort((a, b) => a.seconds - b.seconds || a.order - b.order);
  records.push(...finished.map((f) => f.record));
  const error = byArrival.find((f) => f.error)?.error;
  const warnings = byArrival.flatMap((f) => f.warnings);
  const delaySeconds = Math.max(0, ...finished.map((f) => f.seconds));
  const note = finished.map((f) => `${f.record.webhook}: ${f.record.result.replace(/ \(.*$|:.*$/, '')}`).join('; ')
    + (delaySeconds ? `; ${delaySeconds}s spent waiting on webhooks` : '');
  return {
    ...(error ? { error } : {}),
    note,
    ...(warnings.length ? { warnings } : {}),
    detail: { configurations, webhooks: records, delaySeconds },
  };
}

/** validatingAdmissionWebhook is the ValidatingAdmissionWebhook admission plugin (staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/validating/plugin.go). */
export const validatingAdmissionWebhook: AdmissionPlugin = {
  name: 'ValidatingAdmissionWebhook',
  source: 'staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/validating/plugin.go',
  // Why: NewValidatingAdmissionWebhook registers admission.NewHandler(Connect, Create, Delete, Update).
  handles: () => true,
  validate,
};
