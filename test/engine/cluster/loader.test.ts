// Tests of the input loader: documents and their field ranges, List items, every input error with its
// file:line: problem text, the sorting of cluster files and ClusterProfile merging, and loadInputs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defaultProfile } from '../../../src/engine/cluster/inputs';
import type { Range } from '../../../src/engine/cluster/inputs';
import { loadClusterFiles, loadInputs, parseDocuments } from '../../../src/engine/cluster/loader';
import { DEFAULT_CLUSTER_FILE, DEFAULT_CLUSTER_YAML } from '../../../src/engine/cluster/default-cluster';
import { inputError } from './input-error';

const fixtures = resolve(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'loader');

/** fixture reads a file of test/fixtures/loader. */
function fixture(name: string): { file: string; text: string } {
  return { file: name, text: readFileSync(join(fixtures, name), 'utf8') };
}

/** r builds a range from zero-based start and end line/character pairs. */
function r(startLine: number, startChar: number, endLine: number, endChar: number): Range {
  return { start: { line: startLine, character: startChar }, end: { line: endLine, character: endChar } };
}


const POD = `apiVersion: v1
kind: Pod
metadata:
  name: web
  labels:
    app.kubernetes.io/name: web
spec:
  containers:
    - name: app
      image: nginx:1.27
      args: ["a", "b"]
`;

const podRanges: { name: string; path: string; key?: Range; value: Range }[] = [
  { name: 'a top-level scalar', path: 'kind', key: r(1, 0, 1, 4), value: r(1, 6, 1, 9) },
  { name: 'a block mapping', path: 'metadata', key: r(2, 0, 2, 8), value: r(3, 2, 5, 31) },
  { name: 'a quoted label key', path: 'metadata.labels["app.kubernetes.io/name"]', key: r(5, 4, 5, 26), value: r(5, 28, 5, 31) },
  { name: 'a block sequence', path: 'spec.containers', key: r(7, 2, 7, 12), value: r(8, 4, 10, 22) },
  { name: 'a sequence item', path: 'spec.containers[0]', value: r(8, 6, 10, 22) },
  { name: 'a field of a sequence item', path: 'spec.containers[0].image', key: r(9, 6, 9, 11), value: r(9, 13, 9, 23) },
  { name: 'a flow sequence', path: 'spec.containers[0].args', key: r(10, 6, 10, 10), value: r(10, 12, 10, 22) },
  { name: 'a quoted flow item', path: 'spec.containers[0].args[1]', value: r(10, 18, 10, 21) },
];

for (const { name, path, key, value } of podRanges) {
  test(`The range of ${name} is exact`, () => {
    const [doc] = parseDocuments(POD, 'pod.yaml');
    assert.deepEqual(doc?.fields.get(path), key ? { key, value } : { value });
  });
}

test('Every key and sequence item has a range', () => {
  const [doc] = parseDocuments(POD, 'pod.yaml');
  assert.deepEqual([...(doc?.fields.keys() ?? [])].sort(), [
    'apiVersion', 'kind', 'metadata', 'metadata.labels', 'metadata.labels["app.kubernetes.io/name"]', 'metadata.name',
    'spec', 'spec.containers', 'spec.containers[0]', 'spec.containers[0].args', 'spec.containers[0].args[0]',
    'spec.containers[0].args[1]', 'spec.containers[0].image', 'spec.containers[0].name',
  ]);
  assert.deepEqual(doc?.range, r(0, 0, 10, 22));
});

test('A document is parsed into its plain object', () => {
  const [doc] = parseDocuments(POD, 'pod.yaml');
  assert.deepEqual(doc?.object, {
    apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', labels: { 'app.kubernetes.io/name': 'web' } },
    spec: { containers: [{ name: 'app', image: 'nginx:1.27', args: ['a', 'b'] }] },
  });
});

