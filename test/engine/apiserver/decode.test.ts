// kube-apiserver's decoding of a request body: the 400 BadRequest messages of the JSON serializer and strict field
// validation, what passes unchanged, and the decode step of a whole create request.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { KubeObject } from '../../../src/engine/api/types';
import { parseQuantity } from '../../../src/engine/api/quantity';
import { decodeObject, fieldValidationOf } from '../../../src/engine/apiserver/decode';
import { embeddedCluster } from '../../../src/engine/cluster/files';
import { defaultProfile } from '../../../src/engine/cluster/inputs';
import { loadInputs, parseDocuments } from '../../../src/engine/cluster/loader';
import { addSourceToError, renderKubectlError } from '../../../src/engine/kubectl/errors';
import { Simulation } from '../../../src/engine/simulation';

const root = resolve(__dirname, '..', '..', '..', '..');
const FORMAT = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
const POD = 'Pod in version "v1" cannot be handled as a Pod: ';

const pod = (spec: Record<string, unknown>, extra: Record<string, unknown> = {}): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web' }, spec, ...extra });
const app = (fields: Record<string, unknown>): Record<string, unknown> => ({ containers: [{ name: 'app', image: 'nginx:1.27', ...fields }] });
const deployment = (spec: Record<string, unknown>): KubeObject => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' },
  spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: app({}) }, ...spec },
});

/** rejected decodes strictly and returns the error message and field, failing when the object passes. */
function rejected(obj: KubeObject): { message: string; field?: string; code: number; reason: string } {
  const result = decodeObject(obj, { strict: true });
  if (!('error' in result)) throw new assert.AssertionError({ message: `expected a decoding error, got ${JSON.stringify(result.object)}` });
  return { message: result.error.message, ...(result.field ? { field: result.field } : {}), code: result.error.code, reason: result.error.reason };
}

