// Name and value rules against staging/src/k8s.io/apimachinery/pkg/util/validation/validation_test.go and ip_test.go
// (TestIsDNS1123Label, TestIsValidPortName, TestIsRelaxedEnvVarName, TestIsConfigMapKey, TestIsValidIP).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  isConfigMapKey, isDNS1123Label, isDNS1123Subdomain, isRelaxedEnvVarName, isValidIP, isValidPortName, isValidPortNum,
  isValidUserID, nameIsDNSSubdomain,
} from '../../../../src/engine/apiserver/validation/names';
import { LABEL_ERROR, SUBDOMAIN_ERROR } from './builders';

const cases = [
  { name: 'A lowercase label is a DNS label', got: isDNS1123Label('my-name'), want: [] },
  { name: 'A dotted subdomain is not a label: it must not contain dots', got: isDNS1123Label('a.b'), want: ['must not contain dots'] },
  { name: 'An uppercase name gets the label regex message', got: isDNS1123Label('App'), want: [LABEL_ERROR] },
  { name: 'A 64-character label is too long', got: isDNS1123Label('a'.repeat(64)), want: ['must be no more than 63 characters'] },
  { name: 'A subdomain is measured in bytes', got: isDNS1123Subdomain('é'.repeat(127)), want: ['must be no more than 253 characters', SUBDOMAIN_ERROR] },
  { name: 'A generateName prefix masks its trailing dash (dropping two bytes)', got: nameIsDNSSubdomain('web-', true), want: [] },
  { name: 'A port name of 16 characters is too long', got: isValidPortName('abcdefghijklmnop'), want: ['must be no more than 15 characters'] },
  { name: 'A port name may not have consecutive or edge hyphens', got: isValidPortName('-a--b'), want: ['must not contain consecutive hyphens', 'must not begin or end with a hyphen'] },
  { name: 'Port 0 is out of range', got: isValidPortNum(0), want: ['must be between 1 and 65535, inclusive'] },
  { name: 'A user ID above int32 is out of range', got: isValidUserID(2147483648), want: ['must be between 0 and 2147483647, inclusive'] },
  { name: 'A relaxed env var name may hold spaces and dots', got: isRelaxedEnvVarName('MY VAR.x'), want: [] },
  { name: 'A relaxed env var name may not hold = or non-ASCII', got: isRelaxedEnvVarName('é='), want: ["a valid environment variable name must consist only of printable ASCII characters other than '='"] },
  { name: 'A config key may not start with ..', got: isConfigMapKey('..x'), want: ["must not start with '..'"] },
];

for (const c of cases) {
  test(c.name, () => {
    assert.deepEqual(c.got, c.want);
  });
}

const ipCases = [
  { name: 'An IPv4 address is an IP', value: '10.9.8.7', want: true },
  { name: 'ParseIPSloppy accepts leading zeros in IPv4', value: '010.009.008.007', want: true },
  { name: 'An IPv4 part above 255 is not an IP', value: '256.1.1.1', want: false },
  { name: 'An IPv6 address is an IP', value: '2001:db8::ffff', want: true },
  { name: 'A zoned IPv6 address is not an IP', value: 'fe80::1%eth0', want: false },
  { name: 'A host name is not an IP', value: 'dns.local', want: false },
];

for (const c of ipCases) {
  test(c.name, () => {
    assert.equal(isValidIP(c.value), c.want);
  });
}
