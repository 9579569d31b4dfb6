// The reference-cluster runner's families without a cluster: the manifest-variant generator of scripts/oracle/fields/
// on a small specification (its walk, its variants, a pod valid but for the one value, the seeded sample), the
// grouping of its differences into families, and how the kubectl family reads and compares kubectl's output.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = join(__dirname, '..', '..', '..');
// The runner's modules are JavaScript (ES modules): loaded as they are, untyped.
const load = async (file: string): Promise<any> => import(pathToFileURL(join(root, 'scripts', 'oracle', file)).href);

const ref = (name: string): { $ref: string } => ({ $ref: `#/definitions/io.k8s.api.core.v1.${name}` });
/** SPEC is a specification of three definitions: PodSpec's containers and a port's required int32 and enum. */
const SPEC = {
  definitions: {
    'io.k8s.api.core.v1.PodSpec': { required: ['containers'], properties: { containers: { type: 'array', items: ref('Container') }, hostNetwork: { type: 'boolean' } } },
    'io.k8s.api.core.v1.Container': { required: ['name'], properties: { name: { type: 'string' }, ports: { type: 'array', items: ref('ContainerPort'), 'x-kubernetes-list-map-keys': ['containerPort'] } } },
    'io.k8s.api.core.v1.ContainerPort': {
      required: ['containerPort'],
      properties: { containerPort: { type: 'integer', format: 'int32' }, protocol: { type: 'string', description: 'Protocol for port. Must be UDP, TCP, or SCTP.' } },
    },
  },
};

test('The walk lists each field of PodSpec breadth first, with its shape, the objects on its path and its enum', async () => {
  const { walkPodSpec } = await load('fields/spec.mjs');
  const fields = walkPodSpec(SPEC);
  assert.deepEqual(fields.map((f: { label: string }) => f.label), [
    'spec.containers', 'spec.hostNetwork', 'spec.containers[0].name', 'spec.containers[0].ports',
    'spec.containers[0].ports[0].containerPort', 'spec.containers[0].ports[0].protocol',
  ]);
  const port = fields.find((f: { label: string }) => f.label.endsWith('containerPort'));
  assert.deepEqual([port.shape, port.required, port.owners.map((o: [number, string]) => o[0])], [{ kind: 'integer', format: 'int32' }, true, [1, 3, 5]]);
  // The Go enum types the descriptions do not list come from the generator's own table.
  assert.deepEqual(fields.find((f: { label: string }) => f.label.endsWith('protocol')).enum, ['TCP', 'UDP', 'SCTP']);
});

test('A field gets a valid value, the wrong type, bounds, null, and absent when required, each in a pod valid but for it', async () => {
  const { walkPodSpec } = await load('fields/spec.mjs');
  const { fieldCases } = await load('fields/cases.mjs');
  const cases = fieldCases(SPEC.definitions, walkPodSpec(SPEC));
  const of = (label: string): Record<string, unknown> => Object.fromEntries(cases.filter((c: { field: string }) => c.field === label).map((c: { variant: string; pod: { spec: unknown } }) => [c.variant, c.pod.spec]));
  const port = of('spec.containers[0].ports[0].containerPort');
  assert.deepEqual(Object.keys(port), ['valid', 'wrong-type', 'zero', 'negative', 'int32-max', 'too-big', 'null', 'absent']);
  assert.deepEqual(port['too-big'], { containers: [{ name: 'app', image: 'nginx:1.27', ports: [{ containerPort: 2147483648 }] }] });
  assert.deepEqual(port['absent'], { containers: [{ name: 'app', image: 'nginx:1.27', ports: [{}] }] });
  assert.deepEqual(of('spec.containers[0].ports[0].protocol')['invalid'], { containers: [{ name: 'app', image: 'nginx:1.27', ports: [{ containerPort: 8080, protocol: 'Bogus' }] }] });
  assert.deepEqual(of('spec.containers[0].ports')['duplicate'], { containers: [{ name: 'app', image: 'nginx:1.27', ports: [{ containerPort: 8080 }, { containerPort: 8080 }] }] });
  // Pods are named by their place in the whole list, so a sample keeps the names of the full run.
  assert.deepEqual(cases.slice(0, 2).map((c: { label: string; pod: { metadata: { name: string } } }) => [c.label, c.pod.metadata.name]), [['fields spec.containers valid', 'f-1'], ['fields spec.containers wrong-type', 'f-2']]);
});

