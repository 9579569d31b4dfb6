// The language server under a seeded storm: about 3,300 random incremental edits (ranges past the end, garbage, half
// a manifest) mixed with about 1,700 hover, completion, code action, outline and folding requests — a tenth malformed.
// Every request is answered: a result, or InvalidParams for a malformed one; never an internal error. At the end the
// diagnostics of the edited document equal those of the same text opened fresh.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic } from 'vscode-languageserver-types';
import { Random } from '../../src/engine/runtime/random';
import { startServer, type Published } from './harness';

const last = new Map<string, Published>();
const { connection } = startServer((p) => last.set(p.uri, p));

const START = `apiVersion: v1
kind: Pod
metadata:
  name: web
  labels: {app: web}
spec:
  containers:
  - name: app
    image: nginx:1.27
    resources:
      requests: {cpu: 100m, memory: 64Mi}
    ports:
    - containerPort: 80
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
spec:
  replicas: 3
  selector: {matchLabels: {app: api}}
  template:
    metadata: {labels: {app: api}}
    spec:
      containers:
      - name: api
        image: busybox
        command: [sleep, "3600"]
`;

/** SNIPPETS are what the edits insert: YAML pieces, broken syntax, odd characters. */
const SNIPPETS = ['', ' ', '\n', '\n  ', 'name: x', '- ', ': ', '{', '}', '[', '"', "'", '#', '---\n', 'kind: Pod\n', 'replicas: 100000',
  'image: ', 'cpu: abc', '\t', '&a ', '*a', '!!str ', '<<: *a', '\u0000', '\uFFFD', '😀', 'é', '%YAML 1.2\n', '...\n', '? ', '|\n  x', '>-'];

/** REQUESTS are the requests sent between edits; `bad` makes malformed parameters of each. */
const REQUESTS = ['textDocument/hover', 'textDocument/completion', 'textDocument/codeAction', 'textDocument/documentSymbol', 'textDocument/foldingRange'];

function random(seed: number): (n: number) => number {
  const rng = new Random(seed);
  return (n) => rng.intn(n);
}

/** state asks what the server holds; it is answered after every message sent before it. */
const state = () => connection.sendRequest<{ validation: { validating: number } }>('podLifecycle/state');

/** settled waits until the server has validated everything and published the document's version. */
async function settled(uri: string, version: number): Promise<Diagnostic[]> {
  for (;;) {
    const s = await state();
    const p = last.get(uri);
    if (s.validation.validating === 0 && p?.version === version) return p.diagnostics;
  }
}

const strip = (ds: Diagnostic[]) => ds.map((d) => ({ ...d, data: undefined })).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

test('language server: a seeded storm of edits and requests is answered without an internal error, and ends where a fresh open would', async () => {
  const uri = 'file:///fuzz.yaml';
  const rnd = random(20261202);
  let doc = TextDocument.create(uri, 'yaml', 1, START);
  connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text: START } });
  const answers: Promise<void>[] = [];
  const errors: string[] = [];
  for (let step = 0; step < 5000; step++) {
    if (rnd(3) > 0) {
      // An incremental edit, sometimes with a range past the end of the text (the protocol clamps it).
      const lines = doc.lineCount;
      const at = (): { line: number; character: number } => ({ line: rnd(lines + 2), character: rnd(40) });
      const [a, b] = [at(), at()];
      const [start, end] = a.line < b.line || (a.line === b.line && a.character <= b.character) ? [a, b] : [b, a];
      const text = SNIPPETS[rnd(SNIPPETS.length)]!;
      const change = { range: { start, end }, text };
      doc = TextDocument.update(doc, [change], doc.version + 1);
      connection.sendNotification('textDocument/didChange', { textDocument: { uri, version: doc.version }, contentChanges: [change] });
      continue;
    }
    const method = REQUESTS[rnd(REQUESTS.length)]!;
    const bad = rnd(10) === 0;
    const position = { line: rnd(doc.lineCount + 3), character: rnd(60) };
    const params: unknown = bad
      ? [{}, { textDocument: 7 }, { textDocument: { uri }, position: { line: -1, character: 'a' } }, { textDocument: { uri }, context: 5 }, { textDocument: { uri: 3 }, position }][rnd(5)]
      : { textDocument: { uri }, position, range: { start: position, end: position }, context: { diagnostics: last.get(uri)?.diagnostics ?? [] } };
    answers.push(connection.sendRequest(method, params).then(
      () => undefined,
      (err: { code?: number; message?: string }) => {
        // Only a malformed request may fail, and only as InvalidParams.
        if (!bad || err.code !== -32602) errors.push(`${method} ${JSON.stringify(params)?.slice(0, 80)}: ${err.code} ${err.message}`);
      },
    ));
  }
  await Promise.all(answers);
  assert.deepEqual(errors, []);
  const edited = await settled(uri, doc.version);
  const fresh = 'file:///fuzz-fresh.yaml';
  connection.sendNotification('textDocument/didOpen', { textDocument: { uri: fresh, languageId: 'yaml', version: 1, text: doc.getText() } });
  const opened = await settled(fresh, 1);
  assert.deepEqual(strip(edited), strip(opened));
});

test('language server: a code action without a context is answered; requests without their parameters get InvalidParams', async () => {
  const uri = 'file:///no-context.yaml';
  connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text: START } });
  assert.deepEqual(await connection.sendRequest('textDocument/codeAction', { textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } }), []);
  for (const method of REQUESTS) {
    await assert.rejects(connection.sendRequest(method, {}), (err: { code?: number; message?: string }) => err.code === -32602 && err.message === `${method}: "textDocument.uri" must be a string`);
  }
  await assert.rejects(
    connection.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 'x', character: 0 } }),
    (err: { code?: number; message?: string }) => err.code === -32602 && err.message === 'textDocument/hover: "position.line" must be a whole number of 0 or more',
  );
});
