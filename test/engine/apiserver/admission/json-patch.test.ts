// JSON Patch as a mutating webhook's patch is applied: RFC 6902's operations (cases after its appendix A) and the
// error texts of gopkg.in/evanphx/json-patch.v4 patch.go, which kube-apiserver wraps as `Internal error occurred: ...`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyJsonPatch, decodeJsonPatch, JsonPatchError, patchedPointers, pointerTokens } from '../../../../src/engine/api/json-patch';

const applies: { name: string; doc: unknown; patch: unknown[]; want: unknown }[] = [
  { name: 'An add puts a new member in an object', doc: { foo: 'bar' }, patch: [{ op: 'add', path: '/baz', value: 'qux' }], want: { foo: 'bar', baz: 'qux' } },
  { name: 'An add inserts into an array at its index', doc: { foo: ['bar', 'baz'] }, patch: [{ op: 'add', path: '/foo/1', value: 'qux' }], want: { foo: ['bar', 'qux', 'baz'] } },
  { name: 'An add at - appends to an array', doc: { foo: ['bar'] }, patch: [{ op: 'add', path: '/foo/-', value: 'qux' }], want: { foo: ['bar', 'qux'] } },
  { name: 'An add at a negative index counts from the end, as json-patch allows', doc: { foo: ['a', 'b'] }, patch: [{ op: 'add', path: '/foo/-1', value: 'x' }], want: { foo: ['a', 'b', 'x'] } },
  { name: 'An add replaces an existing member', doc: { foo: 'bar' }, patch: [{ op: 'add', path: '/foo', value: 1 }], want: { foo: 1 } },
  { name: 'An add of a nested object', doc: { foo: 'bar' }, patch: [{ op: 'add', path: '/child', value: { grandchild: {} } }], want: { foo: 'bar', child: { grandchild: {} } } },
  { name: 'A remove drops a member', doc: { baz: 'qux', foo: 'bar' }, patch: [{ op: 'remove', path: '/baz' }], want: { foo: 'bar' } },
  { name: 'A remove drops an array element', doc: { foo: ['bar', 'qux', 'baz'] }, patch: [{ op: 'remove', path: '/foo/1' }], want: { foo: ['bar', 'baz'] } },
  { name: 'A replace changes a member', doc: { baz: 'qux', foo: 'bar' }, patch: [{ op: 'replace', path: '/baz', value: 'boo' }], want: { baz: 'boo', foo: 'bar' } },
  { name: 'A replace of a missing member adds it, as json-patch v4 does', doc: { foo: 'bar' }, patch: [{ op: 'replace', path: '/baz', value: 1 }], want: { foo: 'bar', baz: 1 } },
  { name: 'A replace of the whole document takes an object', doc: { foo: 'bar' }, patch: [{ op: 'replace', path: '', value: { a: 1 } }], want: { a: 1 } },
  { name: 'A replace of the whole document with a scalar does nothing', doc: { foo: 'bar' }, patch: [{ op: 'replace', path: '', value: 5 }], want: { foo: 'bar' } },
  {
    name: 'A move takes a member elsewhere', doc: { foo: { bar: 'baz', waldo: 'fred' }, qux: { corge: 'grault' } },
    patch: [{ op: 'move', from: '/foo/waldo', path: '/qux/thud' }], want: { foo: { bar: 'baz' }, qux: { corge: 'grault', thud: 'fred' } },
  },
  { name: 'A move reorders an array', doc: { foo: ['all', 'grass', 'cows', 'eat'] }, patch: [{ op: 'move', from: '/foo/1', path: '/foo/3' }], want: { foo: ['all', 'cows', 'eat', 'grass'] } },
  { name: 'A copy duplicates a member', doc: { a: { b: 1 } }, patch: [{ op: 'copy', from: '/a', path: '/c' }], want: { a: { b: 1 }, c: { b: 1 } } },
  { name: 'A copy of a missing member writes null', doc: { a: 1 }, patch: [{ op: 'copy', from: '/x', path: '/c' }], want: { a: 1, c: null } },
  { name: 'A passing test changes nothing', doc: { baz: 'qux', foo: ['a', 2, 'c'] }, patch: [{ op: 'test', path: '/baz', value: 'qux' }, { op: 'test', path: '/foo/1', value: 2 }], want: { baz: 'qux', foo: ['a', 2, 'c'] } },
  { name: 'A test of a missing member against null passes', doc: { a: 1 }, patch: [{ op: 'test', path: '/b', value: null }], want: { a: 1 } },
  { name: 'A test compares objects by the document\'s keys only, as json-patch v4 does', doc: { a: { x: 1 } }, patch: [{ op: 'test', path: '/a', value: { x: 1, y: 2 } }], want: { a: { x: 1 } } },
  { name: 'Pointer escapes name keys with / and ~', doc: { labels: {} }, patch: [{ op: 'add', path: '/labels/app.kubernetes.io~1name', value: 'web' }, { op: 'add', path: '/labels/a~0b', value: 'x' }], want: { labels: { 'app.kubernetes.io/name': 'web', 'a~b': 'x' } } },
  { name: 'A pointer without a leading slash drops its first token, as json-patch does', doc: { a: 1 }, patch: [{ op: 'add', path: 'ignored/b', value: 2 }], want: { a: 1, b: 2 } },
];

for (const c of applies) {
  test(c.name, () => assert.deepEqual(applyJsonPatch(c.doc, decodeJsonPatch(c.patch)), c.want));
}

