// The pod's DNS configuration, as the kubelet hands it to the runtime and containerd writes /etc/resolv.conf from it.
// See pkg/kubelet/network/dns/dns.go (GetPodDNS) and containerd's CRI sandbox setup (parseDNSOptions).
import type { Pod } from '../api/types';

/** CLUSTER_DOMAIN is kubeadm's default clusterDomain in the kubelet configuration. */
export const CLUSTER_DOMAIN = 'cluster.local';
/**
 * CLUSTER_DNS is kubeadm's clusterDNS: the tenth address of the service range 10.96.0.0/12, the kube-dns Service's
 * clusterIP in the embedded cluster. See cmd/kubeadm/app/constants (GetDNSIP) and the cluster's kube-dns Service.
 */
export const CLUSTER_DNS = ['10.96.0.10'];

/** HostDNS is what the node's resolv.conf holds (the kubelet's --resolv-conf). */
export interface HostDNS {
  servers: string[];
  searches: string[];
  options: string[];
}

/**
 * NODE_RESOLV_CONF is the simulated nodes' resolver: the node network's gateway as the only nameserver, no search
 * line, no options. A real node's file depends on its network; this one is representative.
 */
export const NODE_RESOLV_CONF: HostDNS = { servers: ['192.168.49.1'], searches: [], options: [] };

/** MAX_DNS_NAMESERVERS caps the nameservers (pkg/apis/core/validation MaxDNSNameservers). */
export const MAX_DNS_NAMESERVERS = 3;
/** MAX_DNS_SEARCH_PATHS caps the search domains (MaxDNSSearchPaths, 32 since ExpandedDNSConfig went GA). */
export const MAX_DNS_SEARCH_PATHS = 32;
/** MAX_DNS_SEARCH_LIST_CHARS caps the search line's length (MaxDNSSearchListChars, 2048). */
export const MAX_DNS_SEARCH_LIST_CHARS = 2048;
/** DNS1123_SUBDOMAIN_MAX_LENGTH drops longer search domains, which crash some resolvers (utilvalidation). */
export const DNS1123_SUBDOMAIN_MAX_LENGTH = 253;
/** DEFAULT_DNS_OPTIONS are the options of a ClusterFirst pod (defaultDNSOptions). */
export const DEFAULT_DNS_OPTIONS = ['ndots:5'];

/** PodDNS is the DNS config the kubelet computed for a pod, and the DNSConfigForming warnings it raised. */
export interface PodDNS {
  /** type is getPodDNSType's answer: cluster DNS, the host's resolver, or none. */
  type: 'cluster' | 'host' | 'none';
  servers: string[];
  searches: string[];
  options: string[];
  warnings: string[];
}

/** podDNSType is getPodDNSType: ClusterFirst on the host network falls back to the host's resolver. */
export function podDNSType(pod: Pod): PodDNS['type'] {
  const policy = pod.spec?.dnsPolicy ?? 'ClusterFirst';
  if (policy === 'None') return 'none';
  if (policy === 'ClusterFirstWithHostNet') return 'cluster';
  if (policy === 'ClusterFirst' && pod.spec?.hostNetwork !== true) return 'cluster';
  return 'host';
}

/** omitDuplicates keeps the first of each entry, in order (dns.go omitDuplicates). */
function omitDuplicates(list: readonly string[]): string[] {
  return [...new Set(list)];
}

/**
 * mergeDNSOptions is mergeDNSOptions: the pod's options overwrite the base's by name. Go ranges over a map there, so
 * the real order is unspecified; the simulation keeps first-seen order.
 */
function mergeDNSOptions(base: readonly string[], extra: readonly { name?: string; value?: string }[]): string[] {
  const byName = new Map<string, string>();
  for (const op of base) {
    const i = op.indexOf(':');
    if (i >= 0) byName.set(op.slice(0, i), op.slice(i + 1));
    else byName.set(op, '');
  }
  for (const op of extra) byName.set(op.name ?? '', op.value ?? '');
  return [...byName].map(([name, value]) => (value !== '' ? `${name}:${value}` : name));
}

