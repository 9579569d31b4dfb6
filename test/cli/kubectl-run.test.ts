// Whole runs that start from a kubectl command line, as a process: kubectl run and create deployment|job to Running or
// Succeeded, the request kubectl sends (path and body as kubectl 1.36 sends them), server and client dry runs,
// AlreadyExists from create (a POST, not an apply), -n, identities, --delete, and the human report's command lines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { CLI, ROOT, runJson, runKubectlJson as kubectl, type TraceEntry } from './harness';

const EXISTING = 'test/fixtures/kubectl-run/existing-web.yaml';

/** posts are the create requests kubectl sent, as the trace records them. */
function posts(trace: TraceEntry[]): { url: string; body?: string; headers: Record<string, string[]> }[] {
  return trace.flatMap((e) => {
    const request = e.detail['request'] as { verb: string; url: string; body?: string; headers: Record<string, string[]> } | undefined;
    return e.phase === 'kubectl.validate' && request?.verb === 'POST' ? [request] : [];
  });
}

test('kubectl run web --image=nginx:1.27 reaches Running: kubectl.generate, discovery, then the POST kubectl 1.36 sends', () => {
  const { status, report } = kubectl(['run', 'web', '--image=nginx:1.27']);
  assert.equal(status, 0);
  assert.equal(report.outcome, 'Running');
  assert.equal(report.kubectl, 'pod/web created');
  const pod = report.objects.find((o) => o.kind === 'Pod' && o.metadata.name === 'web');
  assert.equal(pod?.status?.['phase'], 'Running');
  assert.deepEqual(pod?.metadata.labels, { run: 'web' });
  assert.deepEqual(report.trace.slice(0, 4).map((e) => e.phase), ['kubectl.generate', 'kubectl.validate', 'kubectl.validate', 'kubectl.validate']);
  // Captured from kubectl v1.36 (k8s.io/kubectl v0.36.3): the REST client's JSON, Go struct order, a trailing newline.
  assert.deepEqual(posts(report.trace).map((p) => [p.url, p.body, p.headers['Content-Type']]), [[
    'https://192.168.49.2:6443/api/v1/namespaces/default/pods?fieldManager=kubectl-run',
    '{"kind":"Pod","apiVersion":"v1","metadata":{"name":"web","labels":{"run":"web"}},"spec":{"containers":[{"name":"web","image":"nginx:1.27","resources":{}}],"restartPolicy":"Always","dnsPolicy":"ClusterFirst"},"status":{}}\n',
    ['application/json'],
  ]]);
});

test('kubectl create deployment web --image=nginx:1.27 --replicas=3 gives 3 Running pods, sent by the typed client as protobuf', () => {
  const { status, report } = kubectl(['create', 'deployment', 'web', '--image=nginx:1.27', '--replicas=3']);
  assert.equal(status, 0);
  assert.equal(report.outcome, 'Running');
  assert.equal(report.kubectl, 'deployment.apps/web created');
  const pods = report.objects.filter((o) => o.kind === 'Pod' && o.metadata.labels?.['app'] === 'web');
  assert.equal(pods.length, 3);
  assert.ok(pods.every((p) => p.status?.['phase'] === 'Running'), pods.map((p) => `${p.metadata.name} ${String(p.status?.['phase'])}`).join(', '));
  const [post] = posts(report.trace);
  assert.equal(post?.url, 'https://192.168.49.2:6443/apis/apps/v1/namespaces/default/deployments?fieldManager=kubectl-create&fieldValidation=Strict');
  assert.deepEqual(post?.headers['Content-Type'], ['application/vnd.kubernetes.protobuf']);
  // create deployment uses no discovery: its first request is the POST.
  assert.deepEqual(report.trace.slice(0, 2).map((e) => e.phase), ['kubectl.generate', 'kubectl.validate']);
});

test('kubectl create job hello runs its command and Succeeds when the container exits 0', () => {
  const { status, report } = kubectl(['create', 'job', 'hello', '--image=busybox:1.36', '--', 'echo', 'hello'], ['--behavior', 'test/fixtures/kubectl-run/hello-exits.yaml']);
  assert.equal(status, 0);
  assert.equal(report.outcome, 'Succeeded');
  assert.equal(report.kubectl, 'job.batch/hello created');
  const job = report.objects.find((o) => o.kind === 'Job' && o.metadata.name === 'hello');
  const template = (job?.spec?.['template'] as { spec: { containers: { command: string[] }[]; restartPolicy: string } }).spec;
  assert.deepEqual([template.containers[0]?.command, template.restartPolicy], [['echo', 'hello'], 'Never']);
});