const errorCases: { name: string; obj: KubeObject; message: string; field?: string }[] = [
  { name: 'a string where the containers list goes', obj: pod({ containers: 'x' }), message: `${POD}json: cannot unmarshal string into Go struct field PodSpec.spec.containers of type []v1.Container`, field: 'spec.containers' },
  { name: 'a word for the replicas of a Deployment', obj: deployment({ replicas: 'two' }), message: 'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32', field: 'spec.replicas' },
  { name: 'a container that is the number 5', obj: pod({ containers: [5] }), message: `${POD}json: cannot unmarshal number into Go struct field PodSpec.spec.containers of type v1.Container`, field: 'spec.containers[0]' },
  { name: 'a number where the image string goes', obj: pod(app({ image: 5 })), message: `${POD}json: cannot unmarshal number into Go struct field Container.spec.containers.image of type string`, field: 'spec.containers[0].image' },
  { name: 'an object where a list goes', obj: pod({ containers: { name: 'app' } }), message: `${POD}json: cannot unmarshal object into Go struct field PodSpec.spec.containers of type []v1.Container` },
  { name: 'a list where the spec object goes', obj: pod([] as unknown as Record<string, unknown>), message: `${POD}json: cannot unmarshal array into Go struct field Pod.spec of type v1.PodSpec`, field: 'spec' },
  { name: 'a string where the metadata object goes', obj: { apiVersion: 'v1', kind: 'Pod', metadata: 'web' } as unknown as KubeObject, message: `${POD}json: cannot unmarshal string into Go struct field Pod.metadata of type v1.ObjectMeta` },
  { name: 'a boolean where a port number goes', obj: pod(app({ ports: [{ containerPort: true }] })), message: `${POD}json: cannot unmarshal bool into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32`, field: 'spec.containers[0].ports[0].containerPort' },
  { name: 'a quoted port number', obj: pod(app({ ports: [{ containerPort: '80' }] })), message: `${POD}json: cannot unmarshal string into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32` },
  { name: 'a fraction where an int32 goes', obj: pod(app({ ports: [{ containerPort: 1.5 }] })), message: `${POD}json: cannot unmarshal number 1.5 into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32` },
  { name: 'a number too big for an int32', obj: pod(app({ ports: [{ containerPort: 3000000000 }] })), message: `${POD}json: cannot unmarshal number 3000000000 into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32` },
  { name: 'a string where a boolean goes', obj: pod(app({ stdin: 'yes' })), message: `${POD}json: cannot unmarshal string into Go struct field Container.spec.containers.stdin of type bool` },
  { name: 'a number where a named string type goes', obj: pod({ ...app({}), restartPolicy: 5 }), message: `${POD}json: cannot unmarshal number into Go struct field PodSpec.spec.restartPolicy of type v1.RestartPolicy` },
  { name: 'a number in a list of capabilities', obj: pod(app({ securityContext: { capabilities: { add: [5] } } })), message: `${POD}json: cannot unmarshal number into Go struct field Capabilities.spec.containers.securityContext.capabilities.add of type v1.Capability`, field: 'spec.containers[0].securityContext.capabilities.add[0]' },
  { name: 'a number where the limits map goes', obj: pod(app({ resources: { limits: 5 } })), message: `${POD}json: cannot unmarshal number into Go struct field ResourceRequirements.spec.containers.resources.limits of type v1.ResourceList` },
  { name: 'a number as a label value', obj: pod(app({}), { metadata: { name: 'web', labels: { tier: 1 } } }), message: `${POD}json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string`, field: 'metadata.labels.tier' },
  { name: 'a list where the nodeSelector map goes', obj: pod({ ...app({}), nodeSelector: ['a'] }), message: `${POD}json: cannot unmarshal array into Go struct field PodSpec.spec.nodeSelector of type map[string]string` },
  { name: 'a string volume source, named through the embedded VolumeSource', obj: pod({ ...app({}), volumes: [{ name: 'v', emptyDir: 'x' }] }), message: `${POD}json: cannot unmarshal string into Go struct field Volume.spec.volumes.VolumeSource.emptyDir of type v1.EmptyDirVolumeSource` },
  { name: 'a string probe action, named through the embedded ProbeHandler', obj: pod(app({ livenessProbe: { httpGet: 'x' } })), message: `${POD}json: cannot unmarshal string into Go struct field Probe.spec.containers.livenessProbe.ProbeHandler.httpGet of type v1.HTTPGetAction` },
  { name: 'a number as a ConfigMap name, named through the embedded LocalObjectReference', obj: pod(app({ env: [{ name: 'X', valueFrom: { configMapKeyRef: { name: 5, key: 'k' } } }] })), message: `${POD}json: cannot unmarshal number into Go struct field ConfigMapKeySelector.spec.containers.env.valueFrom.configMapKeyRef.LocalObjectReference.name of type string` },
  { name: 'a quantity that is a word', obj: pod(app({ resources: { limits: { cpu: 'lots' } } })), message: `${POD}${FORMAT}`, field: 'spec.containers[0].resources.limits.cpu' },
  { name: 'a quantity with a unit in the wrong case', obj: pod(app({ resources: { requests: { memory: '1gi' } } })), message: `${POD}${FORMAT}` },
  { name: 'a quantity with an unknown suffix', obj: pod(app({ resources: { requests: { cpu: '1mm' } } })), message: `${POD}unable to parse quantity's suffix` },
  { name: 'a boolean quantity', obj: pod(app({ resources: { requests: { cpu: true } } })), message: `${POD}${FORMAT}` },
  { name: 'an empty quantity', obj: pod({ ...app({}), volumes: [{ name: 'v', emptyDir: { sizeLimit: '' } }] }), message: `${POD}${FORMAT}` },
  { name: 'an object as an int-or-string port', obj: { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { ports: [{ port: 80, targetPort: { a: 1 } }] } }, message: 'Service in version "v1" cannot be handled as a Service: json: cannot unmarshal object into Go struct field ServicePort.spec.ports.targetPort of type int32', field: 'spec.ports[0].targetPort' },
  { name: 'a fraction as an int-or-string', obj: deployment({ strategy: { rollingUpdate: { maxSurge: 1.5 } } }), message: 'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal number 1.5 into Go struct field RollingUpdateDeployment.spec.strategy.rollingUpdate.maxSurge of type int32' },
  { name: 'a timestamp that is not RFC 3339', obj: pod(app({}), { metadata: { name: 'web', creationTimestamp: 'yesterday' } }), message: `${POD}parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"`, field: 'metadata.creationTimestamp' },
  { name: 'a date without a time', obj: pod(app({}), { metadata: { name: 'web', creationTimestamp: '2024-01-01' } }), message: `${POD}parsing time "2024-01-01" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "T"` },
  { name: 'a thirteenth month', obj: pod(app({}), { metadata: { name: 'web', creationTimestamp: '2024-13-01T00:00:00Z' } }), message: `${POD}parsing time "2024-13-01T00:00:00Z": month out of range` },
  { name: 'a number where a timestamp goes', obj: pod(app({}), { metadata: { name: 'web', creationTimestamp: 5 } }), message: `${POD}json: cannot unmarshal number into Go struct field ObjectMeta.metadata.creationTimestamp of type string` },
  { name: 'secret data that is not base64', obj: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { password: 'hunter2!' } }, message: 'Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 7', field: 'data.password' },
  { name: 'a number as secret data', obj: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { n: 5 } }, message: 'Secret in version "v1" cannot be handled as a Secret: json: cannot unmarshal number into Go struct field Secret.data of type []uint8' },
  { name: 'a misspelled container field', obj: pod(app({ imagee: 'x' })), message: `${POD}strict decoding error: unknown field "spec.containers[0].imagee"`, field: 'spec.containers[0].imagee' },
  { name: 'an unknown top-level field', obj: pod(app({}), { extra: true }), message: `${POD}strict decoding error: unknown field "extra"`, field: 'extra' },
  { name: 'an unknown metadata field', obj: pod(app({}), { metadata: { name: 'web', labelz: {} } }), message: `${POD}strict decoding error: unknown field "metadata.labelz"` },
  { name: 'an unknown field deep in a Deployment template', obj: deployment({ template: { spec: { containers: [{ name: 'a' }, { name: 'b', ports: [{ containerPortZ: 8080 }] }] } } }), message: 'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.template.spec.containers[1].ports[0].containerPortZ"' },
  { name: 'a field in the wrong case, as field names are case-sensitive', obj: pod({ containers: [{ name: 'app', Image: 'nginx' }] }), message: `${POD}strict decoding error: unknown field "spec.containers[0].Image"` },
  { name: 'several unknown fields, joined in the order of the body\'s keys', obj: pod({ containers: [{ name: 'app', imagee: 'x', foo: 1 }], bar: { baz: 1 } }), message: `${POD}strict decoding error: unknown field "spec.bar", unknown field "spec.containers[0].foo", unknown field "spec.containers[0].imagee"`, field: 'spec.bar' },
  { name: 'a type error with unknown fields, which wins over them', obj: pod(app({ imagee: 'x', image: 5 })), message: `${POD}json: cannot unmarshal number into Go struct field Container.spec.containers.image of type string` },
  { name: 'two type errors, of which the first in key order is reported', obj: pod({ containers: [{ name: 5 }], restartPolicy: 5 }), message: `${POD}json: cannot unmarshal number into Go struct field Container.spec.containers.name of type string` },
  { name: 'a bad quantity after a type error, which ends decoding and is reported', obj: pod(app({ image: 5, resources: { limits: { cpu: 'lots' } } })), message: `${POD}${FORMAT}` },
];

