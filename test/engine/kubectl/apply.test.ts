// kubectl apply against the simulated server: the requests it sends, in order (OpenAPI, discovery, GET, POST),
// and what it prints when one of them is refused. See staging/src/k8s.io/kubectl/pkg/cmd/apply/apply.go,
// staging/src/k8s.io/cli-runtime/pkg/resource/visitor.go and mapper.go, and kubectl/discovery.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { embeddedCluster } from '../../../src/engine/cluster/files';
import type { Identity } from '../../../src/engine/cluster/inputs';
import { loadInputs } from '../../../src/engine/cluster/loader';
import { Simulation } from '../../../src/engine/simulation';

const POD = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n    - name: app\n      image: nginx:1.27\n';
const RBAC = `apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: carol-views, namespace: default}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: carol}]
`;

function run(manifest: string, identity: Identity, cluster = ''): Simulation {
  const inputs = loadInputs({ manifest: { file: 'pod.yaml', text: manifest }, clusters: cluster ? [{ file: 'cluster.yaml', text: cluster }] : [], identity });
  inputs.cluster.objects.unshift(...embeddedCluster());
  const sim = new Simulation(inputs);
  sim.run();
  return sim;
}

/** requests lists the requests kubectl sent, as `VERB path`, from the trace. */
function requests(sim: Simulation): string[] {
  const out: string[] = [];
  for (const e of sim.trace) {
    const r = (e.detail['request'] ?? undefined) as { verb?: string; url?: string } | string | undefined;
    if (e.phase === 'kubectl.validate' && r && typeof r === 'object' && r.url) out.push(`${r.verb} ${r.url.replace('https://192.168.49.2:6443', '')}`);
  }
  return out;
}

const HAPPY = ['GET /openapi/v3?timeout=32s', /^GET \/openapi\/v3\/api\/v1\?hash=[0-9A-F]{128}&timeout=32s$/, 'GET /api?timeout=32s', 'GET /apis?timeout=32s',
  'GET /api/v1/namespaces/default/pods/web', 'POST /api/v1/namespaces/default/pods?fieldManager=kubectl-client-side-apply&fieldValidation=Strict'];

function assertRequests(got: string[], want: (string | RegExp)[]): void {
  assert.equal(got.length, want.length, got.join('\n'));
  want.forEach((w, i) => (typeof w === 'string' ? assert.equal(got[i], w) : assert.match(got[i]!, w)));
}

test('apply: the admin\'s requests are the OpenAPI documents, discovery, then GET and POST of the pod', () => {
  const sim = run(POD, { kind: 'default' });
  assert.equal(sim.result().kubectl, 'pod/web created');
  assertRequests(requests(sim), HAPPY);
});

