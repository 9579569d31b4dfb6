// A Service's addresses: the legacy IP and CIDR checks (StrictIPCIDRValidation on, as in 1.36) and
// ValidateServiceClusterIPsRelatedFields, which the registry also runs before it allocates (service-alloc.ts).
// See staging/src/k8s.io/apimachinery/pkg/util/validation/ip.go (v0.36.3) and pkg/apis/core/validation/validation.go
// (ValidateServiceClusterIPsRelatedFields, ValidateEndpointIP), k8s.io/kubernetes v1.36.3; IsValidIP for EndpointSlices.
import { isIPv6 } from 'node:net';
import { isObject } from '../../api/types';
import { goQuote } from '../decode-go';
import { formatIPv6 } from '../warnings/ip';
import { asJSON, duplicate, type FieldError, index, invalidValue, notSupported, required } from './field-errors';

type Rec = Record<string, unknown>;

/** SUPPORTED_IP_FAMILIES and SUPPORTED_IP_FAMILY_POLICIES are supportedServiceIPFamily(Policy), as sets.List sorts them. */
const SUPPORTED_IP_FAMILIES = ['IPv4', 'IPv6'];
const SUPPORTED_IP_FAMILY_POLICIES = ['PreferDualStack', 'RequireDualStack', 'SingleStack'];

const IPV4_SLOPPY = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/;

/** ipFamilyOf is the family netutils.ParseIPSloppy reads in a value: IPv4 (leading zeros allowed), IPv6, or none. */
export function ipFamilyOf(value: string): 'IPv4' | 'IPv6' | '' {
  const v4 = IPV4_SLOPPY.exec(value);
  if (v4) return v4.slice(1).every((o) => o.length <= 3 && Number(o) <= 255) ? 'IPv4' : '';
  return !value.includes('%') && isIPv6(value) ? 'IPv6' : '';
}

