// The resourceVersion parameters of a list, a watch and a get against `pod-lifecycle serve` over HTTPS, answered as
// kube-apiserver 1.36 answers them: ListOptions validation (422), an unparsable resourceVersion (400 on a list, 500
// on a watch or a get, before any stream), Exact lists from the watch cache's window or 410, and the 504 of a
// resourceVersion the cache does not reach within 3 s. See staging/src/k8s.io/apiserver/pkg/storage (v0.36.3).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:https';
import { type ServeProcess, startServe } from './serve-process';
import { adminCredentials, watchEvents } from './watch-stream';

let serve: ServeProcess;

before(async () => {
  serve = await startServe('resource-version', 'apiVersion: podlifecycle.debug/v1alpha1\nkind: Behavior\n');
});

after(() => serve?.stop());

/** credentials are the admin's from the kubeconfig serve wrote. */
const credentials = () => adminCredentials(serve.kubeconfig);

type Answer = { status: number; body: string; retryAfter: string | undefined };

/** api sends one request and resolves with the status, the body as sent and the Retry-After header. */
function api(method: string, path: string, body?: unknown): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const type = method === 'PATCH' ? 'application/merge-patch+json' : 'application/json';
    const req = request({ ...credentials(), path, method, headers: body === undefined ? {} : { 'Content-Type': type } }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, retryAfter: res.headers['retry-after'] }));
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

type WatchEvent = { type: string; object: { metadata: { name?: string; resourceVersion: string; annotations?: Record<string, string> }; code?: number; reason?: string } };

/** watch opens a watch as the admin (see watchEvents). */
const watch = (path: string, until: (e: WatchEvent) => boolean, opened?: () => void) => watchEvents<WatchEvent>(credentials(), path, until, opened);

