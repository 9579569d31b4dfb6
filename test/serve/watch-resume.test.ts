// Watches resumed from a resourceVersion against `pod-lifecycle serve` over HTTPS, as an informer resumes them: the
// exact ADDED, MODIFIED and DELETED since a list (each object as it was), the 410 ERROR event of a resourceVersion
// older than the watch cache, and Events that expire after --event-ttl (DELETED to their watchers, gone from list and
// describe). See staging/src/k8s.io/apiserver/pkg/storage/cacher (v0.36.3).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:https';
import { type ServeProcess, startServe } from './serve-process';
import { adminCredentials, watchEvents } from './watch-stream';

type Obj = { metadata: { name: string; resourceVersion: string; labels?: Record<string, string> }; data?: Record<string, string>; reason?: string; message?: string };
type WatchEvent = { type: string; object: Obj & { message?: string; code?: number; reason?: string } };

let serve: ServeProcess;

before(async () => {
  // Events live 2 minutes after their last write (and the lease's 6 s more): 1.26 s of wall time at 100×.
  serve = await startServe('watch-resume', 'apiVersion: podlifecycle.debug/v1alpha1\nkind: Behavior\n', 100, ['--event-ttl', '2m']);
});

after(() => serve?.stop());

/** credentials are the admin's from the kubeconfig serve wrote. */
const credentials = () => adminCredentials(serve.kubeconfig);