const hasLeadingZero = (octets: readonly string[]): boolean => octets.some((o) => o.length > 1 && o.startsWith('0'));
/** ipv6Groups expands a valid IPv6 text into its eight 16-bit groups (an embedded IPv4 tail becomes two). */
function ipv6Groups(value: string): number[] {
  let text = value;
  const tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, tail.index)}${(a * 256 + b).toString(16)}:${(c * 256 + d).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const parse = (part: string): number[] => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const front = parse(head);
  const back = rest === undefined ? [] : parse(rest);
  return [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}

/** isIPv4Mapped is netip.Addr.Is4In6 of an IPv6 text: ::ffff:a.b.c.d in any spelling. */
function isIPv4Mapped(value: string): boolean {
  const groups = ipv6Groups(value);
  return groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
}

/** ipProblems is parseIP with strict validation: not an IP, or leading zeros, or an IPv4-mapped IPv6 address. */
function ipProblems(value: string): string[] {
  const family = ipFamilyOf(value);
  if (family === '') return ['must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'];
  if (family === 'IPv4') return hasLeadingZero(value.split('.')) ? ['must not have leading 0s'] : [];
  return isIPv4Mapped(value) ? ['must not be an IPv4-mapped IPv6 address'] : [];
}

/** isValidIPForLegacyField is IsValidIPForLegacyField with StrictIPCIDRValidation on (Beta, on by default in 1.36). */
export function isValidIPForLegacyField(path: string, value: string): FieldError[] {
  return ipProblems(value).map((msg) => invalidValue(path, value, msg));
}

/**
 * isValidCIDRForLegacyField is IsValidCIDRForLegacyField (strict): a CIDR netutils.ParseCIDRSloppy reads, without
 * leading zeros, an IPv4-mapped address or bits set past the prefix. The last check is made for IPv4 only.
 */
export function isValidCIDRForLegacyField(path: string, value: string): FieldError[] {
  const slash = value.indexOf('/');
  const ip = slash < 0 ? '' : value.slice(0, slash);
  const prefix = slash < 0 ? '' : value.slice(slash + 1);
  const family = ipFamilyOf(ip);
  const bits = /^\d+$/.test(prefix) ? Number(prefix) : NaN;
  if (family === '' || !(bits <= (family === 'IPv4' ? 32 : 128))) {
    return [invalidValue(path, value, 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)')];
  }
  if ((family === 'IPv4' && hasLeadingZero(ip.split('.'))) || (prefix.length > 1 && prefix.startsWith('0'))) {
    return [invalidValue(path, value, 'must not have leading 0s in IP or prefix length')];
  }
  if (family === 'IPv6') return isIPv4Mapped(ip) ? [invalidValue(path, value, 'must not have an IPv4-mapped IPv6 address')] : [];
  const n = ip.split('.').reduce((acc, o) => acc * 256 + Number(o), 0);
  const hostBits = n % 2 ** (32 - bits);
  return hostBits !== 0 ? [invalidValue(path, value, 'must not have bits set beyond the prefix length')] : [];
}

/**
 * validateEndpointIP is ValidateEndpointIP: a parsable address, not unspecified, loopback or link-local. Go's net.IP
 * reads an IPv4-mapped IPv6 address as the IPv4 one (To4), and ff02::/10 as any ffX2 multicast (ip[1]&0x0f == 0x02).
 */
export function validateEndpointIP(value: string, path: string): FieldError[] {
  const family = ipFamilyOf(value);
  if (family === '') return [invalidValue(path, value, 'must be a valid IP address')];
  const errs: FieldError[] = [];
  const v6 = family === 'IPv6' ? ipv6Groups(value) : [];
  const mapped = family === 'IPv6' && isIPv4Mapped(value);
  const v4 = family === 'IPv4' ? value.split('.').map(Number)
    : mapped ? [v6[6]! >> 8, v6[6]! & 255, v6[7]! >> 8, v6[7]! & 255] : undefined;
  if (v4 ? v4.every((o) => o === 0) : v6.every((g) => g === 0)) errs.push(invalidValue(path, value, `may not be unspecified (${value})`));
  if (v4 ? v4[0] === 127 : v6.slice(0, 7).every((g) => g === 0) && v6[7] === 1) {
    errs.push(invalidValue(path, value, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'));
  }
  if (v4 ? v4[0] === 169 && v4[1] === 254 : ((v6[0] ?? 0) & 0xffc0) === 0xfe80) {
    errs.push(invalidValue(path, value, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'));
  }
  if (v4 ? v4[0] === 224 && v4[1] === 0 && v4[2] === 0 : ((v6[0] ?? 0) & 0xff0f) === 0xff02) {
    errs.push(invalidValue(path, value, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'));
  }
  return errs;
}

/**
 * isValidIP is apimachinery's IsValidIP, the rule of new IP fields: the strict parse (no leading zeros, no
 * IPv4-mapped IPv6), then the canonical form net.IP.String() writes (`must be in canonical form ("2001:db8::1")`).
 */
export function isValidIP(path: string, value: string): FieldError[] {
  const errs = isValidIPForLegacyField(path, value);
  if (errs.length) return errs;
  const canonical = ipFamilyOf(value) === 'IPv6' ? formatIPv6(ipv6Groups(value)) : value;
  return canonical === value ? [] : [invalidValue(path, value, `must be in canonical form (${goQuote(canonical)})`)];
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : String(x))) : []);

/** isHeadlessService is isHeadlessService: clusterIPs is exactly ["None"]. */
export function isHeadlessService(spec: Rec): boolean {
  const ips = strings(spec['clusterIPs']);
  return ips.length === 1 && ips[0] === 'None';
}

/**
 * validateServiceClusterIPsRelatedFields is ValidateServiceClusterIPsRelatedFields on create: clusterIP and
 * clusterIPs in step, ipFamilies and ipFamilyPolicy values, each cluster IP valid ('None' first and alone), at most
 * two, one per family, and each matching its ipFamilies entry. Nothing for an ExternalName Service.
 */
export function validateServiceClusterIPsRelatedFields(spec: Rec): FieldError[] {
  if (spec['type'] === 'ExternalName') return [];
  const errs: FieldError[] = [];
  const clusterIP = typeof spec['clusterIP'] === 'string' ? spec['clusterIP'] : '';
  const clusterIPs = strings(spec['clusterIPs']);
  const ipFamilies = strings(spec['ipFamilies']);
  const ipsShown = asJSON(clusterIPs);
  if (clusterIP !== '') {
    if (clusterIPs.length === 0) errs.push(required('spec.clusterIPs'));
    else if (clusterIPs[0] !== clusterIP) errs.push(invalidValue('spec.clusterIPs', ipsShown, 'first value must match `clusterIP`'));
  } else if (clusterIPs.length !== 0) {
    errs.push(invalidValue('spec.clusterIPs', ipsShown, 'must be empty when `clusterIP` is not specified'));
  }
  const seen = new Set<string>();
  ipFamilies.forEach((family, i) => {
    // A named type (core.IPFamily): printed as JSON.
    if (!SUPPORTED_IP_FAMILIES.includes(family)) errs.push(notSupported(index('spec.ipFamilies', i), asJSON(family), SUPPORTED_IP_FAMILIES));
    if (seen.has(family)) errs.push(duplicate(index('spec.ipFamilies', i), asJSON(family)));
    seen.add(family);
  });
  const policy = spec['ipFamilyPolicy'];
  if (policy !== undefined && policy !== null && !SUPPORTED_IP_FAMILY_POLICIES.includes(String(policy))) {
    errs.push(notSupported('spec.ipFamilyPolicy', asJSON(policy), SUPPORTED_IP_FAMILY_POLICIES));
  }
  let hasInvalidIPs = false;
  clusterIPs.forEach((ip, i) => {
    if (i === 0 && ip === 'None') {
      if (clusterIPs.length > 1) {
        hasInvalidIPs = true;
        errs.push(invalidValue('spec.clusterIPs', ipsShown, "'None' must be the first and only value"));
      }
      return;
    }
    const ipErrs = isValidIPForLegacyField(index('spec.clusterIPs', i), ip);
    hasInvalidIPs = hasInvalidIPs || ipErrs.length > 0;
    errs.push(...ipErrs);
  });
  if (clusterIPs.length > 2) errs.push(invalidValue('spec.clusterIPs', ipsShown, 'may only hold up to 2 values'));
  if (hasInvalidIPs) return errs;
  if (clusterIPs.length > 1) {
    // netutils.IsDualStackIPStrings: one address of each family.
    const families = new Set(clusterIPs.map(ipFamilyOf));
    if (!(families.has('IPv4') && families.has('IPv6'))) errs.push(invalidValue('spec.clusterIPs', ipsShown, 'may specify no more than one IP for each IP family'));
  }
  if (!isHeadlessService(spec) && clusterIPs.length > 0 && ipFamilies.length > 0) {
    clusterIPs.forEach((ip, i) => {
      if (i > ipFamilies.length - 1) return;
      const v6 = ipFamilyOf(ip) === 'IPv6';
      if (ipFamilies[i] === 'IPv4' && v6) errs.push(invalidValue(index('spec.clusterIPs', i), ip, `expected an IPv4 value as indicated by \`ipFamilies[${i}]\``));
      if (ipFamilies[i] === 'IPv6' && !v6) errs.push(invalidValue(index('spec.clusterIPs', i), ip, `expected an IPv6 value as indicated by \`ipFamilies[${i}]\``));
    });
  }
  return errs;
}

/** specOf is a Service's spec as a record (an empty one when missing). */
export function specOf(service: Rec): Rec {
  return isObject(service['spec']) ? service['spec'] : {};
}
