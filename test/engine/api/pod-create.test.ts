// Tests for the create-time pod mutations; cases follow plugin/pkg/admission/serviceaccount/admission_test.go,
// plugin/pkg/admission/defaulttolerationseconds/admission_test.go, plugin/pkg/admission/priority/admission_test.go
// and pkg/registry/core/pod/strategy_test.go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  applyDefaultTolerationSeconds, applyPriority, applyServiceAccount, prepareForCreate, tokenVolume,
} from '../../../src/engine/api/pod-create';
import { Random } from '../../../src/engine/runtime/random';
import type { Pod, PodSpec, PriorityClass, ServiceAccount, Toleration } from '../../../src/engine/api/types';

function makePod(spec: Partial<PodSpec> = {}, metadata: Pod['metadata'] = {}): Pod {
  return {
    apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default', ...metadata },
    spec: { containers: [{ name: 'app', image: 'nginx:1.27' }], ...spec },
  };
}

function makeServiceAccount(name: string, extra: Partial<ServiceAccount> = {}): ServiceAccount {
  return { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: 'default' }, ...extra };
}

const MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
const volumeName = (seed: number): string => `kube-api-access-${new Random(seed).string(5)}`;

test('A pod without a service account gets default and a projected token volume in every container', () => {
  const pod = makePod({ initContainers: [{ name: 'init', image: 'busybox' }] });
  const { object, changes, error } = applyServiceAccount(pod, new Random(3), [makeServiceAccount('default')]);
  const name = volumeName(3);
  assert.equal(error, undefined);
  assert.match(name, /^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  assert.equal(object.spec?.serviceAccountName, 'default');
  assert.deepEqual(object.spec?.volumes, [{
    name,
    projected: {
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
      ],
      defaultMode: 420,
    },
  }]);
  const mount = { name, readOnly: true, mountPath: MOUNT_PATH };
  assert.deepEqual(object.spec?.initContainers?.[0]?.volumeMounts, [mount]);
  assert.deepEqual(object.spec?.containers[0]?.volumeMounts, [mount]);
  assert.deepEqual(changes, ['spec.serviceAccountName', 'spec.initContainers[0].volumeMounts[0]', 'spec.containers[0].volumeMounts[0]', 'spec.volumes[0]']);
  assert.equal(pod.spec?.volumes, undefined, 'the input is not mutated');
});

const automountCases: Array<{ name: string; pod?: boolean; sa?: boolean; mounted: boolean }> = [
  { name: 'The token is mounted by default', mounted: true },
  { name: 'A pod opting out gets no token', pod: false, mounted: false },
  { name: 'A service account opting out gives no token', sa: false, mounted: false },
  { name: "The pod's choice wins over the service account's", pod: true, sa: false, mounted: true },
];

for (const c of automountCases) {
  test(c.name, () => {
    const pod = makePod(c.pod === undefined ? {} : { automountServiceAccountToken: c.pod });
    const sa = makeServiceAccount('default', c.sa === undefined ? {} : { automountServiceAccountToken: c.sa });
    const { object } = applyServiceAccount(pod, new Random(1), [sa]);
    assert.equal((object.spec?.volumes ?? []).length === 1, c.mounted);
    assert.equal((object.spec?.containers[0]?.volumeMounts ?? []).length === 1, c.mounted);
  });
}

test('A container that already mounts the token path is left alone, and no volume is added for nobody', () => {
  const own = { name: 'mine', mountPath: MOUNT_PATH };
  const { object, changes } = applyServiceAccount(makePod({ containers: [{ name: 'app', image: 'nginx', volumeMounts: [own] }] }), new Random(1));
  assert.deepEqual(object.spec?.containers[0]?.volumeMounts, [own]);
  assert.equal(object.spec?.volumes, undefined);
  assert.deepEqual(changes, ['spec.serviceAccountName']);
});

test('An existing kube-api-access volume is reused, not added again', () => {
  const existing = tokenVolume('kube-api-access-abcde');
  const { object } = applyServiceAccount(makePod({ volumes: [existing] }), new Random(1));
  assert.deepEqual(object.spec?.volumes, [existing]);
  assert.equal(object.spec?.containers[0]?.volumeMounts?.[0]?.name, 'kube-api-access-abcde');
});

const pullSecretCases = [
  { name: "The service account's pull secrets are copied into a pod that has none", pod: [], want: [{ name: 'regcred' }] },
  { name: 'A pod with its own pull secrets keeps them', pod: [{ name: 'mine' }], want: [{ name: 'mine' }] },
];

