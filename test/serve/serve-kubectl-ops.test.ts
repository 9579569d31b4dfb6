// `pod-lifecycle serve` driven by the real kubectl for an operator's commands: auth can-i (SelfSubjectAccessReview,
// a protobuf body), auth can-i --list (SelfSubjectRulesReview) and --as (impersonation headers), logs and logs -f
// (the log subresource and the kubelet's refusals), cordon,
// uncordon and drain (PATCH of a node, evictions), and get events -w (events streamed from the recorder).
// kubectl must be on PATH.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { followKubectl, type ServeProcess, startServe } from './serve-process';

let serve: ServeProcess;
const kubectl = (...args: string[]) => serve.kubectl(...args);

// nginx:slow takes 5000 s to pull (100 s at 50×): its pod stays ContainerCreating for the whole file.
const BEHAVIOR = 'apiVersion: podlifecycle.debug/v1alpha1\nkind: Behavior\nimages:\n  nginx:slow: {pullSeconds: 5000}\ncontainers: {}\n';

/** pod is a one-container pod manifest on a chosen node (or wherever the scheduler puts it). */
function pod(name: string, image: string, nodeName?: string): string {
  return `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\n  labels: {app: ${name}}\nspec:\n  terminationGracePeriodSeconds: 5\n${nodeName ? `  nodeName: ${nodeName}\n` : ''}  containers:\n  - name: app\n    image: ${image}\n`;
}

before(async () => {
  serve = await startServe('serve-ops', BEHAVIOR);
  const applied = await kubectl('apply', '-f', serve.file('pods.yaml', [pod('web', 'nginx:1.27', 'big-1'), pod('slow', 'nginx:slow', 'small-1')].join('---\n')));
  assert.equal(applied.code, 0, applied.stderr);
  const ready = await kubectl('wait', '--for=condition=Ready', 'pod/web', '--timeout=60s');
  assert.equal(ready.code, 0, ready.stderr);
});

after(() => serve.stop());

const canI: { name: string; args: string[]; code: number; stdout: string }[] = [
  { name: 'the admin may list pods', args: ['auth', 'can-i', 'list', 'pods'], code: 0, stdout: 'yes' },
  { name: 'alice, impersonated by the admin, may not list pods', args: ['auth', 'can-i', 'list', 'pods', '--as=alice'], code: 1, stdout: 'no' },
  { name: 'alice herself may create a SelfSubjectAccessReview (system:basic-user)', args: ['--context', 'alice@pod-lifecycle', 'auth', 'can-i', 'create', 'selfsubjectaccessreviews.authorization.k8s.io'], code: 0, stdout: 'yes' },
  { name: 'alice herself may not delete nodes', args: ['--context', 'alice@pod-lifecycle', 'auth', 'can-i', 'delete', 'nodes'], code: 1, stdout: 'no' },
  { name: 'a non-resource URL is reviewed as a path', args: ['--context', 'alice@pod-lifecycle', 'auth', 'can-i', 'get', '/healthz'], code: 0, stdout: 'yes' },
];

for (const c of canI) {
  test(`kubectl auth can-i: ${c.name}`, async () => {
    const out = await kubectl(...c.args);
    assert.equal(out.code, c.code, out.stderr);
    assert.equal(out.stdout.trim(), c.stdout);
  });
}

test('kubectl auth can-i --list shows the rules of the user\'s bindings (SelfSubjectRulesReview)', async () => {
  const admin = await kubectl('auth', 'can-i', '--list');
  assert.equal(admin.code, 0, admin.stderr);
  const [header, first] = admin.stdout.split('\n');
  assert.match(header!, /^Resources\s+Non-Resource URLs\s+Resource Names\s+Verbs$/);
  assert.match(first!, /^\*\.\*\s+\[\]\s+\[\]\s+\[\*\]$/);
  const alice = await kubectl('--context', 'alice@pod-lifecycle', 'auth', 'can-i', '--list');
  assert.equal(alice.code, 0, alice.stderr);
  assert.match(alice.stdout, /^selfsubjectaccessreviews\.authorization\.k8s\.io\s+\[\]\s+\[\]\s+\[create\]$/m);
  assert.match(alice.stdout, /^\s+\[\/healthz\]\s+\[\]\s+\[get\]$/m);
  assert.doesNotMatch(alice.stdout, /\*\.\*/);
});