for (const c of errorCases) {
  test(`The decoder rejects ${c.name} with 400 BadRequest`, () => {
    const got = rejected(c.obj);
    assert.equal(got.message, c.message);
    assert.equal(got.code, 400);
    assert.equal(got.reason, 'BadRequest');
    if (c.field !== undefined) assert.equal(got.field, c.field);
  });
}

test('The decoder reports at most 100 strict errors', () => {
  const spec: Record<string, unknown> = app({});
  for (let i = 0; i < 150; i++) spec[`f${String(i).padStart(3, '0')}`] = i;
  const { message } = rejected(pod(spec));
  assert.equal(message.match(/unknown field/g)?.length, 100);
  assert.ok(message.endsWith('unknown field "spec.f099"'));
});

test('The decoder reports no unknown field inside an unknown field', () => {
  assert.equal(rejected(pod({ ...app({}), extra: { inner: { deeper: 1 } } })).message, `${POD}strict decoding error: unknown field "spec.extra"`);
});

const fullPod: KubeObject = {
  apiVersion: 'v1', kind: 'Pod',
  metadata: { name: 'web', namespace: 'default', labels: { app: 'web' }, annotations: { note: 'x' }, creationTimestamp: '2024-02-29T12:00:00.5+02:00' },
  spec: {
    restartPolicy: 'Always', terminationGracePeriodSeconds: 30, nodeSelector: { 'kubernetes.io/os': 'linux' },
    securityContext: { runAsUser: 1000, fsGroup: 2000, seccompProfile: { type: 'RuntimeDefault' } },
    initContainers: [{ name: 'init', image: 'busybox', command: ['sh', '-c', 'true'], restartPolicy: 'Always' }],
    containers: [{
      name: 'app', image: 'nginx:1.27', imagePullPolicy: 'IfNotPresent', args: ['--port', '8080'],
      ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
      env: [{ name: 'A', value: '1' }, { name: 'B', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }, { name: 'C', valueFrom: { resourceFieldRef: { resource: 'limits.cpu', divisor: '1m' } } }],
      resources: { requests: { cpu: '500m', memory: '128Mi' }, limits: { cpu: '1', memory: '268435456', 'nvidia.com/gpu': '1' } },
      readinessProbe: { httpGet: { path: '/', port: 'http' }, periodSeconds: 5 },
      livenessProbe: { tcpSocket: { port: 8080 }, failureThreshold: 3 },
      lifecycle: { preStop: { exec: { command: ['sleep', '5'] } } },
      volumeMounts: [{ name: 'data', mountPath: '/data' }, { name: 'cfg', mountPath: '/etc/cfg', readOnly: true }],
    }],
    volumes: [{ name: 'data', emptyDir: { sizeLimit: '1Gi' } }, { name: 'cfg', configMap: { name: 'cfg', items: [{ key: 'a', path: 'a' }] } }],
    tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }],
    affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }] } } },
  },
};

