// The pod-template-hash as Kubernetes 1.36 computes it (pkg/controller/controller_utils.go ComputeHash over
// k8s.io/utils/dump.ForHash). expected.json holds, for each template of cases.yaml after the API server's
// defaulting, the dump and hash that Go's go-spew printed over the 1.36 core/v1 and meta/v1 type declarations,
// after the protobuf round trip the Deployment controller's informer copy has been through.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { defaultPodTemplate } from '../../../src/engine/api/defaults';
import { dumpPodTemplateForHash, goValueOf, spewHash } from '../../../src/engine/api/go-dump';
import { computePodTemplateHash } from '../../../src/engine/api/naming';
import type { PodTemplateSpec } from '../../../src/engine/api/types';

interface Case { name: string; template: PodTemplateSpec; collisionCount?: number }

const dir = 'test/fixtures/pod-template-hash';
const cases = parseAllDocuments(readFileSync(`${dir}/cases.yaml`, 'utf8')).map((d) => d.toJS() as Case);
const expected = JSON.parse(readFileSync(`${dir}/expected.json`, 'utf8')) as Record<string, { hash: string; dump: string }>;

for (const c of cases) {
  test(`The hash of ${c.name} is Kubernetes' own`, () => {
    const want = expected[c.name];
    assert.ok(want, `expected.json has no entry for "${c.name}"`);
    const stored = defaultPodTemplate(c.template).object;
    assert.equal(dumpPodTemplateForHash(stored), want.dump);
    assert.equal(computePodTemplateHash(stored, c.collisionCount), want.hash);
  });
}

test('A nil pointer element leaves the next value untyped, as go-spew does', () => {
  const dump = spewHash({
    kind: 'struct', type: 'x.T',
    fields: [
      ['P', { kind: 'slice', type: '[]*int64', items: [{ kind: 'ptr', type: 'int64', elem: null }] }],
      ['S', { kind: 'string', type: 'string', value: 'after' }],
    ],
  });
  assert.equal(dump, '(x.T){P:([]*int64)[<nil>] S:after}');
});

test('A non-nil pointer element prints as <*> and its value without a type', () => {
  const dump = spewHash({ kind: 'slice', type: '[]*int64', items: [{ kind: 'ptr', type: 'int64', elem: { kind: 'int', type: 'int64', value: 7n } }] });
  assert.equal(dump, '([]*int64)[<*>7]');
});

test('Map keys print in byte order, whatever order the JSON had', () => {
  assert.equal(spewHash(goValueOf('map[string]string', { b: '2', a: '1', B: '0' })), '(map[string]string)map[B:0 a:1 b:2]');
});
