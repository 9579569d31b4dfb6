// Tests for scheme defaulting; expected values come from pkg/apis/core/v1/defaults_test.go
// (TestPodDefaults, TestWorkloadDefaults, TestPodHostNetworkDefaults), pkg/util/parsers/parsers_test.go
// and pkg/apis/apps/v1/defaults_test.go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultImagePullPolicy, defaultPod, defaultPodTemplate, imageTag } from '../../../src/engine/api/defaults';
import { defaultDeployment, defaultReplicaSet } from '../../../src/engine/api/defaults-workloads';
import type { Container, Deployment, Pod, PodSpec, ReplicaSet, Volume } from '../../../src/engine/api/types';

const DIGEST = 'sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

function makePod(spec: Partial<PodSpec> = {}): Pod {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web' }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }], ...spec } };
}

function container(extra: Partial<Container> = {}): Container {
  return { name: 'app', image: 'nginx:1.27', ...extra };
}

/** DEFAULTED_CONTAINER is what SetDefaults_Container adds to a container with a tagged image. */
const DEFAULTED_CONTAINER = { imagePullPolicy: 'IfNotPresent', terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File' };
const POD_SPEC_DEFAULTS = {
  enableServiceLinks: true, dnsPolicy: 'ClusterFirst', restartPolicy: 'Always', securityContext: {},
  terminationGracePeriodSeconds: 30, schedulerName: 'default-scheduler',
};

test('A minimal pod gets the pod, pod spec and container defaults, in defaulting order', () => {
  const { object, changes } = defaultPod(makePod({ containers: [container({ ports: [{ containerPort: 80 }] })] }));
  assert.deepEqual(object.spec, {
    ...POD_SPEC_DEFAULTS,
    containers: [{ ...container(), ports: [{ containerPort: 80, protocol: 'TCP' }], ...DEFAULTED_CONTAINER }],
  });
  assert.deepEqual(changes, [
    'spec.enableServiceLinks', 'spec.dnsPolicy', 'spec.restartPolicy', 'spec.securityContext',
    'spec.terminationGracePeriodSeconds', 'spec.schedulerName', 'spec.containers[0].imagePullPolicy',
    'spec.containers[0].terminationMessagePath', 'spec.containers[0].terminationMessagePolicy',
    'spec.containers[0].ports[0].protocol',
  ]);
});

test('Defaulting does not mutate its input', () => {
  const pod = makePod();
  const before = structuredClone(pod);
  defaultPod(pod);
  assert.deepEqual(pod, before);
});

const pullPolicyCases: Array<{ name: string; image: string; tag: string | undefined; want: string }> = [
  // pkg/util/parsers/parsers_test.go TestParseImageName inputs.
  { name: 'A bare name means the latest tag', image: 'root', tag: 'latest', want: 'Always' },
  { name: 'A tagged name keeps its tag', image: 'root:tag', tag: 'tag', want: 'IfNotPresent' },
  { name: 'A digest alone has no tag', image: `root@${DIGEST}`, tag: '', want: 'IfNotPresent' },
  { name: 'A user repository without a tag means latest', image: 'user/repo', tag: 'latest', want: 'Always' },
  { name: 'A user repository with a tag keeps it', image: 'user/repo:tag', tag: 'tag', want: 'IfNotPresent' },
  { name: 'A registry port is not a tag', image: 'url:5000/repo', tag: 'latest', want: 'Always' },
  { name: 'A registry with port and tag keeps the tag', image: 'url:5000/repo:tag', tag: 'tag', want: 'IfNotPresent' },
  { name: 'A registry with port and digest has no tag', image: `url:5000/repo@${DIGEST}`, tag: '', want: 'IfNotPresent' },
  // TestSetDefaultReplicationControllerInitContainers: "busybox" gets Always.
  { name: 'An untagged official image is pulled always', image: 'busybox', tag: 'latest', want: 'Always' },
  { name: 'An explicit latest tag is pulled always', image: 'nginx:latest', tag: 'latest', want: 'Always' },
  { name: 'The latest tag with a digest is still the latest tag', image: `nginx:latest@${DIGEST}`, tag: 'latest', want: 'Always' },
  // TestWorkloadDefaults: an empty image defaults to IfNotPresent (the reference does not parse).
  { name: 'An empty image is IfNotPresent', image: '', tag: undefined, want: 'IfNotPresent' },
  { name: 'An uppercase repository does not parse and is IfNotPresent', image: 'BUSYBOX', tag: undefined, want: 'IfNotPresent' },
  { name: 'An uppercase registry host is allowed', image: 'Registry.Example.com/app', tag: 'latest', want: 'Always' },
];

for (const c of pullPolicyCases) {
  test(`${c.name} (${JSON.stringify(c.image)})`, () => {
    assert.equal(imageTag(c.image), c.tag);
    assert.equal(defaultImagePullPolicy(c.image), c.want);
    const { object } = defaultPod(makePod({ containers: [container({ image: c.image })], initContainers: [container({ name: 'init', image: c.image })] }));
    assert.equal(object.spec?.containers[0]?.imagePullPolicy, c.want);
    assert.equal(object.spec?.initContainers?.[0]?.imagePullPolicy, c.want);
  });
}

const podCases: Array<{ name: string; spec: Partial<PodSpec>; check: (spec: PodSpec, changes: string[]) => void }> = [
  {
    name: 'An explicit pull policy and explicit pod settings are kept',
    spec: {
      containers: [container({ image: 'nginx', imagePullPolicy: 'Never' })], restartPolicy: 'OnFailure',
      terminationGracePeriodSeconds: 0, enableServiceLinks: false, dnsPolicy: 'Default', schedulerName: 'other',
    },
    check: (spec, changes) => {
      assert.equal(spec.containers[0]?.imagePullPolicy, 'Never');
      assert.equal(spec.restartPolicy, 'OnFailure');
      assert.equal(spec.terminationGracePeriodSeconds, 0);
      assert.equal(spec.enableServiceLinks, false);
      assert.deepEqual(changes, ['spec.securityContext', 'spec.containers[0].terminationMessagePath', 'spec.containers[0].terminationMessagePolicy']);
    },
  },
  {
    name: 'Limits become requests where requests are missing, for containers and init containers',
    spec: {
      containers: [container({ resources: { limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '100m' } } })],
      initContainers: [container({ name: 'init', resources: { limits: { memory: '64Mi' } } })],
    },
    check: (spec, changes) => {
      assert.deepEqual(spec.containers[0]?.resources?.requests, { cpu: '100m', memory: '128Mi' });
      assert.deepEqual(spec.initContainers?.[0]?.resources?.requests, { memory: '64Mi' });
      assert.ok(changes.includes('spec.containers[0].resources.requests.memory'));
      assert.ok(changes.includes('spec.initContainers[0].resources.requests.memory'));
      assert.ok(!changes.includes('spec.containers[0].resources.requests.cpu'));
    },
  },
  {
    // TestPodHostNetworkDefaults: host networking copies containerPort into hostPort in pods.
    name: 'Host networking gives every container port its host port',
    spec: { hostNetwork: true, containers: [container({ ports: [{ containerPort: 12345 }, { containerPort: 80, hostPort: 8080 }] })] },
    check: (spec) => {
      assert.deepEqual(spec.containers[0]?.ports, [
        { containerPort: 12345, hostPort: 12345, protocol: 'TCP' },
        { containerPort: 80, hostPort: 8080, protocol: 'TCP' },
      ]);
    },
  },
  {
    // TestWorkloadDefaults: probe, HTTPGet and GRPC values.
    name: 'Probes get their timing, thresholds, HTTP path and scheme, and gRPC service',
    spec: {
      containers: [container({
        livenessProbe: { httpGet: { port: 8080 } },
        readinessProbe: { grpc: { port: 9090 }, periodSeconds: 0, failureThreshold: 5 },
        startupProbe: { tcpSocket: { port: 80 } },
        lifecycle: { preStop: { httpGet: { port: 80, path: '/quit' } } },
      })],
    },
    check: (spec) => {
      const c = spec.containers[0]!;
      assert.deepEqual(c.livenessProbe, { httpGet: { port: 8080, path: '/', scheme: 'HTTP' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 });
      assert.deepEqual(c.readinessProbe, { grpc: { port: 9090, service: '' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 5 });
      assert.deepEqual(c.startupProbe, { tcpSocket: { port: 80 }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 });
      assert.deepEqual(c.lifecycle?.preStop?.httpGet, { port: 80, path: '/quit', scheme: 'HTTP' });
    },
  },
  {
    name: 'Environment field references get apiVersion v1',
    spec: { containers: [container({ env: [{ name: 'IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } }] })] },
    check: (spec, changes) => {
      assert.equal(spec.containers[0]?.env?.[0]?.valueFrom?.fieldRef?.apiVersion, 'v1');
      assert.ok(changes.includes('spec.containers[0].env[0].valueFrom.fieldRef.apiVersion'));
    },
  },
];

for (const c of podCases) {
  test(c.name, () => {
    const { object, changes } = defaultPod(makePod(c.spec));
    c.check(object.spec!, changes);
  });
}

const volumeCases: Array<{ name: string; volume: Volume; want: Volume }> = [
  { name: 'A volume with no source becomes an emptyDir', volume: { name: 'v' }, want: { name: 'v', emptyDir: {} } },
  { name: 'A secret volume gets defaultMode 420', volume: { name: 'v', secret: { secretName: 's' } }, want: { name: 'v', secret: { secretName: 's', defaultMode: 420 } } },
  { name: 'A configMap volume gets defaultMode 420', volume: { name: 'v', configMap: { name: 'c' } }, want: { name: 'v', configMap: { name: 'c', defaultMode: 420 } } },
  { name: 'An explicit defaultMode is kept', volume: { name: 'v', configMap: { name: 'c', defaultMode: 256 } }, want: { name: 'v', configMap: { name: 'c', defaultMode: 256 } } },
  { name: 'A hostPath volume gets an empty type', volume: { name: 'v', hostPath: { path: '/data' } }, want: { name: 'v', hostPath: { path: '/data', type: '' } } },
  {
    name: 'A downwardAPI volume gets defaultMode and field reference apiVersion',
    volume: { name: 'v', downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }] } },
    want: { name: 'v', downwardAPI: { defaultMode: 420, items: [{ path: 'labels', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.labels' } }] } },
  },
  {
    name: 'A projected volume gets defaultMode and a one-hour token',
    volume: { name: 'v', projected: { sources: [{ serviceAccountToken: { path: 'token' } }] } },
    want: { name: 'v', projected: { defaultMode: 420, sources: [{ serviceAccountToken: { path: 'token', expirationSeconds: 3600 } }] } },
  },
];

for (const c of volumeCases) {
  test(c.name, () => {
    const { object } = defaultPod(makePod({ volumes: [c.volume] }));
    assert.deepEqual(object.spec?.volumes, [c.want]);
  });
}

test('A pod template gets pod spec defaults but no requests from limits and no enableServiceLinks', () => {
  const { object, changes } = defaultPodTemplate({
    metadata: { labels: { app: 'web' } },
    spec: { hostNetwork: true, containers: [container({ ports: [{ containerPort: 80 }], resources: { limits: { cpu: '1' } } })] },
  });
  assert.equal(object.spec?.enableServiceLinks, undefined);
  assert.equal(object.spec?.containers[0]?.resources?.requests, undefined);
  assert.deepEqual(object.spec?.containers[0]?.ports, [{ containerPort: 80, protocol: 'TCP' }]);
  assert.ok(changes.every((path) => path.startsWith('spec.template.spec.')));
});

function makeDeployment(spec: Partial<Deployment['spec']> = {}): Deployment {
  return {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' },
    spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [container()] } }, ...spec },
  };
}

const deploymentCases: Array<{ name: string; spec: Partial<Deployment['spec']>; want: Record<string, unknown> }> = [
  {
    // pkg/apis/apps/v1/defaults_test.go TestSetDefaultDeployment.
    name: 'A deployment gets 1 replica, a 25%/25% rolling update, 10 revisions and a 600 s deadline',
    spec: {},
    want: { replicas: 1, strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } }, revisionHistoryLimit: 10, progressDeadlineSeconds: 600 },
  },
  {
    name: 'A Recreate deployment gets no rolling update and keeps zero replicas',
    spec: { replicas: 0, strategy: { type: 'Recreate' } },
    want: { replicas: 0, strategy: { type: 'Recreate' }, revisionHistoryLimit: 10, progressDeadlineSeconds: 600 },
  },
  {
    name: 'A partly written rolling update is completed',
    spec: { strategy: { rollingUpdate: { maxSurge: 1 } } },
    want: { replicas: 1, strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: 1 } }, revisionHistoryLimit: 10, progressDeadlineSeconds: 600 },
  },
];

for (const c of deploymentCases) {
  test(c.name, () => {
    const { object } = defaultDeployment(makeDeployment(c.spec));
    const { selector: _selector, template, ...rest } = object.spec!;
    assert.deepEqual(rest, c.want);
    assert.deepEqual(template.spec?.containers[0], { ...container(), ...DEFAULTED_CONTAINER });
  });
}

test('Deployment changes list its own fields, then its template fields', () => {
  const { changes } = defaultDeployment(makeDeployment());
  assert.deepEqual(changes.slice(0, 6), [
    'spec.replicas', 'spec.strategy.type', 'spec.strategy.rollingUpdate.maxUnavailable',
    'spec.strategy.rollingUpdate.maxSurge', 'spec.revisionHistoryLimit', 'spec.progressDeadlineSeconds',
  ]);
  assert.ok(changes.includes('spec.template.spec.containers[0].imagePullPolicy'));
  assert.ok(!changes.includes('spec.template.spec.enableServiceLinks'));
});

const replicaSetCases: Array<{ name: string; replicas: number | undefined; want: number }> = [
  { name: 'A replica set without replicas gets 1', replicas: undefined, want: 1 },
  { name: 'A replica set with zero replicas keeps 0', replicas: 0, want: 0 },
];

for (const c of replicaSetCases) {
  test(c.name, () => {
    const rs: ReplicaSet = {
      apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'web' },
      spec: { selector: { matchLabels: { app: 'web' } }, template: { spec: { containers: [container()] } }, ...(c.replicas === undefined ? {} : { replicas: c.replicas }) },
    };
    const { object, changes } = defaultReplicaSet(rs);
    assert.equal(object.spec?.replicas, c.want);
    assert.equal(changes.includes('spec.replicas'), c.replicas === undefined);
    assert.equal(object.spec?.template?.spec?.restartPolicy, 'Always');
  });
}

const roundingCases: Array<{ name: string; limits: Record<string, string>; want: Record<string, string>; changed: string[] }> = [
  // SetDefaults_ResourceList rounds up to milli scale (pkg/apis/core/v1/defaults.go, TODO #18538).
  { name: 'A sub-milli cpu value is rounded up to a whole milli', limits: { cpu: '0.5m' }, want: { cpu: '1m' }, changed: ['cpu'] },
  { name: 'Nanos are rounded up to a milli', limits: { cpu: '1n' }, want: { cpu: '1m' }, changed: ['cpu'] },
  { name: 'Milli-precise values are left as written', limits: { cpu: '100m', memory: '128Mi' }, want: { cpu: '100m', memory: '128Mi' }, changed: [] },
  // Beyond an int64 of millis the inf.Dec rounding is exact: the value is kept, not wrapped.
  { name: 'A value too large for an int64 of millis keeps its value', limits: { memory: '123456789012345678901' }, want: { memory: '123456789012345678901' }, changed: [] },
  { name: 'A value too large for an int64 of millis is still rounded up to a milli', limits: { memory: '123456789012345678901.0001' }, want: { memory: '123456789012345678901001m' }, changed: ['memory'] },
];

for (const c of roundingCases) {
  test(c.name, () => {
    const { object, changes } = defaultPod(makePod({ containers: [container({ resources: { limits: c.limits } })] }));
    assert.deepEqual(object.spec?.containers[0]?.resources, { limits: c.want, requests: c.want });
    for (const name of c.changed) {
      assert.ok(changes.includes(`spec.containers[0].resources.limits.${name}`));
      assert.ok(changes.includes(`spec.containers[0].resources.requests.${name}`));
    }
  });
}

type PodLevel = { requests?: Record<string, string>; limits?: Record<string, string> };
const podLevelCases: Array<{ name: string; pod: PodLevel; containers: PodLevel[]; want: PodLevel }> = [
  {
    // defaultPodRequests: aggregated container requests first, then pod-level limits for the rest.
    name: 'Pod-level limits give pod-level requests from the containers, else from the limits',
    pod: { limits: { cpu: '1', memory: '1Gi' } },
    containers: [{ requests: { cpu: '100m' } }, { requests: { cpu: '200m' } }],
    want: { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '300m', memory: '1Gi' } },
  },
  {
    // defaultPodLimits: only for resources every container limits.
    name: 'Pod-level requests alone give pod-level limits where every container has one',
    pod: { requests: { cpu: '500m', memory: '64Mi' } },
    containers: [{ limits: { cpu: '1', memory: '128Mi' } }, { limits: { cpu: '2' } }],
    want: { requests: { cpu: '500m', memory: '64Mi' }, limits: { cpu: '3' } },
  },
];

for (const c of podLevelCases) {
  test(c.name, () => {
    const spec = { containers: c.containers.map((resources, i) => container({ name: `c${i}`, resources })), resources: c.pod } as Partial<PodSpec>;
    const { object } = defaultPod(makePod(spec));
    assert.deepEqual((object.spec as { resources?: PodLevel }).resources, c.want);
  });
}
