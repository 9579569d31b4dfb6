// Tests the extension manifest (package.json): the debugger, its launch options, breakpoints, commands and entry points.
// The entry-point cases read dist/, so they assume `npm test`'s pretest ran the build.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { accessSync, constants, readFileSync } from 'node:fs';
import { join, normalize, resolve } from 'node:path';

const root = resolve(__dirname, '..', '..');

interface Attribute {
  type?: string | string[];
  enum?: unknown[];
  default?: unknown;
  description?: string;
}

interface Debugger {
  type: string;
  label: string;
  languages: string[];
  configurationAttributes: { launch: { properties: Record<string, Attribute> } };
  initialConfigurations: Record<string, unknown>[];
  configurationSnippets: { label: string; description: string; body: Record<string, unknown> }[];
}

interface Manifest {
  name: string;
  publisher: string;
  main: string;
  bin: Record<string, string>;
  repository: { type: string; url: string };
  activationEvents: string[];
  contributes: {
    debuggers: Debugger[];
    breakpoints: { language: string }[];
    commands: { command: string; title: string; category?: string; icon?: string }[];
    menus: Record<string, { command: string; when?: string }[]>;
  };
}

const manifestText = readFileSync(join(root, 'package.json'), 'utf8');
const manifest = JSON.parse(manifestText) as Manifest;
const nls = JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
const podDebugger = manifest.contributes.debuggers.find((d) => d.type === 'pod-lifecycle');
const launchAttributes = podDebugger?.configurationAttributes.launch.properties ?? {};

/** localized resolves a `%key%` manifest string through package.nls.json, as VS Code does. */
function localized(value: string | undefined): string | undefined {
  const key = /^%(.+)%$/.exec(value ?? '')?.[1];
  return key === undefined ? value : nls[key];
}

/** buildOutputs are the files scripts/build.mjs writes, read from its `outfile:` entries. */
const buildOutputs = [...readFileSync(join(root, 'scripts', 'build.mjs'), 'utf8').matchAll(/outfile: '([^']+)'/g)].map((m) => normalize(m[1]!));

test('The manifest contributes one pod-lifecycle debugger for YAML labelled Pod Lifecycle', () => {
  assert.ok(podDebugger, 'no debugger of type pod-lifecycle');
  assert.equal(manifest.contributes.debuggers.length, 1);
  assert.deepEqual(podDebugger.languages, ['yaml']);
  assert.equal(localized(podDebugger.label), 'Pod Lifecycle');
});

test('Breakpoints can be set in YAML files, except those the language server found to be of another kind (a CI workflow)', () => {
  assert.deepEqual(manifest.contributes.breakpoints, [{ language: 'yaml', when: 'resourcePath not in podLifecycle.otherYaml' }]);
});

test('The debugger stands aside for YAML files of another kind: F5 on a CI workflow does not offer it', () => {
  const debuggers = (manifest.contributes as unknown as { debuggers: { type: string; when?: string }[] }).debuggers;
  assert.equal(debuggers.find((d) => d.type === 'pod-lifecycle')?.when, 'resourcePath not in podLifecycle.otherYaml');
});

const optionCases: { name: string; type: string | string[]; default?: unknown }[] = [
  { name: 'manifest', type: 'string', default: '${file}' },
  { name: 'kubectl', type: ['string', 'array'], default: 'kubectl run web --image=nginx:1.27' },
  { name: 'cluster', type: ['string', 'array'] },
  { name: 'behavior', type: 'string' },
  { name: 'kubeconfig', type: 'string' },
  { name: 'context', type: 'string' },
  { name: 'token', type: 'string' },
  { name: 'anonymous', type: 'boolean' },
  { name: 'as', type: 'string' },
  { name: 'asGroups', type: 'array' },
  { name: 'stopOnEntry', type: 'boolean', default: true },
  { name: 'seed', type: 'integer' },
  { name: 'for', type: 'string' },
  { name: 'maxSteps', type: 'integer', default: 1000000 },
  { name: 'maxObjects', type: 'integer', default: 20000 },
  { name: 'allowUnsimulated', type: 'boolean', default: false },
  { name: 'watches', type: 'boolean', default: false },
  { name: 'delete', type: ['boolean', 'object'] },
  { name: 'gracePeriod', type: 'integer' },
  { name: 'force', type: 'boolean' },
  { name: 'trace', type: 'boolean' },
  { name: 'serve', type: 'boolean', default: true },
  { name: 'port', type: 'integer', default: 0 },
  { name: 'speed', type: 'number', default: 1 },
  { name: 'kubeconfigOut', type: 'string' },
];

for (const option of optionCases) {
  test(`The launch option ${option.name} is declared with its type${option.default === undefined ? '' : ' and default'}`, () => {
    const attribute = launchAttributes[option.name];
    assert.ok(attribute, `launch option ${option.name} is missing`);
    assert.deepEqual(attribute.type, option.type);
    if (option.default !== undefined) assert.equal(attribute.default, option.default);
  });
}

test('The launch options are exactly the documented ones', () => {
  assert.deepEqual(Object.keys(launchAttributes).sort(), optionCases.map((o) => o.name).sort());
});

for (const [name, attribute] of Object.entries(launchAttributes)) {
  test(`The launch option ${name} has a description and a type, enum or default`, () => {
    assert.ok(localized(attribute.description)?.trim(), `${name} has no description (or its %key% is not in package.nls.json)`);
    assert.ok(attribute.type !== undefined || attribute.enum !== undefined || attribute.default !== undefined);
  });
}