const CMS = '/api/v1/namespaces/default/configmaps';
/** goJson is JSON as Go's encoding/json Encoder writes it: <, > and & escaped in strings. */
const goJson = (v: unknown) => JSON.stringify(v).replace(/[<>&]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
const parseError = (rv: string, why = 'invalid syntax') => `resourceVersion: Invalid value: ${JSON.stringify(rv)}: strconv.ParseUint: parsing ${JSON.stringify(rv)}: ${why}`;
/** wire is a body as the API machinery's JSON encoder writes it: with its line break. */
const wire = (v: unknown) => `${goJson(v)}\n`;
const badRequest = (message: string) => wire({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'BadRequest', code: 400 });
const internal = (message: string) => wire({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code: 500 });
/** invalidListOptions is errors.NewInvalid(ListOptions.meta.k8s.io, "", causes): the name is empty, so not written. */
const invalidListOptions = (causes: [string, string][]) => {
  const text = causes.map(([f, m]) => `${f}: ${m}`);
  return wire({
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
    message: `ListOptions.meta.k8s.io "" is invalid: ${text.length === 1 ? text[0] : `[${text.join(', ')}]`}`, reason: 'Invalid',
    details: { group: 'meta.k8s.io', kind: 'ListOptions', causes: causes.map(([field, message]) => ({ reason: message.startsWith('Forbidden') ? 'FieldValueForbidden' : 'FieldValueNotSupported', message, field })) },
    code: 422,
  });
};
const RVM = 'resourceVersionMatch';

const rejected: { name: string; path: string; want: { status: number; body: string } }[] = [
  { name: 'a list with a resourceVersion that is not a number is storage\'s 400', path: `${CMS}?resourceVersion=abc`, want: { status: 400, body: badRequest(`invalid resource version: ${parseError('abc')}`) } },
  { name: 'a list with a negative resourceVersion is a syntax error too', path: `${CMS}?resourceVersion=-1`, want: { status: 400, body: badRequest(`invalid resource version: ${parseError('-1')}`) } },
  { name: 'a list with a resourceVersion past uint64 is out of range', path: `${CMS}?resourceVersion=18446744073709551616`, want: { status: 400, body: badRequest(`invalid resource version: ${parseError('18446744073709551616', 'value out of range')}`) } },
  { name: 'a list of Events (read from etcd) with a resourceVersion that is not a number is the same 400', path: '/api/v1/events?resourceVersion=abc', want: { status: 400, body: badRequest(`invalid resource version: ${parseError('abc')}`) } },
  { name: 'a watch with a resourceVersion that is not a number is a 500 before any stream', path: `${CMS}?watch=true&resourceVersion=abc`, want: { status: 500, body: internal(parseError('abc')) } },
  { name: 'a watch of one object by metadata.name with a bad resourceVersion is the same 500', path: `${CMS}?watch=true&fieldSelector=metadata.name%3Dweb&resourceVersion=x%3Cy`, want: { status: 500, body: internal(parseError('x<y')) } },
  { name: 'a get with a resourceVersion that is not a number is a 500, even of an object that does not exist', path: `${CMS}/missing?resourceVersion=abc`, want: { status: 500, body: internal(parseError('abc')) } },
  { name: 'resourceVersionMatch without a resourceVersion is forbidden', path: `${CMS}?${RVM}=NotOlderThan`, want: { status: 422, body: invalidListOptions([[RVM, 'Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided']]) } },
  { name: 'Exact with resourceVersion "0" is forbidden', path: `${CMS}?resourceVersion=0&${RVM}=Exact`, want: { status: 422, body: invalidListOptions([[RVM, 'Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"']]) } },
  { name: 'an unknown resourceVersionMatch is not supported', path: `${CMS}?resourceVersion=5&${RVM}=Latest`, want: { status: 422, body: invalidListOptions([[RVM, 'Unsupported value: "Latest": supported values: "Exact", "NotOlderThan", ""']]) } },
  { name: 'several errors are listed together, the value JSON-quoted as a named string', path: `${CMS}?${RVM}=a%3Cb&continue=x`, want: { status: 422, body: invalidListOptions([[RVM, 'Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided'], [RVM, 'Forbidden: resourceVersionMatch is forbidden when continue is provided'], [RVM, 'Unsupported value: "a\\u003cb": supported values: "Exact", "NotOlderThan", ""']]) } },
  { name: 'sendInitialEvents is forbidden on a list', path: `${CMS}?sendInitialEvents=true`, want: { status: 422, body: invalidListOptions([['sendInitialEvents', 'Forbidden: sendInitialEvents is forbidden for list']]) } },
  { name: 'a watch with resourceVersionMatch needs sendInitialEvents', path: `${CMS}?watch=true&resourceVersion=5&${RVM}=NotOlderThan`, want: { status: 422, body: invalidListOptions([[RVM, 'Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided']]) } },
  { name: 'a watch with sendInitialEvents needs NotOlderThan', path: `${CMS}?watch=true&sendInitialEvents=true&resourceVersion=5`, want: { status: 422, body: invalidListOptions([[RVM, 'Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan']]) } },
  { name: 'a watch takes only NotOlderThan', path: `${CMS}?watch=true&sendInitialEvents=false&${RVM}=Exact`, want: { status: 422, body: invalidListOptions([[RVM, 'Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'], [RVM, 'Unsupported value: "Exact": supported values: "NotOlderThan"']]) } },
];

for (const c of rejected) {
  test(`resourceVersion: ${c.name}`, async () => {
    const out = await api('GET', c.path);
    assert.deepEqual({ status: out.status, body: out.body }, c.want);
  });
}

test('resourceVersion: a list at an Exact resourceVersion is the state as it was then, from the watch cache; before it, 410', async () => {
  const configMap = (name: string, v: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { exact: 'yes' } }, data: { v } });
  const created = await api('POST', CMS, configMap('exact-a', '1'));
  assert.equal(created.status, 201, created.body);
  const at = JSON.parse(created.body).metadata.resourceVersion as string;
  assert.equal((await api('PATCH', `${CMS}/exact-a`, { data: { v: '2' } })).status, 200);
  assert.equal((await api('POST', CMS, configMap('exact-b', '1'))).status, 201);
  const names = (body: string) => {
    const list = JSON.parse(body) as { metadata: { resourceVersion: string }; items: { metadata: { name: string }; data: { v: string } }[] };
    return { resourceVersion: list.metadata.resourceVersion, items: list.items.map((i) => `${i.metadata.name} v=${i.data.v}`) };
  };
  const exact = await api('GET', `${CMS}?labelSelector=exact%3Dyes&resourceVersion=${at}&${RVM}=Exact`);
  assert.equal(exact.status, 200, exact.body);
  assert.deepEqual(names(exact.body), { resourceVersion: at, items: ['exact-a v=1'] });
  // NotOlderThan (and a resourceVersion without a match) read the latest state.
  for (const query of [`resourceVersion=${at}&${RVM}=NotOlderThan`, `resourceVersion=${at}`]) {
    const latest = await api('GET', `${CMS}?labelSelector=exact%3Dyes&${query}`);
    assert.equal(latest.status, 200, latest.body);
    assert.deepEqual(names(latest.body).items, ['exact-a v=2', 'exact-b v=1'], query);
    assert.ok(Number(names(latest.body).resourceVersion) > Number(at));
  }
  // Before the window the cacher delegates to etcd, whose history is compacted.
  const old = await api('GET', `${CMS}?resourceVersion=1&${RVM}=Exact`);
  assert.deepEqual({ status: old.status, body: old.body }, { status: 410, body: wire({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'The resourceVersion for the provided list is too old.', reason: 'Expired', code: 410 }) });
});

const future: { name: string; path: (rv: string) => string }[] = [
  { name: 'a NotOlderThan list', path: (rv) => `${CMS}?resourceVersion=${rv}&${RVM}=NotOlderThan` },
  { name: 'an Exact list', path: (rv) => `${CMS}?resourceVersion=${rv}&${RVM}=Exact` },
  { name: 'a get', path: (rv) => `${CMS}/kube-root-ca.crt?resourceVersion=${rv}` },
];

