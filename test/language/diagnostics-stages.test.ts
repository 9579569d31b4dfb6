// Every problem of a document at once, each tagged with the stage that reports it (its code: decode, validation,
// admission, scheduling), in the order the API server meets them; and one refusal reported once. What the cluster
// would say is found by running the body as the API server would take it (unknown fields dropped), not only once the
// decoding and validation errors are fixed; a body that does not decode stops there, as the request would.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LanguageService } from '../../src/language/service';
import { DEFAULT_SETTINGS } from '../../src/language/settings';

/** pod builds a Pod manifest; `spec` lines are indented under spec, `meta` under metadata. */
function pod(spec: string[], meta: string[] = [], name = 'web'): string {
  return ['apiVersion: v1', 'kind: Pod', 'metadata:', `  name: ${name}`, ...meta.map((l) => `  ${l}`), 'spec:', ...spec.map((l) => `  ${l}`), ''].join('\n');
}

const PROBE = '    readinessProbe: {tcpSocket: {port: 80}}';

const cases: { name: string; text: string; want: [code: string, line: number, message: RegExp][] }[] = [
  {
    name: 'an unknown field and a request no node can meet are both reported, the decoding first',
    text: pod(['containers:', '  - name: app', '    imagee: x', '    image: nginx:1.27', '    resources: {requests: {cpu: 64}}', PROBE]),
    want: [
      ['decode', 7, /strict decoding error: unknown field "spec\.containers\[0\]\.imagee"$/],
      ['scheduling', 9, /^0\/3 nodes are available: 1 node\(s\) had untolerated taint\(s\), 2 Insufficient cpu\./],
    ],
  },
  {
    // The API server's mutating admission (ServiceAccount) comes before its validation in a create, but the code
    // names the stage, and validation is reported with the document's own checks.
    name: 'an invalid name and a ServiceAccount the namespace lacks are both reported',
    text: pod(['serviceAccountName: robot', 'containers:', '  - name: app', '    image: nginx:1.27', '    resources: {requests: {cpu: 100m}}', PROBE], [], 'Web'),
    want: [
      ['validation', 3, /^Pod "Web" is invalid: metadata\.name: Invalid value: "Web": a lowercase RFC 1123 subdomain/],
      ['admission', 3, /^pods "Web" is forbidden: error looking up service account default\/robot: serviceaccount "robot" not found\n\(the create would be refused at apiserver\.admit\.mutating\)$/],
    ],
  },
  {
    name: 'a request no node can meet is reported on its own line, where the debugger\'s exception stops',
    text: pod(['containers:', '  - name: app', '    image: nginx:1.27', '    resources:', '      requests:', '        cpu: "1000"', PROBE]),
    want: [['scheduling', 10, /^0\/3 nodes are available: 1 node\(s\) had untolerated taint\(s\), 2 Insufficient cpu\./]],
  },
  {
    name: 'the hints come after what the cluster would refuse',
    text: pod(['nodeSelector: {disk: ssd}', 'containers:', '  - name: app', '    image: nginx', '    resources: {requests: {cpu: 100m}}', PROBE]),
    want: [
      ['scheduling', 5, /^0\/3 nodes are available/],
      ['hint.latestTag', 8, /^Image "nginx" has no tag/],
    ],
  },
  {
    name: 'a body that does not decode (a string for an integer) stops there, as the request would',
    text: pod(['terminationGracePeriodSeconds: "30"', 'nodeSelector: {disk: ssd}', 'containers:', '  - name: app', '    image: nginx:1.27', '    resources: {requests: {cpu: 100m}}', PROBE]),
    want: [['decode', 5, /cannot unmarshal string into Go struct field PodSpec\.spec\.terminationGracePeriodSeconds of type int64$/]],
  },
];

for (const c of cases) {
  test(`stages: ${c.name}`, () => {
    const service = new LanguageService(() => '');
    service.configure(DEFAULT_SETTINGS);
    service.update('file:///stages.yaml', 1, c.text);
    const got = service.validate('file:///stages.yaml') ?? [];
    assert.deepEqual(got.map((d) => [d.code, d.range.start.line]), c.want.map(([code, line]) => [code, line]), JSON.stringify(got.map((d) => d.message)));
    c.want.forEach(([, , message], i) => assert.match(got[i]!.message, message));
  });
}

test('stages: a refusal that reads several fields is one warning, the others its related places with their step\'s words', () => {
  const service = new LanguageService(() => '');
  service.configure(DEFAULT_SETTINGS);
  const text = pod(['nodeSelector: {disk: ssd}', 'containers:', '  - name: app', '    image: nginx:1.27', '    resources: {requests: {cpu: 100m}}', PROBE]);
  service.update('file:///once.yaml', 1, text);
  const scheduling = (service.validate('file:///once.yaml') ?? []).filter((d) => d.code === 'scheduling');
  assert.equal(scheduling.length, 1);
  assert.equal(scheduling[0]!.range.start.line, 5, 'on the nodeSelector');
  assert.deepEqual(scheduling[0]!.relatedInformation?.map((r) => [r.location.range.start.line, r.message]), [[4, 'TaintToleration rejected 1 of 3 nodes: node(s) had untolerated taint(s)']]);
});
