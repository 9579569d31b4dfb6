// The rules kube-proxy in iptables mode writes on one node for the Services and their EndpointSlices: which endpoints
// each service port sends traffic to from that node (CategorizeEndpoints: ready ones, else serving terminating ones),
// and the nat and filter rules it hands iptables-restore for them. See pkg/proxy/iptables/proxier.go (syncProxyRules,
// writeServiceToEndpointRules: the rules in the order it writes them, which iptables-save groups by chain), pkg/proxy/topology.go (CategorizeEndpoints), pkg/proxy/endpointslicecache.go
// (addEndpoints, byEndpoint), pkg/proxy/util/utils.go (ShouldSkipService), k8s.io/kubernetes v1.36.3.
// Not modelled: topology hints and trafficDistribution, LoadBalancer ingress IPs and source ranges, health check node
// ports, IPv6, and the large-cluster mode that drops comments past 1000 endpoints.
import type { KubeObject, Service } from '../api/types';
import { extChain, probability, sepChain, servicePortName, svcChain, svlChain } from './chains';

/** Endpoint is one address of a service port as kube-proxy's endpoint cache holds it. */
export interface ProxyEndpoint {
  /** endpoint is `ip:port`, BaseEndpointInfo.String(). */
  endpoint: string;
  ip: string;
  local: boolean;
  ready: boolean;
  serving: boolean;
  terminating: boolean;
  pod?: string;
}

/** ServiceRoute says where one service port's traffic goes from the node, and why. */
export interface ServiceRoute {
  /** name is the service port's name, `namespace/service[:port]`. */
  name: string;
  protocol: string;
  clusterIP: string;
  port: number;
  nodePort?: number;
  /** all are every endpoint the slices list for the port; cluster and local those the Cluster and Local policy chains send to. */
  all: ProxyEndpoint[];
  cluster: ProxyEndpoint[];
  local: ProxyEndpoint[];
  /** terminatingFallback: no endpoint is ready, so serving terminating ones take the traffic (KEP-1669). */
  terminatingFallback: boolean;
  /** rejected: no usable endpoint at all: the filter table rejects the service's traffic. */
  rejected: boolean;
}

/** NodeRules are what one node's kube-proxy writes: its routes and the iptables-restore input for nat and filter. */
export interface NodeRules {
  routes: ServiceRoute[];
  nat: string[];
  filter: string[];
}

/** ProxyConfig is what the rules depend on beyond the objects: the cluster CIDR (detect-local-mode ClusterCIDR). */
export interface ProxyConfig {
  clusterCIDR?: string;
}

interface SlicePort { name?: string; port?: number; protocol?: string }
interface SliceEndpoint { addresses?: string[]; nodeName?: string; targetRef?: { name?: string }; conditions?: { ready?: boolean | null; serving?: boolean | null; terminating?: boolean | null } }

/** shouldSkip is ShouldSkipService: no cluster IP, a headless Service, or an ExternalName one. */
function shouldSkip(svc: Service): boolean {
  const ip = svc.spec?.clusterIP;
  return !ip || ip === 'None' || svc.spec?.type === 'ExternalName';
}

/** endpointsOf gathers a service port's endpoints from its slices, as addEndpoints does, sorted by `ip:port`. */
function endpointsOf(slices: readonly KubeObject[], portName: string | undefined, protocol: string, node: string): ProxyEndpoint[] {
  const byKey = new Map<string, ProxyEndpoint>();
  for (const slice of slices) {
    const ports = (slice['ports'] ?? []) as SlicePort[];
    const port = ports.find((p) => (p.name ?? '') === (portName ?? '') && (p.protocol ?? 'TCP') === protocol);
    if (!port || port.port === undefined) continue;
    for (const e of (slice['endpoints'] ?? []) as SliceEndpoint[]) {
      const ip = e.addresses?.[0];
      if (!ip) continue;
      const c = e.conditions ?? {};
      const ep: ProxyEndpoint = {
        endpoint: `${ip}:${port.port}`, ip, local: !!e.nodeName && e.nodeName === node,
        ready: c.ready !== false, serving: c.serving !== false, terminating: c.terminating === true,
        ...(e.targetRef?.name ? { pod: e.targetRef.name } : {}),
      };
      // A terminating copy never replaces one already seen (the same pod in two slices during an update).
      if (!byKey.has(ep.endpoint) || !ep.terminating) byKey.set(ep.endpoint, ep);
    }
  }
  return [...byKey.values()].sort((a, b) => (a.endpoint < b.endpoint ? -1 : a.endpoint > b.endpoint ? 1 : 0));
}