test('kubectl --as sends Impersonate-User: the request runs as alice, and alice may not impersonate', async () => {
  const asAlice = await kubectl('--as=alice', 'get', 'pods');
  assert.notEqual(asAlice.code, 0);
  assert.match(asAlice.stderr, /Error from server \(Forbidden\): pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default"/);
  const byAlice = await kubectl('--context', 'alice@pod-lifecycle', '--as=bob', 'get', 'pods');
  assert.notEqual(byAlice.code, 0);
  assert.match(byAlice.stderr, /Error from server \(Forbidden\): users "bob" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope/);
});

test('kubectl logs of a running container is its (empty) log; one still pulling is the kubelet\'s 400', async () => {
  const running = await kubectl('logs', 'web');
  assert.equal(running.code, 0, running.stderr);
  assert.equal(running.stdout, '');
  const waiting = await kubectl('wait', '--for=jsonpath={.status.containerStatuses[0].state.waiting.reason}=ContainerCreating', 'pod/slow', '--timeout=60s');
  assert.equal(waiting.code, 0, waiting.stderr);
  const slow = await kubectl('logs', 'slow');
  assert.notEqual(slow.code, 0);
  assert.equal(slow.stderr.trim(), 'Error from server (BadRequest): container "app" in pod "slow" is waiting to start: ContainerCreating');
  const raw = await kubectl('get', '--raw', '/api/v1/namespaces/default/pods/web/log?container=sidecar');
  assert.match(raw.stderr, /container sidecar is not valid for pod web/);
});

test('kubectl logs -f stays open while the container runs and ends when its pod is deleted', async () => {
  const applied = await kubectl('apply', '-f', serve.file('followed.yaml', pod('followed', 'nginx:1.27', 'gpu-1')));
  assert.equal(applied.code, 0, applied.stderr);
  assert.equal((await kubectl('wait', '--for=condition=Ready', 'pod/followed', '--timeout=60s')).code, 0);
  const follow = followKubectl(serve.kubeconfig, ['logs', '-f', 'followed', '-v=6']);
  let ended = false;
  void follow.exited.then(() => (ended = true));
  // -v=6 logs the answer's status line once the server has sent its head: the stream is open, and stays so.
  await follow.next(/GET https:\/\/\S+\/api\/v1\/namespaces\/default\/pods\/followed\/log\?\S*follow=true\S* 200 OK/, 'stderr');
  assert.equal((await kubectl('get', 'pod', 'followed', '-o', 'name')).stdout.trim(), 'pod/followed');
  assert.equal(ended, false);
  const deleted = await kubectl('delete', 'pod', 'followed', '--wait=false');
  assert.equal(deleted.code, 0, deleted.stderr);
  assert.equal(await follow.exited, 0);
  assert.deepEqual(follow.lines, []);
});

test('kubectl cordon and uncordon patch spec.unschedulable', async () => {
  const cordoned = await kubectl('cordon', 'gpu-1');
  assert.equal(cordoned.code, 0, cordoned.stderr);
  assert.equal(cordoned.stdout.trim(), 'node/gpu-1 cordoned');
  assert.equal((await kubectl('get', 'node', 'gpu-1', '-o', 'jsonpath={.spec.unschedulable}')).stdout, 'true');
  const table = await kubectl('get', 'node', 'gpu-1', '--no-headers');
  assert.match(table.stdout, /^gpu-1\s+Ready,SchedulingDisabled\s/);
  const uncordoned = await kubectl('uncordon', 'gpu-1');
  assert.equal(uncordoned.stdout.trim(), 'node/gpu-1 uncordoned');
  assert.equal((await kubectl('get', 'node', 'gpu-1', '-o', 'jsonpath={.spec.unschedulable}')).stdout, '');
});

test('kubectl drain cordons the node and evicts its pods (policy/v1 Eviction) until they are gone', async () => {
  const drained = await kubectl('drain', 'big-1', '--ignore-daemonsets', '--force', '--timeout=60s');
  assert.equal(drained.code, 0, drained.stderr);
  assert.match(drained.stdout, /^node\/big-1 cordoned$/m);
  assert.match(drained.stdout, /^evicting pod default\/web$/m);
  assert.match(drained.stdout, /^pod\/web evicted$/m);
  assert.match(drained.stdout, /^node\/big-1 drained$/m);
  const gone = await kubectl('get', 'pod', 'web');
  assert.match(gone.stderr, /Error from server \(NotFound\): pods "web" not found/);
});

test('kubectl get events -w lists the events, then streams each new one as the recorder writes it', async () => {
  const applied = await kubectl('apply', '-f', serve.file('watched.yaml', pod('watched', 'nginx:1.27', 'gpu-1')));
  assert.equal(applied.code, 0, applied.stderr);
  const ready = await kubectl('wait', '--for=condition=Ready', 'pod/watched', '--timeout=60s');
  assert.equal(ready.code, 0, ready.stderr);
  const watch = followKubectl(serve.kubeconfig, ['get', 'events', '-w', '--field-selector', 'involvedObject.name=watched']);
  try {
    // The list shows the events so far; the kubelet's Killing comes only after the delete, over the watch.
    await watch.next(/\bStarted\b.*pod\/watched/);
    assert.equal(watch.lines.filter((l) => /Killing/.test(l)).length, 0);
    const deleted = await kubectl('delete', 'pod', 'watched', '--wait=false');
    assert.equal(deleted.code, 0, deleted.stderr);
    const killing = await watch.next(/\bKilling\b/);
    assert.match(killing, /Normal\s+Killing\s+pod\/watched\s+Stopping container app/);
  } finally {
    watch.stop();
  }
});
