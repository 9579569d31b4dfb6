// Calling an admission webhook in the simulation: where the request goes (service or URL), whether it gets there, how
// long it takes against the webhook's timeout, and what it answers (the Behavior's `webhooks` entry for its name).
// See staging/src/k8s.io/apiserver/pkg/util/webhook (client and service resolution) and webhook/{mutating,validating}/dispatcher.go.
import type { KubeObject } from '../../../api/types';
import type { WebhookBehavior } from '../../../cluster/inputs';
import type { EngineContext } from '../../../context';
import { StatusError } from '../../request';
import type { Webhook } from './config';

/** WebhookStatus is the metav1.Status a webhook puts in response.result. */
export interface WebhookStatus {
  code: number;
  reason: string;
  message: string;
}

/** WebhookResponse is a verified AdmissionResponse: allowed or not, the result, the JSONPatch and the warnings. */
export interface WebhookResponse {
  allowed: boolean;
  result?: WebhookStatus;
  patch?: unknown;
  warnings: string[];
}

/** CallOutcome is what calling a webhook came to, with the virtual seconds it cost and the URL it posted to. */
export type CallOutcome =
  | { kind: 'answered'; response: WebhookResponse; seconds: number; url: string }
  | { kind: 'failed'; error: string; seconds: number; url: string; cause: 'unreachable' | 'timeout' | 'service' | 'invalid-response' };

// Why: reasonForCode in staging/src/k8s.io/apimachinery/pkg/api/errors/errors.go.
const REASONS: Readonly<Record<number, string>> = {
  400: 'BadRequest', 401: 'Unauthorized', 403: 'Forbidden', 404: 'NotFound', 405: 'MethodNotAllowed', 406: 'NotAcceptable', 409: 'Conflict',
  410: 'Gone', 413: 'RequestEntityTooLarge', 415: 'UnsupportedMediaType', 422: 'Invalid', 429: 'TooManyRequests', 500: 'InternalError',
  503: 'ServiceUnavailable', 504: 'Timeout',
};

/** reasonForCode is the StatusReason apimachinery gives an HTTP code; "" (StatusReasonUnknown) for others. */
export function reasonForCode(code: number): string {
  return REASONS[code] ?? '';
}

/**
 * webhookURL is the URL the API server posts the AdmissionReview to, with the timeout query client-go adds:
 * `https://<service>.<namespace>.svc:<port><path>?timeout=10s`, or the configured url.
 * Why: ClientManager.HookClient in util/webhook/client.go (host `<name>.<namespace>.svc`, port 443 by default, the path
 * as the API path) and rest.Request.Timeout (the `timeout` parameter, Go's duration text).
 */
export function webhookURL(webhook: Webhook): string {
  const timeout = `?timeout=${webhook.timeoutSeconds}s`;
  const service = webhook.clientConfig.service;
  if (service) {
    return `https://${service.name}.${service.namespace}.svc:${service.port ?? 443}${joinPath(service.path ?? '')}${timeout}`;
  }
  try {
    const url = new URL(webhook.clientConfig.url ?? '');
    return `${url.protocol}//${url.host}${joinPath(url.pathname)}${timeout}`;
  } catch {
    return `${webhook.clientConfig.url ?? ''}${timeout}`;
  }
}

/** joinPath is Go's path.Join("/", p): one leading slash, no empty, `.` or `..` elements, no trailing slash. */
function joinPath(p: string): string {
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return `/${out.join('/')}`;
}

/**
 * toStatusErr is the denial of a webhook as ToStatusErr builds it: a code under 400 becomes 400, and the message is
 * `admission webhook "x" denied the request: <message>` (or the reason, or `without explanation`).
 * Why: staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/errors/statuserror.go.
 */
export function toStatusErr(webhookName: string, result: WebhookStatus | undefined): StatusError {
  const deniedBy = `admission webhook "${webhookName}" denied the request`;
  const code = (result?.code ?? 0) < 400 ? 400 : result!.code;
  const reason = result?.reason ?? '';
  const message = result?.message ? `${deniedBy}: ${result.message}` : reason ? `${deniedBy}: ${reason}` : `${deniedBy} without explanation`;
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code });
}