const passCases: { name: string; obj: KubeObject }[] = [
  { name: 'a Pod with most of its fields, canonical quantities in several notations, ports both names and numbers', obj: fullPod },
  { name: 'a Deployment with a rolling update of 25% surge and 1 unavailable', obj: deployment({ replicas: 3, strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: 1 } } }) },
  { name: 'a Service with a named and a numbered target port', obj: { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { selector: { app: 'web' }, ports: [{ port: 80, targetPort: 'http' }, { port: 443, targetPort: 8443 }] } } },
  { name: 'a Secret with base64 data and string data', obj: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, type: 'Opaque', data: { password: 'aHVudGVyMg==' }, stringData: { user: 'bob' } } },
  { name: 'an object of a kind without a schema', obj: { apiVersion: 'example.com/v1', kind: 'Widget', spec: { anything: [1, 'two'] } } },
];

for (const c of passCases) {
  test(`The decoder passes ${c.name} unchanged`, () => {
    const result = decodeObject(c.obj, { strict: true });
    assert.ok(!('error' in result), 'error' in result ? result.error.message : '');
    assert.deepEqual(result.object, c.obj);
    assert.deepEqual(result.warnings, []);
  });
}

/** canonicalQuantities rewrites every string of a JSON value that is a non-canonical quantity (`4091904Ki`) canonically (`3996Mi`). */
function canonicalQuantities(decoded: unknown, original: unknown): unknown {
  if (typeof original === 'string' && typeof decoded === 'string' && decoded !== original) {
    return parseQuantity(original).toString() === decoded ? decoded : original;
  }
  if (Array.isArray(original)) return original.map((v, i) => canonicalQuantities((decoded as unknown[] | undefined)?.[i], v));
  if (original && typeof original === 'object') {
    return Object.fromEntries(Object.entries(original).map(([k, v]) => [k, canonicalQuantities((decoded as Record<string, unknown> | undefined)?.[k], v)]));
  }
  return original;
}