const positionCases: { name: string; text: string; path: string; want: Range }[] = [
  { name: 'A key with no value has an empty value range after the colon', text: 'apiVersion: v1\nkind: Pod\nspec:\n', path: 'spec', want: r(2, 5, 2, 5) },
  { name: 'CRLF line endings count as one line break', text: 'apiVersion: v1\r\nkind: Pod\r\nmetadata:\r\n  name: web\r\n', path: 'metadata.name', want: r(3, 8, 3, 11) },
  { name: 'Characters are counted in UTF-16 code units', text: 'apiVersion: v1\nkind: Pod\nmetadata: {annotations: {a: "😀", b: x}}\n', path: 'metadata.annotations.b', want: r(2, 37, 2, 38) },
  { name: 'A byte order mark is not counted', text: '\uFEFFapiVersion: v1\nkind: Pod\n', path: 'apiVersion', want: r(0, 12, 0, 14) },
  { name: 'An alias has the range of the alias itself', text: 'apiVersion: v1\nkind: Pod\nx: &a {p: 1}\nz: *a\n', path: 'z', want: r(3, 3, 3, 5) },
];

for (const { name, text, path, want } of positionCases) {
  test(name, () => assert.deepEqual(parseDocuments(text, 'f.yaml')[0]?.fields.get(path)?.value, want));
}

test('Several documents are read in order, skipping empty ones', () => {
  const text = '# leading comment\n---\napiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n---\n# only a comment\n---\n---\napiVersion: v1\nkind: Namespace\nmetadata: {name: b}\n...\n';
  const docs = parseDocuments(text, 'ns.yaml');
  assert.deepEqual(docs.map((d) => [d.index, d.object.metadata?.name, d.range.start.line]), [[0, 'a', 2], [3, 'b', 9]]);
  assert.ok(docs.every((d) => d.file === 'ns.yaml'));
});

test('An empty file has no documents', () => {
  assert.deepEqual(parseDocuments('', 'e.yaml'), []);
  assert.deepEqual(parseDocuments('# nothing\n\n---\n', 'e.yaml'), []);
});

test('A List is replaced by its items, each with its own range and relative fields', () => {
  const docs = parseDocuments(fixture('kubectl-get-nodes.yaml').text, 'nodes.yaml');
  assert.deepEqual(docs.map((d) => [d.index, d.object.kind, d.object.metadata?.name]), [[0, 'Node', 'worker-1'], [0, 'Node', 'worker-2']]);
  assert.deepEqual(docs[0]?.range, r(3, 2, 12, 20));
  assert.deepEqual(docs[1]?.range, r(13, 2, 22, 26));
  assert.deepEqual(docs[1]?.fields.get('spec.taints[0].key'), { key: r(22, 6, 22, 9), value: r(22, 11, 22, 26) });
  assert.deepEqual(docs[0]?.fields.get('metadata.labels["kubernetes.io/hostname"]')?.value, r(7, 30, 7, 38));
  assert.equal(docs[0]?.fields.has('items'), false);
});

test('The items of a typed list take its kind and apiVersion, as the API omits them', () => {
  const text = 'apiVersion: v1\nkind: PodList\nitems:\n- metadata: {name: a}\n- kind: Pod\n  apiVersion: v1\n  metadata: {name: b}\n';
  const docs = parseDocuments(text, 'pods.yaml');
  assert.deepEqual(docs.map((d) => d.object), [
    { metadata: { name: 'a' }, kind: 'Pod', apiVersion: 'v1' },
    { kind: 'Pod', apiVersion: 'v1', metadata: { name: 'b' } },
  ]);
});

test('A List after another document keeps that document index', () => {
  const text = 'apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n---\napiVersion: v1\nkind: List\nitems: []\n---\napiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Namespace, metadata: {name: b}}\n';
  assert.deepEqual(parseDocuments(text, 'l.yaml').map((d) => [d.index, d.object.metadata?.name]), [[0, 'a'], [2, 'b']]);
});

