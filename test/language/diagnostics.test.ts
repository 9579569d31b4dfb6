// The diagnostics service on manifests, case by case: what it reports, where, with which rule and words. Expected
// messages are the engine's, which follow kube-apiserver's (paths beside each case).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../cli/harness';
import { LanguageService } from '../../src/language/service';
import { DEFAULT_SETTINGS, readSettings, type Settings } from '../../src/language/settings';

/** pod builds a Pod manifest; `spec` lines are indented under spec. */
function pod(spec: string[], meta: string[] = []): string {
  return ['apiVersion: v1', 'kind: Pod', 'metadata:', '  name: web', ...meta.map((l) => `  ${l}`), 'spec:', ...spec.map((l) => `  ${l}`), ''].join('\n');
}

const CONTAINER = ['containers:', '  - name: app', '    image: nginx:1.27', '    resources: {requests: {cpu: 100m}}', '    readinessProbe: {tcpSocket: {port: 80}}'];

interface Want { code: string; line: number; character?: number; message: string | RegExp }

const cases: { name: string; text: string; settings?: Settings; want: Want[] }[] = [
  { name: 'a complete pod on the embedded cluster has no diagnostics', text: pod(CONTAINER), want: [] },
  {
    // A Service is validated as the registry leaves it: its cluster IPs and node ports allocated first
    // (pkg/registry/core/service/storage/storage.go beginCreate, then the strategy's Validate; v1.36.3).
    name: 'a Service naming its clusterIP alone, or a LoadBalancer with a Local traffic policy, is valid once allocated',
    text: ['apiVersion: v1', 'kind: Service', 'metadata:', '  name: web', 'spec:', '  clusterIP: 10.96.0.50', '  selector: {app: web}', '  ports:', '    - port: 80',
      '---', 'apiVersion: v1', 'kind: Service', 'metadata:', '  name: lb', 'spec:', '  type: LoadBalancer', '  externalTrafficPolicy: Local', '  selector: {app: web}', '  ports:', '    - port: 80', ''].join('\n'),
    want: [],
  },
  {
    // pkg/apis/core/validation/validation.go (ValidateService): several ports need names.
    name: 'a Service with two unnamed ports is refused on each port\'s name',
    text: ['apiVersion: v1', 'kind: Service', 'metadata:', '  name: web', 'spec:', '  selector: {app: web}', '  ports:', '    - port: 80', '    - port: 443', ''].join('\n'),
    want: [
      { code: 'validation', line: 7, message: 'Service "web" is invalid: spec.ports[0].name: Required value' },
      { code: 'validation', line: 8, message: 'Service "web" is invalid: spec.ports[1].name: Required value' },
    ],
  },
  { name: 'YAML that names no Kubernetes kind is left alone', text: 'name: [unclosed\nitems: 3\n', want: [] },
  {
    // staging/src/k8s.io/apimachinery/pkg/runtime/serializer/json/json.go: strict decoding error, key by key.
    name: 'an unknown field is reported on its key with the strict decoding error',
    text: pod([...CONTAINER, '    imagePolicy: Always']),
    want: [{ code: 'decode', line: 10, character: 6, message: 'Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers[0].imagePolicy"' }],
  },
  {
    // sigs.k8s.io/json UnmarshalTypeError with the Go struct field path.
    name: 'a string where an integer belongs is reported on the value with the decoding error',
    text: ['apiVersion: apps/v1', 'kind: Deployment', 'metadata:', '  name: web', 'spec:', '  replicas: "3"', ''].join('\n'),
    want: [{ code: 'decode', line: 5, character: 12, message: 'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32' }],
  },
  {
    // pkg/apis/core/validation/validation.go validateContainerCommon: image Required value, on the container.
    name: 'a missing required image is reported on the container with the Invalid message',
    text: pod(['containers:', '  - name: app', '    resources: {requests: {cpu: 100m}}', '    readinessProbe: {tcpSocket: {port: 80}}']),
    want: [{ code: 'validation', line: 6, character: 6, message: 'Pod "web" is invalid: spec.containers[0].image: Required value' }],
  },
  {
    // pkg/apis/batch/validation/validation.go ValidateJobSpec validates the template with ValidatePodTemplateSpec.
    name: 'a Job\'s pod template is validated: a duplicate container name is reported on its value',
    text: ['apiVersion: batch/v1', 'kind: Job', 'metadata:', '  name: once', 'spec:', '  template:', '    spec:', '      restartPolicy: Never', '      containers:',
      '        - {name: a, image: "busybox:1.36", resources: {limits: {cpu: 1}}}', '        - {name: a, image: "busybox:1.36", resources: {limits: {cpu: 1}}}', ''].join('\n'),
    want: [{ code: 'validation', line: 10, character: 17, message: 'Job.batch "once" is invalid: spec.template.spec.containers[1].name: Duplicate value: "a"' }],
  },
  {
    // pkg/apis/apps/validation/validation.go ValidateStatefulSetSpec (v1.36.3): podManagementPolicy, on its value.
    name: 'a StatefulSet is validated: an unknown podManagementPolicy is reported on its value',
    text: ['apiVersion: apps/v1', 'kind: StatefulSet', 'metadata:', '  name: db', 'spec:', '  podManagementPolicy: Sideways', '  selector: {matchLabels: {app: db}}', '  template:',
      '    metadata: {labels: {app: db}}', '    spec:', '      containers:', '        - {name: a, image: "busybox:1.36", resources: {limits: {cpu: 1}}, readinessProbe: {tcpSocket: {port: 80}}}', ''].join('\n'),
    want: [{ code: 'validation', line: 5, character: 23, message: 'StatefulSet.apps "db" is invalid: spec.podManagementPolicy: Invalid value: "Sideways": must be \'OrderedReady\' or \'Parallel\'' }],
  },
  {
    // pkg/apis/apps/validation/validation.go ValidateDaemonSetSpec (v1.36.3): the selector must match the template's labels.
    name: 'a DaemonSet is validated: a selector that misses the template labels is reported on the labels',
    text: ['apiVersion: apps/v1', 'kind: DaemonSet', 'metadata:', '  name: agent', 'spec:', '  selector: {matchLabels: {app: agent}}', '  template:',
      '    metadata:', '      labels: {app: other}', '    spec:', '      containers:', '        - {name: a, image: "busybox:1.36", resources: {limits: {cpu: 1}}, readinessProbe: {tcpSocket: {port: 80}}}', ''].join('\n'),
    want: [{ code: 'validation', line: 8, character: 14, message: 'DaemonSet.apps "agent" is invalid: spec.template.metadata.labels: Invalid value: {"app":"other"}: `selector` does not match template `labels`' }],
  },
  {
    name: 'a broken document is reported where the parser stops and the next document is still checked',
    text: `${pod(CONTAINER).replace('name: web', 'name: [web')}---\n${pod([...CONTAINER, '    imagee: x'])}`,
    want: [
      { code: 'syntax', line: 4, message: /./ },
      { code: 'decode', line: 21, character: 6, message: /unknown field "spec.containers\[0\].imagee"/ },
    ],
  },
  {
    // pkg/scheduler/framework/plugins/nodeaffinity (ErrReasonPod) and tainttoleration, as the FailedScheduling event:
    // one warning, on the nodeSelector key (the spec that lacks tolerations is its related place, not a second one).
    name: 'a nodeSelector no node satisfies is one scheduling warning, on the nodeSelector key',
    text: pod([...CONTAINER, 'nodeSelector:', '  disk: ssd']),
    want: [
      { code: 'scheduling', line: 10, character: 2, message: /^0\/3 nodes are available: 1 node\(s\) had untolerated taint\(s\), 2 node\(s\) didn't match Pod's node affinity\/selector\..*\n\(the pod would stay Pending: no node fits it at scheduler\.filter\)$/s },
    ],
  },
  {
    // Every stage at once, in the API server's order: the validation error (validateContainerCommon) and what the
    // scheduler would say of the rest (nodeaffinity), not the second only once the first is fixed.
    name: 'a validation error and a scheduling problem of the same pod show at once, each tagged with its stage',
    text: pod(['containers:', '  - name: app', '    resources: {requests: {cpu: 100m}}', '    readinessProbe: {tcpSocket: {port: 80}}', 'nodeSelector:', '  disk: ssd']),
    want: [
      { code: 'validation', line: 6, character: 6, message: 'Pod "web" is invalid: spec.containers[0].image: Required value' },
      { code: 'scheduling', line: 9, character: 2, message: /^0\/3 nodes are available: 1 node\(s\) had untolerated taint\(s\), 2 node\(s\) didn't match Pod's node affinity\/selector\..*\n\(the pod would stay Pending: no node fits it at scheduler\.filter\)$/s },
    ],
  },
  {
    // PodSecurity (validating admission, after validation) on a pod with a validation error: both at once.
    name: 'a validation error and an admission refusal of the same pod show at once',
    text: pod(['containers:', '  - name: app', '    resources: {requests: {cpu: 100m}}', '    readinessProbe: {tcpSocket: {port: 80}}'], ['namespace: secure']),
    settings: { ...DEFAULT_SETTINGS, cluster: [join(ROOT, 'test', 'fixtures', 'podsecurity', 'cluster.yaml')] },
    want: [
      { code: 'validation', line: 7, character: 6, message: 'Pod "web" is invalid: spec.containers[0].image: Required value' },
      { code: 'admission', line: 7, character: 6, message: /^pods "web" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false/ },
    ],
  },
  {
    // plugin/pkg/admission/serviceaccount/admission.go: the service account must exist.
    name: 'a ServiceAccount the namespace lacks is an admission warning',
    text: pod([...CONTAINER, 'serviceAccountName: robot']),
    want: [{ code: 'admission', line: 3, character: 8, message: 'pods "web" is forbidden: error looking up service account default/robot: serviceaccount "robot" not found\n(the create would be refused at apiserver.admit.mutating)' }],
  },
  {
    name: 'a Namespace earlier in the file is in the cluster the pod is checked on',
    text: `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: dev\n---\n${pod(CONTAINER, ['namespace: dev'])}`,
    want: [],
  },
  {
    // plugin/pkg/admission/namespace/lifecycle: a missing namespace is NotFound.
    name: 'a namespace the cluster lacks is an admission warning',
    text: pod(CONTAINER, ['namespace: dev']),
    want: [{ code: 'admission', line: 3, character: 8, message: /^namespaces "dev" not found\n/ }],
  },
  {
    name: 'a container with no resources, an untagged image and no probes gets the three hints',
    text: pod(['containers:', '  - name: app', '    image: nginx']),
    want: [
      { code: 'hint.noResources', line: 6, character: 6, message: /^Container "app" sets no resource requests or limits/ },
      { code: 'hint.latestTag', line: 7, character: 13, message: /^Image "nginx" has no tag/ },
      { code: 'hint.noProbes', line: 6, character: 6, message: /^Container "app" has no readiness or liveness probe/ },
    ],
  },
  {
    name: 'a hint switched off in the settings is not reported',
    text: pod(['containers:', '  - name: app', '    image: nginx:latest']),
    settings: readSettings({ diagnostics: { hint: { noResources: false, noProbes: false } } }),
    want: [{ code: 'hint.latestTag', line: 7, character: 13, message: /has the tag :latest/ }],
  },
  {
    name: 'a cluster file from the settings is used: a restricted namespace refuses a plain pod',
    text: pod(CONTAINER, ['namespace: secure']),
    settings: { ...DEFAULT_SETTINGS, cluster: [join(ROOT, 'test', 'fixtures', 'podsecurity', 'cluster.yaml')] },
    want: [{ code: 'admission', line: 7, character: 6, message: /^pods "web" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false/ }],
  },
];

