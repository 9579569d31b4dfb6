// LimitRanger on its own: the defaults it sets and the annotation it writes, and every refusal message, with cases
// taken from plugin/pkg/admission/limitranger/admission_test.go (messages from admission.go beside each case).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject, LimitRange, Pod } from '../../../../src/engine/api/types';
import type { AdmissionAttributes } from '../../../../src/engine/apiserver/admission/plugin';
import { LIMIT_RANGER_ANNOTATION, limitRanger } from '../../../../src/engine/apiserver/admission/limit-ranger';
import { formatGoFloat } from '../../../../src/engine/apiserver/admission/quota/limit-constraints';
import { Store } from '../../../../src/engine/cluster/store';
import type { EngineContext } from '../../../../src/engine/context';
import { VirtualClock } from '../../../../src/engine/runtime/clock';

type List = Record<string, string>;
interface ContainerSpec { name?: string; requests?: List; limits?: List; sidecar?: boolean }

/** makePod builds pod `name` in namespace test with one container per spec (foo-0, foo-1, ... unless named). */
function makePod(name: string, containers: ContainerSpec[], init: ContainerSpec[] = []): KubeObject {
  const container = (c: ContainerSpec, i: number, prefix: string) => ({
    name: c.name ?? `${prefix}-${i}`, image: `foo:V${i}`,
    ...(c.requests || c.limits ? { resources: { ...(c.requests ? { requests: c.requests } : {}), ...(c.limits ? { limits: c.limits } : {}) } } : {}),
    ...(c.sidecar ? { restartPolicy: 'Always' } : {}),
  });
  const pod: Pod = {
    apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'test' },
    spec: { containers: containers.map((c, i) => container(c, i, 'foo')), ...(init.length ? { initContainers: init.map((c, i) => container(c, i, 'init')) } : {}) },
  };
  return pod as KubeObject;
}

/** repeat is validPod's numContainers: n containers with the same resources. */
const repeat = (n: number, c: ContainerSpec): ContainerSpec[] => Array.from({ length: n }, () => ({ ...c }));

type Item = { type: string; min?: List; max?: List; default?: List; defaultRequest?: List; maxLimitRequestRatio?: List };

/** makeLimitRange is createLimitRange: LimitRange `name` in namespace test with the given items. */
function makeLimitRange(items: Item[], name = 'abc'): KubeObject {
  const lr: LimitRange = { apiVersion: 'v1', kind: 'LimitRange', metadata: { name, namespace: 'test' }, spec: { limits: items } };
  return lr as KubeObject;
}

// validLimitRange of admission_test.go.
const valid = makeLimitRange([
  { type: 'Pod', max: { cpu: '200m', memory: '4Gi' }, min: { cpu: '50m', memory: '2Mi' } },
  { type: 'Container', max: { cpu: '100m', memory: '2Gi' }, min: { cpu: '25m', memory: '1Mi' }, default: { cpu: '75m', memory: '10Mi' }, defaultRequest: { cpu: '50m', memory: '5Mi' } },
]);

function context(objects: KubeObject[]): EngineContext {
  const store = new Store();
  for (const o of objects) store.put(o);
  return { store, clock: new VirtualClock() } as unknown as EngineContext;
}

function attributes(obj: KubeObject): AdmissionAttributes {
  const isPod = obj.kind === 'Pod';
  return {
    operation: 'CREATE', kind: String(obj.kind), group: '', resource: isPod ? 'pods' : 'persistentvolumeclaims', subresource: '',
    namespace: 'test', name: obj.metadata?.name ?? '', object: obj, user: { name: 'admin', groups: ['system:masters'] },
  };
}