const valueCases: { name: string; yaml: string; want: unknown }[] = [
  { name: 'An octal file mode is read as YAML 1.1 does (go-yaml v2)', yaml: 'mode: 0644', want: { mode: 420 } },
  { name: 'yes and off are booleans, as go-yaml v2 reads them', yaml: 'a: yes\nb: off', want: { a: true, b: false } },
  { name: 'A date stays a string', yaml: 'd: 2024-01-31', want: { d: '2024-01-31' } },
  { name: 'A sexagesimal-looking value stays a string', yaml: 't: 1:20', want: { t: '1:20' } },
  { name: 'Numeric and boolean keys become strings', yaml: '80: http\ntrue: t', want: { '80': 'http', true: 't' } },
  { name: 'A merge key adds the fields not written explicitly', yaml: 'base: &b {p: 1, q: 2}\nm:\n  <<: *b\n  q: 3', want: { base: { p: 1, q: 2 }, m: { q: 3, p: 1 } } },
  { name: 'A key y is the boolean true, as go-yaml v2 resolves it', yaml: 'y: 1\nn: 0', want: { true: 1, false: 0 } },
  { name: 'An alias is expanded to a copy', yaml: 'a: &r {cpu: 1}\nb: *r', want: { a: { cpu: 1 }, b: { cpu: 1 } } },
  { name: 'A binary value becomes its text', yaml: 'b: !!binary aGVsbG8=', want: { b: 'hello' } },
];

for (const { name, yaml, want } of valueCases) {
  test(name, () => {
    const [doc] = parseDocuments(`apiVersion: v1\nkind: ConfigMap\ndata:\n${yaml.replace(/^/gm, '  ')}\n`, 'v.yaml');
    assert.deepEqual((doc?.object as Record<string, unknown>)['data'], want);
  });
}

const BILLION_LAUGHS = `apiVersion: v1
kind: ConfigMap
metadata: {name: lol}
data:
  a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
  b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
  c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
  d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
  e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
  f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
  g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
  h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
  i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
`;

