// A file's checks on the cluster split across validators (one per CPU in the server): each runs its share of the
// workloads, and their parts put together are exactly what one validator finds, in the same order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Diagnostic } from 'vscode-languageserver-types';
import { type Checked, flatten, mergeParts, shareOfSection } from '../../src/language/diagnostics/parts';
import type { FromWorker } from '../../src/language/diagnostics/protocol';
import { Validator } from '../../src/language/diagnostics/validator';

const read = (path: string) => readFileSync(path, 'utf8');

/**
 * file is a mix of workloads that fit, workloads no node fits, a misspelt field and documents not run on the cluster;
 * `extra` documents come first (a namespace the workloads are in, an admission policy that reads anything).
 */
function file(workloads: number, extra: readonly string[] = []): string {
  const docs: string[] = [...extra];
  const namespace = extra.some((d) => d.includes('kind: Namespace')) ? '  namespace: team\n' : '';
  for (let i = 0; i < workloads; i++) {
    const selector = i % 3 === 0 ? '  nodeSelector: {disk: ssd}\n' : '';
    const typo = i % 5 === 1 ? '    imagePulPolicy: Always\n' : '';
    docs.push(`apiVersion: v1\nkind: Pod\nmetadata:\n  name: web-${i}\n${namespace}spec:\n${selector}  containers:\n  - name: app\n    image: nginx:1.27\n${typo}    resources: {requests: {cpu: 100m}}\n`);
    if (i % 4 === 0) docs.push(`apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-${i}\n${namespace}data: {a: b}\n`);
    if (i % 6 === 2) docs.push(`apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: api-${i}\n${namespace}spec:\n  replicas: 2\n  selector: {matchLabels: {app: api-${i}}}\n  template:\n    metadata: {labels: {app: api-${i}}}\n    spec:\n      containers: [{name: api, image: nginx:1.27}]\n`);
  }
  return docs.join('---\n');
}

const NAMESPACE = 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team\n  labels: {pod-security.kubernetes.io/enforce: restricted}\n';
const POLICY = [
  'apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata:\n  name: no-ssd\nspec:\n  failurePolicy: Fail\n'
  + '  matchConstraints:\n    resourceRules: [{apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}]\n'
  + '  validations: [{expression: "!has(object.spec.nodeSelector)", message: no node selectors}]\n',
  'apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\nmetadata:\n  name: no-ssd\nspec:\n  policyName: no-ssd\n  validationActions: [Deny]\n',
];

/** validate runs one Validator on a text, whole or as one share of `of`, and returns its complete answer. */
function validate(text: string, share?: { index: number; of: number }): Promise<FromWorker> {
  return new Promise((resolve) => {
    const validator = new Validator(read, (m) => {
      if (m.type === 'parts' || (m.type === 'diagnostics' && m.complete)) resolve(m);
    }, (message) => assert.fail(message));
    validator.handle({ type: 'validate', id: 1, uri: 'file:///split.yaml', version: 1, text, ...(share ? { share } : {}) });
  });
}

const cases: { name: string; workloads: number; of: number; extra?: string[]; expect?: string }[] = [
  { name: 'no workload', workloads: 0, of: 2 },
  { name: 'one workload', workloads: 1, of: 2 },
  { name: 'twelve workloads over two validators', workloads: 12, of: 2 },
  { name: 'twelve workloads over three validators', workloads: 12, of: 3 },
  { name: 'workloads in a namespace of the file (the context every share reads)', workloads: 12, of: 2, extra: [NAMESPACE], expect: 'violates PodSecurity "restricted:latest"' },
  { name: 'workloads under an admission policy of the file (every share reads every section)', workloads: 12, of: 2, extra: POLICY },
];

