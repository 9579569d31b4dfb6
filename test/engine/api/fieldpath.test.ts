// Tests of field paths: how they are written, read back and walked up to their ancestors, and name suggestions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FieldPathError, appendFieldPath, formatFieldPath, nearestName, parentPaths, parseFieldPath } from '../../../src/engine/api/fieldpath';
import type { PathSegment } from '../../../src/engine/api/fieldpath';

const paths: { name: string; segments: PathSegment[]; text: string }[] = [
  { name: 'Empty path', segments: [], text: '' },
  { name: 'One key', segments: ['spec'], text: 'spec' },
  { name: 'Keys and an index', segments: ['spec', 'containers', 0, 'image'], text: 'spec.containers[0].image' },
  { name: 'Key with dots and a slash', segments: ['metadata', 'labels', 'app.kubernetes.io/name'], text: 'metadata.labels["app.kubernetes.io/name"]' },
  { name: 'Key with dashes and underscores stays plain', segments: ['a_b-c', 'x1'], text: 'a_b-c.x1' },
  { name: 'Key starting with a digit is quoted', segments: ['ports', '80'], text: 'ports["80"]' },
  { name: 'Empty key is quoted', segments: ['data', ''], text: 'data[""]' },
  { name: 'Key with a quote and a backslash is JSON-escaped', segments: ['a', 'say "hi"\\'], text: 'a["say \\"hi\\"\\\\"]' },
  { name: 'Key with a closing bracket', segments: ['images', 'x]y'], text: 'images["x]y"]' },
  { name: 'Index first', segments: [2, 'name'], text: '[2].name' },
  { name: 'Nested indexes', segments: ['m', 10, 3], text: 'm[10][3]' },
  { name: 'Non-ASCII key', segments: ['data', 'café'], text: 'data["café"]' },
];

for (const { name, segments, text } of paths) {
  test(`${name} is formatted`, () => assert.equal(formatFieldPath(segments), text));
  test(`${name} is parsed back`, () => assert.deepEqual(parseFieldPath(text), segments));
}

test('Appending builds the same path as formatting', () => {
  let path = '';
  for (const segment of ['spec', 'containers', 0, 'env', 'my.var'] as PathSegment[]) path = appendFieldPath(path, segment);
  assert.equal(path, 'spec.containers[0].env["my.var"]');
});

const badPaths: { name: string; text: string }[] = [
  { name: 'Leading dot', text: '.spec' },
  { name: 'Double dot', text: 'spec..containers' },
  { name: 'Trailing dot', text: 'spec.' },
  { name: 'Key glued after a bracket', text: 'a[0]b' },
  { name: 'Negative index', text: 'a[-1]' },
  { name: 'Index with a leading zero', text: 'a[01]' },
  { name: 'Unquoted key in brackets', text: 'a[name]' },
  { name: 'Unterminated quoted key', text: 'a["name]' },
  { name: 'Missing closing bracket', text: 'a["name"' },
  { name: 'Bad escape in a quoted key', text: 'a["\\x"]' },
  { name: 'Key starting with a digit', text: '1a' },
  { name: 'Space in a plain key', text: 'a b' },
];

for (const { name, text } of badPaths) {
  test(`${name} is refused`, () => assert.throws(() => parseFieldPath(text), FieldPathError));
}

const parents: { name: string; path: string; want: string[] }[] = [
  { name: 'A container image', path: 'spec.containers[0].image', want: ['spec.containers[0]', 'spec.containers', 'spec'] },
  { name: 'A quoted label', path: 'metadata.labels["app.kubernetes.io/name"]', want: ['metadata.labels', 'metadata'] },
  { name: 'A top-level field', path: 'kind', want: [] },
  { name: 'The root', path: '', want: [] },
];

for (const { name, path, want } of parents) {
  test(`${name} has its ancestors listed nearest first`, () => assert.deepEqual(parentPaths(path), want));
}

const suggestions: { name: string; typo: string; want: string | undefined }[] = [
  { name: 'A dropped letter', typo: 'pullSecods', want: 'pullSeconds' },
  { name: 'A different case', typo: 'exitcode', want: 'exitCode' },
  { name: 'Two edits in a long name', typo: 'imagse', want: 'images' },
  { name: 'Two edits in a short name', typo: 'nod', want: undefined },
  { name: 'An unrelated name', typo: 'oidc', want: undefined },
];

for (const { name, typo, want } of suggestions) {
  test(`${name} gets ${want === undefined ? 'no suggestion' : `the suggestion ${want}`}`, () => {
    assert.equal(nearestName(typo, ['images', 'nodes', 'pullSeconds', 'exitCode', 'anonymous']), want);
  });
}

