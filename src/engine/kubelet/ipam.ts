// host-local IPAM, as the CNI plugin does it: addresses from the node's podCIDR, the gateway (.1) skipped, freed on CNI DEL.

/** HostLocalIpam hands out the addresses of one node's pod CIDR. See containernetworking/plugins plugins/ipam/host-local. */
export class HostLocalIpam {
  private readonly network: number;
  private readonly size: number;
  private readonly used = new Map<number, string>();
  private last: number;

  constructor(readonly cidr: string) {
    const [ip, bits] = cidr.split('/') as [string, string];
    this.network = ipToInt(ip);
    this.size = 2 ** (32 - Number(bits));
    // The range starts after the gateway (.1); the allocator continues after the last address it gave.
    this.last = 1;
  }

  /** allocate gives the next free address to a container id; undefined when the range is exhausted. */
  allocate(owner: string): string | undefined {
    const first = 2;
    const lastUsable = this.size - 2;
    let candidate = this.last + 1;
    for (let n = 0; n <= lastUsable - first; n++) {
      if (candidate > lastUsable) candidate = first;
      if (!this.used.has(candidate)) {
        this.used.set(candidate, owner);
        this.last = candidate;
        return intToIp(this.network + candidate);
      }
      candidate++;
    }
    return undefined;
  }

  /** release frees the address of a container id. */
  release(owner: string): void {
    for (const [offset, o] of this.used) if (o === owner) this.used.delete(offset);
  }

  /** gateway is the bridge's address (.1), the pods' default route. */
  get gateway(): string {
    return intToIp(this.network + 1);
  }
}

function ipToInt(ip: string): number {
  return ip.split('.').reduce((acc, part) => acc * 256 + Number(part), 0);
}

function intToIp(n: number): string {
  return [24, 16, 8, 0].map((s) => Math.floor(n / 2 ** s) % 256).join('.');
}
