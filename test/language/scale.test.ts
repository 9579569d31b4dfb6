// What keeps the diagnostics of a large file bounded: sections parsed only when read, a workload run on the cluster
// by its first pod and for a bounded number of steps, a context without the data only running pods read, and the
// same diagnostics in the same order whatever was reused from an earlier validation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { checkCluster, loadCluster, checkOnCluster } from '../../src/language/diagnostics/cluster';
import { clusterContext } from '../../src/language/diagnostics/context';
import { SectionCache, splitSections } from '../../src/language/documents';
import { LanguageService } from '../../src/language/service';
import { parseDocuments } from '../../src/engine/cluster/loader';

const read = (path: string): string => readFileSync(path, 'utf8');

/** deployment builds a Deployment of some replicas whose pods ask for a node label no node has. */
function deployment(name: string, replicas: number, extra: string[] = []): string {
  return [
    'apiVersion: apps/v1', 'kind: Deployment', 'metadata:', `  name: ${name}`, 'spec:', `  replicas: ${replicas}`, '  selector: {matchLabels: {app: web}}',
    '  template:', '    metadata: {labels: {app: web}}', '    spec:', '      nodeSelector: {disk: ssd}', '      containers:', '        - name: app',
    '          image: nginx:1.27', '          resources: {requests: {cpu: 100m}}', '          readinessProbe: {tcpSocket: {port: 80}}', ...extra, '',
  ].join('\n');
}

const splitCases: { name: string; text: string; want: { startLine: number; endLine: number; text: string }[] }[] = [
  { name: 'a file without markers is one section', text: 'a: 1\nb: 2\n', want: [{ startLine: 0, endLine: 3, text: 'a: 1\nb: 2\n' }] },
  { name: 'a leading marker starts the first section on the next line', text: '---\na: 1\n', want: [{ startLine: 1, endLine: 3, text: 'a: 1\n' }] },
  {
    name: 'markers with a comment or an end marker cut too, empty sections are dropped', text: 'a: 1\n--- # two\nb: 2\n...\n---\nc: 3',
    want: [{ startLine: 0, endLine: 1, text: 'a: 1' }, { startLine: 2, endLine: 3, text: 'b: 2' }, { startLine: 5, endLine: 6, text: 'c: 3' }],
  },
  { name: 'a line that only starts with dashes is no marker', text: 'a: 1\n----\n---x\n', want: [{ startLine: 0, endLine: 4, text: 'a: 1\n----\n---x\n' }] },
  { name: 'an empty file is one empty section', text: '', want: [{ startLine: 0, endLine: 1, text: '' }] },
];
for (const c of splitCases) {
  test(`sections: ${c.name}`, () => {
    assert.deepEqual(splitSections(c.text), c.want);
  });
}

test('sections: nothing is parsed until read, and reading one section parses that one only', () => {
  const sections = new SectionCache().sections(`${deployment('a', 1)}---\n${deployment('b', 1)}`, 'file.yaml');
  assert.deepEqual(sections.map((s) => [s.kubernetes, s.parsed]), [['apps/v1/Deployment', false], ['apps/v1/Deployment', false]]);
  assert.equal(sections[1]!.documents[0]!.fields.get('metadata.name')?.value.start.line, 20);
  assert.deepEqual(sections.map((s) => s.parsed), [false, true]);
});

/**
 * A section read quickly gets its ranges only when something asks for them, at the lines where it stands then: read
 * before or after the edits that move it, in the plain subset of YAML or not (an anchor takes the full reader at once).
 */
