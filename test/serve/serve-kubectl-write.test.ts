// `pod-lifecycle serve` driven by the real kubectl for the writes past apply: create deployment (a protobuf body),
// rollout status (a watch), scale (the scale subresource), label, annotate, patch of each type, replace, and the
// server's 400 for bodies that are not JSON (server-side apply: server-side-apply*.test.ts). kubectl must be on PATH.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { type ServeProcess, startServe } from './serve-process';

let serve: ServeProcess;
const kubectl = (...args: string[]) => serve.kubectl(...args);
const jsonpath = async (what: string, path: string): Promise<string> => (await kubectl('get', what, '-o', `jsonpath=${path}`)).stdout;

before(async () => {
  serve = await startServe('serve-write', 'apiVersion: podlifecycle.debug/v1alpha1\nkind: Behavior\ncontainers: {}\n');
});

after(() => serve.stop());

test('kubectl create deployment sends a protobuf Deployment that the cluster rolls out, and its pods carry app=web', async () => {
  const created = await kubectl('create', 'deployment', 'web', '--image=nginx:1.27', '--replicas=3');
  assert.equal(created.code, 0, created.stderr);
  assert.equal(created.stdout.trim(), 'deployment.apps/web created');
  const rollout = await kubectl('rollout', 'status', 'deployment/web', '--timeout=60s');
  assert.equal(rollout.code, 0, rollout.stderr);
  assert.match(rollout.stdout, /deployment "web" successfully rolled out\n$/);
  const pods = await kubectl('get', 'pods', '-l', 'app=web', '-o', 'jsonpath={range .items[*]}{.status.phase}{"\\n"}{end}');
  assert.deepEqual(pods.stdout.trim().split('\n'), ['Running', 'Running', 'Running']);
  const deployment = JSON.parse((await kubectl('get', 'deployment', 'web', '-o', 'json')).stdout);
  assert.deepEqual(deployment.spec.selector, { matchLabels: { app: 'web' } });
  assert.equal(deployment.spec.template.spec.containers[0].image, 'nginx:1.27');
});

test('status writes are recorded in managedFields as the status subresource records them: the kubelet\'s on a pod, the controllers\' on a Deployment', async () => {
  type Entry = { manager: string; operation: string; subresource?: string; fieldsV1?: { 'f:status'?: Record<string, unknown>; 'f:metadata'?: Record<string, unknown> } };
  const pod = JSON.parse((await kubectl('get', 'pods', '-l', 'app=web', '-o', 'json', '--show-managed-fields')).stdout).items[0];
  const entries = (pod.metadata.managedFields as Entry[]).map((e) => `${e.manager} ${e.operation}${e.subresource ? ` ${e.subresource}` : ''}`);
  assert.deepEqual(entries, ['kube-controller-manager Update', 'kubelet Update status']);
  const kubelet = (pod.metadata.managedFields as Entry[]).find((e) => e.manager === 'kubelet')!;
  for (const field of ['f:conditions', 'f:containerStatuses', 'f:hostIP', 'f:phase', 'f:podIP', 'f:startTime']) assert.ok(kubelet.fieldsV1?.['f:status']?.[field], `the kubelet owns status.${field.slice(2)}`);
  const deployment = JSON.parse((await kubectl('get', 'deployment', 'web', '-o', 'json', '--show-managed-fields')).stdout);
  const controllers = (deployment.metadata.managedFields as Entry[]).find((e) => e.manager === 'kube-controller-manager');
  assert.equal(controllers?.subresource, 'status');
  assert.ok(controllers?.fieldsV1?.['f:status']?.['f:availableReplicas'], 'the controllers own status.availableReplicas');
  assert.ok((controllers?.fieldsV1?.['f:metadata']?.['f:annotations'] as Record<string, unknown> | undefined)?.['f:deployment.kubernetes.io/revision'], 'and the revision annotation their status update carries');
});

