// The quick reader of big cluster files gives exactly what the full reader gives — values, key order, document
// positions, ranges when asked — or steps aside for the full reader.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../../../src/engine/cluster/inputs';
import { parseDocuments } from '../../../src/engine/cluster/loader';
import { readPlainYaml } from '../../../src/engine/cluster/plain-yaml';

/** same asserts that the lazily ranged reading equals the full one, in values, key order, indexes and ranges. */
function same(text: string, file = 'cluster.yaml'): void {
  let full: unknown;
  let quick: unknown;
  try {
    full = parseDocuments(text, file);
  } catch (err) {
    full = err instanceof InputError ? `InputError ${err.message}` : err;
  }
  try {
    quick = parseDocuments(text, file, { lazyRanges: true });
  } catch (err) {
    quick = err instanceof InputError ? `InputError ${err.message}` : err;
  }
  if (typeof full === 'string') return assert.equal(quick, full);
  const docs = quick as ReturnType<typeof parseDocuments>;
  const fullDocs = full as ReturnType<typeof parseDocuments>;
  assert.equal(JSON.stringify(docs.map((d) => [d.index, d.object])), JSON.stringify(fullDocs.map((d) => [d.index, d.object])));
  assert.deepEqual(docs.map((d) => [d.range, [...d.fields]]), fullDocs.map((d) => [d.range, [...d.fields]]));
}

/** fast tells whether the quick reader reads the text itself. */
const fast = (text: string): boolean => readPlainYaml(text) !== undefined;

