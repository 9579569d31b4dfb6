// The service registry's BeginCreate: the cluster IPs, IP families and node ports a new Service gets, on the engine's
// single-stack IPv4 cluster (kubeadm's --service-cluster-ip-range=10.96.0.0/12, the default node port range
// 30000-32767). See pkg/registry/core/service/storage/storage.go (beginCreate, normalizeClusterIPs) and alloc.go
// (allocateCreate, initIPFamilyFields, allocClusterIPs, initNodePorts, allocHealthCheckNodePort), k8s.io/kubernetes v1.36.3.
//
// Deliberate departure: Kubernetes draws a free address (and node port) at random from the upper part of the range
// (ipallocator.go allocateNextService, allocator/bitmap.go randomScanStrategyWithOffset); the engine takes the
// lowest free one of that part, so runs repeat: 10.96.1.1, 10.96.1.2, ... and node ports 30086, 30087, ...
// (docs/fidelity.md).
import { deepClone, isObject, type KubeObject } from '../api/types';
import { type FieldError, invalidValue } from './validation/field-errors';
import { validateServiceClusterIPsRelatedFields } from './validation/service-ips';
import { validateObject } from './validation';

type Rec = Record<string, unknown>;

/** SERVICE_CIDR is the service range: 10.96.0.0/12, network 10.96.0.0, prefix length 12. */
export const SERVICE_CIDR = { text: '10.96.0.0/12', network: ipToInt('10.96.0.0')!, bits: 12 };
const CIDR_SIZE = 2 ** (32 - SERVICE_CIDR.bits);
/** The first and last addresses handed out: not the network's ".0" nor its broadcast address (NewIPAllocator). */
const FIRST_IP = SERVICE_CIDR.network + 1;
const LAST_IP = SERVICE_CIDR.network + CIDR_SIZE - 2;
/** IP_RANGE_OFFSET is calculateRangeOffset: min(max(16, size/16), 256) addresses kept for static allocation (KEP-3070). */
const IP_RANGE_OFFSET = Math.min(Math.max(16, CIDR_SIZE / 16), 256);

/** NODE_PORTS is the default --service-node-port-range, 30000-32767 (kube-apiserver's ServiceNodePortRange). */
export const NODE_PORTS = { base: 30000, size: 2768 };
/** NODE_PORT_OFFSET is the port allocator's calculateRangeOffset: min(max(16, size/32), 128). */
const NODE_PORT_OFFSET = Math.min(Math.max(16, Math.floor(NODE_PORTS.size / 32)), 128);

/** ServiceAllocation is the Service with its allocations, or the 422 field errors, or a 500's message. */
export type ServiceAllocation = { object: KubeObject; allocated: string[] } | { errors: FieldError[] } | { internal: string };

/** ipToInt reads a dotted IPv4 address (leading zeros allowed, as netutils.ParseIPSloppy does), or undefined. */
export function ipToInt(ip: string): number | undefined {
  const parts = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ip);
  if (!parts) return undefined;
  const octets = parts.slice(1).map(Number);
  if (octets.some((o) => o > 255)) return undefined;
  return octets.reduce((n, o) => n * 256 + o, 0);
}

function intToIp(n: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join('.');
}

