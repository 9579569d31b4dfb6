// The quick reader of big cluster files gives exactly what the full reader gives — values, key order, document
// positions, ranges when asked, read lazily or at once — or steps aside for the full reader.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { InputError, type Range, type SourceDocument } from '../../../src/engine/cluster/inputs';
import { parseDocuments, type ParseOptions } from '../../../src/engine/cluster/loader';
import { readPlainYaml } from '../../../src/engine/cluster/plain-yaml';
import { randomYaml } from './random-yaml';

/** read parses a text as the options ask, or gives the InputError it throws as a string; `ranged` is what it was given. */
function read(text: string, file: string, options: ParseOptions): { docs: SourceDocument[] | string; ranged?: SourceDocument[] } {
  let ranged: SourceDocument[] | undefined;
  try {
    return { docs: parseDocuments(text, file, { ...options, ranged: (d) => (ranged = d) }), ranged };
  } catch (err) {
    if (err instanceof InputError) return { docs: `InputError ${err.message}` };
    throw err;
  }
}

/** ranges lists a file's ranges: each document's, then its fields' keys and values. */
function ranges(docs: SourceDocument[]): Range[] {
  return docs.flatMap((d) => [d.range, ...[...d.fields.values()].flatMap((f) => (f.key ? [f.key, f.value] : [f.value]))]);
}

/**
 * same asserts that the lazily ranged reading and the eagerly ranged ones equal the full one, in values, key order,
 * indexes and ranges; that ranges read at once are given to `ranged`; and that no position is shared but the one of
 * an empty range that is both its start and end, as the full reader leaves them (documents.ts moves them in place).
 */
function same(text: string, file = 'cluster.yaml'): void {
  const full = read(text, file, {}).docs;
  for (const options of [{ lazyRanges: true }, { lazyRanges: true, eagerRanges: true }, { eagerRanges: true }]) {
    const { docs, ranged } = read(text, file, options);
    const how = JSON.stringify(options);
    if (typeof full === 'string') {
      assert.equal(docs, full, how);
      continue;
    }
    assert.ok(typeof docs !== 'string', how);
    assert.equal(JSON.stringify(docs.map((d) => [d.index, d.object])), JSON.stringify(full.map((d) => [d.index, d.object])), how);
    assert.deepEqual(docs.map((d) => [d.range, [...d.fields]]), full.map((d) => [d.range, [...d.fields]]), how);
    if (!options.lazyRanges) assert.equal(ranged, docs, `${how}: the documents read with their ranges`);
    if (ranged !== docs) continue;
    const mine = ranges(docs);
    const theirs = ranges(full);
    const seen = new Set<object>();
    mine.forEach((r, i) => {
      assert.equal(r.start === r.end, theirs[i]!.start === theirs[i]!.end, `${how}: range ${i} is empty as the full reader's`);
      for (const p of r.start === r.end ? [r.start] : [r.start, r.end]) {
        assert.ok(!seen.has(p), `${how}: range ${i} shares a position`);
        seen.add(p);
      }
    });
  }
}

/** fast tells whether the quick reader reads the text itself. */
const fast = (text: string): boolean => readPlainYaml(text) !== undefined;

/** eager tells whether the quick reader reads the text's ranges too. */
const eager = (text: string): boolean => readPlainYaml(text, { ranges: true })?.every((d) => d.fields !== undefined) ?? false;

/** lines joins a case's lines, each ended by a line break. */
const lines = (...ls: string[]): string => `${ls.join('\n')}\n`;