test('kubectl scale writes spec.replicas through the scale subresource, which reads back as an autoscaling/v1 Scale', async () => {
  const scaled = await kubectl('scale', 'deployment/web', '--replicas=2');
  assert.equal(scaled.code, 0, scaled.stderr);
  assert.equal(scaled.stdout.trim(), 'deployment.apps/web scaled');
  const scale = JSON.parse((await kubectl('get', '--raw', '/apis/apps/v1/namespaces/default/deployments/web/scale')).stdout);
  assert.equal(scale.kind, 'Scale');
  assert.equal(scale.apiVersion, 'autoscaling/v1');
  assert.equal(scale.spec.replicas, 2);
  assert.equal(scale.status.selector, 'app=web');
  const rollout = await kubectl('rollout', 'status', 'deployment/web', '--timeout=60s');
  assert.equal(rollout.code, 0, rollout.stderr);
  assert.equal(await jsonpath('deployment/web', '{.status.replicas}'), '2');
  const negative = await kubectl('patch', 'deployment', 'web', '--subresource=scale', '--type=merge', '-p', '{"spec":{"replicas":-1}}');
  assert.notEqual(negative.code, 0);
  assert.match(negative.stderr, /The Scale "web" is invalid: spec\.replicas: Invalid value: -1: must be greater than or equal to 0/);
});

const patchCases: { name: string; args: string[]; stdout: string; path: string; want: string }[] = [
  { name: 'kubectl label adds a label by a strategic merge patch', args: ['label', 'deployment', 'web', 'tier=front'], stdout: 'deployment.apps/web labeled', path: '{.metadata.labels.tier}', want: 'front' },
  { name: 'kubectl annotate adds an annotation', args: ['annotate', 'deployment', 'web', 'owner=team-a'], stdout: 'deployment.apps/web annotated', path: '{.metadata.annotations.owner}', want: 'team-a' },
  { name: 'a strategic merge patch (the default type) merges a label', args: ['patch', 'deployment', 'web', '-p', '{"metadata":{"labels":{"smp":"yes"}}}'], stdout: 'deployment.apps/web patched', path: '{.metadata.labels.smp}', want: 'yes' },
  { name: 'a JSON merge patch with null removes a key', args: ['patch', 'deployment', 'web', '--type=merge', '-p', '{"metadata":{"labels":{"smp":null}}}'], stdout: 'deployment.apps/web patched', path: '{.metadata.labels}', want: '{"app":"web","tier":"front"}' },
  {
    name: 'a JSON merge patch replaces a list whole (RFC 7386)',
    args: ['patch', 'deployment', 'web', '--type=merge', '-p', '{"spec":{"template":{"spec":{"containers":[{"name":"web","image":"nginx:1.28"}]}}}}'],
    stdout: 'deployment.apps/web patched', path: '{range .spec.template.spec.containers[*]}{.name}={.image} {end}', want: 'web=nginx:1.28 ',
  },
  { name: 'a JSON patch adds a label under a path with an escaped slash', args: ['patch', 'deployment', 'web', '--type=json', '-p', '[{"op":"add","path":"/metadata/labels/example.com~1team","value":"a"}]'], stdout: 'deployment.apps/web patched', path: '{.metadata.labels.example\\.com/team}', want: 'a' },
];

for (const c of patchCases) {
  test(c.name, async () => {
    const out = await kubectl(...c.args);
    assert.equal(out.code, 0, out.stderr);
    assert.equal(out.stdout.trim(), c.stdout);
    assert.equal(await jsonpath('deployment/web', c.path), c.want);
  });
}

test('kubectl replace -f sends the edited object as a PUT', async () => {
  const yaml = (await kubectl('get', 'deployment', 'web', '-o', 'yaml')).stdout;
  const edited = serve.file('web.yaml', yaml.replace(/^( {2}replicas:) \d+$/m, '$1 1'));
  const replaced = await kubectl('replace', '-f', edited);
  assert.equal(replaced.code, 0, replaced.stderr);
  assert.equal(replaced.stdout.trim(), 'deployment.apps/web replaced');
  assert.equal(await jsonpath('deployment/web', '{.spec.replicas}'), '1');
});

