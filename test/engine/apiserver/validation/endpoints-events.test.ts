// Tests the create and update validation of Endpoints, EndpointSlices, core/v1 Events and ControllerRevisions against
// the API server's field paths and messages: pkg/apis/core/validation/validation.go (ValidateEndpointsCreate),
// pkg/apis/discovery/validation/validation.go, pkg/apis/core/validation/events.go and pkg/apis/apps/validation/
// validation.go (k8s.io/kubernetes v1.36.3), each after the scheme defaulting the create handler runs first; and the
// strategies' defaults, PrepareForCreate and warnings around them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/engine/api/types';
import { applyDefaults } from '../../../../src/engine/apiserver/defaulting';
import { prepareWith } from '../../../../src/engine/apiserver/registry';
import { prepareForUpdate } from '../../../../src/engine/apiserver/update';
import type { FieldError } from '../../../../src/engine/apiserver/validation/field-errors';
import { validateObject } from '../../../../src/engine/apiserver/validation';
import { validateUpdate, withoutUnchangedErrors } from '../../../../src/engine/apiserver/validation/update';
import { warningsOnCreate } from '../../../../src/engine/apiserver/warnings';
import { KEY_NAME_ERROR, LABEL_ERROR, SUBDOMAIN_ERROR } from './builders';

const printed = (errs: FieldError[]): string[] => errs.map((e) => `${e.field}: ${e.body}`);
/** validated runs what the create handler runs: scheme defaulting, then the strategy's Validate. */
const validated = (obj: KubeObject): string[] => printed(validateObject(applyDefaults(obj).object));

const endpoints = (subsets: unknown[]): KubeObject => ({ apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'db', namespace: 'default' }, subsets });
const slice = (extra: Record<string, unknown>, labels?: Record<string, string>): KubeObject =>
  ({ apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 'db-1', namespace: 'default', ...(labels ? { labels } : {}) }, ...extra });
const ipv4 = (endpointsList: unknown[], extra: Record<string, unknown> = {}): KubeObject => slice({ addressType: 'IPv4', endpoints: endpointsList, ...extra });
const event = (extra: Record<string, unknown>, namespace = 'default'): KubeObject =>
  ({ apiVersion: 'v1', kind: 'Event', metadata: { name: 'web.1', namespace }, involvedObject: { kind: 'Pod', name: 'web', namespace }, ...extra });
const revision = (extra: Record<string, unknown>): KubeObject => ({ apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: 'web-1', namespace: 'default' }, ...extra });
/** NEW_EVENT is what an event with eventTime needs besides it. */
const NEW_EVENT = { eventTime: '2026-01-02T03:04:05.000000Z', reportingComponent: 'kubelet', reportingInstance: 'worker-1', action: 'Pull', reason: 'Pulled' };
const many = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));

