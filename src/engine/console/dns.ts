// The console's `dig NAME`: what the cluster's DNS (CoreDNS with its kubernetes plugin, as kubeadm configures it:
// zone cluster.local, `pods insecure`, ttl 30) answers for a name, looked up as the current pod's resolver does (its
// search domains and ndots from the kubelet's resolv.conf). Records per the Kubernetes DNS specification
// (kubernetes/dns docs/specification.md) and coredns plugin/kubernetes: a Service's ClusterIP, a headless Service's
// ready endpoints, an endpoint's hostname, an ExternalName's CNAME, a pod's dashed IP.
import type { KubeObject, Pod } from '../api/types';
import { CLUSTER_DOMAIN, podDNS } from '../kubelet/dns';
import type { Simulation } from '../simulation';

/** DNS_TTL is the ttl of kubeadm's Corefile (`kubernetes cluster.local in-addr.arpa ip6.arpa { ... ttl 30 }`). */
const DNS_TTL = 30;

/** DnsAnswer is what the server answers for one query name: records, or NXDOMAIN. */
type DnsAnswer = { records: string[] } | { nxdomain: true };

interface ServiceLike extends KubeObject {
  spec?: { clusterIP?: string; type?: string; externalName?: string };
}

interface SliceEndpoint {
  addresses?: string[];
  hostname?: string;
  conditions?: { ready?: boolean };
}

/** answer is the kubernetes plugin's answer for a fully qualified name (without the final dot). */
function answer(sim: Simulation, fqdn: string): DnsAnswer {
  const zone = `.${CLUSTER_DOMAIN}`;
  if (!fqdn.endsWith(zone)) return { nxdomain: true };
  const labels = fqdn.slice(0, -zone.length).split('.');
  const a = (name: string, ip: string): string => `${name}.\t${DNS_TTL}\tIN\tA\t${ip}`;
  // <a-b-c-d>.<namespace>.pod.<zone>: `pods insecure` answers the dashed address as it is.
  if (labels.length === 3 && labels[2] === 'pod') {
    const ip = labels[0]!.replace(/-/g, '.');
    return /^\d{1,3}(\.\d{1,3}){3}$/.test(ip) ? { records: [a(fqdn, ip)] } : { nxdomain: true };
  }
  // <service>.<namespace>.svc.<zone>, or <hostname>.<service>.<namespace>.svc.<zone> for a headless Service.
  if (labels.at(-1) !== 'svc' || (labels.length !== 3 && labels.length !== 4)) return { nxdomain: true };
  const [host, service, namespace] = labels.length === 4 ? labels : [undefined, labels[0]!, labels[1]!];
  const svc = sim.store.get<ServiceLike>('Service', namespace, service ?? '');
  if (!svc) return { nxdomain: true };
  if (svc.spec?.type === 'ExternalName') return host ? { nxdomain: true } : { records: [`${fqdn}.\t${DNS_TTL}\tIN\tCNAME\t${svc.spec.externalName ?? ''}.`] };
  if (svc.spec?.clusterIP && svc.spec.clusterIP !== 'None') return host ? { nxdomain: true } : { records: [a(fqdn, svc.spec.clusterIP)] };
  // Headless: one record per ready endpoint address (notReady ones are not served), by hostname when asked.
  const endpoints = sim.store.list('EndpointSlice', namespace)
    .filter((s) => s.metadata?.labels?.['kubernetes.io/service-name'] === service)
    .flatMap((s) => ((s as { endpoints?: SliceEndpoint[] | null }).endpoints ?? []))
    .filter((e) => e.conditions?.ready !== false && (host === undefined || e.hostname === host));
  if (host !== undefined && endpoints.length === 0) return { nxdomain: true };
  return { records: endpoints.flatMap((e) => (e.addresses ?? []).map((ip) => a(fqdn, ip))) };
}

/**
 * dig answers `dig NAME`: the name tried as the pod's resolver tries it (fewer dots than ndots: each search domain
 * first, then the name itself; a name ending in a dot as it is), each query with the server's answer, until one has
 * records. Without a pod, the names are tried as the default namespace's pods would.
 */
export function dig(sim: Simulation, pod: Pod | undefined, words: readonly string[]): { output: string } | { error: string } {
  const [name, ...rest] = words;
  if (!name || rest.length > 0) return { error: 'error: the console runs "dig NAME": one name, looked up as the current pod would' };
  const dns = podDNS(pod ?? ({ metadata: { namespace: 'default' } } as Pod));
  if (dns.type !== 'cluster') return { error: `error: pod ${pod?.metadata?.name ?? ''} does not use the cluster's DNS (dnsPolicy ${pod?.spec?.dnsPolicy ?? ''}): its resolver is the node's` };
  const ndots = Number(/^ndots:(\d+)$/.exec(dns.options.find((o) => o.startsWith('ndots:')) ?? '')?.[1] ?? 1);
  const bare = name.replace(/\.$/, '').toLowerCase();
  const dots = bare.split('.').length - 1;
  const tries = name.endsWith('.') ? [bare] : dots < ndots ? [...dns.searches.map((s) => `${bare}.${s}`), bare] : [bare, ...dns.searches.map((s) => `${bare}.${s}`)];
  const who = pod ? `pod ${pod.metadata?.namespace}/${pod.metadata?.name}` : 'a pod of namespace default';
  const out = [`;; ${name} as ${who} resolves it (search ${dns.searches.join(' ')}; ndots:${ndots}; server ${dns.servers.join(' ')})`];
  for (const fqdn of tries) {
    const got = answer(sim, fqdn);
    if ('nxdomain' in got) {
      out.push(`;; ${fqdn}. IN A: NXDOMAIN`);
      continue;
    }
    if (got.records.length === 0) {
      out.push(`;; ${fqdn}. IN A: no record (a headless Service with no ready endpoint)`);
      continue;
    }
    out.push(...got.records);
    return { output: out.join('\n') };
  }
  return { output: out.join('\n') };
}
