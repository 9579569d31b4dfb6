// MutatingAdmissionWebhook on its own: which webhooks are called (rules, selectors, matchConditions, order), what their
// patches do, how calling failures meet the failure policy, and reinvocation. Expected texts beside their sources.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mutatingAdmissionWebhook, type WebhookRecord } from '../../../../src/engine/apiserver/admission/mutating-webhook';
import type { WebhookBehavior } from '../../../../src/engine/cluster/inputs';
import { attributesFor } from './plugin-harness';
import { configuration, hook, labelledPod, webhookContext } from './webhook-harness';

const M = 'MutatingWebhookConfiguration';
const addTeam = { patch: [{ op: 'add', path: '/metadata/labels/team', value: 'payments' }] };
const URL = 'https://pod-policy.webhook-system.svc:443/labeler?timeout=10s';

interface Case {
  name: string;
  configs: object[];
  answers?: Record<string, WebhookBehavior>;
  objects?: object[];
  labels?: Record<string, string>;
  want: {
    error?: { code: number; reason: string; message: string };
    labels?: Record<string, string>;
    called?: string[];
    results?: string[];
    changes?: string[];
    delaySeconds?: number;
    warnings?: string[];
  };
}

const cases: Case[] = [
  { name: 'Without configurations nothing is called', configs: [], want: { called: [], labels: { app: 'web' } } },
  {
    name: 'A patch adding a label changes the pod', configs: [configuration(M, 'labeler', hook('labeler.example.com'))], answers: { 'labeler.example.com': addTeam },
    want: { called: ['labeler.example.com'], results: ['patched'], labels: { app: 'web', team: 'payments' }, changes: ['metadata.labels.team'] },
  },
  {
    name: 'A webhook whose rules do not name the operation is skipped',
    configs: [configuration(M, 'labeler', hook('labeler.example.com', { rules: [{ operations: ['UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }] }))],
    answers: { 'labeler.example.com': addTeam }, want: { called: [], results: ['skipped: no rule matches the request'], labels: { app: 'web' } },
  },
  {
    name: 'A rule on every resource but only subresources does not match the pod itself',
    configs: [configuration(M, 'labeler', hook('labeler.example.com', { rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'], scope: 'Cluster' }] }))],
    want: { called: [], results: ['skipped: no rule matches the request'] },
  },
  {
    name: 'A namespaceSelector that the namespace labels miss skips the webhook',
    configs: [configuration(M, 'labeler', hook('labeler.example.com', { namespaceSelector: { matchLabels: { env: 'dev' } } }))],
    answers: { 'labeler.example.com': addTeam }, want: { called: [], results: ['skipped: namespaceSelector does not match the namespace'] },
  },
  {
    name: 'A namespaceSelector on the namespace labels calls the webhook',
    configs: [configuration(M, 'labeler', hook('labeler.example.com', { namespaceSelector: { matchExpressions: [{ key: 'env', operator: 'In', values: ['prod'] }] } }))],
    answers: { 'labeler.example.com': addTeam }, want: { called: ['labeler.example.com'], labels: { app: 'web', team: 'payments' } },
  },
  {
    name: 'An objectSelector the pod labels miss skips the webhook',
    configs: [configuration(M, 'labeler', hook('labeler.example.com', { objectSelector: { matchLabels: { inject: 'true' } } }))],
    want: { called: [], results: ['skipped: objectSelector does not match the object'] },
  },
  {
    name: 'A false matchCondition skips the webhook',
    configs: [configuration(M, 'labeler', hook('labeler.example.com', { matchConditions: [{ name: 'not-web', expression: "object.metadata.name != 'web'" }] }))],
    want: { called: [], results: ['skipped: matchCondition "not-web" is false'] },
  },
  {
    // Message: webhook/generic/webhook.go (NewForbidden with the match error), cel/activation.go (`resulted in error`).
    name: 'A matchCondition that errors with failurePolicy Fail forbids the request',
    configs: [configuration(M, 'labeler', hook('labeler.example.com', { matchConditions: [{ name: 'team', expression: "object.metadata.labels.team == 'a'" }] }))],
    want: { error: { code: 403, reason: 'Forbidden', message: `pods "web" is forbidden: expression 'object.metadata.labels.team == 'a'' resulted in error: no such key: team` } },
  },
  {
    name: 'A matchCondition that errors with failurePolicy Ignore skips the webhook',
    configs: [configuration(M, 'labeler', hook('labeler.example.com', { failurePolicy: 'Ignore', matchConditions: [{ name: 'team', expression: "object.metadata.labels.team == 'a'" }] }))],
    want: { called: [], results: ['skipped: a matchCondition failed and failurePolicy is Ignore'] },
  },
  {
    // Message: webhook/errors/statuserror.go (ToStatusErr).
    name: 'A denial carries the webhook name, 403 and Forbidden by default', configs: [configuration(M, 'labeler', hook('labeler.example.com'))],
    answers: { 'labeler.example.com': { allowed: false, message: 'no team label' } },
    want: { error: { code: 403, reason: 'Forbidden', message: 'admission webhook "labeler.example.com" denied the request: no team label' } },
  },
  {
    name: 'A denial with a code takes the reason of that code', configs: [configuration(M, 'labeler', hook('labeler.example.com'))],
    answers: { 'labeler.example.com': { allowed: false, code: 422, message: 'bad' } },
    want: { error: { code: 422, reason: 'Invalid', message: 'admission webhook "labeler.example.com" denied the request: bad' } },
  },
  {
    name: 'A denial with a code under 400 and no message becomes 400 without explanation', configs: [configuration(M, 'labeler', hook('labeler.example.com'))],
    answers: { 'labeler.example.com': { allowed: false, code: 299 } },
    want: { error: { code: 400, reason: '', message: 'admission webhook "labeler.example.com" denied the request without explanation' } },
  },
  {
    // Message: json-patch v4 patch.go (add), wrapped by apierrors.NewInternalError in mutating/dispatcher.go.
    name: 'A patch that does not apply is an internal error whatever the failure policy',
    configs: [configuration(M, 'labeler', hook('labeler.example.com', { failurePolicy: 'Ignore' }))],
    answers: { 'labeler.example.com': { patch: [{ op: 'add', path: '/metadata/annotations/x', value: 'y' }] } },
    want: { error: { code: 500, reason: 'InternalError', message: 'Internal error occurred: add operation does not apply: doc is missing path: "/metadata/annotations/x": missing value' } },
  },
  {
    name: 'A patch giving a field the wrong type is the decoder\'s internal error', configs: [configuration(M, 'labeler', hook('labeler.example.com'))],
    answers: { 'labeler.example.com': { patch: [{ op: 'replace', path: '/metadata/labels', value: 'x' }] } },
    want: { error: { code: 500, reason: 'InternalError', message: 'Internal error occurred: json: cannot unmarshal string into Go struct field ObjectMeta.metadata.labels of type map[string]string' } },
  },
  {
    // Message: mutating/dispatcher.go (`received undecodable patch in webhook response`), util/webhook ErrCallingWebhook.
    name: 'An undecodable patch is a calling failure that failurePolicy Fail turns into an internal error', configs: [configuration(M, 'labeler', hook('labeler.example.com'))],
    answers: { 'labeler.example.com': { patch: ['add'] } },
    want: { error: { code: 500, reason: 'InternalError', message: 'Internal error occurred: failed calling webhook "labeler.example.com": received undecodable patch in webhook response: json: cannot unmarshal string into Go value of type jsonpatch.Operation' } },
  },
  {
    name: 'A webhook past its timeout fails closed with context deadline exceeded', configs: [configuration(M, 'labeler', hook('labeler.example.com'))],
    answers: { 'labeler.example.com': { delaySeconds: 12 } },
    want: { error: { code: 500, reason: 'InternalError', message: `Internal error occurred: failed calling webhook "labeler.example.com": failed to call webhook: Post "${URL}": context deadline exceeded` }, delaySeconds: 10 },
  },
  {
    name: 'An unreachable webhook fails closed with connection refused on the service IP', configs: [configuration(M, 'labeler', hook('labeler.example.com'))],
    answers: { 'labeler.example.com': { unreachable: true } },
    want: { error: { code: 500, reason: 'InternalError', message: `Internal error occurred: failed calling webhook "labeler.example.com": failed to call webhook: Post "${URL}": dial tcp 10.96.120.15:443: connect: connection refused` } },
  },
  {
    name: 'A webhook whose Service does not exist fails with the resolver\'s not found',
    configs: [configuration(M, 'labeler', hook('labeler.example.com', { clientConfig: { service: { namespace: 'webhook-system', name: 'gone' } } }))],
    want: { error: { code: 500, reason: 'InternalError', message: 'Internal error occurred: failed calling webhook "labeler.example.com": failed to call webhook: Post "https://gone.webhook-system.svc:443/?timeout=10s": service "gone" not found' } },
  },
  {
    name: 'A webhook on a URL with failurePolicy Ignore that times out is skipped and the request goes on',
    configs: [configuration(M, 'labeler', hook('labeler.example.com', { failurePolicy: 'Ignore', timeoutSeconds: 3, clientConfig: { url: 'https://hooks.example.com:8443/mutate' } }))],
    answers: { 'labeler.example.com': { delaySeconds: 5, ...addTeam } },
    want: { called: ['labeler.example.com'], results: ['failed open (failurePolicy Ignore): the call is skipped'], labels: { app: 'web' }, delaySeconds: 3 },
  },
  {
    name: 'Configurations run in name order, webhooks in list order, and their delays add up',
    configs: [
      configuration(M, 'b-config', hook('second.example.com'), hook('third.example.com')),
      configuration(M, 'a-config', hook('first.example.com')),
    ],
    answers: { 'first.example.com': { delaySeconds: 1 }, 'second.example.com': { delaySeconds: 2, warnings: ['deprecated'] }, 'third.example.com': { delaySeconds: 3 } },
    want: { called: ['first.example.com', 'second.example.com', 'third.example.com'], delaySeconds: 6, warnings: ['deprecated'] },
  },
  {
    name: 'An IfNeeded webhook is called again after a later webhook changed the object',
    configs: [configuration(M, 'a', hook('sidecar.example.com', { reinvocationPolicy: 'IfNeeded' }), hook('never.example.com')), configuration(M, 'b', hook('labeler.example.com'))],
    answers: { 'labeler.example.com': addTeam },
    want: { called: ['sidecar.example.com', 'never.example.com', 'labeler.example.com', 'sidecar.example.com (round 1)'], labels: { app: 'web', team: 'payments' } },
  },
  {
    name: 'Without a later change no webhook is reinvoked',
    configs: [configuration(M, 'a', hook('labeler.example.com', { reinvocationPolicy: 'IfNeeded' }))], answers: { 'labeler.example.com': addTeam },
    want: { called: ['labeler.example.com'] },
  },
];

for (const c of cases) {
  test(c.name, () => {
    const ctx = webhookContext([...c.configs, ...(c.objects ?? [])], c.answers);
    const attrs = attributesFor(labelledPod(c.labels));
    const result = mutatingAdmissionWebhook.admit!(attrs, ctx);
    const records = (result.detail?.['webhooks'] ?? []) as WebhookRecord[];
    if (c.want.error) {
      assert.deepEqual({ code: result.error?.code, reason: result.error?.reason, message: result.error?.message }, c.want.error);
    } else {
      assert.equal(result.error, undefined, result.error?.message);
    }
    if (c.want.labels) assert.deepEqual(attrs.object.metadata?.labels, c.want.labels);
    if (c.want.called) assert.deepEqual(records.filter((r) => r.called).map((r) => `${r.webhook}${r.round ? ` (round ${r.round})` : ''}`), c.want.called);
    if (c.want.results) assert.deepEqual(records.map((r) => r.result), c.want.results);
    if (c.want.changes) assert.deepEqual(result.changes, c.want.changes);
    if (c.want.delaySeconds !== undefined) assert.equal(result.detail?.['delaySeconds'], c.want.delaySeconds);
    if (c.want.warnings) assert.deepEqual(result.warnings, c.want.warnings);
  });
}

test('A request on a webhook configuration is never sent to webhooks', () => {
  const ctx = webhookContext([configuration(M, 'labeler', hook('labeler.example.com', { rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] }] }))], { 'labeler.example.com': { allowed: false } });
  const attrs = attributesFor(configuration(M, 'other'), { group: 'admissionregistration.k8s.io', resource: 'mutatingwebhookconfigurations' });
  const result = mutatingAdmissionWebhook.admit!(attrs, ctx);
  assert.equal(result.error, undefined);
  assert.equal(result.note, 'webhook configurations are never sent to webhooks');
});

test('A patch appending a container records its index and defaults the new container', () => {
  const ctx = webhookContext([configuration(M, 'inject', hook('inject.example.com'))], {
    'inject.example.com': { patch: [{ op: 'add', path: '/spec/containers/-', value: { name: 'proxy', image: 'envoy:1.30' } }] },
  });
  const attrs = attributesFor(labelledPod());
  const result = mutatingAdmissionWebhook.admit!(attrs, ctx);
  assert.deepEqual(result.changes, ['spec.containers[1]']);
  const containers = (attrs.object['spec'] as { containers: { name: string; terminationMessagePath?: string }[] }).containers;
  assert.deepEqual(containers.map((c) => [c.name, c.terminationMessagePath]), [['app', '/dev/termination-log'], ['proxy', '/dev/termination-log']]);
});