const cases: { name: string; text: string; quick: boolean }[] = [
  { name: 'kubectl get -o yaml style', quick: true, text: 'apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata:\n    labels:\n      kubernetes.io/hostname: n1\n    name: n1\n  status:\n    allocatable:\n      cpu: "8"\n      memory: 32Gi\n    addresses:\n    - address: 10.0.0.1\n      type: InternalIP\n' },
  { name: 'indented sequences and nested ones', quick: true, text: 'kind: Pod\napiVersion: v1\nspec:\n  containers:\n    - name: a\n      args:\n        - - x\n          - y\n        -\n          z: 1\n        - \n' },
  { name: 'YAML 1.1 scalars', quick: true, text: 'kind: ConfigMap\napiVersion: v1\ndata:\n  a: yes\n  b: On\n  c: ~\n  d: 0644\n  e: 0x1F\n  f: 1_000\n  g: 1.5e3\n  h: -7\n  i: +3\n  j: 1:20\n  k: 2001-12-14\n  l: .5\n  m: Null\n  n: y\n  o: NO\n  p: 12345678901234567890\n  q: 10.0.0.1\n  r: 61255492Ki\n  s:\n  t: -x\n  u: a b  # c\n  v: a#b\n' },
  // go-yaml v2 (go.yaml.in/yaml/v2 v2.4.3 resolve.go, kubectl 1.36's), where the yaml library's YAML 1.1 schema differs.
  { name: 'go-yaml v2 scalars', quick: true, text: 'kind: ConfigMap\napiVersion: v1\ndata:\n  a: e1\n  b: E5\n  c: .\n  d: -.\n  e: +e2\n  f: 0o17\n  g: 09\n  h: 1e400\n  i: .5_0\n  j: 1_000\n  k: 0x_1F\n  l: 1.\n  m: yEs\n  n: 0b2\n' },
  { name: 'go-yaml v2 keys written out as sigs.k8s.io/yaml does', quick: true, text: 'kind: ConfigMap\napiVersion: v1\ndata:\n  1e6: a\n  0x10: b\n  .inf: c\n  1.5: d\n' },
  { name: 'a null key needs the full reader, which names it', quick: false, text: 'kind: ConfigMap\napiVersion: v1\ndata:\n  ~: a\n' },
  { name: 'keys YAML 1.1 reads as non-strings', quick: true, text: 'kind: ConfigMap\napiVersion: v1\ndata:\n  yes: 1\n  0x10: 2\n  "on": 4\n  \'q\': 5\n  key with spaces : 6\n' },
  { name: 'quoted scalars', quick: true, text: 'kind: ConfigMap\napiVersion: v1\ndata:\n  a: "x\\ny\\t\\u00e9\\"q\\\\"\n  b: \'it\'\'s\'\n  c: "#not a comment"\n  d: \'\' # empty\n  e: ""\n' },
  { name: 'literal block scalars', quick: true, text: 'kind: ConfigMap\napiVersion: v1\ndata:\n  a: |\n    line 1\n\n      indented\n    line 3\n\n\n  b: |-\n    x\n    y\n  c: |+\n    kept\n\n  d: |\n  e: |\n    # not a comment\n  # a comment\nmetadata: {name: m}\n' },
  { name: 'flow collections on one line', quick: true, text: 'kind: Node\napiVersion: v1\nmetadata: {name: n, labels: {a: "1", b: yes, c: [1, x, "y"], d: containerd://2.1, e: 1:20, f: a:b}}\nspec: {taints: [], podCIDRs: [10.0.0.0/24]}\nstatus: {}\n' },
  { name: 'several documents, empty ones and comments', quick: true, text: '# leading comment\n---\nkind: A\napiVersion: v1\n---\n---\n# only a comment\n---\nkind: B\napiVersion: v1\n' },
  { name: '__proto__ as a key stays a key', quick: true, text: 'kind: ConfigMap\napiVersion: v1\ndata:\n  __proto__: x\n' },
  { name: 'anchors and aliases', quick: false, text: 'kind: A\napiVersion: v1\na: &x 1\nb: *x\n' },
  { name: 'a merge key', quick: false, text: 'kind: A\napiVersion: v1\nb: {c: 1}\na:\n  <<: {c: 2}\n' },
  { name: 'a tag', quick: false, text: 'kind: A\napiVersion: v1\na: !!str 1\n' },
  { name: 'a multi-line plain scalar', quick: false, text: 'kind: A\napiVersion: v1\na: one\n  two\n' },
  { name: 'a multi-line quoted scalar', quick: false, text: 'kind: A\napiVersion: v1\na: "one\n  two"\n' },
  { name: 'a folded scalar', quick: false, text: 'kind: A\napiVersion: v1\na: >\n  one\n  two\n' },
  { name: 'a colon at the end of a flow scalar', quick: false, text: 'kind: A\napiVersion: v1\na: {b: c:, d: 1}\n' },
  { name: 'a flow collection over lines', quick: false, text: 'kind: A\napiVersion: v1\na: [1,\n  2]\n' },
  { name: 'CRLF line breaks', quick: false, text: 'kind: A\r\napiVersion: v1\r\n' },
  { name: 'a duplicate key (the full reader names it)', quick: false, text: 'kind: A\napiVersion: v1\nkind: B\n' },
  { name: 'a document that is not a mapping', quick: false, text: '- a\n- b\n' },
  { name: 'a bad indentation', quick: false, text: 'kind: A\napiVersion: v1\nmetadata:\n    name: x\n  labels: {}\n' },
  { name: 'an object without kind', quick: true, text: 'apiVersion: v1\nmetadata: {name: x}\n' },
  { name: 'a List whose item is not an object', quick: true, text: 'apiVersion: v1\nkind: List\nitems:\n- 1\n' },
  { name: 'a PodList from the API', quick: true, text: 'apiVersion: v1\nkind: PodList\nitems:\n- metadata: {name: p}\n' },
  { name: 'infinity has no JSON form', quick: false, text: 'kind: A\napiVersion: v1\na: .inf\n' },
  { name: 'a tab in the indentation', quick: false, text: 'kind: A\napiVersion: v1\nb:\n\tc: 1\n' },
  { name: 'a block scalar at the end of a file without a final line break', quick: false, text: 'kind: A\napiVersion: v1\na: |\n  x' },
];

for (const c of cases) {
  test(`the quick reader of cluster files: ${c.name}`, () => {
    assert.equal(fast(c.text), c.quick);
    same(c.text);
  });
}

/** yamlFiles lists the YAML files under a directory. */
function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? yamlFiles(path) : /\.ya?ml$/.test(name) ? [path] : [];
  });
}

test('the quick reader gives what the full reader gives for every example, fixture and the embedded cluster', () => {
  const files = [...yamlFiles('examples'), ...yamlFiles('test/fixtures'), ...yamlFiles('test/debugger/fixtures'), 'src/engine/cluster/default-cluster.yaml'];
  let quick = 0;
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    if (fast(text)) quick++;
    assert.doesNotThrow(() => same(text, file), file);
  }
  // Most files are in the plain subset; the rest (anchors, folded text, errors on purpose) take the full reader.
  assert.ok(quick > files.length * 0.8, `${quick} of ${files.length} read quickly`);
});

test('a message that names a line reads the ranges then, from the full reader', () => {
  const text = 'apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata:\n    name: n1\n- apiVersion: v1\n  kind: Node\n  metadata:\n    name: n2\n';
  const docs = parseDocuments(text, 'nodes.yaml', { lazyRanges: true });
  assert.equal(docs[1]!.fields.get('metadata.name')?.value.start.line, 10);
  assert.equal(docs[1]!.range.start.line, 7);
});
