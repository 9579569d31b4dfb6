// Hover, completion, quick fixes and the outline of the language service, case by case.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { ROOT } from '../cli/harness';
import { LanguageService } from '../../src/language/service';
import { DEFAULT_SETTINGS } from '../../src/language/settings';

const DEPLOYMENT = [
  'apiVersion: apps/v1', 'kind: Deployment', 'metadata:', '  name: web', 'spec:', '  replicas: 2', '  selector:', '    matchLabels: {app: web}',
  '  template:', '    metadata:', '      labels: {app: web}', '    spec:', '      restartPolicy: Always', '      containers:', '        - name: app',
  '          image: nginx:1.27', '          imagePullPolicy: IfNotPresent', '        - name: side', '          image: busybox:1.36', '',
].join('\n');

function serviceWith(uri: string, text: string, cluster: string[] = []): LanguageService {
  const service = new LanguageService((path) => readFileSync(path, 'utf8'));
  service.configure({ ...DEFAULT_SETTINGS, cluster });
  service.update(uri, 1, text);
  return service;
}

/** position finds the n-th line holding a text and a character inside it. */
function at(text: string, line: number, needle: string, offset = 1): { line: number; character: number } {
  return { line, character: (text.split('\n')[line] ?? '').indexOf(needle) + offset };
}

