// The language server over its real JSON-RPC connection (dist/languageServer.js on stdio): initialize, open, change,
// diagnostics, hover, completion, code action, symbols, folding, settings and close.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Published, startServer } from './harness';
import type { CodeAction, CompletionList, CompletionItem, DocumentSymbol, FoldingRange, Hover } from 'vscode-languageserver-types';

const { connection, published } = startServer((p) => {
  if (process.env['DEBUG_LSP']) console.error('PUB', p.uri, JSON.stringify(p.diagnostics.map((d) => [d.code, d.message.slice(0, 60)])));
});

function open(uri: string, text: string): Promise<Published> {
  const p = published(uri);
  connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } });
  return p;
}

const POD = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n    - name: app\n      image: nginx:1.27\n      resources: {requests: {cpu: 100m}}\n      readinessProbe: {tcpSocket: {port: 80}}\n';

test('the server initializes with incremental sync, hover, completion, quick fixes, symbols and folding', async () => {
  const result = await connection.sendRequest<{ capabilities: Record<string, unknown> }>('initialize', {
    processId: process.pid, rootUri: null, capabilities: {}, initializationOptions: { settings: { diagnostics: { hint: { noProbes: false } } } },
  });
  connection.sendNotification('initialized', {});
  const c = result.capabilities;
  assert.deepEqual(c['textDocumentSync'], { openClose: true, change: 2, save: { includeText: false } });
  assert.equal(c['hoverProvider'], true);
  assert.deepEqual(c['codeActionProvider'], { codeActionKinds: ['quickfix'] });
  assert.equal(c['documentSymbolProvider'], true);
  assert.equal(c['foldingRangeProvider'], true);
  assert.ok(c['completionProvider']);
});

