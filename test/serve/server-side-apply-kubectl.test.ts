// `kubectl apply --server-side` against `pod-lifecycle serve`, with the real kubectl: it creates and re-applies
// (`serverside-applied` both times), a replica count `kubectl scale` wrote is a conflict kubectl explains, and
// `--force-conflicts` takes it over; `--show-managed-fields` shows each manager, plain `-o yaml` none.
// Checked against kube-apiserver 1.36.3 (the oracle): the same output and managedFields. kubectl must be on PATH.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { type ServeProcess, startServe } from './serve-process';

let serve: ServeProcess;
const kubectl = (...args: string[]) => serve.kubectl(...args);

const POD = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\n  labels:\n    app: web\nspec:\n  containers:\n  - name: web\n    image: nginx:1.27\n    ports:\n    - containerPort: 80\n';
const DEPLOYMENT = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 2\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n      - name: web\n        image: nginx:1.27\n';

/** managedFields reads an object's managedFields as `kubectl get -o yaml --show-managed-fields` prints them, without times. */
async function managedFields(what: string): Promise<Record<string, unknown>[]> {
  const out = await kubectl('get', what, '-o', 'yaml', '--show-managed-fields');
  assert.equal(out.code, 0, out.stderr);
  return (parse(out.stdout).metadata.managedFields as Record<string, unknown>[]).map(({ time: _t, ...e }) => e);
}

before(async () => {
  serve = await startServe('ssa-kubectl', 'apiVersion: podlifecycle.debug/v1alpha1\nkind: Behavior\ncontainers: {}\n');
});

after(() => serve.stop());