const refusedPatches: { name: string; args: string[]; stderr: RegExp }[] = [
  {
    name: 'a JSON patch that does not apply is the generic 422 of the patch handler',
    args: ['patch', 'deployment', 'web', '--type=json', '-p', '[{"op":"remove","path":"/metadata/labels/missing"}]'],
    stderr: /^The request is invalid: the server rejected our request due to an error in our request$/m,
  },
  { name: 'a merge patch that is not JSON is Invalid JSON Patch', args: ['patch', 'deployment', 'web', '--type=merge', '-p', '{bad'], stderr: /^Error from server \(BadRequest\): Invalid JSON Patch$/m },
  { name: 'a strategic merge patch that is not JSON gets encoding/json\'s message', args: ['patch', 'deployment', 'web', '-p', '{bad'], stderr: /^Error from server \(BadRequest\): invalid character 'b' looking for beginning of object key string$/m },
];

for (const c of refusedPatches) {
  test(c.name, async () => {
    const out = await kubectl(...c.args);
    assert.notEqual(out.code, 0);
    assert.match(out.stderr, c.stderr);
  });
}

const malformed: { name: string; body: string; message: string }[] = [
  { name: 'a body cut short', body: '{"kind": "Pod",', message: 'couldn\'t get version/kind; json parse error: unexpected end of JSON input ({"kind": "Pod",)' },
  { name: 'an unquoted key', body: '{bad}', message: 'couldn\'t get version/kind; json parse error: invalid character \'b\' looking for beginning of object key string ({bad})' },
  { name: 'a YAML body sent as JSON', body: 'kind: Pod\n', message: 'couldn\'t get version/kind; json parse error: invalid character \'k\' looking for beginning of value (6b696e643a20506f640a)' },
  { name: 'a missing comma', body: '{"kind":"Pod" "x":1}', message: 'couldn\'t get version/kind; json parse error: invalid character \'"\' after object key:value pair ({"kind":"Pod" "x":1})' },
];

for (const c of malformed) {
  test(`${c.name} is a 400 with the JSON serializer's message and a summary of the body`, async () => {
    const out = await kubectl('create', '--raw', '/api/v1/namespaces/default/pods', '-f', serve.file('body.json', c.body));
    assert.notEqual(out.code, 0);
    assert.equal(out.stderr.trim(), `Error from server (BadRequest): the object provided is unrecognized (must be of type Pod): ${c.message}`);
  });
}

test('kubectl create secret decodes the answer: each value is as many zero bytes, describe shows its size, a TYPE of Opaque', async () => {
  const created = await kubectl('create', 'secret', 'generic', 'db', '--from-literal=password=s3cr3t-value');
  assert.equal(created.code, 0, created.stderr);
  assert.equal(created.stdout.trim(), 'secret/db created');
  assert.equal(await jsonpath('secret/db', '{.data.password}'), Buffer.alloc(12).toString('base64'));
  assert.equal(await jsonpath('secret/db', '{.type}'), 'Opaque');
  const described = await kubectl('describe', 'secret', 'db');
  assert.equal(described.code, 0, described.stderr);
  assert.match(described.stdout, /\npassword:\s+12 bytes\n/);
  const listed = await kubectl('get', 'secrets', 'db');
  assert.match(listed.stdout, /^db\s+Opaque\s+1\s+/m);
  // The Secret read back and applied again keeps its value: the zero bytes sent back unchanged stand for it.
  const yaml = await kubectl('get', 'secret', 'db', '-o', 'yaml');
  const applied = await kubectl('apply', '-f', serve.file('db.yaml', yaml.stdout));
  assert.equal(applied.code, 0, applied.stderr);
  assert.match((await kubectl('describe', 'secret', 'db')).stdout, /\npassword:\s+12 bytes\n/);
});
