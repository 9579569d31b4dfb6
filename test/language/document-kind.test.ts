// What a YAML file is to the extension: a Kubernetes manifest, an input of a run, or other YAML (a CI workflow),
// as the pure classification reads it and as the server tells the client over JSON-RPC when a file's kind changes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { documentKind } from '../../src/language/document-kind';
import { DOCUMENT_KIND_NOTIFICATION, type DocumentKind, type DocumentKindParams } from '../../src/language/protocol';
import { startServer } from './harness';

const CI = 'name: ci\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: npm test\n';
const POD = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n    - name: app\n      image: nginx:1.27\n';

const cases: { name: string; text: string; want: DocumentKind }[] = [
  { name: 'a Pod is a manifest', text: POD, want: 'manifest' },
  { name: 'a Deployment of apps/v1 is a manifest', text: POD.replace('apiVersion: v1\nkind: Pod', 'apiVersion: apps/v1\nkind: Deployment'), want: 'manifest' },
  { name: 'a kind the engine only stores (a HorizontalPodAutoscaler) is a manifest too', text: 'apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: web\n', want: 'manifest' },
  { name: 'an object of a k8s.io group at a beta version is a manifest', text: 'apiVersion: resource.k8s.io/v1beta1\nkind: DeviceClass\n', want: 'manifest' },
  { name: 'a kind: List (kubectl get -o yaml) is a manifest', text: 'apiVersion: v1\nkind: List\nitems: []\n', want: 'manifest' },
  { name: 'a manifest after another document is still a manifest', text: `foo: bar\n---\n${POD}`, want: 'manifest' },
  { name: 'a CI workflow is other YAML', text: CI, want: 'other' },
  { name: 'a Helm Chart.yaml (apiVersion without kind) is other YAML', text: 'apiVersion: v2\nname: web\nversion: 0.1.0\n', want: 'other' },
  { name: 'a custom resource of another group is not a Kubernetes manifest', text: 'apiVersion: example.com/v1\nkind: Widget\n', want: 'other' },
  { name: 'an empty file is other YAML', text: '', want: 'other' },
  { name: 'a Behavior is an input of a run', text: 'apiVersion: podlifecycle.debug/v1alpha1\nkind: Behavior\n', want: 'input' },
  { name: 'a KubeSchedulerConfiguration is an input of a run', text: 'apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n', want: 'input' },
  { name: 'nested apiVersion and kind keys do not make a manifest', text: 'spec:\n  apiVersion: v1\n  kind: Pod\n', want: 'other' },
];

for (const c of cases) test(`document kind: ${c.name}`, () => assert.equal(documentKind(c.text), c.want));

test('the server tells the client each file\'s kind once, and again when an edit changes it', async () => {
  const { connection } = startServer();
  const told: DocumentKindParams[] = [];
  const waiters: { uri: string; resolve: (p: DocumentKindParams) => void }[] = [];
  connection.onNotification(DOCUMENT_KIND_NOTIFICATION, (p: DocumentKindParams) => {
    told.push(p);
    const w = waiters.findIndex((x) => x.uri === p.uri);
    if (w >= 0) waiters.splice(w, 1)[0]!.resolve(p);
  });
  const next = (uri: string) => new Promise<DocumentKindParams>((resolve) => waiters.push({ uri, resolve }));
  await connection.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: {} });
  connection.sendNotification('initialized', {});
  const open = (uri: string, text: string) => connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } });
  const ci = next('file:///ci.yml');
  open('file:///ci.yml', CI);
  assert.deepEqual(await ci, { uri: 'file:///ci.yml', kind: 'other' });
  const pod = next('file:///pod.yaml');
  open('file:///pod.yaml', POD);
  assert.deepEqual(await pod, { uri: 'file:///pod.yaml', kind: 'manifest' });
  // An edit that keeps the kind says nothing; one that changes it says so.
  const diagnosed = new Promise<void>((resolve) => connection.onNotification('textDocument/publishDiagnostics', (p: { uri: string; version?: number }) => {
    if (p.uri === 'file:///pod.yaml' && p.version === 2) resolve();
  }));
  connection.sendNotification('textDocument/didChange', { textDocument: { uri: 'file:///pod.yaml', version: 2 }, contentChanges: [{ text: POD.replace('web', 'web2') }] });
  await diagnosed;
  const changed = next('file:///pod.yaml');
  connection.sendNotification('textDocument/didChange', { textDocument: { uri: 'file:///pod.yaml', version: 3 }, contentChanges: [{ text: CI }] });
  assert.deepEqual(await changed, { uri: 'file:///pod.yaml', kind: 'other' });
  assert.deepEqual(told.filter((t) => t.uri === 'file:///pod.yaml').map((t) => t.kind), ['manifest', 'other']);
});
