// Aggregated discovery against `pod-lifecycle serve` over HTTPS and with the real kubectl: /api and /apis answer the
// apidiscovery.k8s.io/v2 APIGroupDiscoveryList to the Accept header kubectl sends (its Content-Type, ETag, Vary and
// Cache-Control, 304 to a matching If-None-Match), the same resources as the legacy lists, 406 to a header asking only
// for the removed v2beta1, the legacy lists to `application/json`; kubectl then asks /api and /apis and nothing more.
// See staging/src/k8s.io/apiserver/pkg/endpoints/discovery/aggregated (v0.36.3). kubectl must be on PATH.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ServeProcess, startServe } from './serve-process';
import { adminCredentials } from './watch-stream';

let serve: ServeProcess;
const home = mkdtempSync(join(tmpdir(), 'pod-lifecycle-discovery-home-'));

before(async () => {
  serve = await startServe('aggregated-discovery', 'apiVersion: podlifecycle.debug/v1alpha1\nkind: Behavior\n');
});

after(() => {
  serve?.stop();
  rmSync(home, { recursive: true, force: true });
});

/** KUBECTL_ACCEPT is the Accept header client-go's discovery client sends (discovery_client.go, acceptDiscoveryFormats). */
const KUBECTL_ACCEPT = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';
const V2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

type Answer = { status: number; headers: IncomingHttpHeaders; body: string };

/** get sends one GET as the admin with the headers given. */
function get(path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ ...adminCredentials(serve.kubeconfig), path, method: 'GET', headers }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

type Gvk = { group: string; version: string; kind: string };
type ResourceDiscovery = { resource: string; responseKind: Gvk; scope: string; singularResource: string; verbs: string[]; shortNames?: string[]; categories?: string[]; subresources?: { subresource: string; responseKind: Gvk; verbs: string[] }[] };
type GroupDiscovery = { metadata: { name?: string }; versions: { version: string; resources: ResourceDiscovery[]; freshness: string }[] };
type DiscoveryList = { kind: string; apiVersion: string; metadata: object; items: GroupDiscovery[] };

const ALL_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