test('--dry-run=server runs the request through the API server and stores nothing: DryRun, exit 0', () => {
  const { status, report } = kubectl(['run', 'web', '--image=nginx:1.27', '--dry-run=server']);
  assert.equal(status, 0);
  assert.equal(report.outcome, 'DryRun');
  assert.equal(report.kubectl, 'pod/web created (server dry run)');
  assert.equal(report.objects.find((o) => o.kind === 'Pod' && o.metadata.name === 'web'), undefined);
  assert.match(posts(report.trace)[0]?.url ?? '', /\/pods\?dryRun=All&fieldManager=kubectl-run$/);
  const persist = report.trace.find((e) => e.phase === 'etcd.persist');
  assert.match(persist?.result ?? '', /^dry run \(dryRun=All\): Pod "web" would be stored at \/registry\/pods\/default\/web; nothing is written$/);
  assert.deepEqual(report.trace.filter((e) => e.phase.startsWith('scheduler.') || e.phase.startsWith('kubelet.')), []);
});

test('--dry-run=server -o yaml prints the object the API server would have stored, defaults and all', () => {
  const { report } = kubectl(['run', 'web', '--image=nginx:1.27', '--dry-run=server', '-o', 'yaml']);
  assert.match(report.kubectl, /^apiVersion: v1\nkind: Pod\n/);
  assert.match(report.kubectl, /\n {4}terminationMessagePolicy: File\n/);
  assert.match(report.kubectl, /\n {2}uid: [0-9a-f-]{36}\n/);
  assert.match(report.kubectl, /\n {2}phase: Pending\n/);
});

const alreadyExistsCases = [
  { name: 'kubectl create -f POSTs and the existing pod is AlreadyExists, naming the file', argv: ['create', '-f', 'examples/pod.yaml'], printed: 'Error from server (AlreadyExists): error when creating "examples/pod.yaml": pods "web" already exists' },
  { name: 'kubectl run hands the API error to CheckErr as it is', argv: ['run', 'web', '--image=nginx:1.27'], printed: 'Error from server (AlreadyExists): pods "web" already exists' },
  { name: 'a server dry run checks the name too', argv: ['run', 'web', '--image=nginx:1.27', '--dry-run=server'], printed: 'Error from server (AlreadyExists): pods "web" already exists' },
];

for (const c of alreadyExistsCases) {
  test(`On a cluster that has pod web, ${c.name}: Rejected at etcd.persist, exit 1`, () => {
    const { status, report } = kubectl(c.argv, ['--cluster', EXISTING]);
    assert.equal(status, 1);
    assert.equal(report.outcome, 'Rejected');
    assert.equal(report.kubectl, c.printed);
    assert.deepEqual([report.rejection?.phase, report.rejection?.code, report.rejection?.reason], ['etcd.persist', 409, 'AlreadyExists']);
  });
}

test('kubectl create -f --save-config POSTs the object with its last-applied configuration, as kubectl 1.36 sends it', () => {
  const { status, report } = kubectl(['create', '-f', 'examples/pod.yaml', '--save-config']);
  assert.equal(status, 0);
  assert.equal(report.kubectl, 'pod/web created');
  // Captured from kubectl v1.36 (its dynamic client: the unstructured object as JSON, keys sorted, a trailing newline).
  const config = '{"apiVersion":"v1","kind":"Pod","metadata":{"annotations":{},"labels":{"app":"web"},"name":"web","namespace":"default"},"spec":{"containers":[{"image":"nginx:1.27","name":"app","ports":[{"containerPort":80}],"readinessProbe":{"httpGet":{"path":"/","port":80},"periodSeconds":5},"resources":{"limits":{"memory":"128Mi"},"requests":{"cpu":"250m","memory":"64Mi"}}}]}}\n';
  const body = `{"apiVersion":"v1","kind":"Pod","metadata":{"annotations":{"kubectl.kubernetes.io/last-applied-configuration":${JSON.stringify(config)}},"labels":{"app":"web"},"name":"web","namespace":"default"},"spec":{"containers":[{"image":"nginx:1.27","name":"app","ports":[{"containerPort":80}],"readinessProbe":{"httpGet":{"path":"/","port":80},"periodSeconds":5},"resources":{"limits":{"memory":"128Mi"},"requests":{"cpu":"250m","memory":"64Mi"}}}]}}\n`;
  assert.deepEqual(posts(report.trace).map((p) => [p.url, p.body]), [['https://192.168.49.2:6443/api/v1/namespaces/default/pods?fieldManager=kubectl-create&fieldValidation=Strict', body]]);
});

test('kubectl create deployment wraps a refused create in its own words: error: failed to create deployment: ...', () => {
  const { status, report } = kubectl(['create', 'deployment', 'web', '--image=nginx:1.27', '--replicas=-1']);
  assert.equal(status, 1);
  assert.equal(report.kubectl, 'error: failed to create deployment: Deployment.apps "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0');
  assert.equal(report.rejection?.phase, 'apiserver.validate');
});