test('The decoder passes the example manifests and every object of the embedded cluster unchanged but for canonical quantities', () => {
  const objects = ['pod.yaml', 'deployment.yaml'].flatMap((file) => parseDocuments(readFileSync(join(root, 'examples', file), 'utf8'), file).map((d) => d.object));
  for (const obj of [...objects, ...embeddedCluster().map((d) => d.object)]) {
    const result = decodeObject(obj, { strict: true });
    assert.ok(!('error' in result), `${obj.kind}/${obj.metadata?.name}: ${'error' in result ? result.error.message : ''}`);
    assert.deepEqual(result.object, canonicalQuantities(result.object, obj), `${obj.kind}/${obj.metadata?.name}`);
  }
  // The embedded nodes write their memory in Ki, as a kubelet's cAdvisor figure; the API server would return 3996Mi.
  const node = embeddedCluster().map((d) => d.object).find((o) => o.kind === 'Node')!;
  const decoded = decodeObject(node, { strict: true });
  assert.ok(!('error' in decoded));
  assert.deepEqual((decoded.object['status'] as { allocatable: Record<string, string> }).allocatable['memory'], '3996Mi');
});

test('The decoder turns unknown fields into warnings and drops them when validation is not strict', () => {
  const result = decodeObject(pod(app({ imagee: 'x' }), { status: { phase: 'Running', bogus: 1 } }), { strict: false });
  assert.ok(!('error' in result));
  assert.deepEqual(result.warnings, ['unknown field "spec.containers[0].imagee"', 'unknown field "status.bogus"']);
  assert.deepEqual(result.object, pod(app({}), { status: { phase: 'Running' } }));
});

test('The decoder drops null fields and gives null list items and map values their Go zero value', () => {
  const result = decodeObject(pod({ containers: [{ name: 'app', image: null, args: ['a', null], ports: [null] }] }, { metadata: { name: 'web', labels: { a: null }, creationTimestamp: null } }), { strict: true });
  assert.ok(!('error' in result));
  assert.deepEqual(result.object, pod({ containers: [{ name: 'app', args: ['a', ''], ports: [{}] }] }, { metadata: { name: 'web', labels: { a: '' } } }));
});

test('The decoder trims the spaces around a quantity, as UnmarshalJSON does, before it reads it', () => {
  const result = decodeObject(pod(app({ resources: { requests: { cpu: ' 0.100 ', memory: '\u00a0128Mi' } } })), { strict: true });
  assert.ok(!('error' in result));
  assert.deepEqual(result.object, pod(app({ resources: { requests: { cpu: '100m', memory: '128Mi' } } })));
});

