// A file split by sections across validators (one per CPU in the server): each parses and checks its own sections,
// reads the others only when a workload may be checked with their documents, and runs its own workloads; their parts
// put together are exactly what one validator finds, in the same order, early and complete.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Diagnostic } from 'vscode-languageserver-types';
import { DiagnosticsService } from '../../src/language/diagnostics';
import { ADMISSION_CONFIG_KINDS } from '../../src/language/diagnostics/context';
import { loadCluster } from '../../src/language/diagnostics/cluster';
import { mergedComplete, mergedDiagnostics, ownsSection, type SplitChecked } from '../../src/language/diagnostics/split';
import { SectionCache } from '../../src/language/documents';
import { DEFAULT_SETTINGS } from '../../src/language/settings';

const read = (path: string): string => readFileSync(path, 'utf8');

/** pod is a Pod in a namespace; with `ssd` it asks for a node label no node of the embedded cluster has. */
function pod(name: string, { namespace = 'default', ssd = false, extra = [] as string[] } = {}): string {
  return [
    'apiVersion: v1', 'kind: Pod', 'metadata:', `  name: ${name}`, `  namespace: ${namespace}`, 'spec:', ...(ssd ? ['  nodeSelector: {disk: ssd}'] : []),
    '  containers:', '  - name: app', '    image: nginx:1.27', '    resources: {requests: {cpu: 100m, memory: 64Mi}}', ...extra, '',
  ].join('\n');
}

/** deployment is a Deployment of some replicas. */
function deployment(name: string, replicas: number, namespace = 'default'): string {
  return [
    'apiVersion: apps/v1', 'kind: Deployment', 'metadata:', `  name: ${name}`, `  namespace: ${namespace}`, 'spec:', `  replicas: ${replicas}`,
    `  selector: {matchLabels: {app: ${name}}}`, '  template:', `    metadata: {labels: {app: ${name}}}`, '    spec:', '      containers:', '      - name: web',
    '        image: nginx:1.27', '        resources: {requests: {cpu: 100m, memory: 64Mi}, limits: {cpu: 100m, memory: 64Mi}}', '',
  ].join('\n');
}

const configMap = (name: string): string => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata: {a: b}\n`;
const service = (name: string): string => `apiVersion: v1\nkind: Service\nmetadata:\n  name: ${name}\nspec:\n  selector: {app: ${name}}\n  ports: [{port: 80}]\n`;

/** quota is a namespace whose quota takes two pods: the workloads of the file are checked with it. */
const quota = [
  'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team\n',
  'apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: pods\n  namespace: team\nspec:\n  hard: {pods: "2"}\n',
];

/** webhook configures admission: every document but the workloads is then read by every validator. */
const webhook = [
  'apiVersion: admissionregistration.k8s.io/v1', 'kind: ValidatingWebhookConfiguration', 'metadata:', '  name: deny', 'webhooks:', '- name: deny.example.com',
  '  clientConfig: {service: {name: hook, namespace: default}}', '  rules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [pods]}]',
  '  sideEffects: None', '  admissionReviewVersions: [v1]', '',
].join('\n');

const cases: { name: string; docs: string[] }[] = [
  {
    name: 'workloads that fit, workloads no node fits, a misspelt field and data only running pods read',
    docs: Array.from({ length: 12 }, (_, i) => [pod(`web-${i}`, { ssd: i % 3 === 0, extra: i % 5 === 1 ? ['    imagePulPolicy: Always'] : [] }), configMap(`cm-${i}`), service(`svc-${i}`), deployment(`app-${i}`, 1 + (i % 3))]).flat(),
  },
  { name: 'a namespace and its quota are read by every validator for the workloads in it', docs: [...quota, deployment('a', 3, 'team'), pod('b', { namespace: 'team' }), deployment('c', 2, 'team'), pod('d', { namespace: 'team' }), pod('e', { namespace: 'team' })] },
  { name: 'a webhook makes every validator read the services and config maps', docs: [webhook, service('hook'), configMap('x'), pod('a'), pod('b', { ssd: true }), deployment('c', 2)] },
  { name: 'a section that does not parse, one without a kind and a List of pods', docs: ['kind: Pod\nmetadata: [oops\n', 'just: data\n', `apiVersion: v1\nkind: List\nitems:\n- ${pod('in-list', { ssd: true }).split('\n').join('\n  ').trimEnd()}\n`, pod('after'), pod('after')] },
  { name: 'no Kubernetes document at all', docs: ['a: 1\n', 'b: 2\n'] },
];

/** sectionsOf splits a text as the service does, nothing parsed yet. */
const sectionsOf = (text: string) => new SectionCache().sections(text, '/split.yaml');

/** service is a diagnostics service on the embedded cluster. */
function newService(): DiagnosticsService {
  const s = new DiagnosticsService(read);
  s.configure(DEFAULT_SETTINGS);
  return s;
}

for (const c of cases) {
  for (const of of [2, 3]) {
    test(`split: ${c.name}, over ${of} validators, gives what one validator gives, early and complete`, async () => {
      const text = c.docs.join('---\n');
      let wholeEarly: Diagnostic[] | undefined;
      const whole = await newService().validateAsync(sectionsOf(text), undefined, (d) => (wholeEarly ??= d));
      const early: SplitChecked[] = [];
      const parts: SplitChecked[] = [];
      for (let index = 0; index < of; index++) {
        let mine: SplitChecked | undefined;
        const part = await newService().validateSplit(sectionsOf(text), { index, of }, undefined, (p) => (mine ??= p));
        assert.ok(part);
        parts.push(part);
        early.push(mine ?? part);
      }
      assert.deepEqual(mergedComplete(parts), whole);
      if (wholeEarly) assert.deepEqual(mergedDiagnostics(early), wholeEarly);
      // Every section that gives anything is in exactly one validator's parts.
      const indexes = parts.flatMap((p) => p.sections.map((s) => s.index));
      assert.equal(new Set(indexes).size, indexes.length);
    });
  }
}

test('split: a validator parses its own sections and those a workload may be checked with, not the others\' workloads nor their data', async () => {
  const text = [...quota, ...Array.from({ length: 8 }, (_, i) => [pod(`p-${i}`), configMap(`cm-${i}`), deployment(`d-${i}`, 1)]).flat()].join('---\n');
  const split = { index: 0, of: 2 };
  const sections = sectionsOf(text);
  await newService().validateSplit(sections, split);
  const kinds = (s: (typeof sections)[number]) => s.kubernetes?.split('/').pop();
  const others = sections.filter((s) => !ownsSection(s, split));
  assert.deepEqual(others.filter((s) => s.parsed).map(kinds), others.filter((s) => ['Namespace', 'ResourceQuota'].includes(kinds(s) ?? '')).map(kinds));
  assert.ok(sections.filter((s) => ownsSection(s, split)).every((s) => s.parsed), 'its own sections are parsed');
  assert.ok(others.some((s) => !s.parsed), 'the others\' workloads and data are left to the other validator');
});

test('split: the embedded cluster configures no admission, so the data only running pods read is not read before it is', () => {
  const loaded = loadCluster([], read);
  assert.ok(!('error' in loaded));
  assert.deepEqual(loaded.cluster.objects.filter((d) => ADMISSION_CONFIG_KINDS.has(String(d.object.kind))), []);
});