for (const c of pullSecretCases) {
  test(c.name, () => {
    const sa = makeServiceAccount('default', { imagePullSecrets: [{ name: 'regcred' }] });
    const { object } = applyServiceAccount(makePod(c.pod.length > 0 ? { imagePullSecrets: c.pod } : {}), new Random(1), [sa]);
    assert.deepEqual(object.spec?.imagePullSecrets, c.want);
  });
}

const refusalCases: Array<{ name: string; pod: Pod; accounts: ServiceAccount[]; error: string }> = [
  {
    name: 'A pod naming a missing service account is refused',
    pod: makePod({ serviceAccountName: 'builder' }), accounts: [makeServiceAccount('default')],
    error: 'error looking up service account default/builder: serviceaccount "builder" not found',
  },
  {
    name: 'A mirror pod may not reference a service account',
    pod: makePod({ serviceAccountName: 'default' }, { annotations: { 'kubernetes.io/config.mirror': 'x' } }), accounts: [],
    error: 'a mirror pod may not reference service accounts',
  },
  {
    name: 'An enforcing service account refuses a secret it does not list',
    pod: makePod({ volumes: [{ name: 'v', secret: { secretName: 'other' } }] }),
    accounts: [makeServiceAccount('default', { metadata: { name: 'default', namespace: 'default', annotations: { 'kubernetes.io/enforce-mountable-secrets': 'true' } }, secrets: [{ name: 'mine' }] })],
    error: 'volume with secret.secretName="other" is not allowed because service account default does not reference that secret',
  },
];

for (const c of refusalCases) {
  test(c.name, () => {
    const result = applyServiceAccount(c.pod, new Random(1), c.accounts);
    assert.equal(result.error, c.error);
    assert.deepEqual(result.changes, []);
  });
}

const NOT_READY: Toleration = { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 };
const UNREACHABLE: Toleration = { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 };
const custom = (t: Toleration): Toleration => ({ ...t, tolerationSeconds: 700 });

const tolerationCases: Array<{ name: string; given: Toleration[]; want: Toleration[] }> = [
  { name: 'A pod without tolerations gets not-ready and unreachable for 300 s', given: [], want: [NOT_READY, UNREACHABLE] },
  {
    name: 'Unrelated tolerations do not count',
    given: [{ key: 'foo', operator: 'Equal', value: 'bar', effect: 'NoSchedule', tolerationSeconds: 700 }],
    want: [{ key: 'foo', operator: 'Equal', value: 'bar', effect: 'NoSchedule', tolerationSeconds: 700 }, NOT_READY, UNREACHABLE],
  },
  { name: 'A pod tolerating not-ready gets only unreachable', given: [custom(NOT_READY)], want: [custom(NOT_READY), UNREACHABLE] },
  { name: 'A pod tolerating unreachable gets only not-ready', given: [custom(UNREACHABLE)], want: [custom(UNREACHABLE), NOT_READY] },
  { name: 'A pod tolerating both is left alone', given: [custom(NOT_READY), custom(UNREACHABLE)], want: [custom(NOT_READY), custom(UNREACHABLE)] },
  {
    name: 'A toleration with no effect covers NoExecute',
    given: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', tolerationSeconds: 700 }],
    want: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', tolerationSeconds: 700 }, NOT_READY],
  },
  { name: 'A wildcard toleration covers both', given: [{ operator: 'Exists', tolerationSeconds: 700 }], want: [{ operator: 'Exists', tolerationSeconds: 700 }] },
];

for (const c of tolerationCases) {
  test(c.name, () => {
    const { object, changes } = applyDefaultTolerationSeconds(makePod(c.given.length > 0 ? { tolerations: c.given } : {}));
    assert.deepEqual(object.spec?.tolerations ?? [], c.want);
    assert.equal(changes.length, c.want.length - c.given.length);
  });
}

const pc = (name: string, value: number, extra: Partial<PriorityClass> = {}): PriorityClass =>
  ({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value, ...extra });

const priorityCases: Array<{ name: string; spec: Partial<PodSpec>; classes: PriorityClass[]; want?: Partial<PodSpec>; error?: string }> = [
  { name: 'Without classes a pod gets priority 0 and PreemptLowerPriority', spec: {}, classes: [], want: { priority: 0, preemptionPolicy: 'PreemptLowerPriority' } },
  {
    name: 'The global default class names the pod and sets its priority',
    spec: {}, classes: [pc('normal', 1000, { globalDefault: true }), pc('high', 5000)],
    want: { priorityClassName: 'normal', priority: 1000, preemptionPolicy: 'PreemptLowerPriority' },
  },
  {
    name: 'Of two global defaults the lower value wins',
    spec: {}, classes: [pc('b', 2000, { globalDefault: true }), pc('a', 1000, { globalDefault: true })],
    want: { priorityClassName: 'a', priority: 1000 },
  },
  {
    name: 'A named class gives its value and preemption policy',
    spec: { priorityClassName: 'batch' }, classes: [pc('batch', 10, { preemptionPolicy: 'Never' })],
    want: { priorityClassName: 'batch', priority: 10, preemptionPolicy: 'Never' },
  },
  { name: 'A missing class is refused', spec: { priorityClassName: 'foo' }, classes: [], error: 'no PriorityClass with name foo was found' },
  {
    name: 'A written priority that differs from the class is refused',
    spec: { priorityClassName: 'batch', priority: 7 }, classes: [pc('batch', 10)],
    error: 'the integer value of priority (7) must not be provided in pod spec; priority admission controller computed 10 from the given PriorityClass name',
  },
];

