// @kubernetes/client-node, a real client library no one on this project wrote, against `pod-lifecycle serve`: it
// loads the kubeconfig serve writes, creates a pod, lists pods, and watches one from ADDED to Running.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { type ServeProcess, startServe } from './serve-process';

type ClientNode = typeof import('@kubernetes/client-node', { with: { 'resolution-mode': 'import' } });
type Pod = { metadata?: { name?: string; resourceVersion?: string }; status?: { phase?: string } };

let serve: ServeProcess;
let k8s: ClientNode;

before(async () => {
  // The library is an ES module: loaded as one.
  k8s = await import('@kubernetes/client-node');
  serve = await startServe('client-node', 'apiVersion: podlifecycle.debug/v1alpha1\nkind: Behavior\n', 50);
});

after(() => serve?.stop());

test('client-node lists, watches from the list\'s resourceVersion, creates a pod and sees it ADDED then Running', async () => {
  const kc = new k8s.KubeConfig();
  kc.loadFromFile(serve.kubeconfig);
  const core = kc.makeApiClient(k8s.CoreV1Api);
  const empty = await core.listNamespacedPod({ namespace: 'default' });
  assert.deepEqual(empty.items, []);
  assert.ok(Number(empty.metadata?.resourceVersion) > 0);
  // The watch starts from the list's resourceVersion, as an informer's does, before the pod exists.
  const seen: string[] = [];
  let runningPod: (pod: Pod) => void = () => undefined;
  let failed: (err: unknown) => void = () => undefined;
  const running = new Promise<Pod>((resolve, reject) => {
    runningPod = resolve;
    failed = reject;
  });
  const request = await new k8s.Watch(kc).watch('/api/v1/namespaces/default/pods', { resourceVersion: empty.metadata?.resourceVersion }, (type: string, pod: Pod) => {
    seen.push(type);
    if (pod.status?.phase === 'Running') runningPod(pod);
  }, (err: unknown) => {
    if (err) failed(err);
  });
  const created = await core.createNamespacedPod({ namespace: 'default', body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web' }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } } });
  assert.equal(created.metadata?.name, 'web');
  const pod = await running;
  request.abort();
  assert.equal(pod.metadata?.name, 'web');
  assert.equal(seen[0], 'ADDED');
  assert.ok(seen.slice(1).every((t) => t === 'MODIFIED'), seen.join(', '));
  const list = await core.listNamespacedPod({ namespace: 'default' });
  assert.deepEqual(list.items.map((p: Pod) => [p.metadata?.name, p.status?.phase]), [['web', 'Running']]);
});