for (const [i, c] of cases.entries()) {
  test(`diagnostics: ${c.name}`, () => {
    const service = new LanguageService((path) => readFileSync(path, 'utf8'));
    service.configure(c.settings ?? DEFAULT_SETTINGS);
    const uri = `file:///case-${i}.yaml`;
    service.update(uri, 1, c.text);
    const got = service.validate(uri) ?? [];
    assert.equal(got.length, c.want.length, JSON.stringify(got.map((d) => [d.code, d.range.start, d.message]), null, 1));
    c.want.forEach((w, k) => {
      const d = got[k]!;
      assert.equal(d.code, w.code);
      assert.equal(d.source, 'pod-lifecycle');
      assert.equal(d.range.start.line, w.line, `line of ${w.code}`);
      if (w.character !== undefined) assert.equal(d.range.start.character, w.character, `character of ${w.code}`);
      if (typeof w.message === 'string') assert.equal(d.message, w.message);
      else assert.match(d.message, w.message);
    });
  });
}

test('diagnostics: a validation cancelled part-way gives no result', () => {
  const service = new LanguageService((path) => readFileSync(path, 'utf8'));
  service.update('file:///cancel.yaml', 1, pod(CONTAINER));
  assert.equal(service.validate('file:///cancel.yaml', { isCancellationRequested: true }), undefined);
});

