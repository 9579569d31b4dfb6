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
/** deployment writes a Deployment of forty replicas: about 3,000 entries, more than a recorder keeps before it hands the oldest on. */
function deployment(name: string, cpu: string): string {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 40
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: app, image: nginx:1.27, resources: {requests: {cpu: ${cpu}, memory: 16Mi}}}]
`);
  return file;
}
const manifest = deployment('deployment', '10m');
// At 300m, 26 pods fit on the two workers: the others are Pending after a FailedScheduling and a preemption attempt,
// past the first ten pods whose steps the summary keeps as well as among them.
const crowded = deployment('crowded', '300m');

/** inMemory is the report the engine writes from the trace it kept, as the debugger and explain keep it. */
function inMemory(detail: 'summary' | 'full', file = manifest): string {
  const sim = new Simulation(loadRunFiles({ manifest: file, clusters: [], identity: { kind: 'default' } }, (p) => readInputFile(p)), detail === 'summary' ? { tableLimit: SUMMARY_LIMIT } : {});
  let text = '';
  writeResultJson(sim.run(), detail, (chunk) => { text += chunk; });
  return text;
}

/** cli runs `pod-lifecycle run --json` with its own temporary directory (or one given) and returns what it wrote. */
function cli(args: string[], tmp = mkdtempSync(join(dir, 'tmp-')), file = manifest): { stdout: string; status: number | null; tmp: string } {
  const r = spawnSync(process.execPath, [CLI, 'run', file, '--json', ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, TMPDIR: tmp, TMP: tmp, TEMP: tmp }, maxBuffer: 256 * 1024 * 1024 });
  return { stdout: r.stdout, status: r.status, tmp };
}

const cases: { name: string; args: string[]; detail: 'summary' | 'full'; file: string; status: number; pending: number }[] = [
  { name: 'summary (the default)', args: [], detail: 'summary', file: manifest, status: 0, pending: 0 },
  { name: 'full', args: ['--trace', 'full'], detail: 'full', file: manifest, status: 0, pending: 0 },
  { name: 'summary, with pods that stay Pending', args: [], detail: 'summary', file: crowded, status: 1, pending: 14 },
  { name: 'full, with pods that stay Pending', args: ['--trace', 'full'], detail: 'full', file: crowded, status: 1, pending: 14 },
];

for (const c of cases) {
  test(`spilled trace, ${c.name}: the report is byte for byte the one written from memory, and the file is gone`, () => {
    const { stdout, status, tmp } = cli(c.args, undefined, c.file);
    assert.equal(status, c.status);
    const report = JSON.parse(stdout) as { trace: unknown[]; traceLeftOut?: { entries: number; pods: number }; objects: { kind: string; status?: { phase?: string } }[] };
    assert.ok(report.trace.length + (report.traceLeftOut?.entries ?? 0) > 2 * SINK_LAG, 'the run is long enough to hand entries on');
    assert.equal(report.objects.filter((o) => o.kind === 'Pod' && o.status?.phase === 'Pending').length, c.pending);
    // The summary keeps every step of the first 10 of the 40 pods; the steps of the others are made without their
    // detail (Recorder.isQuiet), and the report says the same as the one written from the whole trace.
    assert.equal(report.traceLeftOut?.pods, c.detail === 'summary' ? 30 : undefined);
    assert.equal(stdout, inMemory(c.detail, c.file));
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
