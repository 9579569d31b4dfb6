// kube-proxy's iptables rules for one node, against pkg/proxy/iptables/proxier.go and pkg/proxy/topology.go at
// k8s.io/kubernetes v1.36.3. The chain names were computed with that release's portProtoHash and
// servicePortEndpointChainName (sha256, base32.StdEncoding, first 16 characters). The nat rules are listed in the order
// syncProxyRules writes them for iptables-restore.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject, Service } from '../../../src/engine/api/types';
import { probability, sepChain, servicePortName, svcChain } from '../../../src/engine/kubeproxy/chains';
import { syncRules } from '../../../src/engine/kubeproxy/rules';

const names: [string, string, string][] = [
  // The well-known chains of a kubeadm cluster's kubernetes and kube-dns Services.
  ['default/kubernetes:https', 'tcp', 'KUBE-SVC-NPX46M4PTMTKRN6Y'],
  ['kube-system/kube-dns:dns', 'udp', 'KUBE-SVC-TCOU7JCQXEZGVUNU'],
  ['kube-system/kube-dns:dns-tcp', 'tcp', 'KUBE-SVC-ERIFXISQEP7F7OF4'],
  ['default/web:http', 'tcp', 'KUBE-SVC-CDGGSHYLG3RE2FKL'],
  ['default/web', 'tcp', 'KUBE-SVC-LOLE4ISW44XBNF3G'],
];
for (const [name, protocol, want] of names) test(`the service chain of ${name} (${protocol}) is ${want}`, () => assert.equal(svcChain(name, protocol), want));

test('endpoint chains hash the service port, the protocol and ip:port', () => {
  assert.equal(sepChain('default/web:http', 'tcp', '10.244.1.2:8080'), 'KUBE-SEP-UIQK3OSOSTRHRPBX');
  assert.equal(sepChain('default/web:http', 'tcp', '10.244.2.2:8080'), 'KUBE-SEP-4EX2N4PG4ASNZOBF');
});

test('service port names and probabilities print as kube-proxy prints them', () => {
  assert.deepEqual([servicePortName('default', 'web', 'http'), servicePortName('default', 'web', undefined)], ['default/web:http', 'default/web']);
  assert.deepEqual([2, 3, 6].map(probability), ['0.5000000000', '0.3333333333', '0.1666666667']);
});

const service = (spec: Record<string, unknown> = {}): Service => ({
  apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'default' },
  spec: { clusterIP: '10.96.10.20', type: 'ClusterIP', selector: { app: 'web' }, ports: [{ name: 'http', port: 80, protocol: 'TCP', targetPort: 'http' }], ...spec },
} as Service);

type Cond = { ready: boolean; serving: boolean; terminating: boolean };
const READY: Cond = { ready: true, serving: true, terminating: false };
const TERMINATING: Cond = { ready: false, serving: true, terminating: true };
const GONE: Cond = { ready: false, serving: false, terminating: true };
const slice = (eps: [string, string, Cond][]): KubeObject => ({
  apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 'web-abcde', namespace: 'default', labels: { 'kubernetes.io/service-name': 'web' } },
  addressType: 'IPv4', ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
  endpoints: eps.map(([ip, node, conditions]) => ({ addresses: [ip], nodeName: node, conditions, targetRef: { kind: 'Pod', name: `pod-${ip.split('.')[3]}` } })),
});

const SVC = 'KUBE-SVC-CDGGSHYLG3RE2FKL';
const SEP1 = 'KUBE-SEP-UIQK3OSOSTRHRPBX';
const SEP2 = 'KUBE-SEP-4EX2N4PG4ASNZOBF';
const LAST = '-A KUBE-SERVICES -m comment --comment "kubernetes service nodeports; NOTE: this must be the last rule in this chain" -m addrtype --dst-type LOCAL -j KUBE-NODEPORTS';

