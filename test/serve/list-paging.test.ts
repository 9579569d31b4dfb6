// Paged lists against `pod-lifecycle serve` over HTTPS and with the real kubectl, as kube-apiserver 1.36 pages them:
// `limit` cuts the list in key order, `metadata.continue` is the watch cache's token (base64url JSON, the key with a
// leading slash), `remainingItemCount` counts the rest when no selector filters, every page reads the first page's
// resourceVersion (an object created or deleted in between does not change the pages), Tables page the same way, a
// malformed token is a 400 with Go's words, a token older than the history a 410 with a token to go on.
// See staging/src/k8s.io/apiserver/pkg/storage (continue.go, cacher/cacher.go, etcd3/errors.go), v0.36.3. kubectl must be on PATH.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:https';
import { type ServeProcess, startServe } from './serve-process';
import { adminCredentials } from './watch-stream';

let serve: ServeProcess;

before(async () => {
  serve = await startServe('list-paging', 'apiVersion: podlifecycle.debug/v1alpha1\nkind: Behavior\n');
  assert.equal((await api('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'paging' } })).status, 201);
  for (const name of NAMES) assert.equal((await api('POST', CMS, configMap(name))).status, 201);
});

after(() => serve?.stop());

type Answer = { status: number; body: string };

/** api sends one request as the admin and resolves with the status and the body as sent. */
function api(method: string, path: string, body?: unknown, accept?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...(accept ? { Accept: accept } : {}) };
    const req = request({ ...adminCredentials(serve.kubeconfig), path, method, headers }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

const CMS = '/api/v1/namespaces/paging/configmaps';
const NAMES = ['cm-a', 'cm-b', 'cm-c', 'cm-d', 'cm-e'];
const configMap = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { paged: 'yes' } } });
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';

type ListMeta = { resourceVersion: string; continue?: string; remainingItemCount?: number };
type List = { metadata: ListMeta; items: { metadata: { name: string } }[] };

/** page reads a list answer: its ListMeta and the names in it. */
function page(out: Answer): { metadata: ListMeta; names: string[] } {
  assert.equal(out.status, 200, out.body);
  const list = JSON.parse(out.body) as List;
  return { metadata: list.metadata, names: list.items.map((i) => i.metadata.name) };
}

/** token is what the continue token holds, as the server encoded it. */
const token = (value: string) => Buffer.from(value, 'base64url').toString('utf8');
/** encoded is a token as EncodeContinue writes one. */
const encoded = (json: string) => Buffer.from(json, 'utf8').toString('base64url');

/** all lists the namespace's ConfigMaps unpaged (it has kube-root-ca.crt besides ours). */
async function all(): Promise<string[]> {
  return page(await api('GET', CMS)).names;
}

/** pages follows the continue tokens from a first page to the last, with the limit given. */
async function pages(first: string, limit: number): Promise<{ metadata: ListMeta; names: string[] }[]> {
  const out = [page(await api('GET', `${first}${first.includes('?') ? '&' : '?'}limit=${limit}`))];
  while (out.at(-1)!.metadata.continue) out.push(page(await api('GET', `${first}${first.includes('?') ? '&' : '?'}limit=${limit}&continue=${out.at(-1)!.metadata.continue}`)));
  return out;
}

test('paging: a first page holds `limit` objects in key order, a token naming the last key after a slash and the list\'s revision, and how many remain', async () => {
  const names = await all();
  const first = page(await api('GET', `${CMS}?limit=2`));
  assert.deepEqual({ names: first.names, remaining: first.metadata.remainingItemCount }, { names: names.slice(0, 2), remaining: names.length - 2 });
  assert.equal(token(first.metadata.continue!), `{"v":"meta.k8s.io/v1","rv":${first.metadata.resourceVersion},"start":"/${names[1]}\\u0000"}`);
});

test('paging: the pages together are the whole list, each at the first page\'s resourceVersion, the last without a token', async () => {
  const names = await all();
  const got = await pages(CMS, 2);
  assert.deepEqual(got.flatMap((p) => p.names), names);
  assert.deepEqual(got.map((p) => p.metadata.resourceVersion), got.map(() => got[0]!.metadata.resourceVersion));
  assert.deepEqual(got.at(-1)!.metadata, { resourceVersion: got[0]!.metadata.resourceVersion });
  assert.deepEqual(got.map((p) => p.metadata.remainingItemCount), [...got.slice(0, -1).map((_, i) => names.length - 2 * (i + 1)), undefined]);
});

test('paging: the pages after the first show the state of its revision: an object created or deleted since is not seen to change', async () => {
  const before = await all();
  const first = page(await api('GET', `${CMS}?limit=2`));
  assert.equal((await api('POST', CMS, configMap('cm-zz-late'))).status, 201);
  assert.equal((await api('DELETE', `${CMS}/cm-e`)).status, 200);
  const rest = page(await api('GET', `${CMS}?continue=${first.metadata.continue}`));
  assert.deepEqual([...first.names, ...rest.names], before);
  assert.equal(rest.metadata.resourceVersion, first.metadata.resourceVersion);
  // A new list sees both changes, in key order.
  assert.deepEqual(await all(), [...before.filter((n) => n !== 'cm-e'), 'cm-zz-late'].sort());
  assert.equal((await api('POST', CMS, configMap('cm-e'))).status, 201);
  assert.equal((await api('DELETE', `${CMS}/cm-zz-late`)).status, 200);
});

test('paging: a Table pages the same way, its ListMeta carrying the token and the count', async () => {
  const names = await all();
  const out = await api('GET', `${CMS}?limit=3`, undefined, TABLE);
  assert.equal(out.status, 200, out.body);
  const table = JSON.parse(out.body) as { kind: string; metadata: ListMeta; rows: { cells: unknown[] }[] };
  assert.deepEqual({ kind: table.kind, names: table.rows.map((r) => r.cells[0]), remaining: table.metadata.remainingItemCount }, { kind: 'Table', names: names.slice(0, 3), remaining: names.length - 3 });
  assert.equal(token(table.metadata.continue!), `{"v":"meta.k8s.io/v1","rv":${table.metadata.resourceVersion},"start":"/${names[2]}\\u0000"}`);
});

test('paging: with a selector a page gives no remainingItemCount, and a token whenever keys remain after its last object', async () => {
  const got = await pages(`${CMS}?labelSelector=paged%3Dyes`, 2);
  assert.deepEqual(got.map((p) => [p.names, p.metadata.remainingItemCount, !!p.metadata.continue]), [[['cm-a', 'cm-b'], undefined, true], [['cm-c', 'cm-d'], undefined, true], [['cm-e'], undefined, false]]);
  // kube-root-ca.crt sorts after ours: a full page that ends on cm-e still has a key after it, so a token, whose page is empty.
  const full = page(await api('GET', `${CMS}?labelSelector=paged%3Dyes&limit=5`));
  assert.deepEqual({ names: full.names, continue: !!full.metadata.continue }, { names: NAMES, continue: true });
  const empty = page(await api('GET', `${CMS}?labelSelector=paged%3Dyes&limit=5&continue=${full.metadata.continue}`));
  assert.deepEqual(empty, { metadata: { resourceVersion: full.metadata.resourceVersion }, names: [] });
});

test('paging: across namespaces the token\'s key is NAMESPACE/NAME', async () => {
  const first = page(await api('GET', '/api/v1/configmaps?limit=1'));
  const list = JSON.parse((await api('GET', '/api/v1/configmaps?limit=1')).body) as { items: { metadata: { namespace: string; name: string } }[] };
  const { namespace, name } = list.items[0]!.metadata;
  assert.equal(token(first.metadata.continue!), `{"v":"meta.k8s.io/v1","rv":${first.metadata.resourceVersion},"start":"/${namespace}/${name}\\u0000"}`);
});

test('paging: a list at resourceVersion "0" is served whole from the cache, limit or not', async () => {
  const out = page(await api('GET', `${CMS}?limit=2&resourceVersion=0`));
  assert.deepEqual({ names: out.names, continue: out.metadata.continue }, { names: await all(), continue: undefined });
});

/** status is a failure's body as kube-apiserver writes it: the JSON encoder's, with its line break. */
const status = (code: number, reason: string, message: string, metadata: object = {}) =>
  `${JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata, status: 'Failure', message, reason, code })}\n`;
const invalid = (why: string) => status(400, 'BadRequest', `invalid continue token: continue key is not valid${why}`);

const badTokens: { name: string; token: string; want: string }[] = [
  { name: 'a byte outside base64url', token: 'abc!', want: invalid(': illegal base64 data at input byte 3') },
  { name: 'a last quantum of one character', token: 'abcde', want: invalid(': illegal base64 data at input byte 4') },
  { name: 'base64 of no JSON', token: encoded('hello'), want: invalid(": invalid character 'h' looking for beginning of value") },
  { name: 'a JSON array', token: encoded('[1]'), want: invalid(': json: cannot unmarshal array into Go value of type storage.continueToken') },
  { name: 'an rv that is a string', token: encoded('{"v":"meta.k8s.io/v1","rv":"5","start":"x"}'), want: invalid(': json: cannot unmarshal string into Go struct field continueToken.rv of type int64') },
  { name: 'an rv that is no integer', token: encoded('{"v":"meta.k8s.io/v1","rv":1.5,"start":"x"}'), want: invalid(': json: cannot unmarshal number 1.5 into Go struct field continueToken.rv of type int64') },
  { name: 'a version that is a number', token: encoded('{"v":1}'), want: invalid(': json: cannot unmarshal number into Go struct field continueToken.v of type string') },
  { name: 'another version', token: encoded('{"v":"meta.k8s.io/v2","rv":5,"start":"x"}'), want: invalid(': server does not recognize this encoded version meta.k8s.io/v2') },
  { name: 'an rv of 0', token: encoded('{"v":"meta.k8s.io/v1","rv":0,"start":"x"}'), want: invalid(': incorrect encoded start resourceVersion (version meta.k8s.io/v1)') },
  { name: 'an empty start', token: encoded('{"v":"meta.k8s.io/v1","rv":5,"start":""}'), want: invalid(': encoded start key empty (version meta.k8s.io/v1)') },
  { name: 'a start that climbs out of the list', token: encoded('{"v":"meta.k8s.io/v1","rv":5,"start":"../x"}'), want: invalid(': ../x') },
  { name: 'padding, which the raw encoding does not take', token: `${encoded('{"v":"meta.k8s.io/v1","rv":1,"start":"x"}')}=`, want: invalid(': illegal base64 data at input byte 55') },
  { name: 'JSON null, which leaves every field empty', token: encoded('null'), want: invalid(': server does not recognize this encoded version ') },
  { name: 'a JSON string', token: encoded('"abc"'), want: invalid(': json: cannot unmarshal string into Go value of type storage.continueToken') },
  { name: 'an rv past int64', token: encoded('{"v":"meta.k8s.io/v1","rv":99999999999999999999,"start":"x"}'), want: invalid(': json: cannot unmarshal number 99999999999999999999 into Go struct field continueToken.rv of type int64') },
  { name: 'an rv that is a bool', token: encoded('{"v":"meta.k8s.io/v1","rv":true,"start":"x"}'), want: invalid(': json: cannot unmarshal bool into Go struct field continueToken.rv of type int64') },
  { name: 'a start that is an object', token: encoded('{"v":"meta.k8s.io/v1","rv":1,"start":{"a":1}}'), want: invalid(': json: cannot unmarshal object into Go struct field continueToken.start of type string') },
  { name: 'keys in another case (matched) and a start with a trailing slash', token: encoded('{"V":"meta.k8s.io/v1","rv":1,"start":"x/"}'), want: invalid(': x/') },
  { name: 'a start with a doubled slash', token: encoded('{"v":"meta.k8s.io/v1","rv":1,"start":"//x"}'), want: invalid(': //x') },
  { name: 'arrays nested 4000 deep', token: encoded(`${'['.repeat(4000)}${']'.repeat(4000)}`), want: invalid(': json: cannot unmarshal array into Go value of type storage.continueToken') },
];

for (const c of badTokens) {
  test(`paging: a continue token with ${c.name} is a 400`, async () => {
    const out = await api('GET', `${CMS}?limit=2&continue=${c.token}`);
    assert.deepEqual(out, { status: 400, body: c.want });
  });
}

test('paging: a token with any resourceVersion but "0" is a 400; with "0" it goes on, unpaged; with resourceVersionMatch, the 422', async () => {
  const names = await all();
  const first = page(await api('GET', `${CMS}?limit=2`));
  assert.deepEqual(await api('GET', `${CMS}?limit=2&continue=${first.metadata.continue}&resourceVersion=5`), { status: 400, body: status(400, 'BadRequest', 'specifying resource version is not allowed when using continue') });
  // The watch cache pages nothing at resourceVersion "0" (computeListLimit): the rest comes at once.
  const rest = page(await api('GET', `${CMS}?limit=2&continue=${first.metadata.continue}&resourceVersion=0`));
  assert.deepEqual({ names: rest.names, continue: rest.metadata.continue }, { names: names.slice(2), continue: undefined });
  assert.equal((await api('GET', `${CMS}?limit=2&continue=${first.metadata.continue}&resourceVersion=5&resourceVersionMatch=NotOlderThan`)).status, 422);
});

test('paging: a limit that is not an int64 is the query decoder\'s 400', async () => {
  assert.deepEqual(await api('GET', `${CMS}?limit=abc`), { status: 400, body: status(400, 'BadRequest', 'strconv.ParseInt: parsing "abc": invalid syntax') });
  assert.deepEqual(await api('GET', `${CMS}?limit=99999999999999999999`), { status: 400, body: status(400, 'BadRequest', 'strconv.ParseInt: parsing "99999999999999999999": value out of range') });
});

test('paging: a token older than the history is etcd\'s 410, with a token that goes on at the latest revision', async () => {
  const old = encoded('{"v":"meta.k8s.io/v1","rv":1,"start":"/cm-b\\u0000"}');
  const expired = await api('GET', `${CMS}?limit=2&continue=${old}`);
  const next = encoded('{"v":"meta.k8s.io/v1","rv":-1,"start":"cm-b\\u0000"}');
  assert.deepEqual(expired, {
    status: 410,
    body: status(410, 'Expired', 'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.', { continue: next }),
  });
  // That token goes on from cm-b in the latest state.
  const rest = page(await api('GET', `${CMS}?limit=2&continue=${next}`));
  assert.deepEqual(rest.names, ['cm-c', 'cm-d']);
  assert.equal(token(rest.metadata.continue!), `{"v":"meta.k8s.io/v1","rv":${rest.metadata.resourceVersion},"start":"/cm-d\\u0000"}`);
});

test('paging: the real kubectl get --chunk-size=2 prints every pod, asking page after page', async () => {
  for (const n of ['p1', 'p2', 'p3', 'p4', 'p5']) {
    const run = await serve.kubectl('run', n, '-n', 'paging', '--image=nginx:1.27');
    assert.equal(run.code, 0, run.stderr);
  }
  const out = await serve.kubectl('get', 'pods', '-n', 'paging', '--chunk-size=2', '-o', 'name', '-v=6');
  assert.equal(out.code, 0, out.stderr);
  assert.deepEqual(out.stdout.trim().split('\n'), ['pod/p1', 'pod/p2', 'pod/p3', 'pod/p4', 'pod/p5']);
  const lists = [...out.stderr.matchAll(/https:\/\/[^/]+(\/api\/v1\/namespaces\/paging\/pods\?[^" ]*)/g)].map((m) => m[1]!.replace(/continue=[\w-]+/, 'continue=TOKEN'));
  assert.deepEqual(lists, ['/api/v1/namespaces/paging/pods?limit=2', '/api/v1/namespaces/paging/pods?continue=TOKEN&limit=2', '/api/v1/namespaces/paging/pods?continue=TOKEN&limit=2']);
});

test('paging: the real kubectl get --chunk-size=2 prints the server\'s Table rows of all pages under one header', async () => {
  const out = await serve.kubectl('get', 'pods', '-n', 'paging', '--chunk-size=2', '--no-headers', '-o', 'custom-columns=NAME:.metadata.name');
  assert.equal(out.code, 0, out.stderr);
  assert.deepEqual(out.stdout.trim().split('\n'), ['p1', 'p2', 'p3', 'p4', 'p5']);
  const table = await serve.kubectl('get', 'pods', '-n', 'paging', '--chunk-size=2');
  assert.equal(table.code, 0, table.stderr);
  const lines = table.stdout.trim().split('\n');
  assert.deepEqual([lines[0]!.split(/\s+/).slice(0, 2), lines.slice(1).map((l) => l.split(/\s+/)[0])], [['NAME', 'READY'], ['p1', 'p2', 'p3', 'p4', 'p5']]);
});

test('paging: Events, read from etcd, page with tokens whose key has no leading slash', async () => {
  const first = page(await api('GET', '/api/v1/events?limit=1'));
  assert.ok(first.metadata.continue, 'the pods above have had more than one Event recorded');
  const list = JSON.parse((await api('GET', '/api/v1/events?limit=1')).body) as { items: { metadata: { namespace: string; name: string } }[] };
  const { namespace, name } = list.items[0]!.metadata;
  assert.equal(token(first.metadata.continue!), `{"v":"meta.k8s.io/v1","rv":${first.metadata.resourceVersion},"start":"${namespace}/${name}\\u0000"}`);
  const rest = page(await api('GET', `/api/v1/events?continue=${first.metadata.continue}`));
  assert.ok(!rest.names.includes(name));
});
