// The schema as the editor reads it: enum values the generator finds in the specification's descriptions, the type at
// a path, readable type names and the API reference links.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SCHEMA_TYPES } from '../../src/engine/api/schema/schema.generated';
import { fieldAt, readableType, typeAt } from '../../src/language/schema';
import { referenceLink } from '../../src/language/reference';

const enumCases: { type: string; field: string; want: string[] | undefined }[] = [
  // The values as the 1.36 swagger.json descriptions state them ("One of Always, OnFailure, Never.").
  { type: 'core.v1.PodSpec', field: 'restartPolicy', want: ['Always', 'OnFailure', 'Never'] },
  { type: 'core.v1.PodSpec', field: 'dnsPolicy', want: ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'] },
  { type: 'core.v1.Container', field: 'imagePullPolicy', want: ['Always', 'Never', 'IfNotPresent'] },
  { type: 'core.v1.Toleration', field: 'effect', want: ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] },
  { type: 'core.v1.ContainerPort', field: 'protocol', want: ['UDP', 'TCP', 'SCTP'] },
  // "Valid operators are In, NotIn, Exists, DoesNotExist. Gt, and Lt." — the stray period does not end the list.
  { type: 'core.v1.NodeSelectorRequirement', field: 'operator', want: ['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt'] },
  { type: 'core.v1.ServiceSpec', field: 'type', want: ['ExternalName', 'ClusterIP', 'NodePort', 'LoadBalancer'] },
  { type: 'core.v1.Container', field: 'image', want: undefined },
  { type: 'core.v1.PodSpec', field: 'schedulerName', want: undefined },
];

for (const c of enumCases) {
  test(`schema: ${c.type}.${c.field} ${c.want ? `takes ${c.want.join(', ')}` : 'has no enum'}`, () => {
    assert.deepEqual(SCHEMA_TYPES[c.type]?.properties[c.field]?.enum, c.want);
  });
}

const pathCases: { name: string; root: string; path: (string | number)[]; want: string | undefined }[] = [
  { name: 'a container of a Deployment template', root: 'apps.v1.Deployment', path: ['spec', 'template', 'spec', 'containers', 0], want: '#core.v1.Container' },
  { name: 'a resource request', root: 'core.v1.Pod', path: ['spec', 'containers', 0, 'resources', 'requests', 'cpu'], want: 'quantity' },
  { name: 'a label value', root: 'core.v1.Pod', path: ['metadata', 'labels', 'app'], want: 'string' },
  { name: 'a field that does not exist', root: 'core.v1.Pod', path: ['spec', 'containerz'], want: undefined },
  { name: 'an index into a struct', root: 'core.v1.Pod', path: ['spec', 0], want: undefined },
];

for (const c of pathCases) {
  test(`schema: the type at ${c.name}`, () => assert.equal(typeAt(c.root, c.path), c.want));
}

test('schema: fieldAt tells a required field and its struct', () => {
  const info = fieldAt('core.v1.Pod', ['spec', 'containers', 0, 'name']);
  assert.deepEqual([info?.parentId, info?.required, info?.property.type], ['core.v1.Container', true, 'string']);
});

const readable: { expr: string; want: string }[] = [
  { expr: '[]#core.v1.Container', want: '[]Container' },
  { expr: '{}string', want: 'map[string]string' },
  { expr: 'int32', want: 'integer (int32)' },
  { expr: 'int-or-string', want: 'IntOrString (integer or string)' },
];
for (const c of readable) test(`schema: ${c.expr} reads as ${c.want}`, () => assert.equal(readableType(c.expr), c.want));

const links: { type: string; kind: string; want: string }[] = [
  { type: 'core.v1.Container', kind: 'Deployment', want: 'https://kubernetes.io/docs/reference/kubernetes-api/workload-resources/pod-v1/#Container' },
  { type: 'apps.v1.DeploymentSpec', kind: 'Deployment', want: 'https://kubernetes.io/docs/reference/kubernetes-api/workload-resources/deployment-v1/#DeploymentSpec' },
  { type: 'meta.v1.ObjectMeta', kind: 'Pod', want: 'https://kubernetes.io/docs/reference/kubernetes-api/common-definitions/object-meta/#ObjectMeta' },
  { type: 'core.v1.PodTemplateSpec', kind: 'ReplicaSet', want: 'https://kubernetes.io/docs/reference/kubernetes-api/workload-resources/pod-template-v1/#PodTemplateSpec' },
  { type: 'core.v1.ServiceSpec', kind: 'Service', want: 'https://kubernetes.io/docs/reference/kubernetes-api/service-resources/service-v1/#ServiceSpec' },
];
for (const c of links) test(`schema: ${c.type} of a ${c.kind} links to ${c.want}`, () => assert.equal(referenceLink(c.type, c.kind, 'v1'), c.want));