/** cases: `quick` tells whether the quick reader reads the values, `ranges` whether its ranges too (by default, when quick). */
const cases: { name: string; text: string; quick: boolean; ranges?: boolean }[] = [
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
  // The yaml library ends a block collection's range with the range[2] of its last value, which takes in some of the
  // comment lines after it: those indented deeper than the block after a one-line value, all of them after a missing
  // value, those of a block it keeps them in when one is indented as far as its entries (parse/parser.js).
  {
    name: 'comments between entries and after them, at every indentation',
    quick: true,
    text: lines('# top', 'apiVersion: v1  # after a value', 'kind: Pod', 'metadata:', '  # before the first key', '  name: web # same line', '', '  labels:',
      '    app: web', '      # deeper than the entries', '    # at the entries\' column', '  # at the parent\'s', '# at the top', 'spec:', '  containers:',
      '  - name: a', '    image: x', '    # inside the item', '  # at the sequence\'s column', '  - name: b', '    image: y', '      # deeper', '# last'),
  },
  {
    name: 'comments after the last entries of nested blocks, kept by the first block indented no deeper than one of them',
    quick: true,
    text: lines('apiVersion: v1', 'kind: A', 'z:', '  r:', '    a:', '      x: 1', '        # deeper', '      # at x', '    # at a', '  # at r', 'b:', '  - c:',
      '      - 1', '    # at c', '  # at the sequence', '    # at c again', 'd: 1'),
  },
  {
    name: 'comments after a literal (all kept apart from it), and after a sequence at the top column (never kept in it)',
    quick: true,
    text: lines('apiVersion: v1', 'kind: A', 'lit:', '  a: |', '      x', '    # less indented than the text', 'b:', '- 1', '# at the sequence\'s column'),
  },
  {
    name: 'blank lines at the end of nested blocks and of the file',
    quick: true,
    text: lines('apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: m', '  labels:', '    a: b', '', '  ', '', 'data:', '  k: v', '', ''),
  },
  {
    name: 'literal scalars at the end of a nested block, with comments after them',
    quick: true,
    text: lines('apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: m', 'data:', '  script: |', '    echo hi', '', '    exit 0', '', '  # after it', '  keep: |+',
      '    kept', '', '', '  strip: |-  # a header comment', '    x', '      # deeper: text', '  empty: |', 'list:', '- |', '  item', '    # deeper', '# top', 'other: 1'),
  },
  { name: 'a literal scalar at the end of the file', quick: true, text: lines('apiVersion: v1', 'kind: ConfigMap', 'data:', '  a: |', '    x', '    y', '', '') },
  { name: 'a literal scalar at the end of the file, stripped', quick: true, text: lines('apiVersion: v1', 'kind: ConfigMap', 'data:', '  a:', '    b: |-', '      x') },
  {
    name: 'flow collections with nested flow items, and comments after them',
    quick: true,
    text: lines('apiVersion: v1', 'kind: A', 'metadata: {name: n, labels: {a: "1", "b.c": \'d\'}}  # c', 'spec:', '  list: [[a, b], {c: [d, {e: f}]}, "g", [], {}]',
      '     # deeper', 'seq:', '- [ 1 , 2 ]   # c', '- [k, v]', '  # deeper'),
  },
  {
    name: 'sequences of mappings, indented and not',
    quick: true,
    text: lines('apiVersion: v1', 'kind: Pod', 'spec:', '  containers:', '  - name: a', '    ports:', '    - containerPort: 80', '      protocol: TCP', '  - name: b',
      '  initContainers:', '    - name: c', '      args:', '        - - x', '          - y', '        -', '          - z', '        -', '          k: v', '    -', '    - - -'),
  },
  {
    name: 'missing values, with comments after them',
    quick: true,
    text: lines('apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: m', '  annotations:   # none yet', 'data:', '  a:', '  b:    ', '  # c', '  c:', '# top',
      'd:', '  # deeper', '# top', 'e:', '- # c', '# top', '-', 'f:'),
  },
  {
    // Before the next `---`, the parser cuts a missing value's lines after the one that follows its last comment
    // indented deeper than the key (parse/parser.js blockMap, "For empty nodes").
    name: 'a missing value last in a document, then comments and another document',
    quick: true,
    text: lines('apiVersion: v1', 'kind: A', 'z:', '  # deep', '# top', '', '# after a blank', '---', 'apiVersion: v1', 'kind: B', 'z:  # c', '# top', '---',
      'apiVersion: v1', 'kind: C', 'z:', '', '# after a blank', '---', 'apiVersion: v1', 'kind: D', 'z:', '  # deep', '---', 'apiVersion: v1', 'kind: E', 'z:'),
  },
  {
    name: 'quoted keys and keys that are quoted in field paths',
    quick: true,
    text: lines('apiVersion: v1', 'kind: Node', 'metadata:', '  labels:', '    kubernetes.io/hostname: n1', '    "node.kubernetes.io/instance-type": m5',
      '    \'topology.kubernetes.io/zone\': a', '    "with space": 1', '    key with spaces  : 2', '    "": empty', '    0x10: b', 'spec: {"a.b": 1, \'c d\': [x]}'),
  },
  {
    name: 'Lists with comments between their items, in both indentation styles',
    quick: true,
    text: lines('apiVersion: v1', 'kind: List', 'items:', '- apiVersion: v1', '  kind: ConfigMap', '  metadata:', '    name: a', '  # between items', '- apiVersion: v1',
      '  kind: ConfigMap', '  metadata: {name: b}', '    # deeper', '---', 'apiVersion: v1', 'kind: PodList', 'items:', '  - metadata:', '      name: p', '    # after',
      '  - metadata: {name: q}', '---', 'apiVersion: v1', 'kind: List', 'items: []'),
  },
  { name: 'characters beyond ASCII count in UTF-16 units, trailing blank space is left out', quick: true, text: lines('apiVersion: v1', 'kind: A', 'k: "é😀x"', 'l: {a: 😀}', 'm: é é\u00a0', 'n: [x\u00a0]') },
  { name: 'a tab outside literals: the values at once, the ranges from the full reader', quick: true, ranges: false, text: lines('apiVersion: v1', 'kind: A', 'a: 1\t# c', 'b: |', '  tab\tin') },
  { name: 'a tab in a literal only: the ranges at once', quick: true, text: lines('apiVersion: v1', 'kind: A', 'b: |', '  tab\tin') },
];

for (const c of cases) {
  test(`the quick reader of cluster files: ${c.name}`, () => {
    assert.equal(fast(c.text), c.quick);
    assert.equal(eager(c.text), c.ranges ?? c.quick);
    same(c.text);
  });
}

test('the quick reader gives what the full reader gives for random files', () => {
  let ranged = 0;
  const count = 800;
  for (let seed = 1; seed <= count; seed++) {
    const text = randomYaml(seed);
    if (eager(text)) ranged++;
    assert.doesNotThrow(() => same(text), `seed ${seed}: ${JSON.stringify(text)}`);
  }
  assert.ok(ranged > count / 2, `${ranged} of ${count} ranged at once`);
});

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
  let ranged = 0;
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    if (fast(text)) quick++;
    if (eager(text)) ranged++;
    assert.doesNotThrow(() => same(text, file), file);
  }
  // Most files are in the plain subset; the rest (anchors, folded text, errors on purpose) take the full reader.
  assert.ok(quick > files.length * 0.8, `${quick} of ${files.length} read quickly`);
  assert.equal(ranged, quick, 'every file read quickly has its ranges at once');
});

test('a message that names a line reads the ranges then, from the full reader', () => {
  const text = 'apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata:\n    name: n1\n- apiVersion: v1\n  kind: Node\n  metadata:\n    name: n2\n';
  const docs = parseDocuments(text, 'nodes.yaml', { lazyRanges: true });
  assert.equal(docs[1]!.fields.get('metadata.name')?.value.start.line, 10);
  assert.equal(docs[1]!.range.start.line, 7);
});