const refusals: { name: string; identity: Identity; cluster?: string; kubectl: string; rejection: [string, number, string, string]; requests: (string | RegExp)[] }[] = [
  {
    name: 'an unknown token is refused on the OpenAPI index and on the v2 fallback: kubectl cannot validate',
    identity: { kind: 'token', token: 'nope' },
    kubectl: 'error: error validating "pod.yaml": error validating data: failed to download openapi: the server has asked for the client to provide credentials; if you choose to ignore these errors, turn validation off with --validate=false',
    rejection: ['apiserver.authenticate', 401, 'Unauthorized', 'Unauthorized'],
    requests: ['GET /openapi/v3?timeout=32s', 'GET /openapi/v2?timeout=32s'],
  },
  {
    name: 'anonymous may not read /openapi: a 403 Raw() reads as "unknown"',
    identity: { kind: 'anonymous' },
    kubectl: 'error: error validating "pod.yaml": error validating data: failed to download openapi: unknown; if you choose to ignore these errors, turn validation off with --validate=false',
    rejection: ['apiserver.authorize', 403, 'Forbidden', 'forbidden: User "system:anonymous" cannot get path "/openapi/v2"'],
    requests: ['GET /openapi/v3?timeout=32s', 'GET /openapi/v2?timeout=32s'],
  },
  {
    name: 'a user without get on pods is refused the GET, with apply\'s "retrieving current configuration" prefix',
    identity: { kind: 'impersonate', user: 'bob', groups: [] },
    kubectl: 'Error from server (Forbidden): error when retrieving current configuration of:\nResource: "/v1, Resource=pods", GroupVersionKind: "/v1, Kind=Pod"\nName: "web", Namespace: "default"\nfrom server for: "pod.yaml": pods "web" is forbidden: User "bob" cannot get resource "pods" in API group "" in the namespace "default"',
    rejection: ['apiserver.authorize', 403, 'Forbidden', 'pods "web" is forbidden: User "bob" cannot get resource "pods" in API group "" in the namespace "default"'],
    requests: HAPPY.slice(0, 5),
  },
  {
    name: 'a viewer may GET but not create: the POST is refused, without a name',
    identity: { kind: 'impersonate', user: 'carol', groups: [] }, cluster: RBAC,
    kubectl: 'Error from server (Forbidden): error when creating "pod.yaml": pods is forbidden: User "carol" cannot create resource "pods" in API group "" in the namespace "default"',
    rejection: ['apiserver.authorize', 403, 'Forbidden', 'pods is forbidden: User "carol" cannot create resource "pods" in API group "" in the namespace "default"'],
    requests: HAPPY,
  },
  {
    name: 'anonymous auth turned off: every request is a 401',
    identity: { kind: 'anonymous' }, cluster: 'apiVersion: podlifecycle.debug/v1alpha1\nkind: ClusterProfile\nauthentication: {anonymous: false}\n',
    kubectl: 'error: error validating "pod.yaml": error validating data: failed to download openapi: the server has asked for the client to provide credentials; if you choose to ignore these errors, turn validation off with --validate=false',
    rejection: ['apiserver.authenticate', 401, 'Unauthorized', 'Unauthorized'],
    requests: ['GET /openapi/v3?timeout=32s', 'GET /openapi/v2?timeout=32s'],
  },
  {
    name: 'a user who may read OpenAPI but not discovery stops at the RESTMapper: "unable to recognize"',
    identity: { kind: 'impersonate', user: 'bob', groups: ['system:unauthenticated'] },
    cluster: `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: openapi-reader}
rules: [{nonResourceURLs: [/openapi, /openapi/*], verbs: [get]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: bob-reads-openapi}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: openapi-reader}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: bob}]
`,
    kubectl: 'error: unable to recognize "pod.yaml": unknown',
    rejection: ['apiserver.authorize', 403, 'Forbidden', 'forbidden: User "bob" cannot get path "/api"'],
    requests: [...HAPPY.slice(0, 3)],
  },
];
for (const c of refusals) {
  test(`apply: ${c.name}`, () => {
    const sim = run(POD, c.identity, c.cluster);
    const result = sim.result();
    assert.equal(result.outcome, 'Rejected');
    assert.equal(result.kubectl, c.kubectl);
    const r = result.rejection;
    assert.deepEqual([r?.phase, r?.code, r?.reason, r?.message], c.rejection);
    assertRequests(requests(sim), c.requests);
  });
}

test('apply: an unknown kind downloads OpenAPI v2 for client-side validation, then fails mapping after discovery', () => {
  const sim = run(POD.replace('kind: Pod', 'kind: Pood'), { kind: 'default' });
  assert.equal(sim.result().kubectl, 'error: resource mapping not found for name: "web" namespace: "" from "pod.yaml": no matches for kind "Pood" in version "v1"\nensure CRDs are installed first');
  assertRequests(requests(sim), [HAPPY[0]!, HAPPY[1]!, 'GET /openapi/v2?timeout=32s', 'GET /api?timeout=32s', 'GET /apis?timeout=32s']);
});

test('apply: a group-version the server does not serve makes kubectl list CRDs before validating client-side', () => {
  const sim = run(POD.replace('apiVersion: v1', 'apiVersion: example.com/v1'), { kind: 'default' });
  assert.match(sim.result().kubectl, /no matches for kind "Pod" in version "example.com\/v1"/);
  assertRequests(requests(sim), [HAPPY[0]!, 'GET /apis/apiextensions.k8s.io/v1/customresourcedefinitions', 'GET /openapi/v2?timeout=32s', 'GET /api?timeout=32s', 'GET /apis?timeout=32s']);
});

test('apply: two documents share the OpenAPI and discovery documents fetched for the first', () => {
  const sim = run(`${POD}---\n${POD.replace('name: web', 'name: api')}`, { kind: 'default' });
  assert.equal(sim.result().kubectl, 'pod/web created\npod/api created');
  const sent = requests(sim);
  assert.equal(sent.filter((r) => r.startsWith('GET /openapi') || r.startsWith('GET /api?') || r.startsWith('GET /apis?')).length, 4, sent.join('\n'));
});

test('apply: the trace shows the refused discovery request in the authorization phase, with the 403 body in kubectl\'s log', () => {
  const sim = run(POD, { kind: 'anonymous' });
  const authz = sim.trace.filter((e) => e.phase === 'apiserver.authorize' && !e.step);
  assert.deepEqual(authz.map((e) => e.result), [
    'forbidden: forbidden: User "system:anonymous" cannot get path "/openapi/v3"',
    'forbidden: forbidden: User "system:anonymous" cannot get path "/openapi/v2"',
  ]);
  const v2 = sim.trace.find((e) => e.phase === 'kubectl.validate' && String(e.result).startsWith('GET https://192.168.49.2:6443/openapi/v2'));
  const log = v2?.detail['log'] as string[];
  assert.equal(log[2], '"Response" status="403 Forbidden" milliseconds=0');
  assert.match(log[3]!, /^"Response Body" body="\{\\"kind\\":\\"Status\\"/);
});
