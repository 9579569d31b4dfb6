// `pod-lifecycle serve` as a process, driven by the real kubectl with the kubeconfig it writes: discovery, apply, get,
// the pod reaching Running on the simulated cluster, delete with a grace period, wait for the delete (a watch), and
// the server's 401 and 403 for other identities. kubectl must be on PATH: without it these tests fail and say so.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'node:https';
import { createInterface } from 'node:readline';
import { parse, stringify } from 'yaml';

const root = join(__dirname, '..', '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'pod-lifecycle-serve-cli-'));
const kubeconfig = join(dir, 'kubeconfig');
let server: ChildProcess;
let stderr = '';

/** kubectl runs the real kubectl against the server and resolves with its exit code and output. */
function kubectl(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return kubectlWith(kubeconfig, ...args);
}

function kubectlWith(config: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile('kubectl', args, { env: { ...process.env, KUBECONFIG: config }, timeout: 60_000 }, (err, stdout, stderr) => {
      if (err && (err as NodeJS.ErrnoException).code === 'ENOENT') return reject(new Error('kubectl is not on PATH: these tests drive the real kubectl against serve'));
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

before(async () => {
  // The container ignores SIGTERM: a deleted pod stays Terminating for its whole grace period (300 s, 6 s at 50×).
  writeFileSync(join(dir, 'behavior.yaml'), 'apiVersion: podlifecycle.debug/v1alpha1\nkind: Behavior\ncontainers:\n  app: {sigtermSeconds: never}\n');
  server = spawn(process.execPath, [join(root, 'dist', 'cli.js'), 'serve', '--cluster', join(root, 'examples', 'cluster.yaml'), '--behavior', join(dir, 'behavior.yaml'), '--kubeconfig-out', kubeconfig, '--speed', '50'], { stdio: ['ignore', 'pipe', 'pipe'] });
  server.stderr!.on('data', (d) => (stderr += d));
  // The server names the kubeconfig once it listens.
  await new Promise<void>((resolve, reject) => {
    server.once('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
    createInterface({ input: server.stdout! }).on('line', (line) => {
      if (line === `export KUBECONFIG=${kubeconfig}`) resolve();
    });
  });
  writeFileSync(join(dir, 'pod.yaml'), 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  terminationGracePeriodSeconds: 300\n  containers:\n  - name: app\n    image: nginx:1.27\n');
});

after(() => {
  server.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

test('kubectl reads the server version and discovery', async () => {
  const v = await kubectl('version', '-o', 'json');
  assert.equal(v.code, 0, v.stderr);
  assert.equal(JSON.parse(v.stdout).serverVersion.gitVersion, 'v1.36.0');
  // kubectl explain reads the OpenAPI v3 documents of the 1.36 specification.
  const explained = await kubectl('explain', 'deployment.spec.replicas');
  assert.equal(explained.code, 0, explained.stderr);
  assert.match(explained.stdout, /^GROUP:\s+apps\nKIND:\s+Deployment\nVERSION:\s+v1\n\nFIELD: replicas <integer>/);
  const resources = await kubectl('api-resources', '--api-group=apps', '-o', 'name');
  assert.equal(resources.code, 0, resources.stderr);
  assert.deepEqual(resources.stdout.trim().split('\n').sort(), ['controllerrevisions.apps', 'daemonsets.apps', 'deployments.apps', 'replicasets.apps', 'statefulsets.apps']);
});

test('kubectl apply creates a pod that the simulated cluster schedules and starts, and kubectl wait sees it Ready', async () => {
  const applied = await kubectl('apply', '-f', join(dir, 'pod.yaml'));
  assert.equal(applied.code, 0, applied.stderr);
  assert.equal(applied.stdout.trim(), 'pod/web created');
  const ready = await kubectl('wait', '--for=condition=Ready', 'pod/web', '--timeout=50s');
  assert.equal(ready.code, 0, ready.stderr);
  assert.equal(ready.stdout.trim(), 'pod/web condition met');
  const pod = JSON.parse((await kubectl('get', 'pod', 'web', '-o', 'json')).stdout);
  assert.equal(pod.status.phase, 'Running');
  assert.match(pod.spec.nodeName, /^big-/);
  // kubectl get prints the server's Table: the real columns, the pod's status as the server computed it.
  const table = await kubectl('get', 'pods');
  assert.equal(table.code, 0, table.stderr);
  const [header, row] = table.stdout.trim().split('\n');
  assert.match(header!, /^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE$/);
  assert.match(row!, /^web\s+1\/1\s+Running\s+0\s+\d+s$/);
  const events = await kubectl('get', 'events', '--field-selector', 'involvedObject.name=web', '-o', 'jsonpath={.items[*].reason}');
  assert.deepEqual(events.stdout.split(' '), ['Scheduled', 'Pulling', 'Pulled', 'Created', 'Started']);
  const described = await kubectl('describe', 'pod', 'web');
  assert.match(described.stdout, /Normal\s+Scheduled\s+\S+\s+default-scheduler\s+Successfully assigned default\/web to big-\d/);
  const again = await kubectl('apply', '-f', join(dir, 'pod.yaml'));
  assert.equal(again.stdout.trim(), 'pod/web unchanged');
});

test('a token the server does not know is 401 and a user without a role binding is 403, with the server\'s messages', async () => {
  // The same cluster, as a user with a token the server does not know (and no client certificate).
  const config = parse(readFileSync(kubeconfig, 'utf8'));
  config.users.push({ name: 'nobody', user: { token: 'nope' } });
  config.contexts.push({ name: 'nobody', context: { cluster: 'pod-lifecycle', user: 'nobody' } });
  writeFileSync(join(dir, 'nobody'), stringify(config));
  const unknown = await kubectlWith(join(dir, 'nobody'), '--context', 'nobody', 'get', 'pods');
  assert.notEqual(unknown.code, 0);
  assert.match(unknown.stderr, /error: You must be logged in to the server \(Unauthorized\)/);
  const alice = await kubectl('--context', 'alice@pod-lifecycle', 'get', 'pods');
  assert.notEqual(alice.code, 0);
  assert.match(alice.stderr, /Error from server \(Forbidden\): pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default"/);
});

test('kubectl delete marks the pod with its grace period and kubectl wait --for=delete sees it go', async () => {
  const deleted = await kubectl('delete', 'pod', 'web', '--wait=false');
  assert.equal(deleted.code, 0, deleted.stderr);
  assert.equal(deleted.stdout.trim(), 'pod "web" deleted');
  const marked = JSON.parse((await kubectl('get', 'pod', 'web', '-o', 'json')).stdout);
  assert.equal(marked.metadata.deletionGracePeriodSeconds, 300);
  const gone = await kubectl('wait', '--for=delete', 'pod/web', '--timeout=50s');
  assert.equal(gone.code, 0, gone.stderr);
  const after = await kubectl('get', 'pod', 'web');
  assert.match(after.stderr, /Error from server \(NotFound\): pods "web" not found/);
});

test('a malformed body and an unknown resource get the server\'s Status, and the server keeps serving', async () => {
  const missing = await kubectl('get', '--raw', '/api/v1/namespaces/default/widgets');
  assert.match(missing.stderr, /the server could not find the requested resource/);
  const bad = await kubectl('create', '--raw', '/api/v1/namespaces/default/pods', '-f', join(dir, 'pod.yaml'));
  assert.notEqual(bad.code, 0, 'a YAML body is not JSON');
  assert.match(bad.stderr, /Error from server \(BadRequest\)/);
  const nodes = await kubectl('get', 'nodes', '-o', 'name');
  assert.equal(nodes.code, 0, nodes.stderr);
  assert.match(nodes.stdout, /^node\/big-1$/m);
});

/** rawGet sends one GET with the admin's certificate from the kubeconfig, as it is written (no client-side checks). */
function rawGet(path: string): Promise<{ status: number; body: string }> {
  const config = parse(readFileSync(kubeconfig, 'utf8'));
  const user = config.users[0].user;
  const cluster = config.clusters[0].cluster;
  const b64 = (s: string) => Buffer.from(s, 'base64');
  const url = new URL(cluster.server);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, ca: b64(cluster['certificate-authority-data']), cert: b64(user['client-certificate-data']), key: b64(user['client-key-data']) }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('a path with a broken %-escape gets net/http\'s bare 400, a label selector that does not parse the parser\'s words', async () => {
  assert.deepEqual(await rawGet('/api/v1/namespaces/%zz/pods'), { status: 400, body: '400 Bad Request' });
  const bad = await rawGet('/api/v1/namespaces/default/pods?labelSelector=a%20in%20(');
  assert.equal(bad.status, 400);
  assert.equal(JSON.parse(bad.body).message, 'unable to parse requirement: found \'\', expected: \',\', \')\' or identifier');
  assert.equal((await rawGet('/api/v1/namespaces/def%61ult/pods')).status, 200);
});
