// The CLI as a process on authentication and authorization: who kubectl is, what kube-apiserver decides, and
// the line kubectl prints. Fixtures: test/fixtures/auth (clusters, kubeconfigs) and test/fixtures/pki (certificates).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const AUTH = 'test/fixtures/auth';

interface Report {
  outcome: string;
  rejection?: { phase: string; code: number; reason: string; message: string };
  kubectl: string;
  trace: { phase: string; result: string; step?: { kind: string; name: string }; detail: Record<string, unknown> }[];
}

function run(...args: string[]): { status: number | null; report: Report; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, 'run', 'examples/pod.yaml', ...args, '--json'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { status: r.status, report: JSON.parse(r.stdout) as Report, stderr: r.stderr };
}

const VALIDATE = (why: string): string => `error: error validating "examples/pod.yaml": error validating data: failed to download openapi: ${why}; if you choose to ignore these errors, turn validation off with --validate=false`;

const rejections: { name: string; args: string[]; rejection: Report['rejection']; kubectl: string; trace?: RegExp }[] = [
  {
    name: 'a bad token is a 401 on kubectl\'s first request, the OpenAPI download',
    args: ['--token', 'nope'],
    rejection: { phase: 'apiserver.authenticate', code: 401, reason: 'Unauthorized', message: 'Unauthorized' },
    kubectl: VALIDATE('the server has asked for the client to provide credentials'),
    trace: /^401 Unauthorized: invalid bearer token$/,
  },
  {
    name: 'bob, impersonated, may read discovery but not get the pod: RBAC refuses with apply\'s prefix',
    args: ['--as', 'bob'],
    rejection: { phase: 'apiserver.authorize', code: 403, reason: 'Forbidden', message: 'pods "web" is forbidden: User "bob" cannot get resource "pods" in API group "" in the namespace "default"' },
    kubectl: 'Error from server (Forbidden): error when retrieving current configuration of:\nResource: "/v1, Resource=pods", GroupVersionKind: "/v1, Kind=Pod"\nName: "web", Namespace: "default"\nfrom server for: "examples/pod.yaml": pods "web" is forbidden: User "bob" cannot get resource "pods" in API group "" in the namespace "default"',
    trace: /^"kubernetes-admin" impersonates "bob" \(groups: system:authenticated\)$/,
  },
  {
    name: 'anonymous may not read /openapi, and a 403 read raw is "unknown"',
    args: ['--anonymous'],
    rejection: { phase: 'apiserver.authorize', code: 403, reason: 'Forbidden', message: 'forbidden: User "system:anonymous" cannot get path "/openapi/v2"' },
    kubectl: VALIDATE('unknown'),
    trace: /^authenticated as "system:anonymous" by anonymous \(groups: system:unauthenticated\)$/,
  },
  {
    name: 'a client certificate signed by another CA is a 401: bad certificates are never anonymous',
    args: ['--cluster', `${AUTH}/cert-cluster.yaml`, '--kubeconfig', `${AUTH}/jane-other-ca.kubeconfig`],
    rejection: { phase: 'apiserver.authenticate', code: 401, reason: 'Unauthorized', message: 'Unauthorized' },
    kubectl: VALIDATE('the server has asked for the client to provide credentials'),
    trace: /^401 Unauthorized: verifying certificate SN=4343, SKID=[0-9A-F:]+, AKID=[0-9A-F:]+ failed: x509: certificate signed by unknown authority$/,
  },
  {
    name: 'a webhook before RBAC denies the admin\'s create with its reason',
    args: ['--cluster', `${AUTH}/webhook-cluster.yaml`],
    rejection: { phase: 'apiserver.authorize', code: 403, reason: 'Forbidden', message: 'pods is forbidden: User "kubernetes-admin" cannot create resource "pods" in API group "" in the namespace "default": pods are created by the release pipeline' },
    kubectl: 'Error from server (Forbidden): error when creating "examples/pod.yaml": pods is forbidden: User "kubernetes-admin" cannot create resource "pods" in API group "" in the namespace "default": pods are created by the release pipeline',
    trace: /^Deny: pods are created by the release pipeline$/,
  },
];

for (const c of rejections) {
  test(`auth rejection: ${c.name}`, () => {
    const { status, report } = run(...c.args);
    assert.equal(status, 1);
    assert.equal(report.outcome, 'Rejected');
    const { phase, code, reason, message } = report.rejection ?? {};
    assert.deepEqual({ phase, code, reason, message }, c.rejection);
    assert.equal(report.kubectl, c.kubectl);
    if (c.trace) assert.ok(report.trace.some((e) => c.trace!.test(e.result)), `a trace entry matches ${c.trace}`);
  });
}

const accepted: { name: string; args: string[]; authn: string; authz: string }[] = [
  {
    name: 'a certificate the profile\'s client CA signed is accepted as its CN, and RBAC allows jane by her RoleBinding',
    args: ['--cluster', `${AUTH}/cert-cluster.yaml`, '--kubeconfig', `${AUTH}/jane.kubeconfig`],
    authn: 'authenticated as "jane" by x509 (groups: dev, system:authenticated)',
    authz: 'allowed by RBAC (RBAC: allowed by RoleBinding "jane-edits/default" of ClusterRole "edit" to User "jane")',
  },
  {
    name: 'ABAC alone allows alice, the static token\'s user, everything',
    args: ['--cluster', `${AUTH}/abac-cluster.yaml`, '--token', 'abac-token'],
    authn: 'authenticated as "alice" by token-file (groups: dev, system:authenticated)',
    authz: 'allowed by ABAC',
  },
];

for (const c of accepted) {
  test(`auth accepted: ${c.name}`, () => {
    const { status, report, stderr } = run(...c.args);
    assert.equal(status, 0, stderr);
    assert.equal(report.outcome, 'Running');
    assert.equal(report.kubectl, 'pod/web created');
    const first = (phase: string): string | undefined => report.trace.find((e) => e.phase === phase && !e.step)?.result;
    assert.equal(first('apiserver.authenticate'), c.authn);
    assert.equal(first('apiserver.authorize'), c.authz);
  });
}

test('auth: kubectl\'s discovery requests are in the trace with their -v=8 lines', () => {
  const { report } = run();
  const sent = report.trace.filter((e) => e.phase === 'kubectl.validate' && typeof (e.detail['request'] as { url?: string } | undefined)?.url === 'string')
    .map((e) => (e.detail['request'] as { verb: string; url: string }).url.replace('https://192.168.49.2:6443', ''));
  assert.deepEqual(sent.map((u) => u.replace(/hash=[0-9A-F]+/, 'hash=H')), [
    '/openapi/v3?timeout=32s', '/openapi/v3/api/v1?hash=H&timeout=32s', '/api?timeout=32s', '/apis?timeout=32s',
    '/api/v1/namespaces/default/pods/web', '/api/v1/namespaces/default/pods?fieldManager=kubectl-client-side-apply&fieldValidation=Strict',
  ]);
});