/** searchFitsLimits is formDNSSearchFitsLimits: at most 32 domains, none over 253 characters, a line of at most 2048. */
function searchFitsLimits(composed: readonly string[], warnings: string[]): string[] {
  let exceeded = false;
  let search = [...composed];
  if (search.length > MAX_DNS_SEARCH_PATHS) {
    search = search.slice(0, MAX_DNS_SEARCH_PATHS);
    exceeded = true;
  }
  const short = search.filter((s) => s.length <= DNS1123_SUBDOMAIN_MAX_LENGTH);
  if (short.length !== search.length) exceeded = true;
  search = short;
  const lineLength = search.join(' ').length;
  if (lineLength > MAX_DNS_SEARCH_LIST_CHARS) {
    let cutLength = 0;
    let cut = 0;
    for (let i = search.length - 1; i >= 0; i--) {
      cutLength += search[i]!.length + 1;
      cut++;
      if (lineLength - cutLength <= MAX_DNS_SEARCH_LIST_CHARS) break;
    }
    search = search.slice(0, search.length - cut);
    exceeded = true;
  }
  if (exceeded) warnings.push(`Search Line limits were exceeded, some search paths have been omitted, the applied search line is: ${search.join(' ')}`);
  return search;
}

/** nameserversFitLimits is formDNSNameserversFitsLimits: at most three nameservers. */
function nameserversFitLimits(servers: readonly string[], warnings: string[]): string[] {
  if (servers.length <= MAX_DNS_NAMESERVERS) return [...servers];
  const kept = servers.slice(0, MAX_DNS_NAMESERVERS);
  warnings.push(`Nameserver limits were exceeded, some nameservers have been omitted, the applied nameserver line is: ${kept.join(' ')}`);
  return kept;
}

/**
 * podDNS is GetPodDNS: start from the host's resolver; ClusterFirst replaces the nameservers with the cluster DNS,
 * puts `<ns>.svc.<domain> svc.<domain> <domain>` before the host's search domains and sets ndots:5; None starts
 * empty; then the pod's dnsConfig is appended (duplicates dropped, options overwritten by name) and the limits applied.
 */
export function podDNS(pod: Pod, host: HostDNS = NODE_RESOLV_CONF, clusterDNS: readonly string[] = CLUSTER_DNS, clusterDomain = CLUSTER_DOMAIN): PodDNS {
  const type = podDNSType(pod);
  let servers = [...host.servers];
  let searches = [...host.searches];
  let options = [...host.options];
  if (type === 'none') {
    servers = [];
    searches = [];
    options = [];
  } else if (type === 'cluster') {
    servers = [...clusterDNS];
    const ns = pod.metadata?.namespace ?? 'default';
    searches = omitDuplicates([`${ns}.svc.${clusterDomain}`, `svc.${clusterDomain}`, clusterDomain, ...searches]);
    options = [...DEFAULT_DNS_OPTIONS];
  }
  const cfg = pod.spec?.dnsConfig;
  if (cfg) {
    servers = omitDuplicates([...servers, ...(cfg.nameservers ?? [])]);
    searches = omitDuplicates([...searches, ...(cfg.searches ?? [])]);
    options = mergeDNSOptions(options, cfg.options ?? []);
  }
  const warnings: string[] = [];
  servers = nameserversFitLimits(servers, warnings);
  searches = searchFitsLimits(searches, warnings);
  return { type, servers, searches, options, warnings };
}

/** formatResolvConf writes the file as containerd does: a search line, one nameserver line each, an options line; empty ones left out. */
export function formatResolvConf(dns: Pick<PodDNS, 'servers' | 'searches' | 'options'>): string {
  const lines: string[] = [];
  if (dns.searches.length > 0) lines.push(`search ${dns.searches.join(' ')}`);
  for (const s of dns.servers) lines.push(`nameserver ${s}`);
  if (dns.options.length > 0) lines.push(`options ${dns.options.join(' ')}`);
  return lines.join('\n');
}

/**
 * resolvConf is the pod's /etc/resolv.conf under its dnsPolicy and dnsConfig. Each limit the kubelet had to apply is
 * handed to onWarning, the text of its Warning DNSConfigForming event.
 */
export function resolvConf(pod: Pod, onWarning?: (message: string) => void): string {
  const dns = podDNS(pod);
  if (onWarning) for (const w of dns.warnings) onWarning(w);
  return formatResolvConf(dns);
}
