// A file's checks on the cluster split across validators (one per CPU in the server): each runs its share of the
// workloads, and their parts put together are exactly what one validator finds, in the same order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Diagnostic } from 'vscode-languageserver-types';
import { type Checked, flatten, inShare, mergeParts } from '../../src/language/diagnostics/parts';
import type { FromWorker } from '../../src/language/diagnostics/protocol';
import { Validator } from '../../src/language/diagnostics/validator';
import { parseDocuments } from '../../src/engine/cluster/loader';

const read = (path: string) => readFileSync(path, 'utf8');

/** file is a mix of workloads that fit, workloads no node fits, a misspelt field and documents not run on the cluster. */
function file(workloads: number): string {
  const docs: string[] = [];
  for (let i = 0; i < workloads; i++) {
    const selector = i % 3 === 0 ? '  nodeSelector: {disk: ssd}\n' : '';
    const typo = i % 5 === 1 ? '    imagePulPolicy: Always\n' : '';
    docs.push(`apiVersion: v1\nkind: Pod\nmetadata:\n  name: web-${i}\nspec:\n${selector}  containers:\n  - name: app\n    image: nginx:1.27\n${typo}    resources: {requests: {cpu: 100m}}\n`);
    if (i % 4 === 0) docs.push(`apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-${i}\ndata: {a: b}\n`);
  }
  return docs.join('---\n');
}

/** validate runs one Validator on a text, whole or as one share of `of`, and returns its complete answer. */
function validate(text: string, share?: { index: number; of: number }): Promise<FromWorker> {
  return new Promise((resolve) => {
    const validator = new Validator(read, (m) => {
      if (m.type === 'parts' || (m.type === 'diagnostics' && m.complete)) resolve(m);
    }, (message) => assert.fail(message));
    validator.handle({ type: 'validate', id: 1, uri: 'file:///split.yaml', version: 1, text, ...(share ? { share } : {}) });
  });
}

const cases = [
  { name: 'no workload', workloads: 0, of: 2 },
  { name: 'one workload', workloads: 1, of: 2 },
  { name: 'twelve workloads over two validators', workloads: 12, of: 2 },
  { name: 'twelve workloads over three validators', workloads: 12, of: 3 },
];

for (const c of cases) {
  test(`parts: ${c.name} give what one validator gives`, async () => {
    const text = file(c.workloads);
    const whole = await validate(text);
    assert.equal(whole.type, 'diagnostics');
    const answers = await Promise.all(Array.from({ length: c.of }, (_, index) => validate(text, { index, of: c.of })));
    const parts = answers.map((a) => (a.type === 'parts' ? a.checked : assert.fail(`a share answers with parts, not ${a.type}`)));
    const merged = mergeParts(parts);
    assert.ok(merged, 'every workload has its part');
    assert.deepEqual(flatten(merged), (whole as { diagnostics: Diagnostic[] }).diagnostics);
    // Each workload is run on the cluster (a misspelt one too, without the field the API server does not know) by
    // exactly one share.
    const run = parts[0]!.cluster.length;
    assert.equal(run, c.workloads);
    for (let i = 0; i < run; i++) assert.equal(parts.filter((p) => p.cluster[i] !== null).length, 1, `workload ${i}`);
  });
}

test('parts: parts missing a workload are not put together', () => {
  const part = (cluster: (Diagnostic[] | null)[]): Checked => ({ base: [], cluster });
  assert.equal(mergeParts([part([[], null]), part([null, null])]), undefined);
  assert.deepEqual(mergeParts([part([[], null]), part([null, []])]), { base: [], cluster: [[], []] });
  assert.equal(mergeParts([]), undefined);
});

test('parts: a workload\'s share follows its kind, namespace and name, not its place in the file', () => {
  const [a] = parseDocuments('apiVersion: v1\nkind: Pod\nmetadata:\n  name: web-7\n', 'a.yaml');
  const [b] = parseDocuments('# moved\n\n\napiVersion: v1\nkind: Pod\nmetadata:\n  name: web-7\n', 'b.yaml');
  for (const of of [2, 3]) {
    const shareOf = (doc: typeof a) => [...Array(of).keys()].filter((index) => inShare(doc!, { index, of }));
    assert.equal(shareOf(a).length, 1);
    assert.deepEqual(shareOf(b), shareOf(a));
  }
});