for (const c of future) {
  test(`resourceVersion: ${c.name} from a resourceVersion not yet reached waits 3 s, then 504 Too large resource version with a retry`, async () => {
    const list = JSON.parse((await api('GET', CMS)).body) as { metadata: { resourceVersion: string } };
    const ahead = String(Number(list.metadata.resourceVersion) + 1_000_000);
    const started = Date.now();
    const out = await api('GET', c.path(ahead));
    assert.ok(Date.now() - started >= 2_900, `answered after ${Date.now() - started} ms`);
    assert.equal(out.status, 504, out.body);
    assert.equal(out.retryAfter, '1');
    const { message, ...rest } = JSON.parse(out.body) as { message: string };
    assert.deepEqual(rest, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'Timeout', details: { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 }, code: 504 });
    assert.match(message, new RegExp(`^Timeout: Too large resource version: ${ahead}, current: \\d+$`));
  });
}

test('resourceVersion: a list from the next resourceVersion answers once a write reaches it, with the state it made', async () => {
  const list = JSON.parse((await api('GET', CMS)).body) as { metadata: { resourceVersion: string } };
  const next = String(Number(list.metadata.resourceVersion) + 1);
  const waiting = api('GET', `${CMS}?labelSelector=next%3Dyes&resourceVersion=${next}&${RVM}=NotOlderThan`);
  const created = await api('POST', CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'next', labels: { next: 'yes' } } });
  assert.equal(created.status, 201, created.body);
  const out = await waiting;
  assert.equal(out.status, 200, out.body);
  const answered = JSON.parse(out.body) as { metadata: { resourceVersion: string }; items: { metadata: { name: string } }[] };
  assert.deepEqual(answered.items.map((i) => i.metadata.name), ['next']);
  assert.ok(Number(answered.metadata.resourceVersion) >= Number(next));
});

const watchLists: { name: string; query: string; want: string[] }[] = [
  { name: 'a watch-list gets every object as ADDED, then the BOOKMARK annotated as the end of the initial events', query: 'sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true', want: ['ADDED list-a', 'ADDED list-b', 'BOOKMARK k8s.io/initial-events-end=true'] },
  { name: 'a watch from "" with bookmarks is a watch-list too, by the WatchList defaults', query: 'allowWatchBookmarks=true', want: ['ADDED list-a', 'ADDED list-b', 'BOOKMARK k8s.io/initial-events-end=true'] },
  { name: 'a watch with sendInitialEvents=false starts from now: the next change is the first event', query: 'sendInitialEvents=false&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true', want: ['ADDED list-c'] },
];

test('resourceVersion: watch-lists start as sendInitialEvents says', async () => {
  for (const name of ['list-a', 'list-b']) assert.equal((await api('POST', CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { list: 'yes' } } })).status, 201);
  for (const c of watchLists) {
    let head: () => void = () => undefined;
    const headCame = new Promise<void>((r) => (head = r));
    const opened = watch(`${CMS}?watch=true&labelSelector=list%3Dyes&${c.query}`, (e) => e.type === 'BOOKMARK' || e.object.metadata.name === 'list-c', () => head());
    if (c.query.includes('sendInitialEvents=false')) {
      // A change made once the watch is open is its first event.
      await headCame;
      assert.equal((await api('POST', CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'list-c', labels: { list: 'yes' } } })).status, 201);
    }
    const out = await opened;
    assert.equal(out.status, 200, c.name);
    const seen = out.events.map((e) => (e.type === 'BOOKMARK' ? `BOOKMARK ${Object.entries(e.object.metadata.annotations ?? {}).map(([k, v]) => `${k}=${v}`).join(',')}` : `${e.type} ${e.object.metadata.name}`));
    assert.deepEqual(seen, c.want, c.name);
  }
});

test('resourceVersion: a watch-list from a resourceVersion not yet reached gets 200 and, after 3 s, the 504 as an ERROR event', async () => {
  const list = JSON.parse((await api('GET', CMS)).body) as { metadata: { resourceVersion: string } };
  const ahead = String(Number(list.metadata.resourceVersion) + 1_000_000);
  const out = await watch(`${CMS}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&resourceVersion=${ahead}`, () => true);
  assert.equal(out.status, 200);
  assert.deepEqual(out.events.map((e) => [e.type, e.object.code, e.object.reason]), [['ERROR', 504, 'Timeout']]);
});

const kubectlCases: { name: string; path: string; stderr: string }[] = [
  { name: 'a list\'s 400', path: '/api/v1/pods?resourceVersion=abc', stderr: `Error from server (BadRequest): invalid resource version: ${parseError('abc')}\n` },
  { name: 'a watch\'s 500 (a Status without a reason)', path: '/api/v1/pods?watch=true&resourceVersion=abc', stderr: `Error from server: ${parseError('abc')}\n` },
];

for (const c of kubectlCases) {
  test(`resourceVersion: the real kubectl prints ${c.name} for a resourceVersion that is not a number`, async () => {
    const out = await serve.kubectl('get', '--raw', c.path);
    assert.deepEqual({ code: out.code, stderr: out.stderr }, { code: 1, stderr: c.stderr });
  });
}
