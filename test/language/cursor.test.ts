// The cursor's place read from indentation, on whole and half-typed manifests: the enclosing path, the key or value.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { locate } from '../../src/language/cursor';

const POD = ['apiVersion: v1', 'kind: Pod', 'metadata:', '  name: web', 'spec:', '  containers:', '  - name: app', '    image: nginx', '  - name: side', '    ports:', '      - containerPort: 80', '    '];

const cases: { name: string; lines: string[]; line: number; character: number; want: { path: (string | number)[]; key?: string; onKey: boolean; onValue: boolean; word: string } }[] = [
  { name: 'a top-level key is at the root', lines: POD, line: 1, character: 2, want: { path: [], key: 'kind', onKey: true, onValue: false, word: 'ki' } },
  { name: 'a value after the colon is the value of its key', lines: POD, line: 3, character: 9, want: { path: ['metadata'], key: 'name', onKey: false, onValue: true, word: 'w' } },
  { name: 'a key of the first container of an indentless list', lines: POD, line: 7, character: 6, want: { path: ['spec', 'containers', 0], key: 'image', onKey: true, onValue: false, word: 'im' } },
  { name: 'the second list item counts as index 1', lines: POD, line: 8, character: 5, want: { path: ['spec', 'containers', 1], key: 'name', onKey: true, onValue: false, word: 'n' } },
  { name: 'a nested list inside the second container', lines: POD, line: 10, character: 12, want: { path: ['spec', 'containers', 1, 'ports', 0], key: 'containerPort', onKey: true, onValue: false, word: 'cont' } },
  { name: 'a blank line indented as a container key starts a key of that container', lines: POD, line: 11, character: 4, want: { path: ['spec', 'containers', 1], onKey: false, onValue: false, word: '' } },
  { name: 'a half-typed word without a colon is a key being typed', lines: [...POD.slice(0, 11), '    live'], line: 11, character: 8, want: { path: ['spec', 'containers', 1], onKey: false, onValue: false, word: 'live' } },
  { name: 'a blank line at column 2 under spec is a key of the pod spec', lines: [...POD.slice(0, 11), '  '], line: 11, character: 2, want: { path: ['spec'], onKey: false, onValue: false, word: '' } },
  { name: 'lines of a block scalar are not keys', lines: ['metadata:', '  annotations:', '    note: |', '      a: b', '  na'], line: 4, character: 4, want: { path: ['metadata'], onKey: false, onValue: false, word: 'na' } },
];

for (const c of cases) {
  test(`cursor: ${c.name}`, () => {
    const got = locate(c.lines, c.line, c.character);
    assert.deepEqual({ path: got.path, ...(got.key ? { key: got.key.name } : {}), onKey: got.onKey, onValue: got.onValue, word: got.word }, c.want);
  });
}
