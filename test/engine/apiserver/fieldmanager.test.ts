// The field manager's parts as structured-merge-diff v6 has them: the FieldsV1 form of a set (as kube-apiserver
// 1.36.3 wrote it for the same configuration), the merge of associative lists, the apply of a manager over others
// (pruning, conflicts, force), the managers an update records. See the fieldmanager sources named in
// src/engine/apiserver/fieldmanager.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../src/engine/api/types';
import { applyManagedFields, updateManagedFields } from '../../../src/engine/apiserver/fieldmanager/manager';
import { pathString } from '../../../src/engine/apiserver/fieldmanager/path';
import { kindType } from '../../../src/engine/apiserver/fieldmanager/schema';
import { FieldSet } from '../../../src/engine/apiserver/fieldmanager/set';
import { merge, toFieldSet } from '../../../src/engine/apiserver/fieldmanager/typed';
import { StatusError } from '../../../src/engine/apiserver/request';

const POD = kindType('v1', 'Pod');
const scope = (now = '2026-01-01T00:00:10Z') => ({ apiVersion: 'v1', kind: 'ConfigMap', now });
const configMap = (data: Record<string, string>) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default' }, data });

test('a pod configuration\'s fields are written as kube-apiserver 1.36.3 wrote them: keys sorted, ports keyed with their default protocol', () => {
  const config = { spec: { containers: [{ name: 'web', image: 'nginx:1.27', ports: [{ containerPort: 80 }] }] }, metadata: { labels: { app: 'web' } } };
  assert.deepEqual(JSON.stringify(toFieldSet(config, POD).toFieldsV1()), JSON.stringify({
    'f:metadata': { 'f:labels': { 'f:app': {} } },
    'f:spec': { 'f:containers': { 'k:{"name":"web"}': { '.': {}, 'f:image': {}, 'f:name': {}, 'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } } } } },
  }));
});

const roundTrips: { name: string; fields: Record<string, unknown> }[] = [
  { name: 'a member with children keeps its `.`', fields: { 'f:data': { '.': {}, 'f:a': {} } } },
  { name: 'set items and keys survive', fields: { 'f:metadata': { 'f:finalizers': { 'v:"a/b"': {} } }, 'f:spec': { 'f:containers': { 'k:{"name":"x"}': { '.': {}, 'f:name': {} } } } } },
];

for (const c of roundTrips) {
  test(`FieldsV1 reads and writes back unchanged: ${c.name}`, () => {
    assert.deepEqual(FieldSet.fromFieldsV1(c.fields).toFieldsV1(), c.fields);
  });
}

test('a conflict path prints fields, keys and set values as structured-merge-diff does', () => {
  assert.equal(pathString([{ field: 'spec' }, { field: 'containers' }, { key: [['name', 'web']] }, { field: 'ports' }, { key: [['containerPort', 80], ['protocol', 'TCP']] }]), '.spec.containers[name="web"].ports[containerPort=80,protocol="TCP"]');
  assert.equal(pathString([{ field: 'metadata' }, { field: 'finalizers' }, { value: 'x' }]), '.metadata.finalizers[="x"]');
});

test('merging an associative list puts the applied items in their order and keeps the live ones beside them', () => {
  const live = { spec: { containers: [{ name: 'one', image: 'a' }, { name: 'two', image: 'b' }] } };
  const config = { spec: { containers: [{ name: 'three', image: 'c' }, { name: 'one', image: 'd' }] } };
  const merged = merge(live, config, POD) as { spec: { containers: { name: string; image: string }[] } };
  assert.deepEqual(merged.spec.containers, [{ name: 'three', image: 'c' }, { name: 'one', image: 'd' }, { name: 'two', image: 'b' }]);
});

test('an atomic list and an atomic map are replaced whole by an apply', () => {
  const live = { spec: { nodeSelector: { a: '1', b: '2' }, containers: [{ name: 'x', args: ['1', '2'] }] } };
  const config = { spec: { nodeSelector: { c: '3' }, containers: [{ name: 'x', args: ['3'] }] } };
  assert.deepEqual(merge(live, config, POD), config);
});

const applies: { name: string; steps: [string, Record<string, string>, boolean?][]; data?: Record<string, string>; conflict?: string; managers?: string[] }[] = [
  { name: 'fields the manager stops applying go', steps: [['a', { x: '1', y: '2' }], ['a', { x: '1' }]], data: { x: '1' }, managers: ['a'] },
  { name: 'fields another applier owns stay', steps: [['a', { x: '1', y: '2' }], ['b', { y: '2' }], ['a', { x: '1' }]], data: { x: '1', y: '2' }, managers: ['a', 'b'] },
  { name: 'another value is a conflict', steps: [['a', { x: '1' }], ['b', { x: '2' }]], conflict: 'Apply failed with 1 conflict: conflict with "a": .data.x' },
  { name: 'force takes the field and the loser, left with nothing, goes', steps: [['a', { x: '1' }], ['b', { x: '2' }, true]], data: { x: '2' }, managers: ['b'] },
];

for (const c of applies) {
  test(`an apply over other managers: ${c.name}`, () => {
    let live: KubeObject | undefined;
    try {
      for (const [manager, data, force] of c.steps) live = applyManagedFields(live, configMap(data), manager, force ?? false, scope()).object;
    } catch (e) {
      assert.ok(e instanceof StatusError);
      assert.equal(e.status.message, c.conflict);
      assert.equal(e.status.code, 409);
      return;
    }
    assert.equal(c.conflict, undefined);
    assert.deepEqual(live?.['data'], c.data);
    assert.deepEqual(live?.metadata?.managedFields?.map((e) => e.manager).sort(), c.managers);
  });
}

test('an update records what it added or changed; a change to another manager\'s field moves it, a no-op records nothing', () => {
  const created = updateManagedFields(undefined, configMap({ x: '1' }), 'creator', scope('2026-01-01T00:00:01Z'));
  assert.deepEqual(created.metadata?.managedFields, [{ manager: 'creator', operation: 'Update', apiVersion: 'v1', time: '2026-01-01T00:00:01Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { '.': {}, 'f:x': {} } } }]);
  const edited = updateManagedFields(created, { ...configMap({ x: '2', y: '1' }), metadata: created.metadata } as KubeObject, 'editor', scope('2026-01-01T00:00:02Z'));
  assert.deepEqual(edited.metadata?.managedFields?.map((e) => [e.manager, e.fieldsV1]), [['creator', { 'f:data': {} }], ['editor', { 'f:data': { 'f:x': {}, 'f:y': {} } }]]);
  const same = updateManagedFields(edited, edited, 'third', scope('2026-01-01T00:00:03Z'));
  assert.deepEqual(same.metadata?.managedFields, edited.metadata?.managedFields);
});

test('past ten Update managers the two oldest are merged into ancient-changes', () => {
  let obj: KubeObject = configMap({});
  for (let i = 0; i <= 10; i++) {
    obj = updateManagedFields(i ? obj : undefined, { ...configMap({ ...(obj['data'] as Record<string, string>), [`k${i}`]: 'v' }), metadata: obj.metadata } as KubeObject, `m${i}`, scope(`2026-01-01T00:00:${String(10 + i)}Z`));
  }
  const entries = obj.metadata?.managedFields ?? [];
  assert.equal(entries.length, 10);
  assert.deepEqual(entries[0], { manager: 'ancient-changes', operation: 'Update', apiVersion: 'v1', time: '2026-01-01T00:00:11Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { '.': {}, 'f:k0': {}, 'f:k1': {} } } });
  assert.deepEqual(entries.slice(1).map((e) => e.manager), ['m2', 'm3', 'm4', 'm5', 'm6', 'm7', 'm8', 'm9', 'm10']);
});