test('Applying a patch leaves the given document untouched', () => {
  const doc = { metadata: { labels: { app: 'web' } } };
  applyJsonPatch(doc, decodeJsonPatch([{ op: 'add', path: '/metadata/labels/team', value: 'a' }]));
  assert.deepEqual(doc, { metadata: { labels: { app: 'web' } } });
});

// Expected texts: gopkg.in/evanphx/json-patch.v4 patch.go (errors.Wrapf prints `message: cause`).
const failures: { name: string; doc: unknown; patch: unknown[]; want: string }[] = [
  { name: 'An add under a missing parent', doc: { metadata: {} }, patch: [{ op: 'add', path: '/metadata/labels/team', value: 'a' }], want: 'add operation does not apply: doc is missing path: "/metadata/labels/team": missing value' },
  { name: 'An add past the end of an array', doc: { a: [1] }, patch: [{ op: 'add', path: '/a/3', value: 2 }], want: "error in add for path: '/a/3': Unable to access invalid index: 3: invalid index referenced" },
  { name: 'An add at a word in an array', doc: { a: [1] }, patch: [{ op: 'add', path: '/a/x', value: 2 }], want: `error in add for path: '/a/x': value was not a proper array index: 'x': strconv.Atoi: parsing "x": invalid syntax` },
  { name: 'An add without a path', doc: {}, patch: [{ op: 'add', value: 1 }], want: 'add operation failed to decode path: missing value' },
  { name: 'A remove of a missing member', doc: { a: {} }, patch: [{ op: 'remove', path: '/a/b' }], want: "error in remove for path: '/a/b': Unable to remove nonexistent key: b: missing value" },
  { name: 'A remove under a missing parent', doc: {}, patch: [{ op: 'remove', path: '/a/b' }], want: 'remove operation does not apply: doc is missing path: "/a/b": missing value' },
  { name: 'A remove past the end of an array', doc: { a: [1] }, patch: [{ op: 'remove', path: '/a/1' }], want: "error in remove for path: '/a/1': Unable to access invalid index: 1: invalid index referenced" },
  { name: 'A replace past the end of an array', doc: { a: [1] }, patch: [{ op: 'replace', path: '/a/4', value: 1 }], want: 'replace operation does not apply: doc is missing key: /a/4: missing value' },
  { name: 'A replace under a missing parent', doc: {}, patch: [{ op: 'replace', path: '/a/b', value: 1 }], want: 'replace operation does not apply: doc is missing path: /a/b: missing value' },
  { name: 'A replace without a path', doc: {}, patch: [{ op: 'replace', value: 1 }], want: 'replace operation failed to decode path: operation missing path field: missing value' },
  { name: 'A move from a missing member', doc: { a: {} }, patch: [{ op: 'move', from: '/a/x', path: '/b' }], want: "error in move for path: 'x': Unable to remove nonexistent key: x: missing value" },
  { name: 'A move without a from', doc: {}, patch: [{ op: 'move', path: '/b' }], want: 'move operation failed to decode from: operation, missing from field: missing value' },
  { name: 'A move to a missing parent', doc: { a: 1 }, patch: [{ op: 'move', from: '/a', path: '/x/y' }], want: 'move operation does not apply: doc is missing destination path: /x/y: missing value' },
  { name: 'A copy from a missing parent', doc: {}, patch: [{ op: 'copy', from: '/x/y', path: '/b' }], want: 'copy operation does not apply: doc is missing from path: /x/y: missing value' },
  { name: 'A failing test', doc: { baz: 'qux' }, patch: [{ op: 'test', path: '/baz', value: 'bar' }], want: 'testing value /baz failed: test failed' },
  { name: 'A test of a missing member against a value', doc: {}, patch: [{ op: 'test', path: '/baz', value: 'bar' }], want: 'testing value /baz failed: test failed' },
  { name: 'A test under a missing parent', doc: {}, patch: [{ op: 'test', path: '/a/b', value: 1 }], want: 'test operation does not apply: is missing path: /a/b: missing value' },
  { name: 'An unknown operation', doc: {}, patch: [{ op: 'merge', path: '/a' }], want: 'Unexpected kind: merge' },
  { name: 'An operation without op', doc: {}, patch: [{ path: '/a' }], want: 'Unexpected kind: unknown' },
];

for (const c of failures) {
  test(`${c.name} fails with json-patch's words`, () => {
    assert.throws(() => applyJsonPatch(c.doc, decodeJsonPatch(c.patch)), (err: unknown) => err instanceof JsonPatchError && err.message === c.want);
  });
}

const undecodable: { name: string; patch: unknown; want: string }[] = [
  { name: 'A patch that is not a list', patch: { op: 'add' }, want: 'json: cannot unmarshal object into Go value of type jsonpatch.Patch' },
  { name: 'An operation that is a string', patch: ['add'], want: 'json: cannot unmarshal string into Go value of type jsonpatch.Operation' },
];

for (const c of undecodable) {
  test(`${c.name} does not decode (encoding/json's message)`, () => {
    assert.throws(() => decodeJsonPatch(c.patch), (err: unknown) => err instanceof JsonPatchError && err.message === c.want);
  });
}

test('A patch names the pointers it writes, moves from, and not the ones it only tests', () => {
  const ops = decodeJsonPatch([{ op: 'add', path: '/a' }, { op: 'test', path: '/b' }, { op: 'move', from: '/c', path: '/d' }]);
  assert.deepEqual(patchedPointers(ops), ['/a', '/d', '/c']);
  assert.deepEqual(pointerTokens('/metadata/labels/a~1b'), ['metadata', 'labels', 'a/b']);
});