for (const c of cases) {
  test(`parts: ${c.name} give what one validator gives`, async () => {
    const text = file(c.workloads, c.extra);
    const whole = await validate(text);
    assert.equal(whole.type, 'diagnostics');
    const answers = await Promise.all(Array.from({ length: c.of }, (_, index) => validate(text, { index, of: c.of })));
    const parts = answers.map((a) => (a.type === 'parts' ? a.checked : assert.fail(`a share answers with parts, not ${a.type}`)));
    const merged = mergeParts(parts);
    assert.ok(merged, 'every workload has its part');
    assert.deepEqual(flatten(merged), (whole as { diagnostics: Diagnostic[] }).diagnostics);
    // The context is read by every share: what it refuses is found in each share's workloads.
    if (c.expect) {
      for (const p of parts) assert.ok(p.cluster.some((d) => d?.some((x) => x.message.includes(c.expect!))), `a share without "${c.expect}": ${JSON.stringify(p.cluster)}`);
    }
    // The first share lists every workload; each is run on the cluster (a misspelt one too, without the field the API
    // server does not know) by exactly one share.
    const wholes = parts.filter((p) => p.whole);
    assert.equal(wholes.length, 1);
    const keys = wholes[0]!.keys;
    assert.equal(keys.length, c.workloads + Math.floor((c.workloads + 3) / 6));
    for (const key of keys) assert.equal(parts.filter((p) => p.cluster[p.keys.indexOf(key)]).length, 1, `workload ${key}`);
    // A later share lists only the workloads of the sections it read: its own, and with an admission policy no others.
    for (const p of parts.filter((q) => !q.whole)) assert.ok(p.cluster.every((d) => d !== null), 'a later share reads only its own workloads');
  });
}

test('parts: parts missing a workload are not put together', () => {
  const part = (cluster: (Diagnostic[] | null)[], keys: string[], whole: boolean): Checked => ({ base: [], cluster, keys, whole });
  assert.equal(mergeParts([part([[], null], ['0/0', '1/0'], true), part([], [], false)]), undefined);
  assert.deepEqual(mergeParts([part([], ['1/0'].slice(1), false), part([[], null], ['0/0', '1/0'], true), part([[]], ['1/0'], false)]), { base: [], cluster: [[], []], keys: ['0/0', '1/0'], whole: true });
  assert.equal(mergeParts([part([[]], ['0/0'], false)]), undefined, 'no part read the whole file');
  assert.equal(mergeParts([]), undefined);
});

test('parts: a workload\'s share follows its section\'s text, not its place in the file, and the first share takes fewer', () => {
  const text = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web-7\n';
  for (const of of [1, 2, 3]) {
    const share = shareOfSection(text, of);
    assert.ok(share >= 0 && share < of);
    assert.equal(shareOfSection(text, of), share);
  }
  const counts = [0, 0];
  for (let i = 0; i < 1000; i++) counts[shareOfSection(`apiVersion: v1\nkind: Pod\nmetadata:\n  name: web-${i}\n`, 2)]!++;
  assert.ok(counts[0]! > 250 && counts[0]! < 500 && counts[1]! > 500, `shares of 1000 sections: ${counts.join(', ')}`);
});

test('parts: the first share sends the early diagnostics first whichever share runs the workloads', async () => {
  for (let i = 0; i < 6; i++) {
    const text = `apiVersion: v1\nkind: Pod\nmetadata:\n  name: web-${i}\nspec:\n  nodeSelector: {disk: ssd}\n  containers:\n  - name: app\n    image: nginx:1.27\n`;
    const order: string[] = [];
    await new Promise<void>((resolve) => {
      const validator = new Validator(read, (m) => {
        order.push(m.type);
        if (m.type === 'parts') resolve();
      }, (message) => assert.fail(message));
      validator.handle({ type: 'validate', id: 1, uri: 'file:///early.yaml', version: 1, text, share: { index: 0, of: 2 } });
    });
    assert.deepEqual(order, ['diagnostics', 'parts'], `web-${i} (share ${shareOfSection(text, 2)})`);
  }
});
