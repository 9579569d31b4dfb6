// Tests for the parts stored pods share: equal content is one frozen object, different content is not, and what is
// read of a pod does not change.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SharedParts } from '../../../src/engine/cluster/shared-parts';
import type { Meta } from '../../../src/engine/api/types';

type PodLike = Meta & { spec: Record<string, unknown> };

function pod(name: string, spec: Record<string, unknown>): PodLike {
  return {
    apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: { app: 'web' }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-1', uid: 'u1', controller: true }] },
    spec,
  } as unknown as PodLike;
}

const tolerations = () => [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }];

const cases: { name: string; a: Record<string, unknown>; b: Record<string, unknown>; field: string; shared: boolean }[] = [
  { name: 'equal tolerations are one object', a: { tolerations: tolerations() }, b: { tolerations: tolerations() }, field: 'tolerations', shared: true },
  { name: 'tolerations that differ are not', a: { tolerations: tolerations() }, b: { tolerations: [{ ...tolerations()[0], tolerationSeconds: 30 }] }, field: 'tolerations', shared: false },
  { name: 'a string and a number of the same text are not equal', a: { x: { v: '1' } }, b: { x: { v: 1 } }, field: 'x', shared: false },
  { name: 'null and an absent field are not equal', a: { x: { v: null } }, b: { x: {} }, field: 'x', shared: false },
  { name: 'the same fields in another order are another part (the order is written out)', a: { x: { a: 1, b: 2 } }, b: { x: { b: 2, a: 1 } }, field: 'x', shared: false },
  { name: 'an undefined field and an absent one are not equal', a: { x: { v: undefined } }, b: { x: {} }, field: 'x', shared: false },
  { name: 'nested arrays that differ deep down are not equal', a: { x: [[1, 2], [3]] }, b: { x: [[1, 2], [4]] }, field: 'x', shared: false },
  { name: 'a part holding a Date is left as it is', a: { x: { at: new Date(0) } }, b: { x: { at: new Date(0) } }, field: 'x', shared: false },
  { name: 'a list and a map of the same keys and values are not equal', a: { x: ['a', 'b'] }, b: { x: { 0: 'a', 1: 'b' } }, field: 'x', shared: false },
  { name: 'a part with one field more is not equal', a: { x: { a: { v: 1 } } }, b: { x: { a: { v: 1 }, b: 2 } }, field: 'x', shared: false },
  { name: 'a part with one field less is not equal', a: { x: { a: { v: 1 }, b: 2 } }, b: { x: { a: { v: 1 } } }, field: 'x', shared: false },
  { name: 'equal parts deep down in lists of maps are one object', a: { x: [{ a: [{ b: { c: 1 } }] }] }, b: { x: [{ a: [{ b: { c: 1 } }] }] }, field: 'x', shared: true },
];

for (const c of cases) {
  test(`SharedParts: ${c.name}`, () => {
    const parts = new SharedParts();
    const a = parts.pod(pod('a', c.a));
    const b = parts.pod(pod('b', c.b));
    assert.equal(a.spec[c.field] === b.spec[c.field], c.shared);
    assert.deepEqual(a.spec, c.a);
    assert.deepEqual(b.spec, c.b);
  });
}

test('SharedParts shares labels and owner references, never the pod, its spec or its metadata', () => {
  const parts = new SharedParts();
  const a = parts.pod(pod('a', { containers: [{ name: 'c' }] }));
  const b = parts.pod(pod('b', { containers: [{ name: 'c' }] }));
  assert.equal(a.metadata?.labels, b.metadata?.labels);
  assert.equal(a.metadata?.ownerReferences, b.metadata?.ownerReferences);
  assert.equal(a.spec['containers'], b.spec['containers']);
  assert.notEqual(a.spec, b.spec);
  assert.notEqual(a.metadata, b.metadata);
  assert.ok(Object.isFrozen(a.spec['containers']));
});

test('SharedParts keeps a `__proto__` key as an own field, as JSON.parse does', () => {
  const parts = new SharedParts();
  const spec = JSON.parse('{"x": {"__proto__": {"polluted": true}}, "__proto__": {"y": 1}}') as Record<string, unknown>;
  const shared = parts.pod(pod('a', spec));
  assert.deepEqual(Object.keys(shared.spec), ['x', '__proto__']);
  assert.deepEqual(Object.keys(shared.spec['x'] as object), ['__proto__']);
  assert.equal(Object.getPrototypeOf(shared.spec['x']), Object.prototype);
  assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
});

test('SharedParts walks a spec once: a status write keeps the spec it was given', () => {
  const parts = new SharedParts();
  const first = parts.pod(pod('a', { tolerations: tolerations() }));
  const again = parts.pod({ ...first, status: { phase: 'Running' } } as PodLike);
  assert.equal(again.spec, first.spec);
});

test('SharedParts finds a part again after a pod with another one came between', () => {
  const parts = new SharedParts();
  const a = parts.pod(pod('a', { tolerations: tolerations() }));
  parts.pod(pod('b', { tolerations: [{ ...tolerations()[0], tolerationSeconds: 30 }] }));
  const c = parts.pod(pod('c', { tolerations: tolerations() }));
  assert.equal(a.spec['tolerations'], c.spec['tolerations']);
});

test('SharedParts shares the equal parts of a part that differs deep down, and never an inherited field as a part', () => {
  const parts = new SharedParts();
  const container = (mount: string) => [{ name: 'app', resources: { requests: { cpu: '100m' } }, volumeMounts: [{ name: mount, mountPath: '/var/run' }] }];
  const a = parts.pod(pod('a', { containers: container('token-a') }));
  const b = parts.pod(pod('b', { containers: container('token-b') }));
  const ca = (a.spec['containers'] as { resources: object; volumeMounts: object }[])[0]!;
  const cb = (b.spec['containers'] as { resources: object; volumeMounts: object }[])[0]!;
  assert.notEqual(a.spec['containers'], b.spec['containers']);
  assert.equal(ca.resources, cb.resources);
  assert.notEqual(ca.volumeMounts, cb.volumeMounts);
  assert.deepEqual(b.spec['containers'], container('token-b'));
  const c = parts.pod(pod('c', JSON.parse('{"x": {"__proto__": {}}}') as Record<string, unknown>));
  const d = parts.pod(pod('d', JSON.parse('{"x": {"__proto__": {}}}') as Record<string, unknown>));
  assert.equal(Object.getPrototypeOf((c.spec['x'] as Record<string, unknown>)['__proto__']), Object.prototype);
  assert.equal(c.spec['x'], d.spec['x']);
  // The previous part has no own `__proto__`: the one this pod has is compared with nothing, not the inherited prototype.
  const e = parts.pod(pod('e', { x: { a: 1 } }));
  const f = parts.pod(pod('f', JSON.parse('{"x": {"__proto__": {}}}') as Record<string, unknown>));
  assert.notEqual(e.spec['x'], f.spec['x']);
  const own = Object.getOwnPropertyDescriptor(f.spec['x'] as object, '__proto__')?.value as object;
  assert.notEqual(own, Object.prototype);
  assert.deepEqual(Object.keys(own), []);
});