test('diagnostics: an unreadable cluster file is reported once, on the first document', () => {
  const service = new LanguageService((path) => readFileSync(path, 'utf8'));
  service.configure({ ...DEFAULT_SETTINGS, cluster: ['/nonexistent/cluster.yaml'] });
  service.update('file:///bad-cluster.yaml', 1, pod(CONTAINER));
  const got = service.validate('file:///bad-cluster.yaml') ?? [];
  assert.deepEqual(got.map((d) => [d.code, d.range.start.line]), [['admission', 0]]);
  assert.match(got[0]!.message, /^the cluster cannot be read: .*cannot read the file: no such file/);
});

test('diagnostics: a document moved down by an edit above it keeps its diagnostics and fixes on its own lines', () => {
  const service = new LanguageService((path) => readFileSync(path, 'utf8'));
  const uri = 'file:///moved.yaml';
  const second = pod([...CONTAINER, '    imagePulPolicy: Always']);
  const before = `${pod(CONTAINER)}---\n${second}`;
  service.update(uri, 1, before);
  const first = (service.validate(uri) ?? []).filter((d) => d.code === 'decode');
  assert.deepEqual(first.map((d) => d.range.start.line), [21]);
  for (const [version, extra] of [[2, 2], [3, 5]] as const) {
    service.update(uri, version, `${pod(CONTAINER, Array.from({ length: extra }, (_, i) => `# note ${i}`))}---\n${second}`);
    const moved = (service.validate(uri) ?? []).filter((d) => d.code === 'decode');
    assert.deepEqual(moved.map((d) => d.range.start.line), [21 + extra]);
    const fix = service.codeActions(uri, moved)[0]?.edit?.changes?.[uri]?.[0];
    assert.deepEqual(fix?.range.start, { line: 21 + extra, character: 6 });
    assert.deepEqual(service.symbols(uri).map((s) => s.range.start.line), [0, 11 + extra]);
  }
});
