// The CLI as a process on hand-written Endpoints, EndpointSlices, core/v1 Events and ControllerRevisions: the
// registries' validation (pkg/apis/core/validation, pkg/apis/discovery/validation, pkg/apis/apps/validation, v1.36.3),
// the strategies' warnings and the deprecated v1 Endpoints API's. Every expected status and kubectl line is what
// kube-apiserver v1.36.3 and kubectl answered to the same fixture (the reference cluster).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runJson } from './harness';

const FIXTURES = 'test/fixtures/validation';

const run = (...args: string[]) => runJson('run', ...args);

const LABEL = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const SUBDOMAIN = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const NAME_PART = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const DEPRECATED = 'Warning: v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice';

const cases: { file: string; kind: string; groupKind: string; name: string; errors: string[]; before?: string[] }[] = [
  {
    file: 'net-endpoints-bad-address.yaml', kind: 'Endpoints', groupKind: 'Endpoints', name: 'legacy-db', before: [DEPRECATED],
    errors: [
      'subsets[0]: Required value: must specify `addresses` or `notReadyAddresses`',
      'subsets[1].addresses[0].ip: Invalid value: "10.0.0.07": must not have leading 0s',
      `subsets[1].addresses[1].hostname: Invalid value: "Db_1": ${LABEL}`,
      `subsets[1].addresses[1].nodeName: Invalid value: "Worker_1": ${SUBDOMAIN}`,
      'subsets[1].addresses[1].ip: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
      'subsets[1].ports[0].name: Required value',
      'subsets[1].ports[1].name: Required value',
      'subsets[1].ports[1].port: Invalid value: 0: must be between 1 and 65535, inclusive',
      'subsets[1].ports[1].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"',
    ],
  },
  {
    file: 'net-endpointslice-no-address-type.yaml', kind: 'EndpointSlice', groupKind: 'EndpointSlice.discovery.k8s.io', name: 'legacy-db-1',
    errors: ['addressType: Required value', 'ports[1].name: Duplicate value: "db"', 'endpoints[0].addresses: Required value: must contain at least 1 address'],
  },
  {
    file: 'net-endpointslice-ipv6.yaml', kind: 'EndpointSlice', groupKind: 'EndpointSlice.discovery.k8s.io', name: 'legacy-db-1',
    errors: [
      'endpoints[0].addresses[0]: Invalid value: "2001:DB8::1": must be in canonical form ("2001:db8::1")',
      'endpoints[0].addresses: Invalid value: "10.1.2.3": must be an IPv6 address',
      'endpoints[0].addresses[2]: Invalid value: "fe80::1": may not be in the link-local range (169.254.0.0/16, fe80::/10)',
      'endpoints[0].addresses[3]: Invalid value: "::ffff:10.1.2.3": must not be an IPv4-mapped IPv6 address',
    ],
  },
  {
    file: 'net-event-namespace.yaml', kind: 'Event', groupKind: 'Event', name: 'web.1',
    errors: ['involvedObject.namespace: Invalid value: "other": does not match event.namespace'],
  },
  {
    file: 'net-event-series.yaml', kind: 'Event', groupKind: 'Event', name: 'web.2', before: ['namespace/team-a created'],
    errors: [
      'involvedObject.namespace: Invalid value: "": does not match event.namespace',
      'reportingComponent: Required value',
      'reportingComponent: Invalid value: "": name part must be non-empty',
      `reportingComponent: Invalid value: "": ${NAME_PART}`,
      'reportingInstance: Required value',
      'action: Required value',
      'reason: Invalid value: "": can have at most 128 characters',
    ],
  },
  {
    file: 'net-controllerrevision-bad.yaml', kind: 'ControllerRevision', groupKind: 'ControllerRevision.apps', name: 'web-7d4b9c',
    errors: ['revision: Invalid value: -1: must be greater than or equal to 0', 'data: Required value: data is mandatory'],
  },
  {
    file: 'net-controllerrevision-data-list.yaml', kind: 'ControllerRevision', groupKind: 'ControllerRevision.apps', name: 'web-7d4b9c',
    errors: ['data: Required value: data must be a valid JSON object'],
  },
];

for (const c of cases) {
  test(`refused as kube-apiserver refuses it: ${c.file}`, () => {
    const { status, report } = run(`${FIXTURES}/${c.file}`);
    assert.equal(status, 1);
    assert.equal(report.outcome, 'Rejected');
    // errors.NewInvalid: one cause is printed alone, several as a list; kubectl puts each on its own line.
    const one = c.errors.length === 1;
    const message = `${c.groupKind} "${c.name}" is invalid: ${one ? c.errors[0] : `[${c.errors.join(', ')}]`}`;
    assert.deepEqual(report.rejection, { ...report.rejection, code: 422, reason: 'Invalid', message });
    const printed = `The ${c.kind} "${c.name}" is invalid: ${one ? c.errors[0] : `\n* ${c.errors.join('\n* ')}`}`;
    assert.equal(report.kubectl, [...(c.before ?? []), printed].join('\n'));
  });
}

