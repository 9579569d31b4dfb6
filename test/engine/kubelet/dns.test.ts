// The pod's resolv.conf by dnsPolicy and dnsConfig, as pkg/kubelet/network/dns/dns.go (GetPodDNS) builds it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Pod } from '../../../src/engine/api/types';
import { podDNS, resolvConf } from '../../../src/engine/kubelet/dns';

const makePod = (spec: Pod['spec'] = { containers: [] }, namespace = 'shop'): Pod => ({ metadata: { name: 'web', namespace }, spec: { ...spec, containers: [] } });

const cases: { name: string; pod: Pod; want: string }[] = [
  {
    // getPodDNSType + generateSearchesForDNSClusterFirst + defaultDNSOptions.
    name: 'ClusterFirst uses the cluster DNS, the namespace search path and ndots:5',
    pod: makePod({ containers: [], dnsPolicy: 'ClusterFirst' }),
    want: 'search shop.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5',
  },
  {
    name: 'no dnsPolicy reads as ClusterFirst, the API default',
    pod: makePod({ containers: [] }, 'default'),
    want: 'search default.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5',
  },
  {
    // getPodDNSType: ClusterFirst on the host network falls through to DNSDefault.
    name: 'ClusterFirst on the host network falls back to the node\'s resolver',
    pod: makePod({ containers: [], dnsPolicy: 'ClusterFirst', hostNetwork: true }),
    want: 'nameserver 192.168.49.1',
  },
  {
    name: 'ClusterFirstWithHostNet keeps the cluster DNS on the host network',
    pod: makePod({ containers: [], dnsPolicy: 'ClusterFirstWithHostNet', hostNetwork: true }),
    want: 'search shop.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5',
  },
  {
    name: 'Default uses the node\'s resolver',
    pod: makePod({ containers: [], dnsPolicy: 'Default' }),
    want: 'nameserver 192.168.49.1',
  },
  {
    // podDNSNone starts from an empty config; appendDNSConfig adds the pod's.
    name: 'None takes only the pod\'s dnsConfig',
    pod: makePod({ containers: [], dnsPolicy: 'None', dnsConfig: { nameservers: ['1.1.1.1'], searches: ['corp.example'], options: [{ name: 'ndots', value: '2' }, { name: 'edns0' }] } }),
    want: 'search corp.example\nnameserver 1.1.1.1\noptions ndots:2 edns0',
  },
  {
    // appendDNSConfig: omitDuplicates on servers and searches, mergeDNSOptions overwrites by name.
    name: 'a dnsConfig merges into ClusterFirst: duplicates dropped, options overwritten by name',
    pod: makePod({ containers: [], dnsConfig: { nameservers: ['10.96.0.10', '8.8.8.8'], searches: ['svc.cluster.local', 'corp.example'], options: [{ name: 'ndots', value: '1' }] } }),
    want: 'search shop.svc.cluster.local svc.cluster.local cluster.local corp.example\nnameserver 10.96.0.10\nnameserver 8.8.8.8\noptions ndots:1',
  },
];
for (const c of cases) test(`dns: ${c.name}`, () => assert.equal(resolvConf(c.pod), c.want));

test('dns: more than three nameservers are cut, with the DNSConfigForming warning', () => {
  const pod = makePod({ containers: [], dnsPolicy: 'None', dnsConfig: { nameservers: ['1.1.1.1', '1.0.0.1', '8.8.8.8', '8.8.4.4'] } });
  const warnings: string[] = [];
  assert.equal(resolvConf(pod, (m) => warnings.push(m)), 'nameserver 1.1.1.1\nnameserver 1.0.0.1\nnameserver 8.8.8.8');
  // formDNSNameserversFitsLimits (MaxDNSNameservers = 3).
  assert.deepEqual(warnings, ['Nameserver limits were exceeded, some nameservers have been omitted, the applied nameserver line is: 1.1.1.1 1.0.0.1 8.8.8.8']);
});

test('dns: more than 32 search domains are cut, with the DNSConfigForming warning', () => {
  const searches = Array.from({ length: 31 }, (_, i) => `d${i}.example`);
  const dns = podDNS(makePod({ containers: [], dnsConfig: { searches } }));
  // formDNSSearchFitsLimits (MaxDNSSearchPaths = 32): 3 cluster domains + 29 of the pod's.
  assert.equal(dns.searches.length, 32);
  assert.equal(dns.searches.at(-1), 'd28.example');
  assert.deepEqual(dns.warnings, [`Search Line limits were exceeded, some search paths have been omitted, the applied search line is: ${dns.searches.join(' ')}`]);
});

test('dns: a search line over 2048 characters loses domains from its end, and domains over 253 characters are dropped', () => {
  const long = (c: string) => `${c.repeat(60)}.${c.repeat(60)}.${c.repeat(60)}.${c.repeat(60)}.example`;
  const searches = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'].map(long);
  const dns = podDNS(makePod({ containers: [], dnsPolicy: 'None', dnsConfig: { nameservers: ['1.1.1.1'], searches: [...searches, 'x'.repeat(254)] } }));
  assert.ok(dns.searches.join(' ').length <= 2048);
  assert.deepEqual(dns.searches, searches.slice(0, 8));
  assert.equal(dns.warnings.length, 1);
});