const errorCases: { name: string; text: string; want: string }[] = [
  { name: 'A YAML syntax error', text: 'apiVersion: v1\nkind: Pod\nargs: [1\n', want: 'f.yaml:4:1: Flow sequence in block collection must be sufficiently indented and end with a ]' },
  { name: 'An unterminated string', text: 'apiVersion: v1\nkind: "Pod\n', want: 'f.yaml:3:1: Missing closing "quote' },
  { name: 'Tab indentation', text: 'apiVersion: v1\nkind: Pod\nmetadata:\n\tname: web\n', want: 'f.yaml:4:1: Tabs are not allowed as indentation' },
  { name: 'A syntax error in a later document', text: 'apiVersion: v1\nkind: Pod\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: web\n', want: 'f.yaml:7:1: Flow map in block collection must be sufficiently indented and end with a }' },
  { name: 'A duplicate key', text: 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n  name: b\n', want: 'f.yaml:5: key "name" already set in map' },
  { name: 'A document that is a sequence', text: 'apiVersion: v1\nkind: Pod\n---\n- a\n- b\n', want: 'f.yaml:4: document 2 is a sequence, not a Kubernetes object' },
  { name: 'A document that is a string', text: 'just some text\n', want: 'f.yaml:1: document 1 is a string, not a Kubernetes object' },
  { name: 'A missing kind', text: '# a pod\napiVersion: v1\nmetadata: {name: web}\n', want: 'f.yaml:2: error validating data: kind not set' },
  { name: 'A missing apiVersion', text: 'kind: Pod\nmetadata: {name: web}\n', want: 'f.yaml:1: error validating data: apiVersion not set' },
  { name: 'Both missing, as kubectl lists them', text: 'metadata: {name: web}\n', want: 'f.yaml:1: error validating data: [apiVersion not set, kind not set]' },
  { name: 'An empty kind', text: 'apiVersion: v1\nkind: ""\n', want: 'f.yaml:1: error validating data: kind not set' },
  { name: 'An apiVersion that is a number', text: 'kind: Pod\napiVersion: 1\n', want: "f.yaml:2: error validating data: apiVersion isn't string type" },
  { name: 'A kind that is a list', text: 'apiVersion: v1\nkind: [Pod]\n', want: "f.yaml:2: error validating data: kind isn't string type" },
  { name: 'An apiVersion with two slashes', text: 'apiVersion: apps/v1/beta\nkind: Deployment\n', want: 'f.yaml:1: error validating data: unexpected GroupVersion string: apps/v1/beta' },
  { name: 'A List item without a kind', text: 'apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n- apiVersion: v1\n  metadata: {name: x}\n', want: 'f.yaml:6: error validating data: kind not set' },
  { name: 'A List item that is not a mapping', text: 'apiVersion: v1\nkind: List\nitems:\n- just text\n', want: 'f.yaml:4: item 0 of the List is a string, not a Kubernetes object' },
  { name: 'List items that are not a sequence', text: 'apiVersion: v1\nkind: List\nitems: {a: 1}\n', want: 'f.yaml:3: items: expected a sequence, got a mapping' },
  { name: 'An alias of an unknown anchor', text: 'apiVersion: v1\nkind: Pod\nspec: *nowhere\n', want: "f.yaml:3: unknown anchor 'nowhere' referenced" },
  { name: 'An anchor that contains its own alias', text: 'apiVersion: v1\nkind: Pod\nspec: &s {x: *s}\n', want: "f.yaml:3: anchor 's' value contains itself" },
  { name: 'A merge key of a scalar', text: 'apiVersion: v1\nkind: Pod\nspec:\n  <<: 1\n', want: 'f.yaml:4: map merge requires map or sequence of maps as the value' },
  // go.yaml.in/yaml/v2 v2.4.3 decode.go (mapping): failf("invalid map key: %#v", k.Interface()).
  { name: 'A key that is a sequence', text: 'apiVersion: v1\nkind: Pod\n? [a, b]\n: 1\n', want: 'f.yaml:3: invalid map key: []interface {}{"a", "b"}' },
  { name: 'A NaN value', text: 'apiVersion: v1\nkind: Pod\nx: .nan\n', want: 'f.yaml:3: json: unsupported value: NaN (.nan has no JSON form)' },
  { name: 'A set', text: 'apiVersion: v1\nkind: Pod\nx: !!set {a, b}\n', want: 'f.yaml:3: unsupported YAML type !!set' },
  { name: 'A NUL byte', text: 'apiVersion: v1\nkind: P\u0000d\n', want: 'f.yaml:2:8: file is binary, not YAML text (it holds a NUL byte)' },
  { name: 'Text decoded from invalid UTF-8', text: 'apiVersion: v1\nkind: Pod\nmetadata: {name: caf\uFFFD}\n', want: 'f.yaml:3:21: file is not valid UTF-8 text' },
  { name: 'A lone surrogate', text: 'apiVersion: v1\nkind: \uD800Pod\n', want: 'f.yaml:2:7: file is not valid UTF-8 text' },
  { name: 'A billion laughs', text: BILLION_LAUGHS, want: 'f.yaml:9: excessive aliasing: the aliases of this document expand to more than 10000 values' },
];

for (const { name, text, want } of errorCases) {
  test(`${name} is reported with file and line`, () => assert.equal(inputError(() => parseDocuments(text, 'f.yaml')).message, want));
}

test('A billion laughs is refused fast', () => {
  const started = performance.now();
  const err = inputError(() => parseDocuments(BILLION_LAUGHS, 'lol.yaml'));
  assert.ok(performance.now() - started < 1000, 'took more than a second');
  assert.match(err.problem, /^excessive aliasing/);
});

test('A file of 9 MiB is refused before parsing', () => {
  const started = performance.now();
  const err = inputError(() => parseDocuments('#'.repeat(9 * 1024 * 1024), 'big.yaml'));
  assert.equal(err.message, 'big.yaml:1: file is too large (9437184 bytes; the limit is 8388608 bytes)');
  assert.ok(performance.now() - started < 1000, 'took more than a second');
});

test('The size limit counts UTF-8 bytes, not characters', () => {
  const err = inputError(() => parseDocuments('é'.repeat(4.5 * 1024 * 1024), 'accents.yaml'));
  assert.equal(err.problem, 'file is too large (9437184 bytes; the limit is 8388608 bytes)');
});

test('Nesting too deep for the parser is an InputError, not a crash', () => {
  const err = inputError(() => parseDocuments(`apiVersion: v1\nkind: Pod\nx: ${'['.repeat(20000)}${']'.repeat(20000)}\n`, 'deep.yaml'));
  assert.equal(err.problem, 'the YAML nests too deeply');
  assert.equal(err.line, 3);
});

test('The embedded default cluster loads as plain API objects', () => {
  const { cluster, behaviors } = loadClusterFiles([{ file: DEFAULT_CLUSTER_FILE, text: DEFAULT_CLUSTER_YAML }]);
  assert.ok(cluster.objects.length > 100);
  assert.deepEqual(cluster.profile, defaultProfile());
  assert.deepEqual(behaviors, []);
});

test('Cluster documents are sorted into objects, config kinds, the profile and behaviors', () => {
  const { cluster, behaviors } = loadClusterFiles([fixture('kubectl-get-nodes.yaml'), fixture('cluster-with-own-kinds.yaml')]);
  assert.deepEqual(cluster.objects.map((d) => `${d.object.kind}/${d.object.metadata?.name}`), ['Node/worker-1', 'Node/worker-2', 'Namespace/shop']);
  assert.deepEqual(cluster.config.map((d) => d.object.kind), ['KubeSchedulerConfiguration', 'AdmissionConfiguration', 'PodSecurityConfiguration']);
  assert.deepEqual(behaviors.map((d) => [d.file, d.index]), [['cluster-with-own-kinds.yaml', 2]]);
  assert.deepEqual(cluster.profile, {
    authentication: { anonymous: true, tokens: [{ token: '31ada4fd', user: 'alice', uid: '1001', groups: ['dev'] }] },
    authorization: { modes: ['Node', 'RBAC'], abac: [], webhook: [] },
    admission: { enable: [], disable: [] },
  });
});

test('Several ClusterProfiles merge over the defaults, later wins field by field', () => {
  const profile = (body: string): string => `apiVersion: podlifecycle.debug/v1alpha1\nkind: ClusterProfile\n${body}`;
  const { cluster } = loadClusterFiles([
    { file: 'a.yaml', text: profile('authentication: {anonymous: true}\nadmission: {enable: [AlwaysPullImages]}\n') },
    { file: 'b.yaml', text: profile('authorization: {modes: [RBAC]}\nadmission: {disable: [DefaultStorageClass]}\n') },
  ]);
  assert.deepEqual(cluster.profile, {
    authentication: { anonymous: true, tokens: [] },
    authorization: { modes: ['RBAC'], abac: [], webhook: [] },
    admission: { enable: ['AlwaysPullImages'], disable: ['DefaultStorageClass'] },
  });
});

const sortErrors: { name: string; text: string; want: string }[] = [
  {
    name: 'An unknown kind of our own apiVersion',
    text: 'apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n---\napiVersion: podlifecycle.debug/v1alpha1\nkind: Profile\n',
    want: 'c.yaml:6: no kind "Profile" is registered for version "podlifecycle.debug/v1alpha1"; the kinds of podlifecycle.debug/v1alpha1 are ClusterProfile and Behavior',
  },
  {
    name: 'Another version of our own group',
    text: 'apiVersion: podlifecycle.debug/v1\nkind: Behavior\n',
    want: 'c.yaml:1: no kind "Behavior" is registered for version "podlifecycle.debug/v1"; this version of the project reads podlifecycle.debug/v1alpha1',
  },
  {
    name: 'A scheduler configuration version that 1.36 no longer serves',
    text: 'apiVersion: kubescheduler.config.k8s.io/v1beta3\nkind: KubeSchedulerConfiguration\n',
    want: 'c.yaml:1: no kind "KubeSchedulerConfiguration" is registered for version "kubescheduler.config.k8s.io/v1beta3"',
  },
];

for (const { name, text, want } of sortErrors) {
  test(`${name} is an error naming the line`, () => assert.equal(inputError(() => loadClusterFiles([{ file: 'c.yaml', text }])).message, want));
}

const MANIFEST = `apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  containers: [{name: app, image: "nginx:1.27"}]
---
apiVersion: podlifecycle.debug/v1alpha1
kind: Behavior
images:
  "nginx:1.27": {pullSeconds: 4, exists: true}
`;

test('Inputs: behaviors from cluster, manifest and behavior file merge in that order', () => {
  const inputs = loadInputs({
    manifest: { file: 'pod.yaml', text: MANIFEST },
    clusters: [fixture('cluster-with-own-kinds.yaml')],
    behavior: { file: 'behavior.yaml', text: 'apiVersion: podlifecycle.debug/v1alpha1\nkind: Behavior\nimages:\n  "nginx:1.27": {pullSeconds: 9}\n' },
    identity: { kind: 'anonymous' },
  });
  assert.deepEqual(inputs.manifest.map((d) => d.object.kind), ['Pod']);
  assert.deepEqual(inputs.behavior.images, { 'nginx:1.27': { pullSeconds: 9, exists: true } });
  assert.deepEqual(inputs.identity, { kind: 'anonymous' });
  assert.equal(inputs.cluster.profile.authentication.anonymous, true);
});

test('Inputs: with no behavior anywhere the behavior is the default', () => {
  const inputs = loadInputs({ manifest: { file: 'pod.yaml', text: POD }, clusters: [], identity: { kind: 'default' } });
  assert.deepEqual(inputs.behavior, { images: {}, containers: {}, nodes: {}, volumes: {}, finalizers: [], webhooks: {}, metrics: {}, customMetrics: {}, externalMetrics: {} });
  assert.deepEqual(inputs.cluster.profile, defaultProfile());
});

const inputErrors: { name: string; manifest: string; behavior?: string; want: string }[] = [
  {
    name: 'A behavior file holding a Pod',
    manifest: POD,
    behavior: 'apiVersion: podlifecycle.debug/v1alpha1\nkind: Behavior\n---\napiVersion: v1\nkind: Pod\n',
    want: 'behavior.yaml:5: expected a Behavior (apiVersion: podlifecycle.debug/v1alpha1), got Pod (apiVersion: v1)',
  },
  {
    name: 'A ClusterProfile in the manifest',
    manifest: `${POD}---\napiVersion: podlifecycle.debug/v1alpha1\nkind: ClusterProfile\n`,
    want: 'pod.yaml:14: a ClusterProfile describes the cluster: give it in a cluster file, not in the manifest',
  },
  { name: 'A bad manifest', manifest: 'kind: Pod\n', want: 'pod.yaml:1: error validating data: apiVersion not set' },
];

for (const { name, manifest, behavior, want } of inputErrors) {
  test(`Inputs: ${name} is refused`, () => {
    const opts = { manifest: { file: 'pod.yaml', text: manifest }, clusters: [], identity: { kind: 'default' } as const };
    const err = inputError(() => loadInputs(behavior ? { ...opts, behavior: { file: 'behavior.yaml', text: behavior } } : opts));
    assert.equal(err.message, want);
  });
}