test('kubectl apply -f MANIFEST runs as pod-lifecycle run MANIFEST does', () => {
  const viaKubectl = kubectl(['apply', '-f', 'examples/pod.yaml']);
  const viaManifest = runJson('run', 'examples/pod.yaml');
  assert.equal(viaKubectl.status, 0);
  assert.deepEqual([viaKubectl.report.outcome, viaKubectl.report.kubectl], [viaManifest.report.outcome, viaManifest.report.kubectl]);
  // The same steps, after kubectl.generate's reading of the command line.
  assert.equal(viaKubectl.report.trace[0]?.phase, 'kubectl.generate');
  assert.deepEqual(viaKubectl.report.trace.slice(1).map((e) => [e.phase, e.result]).slice(0, 12), viaManifest.report.trace.map((e) => [e.phase, e.result]).slice(0, 12));
});

test('-n names the namespace of the request: a namespace that does not exist is NotFound, as NamespaceLifecycle says', () => {
  const { status, report } = kubectl(['run', 'web', '--image=nginx:1.27', '-n', 'prod']);
  assert.equal(status, 1);
  assert.equal(report.kubectl, 'Error from server (NotFound): namespaces "prod" not found');
  assert.match(posts(report.trace)[0]?.url ?? '', /\/api\/v1\/namespaces\/prod\/pods\?fieldManager=kubectl-run$/);
});

for (const verb of ['create', 'apply']) {
  test(`kubectl ${verb} -f with -n refuses a document of another namespace before sending it, in the builder's words`, () => {
    const { status, report } = kubectl([verb, '-f', 'test/fixtures/kubectl-run/pod-in-other.yaml', '-n', 'foo']);
    assert.equal(status, 1);
    assert.equal(report.kubectl, 'error: the namespace from the provided object "other" does not match the namespace "foo". You must pass \'--namespace=other\' to perform this operation.');
    assert.equal(report.rejection?.phase, 'kubectl.validate');
    assert.deepEqual(posts(report.trace), []);
  });
}

test('The run\'s identity sends kubectl\'s requests: --as bob is Forbidden at apiserver.authorize', () => {
  const { status, report } = kubectl(['run', 'web', '--image=nginx:1.27'], ['--as', 'bob']);
  assert.equal(status, 1);
  assert.equal(report.kubectl, 'Error from server (Forbidden): pods is forbidden: User "bob" cannot create resource "pods" in API group "" in the namespace "default"');
  assert.equal(report.rejection?.phase, 'apiserver.authorize');
});

const unauthorizedCases = [
  {
    name: 'kubectl run fails at discovery, as the memory-cached discovery client logs and CheckErr prints it', argv: ['run', 'web', '--image=nginx:1.27'],
    printed: 'E0101 00:00:00.000000       1 memcache.go:265] "Unhandled Error" err="couldn\'t get current server API group list: the server has asked for the client to provide credentials"\n'
      + 'error: You must be logged in to the server (the server has asked for the client to provide credentials)',
  },
  { name: 'kubectl create deployment sends its POST at once and wraps the 401', argv: ['create', 'deployment', 'web', '--image=nginx:1.27'], printed: 'error: failed to create deployment: Unauthorized' },
];

for (const c of unauthorizedCases) {
  test(`With a token the API server does not know, ${c.name}: Rejected at apiserver.authenticate`, () => {
    const { status, report } = kubectl(c.argv, ['--token', 'not-a-known-token']);
    assert.equal(status, 1);
    assert.equal(report.kubectl, c.printed);
    assert.deepEqual([report.rejection?.phase, report.rejection?.code], ['apiserver.authenticate', 401]);
  });
}

test('--delete deletes what the command created and ends Deleted; the report shows kubectl delete pod/web', () => {
  const r = spawnSync(process.execPath, [CLI, 'run', '--delete', '--', 'kubectl', 'run', 'web', '--image=nginx:1.27'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^\$ kubectl run web --image=nginx:1\.27\npod\/web created\n/);
  assert.match(r.stdout, /\n\$ kubectl delete pod\/web\npod "web" deleted from default namespace\n/);
  assert.match(r.stdout, /\nOUTCOME Deleted\n?$/);
});

test('The human report of a refused command line shows the command, kubectl\'s error and the rejection', () => {
  const r = spawnSync(process.execPath, [CLI, 'run', '--', 'kubectl', 'run', 'web', '--image=nginx:1.27', '--restart=Sometimes'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  assert.equal(r.status, 1);
  assert.match(r.stdout, /^\$ kubectl run web --image=nginx:1\.27 --restart=Sometimes\nerror: invalid restart policy: Sometimes\nSee 'kubectl run -h' for help and examples\n\nTIMELINE\n/);
  assert.match(r.stdout, /\nOUTCOME Rejected: invalid restart policy: Sometimes\n?$/);
});

test('explain takes a kubectl command line too, and says why the pod went where it did', () => {
  const r = spawnSync(process.execPath, [CLI, 'explain', '--', 'kubectl', 'run', 'web', '--image=nginx:1.27'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^\$ kubectl run web --image=nginx:1\.27\npod\/web created\n/);
  assert.match(r.stdout, /default\/web/);
});