// A quantity string is stored as the Quantity marshals: the text as written when ParseQuantity kept it as canonical, else
// the canonical form (apimachinery/pkg/api/resource/quantity.go v0.36.3, ParseQuantity and CanonicalizeBytes).
// Pinned from the reference cluster (kube-apiserver v1.36.3): each value as `requests.cpu` of a Pod, read back with
// `kubectl get -o json` (memory and ephemeral-storage come back the same). The last ones are also rounded up to milli
// units by SetDefaults_ResourceList, which decoding does not do: decoding alone keeps "1500u".
const quantityStrings: [string, string][] = [
  ['0.100', '100m'], ['1000m', '1'], ['1e3', '1e3'], ['.5', '500m'], ['1.5Gi', '1536Mi'], ['2048Ki', '2Mi'], ['+1', '+1'],
  ['01', '01'], ['1.500k', '1.500k'], ['100000000n', '100m'], ['1024Mi', '1Gi'], ['0.5Gi', '512Mi'], ['1E3', '1E3'],
  ['12e2', '1200'], ['0', '0'], ['100m', '100m'], ['1', '1'], ['128Mi', '128Mi'], ['1.5', '1500m'], ['2000', '2k'],
  ['1e-3', '1e-3'], ['5e-1', '500e-3'], ['0.1Gi', '107374182400m'], ['1Ki', '1Ki'], ['1k', '1k'], ['+64Mi', '64Mi'],
];

test('The decoder stores a quantity string as the API server returns it, canonical unless written canonically', () => {
  for (const [written, stored] of quantityStrings) {
    const result = decodeObject(pod(app({ resources: { requests: { cpu: written } } })), { strict: true });
    assert.ok(!('error' in result), written);
    assert.deepEqual(result.object, pod(app({ resources: { requests: { cpu: stored } } })), written);
  }
  const result = decodeObject(pod(app({ resources: { requests: { cpu: '1500u' } } })), { strict: true });
  assert.ok(!('error' in result));
  assert.deepEqual(result.object, pod(app({ resources: { requests: { cpu: '1500u' } } })));
});

test('A created pod stores its quantities as the reference cluster does, rounded up to milli units', () => {
  const manifest = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: app\n    image: nginx:1.27\n'
    + '    resources:\n      requests: {cpu: "1500u", memory: "0.5Gi", ephemeral-storage: "2048Ki"}\n      limits: {cpu: "0.100"}\n';
  const inputs = loadInputs({ manifest: { file: 'pod.yaml', text: manifest }, clusters: [], identity: { kind: 'default' } });
  inputs.cluster.objects.unshift(...embeddedCluster());
  const sim = new Simulation(inputs, {});
  sim.run();
  const stored = sim.store.get('Pod', 'default', 'web') as { spec: { containers: { resources: unknown }[] } };
  // Reference (kube-apiserver v1.36.3): requests cpu "1500u" is 2m after SetDefaults_ResourceList, limits "0.100" is 100m.
  assert.deepEqual(stored.spec.containers[0]!.resources, { requests: { cpu: '2m', memory: '512Mi', 'ephemeral-storage': '2Mi' }, limits: { cpu: '100m' } });
});

// A Quantity marshals as a string: a number in the manifest is stored as the text the API server returns for it.
// Pinned from the reference cluster (npm run oracle, k8s.io/kubernetes v1.36.3): `nvidia.com/gpu: 1` comes back "1".
const numericQuantities: { name: string; value: number; want: string }[] = [
  { name: 'a whole number', value: 1, want: '1' },
  { name: 'a fraction, in milli units', value: 0.5, want: '500m' },
  { name: 'a large number', value: 1000000, want: '1M' },
  { name: 'a number of bytes', value: 268435456, want: '268435456' },
];

for (const c of numericQuantities) {
  test(`The decoder stores a quantity written as ${c.name} as its canonical string`, () => {
    const result = decodeObject(pod(app({ resources: { limits: { 'nvidia.com/gpu': c.value, cpu: c.value } } })), { strict: true });
    assert.ok(!('error' in result));
    assert.deepEqual(result.object, pod(app({ resources: { limits: { 'nvidia.com/gpu': c.want, cpu: c.want } } })));
  });
}

test('The decoder rejects a quantity ending in a newline, which encoding/json escapes before the server trims', () => {
  assert.equal(rejected(pod(app({ resources: { requests: { cpu: '100m\n' } } }))).message, `${POD}${FORMAT}`);
});

