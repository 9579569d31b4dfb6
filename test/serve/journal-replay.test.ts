// The journal of a served cluster driven by the real kubectl: a fresh Simulation of the same inputs and options fed
// the journal makes the same trace as the live cluster made, entry by entry (seq, phase, object, result). kubectl
// must be on PATH: without it this test fails and says so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadClusterFiles } from '../../src/engine/cluster/files';
import type { TraceEntry } from '../../src/engine/runtime/recorder';
import { Simulation } from '../../src/engine/simulation';
import { readInputFile } from '../../src/host/read-file';
import { JournalDivergence, ServeJournal } from '../../src/serve/journal';
import { LiveCluster, liveOptions } from '../../src/serve/live-cluster';
import { serveCluster, trustServePki } from '../../src/serve/serving';

/** kubectl runs the real kubectl to its end. */
function kubectl(kubeconfig: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn('kubectl', args, { env: { ...process.env, KUBECONFIG: kubeconfig } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    child.on('error', (e) => reject((e as NodeJS.ErrnoException).code === 'ENOENT' ? new Error('kubectl is not on PATH: this test drives the real kubectl against the served cluster') : e));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** line is what the comparison reads of an entry. */
const line = (e: TraceEntry): string => `${e.seq} ${e.phase} ${e.object ?? ''} ${e.result}`;

const SECRET = 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: creds\nstringData:\n  password: hunter2\n';
const POD = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: app\n    image: nginx:1.27\n';

const cases: { name: string; files: Record<string, string>; commands: string[][] }[] = [
  {
    name: 'a pod applied, waited for Ready, read and deleted',
    files: { 'pod.yaml': POD },
    commands: [['apply', '-f', 'pod.yaml'], ['wait', '--for=condition=Ready', 'pod/web', '--timeout=60s'], ['get', 'pod', 'web', '-o', 'yaml'], ['delete', 'pod', 'web', '--wait=true']],
  },
  {
    name: 'a Secret, a Deployment created and scaled, a patch, and a review',
    files: { 'secret.yaml': SECRET },
    commands: [
      ['apply', '-f', 'secret.yaml'], ['create', 'deployment', 'api', '--image=nginx:1.27', '--replicas=2'], ['rollout', 'status', 'deployment/api', '--timeout=60s'],
      ['scale', 'deployment/api', '--replicas=1'], ['label', 'deployment/api', 'tier=backend'], ['auth', 'can-i', 'create', 'pods'],
    ],
  },
];

for (const c of cases) {
  test(`A fresh Simulation fed the journal of ${c.name} makes the live cluster's trace, entry by entry`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pod-lifecycle-journal-'));
    const kubeconfig = join(dir, 'kubeconfig');
    for (const [name, text] of Object.entries(c.files)) writeFileSync(join(dir, name), text);
    const inputs = loadClusterFiles({ clusters: [] }, (p) => readInputFile(p));
    const pki = trustServePki(inputs);
    const options = liveOptions(7);
    const journal = new ServeJournal();
    const live = new Simulation(inputs, options);
    const served = await serveCluster(new LiveCluster(live, { speed: 20, journal }), pki, { kubeconfigOut: kubeconfig });
    try {
      for (const args of c.commands) {
        const out = await kubectl(kubeconfig, args.map((a) => (a in c.files ? join(dir, a) : a)));
        assert.equal(out.code, 0, `kubectl ${args.join(' ')}: ${out.stderr}`);
      }
    } finally {
      await served.close();
      rmSync(dir, { recursive: true, force: true });
    }
    const replayed = new Simulation(inputs, options);
    const replay = journal.replay(replayed);
    while (replay.step());
    const want = live.trace.map(line);
    assert.ok(want.length > 50, `the live cluster made ${want.length} entries`);
    assert.deepEqual(replayed.trace.slice(0, want.length).map(line), want);
    assert.ok(journal.length < want.length, `the journal (${journal.length} operations) is smaller than the trace (${want.length} entries)`);
    // The comparison tells: fed the same journal, a Simulation of another seed goes another way.
    const other = new Simulation(inputs, { ...options, seed: 8 });
    let differs: boolean;
    try {
      const otherReplay = journal.replay(other);
      while (otherReplay.step());
      differs = JSON.stringify(other.trace.slice(0, want.length).map(line)) !== JSON.stringify(want);
    } catch (e) {
      differs = e instanceof JournalDivergence;
    }
    assert.ok(differs, 'another seed makes another trace');
  });
}
