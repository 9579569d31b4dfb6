// The Validator the diagnostics worker runs (and the server itself when no worker can start), driven by its
// messages: each document's early and complete diagnostics, superseded by a newer version, dropped on close.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { FromWorker } from '../../src/language/diagnostics/protocol';
import { Validator } from '../../src/language/diagnostics/validator';

/** pod is a complete Pod no node of the embedded cluster fits. */
function pod(name: string): string {
  return ['apiVersion: v1', 'kind: Pod', 'metadata:', `  name: ${name}`, 'spec:', '  nodeSelector: {disk: ssd}', '  containers:', '    - name: app',
    '      image: nginx:1.27', '      resources: {requests: {cpu: 100m}}', '      readinessProbe: {tcpSocket: {port: 80}}', ''].join('\n');
}

/** harness runs a Validator and lets a test wait for the first report that passes a check. */
function harness(): { validator: Validator; reports: FromWorker[]; next: (accept: (m: FromWorker) => boolean) => Promise<FromWorker> } {
  const reports: FromWorker[] = [];
  const waiting: { accept: (m: FromWorker) => boolean; resolve: (m: FromWorker) => void }[] = [];
  const validator = new Validator((path) => readFileSync(path, 'utf8'), (m) => {
    reports.push(m);
    const i = waiting.findIndex((w) => w.accept(m));
    if (i >= 0) waiting.splice(i, 1)[0]!.resolve(m);
  }, (message) => assert.fail(message));
  return { validator, reports, next: (accept) => new Promise((resolve) => waiting.push({ accept, resolve })) };
}

const LARGE = Array.from({ length: 400 }, (_, i) => pod(`web-${i}`)).join('---\n');

test('validator: the early diagnostics come first, then the complete set with the cluster\'s', async () => {
  const { validator, next } = harness();
  const early = next((m) => m.type === 'diagnostics' && !m.complete);
  const complete = next((m) => m.type === 'diagnostics' && m.complete);
  validator.handle({ type: 'validate', id: 1, uri: 'file:///two.yaml', version: 1, text: pod('web') });
  assert.deepEqual(await early, { type: 'diagnostics', id: 1, uri: 'file:///two.yaml', version: 1, diagnostics: [], complete: false });
  const got = await complete;
  assert.deepEqual(got.type === 'diagnostics' && got.diagnostics.map((d) => [d.code, d.range.start.line]), [['scheduling', 5]]);
});

test('validator: a newer version supersedes the older one, which reports nothing more', async () => {
  const { validator, reports, next } = harness();
  const uri = 'file:///superseded.yaml';
  const early = next((m) => m.type === 'diagnostics' && m.id === 1);
  validator.handle({ type: 'validate', id: 1, uri, version: 1, text: LARGE });
  await early;
  const newest = next((m) => m.type === 'diagnostics' && m.id === 2 && m.complete);
  validator.handle({ type: 'validate', id: 2, uri, version: 2, text: pod('only') });
  await newest;
  const state = next((m) => m.type === 'state');
  validator.handle({ type: 'state', id: 3 });
  assert.deepEqual(await state, { type: 'state', id: 3, state: { documents: 1, validating: 0 } });
  assert.deepEqual(reports.filter((m) => m.type === 'diagnostics').map((m) => m.type === 'diagnostics' && [m.id, m.complete]), [[1, false], [2, false], [2, true]]);
});

test('validator: closing a document under validation cancels it and drops it', async () => {
  const { validator, reports, next } = harness();
  const uri = 'file:///closed.yaml';
  const early = next((m) => m.type === 'diagnostics');
  validator.handle({ type: 'validate', id: 1, uri, version: 1, text: LARGE });
  await early;
  validator.handle({ type: 'close', uri });
  const state = next((m) => m.type === 'state');
  validator.handle({ type: 'state', id: 2 });
  assert.deepEqual(await state, { type: 'state', id: 2, state: { documents: 0, validating: 0 } });
  assert.deepEqual(reports.filter((m) => m.type === 'diagnostics' && m.complete), []);
});