/** familyOf is the family of an address (netutils.IPFamilyOfString): IPv4, IPv6 or none. */
function familyOf(ip: string): 'IPv4' | 'IPv6' | '' {
  if (ipToInt(ip) !== undefined) return 'IPv4';
  return /^[0-9a-fA-F:.]+$/.test(ip) && ip.includes(':') ? 'IPv6' : '';
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** usedBy gathers what the stored Services hold: their cluster IPs and node ports (the allocators' state). */
function usedBy(services: readonly KubeObject[]): { ips: Set<number>; ports: Set<number> } {
  const ips = new Set<number>();
  const ports = new Set<number>();
  for (const svc of services) {
    const spec = isObject(svc['spec']) ? svc['spec'] : {};
    for (const ip of [...strings(spec['clusterIPs']), ...(typeof spec['clusterIP'] === 'string' ? [spec['clusterIP']] : [])]) {
      const n = ipToInt(ip);
      if (n !== undefined) ips.add(n);
    }
    for (const p of Array.isArray(spec['ports']) ? spec['ports'] : []) if (isObject(p) && typeof p['nodePort'] === 'number') ports.add(p['nodePort']);
    if (typeof spec['healthCheckNodePort'] === 'number') ports.add(spec['healthCheckNodePort']);
  }
  return { ips, ports };
}

/** firstFree scans [lo, hi] from lo, then [lo2, lo - 1]: the upper part of a range first, then the part kept for static use. */
function firstFree(used: Set<number>, lo: number, hi: number, lowerStart: number): number | undefined {
  for (let n = lo; n <= hi; n++) if (!used.has(n)) return n;
  for (let n = lowerStart; n < lo; n++) if (!used.has(n)) return n;
  return undefined;
}

/**
 * allocateServiceCreate is beginCreate: normalizeClusterIPs, then allocateCreate (initIPFamilyFields, the cluster
 * IPs, the node ports and the health check node port). services are the Services already stored. initIPFamilyFields
 * runs the loose pre-validation (ValidateServiceClusterIPsRelatedFields) once ipFamilyPolicy has its default; the
 * strategy's Validate (validation/service.ts) runs after the allocation, on the allocated Service.
 */
export function allocateServiceCreate(service: KubeObject, services: readonly KubeObject[]): ServiceAllocation {
  const object = deepClone(service);
  const spec: Rec = isObject(object['spec']) ? object['spec'] : (object['spec'] = {});
  const allocated: string[] = [];
  // normalizeClusterIPs: a create that names clusterIP alone (an old client) gets clusterIPs from it.
  if (typeof spec['clusterIP'] === 'string' && spec['clusterIP'] !== '' && strings(spec['clusterIPs']).length === 0) spec['clusterIPs'] = [spec['clusterIP']];
  if (spec['type'] === 'ExternalName') return { object, allocated };
  const families = initIPFamilyFields(spec);
  if (families) return { errors: families };
  const used = usedBy(services);
  const ipError = allocClusterIPs(spec, used.ips, allocated, object.metadata?.name ?? '');
  if (ipError) return ipError;
  return allocNodePorts(spec, used.ports, allocated) ?? { object, allocated };
}

/** initIPFamilyFields defaults ipFamilyPolicy and ipFamilies on create, with the errors a single-stack cluster gives. */
function initIPFamilyFields(spec: Rec): FieldError[] | undefined {
  const selectorless = !isObject(spec['selector']) || Object.keys(spec['selector']).length === 0;
  const headless = spec['clusterIP'] === 'None';
  if (spec['ipFamilyPolicy'] === undefined || spec['ipFamilyPolicy'] === null) {
    // "Special-case: headless + selectorless defaults to dual."
    spec['ipFamilyPolicy'] = headless && selectorless ? 'RequireDualStack' : 'SingleStack';
  }
  // The loose pre-validation: its errors are the 422 of the create, before any address is drawn.
  const pre = validateServiceClusterIPsRelatedFields(spec);
  if (pre.length) return pre;
  const policy = spec['ipFamilyPolicy'];
  const clusterIPs = strings(spec['clusterIPs']);
  const ipFamilies = strings(spec['ipFamilies']);
  const errs: FieldError[] = [];
  if (policy === 'SingleStack') {
    if (clusterIPs.length === 2) errs.push(invalidValue('spec.ipFamilyPolicy', policy, "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified"));
    if (ipFamilies.length === 2) errs.push(invalidValue('spec.ipFamilyPolicy', policy, "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified"));
  }
  // Infer ipFamilies from clusterIPs; only IPv4 is configured on this cluster.
  for (let i = 0; i < clusterIPs.length && clusterIPs[i] !== 'None'; i++) {
    const family = familyOf(clusterIPs[i]!);
    if (i < ipFamilies.length || family === '') continue;
    if (family === 'IPv4') ipFamilies.push(family);
    else errs.push(invalidValue(`spec.clusterIPs[${i}]`, clusterIPs, `${family} is not configured on this cluster`));
  }
  if (errs.length) return errs;
  if (headless && selectorless) {
    if (ipFamilies.length === 0) ipFamilies.push('IPv4');
    if (ipFamilies.length < 2 && policy !== 'SingleStack') ipFamilies.push(ipFamilies[0] === 'IPv4' ? 'IPv6' : 'IPv4');
    spec['ipFamilies'] = ipFamilies;
    return undefined;
  }
  if (policy === 'RequireDualStack') errs.push(invalidValue('spec.ipFamilyPolicy', policy, 'this cluster is not configured for dual-stack services'));
  ipFamilies.forEach((f, i) => {
    if (f !== 'IPv4') errs.push(invalidValue(`spec.ipFamilies[${i}]`, f, 'not configured on this cluster'));
  });
  if (errs.length) return errs;
  spec['ipFamilies'] = ipFamilies.length ? ipFamilies : ['IPv4'];
  return undefined;
}

/** allocClusterIPs gives each family its address: the one asked for, if free and in range, or the next free one. */
function allocClusterIPs(spec: Rec, used: Set<number>, allocated: string[], name: string): ServiceAllocation | undefined {
  const clusterIPs = strings(spec['clusterIPs']);
  if (clusterIPs[0] === 'None') return undefined; // headless: no cluster IP
  const families = strings(spec['ipFamilies']);
  while (clusterIPs.length < families.length) clusterIPs.push('');
  spec['clusterIPs'] = clusterIPs;
  for (let i = 0; i < families.length; i++) {
    const want = clusterIPs[i]!;
    let ip: string;
    if (want === '') {
      const n = firstFree(used, FIRST_IP + IP_RANGE_OFFSET, LAST_IP, FIRST_IP);
      if (n === undefined) return { internal: `failed to allocate a serviceIP for Service ${JSON.stringify(name)}: range is full` };
      ip = intToIp(n);
    } else {
      const n = ipToInt(want);
      if (n === undefined) continue; // not an IPv4 address: the pre-validation has refused it
      const problem = n < SERVICE_CIDR.network || n >= SERVICE_CIDR.network + CIDR_SIZE ? 'the provided network does not match the current range'
        : n < FIRST_IP || n > LAST_IP ? `the provided IP (${want}) is not in the valid range. The range of valid IPs is ${SERVICE_CIDR.text}`
          : used.has(n) ? 'provided IP is already allocated' : undefined;
      if (problem) return { errors: [invalidValue('spec.clusterIPs', clusterIPs, `failed to allocate IP ${want}: ${problem}`)] };
      ip = want;
    }
    used.add(ipToInt(ip)!);
    clusterIPs[i] = ip;
    if (i === 0) spec['clusterIP'] = ip;
    allocated.push(`clusterIP ${ip}`);
  }
  return undefined;
}

/** nodePortProblem is what the port allocator's Allocate says of a port asked for, or undefined when it is free. */
function nodePortProblem(port: number, used: Set<number>): string | undefined {
  if (port < NODE_PORTS.base || port >= NODE_PORTS.base + NODE_PORTS.size) {
    return `provided port is not in the valid range. The range of valid ports is ${NODE_PORTS.base}-${NODE_PORTS.base + NODE_PORTS.size - 1}`;
  }
  return used.has(port) ? 'provided port is already allocated' : undefined;
}

function nextNodePort(used: Set<number>): number | undefined {
  const base = NODE_PORTS.base;
  return firstFree(used, base + NODE_PORT_OFFSET, base + NODE_PORTS.size - 1, base);
}

/** allocNodePorts is txnAllocNodePorts: initNodePorts for NodePort and LoadBalancer Services, then the health check port. */
function allocNodePorts(spec: Rec, used: Set<number>, allocated: string[]): ServiceAllocation | undefined {
  const type = spec['type'];
  const ports = (Array.isArray(spec['ports']) ? spec['ports'] : []).filter(isObject);
  const shouldAllocate = type === 'NodePort' || (type === 'LoadBalancer' && spec['allocateLoadBalancerNodePorts'] === true);
  if (type === 'NodePort' || type === 'LoadBalancer') {
    const byPort = new Map<number, number>();
    const nodePortOf = (p: Rec): number => (typeof p['nodePort'] === 'number' ? p['nodePort'] : 0);
    for (let i = 0; i < ports.length; i++) {
      const sp = ports[i]!;
      const port = typeof sp['port'] === 'number' ? sp['port'] : 0;
      if (nodePortOf(sp) === 0 && !shouldAllocate) continue;
      const taken = byPort.get(port) ?? 0;
      if (taken === 0) {
        // findRequestedNodePort: the nodePort an entry of the same port number asks for.
        const asked = ports.find((p) => p['port'] === port && nodePortOf(p) !== 0);
        const np = asked ? nodePortOf(asked) : nextNodePort(used);
        if (np === undefined) return { internal: 'failed to allocate a nodePort: range is full' };
        const problem = asked ? nodePortProblem(np, used) : undefined;
        if (problem) return { errors: [invalidValue(`spec.ports[${i}].nodePort`, np, problem)] };
        used.add(np);
        sp['nodePort'] = np;
        byPort.set(port, np);
        allocated.push(`nodePort ${np}`);
      } else if (nodePortOf(sp) !== taken) {
        if (nodePortOf(sp) === 0) sp['nodePort'] = taken;
        else {
          const problem = nodePortProblem(nodePortOf(sp), used);
          if (problem) return { errors: [invalidValue(`spec.ports[${i}].nodePort`, nodePortOf(sp), problem)] };
          used.add(nodePortOf(sp));
          allocated.push(`nodePort ${nodePortOf(sp)}`);
        }
      }
    }
  }
  // NeedsHealthCheck (pkg/api/service/util.go): a LoadBalancer whose externalTrafficPolicy is Local.
  if (type === 'LoadBalancer' && spec['externalTrafficPolicy'] === 'Local') {
    const asked = typeof spec['healthCheckNodePort'] === 'number' ? spec['healthCheckNodePort'] : 0;
    if (asked !== 0) {
      const problem = nodePortProblem(asked, used);
      if (problem) return { internal: `failed to allocate requested HealthCheck NodePort ${asked}: ${problem}` };
      used.add(asked);
    } else {
      const np = nextNodePort(used);
      if (np === undefined) return { internal: 'failed to allocate a HealthCheck NodePort 0: range is full' };
      used.add(np);
      spec['healthCheckNodePort'] = np;
      allocated.push(`healthCheckNodePort ${np}`);
    }
  }
  return undefined;
}

/**
 * validateServiceCreate is a Service's create as the registry checks it: the allocation's errors (its pre-check of
 * the cluster IPs), else the strategy's validation of the allocated Service. services are the Services stored.
 */
export function validateServiceCreate(service: KubeObject, services: readonly KubeObject[]): FieldError[] {
  const allocated = allocateServiceCreate(service, services);
  if ('errors' in allocated) return allocated.errors;
  return validateObject('object' in allocated ? allocated.object : service);
}
