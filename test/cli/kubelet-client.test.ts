// The kubelet's client rate limit, through the CLI as a process: each pod status the status manager sends is a GET and
// a PATCH, and its final delete a DELETE, through the kubelet's client (KubeletConfiguration kubeAPIQPS 50,
// kubeAPIBurst 100: pkg/kubelet/apis/config/v1beta1/defaults.go; syncPod in pkg/kubelet/status/status_manager.go,
// v1.36.3). Fifty pods starting at once on a node outrun its burst: the later statuses wait, a pod's latest replacing
// its earlier one, and the API server sees them up to a second later.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { CLI, ROOT } from './harness';

interface Report {
  outcome: string;
  trace: { at: number; phase: string; object?: string; result: string; outcome?: string }[];
  objects: { kind: string; status?: { phase?: string; conditions?: { type: string; lastTransitionTime?: string }[] } }[];
}

const NODES = 'test/fixtures/webhooks/nodes.yaml';
const FAST_MANAGER = 'test/fixtures/apps/controller-manager-unlimited.yaml';

function spawn(...args: string[]) {
  return spawnSync(process.execPath, [CLI, 'run', 'test/fixtures/kubelet/dense-nodes.yaml', '--cluster', NODES, ...args, '--json', '--trace', 'full'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 256 * 1024 * 1024 });
}

function run(...args: string[]): Report {
  const r = spawn(...args);
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as Report;
}

const waitsOf = (r: Report, verb: string) => r.trace.filter((e) => e.phase === 'kubelet.status' && e.result.startsWith(`kubelet's client waits 20ms before it sends ${verb} `));

const cases: { name: string; args: string[]; deferred: number; lastSentAt?: number }[] = [
  // 50 pods a worker, two statuses each (admitted, started), two requests a status: the first 25 pods' go at once.
  { name: 'fifty pods starting at once on a node: the later statuses wait and go a second later', args: ['--cluster', FAST_MANAGER], deferred: 100, lastSentAt: 1.04 },
  // At the controller manager's default 20 creates a second the pods come too slowly to outrun the burst.
  { name: 'pods that come 20 a second never outrun the burst', args: [], deferred: 0 },
  // A ClusterProfile's kubelet section raises the limit, as big nodes do.
  { name: 'a ClusterProfile raising the kubelets\' limit to 500 and 1000 sends every status at once', args: ['--cluster', FAST_MANAGER, '--cluster', 'test/fixtures/kubelet/kubelet-fast.yaml'], deferred: 0 },
];
for (const c of cases) {
  test(`kubelet client: ${c.name}`, () => {
    const r = run(...c.args);
    const deferred = r.trace.filter((e) => e.phase === 'kubelet.status' && e.outcome === 'waiting' && / the status manager sends it once the kubelet's client allows \(50 requests a second after a burst of 100: kubeAPIQPS, kubeAPIBurst\)/.test(e.result));
    assert.equal(deferred.length, c.deferred);
    const pods = r.objects.filter((o) => o.kind === 'Pod');
    assert.equal(pods.filter((p) => p.status?.phase === 'Running').length, 100);
    if (c.lastSentAt === undefined) return;
    assert.match(waitsOf(r, 'GET')[0]?.result ?? '', /^kubelet's client waits 20ms before it sends GET \/api\/v1\/namespaces\/default\/pods\/dense-[a-z0-9]+-[a-z0-9]{5}: its rate limiter allows 50 requests a second after a burst of 100 \(kubeAPIQPS, kubeAPIBurst\)$/);
    const sent = r.trace.filter((e) => e.phase === 'kubelet.status' && e.result.startsWith('sent once the kubelet\'s client allowed: '));
    assert.equal(Math.round(Math.max(...sent.map((e) => e.at)) * 100) / 100, c.lastSentAt);
    // The conditions keep the time the kubelet saw them, not the time they were sent.
    assert.ok(pods.every((p) => p.status?.conditions?.find((x) => x.type === 'Ready')?.lastTransitionTime === '2026-01-01T00:00:00Z'));
  });
}

test('kubelet client: the final deletes of a hundred pods wait behind their statuses, paced by the client', () => {
  const r = run('--cluster', FAST_MANAGER, '--delete');
  assert.equal(r.outcome, 'Deleted');
  const removed = r.trace.filter((e) => e.phase === 'apiserver.finalize' && /^removed Pod /.test(e.result)).map((e) => e.at);
  assert.equal(removed.length, 100);
  assert.ok(waitsOf(r, 'DELETE').length > 0, 'some deletes wait for the client');
  // The deletion starts at 2 s; the last pod goes two seconds later, not at once.
  assert.deepEqual([Math.min(...removed), Math.round(Math.max(...removed) * 100) / 100], [2.04, 4.04]);
});

test('kubelet client: a negative limit is refused in the kubelet\'s words, at its line', () => {
  const r = spawn('--cluster', 'test/fixtures/kubelet/kubelet-negative-qps.yaml');
  assert.equal(r.status, 2);
  assert.equal(r.stderr.trim(), 'error: test/fixtures/kubelet/kubelet-negative-qps.yaml:5: kubelet.kubeAPIQPS: invalid configuration: kubeAPIQPS (--kube-api-qps) -5 must not be a negative number');
});
