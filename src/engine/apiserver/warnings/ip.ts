// The warnings kube-apiserver gives for IP addresses it accepts in a legacy form: IPv4 with leading zeros, IPv4-mapped
// IPv6, IPv6 not in RFC 5952 canonical form. See k8s.io/apimachinery/pkg/util/validation/ip.go (GetWarningsForIP), v0.36.3.
import { isIPv6 } from 'node:net';

/** parseIPv6 reads an IPv6 address into its eight 16-bit groups (an embedded IPv4 tail as two), or undefined. */
function parseIPv6(value: string): number[] | undefined {
  if (!isIPv6(value) || value.includes('%')) return undefined;
  // An IPv4 tail is two groups: written as hex, the address parses as any other.
  const text = value.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_m, a: string, b: string, c: string, d: string) =>
    `${((Number(a) << 8) | Number(b)).toString(16)}:${((Number(c) << 8) | Number(d)).toString(16)}`);
  const groups = (s: string): number[] => (s ? s.split(':').map((g) => Number.parseInt(g, 16)) : []);
  if (!text.includes('::')) return groups(text);
  const [head = '', rest = ''] = text.split('::');
  const left = groups(head), right = groups(rest);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/** formatIPv6 is netip.Addr.String (and net.IP.String) of an IPv6 address: lowercase groups, the longest run of two or more zero groups as "::". */
export function formatIPv6(g: number[]): string {
  let best = -1, bestLen = 0;
  for (let i = 0; i < 8;) {
    if (g[i] !== 0) { i++; continue; }
    let j = i;
    while (j < 8 && g[j] === 0) j++;
    if (j - i > bestLen && j - i >= 2) { best = i; bestLen = j - i; }
    i = j;
  }
  const hex = (xs: number[]): string => xs.map((x) => x.toString(16)).join(':');
  return best < 0 ? hex(g) : `${hex(g.slice(0, best))}::${hex(g.slice(best + bestLen))}`;
}

/**
 * ipWarnings is GetWarningsForIP: for a value ParseIPSloppy accepts, the warning when netip.ParseAddr refuses it
 * (leading zeros) or reads it as IPv4-mapped IPv6 (`non-standard IP address "010.0.0.1" is invalid: use "10.0.0.1"`),
 * or when it is IPv6 not in canonical form.
 */
export function ipWarnings(path: string, value: string): string[] {
  if (/^[0-9]+(\.[0-9]+){3}$/.test(value)) {
    const parts = value.split('.').map(Number);
    if (parts.some((p) => p > 255)) return [];
    const plain = parts.join('.');
    return plain === value ? [] : [`${path}: non-standard IP address ${JSON.stringify(value)} is invalid: use ${JSON.stringify(plain)}`];
  }
  const groups = parseIPv6(value);
  if (!groups) return [];
  if (groups.slice(0, 5).every((x) => x === 0) && groups[5] === 0xffff) {
    const v4 = [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join('.');
    return [`${path}: non-standard IP address ${JSON.stringify(value)} is invalid: use ${JSON.stringify(v4)}`];
  }
  const canonical = formatIPv6(groups);
  return canonical === value ? [] : [`${path}: IPv6 address ${JSON.stringify(value)} should be in RFC 5952 canonical format (${JSON.stringify(canonical)})`];
}
