// The language server over its real JSON-RPC connection with a large file: requests are answered while the cluster's
// diagnostics are still computing, a newer version supersedes older work, and a closed document leaves nothing
// behind. No sleeps and no clocks: each step waits for the server's message that says it happened.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type Published, startServer } from './harness';
import type { Hover } from 'vscode-languageserver-types';

interface ServerState { documents: number; validation: { runsIn: string; documents: number; validating: number } }

/** log is every message the server sent, in order: publishes and the answers this file waited for. */
const log: ({ kind: 'published' } & Published | { kind: 'answered'; what: string })[] = [];
const { connection, published } = startServer((p) => log.push({ kind: 'published', ...p }), true);

/** request sends a request and logs its answer where it came among the publishes. */
async function request<T>(method: string, params: unknown, what: string): Promise<T> {
  const answer = await connection.sendRequest<T>(method, params);
  log.push({ kind: 'answered', what });
  return answer;
}

const state = (): Promise<ServerState> => connection.sendRequest<ServerState>('podLifecycle/state');

/** unschedulablePod is a complete Pod no node of the embedded cluster fits (no node has the label disk=ssd). */
function unschedulablePod(name: string): string[] {
  return [
    'apiVersion: v1', 'kind: Pod', 'metadata:', `  name: ${name}`, 'spec:', '  nodeSelector: {disk: ssd}', '  containers:', '    - name: app',
    '      image: nginx:1.27', '      resources: {requests: {cpu: 100m}}', '      readinessProbe: {tcpSocket: {port: 80}}',
  ];
}

/** largeFile is a file of so many such pods that running them all on the cluster takes far longer than a request. */
function largeFile(pods: number): string {
  return `${Array.from({ length: pods }, (_, i) => unschedulablePod(`web-${i}`).join('\n')).join('\n---\n')}\n`;
}

const LARGE = largeFile(1500);
const hasScheduling = (p: Published): boolean => p.diagnostics.some((d) => d.code === 'scheduling');

/** openLarge opens the large file and waits for its first publish: no scheduling warning yet, the cluster's runs under way. */
async function openLarge(uri: string): Promise<Published> {
  const first = published(uri);
  connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text: LARGE } });
  const p = await first;
  assert.equal(hasScheduling(p), false, 'the first publish has only what needs no run on the cluster');
  return p;
}

function close(uri: string): Promise<Published> {
  const cleared = published(uri, (p) => p.diagnostics.length === 0);
  connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
  return cleared;
}

test('the server initializes', async () => {
  await connection.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: {} });
  connection.sendNotification('initialized', {});
  assert.deepEqual(await state(), { documents: 0, validation: { runsIn: 'none', documents: 0, validating: 0 } });
});

const requestCases: { name: string; method: string; position: { line: number; character: number }; want: (answer: unknown) => void }[] = [
  {
    name: 'a hover', method: 'textDocument/hover', position: { line: 12 * 700 + 7, character: 8 },
    want: (answer) => assert.match(((answer as Hover).contents as { value: string }).value, /^\*\*name\*\* `string` — required/),
  },
  {
    name: 'a completion', method: 'textDocument/completion', position: { line: 12 * 1400 + 8, character: 6 },
    want: (answer) => assert.ok((answer as { label: string }[]).some((i) => i.label === 'imagePullPolicy'), JSON.stringify(answer).slice(0, 200)),
  },
];
for (const [i, c] of requestCases.entries()) {
  test(`language server: ${c.name} is answered while the cluster's diagnostics of a large file are still computing`, async () => {
    const uri = `file:///large-request-${i}.yaml`;
    await openLarge(uri);
    const answer = await request<unknown>(c.method, { textDocument: { uri }, position: c.position }, c.name);
    c.want(answer);
    const mine = log.filter((e) => e.kind === 'answered' || e.uri === uri);
    assert.equal(mine.at(-1)?.kind, 'answered');
    assert.ok(!mine.some((e) => e.kind === 'published' && hasScheduling(e)), 'answered before the cluster\'s diagnostics came');
    await close(uri);
  });
}

test('language server: a newer version cancels the work on the older one, whose diagnostics never come after', async () => {
  const uri = 'file:///large-changed.yaml';
  await openLarge(uri);
  const newest = published(uri, (p) => p.version === 2 && hasScheduling(p));
  connection.sendNotification('textDocument/didChange', {
    textDocument: { uri, version: 2 }, contentChanges: [{ text: `${unschedulablePod('only').join('\n')}\n` }],
  });
  const p = await newest;
  assert.deepEqual(p.diagnostics.map((d) => [d.code, d.range.start.line]), [['scheduling', 5]]);
  // The state is answered after every message sent before it: the version 1 work is no longer under way.
  assert.deepEqual((await state()).validation, { runsIn: 'worker', documents: 1, validating: 0 });
  const mine = log.filter((e) => e.kind === 'published' && e.uri === uri) as Published[];
  const firstOfNewest = mine.findIndex((e) => e.version === 2);
  assert.deepEqual(mine.slice(firstOfNewest).map((e) => e.version), mine.slice(firstOfNewest).map(() => 2));
  assert.ok(!mine.some((e) => e.version === 1 && hasScheduling(e)), 'the older version\'s cluster diagnostics were never published');
  await close(uri);
});

test('language server: closing a document while it is validated clears its diagnostics and drops all state', async () => {
  const uri = 'file:///large-closed.yaml';
  await openLarge(uri);
  // A hover makes the server's own thread read the document too.
  assert.ok(await request<Hover | null>('textDocument/hover', { textDocument: { uri }, position: { line: 7, character: 8 } }, 'hover on the open document'));
  assert.deepEqual(await state(), { documents: 1, validation: { runsIn: 'worker', documents: 1, validating: 1 } });
  assert.deepEqual((await close(uri)).diagnostics, []);
  // The worker has dropped the document and its work (it stops itself a while after the last document closed).
  assert.deepEqual(await state(), { documents: 0, validation: { runsIn: 'worker', documents: 0, validating: 0 } });
  assert.equal(await request<Hover | null>('textDocument/hover', { textDocument: { uri }, position: { line: 7, character: 8 } }, 'hover on the closed document'), null);
});
