// Host ports in use on a node and the conflict rule between them (0.0.0.0 binds every address).
// See pkg/scheduler/framework/types.go (HostPortInfo) and pkg/scheduler/util/utils.go (GetHostPorts).
import type { ContainerPort, Pod } from '../../api/types';
import { CONTAINER_RESTART_POLICY_ALWAYS } from './pod-resources';

/** DEFAULT_BIND_ALL_HOST_IP is the host IP a port without hostIP binds. */
export const DEFAULT_BIND_ALL_HOST_IP = '0.0.0.0';
/** DEFAULT_PROTOCOL is the protocol a port without protocol uses. */
export const DEFAULT_PROTOCOL = 'TCP';

/** HostPortInfo records the (protocol, port) pairs in use per host IP. */
export class HostPortInfo {
  private readonly byIP = new Map<string, Map<string, number>>();

  /** add records one port use; uses are counted so that removing one pod leaves the others'. */
  add(ip: string | undefined, protocol: string | undefined, port: number | undefined): void {
    if (!port || port <= 0) return;
    const [host, key] = sanitize(ip, protocol, port);
    let ports = this.byIP.get(host);
    if (!ports) this.byIP.set(host, (ports = new Map()));
    ports.set(key, (ports.get(key) ?? 0) + 1);
  }

  /** remove forgets one port use. */
  remove(ip: string | undefined, protocol: string | undefined, port: number | undefined): void {
    if (!port || port <= 0) return;
    const [host, key] = sanitize(ip, protocol, port);
    const ports = this.byIP.get(host);
    const n = ports?.get(key) ?? 0;
    if (!ports || n === 0) return;
    if (n === 1) ports.delete(key);
    else ports.set(key, n - 1);
    if (ports.size === 0) this.byIP.delete(host);
  }

  /** checkConflict tells whether a wanted port is taken: 0.0.0.0 conflicts with any IP, any IP with itself and 0.0.0.0. */
  checkConflict(ip: string | undefined, protocol: string | undefined, port: number | undefined): boolean {
    if (!port || port <= 0) return false;
    const [host, key] = sanitize(ip, protocol, port);
    if (host === DEFAULT_BIND_ALL_HOST_IP) {
      for (const ports of this.byIP.values()) if (ports.has(key)) return true;
      return false;
    }
    return [DEFAULT_BIND_ALL_HOST_IP, host].some((h) => this.byIP.get(h)?.has(key) ?? false);
  }

  /** size is the number of host IPs with ports in use. */
  get size(): number {
    return this.byIP.size;
  }
}

function sanitize(ip: string | undefined, protocol: string | undefined, port: number): [string, string] {
  return [ip || DEFAULT_BIND_ALL_HOST_IP, `${protocol || DEFAULT_PROTOCOL}/${port}`];
}

/** getHostPorts returns the ports with a hostPort of the containers and of the sidecars (init containers with restartPolicy Always). */
export function getHostPorts(pod: Pod): ContainerPort[] {
  const ports: ContainerPort[] = [];
  for (const c of pod.spec?.initContainers ?? []) {
    if (c.restartPolicy !== CONTAINER_RESTART_POLICY_ALWAYS) continue;
    for (const p of c.ports ?? []) if ((p.hostPort ?? 0) > 0) ports.push(p);
  }
  for (const c of pod.spec?.containers ?? []) {
    for (const p of c.ports ?? []) if ((p.hostPort ?? 0) > 0) ports.push(p);
  }
  return ports;
}