const movedCases = [
  { name: 'ranges read after two moves', extra: ['a: 1'], readAt: [2] },
  { name: 'ranges read before the moves and after each', extra: ['a: 1'], readAt: [0, 1, 2] },
  { name: 'ranges read after the first move only, then moved again', extra: ['a: 1'], readAt: [1] },
  { name: 'an anchor (read fully at once), ranges read after two moves', extra: ['a: &x 1', 'b: *x'], readAt: [2] },
];
for (const c of movedCases) {
  test(`sections: ${c.name} are at the section's current lines`, () => {
    const cache = new SectionCache();
    const second = ['apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: b', 'data:', ...c.extra.map((l) => `  ${l}`), ''].join('\n');
    for (const [step, notes] of [0, 2, 5].entries()) {
      const text = `${['apiVersion: v1', 'kind: ConfigMap', 'metadata: {name: a}', ...Array.from({ length: notes }, (_, i) => `# note ${i}`)].join('\n')}\n---\n${second}`;
      const doc = cache.sections(text, 'file.yaml')[1]!.documents[0]!;
      assert.equal((doc.object.metadata as { name?: string }).name, 'b');
      if (!c.readAt.includes(step)) continue;
      assert.equal(doc.fields.get('metadata.name')?.value.start.line, 7 + notes, `step ${step}`);
      assert.equal(doc.range.start.line, 4 + notes, `step ${step}`);
    }
  });
}

const replicaCases = [1, 3, 100_000].map((replicas) => ({ name: `a Deployment of ${replicas} replica(s) is checked by its first pod`, replicas }));
for (const c of replicaCases) {
  test(`cluster check: ${c.name}`, () => {
    const service = new LanguageService(read);
    service.update('file:///replicas.yaml', 1, deployment('web', c.replicas));
    const got = service.validate('file:///replicas.yaml') ?? [];
    assert.deepEqual(got.map((d) => [d.code, d.severity, d.range.start.line, d.message.split('\n')[0]!.replace(/:.*/, '')]), [
      ['scheduling', 2, 10, '0/3 nodes are available'],
    ]);
  });
}

test('cluster check: a check cut short by its step budget says so on the workload\'s name', () => {
  const loaded = loadCluster([], read);
  assert.ok(!('error' in loaded));
  const [doc] = parseDocuments(deployment('web', 1), 'file.yaml');
  const findings = checkOnCluster(doc!, checkCluster([], loaded), 10);
  assert.deepEqual(findings.map((f) => [f.rule, f.severity, f.range.start.line, f.range.start.character]), [['scheduling', 3, 3, 8]]);
  assert.match(findings[0]!.message, /^The check on the cluster stopped after 10 steps, before the first pod was scheduled/);
});

const contextCases: { name: string; kinds: string[]; want: string[] }[] = [
  { name: 'namespaces, service accounts and quotas are in the context; ConfigMaps, Secrets and Services are not', kinds: ['Namespace', 'ConfigMap', 'ServiceAccount', 'Secret', 'Service', 'ResourceQuota', 'Pod'], want: ['Namespace', 'ServiceAccount', 'ResourceQuota'] },
  { name: 'with a webhook configured, every document but the workloads is in the context', kinds: ['ValidatingWebhookConfiguration', 'Service', 'ConfigMap', 'Deployment'], want: ['ValidatingWebhookConfiguration', 'Service', 'ConfigMap'] },
];
for (const c of contextCases) {
  test(`cluster context: ${c.name}`, () => {
    const loaded = loadCluster([], read);
    assert.ok(!('error' in loaded));
    const docs = c.kinds.map((kind, index) => ({ file: 'f.yaml', index, object: { apiVersion: 'v1', kind, metadata: { name: `x${index}` } }, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, fields: new Map() }));
    assert.deepEqual(clusterContext(docs, loaded.cluster).map((d) => d.object.kind), c.want);
  });
}

test('diagnostics: the complete set is the same, in the same order, whether the cluster\'s findings were reused or run again', () => {
  const text = (name: string): string => [deployment('a', 1), deployment(name, 2), deployment('c', 1, ['          imagePullPolicy: Always'])].join('---\n');
  const warm = new LanguageService(read);
  warm.update('file:///order.yaml', 1, text('b'));
  warm.validate('file:///order.yaml');
  warm.update('file:///order.yaml', 2, text('b2'));
  const reused = warm.validate('file:///order.yaml');
  const fresh = new LanguageService(read);
  fresh.update('file:///order.yaml', 1, text('b2'));
  assert.deepEqual(reused, fresh.validate('file:///order.yaml'));
  assert.deepEqual(reused?.map((d) => d.range.start.line), [10, 27, 44]);
});
