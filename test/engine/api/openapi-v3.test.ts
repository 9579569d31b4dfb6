// The OpenAPI v3 store: the hashes the index and the URLs carry without reading the documents are the documents'
// own (kube-openapi's computeETag), in the documents' order, so the index kubectl's log shows is the one serve answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { goJson } from '../../../src/engine/api/go-json';
import { OPENAPI_V3_HASHES } from '../../../src/engine/api/openapi/hashes';
import { OpenApiV3, openApiV3Document, openApiV3Hash, openApiV3Index } from '../../../src/engine/api/openapi/v3';

const store = OpenApiV3.load();

test('Each document\'s hash in the index is the upper-case SHA-512 of the document as served, in the documents\' order', () => {
  const computed = store.hashes().map(([gv]) => [gv, createHash('sha512').update(store.document(gv) ?? '').digest('hex').toUpperCase()]);
  assert.equal(computed.length, 13);
  assert.deepEqual(OPENAPI_V3_HASHES, computed);
  assert.deepEqual(store.hashes(), computed);
});

test('The index built from the hashes is the /openapi/v3 serve answers, its ETag the SHA-512 of those bytes', () => {
  const served = goJson(store.root());
  assert.equal(openApiV3Index().json, served);
  assert.equal(openApiV3Index().etag, createHash('sha512').update(served).digest('hex').toUpperCase());
});

const lookupCases = [
  { name: 'the core group\'s document', gv: 'api/v1', served: true },
  { name: 'a named group\'s preferred version', gv: 'apis/autoscaling/v2', served: true },
  { name: 'a group version not served', gv: 'apis/apps/v1beta1', served: false },
];

for (const c of lookupCases) {
  test(`A lookup of ${c.name} gives its hash and document, or neither`, () => {
    const hash = openApiV3Hash(c.gv);
    const doc = openApiV3Document(c.gv);
    assert.equal(hash !== undefined, c.served);
    assert.equal(doc, store.document(c.gv));
    if (doc !== undefined) assert.equal(hash, createHash('sha512').update(doc).digest('hex').toUpperCase());
  });
}
