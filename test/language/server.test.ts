// The language server over its real JSON-RPC connection: diagnostics for manifests the engine cannot load, none otherwise.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';

const SERVER = join(__dirname, '..', '..', '..', 'dist', 'languageServer.js');

interface Diagnostic { range: { start: { line: number; character: number } }; message: string; source: string }
interface Published { uri: string; diagnostics: Diagnostic[] }

const child = spawn(process.execPath, [SERVER, '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
const waiting = new Map<string, (p: Published) => void>();
connection.onNotification('textDocument/publishDiagnostics', (p: Published) => waiting.get(p.uri)?.(p));
connection.listen();

// The server may be gone by the time the last notification is written; that is not a failure of the test.
child.stdin.on('error', () => undefined);
connection.onError(() => undefined);

after(async () => {
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await connection.sendRequest('shutdown');
  connection.sendNotification('exit');
  await exited;
  connection.dispose();
});

function diagnosticsOf(uri: string, text: string): Promise<Published> {
  const published = new Promise<Published>((resolve) => waiting.set(uri, resolve));
  connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } });
  return published;
}

test('the server initializes with incremental document sync', async () => {
  const result = await connection.sendRequest<{ capabilities: { textDocumentSync: number } }>('initialize', { processId: process.pid, rootUri: null, capabilities: {} });
  connection.sendNotification('initialized', {});
  assert.equal(result.capabilities.textDocumentSync, 2);
});

const cases: { name: string; text: string; want: { line: number; message: RegExp } | null }[] = [
  { name: 'a valid Pod has no diagnostics', text: 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n    - name: app\n      image: nginx\n', want: null },
  { name: 'broken YAML in a manifest is reported at its line', text: 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers: [ {name: app\n', want: { line: 6, message: /./ } },
  { name: 'a document that is not an object is reported at its line', text: 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n---\njust a string\n', want: { line: 5, message: /document 2 is a string/ } },
  { name: 'YAML that is not a Kubernetes manifest is left alone', text: 'name: [unclosed\n', want: null },
];
for (const [i, c] of cases.entries()) {
  test(`language server: ${c.name}`, async () => {
    const published = await diagnosticsOf(`file:///case-${i}.yaml`, c.text);
    if (c.want === null) {
      assert.deepEqual(published.diagnostics, []);
      return;
    }
    assert.equal(published.diagnostics.length, 1);
    const d = published.diagnostics[0]!;
    assert.equal(d.source, 'pod-lifecycle');
    assert.ok(Math.abs(d.range.start.line - c.want.line) <= 1, `line ${d.range.start.line} near ${c.want.line}`);
    assert.match(d.message, c.want.message);
  });
}
