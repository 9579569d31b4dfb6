// The pieces of makeEnvironmentVariables (pkg/kubelet/kubelet_pods.go) that need no cluster: $(VAR) expansion,
// downward API fields and container resources.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Container, KubeObject, Pod } from '../../../src/engine/api/types';
import { type EnvContext, expand, podFieldValue, resolveEnv, resourceFieldValue, serviceEnvMap } from '../../../src/engine/kubelet/env';
import { Store } from '../../../src/engine/cluster/store';

// third_party/forked/golang/expansion (Expand): defined names are replaced, $$ escapes, the rest stays as written.
const expandCases: { name: string; input: string; want: string }[] = [
  { name: 'a defined variable is replaced', input: 'http://$(HOST):80', want: 'http://db:80' },
  { name: 'an undefined variable stays as written', input: '$(MISSING)/x', want: '$(MISSING)/x' },
  { name: 'a doubled dollar is one dollar', input: 'cost $$(HOST)', want: 'cost $(HOST)' },
  { name: 'an unclosed reference stays', input: 'x $(HOST', want: 'x $(HOST' },
  { name: 'a lone dollar stays', input: 'a$b', want: 'a$b' },
];
const defined = new Map([['HOST', 'db']]);
for (const c of expandCases) test(`env expansion: ${c.name}`, () => assert.equal(expand(c.input, defined), c.want));

const pod: Pod = {
  metadata: { name: 'web', namespace: 'shop', uid: 'u-1', labels: { app: 'web' }, annotations: { team: 'blue' } },
  spec: { nodeName: 'worker-1', serviceAccountName: 'default', containers: [] },
};
// podFieldSelectorRuntimeValue.
const fieldCases: { path: string; want: string | undefined }[] = [
  { path: 'metadata.name', want: 'web' }, { path: 'metadata.namespace', want: 'shop' }, { path: 'metadata.uid', want: 'u-1' },
  { path: "metadata.labels['app']", want: 'web' }, { path: "metadata.annotations['team']", want: 'blue' },
  { path: 'spec.nodeName', want: 'worker-1' }, { path: 'spec.serviceAccountName', want: 'default' },
  { path: 'status.podIP', want: '10.244.1.5' }, { path: 'status.hostIP', want: '192.168.49.3' }, { path: 'status.phase', want: undefined },
];
for (const c of fieldCases) test(`env fieldRef: ${c.path}`, () => assert.equal(podFieldValue(c.path, pod, '10.244.1.5', '192.168.49.3'), c.want));

const container: Container = { name: 'app', resources: { requests: { cpu: '250m', memory: '64Mi' }, limits: { memory: '128Mi' } } };
const allocatable = { cpu: '4', memory: '8286208Ki' };
// pkg/api/v1/resource/helpers.go (ExtractContainerResourceValue): CPU in whole divisors rounded up, memory in bytes;
// an unset limit reads as the node's allocatable (the kubelet's defaultPodLimitsForDownwardAPI).
const resourceCases: { name: string; resource: string; divisor?: string; want: string | undefined }[] = [
  { name: 'requests.cpu rounds up to whole cores', resource: 'requests.cpu', want: '1' },
  { name: 'requests.cpu in millicores', resource: 'requests.cpu', divisor: '1m', want: '250' },
  { name: 'limits.memory in bytes', resource: 'limits.memory', want: '134217728' },
  { name: 'limits.memory in Mi', resource: 'limits.memory', divisor: '1Mi', want: '128' },
  { name: 'an unset limits.cpu is the node\'s allocatable', resource: 'limits.cpu', want: '4' },
  { name: 'an unknown resource has no value', resource: 'limits.gpu', want: undefined },
];
for (const c of resourceCases) {
  test(`env resourceFieldRef: ${c.name}`, () => assert.equal(resourceFieldValue({ resource: c.resource, ...(c.divisor ? { divisor: c.divisor } : {}) }, container, allocatable), c.want));
}

test('env service links: every Service of the namespace with a cluster IP, and kubernetes from default, unless links are off', () => {
  const svc = (name: string, namespace: string, clusterIP: string, ports: { name?: string; port: number; protocol?: string }[]) =>
    ({ metadata: { name, namespace }, spec: { clusterIP, ports } }) as never;
  const services = [
    svc('kubernetes', 'default', '10.96.0.1', [{ name: 'https', port: 443 }]),
    svc('my-db', 'shop', '10.96.4.7', [{ port: 5432 }, { name: 'metrics', port: 9187, protocol: 'TCP' }]),
    svc('headless', 'shop', 'None', [{ port: 80 }]),
    svc('other', 'elsewhere', '10.96.9.9', [{ port: 80 }]),
  ];
  const names = [...serviceEnvMap(services, 'shop', true).keys()];
  assert.ok(names.includes('MY_DB_SERVICE_HOST') && names.includes('MY_DB_SERVICE_PORT_METRICS') && names.includes('MY_DB_PORT_9187_TCP_ADDR'));
  assert.equal(serviceEnvMap(services, 'shop', true).get('MY_DB_PORT'), 'tcp://10.96.4.7:5432');
  assert.equal(names.some((n) => n.startsWith('HEADLESS') || n.startsWith('OTHER')), false);
  assert.deepEqual([...serviceEnvMap(services, 'shop', false).keys()].filter((n) => !n.startsWith('KUBERNETES_')), []);
});

test('env service links: each container start sees the Services as they are then (kept per namespace while none changes)', () => {
  const store = new Store();
  const ec = { ctx: { store } } as unknown as EnvContext;
  const svc = (name: string, namespace: string, clusterIP: string) =>
    ({ apiVersion: 'v1', kind: 'Service', metadata: { name, namespace }, spec: { clusterIP, ports: [{ port: 80 }] } }) as KubeObject;
  const podIn = (namespace: string, links = true): Pod => ({ metadata: { name: 'p', namespace }, spec: { containers: [{ name: 'app' }], ...(links ? {} : { enableServiceLinks: false }) } });
  const hosts = (p: Pod): string[] => {
    const r = resolveEnv(ec, p, p.spec!.containers[0]!, 'spec.containers[0]');
    assert.ok(r.ok);
    return r.env.filter((e) => e.name.endsWith('_SERVICE_HOST')).map((e) => `${e.name}=${e.value}`);
  };
  const steps: [string, () => void, Pod, string[]][] = [
    ['no Service', () => {}, podIn('shop'), []],
    ['kubernetes', () => store.put(svc('kubernetes', 'default', '10.96.0.1')), podIn('shop'), ['KUBERNETES_SERVICE_HOST=10.96.0.1']],
    ['a Service in the namespace', () => store.put(svc('web', 'shop', '10.96.3.3')), podIn('shop'), ['KUBERNETES_SERVICE_HOST=10.96.0.1', 'WEB_SERVICE_HOST=10.96.3.3']],
    ['links off', () => {}, podIn('shop', false), ['KUBERNETES_SERVICE_HOST=10.96.0.1']],
    ['another namespace', () => {}, podIn('other'), ['KUBERNETES_SERVICE_HOST=10.96.0.1']],
    ['its address changes', () => store.put(svc('web', 'shop', '10.96.4.4')), podIn('shop'), ['KUBERNETES_SERVICE_HOST=10.96.0.1', 'WEB_SERVICE_HOST=10.96.4.4']],
    ['it goes', () => store.remove('Service', 'shop', 'web'), podIn('shop'), ['KUBERNETES_SERVICE_HOST=10.96.0.1']],
  ];
  for (const [what, change, p, want] of steps) {
    change();
    assert.deepEqual(hosts(p), want, what);
  }
});