const cases: { name: string; obj: KubeObject; want: string[] }[] = [
  // ValidateEndpoints: validateEndpointSubsets, validateEndpointAddress, ValidateEndpointIP, validateEndpointPort.
  { name: 'accepts Endpoints whose single port has no name (its protocol defaults to TCP)', obj: endpoints([{ addresses: [{ ip: '10.0.0.7' }], ports: [{ port: 5432 }] }]), want: [] },
  { name: 'accepts a subset of not-ready addresses without ports', obj: endpoints([{ notReadyAddresses: [{ ip: '2001:db8::7', hostname: 'db-1', nodeName: 'worker-1' }] }]), want: [] },
  { name: 'refuses a subset without any address', obj: endpoints([{ ports: [{ port: 80 }] }]), want: ['subsets[0]: Required value: must specify `addresses` or `notReadyAddresses`'] },
  {
    name: 'gives an address that is no IP both the legacy IP message and ValidateEndpointIP\'s',
    obj: endpoints([{ addresses: [{ ip: 'db.local' }] }]),
    want: [
      'subsets[0].addresses[0].ip: Invalid value: "db.local": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
      'subsets[0].addresses[0].ip: Invalid value: "db.local": must be a valid IP address',
    ],
  },
  {
    name: 'checks the address IP strictly, then hostname and nodeName, then the endpoint IP ranges',
    obj: endpoints([{ addresses: [{ ip: '127.000.0.1', hostname: 'Db', nodeName: 'Worker_1' }] }]),
    want: [
      'subsets[0].addresses[0].ip: Invalid value: "127.000.0.1": must not have leading 0s',
      `subsets[0].addresses[0].hostname: Invalid value: "Db": ${LABEL_ERROR}`,
      `subsets[0].addresses[0].nodeName: Invalid value: "Worker_1": ${SUBDOMAIN_ERROR}`,
      'subsets[0].addresses[0].ip: Invalid value: "127.000.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
    ],
  },
  {
    name: 'reads an IPv4-mapped address as IPv4 and any ffX2:: address as link-local multicast, as net.IP does',
    obj: endpoints([{ notReadyAddresses: [{ ip: '::ffff:0.0.0.0' }, { ip: 'ff12::1' }, { ip: '224.0.0.5' }] }]),
    want: [
      'subsets[0].notReadyAddresses[0].ip: Invalid value: "::ffff:0.0.0.0": must not be an IPv4-mapped IPv6 address',
      'subsets[0].notReadyAddresses[0].ip: Invalid value: "::ffff:0.0.0.0": may not be unspecified (::ffff:0.0.0.0)',
      'subsets[0].notReadyAddresses[1].ip: Invalid value: "ff12::1": may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)',
      'subsets[0].notReadyAddresses[2].ip: Invalid value: "224.0.0.5": may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)',
    ],
  },
  {
    name: 'requires port names when a subset has several, but not unique ones; checks port, protocol and appProtocol',
    obj: endpoints([{ addresses: [{ ip: '10.0.0.7' }], ports: [{ port: 80, name: 'web' }, { port: 70000, name: 'web', protocol: 'HTTP' }, { port: 81, appProtocol: 'a/b/c' }] }]),
    want: [
      'subsets[0].ports[1].port: Invalid value: 70000: must be between 1 and 65535, inclusive',
      'subsets[0].ports[1].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"',
      'subsets[0].ports[2].name: Required value',
      "subsets[0].ports[2].appProtocol: Invalid value: \"a/b/c\": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ],
  },
  { name: 'refuses an Endpoints name that is no DNS subdomain', obj: { ...endpoints([]), metadata: { name: 'Db', namespace: 'default' } }, want: [`metadata.name: Invalid value: "Db": ${SUBDOMAIN_ERROR}`] },
  // ValidateEndpointSlice: validateAddressType, validatePorts, validateEndpoints, validateHints.
  {
    name: 'accepts an IPv4 slice with conditions, zone and hints, its port defaulted',
    obj: ipv4([{ addresses: ['10.0.0.7'], conditions: { ready: true }, hostname: 'db-1', nodeName: 'worker-1', zone: 'Not A Label!', hints: { forZones: [{ name: 'a' }], forNodes: [{ name: 'worker-1' }] } }], { ports: [{ port: 5432 }] }),
    want: [],
  },
  { name: 'requires the addressType', obj: slice({ endpoints: [] }), want: ['addressType: Required value'] },
  {
    name: 'refuses an unknown addressType and leaves its addresses unchecked',
    obj: slice({ addressType: 'IPv5', endpoints: [{ addresses: ['anything'] }] }),
    want: ['addressType: Unsupported value: "IPv5": supported values: "FQDN", "IPv4", "IPv6"'],
  },
  {
    name: 'checks IPv4 addresses: the legacy parse, the family (at the list\'s path), then the endpoint IP ranges',
    obj: ipv4([{ addresses: ['2001:db8::1', '0.0.0.0', '10.0.0.08', 'db'] }]),
    want: [
      'endpoints[0].addresses: Invalid value: "2001:db8::1": must be an IPv4 address',
      'endpoints[0].addresses[1]: Invalid value: "0.0.0.0": may not be unspecified (0.0.0.0)',
      'endpoints[0].addresses[2]: Invalid value: "10.0.0.08": must not have leading 0s',
      'endpoints[0].addresses[3]: Invalid value: "db": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    ],
  },
  {
    name: 'checks IPv6 addresses with IsValidIP: canonical form, then the family and the endpoint IP ranges',
    obj: slice({ addressType: 'IPv6', endpoints: [{ addresses: ['2001:DB8:0:0::1', '10.1.2.3', '::1', '::ffff:10.1.2.3'] }] }),
    want: [
      'endpoints[0].addresses[0]: Invalid value: "2001:DB8:0:0::1": must be in canonical form ("2001:db8::1")',
      'endpoints[0].addresses: Invalid value: "10.1.2.3": must be an IPv6 address',
      'endpoints[0].addresses[2]: Invalid value: "::1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
      'endpoints[0].addresses[3]: Invalid value: "::ffff:10.1.2.3": must not be an IPv4-mapped IPv6 address',
    ],
  },
  {
    name: 'checks FQDN addresses with IsFullyQualifiedDomainName',
    obj: slice({ addressType: 'FQDN', endpoints: [{ addresses: ['db.example.com.', 'db', 'DB.example.com', '', `db.${'a'.repeat(64)}.com`] }] }),
    want: [
      'endpoints[0].addresses[1]: Invalid value: "db": should be a domain with at least two segments separated by dots',
      `endpoints[0].addresses[2]: Invalid value: "DB.example.com": ${SUBDOMAIN_ERROR}`,
      'endpoints[0].addresses[3]: Required value',
      `endpoints[0].addresses[4]: Invalid value: "${'a'.repeat(64)}": must be no more than 63 characters`,
    ],
  },
  {
    name: 'requires an address per endpoint and allows at most 100, each still checked',
    obj: ipv4([{ addresses: [] }, { addresses: [...many(100, (i) => `10.0.0.${i + 1}`), '127.0.0.1'] }]),
    want: [
      'endpoints[0].addresses: Required value: must contain at least 1 address',
      'endpoints[1].addresses: Too many: 101: must have at most 100 items',
      'endpoints[1].addresses[100]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
    ],
  },
  { name: 'allows at most 1000 endpoints, and then checks none of them', obj: ipv4(many(1001, () => ({ addresses: [] }))), want: ['endpoints: Too many: 1001: must have at most 1000 items'] },
  {
    name: 'checks nodeName as a DNS subdomain and hostname as a DNS label',
    obj: ipv4([{ addresses: ['10.0.0.7'], nodeName: 'Worker_1', hostname: 'db.1' }]),
    want: [`endpoints[0].nodeName: Invalid value: "Worker_1": ${SUBDOMAIN_ERROR}`, 'endpoints[0].hostname: Invalid value: "db.1": must not contain dots'],
  },
  {
    name: 'refuses repeated or bad zone hints and node hints',
    obj: ipv4([{ addresses: ['10.0.0.7'], hints: { forZones: [{ name: 'a' }, { name: 'a' }, { name: 'b c' }], forNodes: [{ name: 'w1' }, { name: 'w1' }, { name: 'W2' }] } }]),
    want: [
      'endpoints[0].hints.forZones[1].name: Duplicate value: "a"',
      "endpoints[0].hints.forZones[2].name: Invalid value: \"b c\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
      'endpoints[0].hints.forNodes[1].name: Duplicate value: "w1"',
      `endpoints[0].hints.forNodes[2].name: Invalid value: "W2": ${SUBDOMAIN_ERROR}`,
    ],
  },
  {
    name: 'allows at most 8 zone hints (nothing else of the hints is checked then) and 8 node hints',
    obj: ipv4([
      { addresses: ['10.0.0.7'], hints: { forZones: many(9, (i) => ({ name: `z${i}` })), forNodes: [{ name: 'W' }] } },
      { addresses: ['10.0.0.8'], hints: { forZones: [{ name: 'z' }, { name: 'z' }], forNodes: many(9, (i) => ({ name: `w${i}` })) } },
    ]),
    want: ['endpoints[0].hints.forZones: Too many: 9: must have at most 8 items', 'endpoints[1].hints.forZones[1].name: Duplicate value: "z"', 'endpoints[1].hints.forNodes: Too many: 9: must have at most 8 items'],
  },
  {
    name: 'checks port names (unique, the empty default included), protocols and appProtocols; not port numbers',
    obj: ipv4([], { ports: [{ port: 0 }, { port: 1 }, { name: 'Web', protocol: 'HTTP', appProtocol: '-x-' }] }),
    want: [
      'ports[1].name: Duplicate value: ""',
      `ports[2].name: Invalid value: "Web": ${LABEL_ERROR}`,
      'ports[2].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"',
      `ports[2].appProtocol: Invalid value: "-x-": ${KEY_NAME_ERROR}`,
    ],
  },
  // legacyValidateEvent at core/v1, then ValidateObjectMetaAccessor with path segment names.
  { name: 'accepts an old Event about a pod of its namespace, whatever its type', obj: event({ type: 'Unusual', reason: 'Started' }), want: [] },
  { name: 'accepts an old Event in default about an object of no namespace', obj: event({ involvedObject: { kind: 'Node', name: 'w1' } }), want: [] },
  {
    name: 'refuses an old Event about an object of another namespace',
    obj: event({ involvedObject: { kind: 'Pod', name: 'web', namespace: 'other' } }, 'team-a'),
    want: ['involvedObject.namespace: Invalid value: "other": does not match event.namespace'],
  },
  {
    name: 'refuses an old Event outside default about an object of no namespace',
    obj: event({ involvedObject: { kind: 'Node', name: 'w1' } }, 'team-a'),
    want: ['involvedObject.namespace: Invalid value: "": does not match event.namespace'],
  },
  { name: 'accepts a new Event about a node in kube-system', obj: event({ ...NEW_EVENT, involvedObject: { kind: 'Node', name: 'w1' } }, 'kube-system'), want: [] },
  {
    name: 'refuses a new Event without reportingComponent, reportingInstance, action and reason (the v1 field names)',
    obj: event({ eventTime: '2026-01-02T03:04:05Z' }),
    want: [
      'reportingComponent: Required value',
      'reportingComponent: Invalid value: "": name part must be non-empty',
      `reportingComponent: Invalid value: "": ${KEY_NAME_ERROR}`,
      'reportingInstance: Required value',
      'action: Required value',
      'reason: Required value',
    ],
  },
  {
    name: 'refuses a new Event whose fields pass their byte limits, the value shown empty',
    obj: event({ ...NEW_EVENT, reportingInstance: 'i'.repeat(129), action: 'a'.repeat(129), reason: 'é'.repeat(65), message: 'm'.repeat(1025) }),
    want: [
      'reportingInstance: Invalid value: "": can have at most 128 characters',
      'action: Invalid value: "": can have at most 128 characters',
      'reason: Invalid value: "": can have at most 128 characters',
      'message: Invalid value: "": can have at most 1024 characters',
    ],
  },
  { name: 'reads an eventTime of the zero time as none', obj: event({ eventTime: '0001-01-01T00:00:00Z' }), want: [] },
  {
    name: 'checks the metadata only once the legacy rules pass, with the generic path segment rule',
    obj: { ...event({}), metadata: { name: 'Web_1.Started', namespace: 'default', labels: { 'a/b/c': 'x' } } },
    want: ["metadata.labels: Invalid value: \"a/b/c\": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"],
  },
  // ValidateControllerRevisionCreate.
  { name: 'accepts a ControllerRevision with an object as data', obj: revision({ revision: 3, data: {} }), want: [] },
  { name: 'refuses a negative revision and missing data', obj: revision({ revision: -1 }), want: ['revision: Invalid value: -1: must be greater than or equal to 0', 'data: Required value: data is mandatory'] },
  { name: 'refuses null data as missing', obj: revision({ data: null }), want: ['data: Required value: data is mandatory'] },
  { name: 'refuses data that is no JSON object', obj: revision({ data: 'spec' }), want: ['data: Required value: data must be a valid JSON object'] },
];

for (const c of cases) {
  test(`Endpoints, EndpointSlice, Event and ControllerRevision validation: ${c.name}`, () => {
    assert.deepEqual(validated(c.obj), c.want);
  });
}

const updates: { name: string; next: KubeObject; old: KubeObject; want: string[] }[] = [
  {
    name: 'an EndpointSlice may not change its addressType',
    next: slice({ addressType: 'IPv6' }), old: slice({ addressType: 'IPv4' }),
    want: ['addressType: Invalid value: "IPv6": field is immutable'], // ValidateImmutableField(new.AddressType, old.AddressType, ...)
  },
  { name: 'an EndpointSlice may change its endpoints', next: ipv4([{ addresses: ['10.0.0.8'] }]), old: ipv4([{ addresses: ['10.0.0.7'] }]), want: [] },
  {
    name: 'a ControllerRevision may not change its data, shown as the raw JSON',
    next: revision({ revision: 2, data: { spec: { replicas: 2 } } }), old: revision({ revision: 1, data: { spec: { replicas: 1 } } }),
    want: ['data: Invalid value: {"spec":{"replicas":2}}: field is immutable'],
  },
  { name: 'Endpoints and Events have no update-only rule', next: endpoints([{ addresses: [{ ip: '10.0.0.8' }] }]), old: endpoints([]), want: [] },
];

for (const c of updates) {
  test(`Endpoints, EndpointSlice, Event and ControllerRevision update validation: ${c.name}`, () => {
    assert.deepEqual(printed(validateUpdate(c.next, c.old)), c.want);
  });
}

const lenient: { name: string; next: KubeObject; old: KubeObject; want: string[] }[] = [
  {
    name: 'Endpoints whose invalid subsets are unchanged are let through, their metadata still checked',
    next: { ...endpoints([{ addresses: [{ ip: '010.0.0.7' }] }]), metadata: { name: 'db', namespace: 'default', labels: { 'a b': 'x' } } },
    old: endpoints([{ addresses: [{ ip: '010.0.0.7' }] }]),
    want: ["metadata.labels: Invalid value: \"a b\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"],
  },
  {
    name: 'Endpoints whose subsets changed are checked in full',
    next: endpoints([{ addresses: [{ ip: '010.0.0.7' }, { ip: '10.0.0.8' }] }]), old: endpoints([{ addresses: [{ ip: '010.0.0.7' }] }]),
    want: ['subsets[0].addresses[0].ip: Invalid value: "010.0.0.7": must not have leading 0s'],
  },
  {
    name: 'an EndpointSlice whose endpoints are unchanged keeps only its other errors',
    next: slice({ addressType: 'IPv6', endpoints: [{ addresses: ['10.0.0.7'] }] }), old: ipv4([{ addresses: ['10.0.0.7'] }]),
    want: ['addressType: Invalid value: "IPv6": field is immutable'],
  },
];

for (const c of lenient) {
  test(`update validation forgives unchanged data: ${c.name}`, () => {
    const errs = [...validateObject(c.next), ...validateUpdate(c.next, c.old)];
    assert.deepEqual(printed(withoutUnchangedErrors(errs, c.next, c.old)), c.want);
  });
}

test('discovery/v1 defaulting gives each EndpointSlice port the name "" and the protocol TCP', () => {
  const defaulted = applyDefaults(ipv4([], { ports: [{ port: 80 }, { name: 'dns', port: 53, protocol: 'UDP' }] }));
  assert.deepEqual(defaulted.object['ports'], [{ port: 80, name: '', protocol: 'TCP' }, { name: 'dns', port: 53, protocol: 'UDP' }]);
  assert.deepEqual(defaulted.changes, ['ports[0].name', 'ports[0].protocol']);
});

test('an EndpointSlice starts at generation 1 and loses deprecatedTopology when created at v1', () => {
  const prepared = prepareWith(ipv4([{ addresses: ['10.0.0.7'], deprecatedTopology: { 'kubernetes.io/hostname': 'worker-1' } }]), undefined, { uid: 'u', creationTimestamp: 't' });
  assert.equal(prepared.metadata?.generation, 1);
  assert.deepEqual(prepared['endpoints'], [{ addresses: ['10.0.0.7'] }]);
});

/** stored is a slice as the store holds it: generation 1, the given endpoints as they were written. */
const stored = (endpoints: unknown[]): KubeObject => ({ ...ipv4(endpoints as never), metadata: { name: 'db-1', namespace: 'default', uid: 'u', generation: 1 } });
const hostname = (node: string) => ({ 'kubernetes.io/hostname': node });

// dropTopologyOnV1 on update (pkg/registry/discovery/endpointslice/strategy.go, v1.36.3): the generation is decided
// with what was sent, then the field goes, a node name the stored slice had moving to nodeName.
const topologyUpdates: { name: string; old: unknown[]; next: unknown[]; want: unknown[]; generation: number }[] = [
  {
    name: 'changed endpoints lose deprecatedTopology',
    old: [{ addresses: ['10.0.0.7'] }], next: [{ addresses: ['10.0.0.8'], deprecatedTopology: hostname('worker-1') }],
    want: [{ addresses: ['10.0.0.8'] }], generation: 2,
  },
  {
    name: 'a hostname the stored slice had becomes the nodeName of an endpoint without one',
    old: [{ addresses: ['10.0.0.7'], deprecatedTopology: hostname('worker-1') }], next: [{ addresses: ['10.0.0.8'], deprecatedTopology: hostname('worker-1') }],
    want: [{ addresses: ['10.0.0.8'], nodeName: 'worker-1' }], generation: 2,
  },
  {
    name: 'an endpoint with a nodeName keeps its own',
    old: [{ addresses: ['10.0.0.7'], deprecatedTopology: hostname('worker-1') }], next: [{ addresses: ['10.0.0.8'], nodeName: 'worker-2', deprecatedTopology: hostname('worker-1') }],
    want: [{ addresses: ['10.0.0.8'], nodeName: 'worker-2' }], generation: 2,
  },
  {
    name: 'a hostname that is no valid node name is not carried',
    old: [{ addresses: ['10.0.0.7'], deprecatedTopology: hostname('Worker_1') }], next: [{ addresses: ['10.0.0.8'], deprecatedTopology: hostname('Worker_1') }],
    want: [{ addresses: ['10.0.0.8'] }], generation: 2,
  },
  {
    name: 'unchanged endpoints keep what they had (empty conditions and addresses count as none)',
    old: [{ addresses: ['10.0.0.7'], deprecatedTopology: hostname('worker-1') }], next: [{ addresses: ['10.0.0.7'], conditions: {}, deprecatedTopology: hostname('worker-1') }],
    want: [{ addresses: ['10.0.0.7'], conditions: {}, deprecatedTopology: hostname('worker-1') }], generation: 1,
  },
];

for (const c of topologyUpdates) {
  test(`EndpointSlice update at v1: ${c.name}`, () => {
    const next = { ...stored(c.next), metadata: { name: 'db-1', namespace: 'default' } };
    const prepared = prepareForUpdate(next, stored(c.old));
    assert.deepEqual(prepared['endpoints'], c.want);
    assert.equal(prepared.metadata?.generation, c.generation);
  });
}

const warningCases: { name: string; obj: KubeObject; want: string[] }[] = [
  {
    name: 'Endpoints warn of IPv6 addresses not in canonical form, ready or not',
    obj: endpoints([{ addresses: [{ ip: '10.0.0.7' }, { ip: '2001:DB8::7' }], notReadyAddresses: [{ ip: '2001:db8:0::8' }] }]),
    want: [
      'subsets[0].addresses[1].ip: IPv6 address "2001:DB8::7" should be in RFC 5952 canonical format ("2001:db8::7")',
      'subsets[0].notReadyAddresses[0].ip: IPv6 address "2001:db8:0::8" should be in RFC 5952 canonical format ("2001:db8::8")',
    ],
  },
  {
    name: 'the endpoints controller\'s own Endpoints get no warning',
    obj: { ...endpoints([{ addresses: [{ ip: '2001:DB8::7' }] }]), metadata: { name: 'db', namespace: 'default', labels: { 'endpoints.kubernetes.io/managed-by': 'endpoint-controller' } } },
    want: [],
  },
  { name: 'an FQDN EndpointSlice is deprecated', obj: slice({ addressType: 'FQDN', endpoints: [{ addresses: ['db.example.com'] }] }), want: ['spec.addressType: FQDN endpoints are deprecated'] },
];

for (const c of warningCases) {
  test(`WarningsOnCreate: ${c.name}`, () => {
    assert.deepEqual(warningsOnCreate(c.obj), c.want);
  });
}
