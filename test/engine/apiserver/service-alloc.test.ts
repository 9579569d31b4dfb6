// A Service's defaults (SetDefaults_Service) and what the registry allocates on create (cluster IPs, IP families, node
// ports), pinned from the reference cluster (kube-apiserver v1.36.3 with --service-cluster-ip-range=10.96.0.0/12):
// each spec is what `kubectl get svc -o json` returned, but for the cluster IPs and node ports, which Kubernetes draws
// at random from the upper part of their ranges and the engine takes in order from there (10.96.1.1, 30086).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultService } from '../../../src/engine/api/service-defaults';
import { allocateServiceCreate } from '../../../src/engine/apiserver/service-alloc';
import { embeddedCluster } from '../../../src/engine/cluster/files';
import { loadInputs } from '../../../src/engine/cluster/loader';
import { Simulation } from '../../../src/engine/simulation';

function run(manifest: string): Simulation {
  const inputs = loadInputs({ manifest: { file: 'services.yaml', text: manifest }, clusters: [], identity: { kind: 'default' } });
  inputs.cluster.objects.unshift(...embeddedCluster());
  const sim = new Simulation(inputs, {});
  sim.run();
  return sim;
}

const svc = (name: string, spec: string): string => `apiVersion: v1\nkind: Service\nmetadata: {name: ${name}}\nspec:\n${spec}`;

const MANIFEST = [
  svc('s1', '  selector: {app: web}\n  ports:\n  - port: 80\n'),
  svc('s2', '  type: NodePort\n  selector: {app: web}\n  ports:\n  - {name: http, port: 80, targetPort: http}\n  - {name: dns, port: 53, protocol: UDP}\n'),
  svc('s3', '  clusterIP: None\n  selector: {app: web}\n  ports:\n  - port: 80\n'),
  svc('s4', '  clusterIP: None\n  ports:\n  - port: 80\n'),
  svc('s5', '  type: ExternalName\n  externalName: example.com\n'),
  svc('s6', '  type: LoadBalancer\n  selector: {app: web}\n  ports:\n  - port: 80\n'),
  svc('s7', '  type: LoadBalancer\n  externalTrafficPolicy: Local\n  selector: {app: web}\n  ports:\n  - port: 80\n'),
  svc('s8', '  clusterIP: 10.96.5.5\n  sessionAffinity: ClientIP\n  ports:\n  - port: 80\n    targetPort: 0\n'),
].join('---\n');

const IPV4 = { internalTrafficPolicy: 'Cluster', ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack', sessionAffinity: 'None' };
const WANT: Record<string, Record<string, unknown>> = {
  s1: { ...IPV4, clusterIP: '10.96.1.1', clusterIPs: ['10.96.1.1'], ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }], selector: { app: 'web' }, type: 'ClusterIP' },
  s2: {
    ...IPV4, clusterIP: '10.96.1.2', clusterIPs: ['10.96.1.2'], externalTrafficPolicy: 'Cluster', selector: { app: 'web' }, type: 'NodePort',
    ports: [{ name: 'http', nodePort: 30086, port: 80, protocol: 'TCP', targetPort: 'http' }, { name: 'dns', nodePort: 30087, port: 53, protocol: 'UDP', targetPort: 53 }],
  },
  s3: { ...IPV4, clusterIP: 'None', clusterIPs: ['None'], ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }], selector: { app: 'web' }, type: 'ClusterIP' },
  // Headless and selectorless: RequireDualStack, both families, even on a single-stack cluster.
  s4: { ...IPV4, clusterIP: 'None', clusterIPs: ['None'], ipFamilies: ['IPv4', 'IPv6'], ipFamilyPolicy: 'RequireDualStack', ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }], type: 'ClusterIP' },
  s5: { externalName: 'example.com', sessionAffinity: 'None', type: 'ExternalName' },
  s6: {
    ...IPV4, allocateLoadBalancerNodePorts: true, clusterIP: '10.96.1.3', clusterIPs: ['10.96.1.3'], externalTrafficPolicy: 'Cluster',
    ports: [{ nodePort: 30088, port: 80, protocol: 'TCP', targetPort: 80 }], selector: { app: 'web' }, type: 'LoadBalancer',
  },
  s7: {
    ...IPV4, allocateLoadBalancerNodePorts: true, clusterIP: '10.96.1.4', clusterIPs: ['10.96.1.4'], externalTrafficPolicy: 'Local', healthCheckNodePort: 30090,
    ports: [{ nodePort: 30089, port: 80, protocol: 'TCP', targetPort: 80 }], selector: { app: 'web' }, type: 'LoadBalancer',
  },
  s8: {
    ...IPV4, clusterIP: '10.96.5.5', clusterIPs: ['10.96.5.5'], ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }],
    sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 10800 } }, type: 'ClusterIP',
  },
};