for (const c of priorityCases) {
  test(c.name, () => {
    const result = applyPriority(makePod(c.spec), c.classes);
    assert.equal(result.error, c.error);
    for (const [key, value] of Object.entries(c.want ?? {})) assert.deepEqual(result.object.spec?.[key as keyof PodSpec], value, key);
  });
}

const created = { uid: '6f1e9a2c-0000-4000-8000-000000000001', creationTimestamp: '2026-01-01T00:00:00Z' };

test('Prepare-for-create resets the status to Pending with the QoS class and sets generation 1', () => {
  const pod: Pod = {
    ...makePod({}, { deletionTimestamp: '2025-01-01T00:00:00Z', deletionGracePeriodSeconds: 30 }),
    status: { phase: 'Running', podIP: '10.0.0.1' },
  };
  const { object, changes } = prepareForCreate(pod, created);
  assert.deepEqual(object.status, { phase: 'Pending', qosClass: 'BestEffort' });
  assert.deepEqual(object.metadata, { name: 'web', namespace: 'default', uid: created.uid, creationTimestamp: created.creationTimestamp, generation: 1 });
  assert.deepEqual(changes, ['metadata.uid', 'metadata.creationTimestamp', 'metadata.generation', 'status.phase', 'status.qosClass']);
});

test('A pod with scheduling gates starts with PodScheduled False, SchedulingGated', () => {
  const { object } = prepareForCreate(makePod({ schedulingGates: [{ name: 'example.com/gate' }] }), created);
  assert.deepEqual(object.status?.conditions, [{
    type: 'PodScheduled', status: 'False', lastProbeTime: null, lastTransitionTime: created.creationTimestamp,
    reason: 'SchedulingGated', message: 'Scheduling is blocked due to non-empty scheduling gates',
  }]);
});

test('Match label keys are merged into the affinity and topology spread selectors', () => {
  const pod = makePod({
    affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{
      topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { app: 'web' } }, matchLabelKeys: ['pod-template-hash'], mismatchLabelKeys: ['tenant'],
    }] } },
    topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'web' } }, matchLabelKeys: ['pod-template-hash', 'missing'] }],
  }, { labels: { app: 'web', 'pod-template-hash': '7d4b9c8f5', tenant: 'a' } });
  const { object } = prepareForCreate(pod, created);
  assert.deepEqual(object.spec?.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.[0]?.labelSelector?.matchExpressions, [
    { key: 'pod-template-hash', operator: 'In', values: ['7d4b9c8f5'] },
    { key: 'tenant', operator: 'NotIn', values: ['a'] },
  ]);
  assert.deepEqual(object.spec?.topologySpreadConstraints?.[0]?.labelSelector?.matchExpressions, [
    { key: 'pod-template-hash', operator: 'In', values: ['7d4b9c8f5'] },
  ]);
});

test('A deprecated AppArmor annotation becomes the container field, with a warning', () => {
  const pod = makePod({}, { annotations: { 'container.apparmor.security.beta.kubernetes.io/app': 'localhost/my-profile' } });
  const { object, warnings } = prepareForCreate(pod, created);
  assert.deepEqual(object.spec?.containers[0]?.securityContext?.appArmorProfile, { type: 'Localhost', localhostProfile: 'my-profile' });
  assert.deepEqual(warnings, ['metadata.annotations[container.apparmor.security.beta.kubernetes.io/app]: deprecated since v1.30; use the "appArmorProfile" field instead']);
});

test('Prepare-for-create computes the QoS class, but keeps one written in the submitted status', () => {
  const guaranteed = makePod({ containers: [{ name: 'app', image: 'nginx', resources: { requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } } }] });
  assert.equal(prepareForCreate(guaranteed, created).object.status?.qosClass, 'Guaranteed');
  // PrepareForCreate evaluates qos.GetPodQOS(pod) before it replaces pod.Status (pkg/registry/core/pod/strategy.go).
  assert.equal(prepareForCreate({ ...makePod(), status: { qosClass: 'Burstable' } }, created).object.status?.qosClass, 'Burstable');
});
