// A continue token outlives etcd's compaction no more than it does in kube-apiserver 1.36: etcd compacts every
// 5 minutes up to the revision of 5 minutes before, the watch cache drops its snapshots before that revision, and
// the next page of a list begun before it gets etcd's 410 with a token to go on at the latest revision. serve runs
// fast here (1000×), so those virtual minutes pass in a fraction of a second of wall time.
// See staging/src/k8s.io/apiserver/pkg/storage/cacher/compactor.go, watch_cache.go (Compact) and etcd3/errors.go, v0.36.3.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:https';
import { type ServeProcess, startServe } from './serve-process';
import { adminCredentials } from './watch-stream';

let serve: ServeProcess;

before(async () => {
  serve = await startServe('list-paging-compaction', 'apiVersion: podlifecycle.debug/v1alpha1\nkind: Behavior\n', 1000);
});

after(() => serve?.stop());

/** api sends one request as the admin and resolves with the status and the body parsed. */
function api(method: string, path: string, body?: unknown): Promise<{ status: number; body: { metadata: { continue?: string; resourceVersion?: string }; message?: string; items?: { metadata: { name: string } }[] } }> {
  return new Promise((resolve, reject) => {
    const req = request({ ...adminCredentials(serve.kubeconfig), path, method, headers: body === undefined ? {} : { 'Content-Type': 'application/json' } }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

const CMS = '/api/v1/namespaces/default/configmaps';

test('paging: a token older than etcd\'s compaction gets the 410 and a token that goes on from the same key at the latest revision', async () => {
  for (const name of ['old-a', 'old-b', 'old-c']) assert.equal((await api('POST', CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } })).status, 201);
  const first = await api('GET', `${CMS}?limit=1`);
  assert.equal(first.status, 200);
  const token = first.body.metadata.continue!;
  const start = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')).start.slice(1) as string;
  // Each round writes (so etcd's revision moves past the token's) and reads on; the compactor's ticks come with
  // virtual time. A bound, not a sleep: at 1000× two 5-minute ticks take 0.2 s of wall time.
  const deadline = Date.now() + 30_000;
  let next = await api('GET', `${CMS}?limit=1&continue=${token}`);
  for (let i = 0; next.status === 200 && Date.now() < deadline; i++) {
    assert.equal((await api('POST', CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `later-${i}` } })).status, 201);
    next = await api('GET', `${CMS}?limit=1&continue=${token}`);
  }
  assert.equal(next.status, 410, JSON.stringify(next.body));
  assert.match(next.body.message ?? '', /^The provided continue parameter is too old to display a consistent list result\./);
  const fresh = next.body.metadata.continue!;
  assert.equal(Buffer.from(fresh, 'base64url').toString('utf8'), `{"v":"meta.k8s.io/v1","rv":-1,"start":${JSON.stringify(start)}}`);
  const rest = await api('GET', `${CMS}?limit=1&continue=${fresh}`);
  assert.equal(rest.status, 200);
  assert.ok(rest.body.items![0]!.metadata.name > start.replace('\u0000', ''), `${rest.body.items![0]!.metadata.name} follows ${start}`);
});