test('The for option accepts durations and rejects bare numbers', () => {
  const pattern = new RegExp((launchAttributes['for'] as { pattern: string }).pattern);
  const cases = [
    { value: '5m', want: true },
    { value: '90s', want: true },
    { value: '1h30m', want: true },
    { value: '1.5m', want: true },
    { value: '300', want: false },
    { value: 'five minutes', want: false },
  ];
  for (const { value, want } of cases) assert.equal(pattern.test(value), want, value);
});

test('The initial configuration debugs the current file and stops on entry', () => {
  assert.deepEqual(podDebugger?.initialConfigurations, [
    { type: 'pod-lifecycle', request: 'launch', name: 'Debug pod lifecycle', manifest: '${file}', stopOnEntry: true },
  ]);
});

const snippetCases = [
  { label: 'Pod Lifecycle: Debug pod lifecycle of the current file', keys: ['manifest', 'stopOnEntry'] },
  { label: 'Pod Lifecycle: Debug pod lifecycle of the current file with a cluster file', keys: ['cluster', 'manifest', 'stopOnEntry'] },
  { label: 'Pod Lifecycle: Debug pod lifecycle of the current file and delete', keys: ['delete', 'manifest', 'stopOnEntry'] },
];

test('The snippet "Pod Lifecycle: Debug a kubectl command line" starts from kubectl run instead of a manifest', () => {
  const snippet = podDebugger?.configurationSnippets.find((s) => localized(s.label) === 'Pod Lifecycle: Debug a kubectl command line');
  assert.ok(snippet);
  assert.ok(localized(snippet.description));
  const { type, request, name, ...options } = snippet.body;
  assert.deepEqual([type, request, typeof name], ['pod-lifecycle', 'launch', 'string']);
  assert.deepEqual(options, { kubectl: 'kubectl run ${1:web} --image=${2:nginx:1.27}', stopOnEntry: true });
});

test('A launch configuration needs a manifest, a kubectl command line, or serve', () => {
  const launch = podDebugger?.configurationAttributes.launch as { anyOf?: unknown; required?: unknown };
  assert.deepEqual(launch.anyOf, [{ required: ['manifest'] }, { required: ['kubectl'] }, { required: ['serve'] }]);
  assert.equal(launch.required, undefined);
});

for (const [index, want] of snippetCases.entries()) {
  test(`The snippet "${want.label}" sets ${want.keys.join(', ')}`, () => {
    const snippet = podDebugger?.configurationSnippets[index];
    assert.ok(snippet);
    assert.equal(localized(snippet.label), want.label);
    assert.ok(localized(snippet.description));
    const { type, request, name, ...options } = snippet.body;
    assert.deepEqual([type, request, typeof name], ['pod-lifecycle', 'launch', 'string']);
    assert.deepEqual(Object.keys(options).sort(), want.keys);
    for (const key of Object.keys(options)) assert.ok(key in launchAttributes, `${key} is not a launch option`);
  });
}

const commandCases = [
  { command: 'podLifecycle.debugFile', title: 'Debug Pod Lifecycle', icon: '$(debug-alt)' },
  { command: 'podLifecycle.runFile', title: 'Run Pod Lifecycle', icon: '$(run)' },
];

for (const want of commandCases) {
  test(`The command ${want.command} is titled "${want.title}" and shown in the editor's run menu for Kubernetes manifests`, () => {
    const command = manifest.contributes.commands.find((c) => c.command === want.command);
    assert.ok(command);
    assert.equal(localized(command.title), want.title);
    assert.equal(localized(command.category), 'Pod Lifecycle');
    assert.equal(command.icon, want.icon);
    const menuItem = manifest.contributes.menus['editor/title/run']?.find((m) => m.command === want.command);
    assert.equal(menuItem?.when, 'resourceLangId == yaml && resourcePath in podLifecycle.manifests');
  });
}

test('Activation waits for a pod-lifecycle debug session or a YAML file', () => {
  assert.deepEqual(manifest.activationEvents, [
    'onDebugResolve:pod-lifecycle',
    'onDebugDynamicConfigurations:pod-lifecycle',
    'onLanguage:yaml',
  ]);
});

test('Every %key% in the manifest has an English string in package.nls.json', () => {
  const keys = [...manifestText.matchAll(/"%([^"%]+)%"/g)].map((m) => m[1]!);
  assert.ok(keys.length > 0);
  assert.deepEqual(keys.filter((key) => nls[key] === undefined), []);
});

test('The repository is the project on GitHub', () => {
  assert.deepEqual(manifest.repository, { type: 'git', url: 'https://github.com/pod-lifecycle/pod-lifecycle-debugger' });
});

const entryPointCases = [
  { name: 'main', path: manifest.main, executable: false },
  { name: 'bin pod-lifecycle', path: manifest.bin['pod-lifecycle'] ?? '', executable: true },
];

for (const entry of entryPointCases) {
  test(`The ${entry.name} entry point ${entry.path} is a file the build produces`, () => {
    assert.ok(buildOutputs.includes(normalize(entry.path)), `${entry.path} is not among ${buildOutputs.join(', ')}`);
    accessSync(join(root, entry.path), entry.executable ? constants.X_OK : constants.R_OK);
  });
}
