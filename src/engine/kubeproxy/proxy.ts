// kube-proxy in iptables mode, on every node: it watches Services and EndpointSlices and rewrites the node's rules at
// most once per minSyncPeriod (1 s), through a BoundedFrequencyRunner: a change runs a sync at once when the last one
// is a period old, else when the period is up. Every node's kube-proxy is told the same changes at the same moment
// here, so they sync together; the rules differ by node only for Services with a Local traffic policy.
// See pkg/proxy/iptables/proxier.go (NewProxier, Sync, syncProxyRules), pkg/util/async/bounded_frequency_runner.go and
// pkg/proxy/apis/config/v1alpha1/defaults.go (IPTables.MinSyncPeriod 1s), k8s.io/kubernetes v1.36.3.
import { objectRef, type KubeObject, type Service } from '../api/types';
import type { EngineContext } from '../context';
import type { Millis } from '../runtime/clock';
import type { Steps } from '../runtime/step';
import { sepChain } from './chains';
import { syncRules, type NodeRules, type ProxyEndpoint, type ServiceRoute } from './rules';

/** MIN_SYNC_PERIOD_MS is iptables.minSyncPeriod's default. */
export const MIN_SYNC_PERIOD_MS = 1000;

/** CLUSTER_CIDR is the pod network kube-proxy tells local traffic by (kubeadm's podSubnet, detect-local-mode ClusterCIDR). */
export const CLUSTER_CIDR = '10.244.0.0/16';

/** Sent is what the nodes' rules sent one service port's traffic to, after a sync. */
interface Sent {
  endpoints: Map<string, ProxyEndpoint>;
  fallback: boolean;
}

/** KubeProxy stands for the kube-proxy of every node. */
export class KubeProxy {
  private lastSyncAt?: Millis;
  private pending = false;
  private sent = new Map<string, Sent>();

  constructor(private readonly ctx: EngineContext) {}

  /** syncPending tells whether a change waits for the next sync (at most minSyncPeriod away). */
  get syncPending(): boolean {
    return this.pending;
  }

  /** onChange is the informers' handler: a Service or EndpointSlice change asks for a sync. */
  onChange(obj: KubeObject): void {
    if (obj.kind !== 'Service' && obj.kind !== 'EndpointSlice') return;
    if (this.pending) return;
    this.pending = true;
    const now = this.ctx.clock.now;
    const at = this.lastSyncAt === undefined ? now : Math.max(now, this.lastSyncAt + MIN_SYNC_PERIOD_MS);
    this.ctx.schedule(at - now, 'kube-proxy: syncProxyRules', () => this.sync());
  }

  /** rulesOf computes one node's rules now (for the state tree and the console). */
  rulesOf(node: string): NodeRules {
    return syncRules(this.ctx.store.list<Service>('Service'), this.ctx.store.list('EndpointSlice'), node, { clusterCIDR: CLUSTER_CIDR });
  }