/** The entries a 1.36 kube-apiserver serves for these resources, less the subresources serve does not serve (attach, exec, proxy, ...). */
const wanted: { name: string; path: string; group: string; version: string; entry: ResourceDiscovery }[] = [
  {
    name: 'a pod is Namespaced, its kind without group and version, its subresources with theirs only where they differ',
    path: '/api', group: '', version: 'v1',
    entry: {
      resource: 'pods', responseKind: { group: '', version: '', kind: 'Pod' }, scope: 'Namespaced', singularResource: 'pod', verbs: ALL_VERBS, shortNames: ['po'], categories: ['all'],
      subresources: [
        { subresource: 'binding', responseKind: { group: '', version: '', kind: 'Binding' }, verbs: ['create'] },
        { subresource: 'eviction', responseKind: { group: 'policy', version: 'v1', kind: 'Eviction' }, verbs: ['create'] },
        { subresource: 'log', responseKind: { group: '', version: '', kind: 'Pod' }, verbs: ['get'] },
        { subresource: 'status', responseKind: { group: '', version: '', kind: 'Pod' }, verbs: ['get', 'patch', 'update'] },
      ],
    },
  },
  {
    name: 'a namespace is Cluster scoped and has no deletecollection',
    path: '/api', group: '', version: 'v1',
    entry: { resource: 'namespaces', responseKind: { group: '', version: '', kind: 'Namespace' }, scope: 'Cluster', singularResource: 'namespace', verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'], shortNames: ['ns'] },
  },
  {
    name: "a deployment's scale answers autoscaling/v1 Scale",
    path: '/apis', group: 'apps', version: 'v1',
    entry: {
      resource: 'deployments', responseKind: { group: '', version: '', kind: 'Deployment' }, scope: 'Namespaced', singularResource: 'deployment', verbs: ALL_VERBS, shortNames: ['deploy'], categories: ['all'],
      subresources: [
        { subresource: 'scale', responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: ['get', 'patch', 'update'] },
        { subresource: 'status', responseKind: { group: '', version: '', kind: 'Deployment' }, verbs: ['get', 'patch', 'update'] },
      ],
    },
  },
  {
    name: 'a review is created only',
    path: '/apis', group: 'authorization.k8s.io', version: 'v1',
    entry: { resource: 'selfsubjectaccessreviews', responseKind: { group: '', version: '', kind: 'SelfSubjectAccessReview' }, scope: 'Cluster', singularResource: 'selfsubjectaccessreview', verbs: ['create'] },
  },
];

for (const c of wanted) {
  test(`aggregated discovery: ${c.name}`, async () => {
    const out = await get(c.path, { Accept: KUBECTL_ACCEPT });
    assert.equal(out.status, 200, out.body);
    const list = JSON.parse(out.body) as DiscoveryList;
    const group = list.items.find((g) => (g.metadata.name ?? '') === c.group);
    const entry = group?.versions.find((v) => v.version === c.version)?.resources.find((r) => r.resource === c.entry.resource);
    assert.deepEqual(entry, c.entry);
  });
}

test('aggregated discovery: /api and /apis answer the v2 list with its content type, an ETag of its SHA-512, Vary: Accept and Cache-Control: public', async () => {
  for (const path of ['/api', '/apis']) {
    const out = await get(path, { Accept: KUBECTL_ACCEPT });
    assert.equal(out.status, 200, out.body);
    const { kind, apiVersion, ...rest } = JSON.parse(out.body) as DiscoveryList;
    // calculateETag hashes the list as json.Marshal writes it before the serializer sets its kind and apiVersion.
    const etag = `"${createHash('sha512').update(JSON.stringify(rest)).digest('hex').toUpperCase()}"`;
    assert.deepEqual(
      { type: out.headers['content-type'], etag: out.headers.etag, vary: out.headers.vary, cache: out.headers['cache-control'], kind, apiVersion, metadata: rest.metadata },
      { type: V2, etag, vary: 'Accept', cache: 'public', kind: 'APIGroupDiscoveryList', apiVersion: 'apidiscovery.k8s.io/v2', metadata: {} },
    );
    for (const group of rest.items) for (const v of group.versions) assert.equal(v.freshness, 'Current', `${group.metadata.name}/${v.version}`);
  }
});

test('aggregated discovery: /api holds the legacy group alone, unnamed; /apis the named groups by priority, versions preferred first', async () => {
  const shape = (body: string) => (JSON.parse(body) as DiscoveryList).items.map((g) => [g.metadata.name ?? '', g.versions.map((v) => v.version)]);
  assert.deepEqual(shape((await get('/api', { Accept: KUBECTL_ACCEPT })).body), [['', ['v1']]]);
  assert.deepEqual(shape((await get('/apis', { Accept: KUBECTL_ACCEPT })).body), [
    ['apps', ['v1']], ['authorization.k8s.io', ['v1']], ['autoscaling', ['v2', 'v1']], ['batch', ['v1']], ['policy', ['v1']], ['rbac.authorization.k8s.io', ['v1']],
    ['storage.k8s.io', ['v1']], ['admissionregistration.k8s.io', ['v1']], ['scheduling.k8s.io', ['v1']], ['node.k8s.io', ['v1']], ['discovery.k8s.io', ['v1']],
  ]);
  // The legacy /apis lists the same groups in the same order.
  const legacy = JSON.parse((await get('/apis', { Accept: 'application/json' })).body) as { groups: { name: string; versions: { version: string }[] }[] };
  assert.deepEqual(legacy.groups.map((g) => [g.name, g.versions.map((v) => v.version)]), shape((await get('/apis', { Accept: KUBECTL_ACCEPT })).body));
});

test('aggregated discovery: every group version holds what its legacy APIResourceList holds', async () => {
  type Legacy = { resources: { name: string; singularName: string; namespaced: boolean; group?: string; version?: string; kind: string; verbs: string[]; shortNames?: string[]; categories?: string[] }[] };
  for (const path of ['/api', '/apis']) {
    for (const group of (JSON.parse((await get(path, { Accept: KUBECTL_ACCEPT })).body) as DiscoveryList).items) {
      for (const v of group.versions) {
        const gv = group.metadata.name ? `/apis/${group.metadata.name}/${v.version}` : `/api/${v.version}`;
        const legacy = JSON.parse((await get(gv)).body) as Legacy;
        const flattened = v.resources.flatMap((r) => [
          { name: r.resource, singularName: r.singularResource, namespaced: r.scope === 'Namespaced', kind: r.responseKind.kind, verbs: r.verbs, ...(r.shortNames ? { shortNames: r.shortNames } : {}), ...(r.categories ? { categories: r.categories } : {}) },
          ...(r.subresources ?? []).map((s) => ({ name: `${r.resource}/${s.subresource}`, singularName: '', namespaced: r.scope === 'Namespaced', ...(s.responseKind.group ? { group: s.responseKind.group, version: s.responseKind.version } : {}), kind: s.responseKind.kind, verbs: s.verbs })),
        ]);
        assert.deepEqual(flattened, legacy.resources, gv);
      }
    }
  }
});

test('aggregated discovery: an If-None-Match of the ETag gets 304 with the same headers and no body', async () => {
  const first = await get('/apis', { Accept: KUBECTL_ACCEPT });
  const again = await get('/apis', { Accept: KUBECTL_ACCEPT, 'If-None-Match': String(first.headers.etag) });
  assert.deepEqual(
    { status: again.status, body: again.body, etag: again.headers.etag, vary: again.headers.vary, cache: again.headers['cache-control'], type: again.headers['content-type'] },
    { status: 304, body: '', etag: first.headers.etag, vary: 'Accept', cache: 'public', type: undefined },
  );
});

const NOT_ACCEPTABLE = JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf', reason: 'NotAcceptable', code: 406 }, null, 2);

const negotiation: { name: string; path: string; accept?: string; want: { status: number; type: string | undefined; kind: string } }[] = [
  { name: 'only v2 gets the aggregated list', path: '/apis', accept: V2, want: { status: 200, type: V2, kind: 'APIGroupDiscoveryList' } },
  { name: 'application/json gets the legacy APIVersions', path: '/api', accept: 'application/json', want: { status: 200, type: 'application/json', kind: 'APIVersions' } },
  { name: 'application/json gets the legacy APIGroupList', path: '/apis', accept: 'application/json', want: { status: 200, type: 'application/json', kind: 'APIGroupList' } },
  { name: 'no Accept header gets the legacy list', path: '/apis', want: { status: 200, type: 'application/json', kind: 'APIGroupList' } },
  // The aggregated handler's negotiation skips every clause that does not convert to v2, wherever v2 stands.
  { name: 'v2 after a plain application/json still gets the aggregated list', path: '/apis', accept: `application/json,${V2}`, want: { status: 200, type: V2, kind: 'APIGroupDiscoveryList' } },
  { name: '*/* gets the legacy list', path: '/apis', accept: '*/*', want: { status: 200, type: 'application/json', kind: 'APIGroupList' } },
  { name: 'the header of a client that knows only v2beta1 gets the legacy list', path: '/apis', accept: 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json', want: { status: 200, type: 'application/json', kind: 'APIGroupList' } },
];

for (const c of negotiation) {
  test(`aggregated discovery: ${c.name}`, async () => {
    const out = await get(c.path, c.accept ? { Accept: c.accept } : {});
    assert.deepEqual({ status: out.status, type: out.headers['content-type'], kind: (JSON.parse(out.body) as { kind: string }).kind }, c.want);
  });
}

test('aggregated discovery: a header asking only for the removed v2beta1 gets 406 NotAcceptable, written indented', async () => {
  for (const path of ['/api', '/apis']) {
    const out = await get(path, { Accept: 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList' });
    assert.deepEqual({ status: out.status, type: out.headers['content-type'], body: out.body }, { status: 406, type: 'application/json', body: NOT_ACCEPTABLE });
  }
});

/** kubectl runs the real kubectl with its own home (an empty discovery cache). */
function kubectl(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile('kubectl', args, { env: { ...process.env, KUBECONFIG: serve.kubeconfig, HOME: home }, timeout: 90_000 }, (err, stdout, stderr) => {
      if (err && (err as NodeJS.ErrnoException).code === 'ENOENT') return reject(new Error('kubectl is not on PATH: these tests drive the real kubectl against serve'));
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

test('aggregated discovery: the real kubectl api-versions lists every group version, sorted', async () => {
  const out = await kubectl(['api-versions']);
  assert.equal(out.code, 0, out.stderr);
  assert.deepEqual(out.stdout.trim().split('\n'), [
    'admissionregistration.k8s.io/v1', 'apps/v1', 'authorization.k8s.io/v1', 'autoscaling/v1', 'autoscaling/v2', 'batch/v1', 'discovery.k8s.io/v1',
    'node.k8s.io/v1', 'policy/v1', 'rbac.authorization.k8s.io/v1', 'scheduling.k8s.io/v1', 'storage.k8s.io/v1', 'v1',
  ]);
});

test('aggregated discovery: the real kubectl api-resources prints each resource with its short names, version, scope and kind', async () => {
  const out = await kubectl(['api-resources', '--no-headers']);
  assert.equal(out.code, 0, out.stderr);
  const rows = out.stdout.trim().split('\n').map((l) => l.trim().split(/\s+/));
  for (const want of [['pods', 'po', 'v1', 'true', 'Pod'], ['namespaces', 'ns', 'v1', 'false', 'Namespace'], ['deployments', 'deploy', 'apps/v1', 'true', 'Deployment'], ['horizontalpodautoscalers', 'hpa', 'autoscaling/v2', 'true', 'HorizontalPodAutoscaler'], ['selfsubjectaccessreviews', 'authorization.k8s.io/v1', 'false', 'SelfSubjectAccessReview']]) {
    assert.ok(rows.some((r) => JSON.stringify(r) === JSON.stringify(want)), `${want.join(' ')} in:\n${out.stdout}`);
  }
});

test('aggregated discovery: the real kubectl get pods asks /api and /apis once each, then lists: no request per group version', async () => {
  rmSync(join(home, '.kube'), { recursive: true, force: true });
  const out = await kubectl(['get', 'pods', '-v=6']);
  assert.equal(out.code, 0, out.stderr);
  const requests = [...out.stderr.matchAll(/(?:\] "Response" verb="GET" url="|\] GET )https:\/\/[^/]+([^" ]*)/g)].map((m) => m[1]);
  assert.deepEqual(requests, ['/api?timeout=32s', '/apis?timeout=32s', '/api/v1/namespaces/default/pods?limit=500']);
});