const admitCases: { name: string; ranges: KubeObject[]; pod: KubeObject; want: { resources: unknown[]; annotation?: string; changes: string[] } }[] = [
  {
    name: 'A container without resources gets the default requests and limits and the annotation says so',
    ranges: [valid], pod: makePod('empty-resources', [{}]),
    want: {
      resources: [{ limits: { cpu: '75m', memory: '10Mi' }, requests: { cpu: '50m', memory: '5Mi' } }],
      // mergeContainerResources: "LimitRanger plugin set: " + "<names> request for container <name>; <names> limit for ..."
      annotation: 'LimitRanger plugin set: cpu, memory request for container foo-0; cpu, memory limit for container foo-0',
      changes: ['spec.containers[0].resources.limits.cpu', 'spec.containers[0].resources.limits.memory', 'spec.containers[0].resources.requests.cpu',
        'spec.containers[0].resources.requests.memory', 'metadata.annotations["kubernetes.io/limit-ranger"]'],
    },
  },
  {
    name: 'A container that sets its memory request keeps it and gets the rest',
    ranges: [valid], pod: makePod('limit-memory', [{ requests: { memory: '512Mi' } }]),
    want: {
      resources: [{ requests: { memory: '512Mi', cpu: '50m' }, limits: { cpu: '75m', memory: '10Mi' } }],
      annotation: 'LimitRanger plugin set: cpu request for container foo-0; cpu, memory limit for container foo-0',
      changes: ['spec.containers[0].resources.limits.cpu', 'spec.containers[0].resources.limits.memory', 'spec.containers[0].resources.requests.cpu',
        'metadata.annotations["kubernetes.io/limit-ranger"]'],
    },
  },
  {
    name: 'A container that sets every resource is left alone and gets no annotation',
    ranges: [valid], pod: makePod('limit-memory', [{ requests: { cpu: '100m', memory: '512Mi' }, limits: { cpu: '200m', memory: '1G' } }]),
    want: { resources: [{ requests: { cpu: '100m', memory: '512Mi' }, limits: { cpu: '200m', memory: '1G' } }], changes: [] },
  },
  {
    name: 'A max alone becomes the default limit and the default request, as the stored LimitRange is defaulted',
    ranges: [makeLimitRange([{ type: 'Container', max: { cpu: '2' } }])], pod: makePod('web', [{ name: 'app' }]),
    want: {
      resources: [{ limits: { cpu: '2' }, requests: { cpu: '2' } }],
      annotation: 'LimitRanger plugin set: cpu request for container app; cpu limit for container app',
      changes: ['spec.containers[0].resources.limits.cpu', 'spec.containers[0].resources.requests.cpu', 'metadata.annotations["kubernetes.io/limit-ranger"]'],
    },
  },
  {
    name: 'Init containers get the defaults too and are named as init containers',
    ranges: [makeLimitRange([{ type: 'Container', defaultRequest: { memory: '0.5Gi' } }])], pod: makePod('web', [{ name: 'app' }], [{ name: 'setup' }]),
    want: {
      resources: [{ requests: { memory: '512Mi' } }, { requests: { memory: '512Mi' } }],
      annotation: 'LimitRanger plugin set: memory request for container app; memory request for init container setup',
      changes: ['spec.containers[0].resources.requests.memory', 'metadata.annotations["kubernetes.io/limit-ranger"]',
        'spec.initContainers[0].resources.requests.memory'].sort(),
    },
  },
  {
    name: 'With two LimitRanges the later one that sets something writes the whole annotation',
    ranges: [makeLimitRange([{ type: 'Container', defaultRequest: { cpu: '100m' } }], 'a'), makeLimitRange([{ type: 'Container', defaultRequest: { memory: '64Mi' } }], 'b')],
    pod: makePod('web', [{ name: 'app' }]),
    want: {
      resources: [{ requests: { cpu: '100m', memory: '64Mi' } }],
      annotation: 'LimitRanger plugin set: memory request for container app',
      changes: ['spec.containers[0].resources.requests.cpu', 'metadata.annotations["kubernetes.io/limit-ranger"]',
        'spec.containers[0].resources.requests.memory', 'metadata.annotations["kubernetes.io/limit-ranger"]'].sort(),
    },
  },
];

for (const c of admitCases) {
  test(c.name, () => {
    const a = attributes(c.pod);
    const result = limitRanger.admit!(a, context(c.ranges));
    const pod = a.object as Pod;
    const all = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])];
    assert.deepEqual(all.map((ct) => ct.resources), c.want.resources);
    assert.equal(pod.metadata?.annotations?.[LIMIT_RANGER_ANNOTATION], c.want.annotation);
    assert.deepEqual([...(result.changes ?? [])].sort(), [...c.want.changes].sort());
    assert.equal(result.error, undefined);
  });
}

test('Admission never refuses in the mutating pass, whatever the pod asks', () => {
  const ctx = context([makeLimitRange([{ type: 'Container', max: { cpu: '2' } }])]);
  const result = limitRanger.admit!(attributes(makePod('web', [{ limits: { cpu: '3' } }])), ctx);
  assert.equal(result.error, undefined);
});

const single = (type: string, field: keyof Item, list: List) => makeLimitRange([{ type, [field]: list }]);