const hoverCases: { name: string; line: number; needle: string; want: RegExp[] }[] = [
  {
    name: 'a container field shows its type, doc, the phases reading it and the Container reference',
    line: 15, needle: 'image',
    want: [/^\*\*image\*\* `string`/, /Container image name\./, /`kubelet\.imagePull`/, /\(https:\/\/kubernetes\.io\/docs\/reference\/kubernetes-api\/workload-resources\/pod-v1\/#Container\)/],
  },
  {
    // pkg/apis/core/v1/defaults.go SetDefaults_PodSpec: restartPolicy Always.
    name: 'an enum field shows its values and the default the API server fills in',
    line: 12, needle: 'restartPolicy',
    want: [/`string \(RestartPolicy\)`/, /Values: `Always` \| `OnFailure` \| `Never`/, /Default: `"Always"` \(filled in by the API server when absent\)/],
  },
  {
    name: 'a required field says so',
    line: 14, needle: 'name',
    want: [/^\*\*name\*\* `string` — required/],
  },
  {
    // pkg/apis/apps/v1/defaults.go SetDefaults_Deployment: replicas 1.
    name: 'a Deployment field links to the Deployment page and shows its default',
    line: 5, needle: 'replicas',
    want: [/integer \(int32\)/, /Default: `1`/, /deployment-v1\/#DeploymentSpec\)/, /`controllers\.deployment`/],
  },
];

for (const c of hoverCases) {
  test(`hover: ${c.name}`, () => {
    const service = serviceWith('file:///hover.yaml', DEPLOYMENT);
    const hover = service.hover('file:///hover.yaml', at(DEPLOYMENT, c.line, c.needle));
    const value = (hover?.contents as { value: string } | undefined)?.value ?? '';
    for (const w of c.want) assert.match(value, w);
  });
}

test('hover: on a value with a diagnostic, the message is shown', () => {
  const text = DEPLOYMENT.replace('restartPolicy: Always', 'restartPolicy: Sometimes');
  const service = serviceWith('file:///hover-diag.yaml', text);
  service.validate('file:///hover-diag.yaml');
  const hover = service.hover('file:///hover-diag.yaml', at(text, 12, 'Sometimes'));
  assert.match((hover?.contents as { value: string }).value, /Error: Deployment\.apps "web" is invalid: spec\.template\.spec\.restartPolicy: Unsupported value: "Sometimes": supported values: "Always"/);
});

test('hover: outside Kubernetes manifests there is none', () => {
  const service = serviceWith('file:///plain.yaml', 'name: x\nitems: [1]\n');
  assert.equal(service.hover('file:///plain.yaml', { line: 0, character: 1 }), null);
});

const completionCases: { name: string; text: string; line: number; character: number; want: string[]; absent?: string[] }[] = [
  { name: 'the keys of a container, without those already there', text: `${DEPLOYMENT}`.replace('          image: busybox:1.36', '          image: busybox:1.36\n          '), line: 19, character: 10, want: ['livenessProbe', 'resources', 'readinessProbe (httpGet)', 'lifecycle hooks', 'securityContext (restricted)'], absent: ['image', 'name'] },
  { name: 'the values of an enum', text: DEPLOYMENT.replace('imagePullPolicy: IfNotPresent', 'imagePullPolicy: '), line: 16, character: 27, want: ['Always', 'Never', 'IfNotPresent'] },
  { name: 'booleans for a boolean field', text: DEPLOYMENT.replace('      restartPolicy: Always', '      hostNetwork: '), line: 12, character: 19, want: ['true', 'false'] },
  { name: 'the kinds of an apiVersion', text: DEPLOYMENT.replace('kind: Deployment', 'kind: '), line: 1, character: 6, want: ['Deployment', 'ReplicaSet', 'StatefulSet'], absent: ['Pod'] },
  { name: 'apiVersion and kind pairs in an empty document', text: '', line: 0, character: 0, want: ['Pod (v1)', 'Deployment (apps/v1)'] },
  { name: 'pod spec snippets for tolerations and affinity', text: DEPLOYMENT.replace('      restartPolicy: Always', '      '), line: 12, character: 6, want: ['tolerations', 'affinity (node affinity)', 'affinity (pod anti-affinity)', 'nodeSelector'], absent: ['containers'] },
  { name: 'a container snippet under containers:', text: DEPLOYMENT.replace('        - name: side\n          image: busybox:1.36\n', '        '), line: 17, character: 8, want: ['container'] },
];

for (const c of completionCases) {
  test(`completion: ${c.name}`, () => {
    const service = serviceWith('file:///complete.yaml', c.text);
    const labels = service.complete('file:///complete.yaml', { line: c.line, character: c.character }).map((i) => i.label);
    for (const w of c.want) assert.ok(labels.includes(w), `${w} in ${JSON.stringify(labels)}`);
    for (const a of c.absent ?? []) assert.ok(!labels.includes(a), `${a} not in ${JSON.stringify(labels)}`);
  });
}

const fixCases: { name: string; text: string; cluster?: string[]; title: RegExp; gone: string }[] = [
  { name: 'an unknown field is renamed to the nearest field', text: DEPLOYMENT.replace('imagePullPolicy', 'imagePulPolicy'), title: /^Rename "imagePulPolicy" to "imagePullPolicy"$/, gone: 'decode' },
  { name: 'an invalid name is lowercased', text: DEPLOYMENT.replace('name: web', 'name: Web_1'), title: /^Change the name to "web-1"$/, gone: 'validation' },
  { name: 'resource requests are added to a container without them', text: DEPLOYMENT, title: /^Add resource requests and limits$/, gone: 'hint.noResources' },
  {
    name: 'the securityContext fields of the restricted level are added where a namespace demands them',
    text: DEPLOYMENT.replace('  name: web', '  name: web\n  namespace: secure'), cluster: [join(ROOT, 'test', 'fixtures', 'podsecurity', 'cluster.yaml')],
    title: /^Add the securityContext fields the restricted Pod Security Standard requires$/, gone: 'controllers',
  },
];

for (const c of fixCases) {
  test(`quick fix: ${c.name}, and applying it clears the diagnostic`, () => {
    const uri = 'file:///fix.yaml';
    const service = serviceWith(uri, c.text, c.cluster);
    const diagnostics = (service.validate(uri) ?? []).filter((d) => d.code === c.gone);
    assert.ok(diagnostics.length > 0, `a ${c.gone} diagnostic`);
    const action = service.codeActions(uri, diagnostics).find((a) => c.title.test(a.title));
    assert.ok(action, `an action ${c.title} among ${JSON.stringify(service.codeActions(uri, diagnostics).map((a) => a.title))}`);
    const fixed = TextDocument.applyEdits(TextDocument.create(uri, 'yaml', 1, c.text), action.edit?.changes?.[uri] ?? []);
    service.update(uri, 2, fixed);
    const after = (service.validate(uri) ?? []).filter((d) => d.code === c.gone);
    assert.ok(after.length < diagnostics.length, `fewer ${c.gone} diagnostics after the fix:\n${fixed}\n${JSON.stringify(after.map((d) => d.message))}`);
    assert.deepEqual((service.validate(uri) ?? []).filter((d) => d.code === 'syntax' || d.code === 'decode' && c.gone !== 'decode'), [], 'the fix leaves valid YAML');
  });
}

test('quick fix: a missing required field is added under its parent, and the diagnostic moves onto the new key', () => {
  const uri = 'file:///required.yaml';
  const text = DEPLOYMENT.replace('          image: busybox:1.36\n', '');
  const service = serviceWith(uri, text);
  const diagnostics = (service.validate(uri) ?? []).filter((d) => d.code === 'validation');
  assert.deepEqual(diagnostics.map((d) => [d.message, d.range.start.line]), [['Deployment.apps "web" is invalid: spec.template.spec.containers[1].image: Required value', 17]]);
  const action = service.codeActions(uri, diagnostics)[0];
  assert.equal(action?.title, 'Add the required field "image"');
  const fixed = TextDocument.applyEdits(TextDocument.create(uri, 'yaml', 1, text), action?.edit?.changes?.[uri] ?? []);
  assert.equal(fixed.split('\n')[18], '          image: ""');
  service.update(uri, 2, fixed);
  assert.deepEqual((service.validate(uri) ?? []).filter((d) => d.code === 'validation').map((d) => [d.range.start.line, d.range.start.character]), [[18, 10]]);
});

test('outline: one symbol per document, with its containers', () => {
  const text = `${DEPLOYMENT}---\napiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  ports: [{port: 80}]\n`;
  const service = serviceWith('file:///outline.yaml', text);
  const symbols = service.symbols('file:///outline.yaml');
  assert.deepEqual(symbols.map((s) => [s.name, s.range.start.line, s.children?.map((c) => [c.name, c.detail, c.range.start.line])]), [
    ['Deployment web', 0, [['app', 'container nginx:1.27', 14], ['side', 'container busybox:1.36', 17]]],
    ['Service web', 20, []],
  ]);
});

test('folding: each document and each block that spans lines folds', () => {
  const service = serviceWith('file:///fold.yaml', DEPLOYMENT);
  const ranges = service.folding('file:///fold.yaml').map((r) => `${r.startLine}-${r.endLine}`);
  for (const want of ['0-18', '4-18', '8-18', '13-18', '14-16']) assert.ok(ranges.includes(want), `${want} in ${ranges.join(' ')}`);
});
