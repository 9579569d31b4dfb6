// The emulated kubectl against the real one: for each manifest, what `pod-lifecycle run` says kubectl printed, and
// what the real kubectl prints applying the same file (same path, same cwd) to `pod-lifecycle serve` on the same
// cluster. Where they differ, ours (or serve's Status) is wrong. kubectl must be on PATH: without it these fail.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const ROOT = join(__dirname, '..', '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const dir = mkdtempSync(join(tmpdir(), 'pod-lifecycle-parity-'));
const servers: ChildProcess[] = [];

/** serve starts `pod-lifecycle serve` on the cluster files and resolves with its kubeconfig. */
async function serve(clusters: string[]): Promise<string> {
  const kubeconfig = join(dir, `kubeconfig-${servers.length}`);
  const child = spawn(process.execPath, [CLI, 'serve', ...clusters.flatMap((c) => ['--cluster', c]), '--kubeconfig-out', kubeconfig], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  servers.push(child);
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => line === `export KUBECONFIG=${kubeconfig}` && resolve());
  });
  return kubeconfig;
}

/** realKubectl applies the file with the real kubectl and returns everything it printed. */
function realKubectl(kubeconfig: string, file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('kubectl', ['apply', '-f', file], { cwd: ROOT, env: { ...process.env, KUBECONFIG: kubeconfig } }, (err, stdout, stderr) => {
      if (err && (err as NodeJS.ErrnoException).code === 'ENOENT') return reject(new Error('kubectl is not on PATH: this test compares our kubectl with the real one'));
      resolve(`${stdout}${stderr}`.trim());
    });
  });
}

/** ours is what `pod-lifecycle run` says kubectl printed for the same file and cluster. */
function ours(clusters: string[], file: string): string {
  const r = spawnSync(process.execPath, [CLI, 'run', file, ...clusters.flatMap((c) => ['--cluster', c]), '--json', '--trace', 'none'], { cwd: ROOT, encoding: 'utf8' });
  return String((JSON.parse(r.stdout) as { kubectl: string }).kubectl).trim();
}

const cases: { name: string; clusters: string[]; file: string }[] = [
  { name: 'a pod created', clusters: [], file: 'examples/pod.yaml' },
  { name: 'a missing PriorityClass (admission, 403)', clusters: [], file: 'test/fixtures/admission/missing-priority-class.yaml' },
  { name: 'a namespace that does not exist (404)', clusters: [], file: 'test/fixtures/admission/pod-in-dev.yaml' },
  { name: 'an unknown field (strict decoding, 400)', clusters: [], file: 'test/fixtures/decode/unknown-field.yaml' },
  { name: 'several validation causes (422)', clusters: [], file: 'test/fixtures/validation/several-causes.yaml' },
  { name: 'a duplicate container name (422)', clusters: [], file: 'test/fixtures/validation/duplicate-container.yaml' },
  { name: 'PodSecurity restricted (403)', clusters: ['test/fixtures/podsecurity/cluster.yaml'], file: 'test/fixtures/podsecurity/pod-host-network.yaml' },
  { name: 'a pod over its ResourceQuota (403)', clusters: ['test/fixtures/quota/nodes.yaml', 'test/fixtures/quota/quota-compute.yaml'], file: 'test/fixtures/quota/pod-over-quota.yaml' },
];

after(() => {
  for (const s of servers) s.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

for (const c of cases) {
  test(`kubectl apply prints the same as the real kubectl: ${c.name}`, async () => {
    // A fresh server per case: each apply meets the cluster as the run's kubectl does.
    const kubeconfig = await serve(c.clusters);
    assert.equal(await realKubectl(kubeconfig, c.file), ours(c.clusters, c.file));
  });
}