// Messages: minConstraint, maxConstraint, maxRequestConstraint and limitRequestRatioConstraint in admission.go.
const validateCases: { name: string; range: KubeObject; obj: KubeObject; want?: string }[] = [
  { name: 'A cpu request above the container minimum passes', range: single('Container', 'min', { cpu: '50m' }), obj: makePod('ctr-min-cpu-request', [{ requests: { cpu: '100m' } }]) },
  { name: 'A cpu limit under the container maximum passes', range: single('Container', 'max', { cpu: '2' }), obj: makePod('ctr-max-cpu-limit', [{ limits: { cpu: '1' } }]) },
  { name: 'A ratio of 1.5 passes a maximum ratio of 1.5', range: single('Container', 'maxLimitRequestRatio', { cpu: '1.5' }), obj: makePod('ctr-max-cpu-ratio', [{ requests: { cpu: '500m' }, limits: { cpu: '750m' } }]) },
  { name: 'Two containers at 75m pass a pod minimum of 100m', range: single('Pod', 'min', { cpu: '100m' }), obj: makePod('pod-min-cpu-request', repeat(2, { requests: { cpu: '75m' } })) },
  { name: 'Three containers at ratio 1.5 pass a pod memory ratio of 1.5', range: makeLimitRange([{ type: 'Pod', max: { memory: '2Gi' }, maxLimitRequestRatio: { memory: '1.5' } }]), obj: makePod('pod-max-mem-ratio', repeat(3, { requests: { memory: '300Mi' }, limits: { memory: '450Mi' } })) },
  {
    name: 'A cpu request under the container minimum is refused with both amounts',
    range: single('Container', 'min', { cpu: '50m' }), obj: makePod('ctr-min-cpu-request', [{ requests: { cpu: '40m' } }]),
    want: 'pods "ctr-min-cpu-request" is forbidden: minimum cpu usage per Container is 50m, but request is 40m',
  },
  {
    name: 'A container with no cpu request under a minimum is told none is specified',
    range: single('Container', 'min', { cpu: '50m' }), obj: makePod('ctr-min-cpu-no-request-limit', [{}]),
    want: 'pods "ctr-min-cpu-no-request-limit" is forbidden: minimum cpu usage per Container is 50m.  No request is specified',
  },
  {
    name: 'A memory request under the minimum is refused even with a limit above it',
    range: single('Container', 'min', { memory: '64Mi' }), obj: makePod('web', [{ name: 'app', requests: { memory: '32Mi' }, limits: { memory: '100Mi' } }]),
    want: 'pods "web" is forbidden: minimum memory usage per Container is 64Mi, but request is 32Mi',
  },
  {
    name: 'A cpu limit above the container maximum is refused',
    range: single('Container', 'max', { cpu: '2' }), obj: makePod('web', [{ name: 'app', limits: { cpu: '3' } }]),
    want: 'pods "web" is forbidden: maximum cpu usage per Container is 2, but limit is 3',
  },
  {
    name: 'A cpu limit of 2500m above a maximum of 2 prints both as written',
    range: single('Container', 'max', { cpu: '2' }), obj: makePod('ctr-max-cpu-request-limit', [{ requests: { cpu: '500m' }, limits: { cpu: '2500m' } }]),
    want: 'pods "ctr-max-cpu-request-limit" is forbidden: maximum cpu usage per Container is 2, but limit is 2500m',
  },
  {
    name: 'A container with no cpu limit under a maximum is told none is specified',
    range: single('Container', 'max', { cpu: '2' }), obj: makePod('ctr-max-cpu-no-request-limit', [{}]),
    want: 'pods "ctr-max-cpu-no-request-limit" is forbidden: maximum cpu usage per Container is 2.  No limit is specified',
  },
  {
    name: 'A limit four times the request breaks a ratio of 2 and the ratio prints with six decimals',
    range: single('Container', 'maxLimitRequestRatio', { cpu: '2' }), obj: makePod('web', [{ name: 'app', requests: { cpu: '500m' }, limits: { cpu: '2' } }]),
    want: 'pods "web" is forbidden: cpu max limit to request ratio per Container is 2, but provided ratio is 4.000000',
  },
  {
    name: 'A ratio with no limit is refused before it is computed',
    range: single('Container', 'maxLimitRequestRatio', { memory: '1.5' }), obj: makePod('web', [{ name: 'app', requests: { memory: '1Gi' } }]),
    want: 'pods "web" is forbidden: memory max limit to request ratio per Container is 1500m, but no limit is specified or limit is 0',
  },
  {
    name: 'Init containers are checked one by one like containers',
    range: single('Container', 'max', { memory: '1Gi' }), obj: makePod('web', [{ name: 'app', limits: { memory: '512Mi' } }], [{ name: 'setup', limits: { memory: '2Gi' } }]),
    want: 'pods "web" is forbidden: maximum memory usage per Container is 1Gi, but limit is 2Gi',
  },
  {
    name: 'Two containers at 1500m exceed a pod maximum of 2 with their sum',
    range: single('Pod', 'max', { cpu: '2' }), obj: makePod('web', repeat(2, { limits: { cpu: '1500m' } })),
    want: 'pods "web" is forbidden: maximum cpu usage per Pod is 2, but limit is 3',
  },
  {
    name: 'A sidecar counts towards the pod total while a plain init container only sets the peak',
    range: single('Pod', 'max', { cpu: '2' }),
    obj: makePod('web', [{ name: 'app', limits: { cpu: '1' } }], [{ name: 'setup', limits: { cpu: '1900m' } }, { name: 'proxy', limits: { cpu: '1500m' }, sidecar: true }]),
    want: 'pods "web" is forbidden: maximum cpu usage per Pod is 2, but limit is 2500m',
  },
  {
    name: 'Several violations of one LimitRange are aggregated in brackets',
    range: makeLimitRange([{ type: 'Container', min: { memory: '64Mi' }, max: { cpu: '2' } }]),
    obj: makePod('web', [{ name: 'app', requests: { memory: '32Mi' }, limits: { cpu: '3', memory: '32Mi' } }]),
    // minConstraint stops at the request, so the memory limit is not reported as well.
    want: 'pods "web" is forbidden: [minimum memory usage per Container is 64Mi, but request is 32Mi, maximum cpu usage per Container is 2, but limit is 3]',
  },
  {
    name: 'The same violation in two containers is reported once',
    range: single('Container', 'max', { cpu: '2' }), obj: makePod('web', repeat(2, { limits: { cpu: '3' } })),
    want: 'pods "web" is forbidden: maximum cpu usage per Container is 2, but limit is 3',
  },
  {
    name: 'A claim under the storage minimum is refused',
    range: single('PersistentVolumeClaim', 'min', { storage: '1Gi' }),
    obj: { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data', namespace: 'test' }, spec: { resources: { requests: { storage: '500Mi' } } } },
    want: 'persistentvolumeclaims "data" is forbidden: minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 500Mi',
  },
  {
    name: 'A claim over the storage maximum is refused on its request',
    range: single('PersistentVolumeClaim', 'max', { storage: '10Gi' }),
    obj: { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data', namespace: 'test' }, spec: { resources: { requests: { storage: '20Gi' } } } },
    want: 'persistentvolumeclaims "data" is forbidden: maximum storage usage per PersistentVolumeClaim is 10Gi, but request is 20Gi',
  },
];

for (const c of validateCases) {
  test(c.name, () => {
    const result = limitRanger.validate!(attributes(c.obj), context([c.range]));
    assert.equal(result.error?.message, c.want);
    if (c.want) assert.deepEqual([result.error?.code, result.error?.reason], [403, 'Forbidden']);
  });
}

test('A minimum memory limit below the request is reported after the request check', () => {
  // minConstraint checks the request first; a request that passes lets the limit be checked.
  const result = limitRanger.validate!(attributes(makePod('web', [{ name: 'app', requests: { memory: '64Mi' }, limits: { memory: '32Mi' } }])),
    context([single('Container', 'min', { memory: '64Mi' })]));
  assert.equal(result.error?.message, 'pods "web" is forbidden: minimum memory usage per Container is 64Mi, but limit is 32Mi');
});

test('The plugin handles pod and claim creation but no pod update and no other kind', () => {
  const pod = attributes(makePod('web', [{}]));
  assert.equal(limitRanger.handles(pod), true);
  assert.equal(limitRanger.handles({ ...pod, operation: 'UPDATE' }), false);
  assert.equal(limitRanger.handles({ ...pod, operation: 'UPDATE', subresource: 'resize' }), true);
  assert.equal(limitRanger.handles({ ...pod, subresource: 'status' }), false);
  assert.equal(limitRanger.handles({ ...pod, kind: 'Deployment', resource: 'deployments', group: 'apps' }), false);
  assert.equal(limitRanger.handles({ ...pod, operation: 'DELETE' }), false);
});

const floatCases = [
  { name: 'A whole ratio prints six zeros', x: 4, want: '4.000000' },
  { name: 'A third rounds down at the sixth decimal', x: 1 / 3, want: '0.333333' },
  { name: 'Two thirds rounds up at the sixth decimal', x: 2 / 3, want: '0.666667' },
  { name: 'An exact binary tie rounds to even as Go does, not up as toFixed does', x: 193 / 128, want: '1.507812' },
  { name: 'A tie after an odd digit rounds up to even', x: 195 / 128, want: '1.523438' },
];

for (const c of floatCases) {
  test(`Go's %f: ${c.name}`, () => assert.equal(formatGoFloat(c.x), c.want));
}
