// kube-controller-manager's client rate limit set by a cluster file's ClusterProfile (--kube-api-qps, --kube-api-burst),
// through the CLI as a process: how fast a ReplicaSet of 100 creates its pods, and a limit client-go refuses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { CLI, ROOT } from './harness';

const NODES = 'test/fixtures/webhooks/nodes.yaml';
const MANIFEST = 'test/fixtures/apps/deployment-100.yaml';

function run(...clusters: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, 'run', MANIFEST, ...clusters.flatMap((c) => ['--cluster', c]), '--json', '--trace', 'none'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 256 * 1024 * 1024 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

// The last pod's creationTimestamp (the first is at 00:00:00): 20 a second after a burst of 30 by default, all within
// the burst of a big cluster's 100 and 200.
const cases: { name: string; clusters: string[]; last: string }[] = [
  { name: 'the manager\'s defaults, 20 and 30', clusters: [NODES], last: '2026-01-01T00:00:04Z' },
  { name: 'a ClusterProfile raising them to 100 and 200', clusters: [NODES, 'test/fixtures/apps/controller-manager-fast.yaml'], last: '2026-01-01T00:00:00Z' },
];
for (const c of cases) {
  test(`controller manager rate limit: ${c.name}`, () => {
    const r = run(...c.clusters);
    assert.equal(r.status, 0, r.stderr);
    const report = JSON.parse(r.stdout) as { objects: { kind: string; metadata: { creationTimestamp: string } }[] };
    const times = report.objects.filter((o) => o.kind === 'Pod').map((o) => o.metadata.creationTimestamp).sort();
    assert.equal(times.length, 100);
    assert.deepEqual([times[0], times.at(-1)], ['2026-01-01T00:00:00Z', c.last]);
  });
}

test('controller manager rate limit: a QPS without a burst is refused in client-go\'s words, at its line', () => {
  const r = run(NODES, 'test/fixtures/apps/controller-manager-no-burst.yaml');
  assert.equal(r.status, 2);
  assert.equal(r.stderr.trim(), 'error: test/fixtures/apps/controller-manager-no-burst.yaml:6: controllerManager.kubeAPIBurst: burst is required to be greater than 0 when RateLimiter is not set and QPS is set to greater than 0');
});
