// ValidatingAdmissionWebhook on its own: which webhooks are called, denials, calling failures against the failure policy,
// and which error wins when webhooks called in parallel fail. Expected texts beside their sources.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { WebhookRecord } from '../../../../src/engine/apiserver/admission/mutating-webhook';
import { validatingAdmissionWebhook } from '../../../../src/engine/apiserver/admission/validating-webhook';
import type { WebhookBehavior } from '../../../../src/engine/cluster/inputs';
import { attributesFor } from './plugin-harness';
import { configuration, hook, labelledPod, webhookContext } from './webhook-harness';

const V = 'ValidatingWebhookConfiguration';
const url = (path: string, timeout = 10): string => `https://pod-policy.webhook-system.svc:443/${path}?timeout=${timeout}s`;

interface Case {
  name: string;
  configs: object[];
  answers?: Record<string, WebhookBehavior>;
  want: { error?: { code: number; reason: string; message: string }; results?: string[]; delaySeconds?: number; warnings?: string[] };
}

const cases: Case[] = [
  { name: 'Without configurations the request is admitted', configs: [], want: { results: [] } },
  { name: 'A webhook with no answer in the Behavior allows', configs: [configuration(V, 'policy', hook('policy.example.com'))], want: { results: ['admitted'] } },
  {
    // Message: webhook/errors/statuserror.go (ToStatusErr).
    name: 'A denial is Forbidden with the webhook name and message', configs: [configuration(V, 'policy', hook('pod-policy.example.com'))],
    answers: { 'pod-policy.example.com': { allowed: false, message: 'pods must set resource limits', warnings: ['soon required'] } },
    want: { error: { code: 403, reason: 'Forbidden', message: 'admission webhook "pod-policy.example.com" denied the request: pods must set resource limits' }, results: ['denied'], warnings: ['soon required'] },
  },
  {
    // Message: webhook/request/admissionreview.go (VerifyAdmissionResponse), wrapped as ErrCallingWebhook and NewInternalError.
    name: 'A validating webhook that returns a patch gives an invalid response', configs: [configuration(V, 'policy', hook('policy.example.com'))],
    answers: { 'policy.example.com': { patch: [{ op: 'add', path: '/metadata/labels/a', value: 'b' }] } },
    want: { error: { code: 500, reason: 'InternalError', message: 'Internal error occurred: failed calling webhook "policy.example.com": received invalid webhook response: validating webhook may not return response.patch' } },
  },
  {
    // Message: webhook/validating/dispatcher.go (ErrCallingWebhook, `failed to call webhook`), client-go's url.Error.
    name: 'A webhook past its timeout with failurePolicy Fail is an internal error', configs: [configuration(V, 'slow', hook('slow.example.com', { timeoutSeconds: 5 }))],
    answers: { 'slow.example.com': { delaySeconds: 8 } },
    want: { error: { code: 500, reason: 'InternalError', message: `Internal error occurred: failed calling webhook "slow.example.com": failed to call webhook: Post "${url('slow', 5)}": context deadline exceeded` }, delaySeconds: 5 },
  },
  {
    name: 'A webhook past its timeout with failurePolicy Ignore is skipped', configs: [configuration(V, 'slow', hook('slow.example.com', { timeoutSeconds: 5, failurePolicy: 'Ignore' }))],
    answers: { 'slow.example.com': { delaySeconds: 8 } }, want: { results: ['failed open (failurePolicy Ignore): the call is skipped'], delaySeconds: 5 },
  },
  {
    name: 'A webhook that answers within its timeout is waited for', configs: [configuration(V, 'slow', hook('slow.example.com', { timeoutSeconds: 5 }))],
    answers: { 'slow.example.com': { delaySeconds: 4 } }, want: { results: ['admitted'], delaySeconds: 4 },
  },
  {
    name: 'An unreachable webhook with failurePolicy Fail is refused on the service IP', configs: [configuration(V, 'policy', hook('policy.example.com'))],
    answers: { 'policy.example.com': { unreachable: true } },
    want: { error: { code: 500, reason: 'InternalError', message: `Internal error occurred: failed calling webhook "policy.example.com": failed to call webhook: Post "${url('policy')}": dial tcp 10.96.120.15:443: connect: connection refused` } },
  },
  {
    name: 'Webhooks run in parallel: the request waits for the slowest and the first failure to arrive wins',
    configs: [configuration(V, 'a', hook('slow-deny.example.com'), hook('fast-deny.example.com'), hook('slowest.example.com'))],
    answers: { 'slow-deny.example.com': { allowed: false, message: 'slow', delaySeconds: 3 }, 'fast-deny.example.com': { allowed: false, message: 'fast', delaySeconds: 1 }, 'slowest.example.com': { delaySeconds: 6 } },
    want: { error: { code: 403, reason: 'Forbidden', message: 'admission webhook "fast-deny.example.com" denied the request: fast' }, results: ['denied', 'denied', 'admitted'], delaySeconds: 6 },
  },
  {
    name: 'A skipped webhook and a called one are both recorded',
    configs: [configuration(V, 'a', hook('other.example.com', { objectSelector: { matchLabels: { tier: 'db' } } }), hook('policy.example.com'))],
    want: { results: ['skipped: objectSelector does not match the object', 'admitted'] },
  },
  {
    name: 'A selector error is returned before any webhook is called',
    configs: [configuration(V, 'a', hook('policy.example.com', { namespaceSelector: { matchExpressions: [{ key: 'env', operator: 'Within', values: ['x'] }] } }))],
    answers: { 'policy.example.com': { allowed: false } },
    want: { error: { code: 500, reason: 'InternalError', message: 'Internal error occurred: "Within" is not a valid label selector operator' }, results: ['rejected'] },
  },
];

for (const c of cases) {
  test(c.name, () => {
    const ctx = webhookContext(c.configs, c.answers);
    const result = validatingAdmissionWebhook.validate!(attributesFor(labelledPod()), ctx);
    if (c.want.error) assert.deepEqual({ code: result.error?.code, reason: result.error?.reason, message: result.error?.message }, c.want.error);
    else assert.equal(result.error, undefined, result.error?.message);
    const records = (result.detail?.['webhooks'] ?? []) as WebhookRecord[];
    if (c.want.results) assert.deepEqual(records.map((r) => r.result), c.want.results);
    if (c.want.delaySeconds !== undefined) assert.equal(result.detail?.['delaySeconds'], c.want.delaySeconds);
    if (c.want.warnings) assert.deepEqual(result.warnings, c.want.warnings);
  });
}