const accepted: { name: string; args: string[]; kubectl: string[] }[] = [
  {
    name: 'valid Endpoints are stored, with the deprecation warning and one for an IPv6 address not in canonical form',
    args: [`${FIXTURES}/net-endpoints-valid.yaml`],
    kubectl: [DEPRECATED, 'Warning: subsets[0].addresses[1].ip: IPv6 address "2001:DB8::7" should be in RFC 5952 canonical format ("2001:db8::7")', 'endpoints/legacy-db created'],
  },
  {
    name: 'valid EndpointSlices are stored, an FQDN one with its deprecation warning',
    args: [`${FIXTURES}/net-endpointslice-valid.yaml`],
    kubectl: ['Warning: spec.addressType: FQDN endpoints are deprecated', 'endpointslice.discovery.k8s.io/legacy-db-fqdn created', 'endpointslice.discovery.k8s.io/legacy-db-1 created'],
  },
  {
    name: 'an EndpointSlice applied again with another addressType is refused: the addressType is immutable',
    args: [`${FIXTURES}/net-endpointslice-valid.yaml`, '--then-apply', `1s,${FIXTURES}/net-endpointslice-ipv6-update.yaml`],
    kubectl: [
      'Warning: spec.addressType: FQDN endpoints are deprecated', 'endpointslice.discovery.k8s.io/legacy-db-fqdn created', 'endpointslice.discovery.k8s.io/legacy-db-1 created',
      'The EndpointSlice "legacy-db-1" is invalid: addressType: Invalid value: "IPv6": field is immutable',
    ],
  },
  { name: 'valid core/v1 Events, old and new, are stored', args: [`${FIXTURES}/net-event-valid.yaml`], kubectl: ['event/web.1 created', 'event/worker-1.1 created'] },
  { name: 'a valid ControllerRevision is stored', args: [`${FIXTURES}/net-controllerrevision-valid.yaml`], kubectl: ['controllerrevision.apps/web-7d4b9c created'] },
];

for (const c of accepted) {
  test(c.name, () => {
    const { report } = run(...c.args);
    assert.equal(report.rejection, undefined);
    assert.equal(report.kubectl, c.kubectl.join('\n'));
  });
}

/** storedObject runs a fixture and finds one of the objects stored at the end. */
function storedObject(file: string, kind: string, name: string): Record<string, unknown> {
  const found = run(`${FIXTURES}/${file}`).report.objects.find((o) => o['kind'] === kind && (o['metadata'] as { name: string }).name === name);
  assert.ok(found, `${kind} ${name} is stored`);
  return found;
}

test('a stored EndpointSlice is as kube-apiserver returns it: generation 1, ports defaulted, conditions always written', () => {
  assert.deepEqual(storedObject('net-endpointslice-valid.yaml', 'EndpointSlice', 'legacy-db-fqdn')['endpoints'], [{ addresses: ['db.example.com'], conditions: {} }]);
  const ipv4 = storedObject('net-endpointslice-valid.yaml', 'EndpointSlice', 'legacy-db-1');
  assert.deepEqual(ipv4['ports'], [{ port: 5432, name: '', protocol: 'TCP' }]);
  assert.equal((ipv4['metadata'] as { generation: number }).generation, 1);
});

test('a stored core/v1 Event has its always-written fields: source {}, the zero times null', () => {
  const event = storedObject('net-event-valid.yaml', 'Event', 'worker-1.1');
  assert.deepEqual([event['source'], event['firstTimestamp'], event['lastTimestamp']], [{}, null, null]);
  const old = storedObject('net-event-valid.yaml', 'Event', 'web.1');
  assert.deepEqual([old['eventTime'], old['reportingComponent'], old['reportingInstance']], [null, '', '']);
});

test('an EndpointSlice applied again with other endpoints is configured, its generation 2', () => {
  const { report } = run(`${FIXTURES}/net-endpointslice-valid.yaml`, '--then-apply', `1s,${FIXTURES}/net-endpointslice-new-address.yaml`);
  assert.match(report.kubectl, /\nendpointslice\.discovery\.k8s\.io\/legacy-db-1 configured$/);
  const updated = report.objects.find((o) => o['kind'] === 'EndpointSlice' && (o['metadata'] as { name: string }).name === 'legacy-db-1');
  assert.deepEqual([(updated?.['metadata'] as { generation?: number } | undefined)?.generation, (updated?.['endpoints'] as { addresses: string[] }[] | undefined)?.[0]?.addresses], [2, ['10.0.0.9']]);
});
