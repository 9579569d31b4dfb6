// Tests for generated names and the pod-template-hash; see pkg/controller/controller_utils_test.go
// (TestComputeHash) and staging/src/k8s.io/apiserver/pkg/storage/names/generate_test.go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  MAX_GENERATED_NAME_LENGTH, POD_TEMPLATE_HASH_LABEL, canonicalJSON, computePodTemplateHash, fnv32a, generateName,
  podGenerateName, replicaSetName, safeEncodeString,
} from '../../../src/engine/api/naming';
import { NAME_ALPHABET, Random } from '../../../src/engine/runtime/random';
import { dumpPodTemplateForHash } from '../../../src/engine/api/go-dump';
import type { PodTemplateSpec } from '../../../src/engine/api/types';

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

const fnvCases = [
  // Published FNV-1a 32-bit test vectors (offset basis for the empty input).
  { name: 'FNV-32a of nothing is the offset basis', input: '', want: 0x811c9dc5 },
  { name: 'FNV-32a of "a" is e40c292c', input: 'a', want: 0xe40c292c },
  { name: 'FNV-32a of "foobar" is bf9cf968', input: 'foobar', want: 0xbf9cf968 },
];

for (const c of fnvCases) {
  test(c.name, () => assert.equal(fnv32a(bytes(c.input)), c.want));
}

const encodeCases = [
  { name: 'Each digit maps by its character code modulo 27', input: '0123456789', want: '456789bcdf' },
  { name: 'The empty-input hash encodes as ten characters', input: String(0x811c9dc5), want: '65bb57b6b5' },
];

for (const c of encodeCases) {
  test(c.name, () => assert.equal(safeEncodeString(c.input), c.want));
}

const template: PodTemplateSpec = {
  metadata: { labels: { app: 'web' } },
  spec: { containers: [{ name: 'app', image: 'nginx:1.27', imagePullPolicy: 'IfNotPresent' }] },
};

test('A pod-template-hash uses only the characters of encoded digits', () => {
  const hash = computePodTemplateHash(template);
  assert.match(hash, /^[456789bcdf]{1,10}$/);
});

test('A pod-template-hash is the same for equal templates, whatever their key order', () => {
  const reordered: PodTemplateSpec = { spec: { containers: [{ imagePullPolicy: 'IfNotPresent', image: 'nginx:1.27', name: 'app' }] }, metadata: { labels: { app: 'web' } } };
  assert.equal(computePodTemplateHash(reordered), computePodTemplateHash(template));
  assert.equal(canonicalJSON(reordered), canonicalJSON(template));
});

test('A pod-template-hash changes with the template', () => {
  const changed: PodTemplateSpec = { ...template, spec: { containers: [{ name: 'app', image: 'nginx:1.28' }] } };
  assert.notEqual(computePodTemplateHash(changed), computePodTemplateHash(template));
});

// TestComputeHash: different collision counts give different hashes, including nil against MaxInt32.
const collisionCases = [
  { name: 'Collision counts 1 and 2 give different hashes', a: 1, b: 2 },
  { name: 'No collision count and MaxInt32 give different hashes', a: undefined, b: 2147483647 },
];

for (const c of collisionCases) {
  test(c.name, () => assert.notEqual(computePodTemplateHash({}, c.a), computePodTemplateHash({}, c.b)));
}

test('A collision count is hashed as eight little-endian bytes after the template', () => {
  const seed = fnv32a(bytes(dumpPodTemplateForHash(template)));
  const expected = safeEncodeString(String(fnv32a(new Uint8Array([1, 0, 0, 0, 0, 0, 0, 0]), seed)));
  assert.equal(computePodTemplateHash(template, 1), expected);
});

test('A replica set is named after its deployment and the hash', () => {
  assert.equal(replicaSetName('web', '7d4b9c8f5'), 'web-7d4b9c8f5');
  assert.equal(POD_TEMPLATE_HASH_LABEL, 'pod-template-hash');
});

const prefixCases = [
  { name: 'A controller prefixes its pods with its name and a dash', controller: 'web-7d4b9c8f5', want: 'web-7d4b9c8f5-' },
  { name: 'An invalid prefix falls back to the bare controller name', controller: 'Web', want: 'Web' },
];

for (const c of prefixCases) {
  test(c.name, () => assert.equal(podGenerateName(c.controller), c.want));
}

test('A generated name keeps the base and adds five characters of the name alphabet', () => {
  const name = generateName('foo', new Random(1));
  assert.ok(name.startsWith('foo') && name !== 'foo');
  assert.equal(name.length, 8);
  assert.ok([...name.slice(3)].every((ch) => NAME_ALPHABET.includes(ch)));
  assert.equal(name, `foo${new Random(1).string(5)}`);
});

test('A generated name cuts the base to 58 characters so the name fits in 63', () => {
  const base = `${'a'.repeat(70)}-`;
  const name = generateName(base, new Random(7));
  assert.equal(MAX_GENERATED_NAME_LENGTH, 58);
  assert.equal(name.length, 63);
  assert.equal(name.slice(0, 58), 'a'.repeat(58));
});
