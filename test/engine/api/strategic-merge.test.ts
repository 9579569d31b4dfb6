// The three-way strategic merge patch kubectl apply computes and the merge the API server applies.
// See staging/src/k8s.io/apimachinery/pkg/util/strategicpatch/patch.go.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyStrategicMergePatch, createThreeWayMergePatch, type JsonMap } from '../../../src/engine/api/strategic-merge';

const deployment = (image: string, extra: JsonMap = {}): JsonMap => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' },
  spec: { replicas: 3, ...extra, template: { spec: { containers: [{ name: 'app', image }] } } },
});

const patchCases: { name: string; original: JsonMap | undefined; modified: JsonMap; current: JsonMap; want: JsonMap }[] = [
  { name: 'the same configuration gives an empty patch', original: deployment('nginx:1.27'), modified: deployment('nginx:1.27'), current: { ...deployment('nginx:1.27'), status: { replicas: 3 } }, want: {} },
  {
    name: 'a new image patches the container by its name, with the list order directive',
    original: deployment('nginx:1.27'), modified: deployment('nginx:1.28'), current: deployment('nginx:1.27'),
    want: { spec: { template: { spec: { '$setElementOrder/containers': [{ name: 'app' }], containers: [{ image: 'nginx:1.28', name: 'app' }] } } } },
  },
  {
    name: 'a field dropped from the configuration is deleted with null; fields only the server set are left alone',
    original: deployment('nginx:1.27', { minReadySeconds: 5 }), modified: deployment('nginx:1.27'), current: deployment('nginx:1.27', { minReadySeconds: 5, revisionHistoryLimit: 10 }),
    want: { spec: { minReadySeconds: null } },
  },
  {
    name: 'a strategy change lists the keys to retain (patchStrategy retainKeys)',
    original: deployment('nginx:1.27'), modified: deployment('nginx:1.27', { strategy: { type: 'Recreate' } }), current: deployment('nginx:1.27', { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } } }),
    want: { spec: { strategy: { type: 'Recreate', $retainKeys: ['type'] } } },
  },
  {
    name: 'webhooks and a CSINode\'s drivers are patched by name (admissionregistration/v1, storage/v1 patchMergeKey)',
    original: { webhooks: [{ name: 'a.example.com', sideEffects: 'None' }], spec: { drivers: [{ name: 'd', nodeID: 'n1' }] } },
    modified: { webhooks: [{ name: 'a.example.com', sideEffects: 'Some' }], spec: { drivers: [{ name: 'd', nodeID: 'n2' }] } },
    current: { webhooks: [{ name: 'a.example.com', sideEffects: 'None', timeoutSeconds: 10 }], spec: { drivers: [{ name: 'd', nodeID: 'n1' }] } },
    want: {
      '$setElementOrder/webhooks': [{ name: 'a.example.com' }], webhooks: [{ sideEffects: 'Some', name: 'a.example.com' }],
      spec: { '$setElementOrder/drivers': [{ name: 'd' }], drivers: [{ nodeID: 'n2', name: 'd' }] },
    },
  },
];
for (const c of patchCases) test(`three-way patch: ${c.name}`, () => assert.deepEqual(createThreeWayMergePatch(c.original, c.modified, c.current), c.want));

const mergeCases: { name: string; target: JsonMap; patch: JsonMap; want: JsonMap }[] = [
  {
    name: 'a container patched by name keeps its other fields',
    target: { spec: { containers: [{ name: 'app', image: 'a', imagePullPolicy: 'IfNotPresent' }, { name: 'side', image: 's' }] } },
    patch: { spec: { containers: [{ name: 'app', image: 'b' }] } },
    want: { spec: { containers: [{ name: 'app', image: 'b', imagePullPolicy: 'IfNotPresent' }, { name: 'side', image: 's' }] } },
  },
  {
    name: '$patch delete removes a list element; $setElementOrder orders the rest',
    target: { spec: { containers: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] } },
    patch: { spec: { '$setElementOrder/containers': [{ name: 'c' }, { name: 'a' }], containers: [{ $patch: 'delete', name: 'b' }] } },
    want: { spec: { containers: [{ name: 'c' }, { name: 'a' }] } },
  },
  {
    name: '$retainKeys drops the keys it does not list',
    target: { spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%' } } } },
    patch: { spec: { strategy: { type: 'Recreate', $retainKeys: ['type'] } } },
    want: { spec: { strategy: { type: 'Recreate' } } },
  },
  { name: 'null deletes a field', target: { spec: { a: 1, b: 2 } }, patch: { spec: { a: null } }, want: { spec: { b: 2 } } },
];
for (const c of mergeCases) test(`merge: ${c.name}`, () => assert.deepEqual(applyStrategicMergePatch(c.target, c.patch), c.want));
