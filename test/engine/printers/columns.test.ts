// Every printed kind's column definitions, pinned to kube-apiserver 1.36.3's (reference-columns.json, from `npm run oracle
// -- --only tables`), and the Table's envelope: kind, apiVersion, metadata, NoHeaders, the row objects per includeObject.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { KubeObject } from '../../../src/engine/api/types';
import { tableFor } from '../../../src/engine/printers/registry';
import type { TableColumnDefinition } from '../../../src/engine/printers/types';

const REFERENCE = JSON.parse(readFileSync('test/fixtures/printers/reference-columns.json', 'utf8')) as Record<string, TableColumnDefinition[]>;
const now = Date.parse('2026-01-01T01:00:00Z');

for (const [resource, want] of Object.entries(REFERENCE)) {
  test(`the ${resource} columns are kube-apiserver 1.36.3's, names, types, formats, descriptions and priorities`, () => {
    assert.deepEqual(tableFor(resource, [], now).columnDefinitions, want);
  });
}

test('a kind is found by its kind as by its resource, with or without its group', () => {
  assert.deepEqual(tableFor('Deployment', [], now).columnDefinitions, REFERENCE['deployments']);
  assert.deepEqual(tableFor('deployments.apps', [], now).columnDefinitions, REFERENCE['deployments']);
});

const web: KubeObject = {
  apiVersion: 'apps/v1', kind: 'DaemonSet',
  metadata: { name: 'agent', namespace: 'default', resourceVersion: '42', creationTimestamp: '2026-01-01T00:00:00Z', annotations: { 'deprecated.daemonset.template.generation': '1' } },
  spec: { selector: { matchLabels: { app: 'agent' } }, template: { spec: { containers: [{ name: 'agent', image: 'busybox:1.36' }] } } },
};
const role: KubeObject = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'reader', namespace: 'default', creationTimestamp: '2026-01-01T00:00:00.500Z', labels: { a: 'b' } } };

const envelopes: { name: string; got: () => unknown; want: unknown }[] = [
  {
    name: 'a list is a meta.k8s.io/v1 Table with the list\'s resourceVersion',
    got: () => { const t = tableFor('configmaps', [], now, { resourceVersion: '7' }); return [t.kind, t.apiVersion, t.metadata, t.rows]; },
    want: ['Table', 'meta.k8s.io/v1', { resourceVersion: '7' }, []],
  },
  { name: 'an empty resourceVersion is omitted from the metadata', got: () => tableFor('pods', [], now).metadata, want: {} },
  { name: 'NoHeaders leaves the column definitions null', got: () => tableFor('pods', [], now, { noHeaders: true }).columnDefinitions, want: null },
  {
    name: 'rows carry PartialObjectMetadata by default, the metadata of the internal object (no round-trip annotations)',
    got: () => tableFor('daemonsets', [web], now).rows![0]!.object,
    want: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name: 'agent', namespace: 'default', resourceVersion: '42', creationTimestamp: '2026-01-01T00:00:00Z' } },
  },
  { name: 'includeObject=Object carries the object itself', got: () => tableFor('daemonsets', [web], now, { includeObject: 'Object' }).rows![0]!.object, want: web },
  { name: 'includeObject=None carries a null object', got: () => tableFor('daemonsets', [web], now, { includeObject: 'None' }).rows![0]!.object, want: null },
  {
    name: 'a kind without a printer gets the default table: NAME and CREATED AT in RFC 3339 whole seconds',
    got: () => { const t = tableFor('roles', [role], now, { includeObject: 'None' }); return [t.columnDefinitions!.map((c) => [c.name, c.type, c.format]), t.rows]; },
    want: [[['Name', 'string', 'name'], ['Created At', 'date', '']], [{ cells: ['reader', '2026-01-01T00:00:00Z'], object: null }]],
  },
  { name: 'the default table of no objects has null rows, as Go\'s nil slice', got: () => tableFor('limitranges', [], now).rows, want: null },
];

for (const c of envelopes) test(c.name, () => assert.deepEqual(c.got(), c.want));
