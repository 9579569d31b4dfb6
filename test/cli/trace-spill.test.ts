// `run` hands its trace on as it goes, so that a big run holds the cluster and not every decision about it: --json lays
// the entries out into a temporary file of its own and copies it into the report. The report is the one the engine
// would write from the trace kept in memory, the file is gone when the command ends (however it ends), and without a
// temporary directory to write to the trace stays in memory.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'node:test';
import { loadRunFiles } from '../../src/engine/cluster/files';
import { SUMMARY_LIMIT, writeResultJson } from '../../src/engine/report/json';
import { SINK_LAG } from '../../src/engine/runtime/recorder';
import { Simulation } from '../../src/engine/simulation';
import { readInputFile } from '../../src/host/read-file';
import { CLI, hangUpAfterFirstPiece, ROOT } from './harness';

const dir = mkdtempSync(join(tmpdir(), 'pod-lifecycle-spill-'));
// Forty replicas make about 3,000 entries: more than a recorder keeps before it hands the oldest on.
const manifest = join(dir, 'deployment.yaml');
writeFileSync(manifest, `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 40
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: app, image: nginx:1.27, resources: {requests: {cpu: 10m, memory: 16Mi}}}]
`);

/** inMemory is the report the engine writes from the trace it kept, as the debugger and explain keep it. */
function inMemory(detail: 'summary' | 'full'): string {
  const sim = new Simulation(loadRunFiles({ manifest, clusters: [], identity: { kind: 'default' } }, (p) => readInputFile(p)), detail === 'summary' ? { tableLimit: SUMMARY_LIMIT } : {});
  let text = '';
  writeResultJson(sim.run(), detail, (chunk) => { text += chunk; });
  return text;
}

/** cli runs `pod-lifecycle run --json` with its own temporary directory (or one given) and returns what it wrote. */
function cli(args: string[], tmp = mkdtempSync(join(dir, 'tmp-'))): { stdout: string; status: number | null; tmp: string } {
  const r = spawnSync(process.execPath, [CLI, 'run', manifest, '--json', ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, TMPDIR: tmp, TMP: tmp, TEMP: tmp }, maxBuffer: 256 * 1024 * 1024 });
  return { stdout: r.stdout, status: r.status, tmp };
}

const cases: { name: string; args: string[]; detail: 'summary' | 'full' }[] = [
  { name: 'summary (the default)', args: [], detail: 'summary' },
  { name: 'full', args: ['--trace', 'full'], detail: 'full' },
];

for (const c of cases) {
  test(`spilled trace, ${c.name}: the report is byte for byte the one written from memory, and the file is gone`, () => {
    const { stdout, status, tmp } = cli(c.args);
    assert.equal(status, 0);
    const report = JSON.parse(stdout) as { trace: unknown[]; traceLeftOut?: { entries: number; pods: number } };
    assert.ok(report.trace.length + (report.traceLeftOut?.entries ?? 0) > 2 * SINK_LAG, 'the run is long enough to hand entries on');
    // The summary keeps every step of the first 10 of the 40 pods.
    assert.equal(report.traceLeftOut?.pods, c.detail === 'summary' ? 30 : undefined);
    assert.equal(stdout, inMemory(c.detail));
    assert.deepEqual(readdirSync(tmp), []);
  });
}

test('spilled trace: without a temporary directory to write to, the trace stays in memory and the report is the same', () => {
  const { stdout, status } = cli([], join(dir, 'no-such-directory'));
  assert.equal(status, 0);
  assert.equal(stdout, inMemory('summary'));
});

test('spilled trace: a reader that goes away after the first piece leaves no file behind', async () => {
  const tmp = mkdtempSync(join(dir, 'tmp-'));
  const { code, stderr } = await hangUpAfterFirstPiece(['run', manifest, '--json'], { ...process.env, TMPDIR: tmp });
  assert.equal(stderr, '');
  assert.equal(code, 0);
  assert.deepEqual(readdirSync(tmp), []);
});