test('kubectl apply --server-side creates a pod and re-applies it unchanged, both times serverside-applied', async () => {
  const file = serve.file('pod.yaml', POD);
  for (let i = 0; i < 2; i++) {
    const out = await kubectl('apply', '--server-side', '-f', file);
    assert.equal(out.code, 0, out.stderr);
    assert.equal(out.stdout, 'pod/x serverside-applied\n');
  }
  // The kubelet's status writes have their own entry (subresource status), whenever it has written the status.
  const entries = await managedFields('pod/x');
  const status = entries.filter((e) => e['subresource'] === 'status');
  assert.deepEqual(status.map((e) => `${e['manager']} ${e['operation']}`), status.length ? ['kubelet Update'] : []);
  assert.deepEqual(entries.filter((e) => e['subresource'] !== 'status'), [{
    apiVersion: 'v1', fieldsType: 'FieldsV1', manager: 'kubectl', operation: 'Apply',
    fieldsV1: {
      'f:metadata': { 'f:labels': { 'f:app': {} } },
      'f:spec': { 'f:containers': { 'k:{"name":"web"}': { '.': {}, 'f:image': {}, 'f:name': {}, 'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } } } } },
    },
  }]);
  const plain = await kubectl('get', 'pod/x', '-o', 'yaml');
  assert.doesNotMatch(plain.stdout, /managedFields/);
});

test('a replica count kubectl scale wrote is a conflict kubectl explains, and --force-conflicts takes it over', async () => {
  const file = serve.file('deployment.yaml', DEPLOYMENT);
  const created = await kubectl('apply', '--server-side', '-f', file);
  assert.equal(created.stdout, 'deployment.apps/web serverside-applied\n', created.stderr);
  const scaled = await kubectl('scale', 'deployment/web', '--replicas=3');
  assert.equal(scaled.code, 0, scaled.stderr);
  assert.deepEqual((await managedFields('deployment/web'))[1], { apiVersion: 'apps/v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } }, manager: 'kubectl', operation: 'Update', subresource: 'scale' });
  const conflict = await kubectl('apply', '--server-side', '-f', file);
  assert.equal(conflict.code, 1);
  assert.equal(conflict.stdout, '');
  const lines = conflict.stderr.split('\n');
  assert.equal(lines[0], 'error: Apply failed with 1 conflict: conflict with "kubectl" with subresource "scale" using apps/v1: .spec.replicas');
  assert.equal(lines[1], 'Please review the fields above--they currently have other managers. Here');
  assert.equal(lines[3], '* If you intend to manage all of these fields, please re-run the apply');
  const forced = await kubectl('apply', '--server-side', '--force-conflicts', '-f', file);
  assert.equal(forced.stdout, 'deployment.apps/web serverside-applied\n', forced.stderr);
  // Besides the controllers' status entry (subresource status), the apply owns all it applied, replicas again.
  const all = await managedFields('deployment/web');
  assert.deepEqual(all.filter((e) => e['subresource'] === 'status').map((e) => e['manager']), ['kube-controller-manager']);
  const entries = all.filter((e) => e['subresource'] !== 'status');
  assert.deepEqual(entries.map((e) => (e as { manager: string }).manager), ['kubectl']);
  assert.deepEqual((entries[0] as { fieldsV1: { 'f:spec': object } }).fieldsV1['f:spec'], {
    'f:replicas': {}, 'f:selector': {},
    'f:template': { 'f:metadata': { 'f:labels': { 'f:app': {} } }, 'f:spec': { 'f:containers': { 'k:{"name":"web"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } },
  });
});

test('kubectl apply, label and create record their managers as Update entries', async () => {
  const file = serve.file('csa.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: csa\ndata:\n  a: "1"\n');
  assert.equal((await kubectl('apply', '-f', file)).code, 0);
  assert.equal((await kubectl('label', 'configmap/csa', 'tier=x')).code, 0);
  assert.equal((await kubectl('create', 'configmap', 'made', '--from-literal=k=v')).code, 0);
  assert.deepEqual(await managedFields('configmap/csa'), [
    {
      apiVersion: 'v1', fieldsType: 'FieldsV1', manager: 'kubectl-client-side-apply', operation: 'Update',
      fieldsV1: { 'f:data': { '.': {}, 'f:a': {} }, 'f:metadata': { 'f:annotations': { '.': {}, 'f:kubectl.kubernetes.io/last-applied-configuration': {} } } },
    },
    { apiVersion: 'v1', fieldsType: 'FieldsV1', manager: 'kubectl-label', operation: 'Update', fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:tier': {} } } } },
  ]);
  assert.deepEqual(await managedFields('configmap/made'), [{ apiVersion: 'v1', fieldsType: 'FieldsV1', manager: 'kubectl-create', operation: 'Update', fieldsV1: { 'f:data': { '.': {}, 'f:k': {} } } }]);
});

test('the objects the controllers create carry kube-controller-manager\'s entry, as kube-apiserver 1.36.3 records it', async () => {
  // Written after the deployment test's apply: its ReplicaSet and pods are the deployment and replicaset controllers'.
  const out = await kubectl('get', 'replicasets,pods', '-l', 'app=web', '-o', 'yaml', '--show-managed-fields');
  assert.equal(out.code, 0, out.stderr);
  type Item = { kind: string; metadata: { ownerReferences?: unknown[]; managedFields: { manager: string; operation: string; fieldsV1: Record<string, Record<string, unknown>> }[] } };
  // Pod x of the first test has app=web too, but no owner: it is kubectl's.
  const items = (parse(out.stdout).items as Item[]).filter((i) => i.metadata.ownerReferences);
  assert.ok(items.some((i) => i.kind === 'ReplicaSet') && items.some((i) => i.kind === 'Pod'));
  for (const item of items) {
    const entry = item.metadata.managedFields.find((e) => e.manager === 'kube-controller-manager');
    assert.ok(entry, `${item.kind} has no kube-controller-manager entry`);
    assert.equal(entry.operation, 'Update');
    assert.deepEqual(Object.keys(entry.fieldsV1['f:metadata'] ?? {}), item.kind === 'Pod' ? ['f:generateName', 'f:labels', 'f:ownerReferences'] : ['f:annotations', 'f:labels', 'f:ownerReferences']);
  }
});