const cases: { name: string; text: string; want: { line: number; code: string; message: RegExp }[] }[] = [
  { name: 'a valid Pod has no diagnostics', text: POD, want: [] },
  { name: 'broken YAML in a manifest is reported at its line', text: 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers: [ {name: app\n', want: [{ line: 6, code: 'syntax', message: /./ }] },
  { name: 'a document that is not an object is reported at its line', text: `${POD}---\njust a string\n`, want: [{ line: 11, code: 'syntax', message: /document 1 is a string/ }] },
  { name: 'YAML that is not a Kubernetes manifest is left alone', text: 'name: [unclosed\n', want: [] },
  { name: 'an unknown field gets the strict decoding error on its key', text: POD.replace('image: nginx:1.27', 'image: nginx:1.27\n      imagee: x'), want: [{ line: 8, code: 'decode', message: /^Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec\.containers\[0\]\.imagee"$/ }] },
];
for (const [i, c] of cases.entries()) {
  test(`language server: ${c.name}`, async () => {
    const p = await open(`file:///case-${i}.yaml`, c.text);
    assert.deepEqual(p.diagnostics.map((d) => ({ line: d.range.start.line, code: d.code })), c.want.map((w) => ({ line: w.line, code: w.code })));
    p.diagnostics.forEach((d, k) => {
      assert.equal(d.source, 'pod-lifecycle');
      assert.match(d.message, c.want[k]!.message);
    });
  });
}

test('language server: a change is validated again and its diagnostics carry the new version', async () => {
  const uri = 'file:///change.yaml';
  await open(uri, POD);
  const next = published(uri, (p) => p.version === 2);
  connection.sendNotification('textDocument/didChange', {
    textDocument: { uri, version: 2 },
    contentChanges: [{ range: { start: { line: 7, character: 13 }, end: { line: 7, character: 23 } }, text: 'nginx:latest' }],
  });
  const p = await next;
  assert.deepEqual(p.diagnostics.map((d) => [d.code, d.range.start.line, d.range.start.character]), [['hint.latestTag', 7, 13]]);
});

test('language server: hover, completion, quick fix, symbols and folding answer over the connection', async () => {
  const uri = 'file:///features.yaml';
  const text = POD.replace('image: nginx:1.27', 'image: nginx:1.27\n      imagePulPolicy: Always');
  const { diagnostics } = await open(uri, text);
  const hover = await connection.sendRequest<Hover>('textDocument/hover', { textDocument: { uri }, position: { line: 6, character: 8 } });
  assert.match((hover.contents as { value: string }).value, /^\*\*name\*\* `string` — required/);
  const completion = await connection.sendRequest<CompletionItem[] | CompletionList>('textDocument/completion', { textDocument: { uri }, position: { line: 8, character: 8 } });
  const labels = (Array.isArray(completion) ? completion : completion.items).map((i) => i.label);
  assert.ok(labels.includes('imagePullPolicy') && labels.includes('livenessProbe'), JSON.stringify(labels));
  const actions = await connection.sendRequest<CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range: diagnostics[0]!.range, context: { diagnostics } });
  assert.deepEqual(actions.map((a) => [a.title, a.kind, a.edit?.changes?.[uri]]), [['Rename "imagePulPolicy" to "imagePullPolicy"', 'quickfix', [{ range: { start: { line: 8, character: 6 }, end: { line: 8, character: 20 } }, newText: 'imagePullPolicy' }]]]);
  const symbols = await connection.sendRequest<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri } });
  assert.deepEqual(symbols.map((s) => [s.name, s.children?.map((c) => c.name)]), [['Pod web', ['app']]]);
  const folding = await connection.sendRequest<FoldingRange[]>('textDocument/foldingRange', { textDocument: { uri } });
  assert.ok(folding.some((r) => r.startLine === 0 && r.endLine === 10), JSON.stringify(folding));
});

test('language server: a rule switched on in the settings re-validates the open documents', async () => {
  const uri = 'file:///settings.yaml';
  const text = POD.replace('      readinessProbe: {tcpSocket: {port: 80}}\n', '');
  assert.deepEqual((await open(uri, text)).diagnostics, []);
  const next = published(uri, (p) => p.diagnostics.length > 0);
  connection.sendNotification('workspace/didChangeConfiguration', { settings: { podLifecycle: { diagnostics: { hint: { noProbes: true } } } } });
  assert.deepEqual((await next).diagnostics.map((d) => d.code), ['hint.noProbes']);
});

test('language server: the cluster\'s warnings follow the first diagnostics in a second publish', async () => {
  const uri = 'file:///two-stages.yaml';
  const text = POD.replace('spec:\n', 'spec:\n  nodeSelector: {disk: ssd}\n');
  const complete = published(uri, (p) => p.diagnostics.some((d) => d.code === 'scheduling'));
  const first = await open(uri, text);
  assert.deepEqual(first.diagnostics, [], 'nothing that needs no run on the cluster');
  const p = await complete;
  // One warning, on the nodeSelector; the spec without tolerations is its related place, in the same document.
  assert.deepEqual(p.diagnostics.map((d) => [d.code, d.severity, d.range.start.line]), [['scheduling', 2, 5]]);
  assert.deepEqual(p.diagnostics[0]!.relatedInformation?.map((r) => [r.location.uri, r.location.range.start.line]), [[uri, 4]]);
  assert.match(p.diagnostics[0]!.message, /^0\/3 nodes are available: .*\n\(the pod would stay Pending: no node fits it at scheduler\.filter\)$/s);
});

test('language server: a cluster file from the settings is read again when it is saved', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pod-lifecycle-cluster-'));
  const cluster = join(dir, 'cluster.yaml');
  writeFileSync(cluster, 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: prod\n');
  const uri = 'file:///in-dev.yaml';
  const text = POD.replace('  name: web\n', '  name: web\n  namespace: dev\n');
  const missing = published(uri, (p) => p.diagnostics.some((d) => d.code === 'admission'));
  connection.sendNotification('workspace/didChangeConfiguration', { settings: { podLifecycle: { cluster, diagnostics: { hint: { noProbes: false } } } } });
  connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } });
  assert.match((await missing).diagnostics.find((d) => d.code === 'admission')!.message, /^namespaces "dev" not found\n/);
  // The editor has the cluster file open (it is YAML too), edits it and saves it.
  const clusterUri = `file://${cluster}`;
  connection.sendNotification('textDocument/didOpen', { textDocument: { uri: clusterUri, languageId: 'yaml', version: 1, text: readFileSync(cluster, 'utf8') } });
  writeFileSync(cluster, 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: dev\n');
  const found = published(uri, (p) => p.diagnostics.some((d) => d.code === 'scheduling') && !p.diagnostics.some((d) => d.code === 'admission'));
  connection.sendNotification('textDocument/didSave', { textDocument: { uri: clusterUri } });
  // The cluster file names no Node: the pod is admitted now, and no node can take it.
  assert.match((await found).diagnostics.find((d) => d.code === 'scheduling')!.message, /^no nodes available to schedule pods/);
  connection.sendNotification('workspace/didChangeConfiguration', { settings: { podLifecycle: { diagnostics: { hint: { noProbes: false } } } } });
});

test('language server: closing a document clears its diagnostics', async () => {
  const uri = 'file:///close.yaml';
  const complete = published(uri, (p) => p.diagnostics.length > 0);
  await open(uri, POD.replace('nginx:1.27', 'nginx'));
  await complete;
  const cleared = published(uri, (p) => p.diagnostics.length === 0);
  connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
  assert.deepEqual((await cleared).diagnostics, []);
});