  private *sync(): Steps<void> {
    this.pending = false;
    this.lastSyncAt = this.ctx.clock.now;
    const nodes = this.ctx.store.list('Node').map((n) => n.metadata?.name ?? '');
    if (nodes.length === 0) return;
    const services = this.ctx.store.list<Service>('Service');
    const slices = this.ctx.store.list('EndpointSlice');
    const perNode = services.some((s) => s.spec?.internalTrafficPolicy === 'Local' || s.spec?.externalTrafficPolicy === 'Local');
    // With Cluster policies only, every node writes the same rules: they are computed once.
    const first = syncRules(services, slices, nodes[0]!, { clusterCIDR: CLUSTER_CIDR });
    const rules = new Map<string, NodeRules>(perNode ? nodes.map((n, i) => [n, i === 0 ? first : syncRules(services, slices, n, { clusterCIDR: CLUSTER_CIDR })]) : []);
    const where = `${nodes.length} node${nodes.length === 1 ? '' : 's'}`;
    const seen = new Set<string>();
    for (const route of first.routes) {
      seen.add(route.name);
      const now = reachable(route);
      const before = this.sent.get(route.name);
      this.sent.set(route.name, { endpoints: now, fallback: route.terminatingFallback });
      const added = [...now.values()].filter((e) => !before?.endpoints.has(e.endpoint));
      const removed = [...(before?.endpoints.values() ?? [])].filter((e) => !now.has(e.endpoint));
      const target = `${route.name} (${route.clusterIP}:${route.port}/${route.protocol.toUpperCase()})`;
      const left = `${now.size} endpoint${now.size === 1 ? '' : 's'}${route.terminatingFallback ? ', serving but terminating: no endpoint is ready' : ''}`;
      const detail = (e?: ProxyEndpoint) => ({
        service: route.name, clusterIP: route.clusterIP, port: route.port, protocol: route.protocol, nodes, minSyncPeriodSeconds: MIN_SYNC_PERIOD_MS / 1000,
        ...(e ? { endpoint: e.endpoint, chain: sepChain(route.name, route.protocol, e.endpoint) } : {}),
        endpoints: [...now.keys()], terminatingFallback: route.terminatingFallback,
        rules: perNode ? Object.fromEntries([...rules].map(([n, r]) => [n, rulesFor(r, route)])) : { [`every node (${where})`]: rulesFor(first, route) },
      });
      const all = new Map(removed.length ? route.all.map((e) => [e.endpoint, e]) : []);
      for (const e of removed) {
        yield {
          phase: 'kubeproxy.sync', object: podRef(route, e), result: `kube-proxy on ${where} no longer sends new connections for ${target} to ${e.endpoint}${why(all, e)}; ${left}`,
          detail: detail(e), ...(now.size === 0 ? { outcome: 'failed' as const } : {}),
        };
      }
      for (const e of added) {
        yield {
          phase: 'kubeproxy.sync', object: podRef(route, e),
          result: `kube-proxy on ${where} sends ${target} to ${e.endpoint}${e.terminating ? ' (terminating, still serving)' : ''} through ${sepChain(route.name, route.protocol, e.endpoint)}; ${left}`,
          detail: detail(e),
        };
      }
      if (before && before.fallback !== route.terminatingFallback && added.length === 0 && removed.length === 0) {
        yield { phase: 'kubeproxy.sync', object: serviceRef(route), result: `kube-proxy on ${where}: ${target}: ${left}`, detail: detail() };
      }
    }
    for (const name of [...this.sent.keys()]) if (!seen.has(name)) this.sent.delete(name);
  }
}

/** reachable is the set of endpoints the service port's chains send to, by `ip:port`. */
function reachable(route: ServiceRoute): Map<string, ProxyEndpoint> {
  const out = new Map<string, ProxyEndpoint>();
  for (const e of [...route.cluster, ...route.local]) out.set(e.endpoint, e);
  return out;
}

/** rulesFor picks a service port's lines out of a node's rules (the nat lines naming its chains or its comment). */
function rulesFor(rules: NodeRules, route: ServiceRoute): { nat: string[]; filter: string[] } {
  const mine = (line: string) => line.includes(` ${route.name} `) || line.includes(`"${route.name} `) || line.endsWith(` ${route.name}`) || line.includes(`--comment ${route.name} `);
  return { nat: rules.nat.filter(mine), filter: rules.filter.filter(mine) };
}

/** why says why an endpoint left the rules: its pod is terminating, not ready, or gone from the slices. */
function why(all: ReadonlyMap<string, ProxyEndpoint>, e: ProxyEndpoint): string {
  const now = all.get(e.endpoint);
  if (!now) return ' (gone from the EndpointSlices)';
  if (now.terminating) return now.serving ? ' (its pod is terminating; it still serves, but the ready endpoints are preferred)' : ' (its pod is terminating)';
  return ' (its pod is not ready)';
}

const podRef = (route: ServiceRoute, e: ProxyEndpoint) => (e.pod ? objectRef('Pod', route.name.split('/')[0], e.pod) : serviceRef(route));
const serviceRef = (route: ServiceRoute) => objectRef('Service', route.name.split('/')[0], route.name.split('/')[1]!.split(':')[0]!);