/** api sends one request (a JSON body, a merge patch for PATCH) and resolves with the status and the parsed answer. */
function api(method: string, path: string, body?: unknown): Promise<{ status: number; json: Obj & { items?: Obj[] } }> {
  return new Promise((resolve, reject) => {
    const type = method === 'PATCH' ? 'application/merge-patch+json' : 'application/json';
    const req = request({ ...credentials(), path, method, headers: body === undefined ? {} : { 'Content-Type': type } }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** watch opens a watch as the admin (see watchEvents). */
const watch = (path: string, until?: (e: WatchEvent, seen: WatchEvent[]) => boolean) => watchEvents<WatchEvent>(credentials(), path, until);

const configMap = (name: string, app: string, v: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { app } }, data: { v } });
const CMS = '/api/v1/namespaces/default/configmaps';

/** listed is the resourceVersion of the list; rvs the resourceVersions of the changes made after it (the `end-*` markers close each watch's replay). */
let listed = '';
const rvs: Record<string, string> = {};

const resumed: { name: string; query: string; from?: string; until: string; want: string[] }[] = [
  {
    name: 'from the list\'s resourceVersion, every change after it, each object as it was then',
    query: '', until: 'end-db',
    want: ['ADDED a app=web v=1 @a1', 'MODIFIED a app=web v=2 @a2', 'ADDED b app=web v=1 @b1', 'MODIFIED b app=db v=1 @b2', 'DELETED a app=web v=2 @b2+', 'ADDED end-web app=web v=1 @end-web', 'ADDED end-db app=db v=1 @end-db'],
  },
  {
    name: 'with a label selector, an object that leaves the selection is DELETED as it was, at the change\'s resourceVersion',
    query: '&labelSelector=app%3Dweb', until: 'end-web',
    want: ['ADDED a app=web v=1 @a1', 'MODIFIED a app=web v=2 @a2', 'ADDED b app=web v=1 @b1', 'DELETED b app=web v=1 @b2', 'DELETED a app=web v=2 @b2+', 'ADDED end-web app=web v=1 @end-web'],
  },
  {
    name: 'with a label selector, an object that comes into the selection is ADDED',
    query: '&labelSelector=app%3Ddb', until: 'end-db',
    want: ['ADDED b app=db v=1 @b2', 'ADDED end-db app=db v=1 @end-db'],
  },
  {
    name: 'from a later resourceVersion, only the changes after it',
    query: '', from: 'a2', until: 'end-db',
    want: ['ADDED b app=web v=1 @b1', 'MODIFIED b app=db v=1 @b2', 'DELETED a app=web v=2 @b2+', 'ADDED end-web app=web v=1 @end-web', 'ADDED end-db app=db v=1 @end-db'],
  },
];

test('changes made after a list: create, modify, relabel, delete', async () => {
  const list = await api('GET', CMS);
  assert.equal(list.status, 200);
  listed = list.json.metadata.resourceVersion;
  const steps: [string, string, string, unknown?][] = [
    ['a1', 'POST', CMS, configMap('a', 'web', '1')],
    ['a2', 'PATCH', `${CMS}/a`, { data: { v: '2' } }],
    ['b1', 'POST', CMS, configMap('b', 'web', '1')],
    ['b2', 'PATCH', `${CMS}/b`, { metadata: { labels: { app: 'db' } } }],
    ['', 'DELETE', `${CMS}/a`],
    ['end-web', 'POST', CMS, configMap('end-web', 'web', '1')],
    ['end-db', 'POST', CMS, configMap('end-db', 'db', '1')],
  ];
  for (const [name, method, path, body] of steps) {
    const out = await api(method, path, body);
    assert.ok(out.status < 300, JSON.stringify(out.json));
    if (name) rvs[name] = out.json.metadata.resourceVersion;
  }
  assert.ok(Number(rvs['a1']) > Number(listed));
});

for (const c of resumed) {
  test(`a resumed watch: ${c.name}`, async () => {
    const from = c.from ? rvs[c.from]! : listed;
    const out = await watch(`${CMS}?watch=true&resourceVersion=${from}${c.query}`, (e) => e.object.metadata.name === c.until);
    assert.equal(out.status, 200);
    // A delete carries the resourceVersion of the delete (etcd's revision), not the object's last one.
    const label = (rv: string) => {
      const sorted = Object.entries(rvs).sort(([, x], [, y]) => Number(x) - Number(y));
      const below = sorted.filter(([, v]) => Number(v) < Number(rv)).at(-1)?.[0];
      return sorted.find(([, v]) => v === rv)?.[0] ?? `${below}+`;
    };
    const seen = out.events.map((e) => `${e.type} ${e.object.metadata.name} app=${e.object.metadata.labels?.['app']} v=${e.object.data?.['v']} @${label(e.object.metadata.resourceVersion)}`);
    assert.deepEqual(seen, c.want);
  });
}

test('a watch from a resourceVersion older than the watch cache gets 200 and one ERROR event: 410 Expired, too old', async () => {
  const out = await watch(`${CMS}?watch=true&resourceVersion=1`);
  assert.equal(out.status, 200);
  assert.equal(out.events.length, 1);
  const [e] = out.events;
  assert.equal(e!.type, 'ERROR');
  const { message, ...rest } = e!.object as unknown as { message: string };
  assert.deepEqual(rest, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'Expired', code: 410 });
  // The oldest resourceVersion the cache can resume from: where its list stood when serving began.
  const oldest = /^too old resource version: 1 \((\d+)\)$/.exec(message);
  assert.ok(oldest, message);
  assert.ok(Number(oldest[1]) >= 1000 && Number(oldest[1]) <= Number(listed), message);
});

test('Events expire after --event-ttl: their watchers get DELETED, and get, list and describe no longer show them', async () => {
  const EVENTS = '/api/v1/namespaces/default/events';
  const ofWeb = 'fieldSelector=involvedObject.name%3Dweb';
  const before = await api('GET', `${EVENTS}?${ofWeb}`);
  assert.deepEqual(before.json.items, []);
  const created = await api('POST', '/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web' }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } });
  assert.equal(created.status, 201);
  // From the list's resourceVersion: the pod's Events as they are written, up to Started.
  const written = await watch(`${EVENTS}?watch=true&resourceVersion=${before.json.metadata.resourceVersion}&${ofWeb}`, (e) => e.object.reason === 'Started');
  assert.deepEqual(written.events.map((e) => `${e.type} ${e.object.reason}`), ['ADDED Scheduled', 'ADDED Pulling', 'ADDED Pulled', 'ADDED Created', 'ADDED Started']);
  // One Event read alone, as the watch showed it (its TTL is 2 minutes: 1.2 s from its write at 100×).
  const started = written.events.at(-1)!.object;
  const got = await api('GET', `${EVENTS}/${started.metadata.name}`);
  assert.equal(got.status, 200);
  assert.deepEqual([got.json.metadata.name, got.json.metadata.resourceVersion], [started.metadata.name, started.metadata.resourceVersion]);
  // Resumed from the last one seen: each Event's DELETED once its lease expires, at the revision of its deletion.
  const names = new Set(written.events.map((e) => e.object.metadata.name));
  const gone = await watch(`${EVENTS}?watch=true&resourceVersion=${started.metadata.resourceVersion}&${ofWeb}`, (_e, seen) => seen.filter((s) => s.type === 'DELETED').length === names.size);
  assert.deepEqual(gone.events.map((e) => e.type), [...names].map(() => 'DELETED'));
  assert.deepEqual(new Set(gone.events.map((e) => e.object.metadata.name)), names);
  assert.ok(gone.events.every((e) => Number(e.object.metadata.resourceVersion) > Number(started.metadata.resourceVersion)));
  const after = await api('GET', `${EVENTS}?${ofWeb}`);
  assert.deepEqual(after.json.items, []);
  const missing = await api('GET', `${EVENTS}/${started.metadata.name}`);
  assert.deepEqual([missing.status, missing.json.message], [404, `events "${started.metadata.name}" not found`]);
  const described = await serve.kubectl('describe', 'pod', 'web');
  assert.equal(described.code, 0, described.stderr);
  assert.match(described.stdout, /\nEvents:\s+<none>\n$/);
});

test('--event-ttl takes a Go duration and refuses anything else with pflag\'s words', async () => {
  const { execFile } = await import('node:child_process');
  const { join } = await import('node:path');
  const run = (flag: string) => new Promise<{ code: number; stderr: string }>((resolve) => {
    execFile(process.execPath, [join(__dirname, '..', '..', '..', 'dist', 'cli.js'), 'serve', '--event-ttl', flag], (err, _stdout, stderr) => resolve({ code: err ? Number((err as { code?: number }).code) : 0, stderr }));
  });
  const bad = await run('5');
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /^error: invalid argument "5" for "--event-ttl" flag: time: missing unit in duration "5"\n/);
});
