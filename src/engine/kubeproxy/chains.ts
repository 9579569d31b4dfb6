// The names kube-proxy in iptables mode gives its per-Service and per-endpoint chains: a prefix and the first 16
// characters of the base32 of a SHA-256 of the service port's name and protocol (and the endpoint, for KUBE-SEP).
// See pkg/proxy/iptables/proxier.go (portProtoHash, servicePortPolicyClusterChain, servicePortPolicyLocalChainName,
// serviceExternalChainName, serviceFirewallChainName, servicePortEndpointChainName) and pkg/proxy/types.go
// (ServicePortName.String), k8s.io/kubernetes v1.36.3.
import { createHash } from 'node:crypto';

/** BASE32 is RFC 4648's standard alphabet, which Go's base32.StdEncoding uses. */
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** base32Prefix is the first `length` characters of the standard base32 encoding of `bytes` (padding never reached). */
function base32Prefix(bytes: Uint8Array, length: number): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5 && out.length < length) {
      out += BASE32[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
    if (out.length >= length) break;
  }
  return out;
}

/** hash16 is portProtoHash's digest of a string: base32(sha256(s))[:16]. */
function hash16(s: string): string {
  return base32Prefix(createHash('sha256').update(s).digest(), 16);
}

/** servicePortName is ServicePortName.String(): `namespace/name`, then `:port` when the Service's port has a name. */
export function servicePortName(namespace: string, name: string, portName: string | undefined): string {
  return `${namespace}/${name}${portName ? `:${portName}` : ''}`;
}

/** Chain names of one service port; `protocol` as kube-proxy lowercases it (tcp, udp, sctp). */
export const svcChain = (portName: string, protocol: string): string => `KUBE-SVC-${hash16(portName + protocol)}`;
export const svlChain = (portName: string, protocol: string): string => `KUBE-SVL-${hash16(portName + protocol)}`;
export const extChain = (portName: string, protocol: string): string => `KUBE-EXT-${hash16(portName + protocol)}`;
export const fwChain = (portName: string, protocol: string): string => `KUBE-FW-${hash16(portName + protocol)}`;

/** sepChain is an endpoint's chain: the endpoint is `ip:port` (BaseEndpointInfo.String). */
export const sepChain = (portName: string, protocol: string, endpoint: string): string => `KUBE-SEP-${hash16(portName + protocol + endpoint)}`;

/** probability is computeProbability: the chance that the rule for the i-th of n remaining endpoints is taken, as %0.10f. */
export function probability(n: number): string {
  return (1 / n).toFixed(10);
}
