// Server-side apply and managedFields over HTTPS, as kube-apiserver 1.36 answers them: an apply creates (201) or
// merges, removes what its manager no longer applies, refuses another manager's fields with a 409 (byte for byte)
// unless forced, and needs a fieldManager (422); every write records its manager in metadata.managedFields.
// See staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go and
// staging/src/k8s.io/apimachinery/pkg/util/managedfields/internal (v0.36.3).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:https';
import { type ServeProcess, startServe } from './serve-process';
import { adminCredentials } from './watch-stream';

let serve: ServeProcess;

before(async () => {
  serve = await startServe('ssa', 'apiVersion: podlifecycle.debug/v1alpha1\nkind: Behavior\ncontainers: {}\n');
});

after(() => serve.stop());

type Answer = { status: number; body: string };

/** api sends one request with a content type and a User-Agent, and resolves with the status and the body as sent. */
function api(method: string, path: string, body?: string, type = 'application/apply-patch+yaml', userAgent = 'ssa-test/1.0'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'User-Agent': userAgent, ...(body === undefined ? {} : { 'Content-Type': type }) };
    const req = request({ ...adminCredentials(serve.kubeconfig), path, method, headers }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const CMS = '/api/v1/namespaces/default/configmaps';
/** configMap is an apply configuration of a ConfigMap in YAML, its data one line per key. */
const configMap = (name: string, data: Record<string, string>): string =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n${Object.entries(data).map(([k, v]) => `  ${k}: "${v}"\n`).join('')}`;
const apply = (name: string, manager: string | undefined, data: Record<string, string>, query = '') =>
  api('PATCH', `${CMS}/${name}?${manager ? `fieldManager=${manager}` : ''}${query}`, configMap(name, data));
/** managers is an object's managedFields as `manager operation apiVersion` with their fieldsV1. */
const managers = (body: string): [string, unknown][] =>
  (JSON.parse(body).metadata.managedFields ?? []).map((e: Record<string, unknown>) => [`${e['manager']} ${e['operation']} ${e['apiVersion']}`, e['fieldsV1']]);
const status = (code: number, reason: string, message: string, details?: unknown) =>
  `${JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, ...(details ? { details } : {}), code })}\n`;

test('an apply to an absent object creates it (201), its manager owning what it applied, at the virtual time', async () => {
  const created = await apply('created', 'alice', { a: '1', b: '2' });
  assert.equal(created.status, 201, created.body);
  const obj = JSON.parse(created.body);
  assert.deepEqual(obj.data, { a: '1', b: '2' });
  const [entry] = obj.metadata.managedFields;
  assert.deepEqual(Object.keys(entry), ['manager', 'operation', 'apiVersion', 'time', 'fieldsType', 'fieldsV1']);
  assert.deepEqual(entry.fieldsV1, { 'f:data': { 'f:a': {}, 'f:b': {} } });
  assert.match(entry.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  const again = await apply('created', 'alice', { a: '1', b: '2' });
  assert.equal(again.status, 200);
  assert.equal(JSON.parse(again.body).metadata.resourceVersion, obj.metadata.resourceVersion, 'an apply that changes nothing writes nothing');
});

const cases: { name: string; steps: [string, Record<string, string>, string?][]; status: number; data?: Record<string, string>; managers?: [string, unknown][]; body?: string }[] = [
  {
    name: 'a re-apply without a field removes it when no other manager owns it',
    steps: [['alice', { a: '1', b: '2' }], ['alice', { a: '1' }]],
    status: 200, data: { a: '1' }, managers: [['alice Apply v1', { 'f:data': { 'f:a': {} } }]],
  },
  {
    name: 'a field another applier also owns stays when its first applier lets go of it',
    steps: [['alice', { a: '1', b: '2' }], ['bob', { b: '2' }], ['alice', { a: '1' }]],
    status: 200, data: { a: '1', b: '2' }, managers: [['alice Apply v1', { 'f:data': { 'f:a': {} } }], ['bob Apply v1', { 'f:data': { 'f:b': {} } }]],
  },
  {
    name: 'another value of a field another applier owns is a 409 naming the manager and the field',
    steps: [['alice', { a: '1' }], ['bob', { a: '2' }]],
    status: 409,
    body: status(409, 'Conflict', 'Apply failed with 1 conflict: conflict with "alice": .data.a', { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.data.a' }] }),
  },
  {
    name: 'several conflicts are listed by manager under the plural message',
    steps: [['alice', { a: '1', b: '1' }], ['bob', { a: '2', b: '2' }]],
    status: 409,
    body: status(409, 'Conflict', 'Apply failed with 2 conflicts: conflicts with "alice":\n- .data.a\n- .data.b', {
      causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.data.a' }, { reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.data.b' }],
    }),
  },
  {
    name: 'force=true takes the conflicting field over: the other manager no longer owns it',
    steps: [['alice', { a: '1', b: '1' }], ['bob', { a: '2' }, '&force=true']],
    status: 200, data: { a: '2', b: '1' }, managers: [['alice Apply v1', { 'f:data': { 'f:b': {} } }], ['bob Apply v1', { 'f:data': { 'f:a': {} } }]],
  },
  {
    name: 'the same value as another applier is no conflict: both own the field',
    steps: [['alice', { a: '1' }], ['bob', { a: '1' }]],
    status: 200, data: { a: '1' }, managers: [['alice Apply v1', { 'f:data': { 'f:a': {} } }], ['bob Apply v1', { 'f:data': { 'f:a': {} } }]],
  },
];

cases.forEach((c, i) => {
  test(c.name, async () => {
    const name = `case-${i}`;
    let last: Answer = { status: 0, body: '' };
    for (const [manager, data, query] of c.steps) last = await apply(name, manager, data, query ?? '');
    assert.equal(last.status, c.status, last.body);
    if (c.body) assert.equal(last.body, c.body);
    if (c.data) assert.deepEqual(JSON.parse(last.body).data, c.data);
    if (c.managers) assert.deepEqual(managers(last.body).sort(), c.managers);
  });
});

const refused: { name: string; method?: string; path: string; body: string; type?: string; status: number; want: string }[] = [
  {
    name: 'a create whose fieldManager is longer than 128 bytes is a 422 of CreateOptions',
    method: 'POST', path: `${CMS}?fieldManager=${'m'.repeat(129)}`, body: '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"long"}}', type: 'application/json', status: 422,
    want: status(422, 'Invalid', 'CreateOptions.meta.k8s.io "" is invalid: fieldManager: Too long: may not be more than 128 bytes', {
      group: 'meta.k8s.io', kind: 'CreateOptions', causes: [{ reason: 'FieldValueTooLong', message: 'Too long: may not be more than 128 bytes', field: 'fieldManager' }],
    }),
  },
  {
    name: 'an apply without a fieldManager is a 422 of PatchOptions',
    path: `${CMS}/nameless`, body: configMap('nameless', { a: '1' }), status: 422,
    want: status(422, 'Invalid', 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch', {
      group: 'meta.k8s.io', kind: 'PatchOptions', causes: [{ reason: 'FieldValueRequired', message: 'Required value: is required for apply patch', field: 'fieldManager' }],
    }),
  },
  {
    name: 'force on a patch that is no apply is a 422 of PatchOptions',
    path: `${CMS}/forced?force=true`, body: '{}', type: 'application/merge-patch+json', status: 422,
    want: status(422, 'Invalid', 'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch', {
      group: 'meta.k8s.io', kind: 'PatchOptions', causes: [{ reason: 'FieldValueForbidden', message: 'Forbidden: may not be specified for non-apply patch', field: 'force' }],
    }),
  },
  {
    name: 'an apply of another kind than the resource is a 400 naming its type',
    path: `${CMS}/wrong?fieldManager=alice`, body: 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: wrong\n', status: 400,
    want: status(400, 'BadRequest', 'invalid object type: /v1, Kind=Secret'),
  },
  {
    name: 'an apply whose name is not the URL\'s is a 400',
    path: `${CMS}/url-name?fieldManager=alice`, body: configMap('body-name', { a: '1' }), status: 400,
    want: status(400, 'BadRequest', 'the name of the object (body-name) does not match the name on the URL (url-name)'),
  },
  {
    name: 'an apply with a field its kind does not declare is the field manager\'s 500, whatever the validation asked',
    path: `${CMS}/unknown?fieldManager=alice&fieldValidation=Ignore`, body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: unknown\n  namespace: default\nfoo: bar\n', status: 500,
    want: JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'failed to create typed patch object (default/unknown; /v1, Kind=ConfigMap): .foo: field not declared in schema', code: 500 }) + '\n',
  },
  {
    name: 'an apply that carries managedFields is a 400',
    path: `${CMS}/carried?fieldManager=alice`, body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: carried\n  managedFields: []\n', status: 400,
    want: status(400, 'BadRequest', 'metadata.managedFields must be nil'),
  },
];

for (const c of refused) {
  test(c.name, async () => {
    const out = await api(c.method ?? 'PATCH', c.path, c.body, c.type);
    assert.equal(out.status, c.status, out.body);
    assert.equal(out.body, c.want);
  });
}

test('an object no manager tracked is owned by before-first-apply when first applied, and conflicts name it', async () => {
  // The root CA ConfigMap is written by the engine's publisher, which records no manager.
  const live = await api('GET', `${CMS}/kube-root-ca.crt`);
  assert.equal(JSON.parse(live.body).metadata.managedFields, undefined);
  const out = await api('PATCH', `${CMS}/kube-root-ca.crt?fieldManager=alice`, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: kube-root-ca.crt\ndata:\n  ca.crt: other\n');
  assert.equal(out.status, 409);
  assert.equal(JSON.parse(out.body).message, 'Apply failed with 1 conflict: conflict with "before-first-apply" using v1: .data.ca.crt');
});

test('creates and updates record their manager: the fieldManager parameter, else the User-Agent\'s program', async () => {
  const created = await api('POST', CMS, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'updated' }, data: { a: '1' } }), 'application/json', 'curl/8.5.0');
  assert.equal(created.status, 201, created.body);
  assert.deepEqual(managers(created.body), [['curl Update v1', { 'f:data': { '.': {}, 'f:a': {} } }]]);
  const patched = await api('PATCH', `${CMS}/updated?fieldManager=editor`, '{"data":{"b":"2"}}', 'application/merge-patch+json');
  assert.deepEqual(managers(patched.body), [['curl Update v1', { 'f:data': { '.': {}, 'f:a': {} } }], ['editor Update v1', { 'f:data': { 'f:b': {} } }]]);
  const conflict = await apply('updated', 'alice', { a: '9' });
  assert.equal(JSON.parse(conflict.body).message, 'Apply failed with 1 conflict: conflict with "curl" using v1: .data.a');
  // managedFields: [] in a request resets them; the object, no longer tracked, records no later update.
  const obj = JSON.parse(patched.body);
  const reset = await api('PUT', `${CMS}/updated`, JSON.stringify({ ...obj, metadata: { ...obj.metadata, managedFields: [] } }), 'application/json');
  assert.equal(JSON.parse(reset.body).metadata.managedFields, undefined);
  const untracked = await api('PATCH', `${CMS}/updated?fieldManager=editor`, '{"data":{"c":"3"}}', 'application/merge-patch+json');
  assert.equal(JSON.parse(untracked.body).metadata.managedFields, undefined);
});

test('an object the field manager cannot read goes on without managedFields, to the validation that refuses it', async () => {
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'envless' }, spec: { containers: [{ name: 'a', image: 'nginx', env: [{ value: 'x' }] }] } };
  const out = await api('POST', '/api/v1/namespaces/default/pods', JSON.stringify(pod), 'application/json');
  assert.equal(out.status, 422, out.body);
  assert.equal(JSON.parse(out.body).message, 'Pod "envless" is invalid: spec.containers[0].env[0].name: Required value');
});