/** sorted orders an object's keys recursively, as `kubectl get -o json` prints them. */
function sorted(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sorted);
  if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted((v as Record<string, unknown>)[k])]));
  return v;
}

test('Each kind of Service is stored with the reference cluster\'s defaults, IP families and allocations', () => {
  const sim = run(MANIFEST);
  assert.equal(sim.result().kubectl, Object.keys(WANT).map((n) => `service/${n} created`).join('\n'));
  for (const [name, want] of Object.entries(WANT)) {
    const stored = sim.store.get('Service', 'default', name) as { spec: unknown; status: unknown };
    assert.deepEqual(sorted(stored.spec), sorted(want), name);
    assert.deepEqual(stored.status, { loadBalancer: {} }, name);
  }
});

test('A Service written with clusterIP alone gets clusterIPs from it, and the next one the next free address', () => {
  const sim = run([svc('a', '  clusterIP: 10.96.1.1\n  ports:\n  - port: 80\n'), svc('b', '  ports:\n  - port: 80\n')].join('---\n'));
  const spec = (n: string): Record<string, unknown> => (sim.store.get('Service', 'default', n) as { spec: Record<string, unknown> }).spec;
  assert.deepEqual([spec('a')['clusterIPs'], spec('b')['clusterIP']], [['10.96.1.1'], '10.96.1.2']);
});

// The reference's refusals (kubectl apply of each after the Service that holds the address or port).
const refusals: { name: string; before?: string; service: string; message: string }[] = [
  {
    name: 'an address another Service holds', before: svc('first', '  clusterIP: 10.96.5.5\n  ports: [{port: 80}]\n'), service: svc('t1', '  clusterIP: 10.96.5.5\n  ports: [{port: 80}]\n'),
    message: 'Service "t1" is invalid: spec.clusterIPs: Invalid value: ["10.96.5.5"]: failed to allocate IP 10.96.5.5: provided IP is already allocated',
  },
  {
    name: 'an address outside the service range', service: svc('t2', '  clusterIP: 192.168.1.1\n  ports: [{port: 80}]\n'),
    message: 'Service "t2" is invalid: spec.clusterIPs: Invalid value: ["192.168.1.1"]: failed to allocate IP 192.168.1.1: the provided network does not match the current range',
  },
  {
    name: 'dual stack on a single-stack cluster', service: svc('t3', '  ipFamilyPolicy: RequireDualStack\n  ports: [{port: 80}]\n'),
    message: 'Service "t3" is invalid: spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services',
  },
  {
    name: 'a node port another Service holds', before: svc('first', '  type: NodePort\n  ports: [{port: 80, nodePort: 31172}]\n'), service: svc('t4', '  type: NodePort\n  ports: [{port: 80, nodePort: 31172}]\n'),
    message: 'Service "t4" is invalid: spec.ports[0].nodePort: Invalid value: 31172: provided port is already allocated',
  },
  {
    name: 'a node port outside the range', service: svc('t5', '  type: NodePort\n  ports: [{port: 80, nodePort: 40000}]\n'),
    message: 'Service "t5" is invalid: spec.ports[0].nodePort: Invalid value: 40000: provided port is not in the valid range. The range of valid ports is 30000-32767',
  },
];

for (const c of refusals) {
  test(`A Service asking for ${c.name} is refused as the reference cluster refuses it`, () => {
    const result = run([c.before, c.service].filter(Boolean).join('---\n')).result();
    assert.deepEqual([result.rejection?.code, result.rejection?.reason, result.rejection?.message], [422, 'Invalid', c.message]);
  });
}

test('SetDefaults_Service drops sessionAffinityConfig under None and sets nothing an ExternalName Service does not get', () => {
  const { object, changes } = defaultService({ apiVersion: 'v1', kind: 'Service', spec: { type: 'ExternalName', externalName: 'x', sessionAffinityConfig: { clientIP: {} } } });
  assert.deepEqual(object['spec'], { type: 'ExternalName', externalName: 'x', sessionAffinity: 'None' });
  assert.deepEqual(changes, ['spec.sessionAffinity']);
});

test('The allocator skips the addresses and node ports stored Services hold, the static part of each range last', () => {
  const held = { apiVersion: 'v1', kind: 'Service', spec: { clusterIPs: ['10.96.1.1'], ports: [{ port: 80, nodePort: 30086 }], healthCheckNodePort: 30087 } };
  const got = allocateServiceCreate({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'n' }, spec: { type: 'NodePort', ports: [{ port: 80 }] } }, [held]);
  assert.ok('object' in got);
  const spec = got.object['spec'] as Record<string, unknown>;
  assert.deepEqual([spec['clusterIP'], (spec['ports'] as { nodePort: number }[])[0]!.nodePort, spec['ipFamilyPolicy'], spec['ipFamilies']], ['10.96.1.2', 30088, 'SingleStack', ['IPv4']]);
  assert.deepEqual(got.allocated, ['clusterIP 10.96.1.2', 'nodePort 30088']);
});