test('The decoder writes a list of byte values as the base64 string Go would store', () => {
  const result = decodeObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, binaryData: { b: [104, 105] } }, { strict: true });
  assert.ok(!('error' in result));
  assert.deepEqual(result.object.binaryData, { b: 'aGk=' });
});

test('The decoder decodes a Pod of 2,000 containers in well under a second', () => {
  const containers = Array.from({ length: 2000 }, (_, i) => ({
    name: `c${i}`, image: 'nginx:1.27', env: Array.from({ length: 20 }, (__, j) => ({ name: `E${j}`, value: `${j}` })),
    resources: { requests: { cpu: '100m', memory: '64Mi' } }, ports: [{ containerPort: 8000 + (i % 1000) }],
  }));
  const started = performance.now();
  const result = decodeObject(pod({ containers }), { strict: true });
  const ms = performance.now() - started;
  assert.ok(!('error' in result));
  assert.ok(ms < 1000, `took ${ms.toFixed(0)} ms`);
});

test('kubectl prints the decoding error as a BadRequest from the server, with the file', () => {
  const result = decodeObject(pod(app({ imagee: 'x' })), { strict: true });
  assert.ok('error' in result);
  assert.deepEqual(result.error.status, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `${POD}strict decoding error: unknown field "spec.containers[0].imagee"`, reason: 'BadRequest', code: 400 });
  assert.equal(renderKubectlError(addSourceToError('creating', 'pod.yaml', result.error)), `Error from server (BadRequest): error when creating "pod.yaml": ${POD}strict decoding error: unknown field "spec.containers[0].imagee"`);
});

const validationCases = [
  { path: '/api/v1/namespaces/default/pods?fieldManager=kubectl-client-side-apply&fieldValidation=Strict', want: 'Strict' },
  { path: '/api/v1/namespaces/default/pods?fieldValidation=Ignore', want: 'Ignore' },
  { path: '/api/v1/namespaces/default/pods', want: 'Warn' },
];
for (const c of validationCases) {
  test(`The fieldValidation of ${c.path} is ${c.want}`, () => assert.equal(fieldValidationOf(c.path), c.want));
}

test('A create with a misspelled field is rejected in apiserver.admit.mutating, at the decode step, before defaulting', () => {
  const inputs = loadInputs({ manifest: { file: 'pod.yaml', text: 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n    - name: app\n      image: nginx:1.27\n      imagee: typo\n' }, clusters: [], identity: { kind: 'default' } });
  inputs.cluster.objects.unshift(...embeddedCluster());
  inputs.cluster.profile = defaultProfile();
  const sim = new Simulation(inputs, {});
  sim.run();
  const result = sim.result();
  assert.equal(result.outcome, 'Rejected');
  assert.equal(result.rejection?.phase, 'apiserver.admit.mutating');
  assert.equal(result.kubectl, `Error from server (BadRequest): error when creating "pod.yaml": ${POD}strict decoding error: unknown field "spec.containers[0].imagee"`);
  const mutating = result.trace.filter((e) => e.phase === 'apiserver.admit.mutating');
  assert.deepEqual(mutating.map((e) => [e.step?.name ?? '(phase)', e.field, e.outcome]), [['decode', 'spec.containers[0].imagee', 'rejected'], ['(phase)', 'spec.containers[0].imagee', 'rejected']]);
  assert.equal(sim.store.get('Pod', 'default', 'web'), undefined);
});

test('A valid create records the decode step before defaulting', () => {
  const inputs = loadInputs({ manifest: { file: 'pod.yaml', text: 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n    - name: app\n      image: nginx:1.27\n' }, clusters: [], identity: { kind: 'default' } });
  inputs.cluster.objects.unshift(...embeddedCluster());
  const sim = new Simulation(inputs, {});
  sim.run();
  const steps = sim.result().trace.filter((e) => e.phase === 'apiserver.admit.mutating' && e.step).map((e) => e.step?.name);
  assert.deepEqual(steps.slice(0, 2), ['decode', 'defaulting']);
  assert.equal(sim.result().outcome, 'Running');
});
