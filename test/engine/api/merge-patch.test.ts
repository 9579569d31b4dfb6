// JSON merge patch (RFC 7386) against the examples of the RFC's Appendix A, as evanphx/json-patch v4's MergePatch
// applies them (kube-apiserver's application/merge-patch+json).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyMergePatch, MergePatchError } from '../../../src/engine/api/merge-patch';

const cases: { name: string; doc: Record<string, unknown>; patch: unknown; want: unknown }[] = [
  { name: 'a member is replaced', doc: { a: 'b' }, patch: { a: 'c' }, want: { a: 'c' } },
  { name: 'a member is added', doc: { a: 'b' }, patch: { b: 'c' }, want: { a: 'b', b: 'c' } },
  { name: 'null removes a member', doc: { a: 'b' }, patch: { a: null }, want: {} },
  { name: 'null removes only the member it names', doc: { a: 'b', b: 'c' }, patch: { a: null }, want: { b: 'c' } },
  { name: 'a list replaces a string', doc: { a: ['b'] }, patch: { a: 'c' }, want: { a: 'c' } },
  { name: 'a list replaces a list whole', doc: { a: ['b'] }, patch: { a: ['c'] }, want: { a: ['c'] } },
  { name: 'objects merge at depth, nulls delete there', doc: { a: { b: 'c' } }, patch: { a: { b: 'd', c: null } }, want: { a: { b: 'd' } } },
  { name: 'a list of objects is replaced, not merged', doc: { a: [{ b: 'c' }] }, patch: { a: [1] }, want: { a: [1] } },
  { name: 'an object replacing a scalar loses its null members', doc: { e: null }, patch: { a: 1 }, want: { e: null, a: 1 } },
  { name: 'a new object member drops its nulls', doc: {}, patch: { a: { bb: { ccc: null } } }, want: { a: { bb: {} } } },
];

for (const c of cases) {
  test(c.name, () => {
    assert.deepEqual(applyMergePatch(c.doc, c.patch), c.want);
  });
}

test('a patch that is not an object or a list is Invalid JSON Patch', () => {
  assert.throws(() => applyMergePatch({ a: 1 }, 'x'), new MergePatchError());
  assert.throws(() => applyMergePatch({ a: 1 }, null), /Invalid JSON Patch/);
});