test('A limit keeps a sample chosen by the seed, the same for the same seed, in the order of the full list', async () => {
  const { walkPodSpec } = await load('fields/spec.mjs');
  const { fieldCases } = await load('fields/cases.mjs');
  const names = (seed: number): string[] => fieldCases(SPEC.definitions, walkPodSpec(SPEC), { seed, limit: 5 }).map((c: { pod: { metadata: { name: string } } }) => c.pod.metadata.name);
  assert.deepEqual(names(1), names(1));
  assert.notDeepEqual(names(1), names(2));
  assert.equal(names(1).length, 5);
  const order = names(3).map((n) => Number(n.slice(2)));
  assert.deepEqual(order, [...order].sort((a, b) => a - b));
});

test('Differences group into families: the pod name, list indexes, values and numbers left out of the message', async () => {
  const { familyOf, template } = await load('fields/summary.mjs');
  assert.equal(template('Pod "f-12" is invalid: spec.containers[0].ports[1].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive'),
    'Pod "NAME" is invalid: spec.containers[i].ports[i].containerPort: Invalid value: V: must be between N and N, inclusive');
  const result = (field: string, engine: unknown, reference: unknown): unknown => ({ components: { fields: [{ field, engine, reference }] } });
  assert.equal(familyOf(result('code', '201 created', '422 Pod "f-1" is invalid: spec.os.name: Required value')), 'engine accepts, reference refuses: N Pod "NAME" is invalid: spec.os.name: Required value');
  assert.equal(familyOf(result('object.spec.containers[0].tty', false, undefined)), 'stored object differs at object.spec.containers[i].tty');
  assert.equal(familyOf({ components: { fields: [] } }), undefined);
});

test('kubectl output is read as cells, with ages, uids, random suffixes and alike nodes made one', async () => {
  const { cellsOf } = await load('kubectl/text.mjs');
  const nodeName = (n: string): string => (n === 'worker-2' ? 'worker-1' : n);
  const out = 'NAME                  READY   STATUS    AGE\nweb-b8c99f66f-2sxmc   0/1     Pending   3m4s\n\nLabels:  controller-uid=1d09b53d-8f0c-49b2-bf62-1ffd5112615f\nNode:    worker-2/';
  assert.deepEqual(cellsOf(out, nodeName), ['NAME | READY | STATUS | AGE', 'web-b8c99f66f-XXXXX | 0/1 | Pending | AGE', '', 'Labels: | controller-uid=UID', 'Node: | worker-1/']);
});

test('A line diff names the lines of one side only; a difference of the client version is set apart', async () => {
  const { explainSkew, lineDiff } = await load('kubectl/text.mjs');
  const diff = lineDiff(['a', 'b', '    Optional: | false', 'c'], ['a', '    ConfigMapOptional: | <nil>', 'c', 'd']);
  assert.deepEqual(diff, ['- b', '-     Optional: | false', '+     ConfigMapOptional: | <nil>', '+ d']);
  const { left, explained } = explainSkew(diff);
  assert.deepEqual(left, ['- b', '+ d']);
  assert.deepEqual(explained.map((e: { engine: string; reference: string }) => [e.engine, e.reference]), [['    Optional: | false', '    ConfigMapOptional: | <nil>']]);
});

test('The manifest cases load, and each names a manifest and cluster files the project has', async () => {
  const { existsSync } = await import('node:fs');
  const { CASES } = await load('cases.mjs');
  assert.ok(CASES.length > 100);
  for (const c of CASES as { manifest: string; cluster?: string[] }[]) {
    // Generated cases are written when the runner starts; the others are the project's own files.
    if (c.manifest.includes('/gen/')) continue;
    assert.ok(existsSync(join(root, c.manifest)), c.manifest);
    for (const f of c.cluster ?? []) assert.ok(existsSync(join(root, f)), f);
  }
});
