// Tests for jsonEqual: equal exactly when JSON.stringify of both values, keys sorted at every level, is the same text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonEqual } from '../../../src/engine/api/json-equal';
import { templateEqualIgnoreHash } from '../../../src/engine/controllers/deployment-util';

/** sortedJson is the slow definition jsonEqual answers without writing: the JSON text with every object's keys sorted. */
function sortedJson(v: unknown): string | undefined {
  const sort = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.map(sort);
    if (typeof x === 'object' && x !== null) return Object.fromEntries(Object.keys(x).sort().map((k) => [k, sort((x as Record<string, unknown>)[k])]));
    return x;
  };
  return JSON.stringify(sort(v ?? null));
}

const cases: { name: string; a: unknown; b: unknown }[] = [
  { name: 'the same object', a: { x: 1 }, b: { x: 1 } },
  { name: 'keys in another order', a: { x: 1, y: { p: [1, 2], q: 'z' } }, b: { y: { q: 'z', p: [1, 2] }, x: 1 } },
  { name: 'a key with an undefined value and no key', a: { x: 1, y: undefined }, b: { x: 1 } },
  { name: 'a missing key against a null one', a: { x: 1 }, b: { x: 1, y: null } },
  { name: 'undefined and null in a list', a: [undefined], b: [null] },
  { name: 'NaN and null', a: { n: Number.NaN }, b: { n: null } },
  { name: 'undefined and null at the top', a: undefined, b: null },
  { name: 'lists in another order', a: [1, 2], b: [2, 1] },
  { name: 'a list against an object with its indexes', a: ['a'], b: { 0: 'a' } },
  { name: 'an empty list against an empty object', a: [], b: {} },
  { name: 'a number against its text', a: { x: 1 }, b: { x: '1' } },
  { name: 'an extra key', a: { x: 1 }, b: { x: 1, y: 2 } },
  { name: 'a longer list', a: [1], b: [1, 1] },
  { name: 'deep difference', a: { s: { t: { u: [{ v: true }] } } }, b: { s: { t: { u: [{ v: false }] } } } },
  { name: 'zero and minus zero', a: 0, b: -0 },
];

for (const c of cases) {
  test(`jsonEqual: ${c.name}`, () => {
    const want = sortedJson(c.a) === sortedJson(c.b);
    assert.equal(jsonEqual(c.a, c.b), want);
    assert.equal(jsonEqual(c.b, c.a), want);
  });
}

const hash = 'pod-template-hash';
const templates: { name: string; a: unknown; b: unknown; want: boolean }[] = [
  { name: 'the hash label alone differs', a: { metadata: { labels: { app: 'web', [hash]: '1' } } }, b: { metadata: { labels: { app: 'web' } } }, want: true },
  { name: 'the hash label was the only label', a: { metadata: { labels: { [hash]: '1' } }, spec: {} }, b: { metadata: {}, spec: {} }, want: true },
  { name: 'another label differs', a: { metadata: { labels: { app: 'web', [hash]: '1' } } }, b: { metadata: { labels: { app: 'api', [hash]: '1' } } }, want: false },
  { name: 'the spec differs', a: { spec: { containers: [{ name: 'a' }] } }, b: { spec: { containers: [{ name: 'b' }] } }, want: false },
];
for (const c of templates) {
  test(`templateEqualIgnoreHash: ${c.name}, and neither template is changed`, () => {
    const before = [JSON.stringify(c.a), JSON.stringify(c.b)];
    assert.equal(templateEqualIgnoreHash(c.a, c.b), c.want);
    assert.deepEqual([JSON.stringify(c.a), JSON.stringify(c.b)], before);
  });
}