/** categorize is CategorizeEndpoints without topology: the endpoints of each policy, and whether any is usable. */
function categorize(endpoints: ProxyEndpoint[], usesCluster: boolean, usesLocal: boolean): { cluster: ProxyEndpoint[]; local: ProxyEndpoint[]; fallback: boolean; any: boolean } {
  let cluster: ProxyEndpoint[] = [];
  let fallback = false;
  if (usesCluster) {
    cluster = endpoints.filter((e) => e.ready);
    if (cluster.length === 0) {
      cluster = endpoints.filter((e) => e.serving && e.terminating);
      fallback = cluster.length > 0;
    }
  }
  let any = cluster.length > 0;
  let local: ProxyEndpoint[] = [];
  if (usesLocal) {
    if (endpoints.some((e) => e.ready || (e.serving && e.terminating))) any = true;
    local = endpoints.filter((e) => e.local && e.ready);
    if (local.length === 0) {
      local = endpoints.filter((e) => e.local && e.serving && e.terminating);
      fallback ||= local.length > 0;
    }
  }
  return { cluster, local, fallback, any };
}

/** syncRules computes a node's rules from the Services and EndpointSlices it watches (service ports in name order). */
export function syncRules(services: readonly Service[], slices: readonly KubeObject[], node: string, config: ProxyConfig = {}): NodeRules {
  const slicesOf = new Map<string, KubeObject[]>();
  for (const s of slices) {
    const svc = s.metadata?.labels?.['kubernetes.io/service-name'];
    if (!svc) continue;
    const key = `${s.metadata?.namespace ?? 'default'}/${svc}`;
    slicesOf.set(key, [...(slicesOf.get(key) ?? []), s]);
  }
  const routes: ServiceRoute[] = [];
  // The nat rules in the order syncProxyRules writes them, service port by service port: what iptables-restore is given.
  const nat: string[] = [];
  const filter: string[] = [];
  const ports = services.filter((s) => !shouldSkip(s)).flatMap((svc) => (svc.spec?.ports ?? []).map((p) => ({ svc, p })));
  const named = ports.map(({ svc, p }) => ({ svc, p, name: servicePortName(svc.metadata?.namespace ?? 'default', svc.metadata?.name ?? '', p.name) }));
  named.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const { svc, p, name } of named) {
    const protocol = (p.protocol ?? 'TCP').toLowerCase();
    const clusterIP = svc.spec?.clusterIP ?? '';
    const nodePort = p.nodePort;
    const internalLocal = svc.spec?.internalTrafficPolicy === 'Local';
    const external = nodePort !== undefined || (svc.spec?.externalIPs?.length ?? 0) > 0;
    const externalLocal = external && svc.spec?.externalTrafficPolicy === 'Local';
    const endpoints = endpointsOf(slicesOf.get(`${svc.metadata?.namespace ?? 'default'}/${svc.metadata?.name}`) ?? [], p.name, (p.protocol ?? 'TCP'), node);
    const cat = categorize(endpoints, !internalLocal || (external && !externalLocal), internalLocal || externalLocal);
    const route: ServiceRoute = { name, protocol, clusterIP, port: p.port, ...(nodePort !== undefined ? { nodePort } : {}), all: endpoints, cluster: cat.cluster, local: cat.local, terminatingFallback: cat.fallback, rejected: !cat.any };
    routes.push(route);
    const svcC = svcChain(name, protocol);
    const svlC = svlChain(name, protocol);
    const extC = extChain(name, protocol);
    const internalChain = internalLocal ? svlC : svcC;
    const hasInternal = cat.any && (!internalLocal || cat.local.length > 0);
    const hasExternal = cat.any && (!externalLocal || cat.local.length > 0);
    const dest = `-m ${protocol} -p ${protocol} -d ${clusterIP} --dport ${p.port}`;
    if (hasInternal) nat.push(`-A KUBE-SERVICES -m comment --comment "${name} cluster IP" ${dest} -j ${internalChain}`);
    else filter.push(`-A KUBE-SERVICES -m comment --comment "${name} has ${cat.any ? 'no local endpoints' : 'no endpoints'}" ${dest} -j ${cat.any ? 'DROP' : 'REJECT'}`);
    for (const ip of svc.spec?.externalIPs ?? []) {
      if (cat.any) nat.push(`-A KUBE-SERVICES -m comment --comment "${name} external IP" -m ${protocol} -p ${protocol} -d ${ip} --dport ${p.port} -j ${extC}`);
      if (!hasExternal) filter.push(`-A KUBE-EXTERNAL-SERVICES -m comment --comment "${name} has ${cat.any ? 'no local endpoints' : 'no endpoints'}" -m ${protocol} -p ${protocol} -d ${ip} --dport ${p.port} -j ${cat.any ? 'DROP' : 'REJECT'}`);
    }
    if (nodePort !== undefined) {
      if (cat.any) nat.push(`-A KUBE-NODEPORTS -m comment --comment ${name} -m ${protocol} -p ${protocol} --dport ${nodePort} -j ${extC}`);
      if (!hasExternal) filter.push(`-A KUBE-EXTERNAL-SERVICES -m comment --comment "${name} has ${cat.any ? 'no local endpoints' : 'no endpoints'}" -m addrtype --dst-type LOCAL -m ${protocol} -p ${protocol} --dport ${nodePort} -j ${cat.any ? 'DROP' : 'REJECT'}`);
    }
    // Traffic to the cluster IP from outside the pod network is masqueraded (localDetector.IfNotLocal).
    if (hasInternal && config.clusterCIDR) nat.push(`-A ${internalChain} -m comment --comment "${name} cluster IP" ${dest} ! -s ${config.clusterCIDR} -j KUBE-MARK-MASQ`);
    if (cat.any && external) {
      if (!externalLocal) nat.push(`-A ${extC} -m comment --comment "masquerade traffic for ${name} external destinations" -j KUBE-MARK-MASQ`);
      else {
        if (config.clusterCIDR) nat.push(`-A ${extC} -m comment --comment "pod traffic for ${name} external destinations" -s ${config.clusterCIDR} -j ${svcC}`);
        nat.push(`-A ${extC} -m comment --comment "masquerade LOCAL traffic for ${name} external destinations" -m addrtype --src-type LOCAL -j KUBE-MARK-MASQ`);
        nat.push(`-A ${extC} -m comment --comment "route LOCAL traffic for ${name} external destinations" -m addrtype --src-type LOCAL -j ${svcC}`);
      }
      if (hasExternal) nat.push(`-A ${extC} -j ${externalLocal ? svlC : svcC}`);
    }
    const affinity = svc.spec?.sessionAffinity === 'ClientIP' ? svc.spec?.sessionAffinityConfig?.clientIP?.timeoutSeconds ?? 10800 : undefined;
    const toEndpoints = (chain: string, list: ProxyEndpoint[]) => {
      if (affinity !== undefined) {
        for (const e of list) nat.push(`-A ${chain} -m comment --comment "${name} -> ${e.endpoint}" -m recent --name ${sepChain(name, protocol, e.endpoint)} --rcheck --seconds ${affinity} --reap -j ${sepChain(name, protocol, e.endpoint)}`);
      }
      list.forEach((e, i) => {
        const pick = i < list.length - 1 ? ` -m statistic --mode random --probability ${probability(list.length - i)}` : '';
        nat.push(`-A ${chain} -m comment --comment "${name} -> ${e.endpoint}"${pick} -j ${sepChain(name, protocol, e.endpoint)}`);
      });
    };
    if (cat.cluster.length > 0 && (!internalLocal || (external && !externalLocal))) toEndpoints(svcC, cat.cluster);
    if (cat.local.length > 0 && (internalLocal || externalLocal)) toEndpoints(svlC, cat.local);
    const reachable = new Map<string, ProxyEndpoint>();
    for (const e of [...cat.cluster, ...cat.local]) reachable.set(e.endpoint, e);
    for (const e of reachable.values()) {
      const sep = sepChain(name, protocol, e.endpoint);
      nat.push(`-A ${sep} -m comment --comment ${name} -s ${e.ip} -j KUBE-MARK-MASQ`);
      nat.push(`-A ${sep} -m comment --comment ${name}${affinity !== undefined ? ` -m recent --name ${sep} --set` : ''} -m ${protocol} -p ${protocol} -j DNAT --to-destination ${e.endpoint}`);
    }
  }
  // The NodePorts jump is the last rule of KUBE-SERVICES (nodePortAddresses matching all, localhost NodePorts on: the
  // default of --iptables-localhost-nodeports).
  nat.push('-A KUBE-SERVICES -m comment --comment "kubernetes service nodeports; NOTE: this must be the last rule in this chain" -m addrtype --dst-type LOCAL -j KUBE-NODEPORTS');
  return { routes, nat, filter };
}
