// The address checks of Service validation, by table: the legacy IP and CIDR fields with StrictIPCIDRValidation on
// (staging/src/k8s.io/apimachinery/pkg/util/validation/ip.go, v0.36.3), ValidateEndpointIP and
// ValidateServiceClusterIPsRelatedFields (pkg/apis/core/validation/validation.go, k8s.io/kubernetes v1.36.3).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FieldError } from '../../../../src/engine/apiserver/validation/field-errors';
import {
  isValidCIDRForLegacyField, isValidIPForLegacyField, validateEndpointIP, validateServiceClusterIPsRelatedFields,
} from '../../../../src/engine/apiserver/validation/service-ips';

const printed = (errs: FieldError[]): string[] => errs.map((e) => `${e.field}: ${e.body}`);
const NOT_IP = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';
const NOT_CIDR = 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)';

const ipCases = [
  { name: 'an IPv4 address passes', value: '10.96.0.10', want: [] },
  { name: 'an IPv6 address passes', value: 'fd00::10', want: [] },
  { name: 'an octet above 255 is no address', value: '10.96.300.1', want: [`x: Invalid value: "10.96.300.1": ${NOT_IP}`] },
  { name: 'leading zeros parse but strict validation refuses them', value: '10.096.0.1', want: ['x: Invalid value: "10.096.0.1": must not have leading 0s'] },
  { name: 'an IPv4-mapped IPv6 address is refused', value: '::ffff:10.0.0.1', want: ['x: Invalid value: "::ffff:10.0.0.1": must not be an IPv4-mapped IPv6 address'] },
  { name: 'a zone is no address', value: 'fe80::1%eth0', want: [`x: Invalid value: "fe80::1%eth0": ${NOT_IP}`] },
];
for (const c of ipCases) test(`IsValidIPForLegacyField: ${c.name}`, () => assert.deepEqual(printed(isValidIPForLegacyField('x', c.value)), c.want));

const cidrCases = [
  { name: 'a subnet passes', value: '10.0.0.0/8', want: [] },
  { name: 'an IPv6 subnet passes', value: '2001:db8::/64', want: [] },
  { name: 'a host address with a prefix has bits past it', value: '10.0.0.1/8', want: ['x: Invalid value: "10.0.0.1/8": must not have bits set beyond the prefix length'] },
  { name: 'a prefix above 32 is no CIDR', value: '10.0.0.0/33', want: [`x: Invalid value: "10.0.0.0/33": ${NOT_CIDR}`] },
  { name: 'an address alone is no CIDR', value: '10.0.0.0', want: [`x: Invalid value: "10.0.0.0": ${NOT_CIDR}`] },
  { name: 'a prefix with a leading zero is refused', value: '10.0.0.0/08', want: ['x: Invalid value: "10.0.0.0/08": must not have leading 0s in IP or prefix length'] },
];
for (const c of cidrCases) test(`IsValidCIDRForLegacyField: ${c.name}`, () => assert.deepEqual(printed(isValidCIDRForLegacyField('x', c.value)), c.want));

const endpointCases = [
  { name: 'a routable address passes', value: '203.0.113.7', want: [] },
  { name: 'the unspecified address is refused', value: '0.0.0.0', want: ['x: Invalid value: "0.0.0.0": may not be unspecified (0.0.0.0)'] },
  { name: 'IPv6 loopback is refused', value: '::1', want: ['x: Invalid value: "::1": may not be in the loopback range (127.0.0.0/8, ::1/128)'] },
  { name: 'a link-local address is refused', value: '169.254.1.1', want: ['x: Invalid value: "169.254.1.1": may not be in the link-local range (169.254.0.0/16, fe80::/10)'] },
  { name: 'a link-local multicast address is refused', value: 'ff02::1', want: ['x: Invalid value: "ff02::1": may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'] },
];
for (const c of endpointCases) test(`ValidateEndpointIP: ${c.name}`, () => assert.deepEqual(printed(validateEndpointIP(c.value, 'x')), c.want));

const relatedCases = [
  { name: 'clusterIP and clusterIPs in step pass', spec: { clusterIP: '10.96.0.10', clusterIPs: ['10.96.0.10'] }, want: [] },
  { name: 'clusterIPs must start with clusterIP', spec: { clusterIP: '10.96.0.10', clusterIPs: ['10.96.0.11'] }, want: ['spec.clusterIPs: Invalid value: ["10.96.0.11"]: first value must match `clusterIP`'] },
  { name: 'clusterIPs without clusterIP is refused', spec: { clusterIPs: ['10.96.0.11'] }, want: ['spec.clusterIPs: Invalid value: ["10.96.0.11"]: must be empty when `clusterIP` is not specified'] },
  { name: 'None must be alone', spec: { clusterIP: 'None', clusterIPs: ['None', '10.96.0.1'] }, want: ['spec.clusterIPs: Invalid value: ["None","10.96.0.1"]: \'None\' must be the first and only value'] },
  { name: 'two addresses of one family are refused', spec: { clusterIP: '10.96.0.1', clusterIPs: ['10.96.0.1', '10.96.0.2'] }, want: ['spec.clusterIPs: Invalid value: ["10.96.0.1","10.96.0.2"]: may specify no more than one IP for each IP family'] },
  { name: 'an address must match its family', spec: { clusterIP: 'fd00::1', clusterIPs: ['fd00::1'], ipFamilies: ['IPv4'] }, want: ['spec.clusterIPs[0]: Invalid value: "fd00::1": expected an IPv4 value as indicated by `ipFamilies[0]`'] },
  { name: 'a family twice is a duplicate', spec: { ipFamilies: ['IPv4', 'IPv4'] }, want: ['spec.ipFamilies[1]: Duplicate value: "IPv4"'] },
  { name: 'an ExternalName Service is not checked here', spec: { type: 'ExternalName', clusterIPs: ['x'] }, want: [] },
];
for (const c of relatedCases) {
  test(`ValidateServiceClusterIPsRelatedFields: ${c.name}`, () => assert.deepEqual(printed(validateServiceClusterIPsRelatedFields(c.spec)), c.want));
}