/**
 * dialAddress resolves where the connection goes, as the ClusterIP service resolver does: the Service's clusterIP and
 * port; an error text when the Service is missing, headless or lacks the port.
 * Why: ResolveCluster in staging/src/k8s.io/apiserver/pkg/util/proxy/proxy.go (findServicePort's message).
 */
function dialAddress(ctx: EngineContext, webhook: Webhook): { address: string } | { error: string } {
  const service = webhook.clientConfig.service;
  if (!service) {
    // The API server refuses to store a webhook with an unparsable url; one read from a file may still have it.
    if (!URL.canParse(webhook.clientConfig.url ?? '')) return { error: `parse ${JSON.stringify(webhook.clientConfig.url ?? '')}: invalid URL` };
    const url = new URL(webhook.clientConfig.url ?? '');
    return { address: `${url.hostname}:${url.port || (url.protocol === 'http:' ? '80' : '443')}` };
  }
  const svc = ctx.store.get<KubeObject>('Service', service.namespace, service.name);
  if (!svc) return { error: `service "${service.name}" not found` };
  const spec = (svc['spec'] ?? {}) as { type?: string; clusterIP?: string; externalName?: string; ports?: { port?: number }[] };
  const port = service.port ?? 443;
  if ((spec.type ?? 'ClusterIP') === 'ExternalName') return { address: `${spec.externalName ?? ''}:${port}` };
  if (spec.clusterIP === 'None') return { error: 'cannot route to service with ClusterIP "None"' };
  if (!(spec.ports ?? []).some((p) => p.port === port)) return { error: `no service port ${port} found for service "${service.name}"` };
  return { address: `${spec.clusterIP ?? ''}:${port}` };
}

/**
 * answerOf turns the Behavior's entry into the webhook's AdmissionResponse. The simulated webhook answers as a
 * controller-runtime webhook does: a denial carries code 403 and reason Forbidden unless the Behavior gives a code,
 * whose reason then follows the code.
 */
function answerOf(behavior: WebhookBehavior): WebhookResponse {
  const allowed = behavior.allowed ?? true;
  const code = behavior.code ?? (allowed ? 200 : 403);
  return {
    allowed,
    ...(allowed ? {} : { result: { code, reason: reasonForCode(code), message: behavior.message ?? '' } }),
    ...(behavior.patch !== undefined ? { patch: behavior.patch } : {}),
    warnings: behavior.warnings ?? [],
  };
}

/**
 * callWebhook posts the review: an unresolvable service or an unreachable webhook fails at once, a webhook slower than
 * its timeoutSeconds fails when the timeout fires, otherwise it answers after delaySeconds. A validating webhook that
 * returns a patch gives an invalid response. Failures read as ErrCallingWebhook prints them:
 * `failed calling webhook "x": failed to call webhook: Post "https://...?timeout=10s": context deadline exceeded`.
 */
export function callWebhook(ctx: EngineContext, webhook: Webhook, mutating: boolean): CallOutcome {
  const url = webhookURL(webhook);
  const behavior = ctx.behavior.webhooks[webhook.name] ?? {};
  const failed = (reason: string, seconds: number, cause: Extract<CallOutcome, { kind: 'failed' }>['cause']): CallOutcome => ({
    kind: 'failed', error: `failed calling webhook "${webhook.name}": ${reason}`, seconds, url, cause,
  });
  const post = `Post "${url}"`;
  const dial = dialAddress(ctx, webhook);
  if ('error' in dial) return failed(`failed to call webhook: ${post}: ${dial.error}`, 0, 'service');
  if (behavior.unreachable) return failed(`failed to call webhook: ${post}: dial tcp ${dial.address}: connect: connection refused`, 0, 'unreachable');
  const delay = behavior.delaySeconds ?? 0;
  if (delay > webhook.timeoutSeconds) return failed(`failed to call webhook: ${post}: context deadline exceeded`, webhook.timeoutSeconds, 'timeout');
  const response = answerOf(behavior);
  // Why: VerifyAdmissionResponse in webhook/request/admissionreview.go.
  if (!mutating && response.patch !== undefined) {
    return failed('received invalid webhook response: validating webhook may not return response.patch', delay, 'invalid-response');
  }
  return { kind: 'answered', response, seconds: delay, url };
}
