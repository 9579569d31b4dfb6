// `pod-lifecycle serve` driven by the real kubectl on hand-written Endpoints and EndpointSlices: every request to the
// deprecated v1 Endpoints API carries kube-apiserver's deprecation warning (a list as much as a create), and the
// registries' validation answers as kube-apiserver v1.36.3 does. kubectl must be on PATH.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { type ServeProcess, startServe } from './serve-process';
import { adminCredentials, watchEvents } from './watch-stream';

const FIXTURES = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'validation');
const DEPRECATED = 'Warning: v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice';

let serve: ServeProcess;
const kubectl = (...args: string[]) => serve.kubectl(...args);

before(async () => {
  serve = await startServe('serve-endpoints', 'apiVersion: podlifecycle.debug/v1alpha1\nkind: Behavior\ncontainers: {}\n');
});

after(() => serve.stop());

test('creating Endpoints warns of the deprecated API and of an IPv6 address not in canonical form', async () => {
  const created = await kubectl('create', '-f', join(FIXTURES, 'net-endpoints-valid.yaml'));
  assert.equal(created.code, 0, created.stderr);
  assert.equal(created.stdout.trim(), 'endpoints/legacy-db created');
  assert.deepEqual(created.stderr.trim().split('\n'), [
    DEPRECATED, 'Warning: subsets[0].addresses[1].ip: IPv6 address "2001:DB8::7" should be in RFC 5952 canonical format ("2001:db8::7")',
  ]);
});

test('listing Endpoints warns of the deprecated API; listing EndpointSlices does not', async () => {
  const endpoints = await kubectl('get', 'endpoints', '-o', 'name');
  assert.equal(endpoints.code, 0, endpoints.stderr);
  assert.match(endpoints.stdout, /^endpoints\/legacy-db$/m);
  assert.equal(endpoints.stderr.trim(), DEPRECATED);
  const slices = await kubectl('get', 'endpointslices', '-o', 'name');
  assert.equal(slices.code, 0, slices.stderr);
  assert.equal(slices.stderr, '');
});

test('a watch of Endpoints carries the deprecation warning in its head; a watch of EndpointSlices does not', async () => {
  const credentials = adminCredentials(serve.kubeconfig);
  const endpoints = await watchEvents<{ type: string }>(credentials, '/api/v1/namespaces/default/endpoints?watch=true', () => true);
  assert.equal(endpoints.status, 200);
  assert.equal(endpoints.headers['warning'], '299 - "v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice"');
  assert.equal(endpoints.events[0]?.type, 'ADDED');
  // No EndpointSlice in the namespace: the server ends the watch after its timeout, with only its head sent.
  const slices = await watchEvents<{ type: string }>(credentials, '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices?watch=true&timeoutSeconds=1');
  assert.equal(slices.status, 200);
  assert.equal(slices.headers['warning'], undefined);
});

test('an invalid EndpointSlice is refused with kube-apiserver\'s causes', async () => {
  const refused = await kubectl('create', '-f', join(FIXTURES, 'net-endpointslice-no-address-type.yaml'));
  assert.equal(refused.code, 1);
  assert.equal(refused.stderr.trim(), [
    'The EndpointSlice "legacy-db-1" is invalid: ', '* addressType: Required value', '* ports[1].name: Duplicate value: "db"',
    '* endpoints[0].addresses: Required value: must contain at least 1 address',
  ].join('\n'));
});
