// The language server reads a section in the plain subset of YAML once, taking its ranges from the fast reader: its
// documents, and so every diagnostic's range, are those the full reader gives, at the section's lines in the file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { InputError, type Range, type SourceDocument } from '../../src/engine/cluster/inputs';
import { parseDocuments } from '../../src/engine/cluster/loader';
import { readPlainYaml } from '../../src/engine/cluster/plain-yaml';
import { DiagnosticsService } from '../../src/language/diagnostics';
import { kubernetesKind, type ManifestSection, SectionCache, splitSections } from '../../src/language/documents';

const read = (path: string): string => readFileSync(path, 'utf8');

/** yamlFiles lists the YAML files under a directory. */
function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? yamlFiles(path) : /\.ya?ml$/.test(name) ? [path] : [];
  });
}

/** moved is a range some lines further down. */
const moved = (r: Range, by: number): Range => ({ start: { ...r.start, line: r.start.line + by }, end: { ...r.end, line: r.end.line + by } });

/** fullSections are a file's sections as the full reader alone reads them, each at its lines in the file. */
function fullSections(text: string, file: string): ManifestSection[] {
  return splitSections(text).map((s, index) => {
    let documents: SourceDocument[] = [];
    let error: ManifestSection['error'];
    try {
      documents = parseDocuments(s.text, file).map((d) => ({
        ...d,
        range: moved(d.range, s.startLine),
        fields: new Map([...d.fields].map(([path, f]) => [path, f.key ? { key: moved(f.key, s.startLine), value: moved(f.value, s.startLine) } : { value: moved(f.value, s.startLine) }])),
      }));
    } catch (err) {
      if (!(err instanceof InputError)) throw err;
      error = { line: err.line - 1 + s.startLine, character: (err.column ?? 1) - 1, message: err.problem };
    }
    return { ...s, index, documents, ...(error ? { error } : {}), kubernetes: kubernetesKind(s.text), parsed: true };
  });
}

/** fields lists what the language server's reading of a file gives: each section's documents and error. */
const fields = (sections: readonly ManifestSection[]) =>
  sections.map((s) => [s.error, s.documents.map((d) => [d.index, d.object, d.range, [...d.fields]])]);

/** MANIFEST has comments and blank lines at the end of nested blocks, and fields the API server refuses there. */
const MANIFEST = [
  'apiVersion: v1', 'kind: Pod', 'metadata:', '  name: Web_1  # not a DNS name', '  labels:', '    app: web', '      # deeper', '    # at the labels', '# top',
  'spec:', '  containers:', '  - name: app', '    image: nginx:1.27', '    imagePulPolicy: Always', '      # deeper', '  # at the containers', '  - name: app',
  '    image:', '    # no image', '  restartPolicy: Sometimes', '', '---', 'apiVersion: apps/v1', 'kind: Deployment', 'metadata: {name: api}', 'spec:', '  replicas: -1',
  '  selector:', '    matchLabels: {app: api}', '  template:', '    metadata:', '      labels:', '        app: other', '          # deeper', '        # at the labels',
  '    spec:', '      containers:', '        - name: api', '          image: nginx:1.27', '          args:', '          - |', '            run', '          # after the literal',
  '      nodeSelector:', '', '',
].join('\n');

test('the language server\'s documents are the full reader\'s, at the same lines, for every example and fixture', () => {
  let eager = 0;
  for (const file of [...yamlFiles('examples'), ...yamlFiles('test/fixtures')]) {
    const text = read(file);
    const sections = new SectionCache().sections(text, file);
    assert.deepEqual(fields(sections), fields(fullSections(text, file)), file);
    eager += sections.filter((s) => readPlainYaml(s.text, { ranges: true })?.every((d) => d.fields !== undefined)).length;
  }
  assert.ok(eager > 500, `${eager} sections ranged at once`);
});

test('the language server\'s diagnostics are where the full reader puts them', () => {
  const files = [...yamlFiles('examples'), ...yamlFiles('test/fixtures/validation'), ...yamlFiles('test/fixtures/decode')];
  let placed = 0;
  for (const [file, text] of [['manifest.yaml', MANIFEST], ...files.map((f) => [f, read(f)])] as const) {
    const got = new DiagnosticsService(read).validate(new SectionCache().sections(text, file));
    const want = new DiagnosticsService(read).validate(fullSections(text, file));
    assert.deepEqual(got, want, file);
    placed += got?.length ?? 0;
  }
  assert.ok(placed > 20, `${placed} diagnostics`);
});

test('a section read with its ranges at once moves with the edits above it', () => {
  const cache = new SectionCache();
  for (const notes of [0, 3, 1]) {
    const text = `${['# note', ...Array.from({ length: notes }, () => '# note')].join('\n')}\n---\n${MANIFEST}`;
    const sections = cache.sections(text, 'manifest.yaml');
    assert.deepEqual(fields(sections), fields(fullSections(text, 'manifest.yaml')), `${notes} notes`);
  }
});
