// The refusal → advice table: RBAC, PodSecurity, quota and the others each get one line naming what to change.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Rejection } from '../../../src/engine/outcome';
import type { TraceEntry } from '../../../src/engine/runtime/recorder';
import { adviseRejection, findRefusingEntry } from '../../../src/engine/explain/rejection';

function entry(phase: string, plugin: string | undefined, detail: Record<string, unknown>, object = 'Pod/default/web'): TraceEntry {
  return { seq: 7, phase: phase as TraceEntry['phase'], at: 0, object, result: 'refused', detail, outcome: 'rejected', ...(plugin ? { step: { kind: 'plugin' as const, name: plugin } } : {}) };
}

const forbidden = (message: string, phase = 'apiserver.admit.validating'): Rejection => ({ phase: phase as Rejection['phase'], code: 403, reason: 'Forbidden', message, object: 'Pod/web' });

const cases: { name: string; rejection: Rejection; entry?: TraceEntry; want: { reason: string; text: RegExp; source: RegExp } }[] = [
  {
    name: 'RBAC denying bob names kubectl auth can-i with his name, the verb and the namespace',
    rejection: forbidden('pods "web" is forbidden: User "bob" cannot get resource "pods" in API group "" in the namespace "default"', 'apiserver.authorize'),
    entry: entry('apiserver.authorize', undefined, { decision: 'NoOpinion', reason: '' }),
    want: { reason: 'apiserver.authorize: 403 Forbidden', text: /kubectl auth can-i get pods --as bob -n default;.*--user=bob -n default$/, source: /filters\/authorization\.go$/ },
  },
  {
    name: 'An authorizer that denies outright is named with its reason',
    rejection: forbidden('pods is forbidden: User "alice" cannot create resource "pods" in API group "" in the namespace "default": frozen', 'apiserver.authorize'),
    entry: entry('apiserver.authorize', undefined, { decidedBy: 'Webhook', reason: 'frozen' }),
    want: { reason: 'apiserver.authorize: 403 Forbidden', text: /^the Webhook authorizer denied it \(frozen\)/, source: /authorization\.go$/ },
  },
  {
    name: 'PodSecurity lists the fields the enforced level wants, read from the failed checks',
    rejection: forbidden('pods "web" is forbidden: violates PodSecurity "restricted:latest": runAsNonRoot != true (pod or container "app" must set securityContext.runAsNonRoot=true)'),
    entry: entry('apiserver.admit.validating', 'PodSecurity', {
      namespace: 'secure',
      evaluations: [{ policy: 'restricted:latest', modes: ['enforce'], allowed: false, checks: [{ id: 'runAsNonRoot', allowed: false, detail: 'pod or container "app" must set securityContext.runAsNonRoot=true' }] }],
    }),
    want: { reason: 'apiserver.admit.validating: 403 Forbidden (PodSecurity)', text: /^to meet PodSecurity "restricted:latest": pod or container "app" must set securityContext\.runAsNonRoot=true — or lower .*kubectl label namespace secure/, source: /pod-security-admission/ },
  },
  {
    name: 'A quota names its limit, what is used, the request and what is left',
    rejection: forbidden('pods "web" is forbidden: exceeded quota: compute, requested: requests.cpu=2, used: requests.cpu=3, limited: requests.cpu=4'),
    entry: entry('apiserver.admit.validating', 'ResourceQuota', { quotas: [{ name: 'compute', matches: true, hard: { 'requests.cpu': '4' }, usedBefore: { 'requests.cpu': '3' }, requested: { 'requests.cpu': '2' } }] }),
    want: { reason: 'apiserver.admit.validating: 403 Forbidden (ResourceQuota)', text: /^the quota compute allows requests\.cpu=4, 3 is used and the pod asks 2: ask for 1 or less, or raise the quota \(kubectl edit resourcequota compute -n default\)$/, source: /resourcequota/ },
  },
  {
    name: 'A missing namespace is to be created',
    rejection: { phase: 'apiserver.admit.mutating', code: 404, reason: 'NotFound', message: 'namespaces "dev" not found' },
    entry: entry('apiserver.admit.mutating', 'NamespaceLifecycle', {}),
    want: { reason: 'apiserver.admit.mutating: 404 NotFound (NamespaceLifecycle)', text: /^create the namespace first: kubectl create namespace dev$/, source: /lifecycle\/admission\.go$/ },
  },
  {
    name: 'A refusal no row knows says to fix what the message says',
    rejection: { phase: 'etcd.persist', code: 500, reason: 'InternalError', message: 'boom' },
    want: { reason: 'etcd.persist: 500 InternalError', text: /^fix what the message says$/, source: /^$/ },
  },
];

for (const c of cases) {
  test(c.name, () => {
    const got = adviseRejection(c.rejection, c.entry);
    assert.equal(got.reason, c.want.reason);
    assert.match(got.text, c.want.text);
    assert.match(got.source, c.want.source);
  });
}

test('The refusing entry is the step at the rejection\'s phase on the same object', () => {
  const trace = [
    entry('apiserver.authorize', undefined, {}, 'Pod/default/other'),
    entry('apiserver.admit.validating', undefined, {}),
    entry('apiserver.admit.validating', 'PodSecurity', {}),
  ];
  assert.equal(findRefusingEntry(trace, forbidden('x'))?.step?.name, 'PodSecurity');
});