interface Case { name: string; svc: Service; eps: [string, string, Cond][]; nat: string[]; filter?: string[]; routed: string[]; fallback?: boolean }
const cases: Case[] = [
  {
    name: 'two ready endpoints: a random pick with probability 1/2, then the other; each endpoint DNATs and masquerades hairpin traffic',
    svc: service(), eps: [['10.244.2.2', 'worker-2', READY], ['10.244.1.2', 'worker-1', READY]], routed: ['10.244.1.2:8080', '10.244.2.2:8080'],
    nat: [
      `-A KUBE-SERVICES -m comment --comment "default/web:http cluster IP" -m tcp -p tcp -d 10.96.10.20 --dport 80 -j ${SVC}`,
      `-A ${SVC} -m comment --comment "default/web:http cluster IP" -m tcp -p tcp -d 10.96.10.20 --dport 80 ! -s 10.244.0.0/16 -j KUBE-MARK-MASQ`,
      `-A ${SVC} -m comment --comment "default/web:http -> 10.244.1.2:8080" -m statistic --mode random --probability 0.5000000000 -j ${SEP1}`,
      `-A ${SVC} -m comment --comment "default/web:http -> 10.244.2.2:8080" -j ${SEP2}`,
      `-A ${SEP1} -m comment --comment default/web:http -s 10.244.1.2 -j KUBE-MARK-MASQ`,
      `-A ${SEP1} -m comment --comment default/web:http -m tcp -p tcp -j DNAT --to-destination 10.244.1.2:8080`,
      `-A ${SEP2} -m comment --comment default/web:http -s 10.244.2.2 -j KUBE-MARK-MASQ`,
      `-A ${SEP2} -m comment --comment default/web:http -m tcp -p tcp -j DNAT --to-destination 10.244.2.2:8080`,
      LAST,
    ],
  },
  {
    name: 'a terminating endpoint gets no new connections while another is ready',
    svc: service(), eps: [['10.244.1.2', 'worker-1', TERMINATING], ['10.244.2.2', 'worker-2', READY]], routed: ['10.244.2.2:8080'],
    nat: [
      `-A KUBE-SERVICES -m comment --comment "default/web:http cluster IP" -m tcp -p tcp -d 10.96.10.20 --dport 80 -j ${SVC}`,
      `-A ${SVC} -m comment --comment "default/web:http cluster IP" -m tcp -p tcp -d 10.96.10.20 --dport 80 ! -s 10.244.0.0/16 -j KUBE-MARK-MASQ`,
      `-A ${SVC} -m comment --comment "default/web:http -> 10.244.2.2:8080" -j ${SEP2}`,
      `-A ${SEP2} -m comment --comment default/web:http -s 10.244.2.2 -j KUBE-MARK-MASQ`,
      `-A ${SEP2} -m comment --comment default/web:http -m tcp -p tcp -j DNAT --to-destination 10.244.2.2:8080`,
      LAST,
    ],
  },
  {
    name: 'with no ready endpoint, serving terminating ones still get the traffic',
    svc: service(), eps: [['10.244.1.2', 'worker-1', TERMINATING], ['10.244.2.2', 'worker-2', GONE]], routed: ['10.244.1.2:8080'], fallback: true,
    nat: [
      `-A KUBE-SERVICES -m comment --comment "default/web:http cluster IP" -m tcp -p tcp -d 10.96.10.20 --dport 80 -j ${SVC}`,
      `-A ${SVC} -m comment --comment "default/web:http cluster IP" -m tcp -p tcp -d 10.96.10.20 --dport 80 ! -s 10.244.0.0/16 -j KUBE-MARK-MASQ`,
      `-A ${SVC} -m comment --comment "default/web:http -> 10.244.1.2:8080" -j ${SEP1}`,
      `-A ${SEP1} -m comment --comment default/web:http -s 10.244.1.2 -j KUBE-MARK-MASQ`,
      `-A ${SEP1} -m comment --comment default/web:http -m tcp -p tcp -j DNAT --to-destination 10.244.1.2:8080`,
      LAST,
    ],
  },
  {
    name: 'no usable endpoint: the filter table rejects the cluster IP',
    svc: service(), eps: [['10.244.1.2', 'worker-1', GONE]], routed: [],
    nat: [LAST],
    filter: ['-A KUBE-SERVICES -m comment --comment "default/web:http has no endpoints" -m tcp -p tcp -d 10.96.10.20 --dport 80 -j REJECT'],
  },
  {
    name: 'internalTrafficPolicy Local on a node without a local endpoint drops the cluster IP traffic',
    svc: service({ internalTrafficPolicy: 'Local' }), eps: [['10.244.2.2', 'worker-2', READY]], routed: [],
    nat: [LAST],
    filter: ['-A KUBE-SERVICES -m comment --comment "default/web:http has no local endpoints" -m tcp -p tcp -d 10.96.10.20 --dport 80 -j DROP'],
  },
  {
    name: 'a NodePort Service: KUBE-NODEPORTS jumps to the external chain, which masquerades and goes on to the service chain',
    svc: service({ type: 'NodePort', externalTrafficPolicy: 'Cluster', ports: [{ name: 'http', port: 80, protocol: 'TCP', targetPort: 'http', nodePort: 30080 }] }),
    eps: [['10.244.1.2', 'worker-1', READY]], routed: ['10.244.1.2:8080'],
    nat: [
      `-A KUBE-SERVICES -m comment --comment "default/web:http cluster IP" -m tcp -p tcp -d 10.96.10.20 --dport 80 -j ${SVC}`,
      '-A KUBE-NODEPORTS -m comment --comment default/web:http -m tcp -p tcp --dport 30080 -j KUBE-EXT-CDGGSHYLG3RE2FKL',
      `-A ${SVC} -m comment --comment "default/web:http cluster IP" -m tcp -p tcp -d 10.96.10.20 --dport 80 ! -s 10.244.0.0/16 -j KUBE-MARK-MASQ`,
      '-A KUBE-EXT-CDGGSHYLG3RE2FKL -m comment --comment "masquerade traffic for default/web:http external destinations" -j KUBE-MARK-MASQ',
      `-A KUBE-EXT-CDGGSHYLG3RE2FKL -j ${SVC}`,
      `-A ${SVC} -m comment --comment "default/web:http -> 10.244.1.2:8080" -j ${SEP1}`,
      `-A ${SEP1} -m comment --comment default/web:http -s 10.244.1.2 -j KUBE-MARK-MASQ`,
      `-A ${SEP1} -m comment --comment default/web:http -m tcp -p tcp -j DNAT --to-destination 10.244.1.2:8080`,
      LAST,
    ],
  },
  {
    name: 'a headless Service gets no rules (ShouldSkipService)',
    svc: service({ clusterIP: 'None' }), eps: [['10.244.1.2', 'worker-1', READY]], routed: [], nat: [LAST],
  },
];

for (const c of cases) {
  test(c.name, () => {
    const rules = syncRules([c.svc], [slice(c.eps)], 'worker-1', { clusterCIDR: '10.244.0.0/16' });
    assert.deepEqual(rules.nat, c.nat);
    assert.deepEqual(rules.filter, c.filter ?? []);
    const route = rules.routes[0];
    assert.deepEqual(route ? [...route.cluster, ...route.local].map((e) => e.endpoint) : [], c.routed);
    assert.equal(route?.terminatingFallback ?? false, c.fallback ?? false);
  });
}
