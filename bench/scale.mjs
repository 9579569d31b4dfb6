// The whole simulation at a real cluster's size: the CLI as a process (`node dist/cli.js run ... --json`) on a Deployment
// of R replicas and a cluster file of N nodes, for R in {1, 100, 1000, 10000} and N in {10, 1000, 5000}. Prints wall
// time, CPU time, peak RSS, JSON bytes, pods Running and pods/s per run, then the growth exponents fitted over R and N.
// With --runs K each cell runs K times, one after the other, and the fastest run is shown (the machine's speed varies
// from run to run; the fastest is the one least slowed by others).
// Usage: npm run build && node bench/scale.mjs [--replicas 1,100,1000] [--nodes 10,1000] [--timeout 600] [--trace summary] [--runs K]
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeInputs } from './scale-inputs.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (flag, fallback) => {
  const i = process.argv.indexOf(flag);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const REPLICAS = arg('--replicas', '1,100,1000,10000').split(',').map(Number);
const NODES = arg('--nodes', '10,1000,5000').split(',').map(Number);
const TIMEOUT_S = Number(arg('--timeout', '600'));
const TRACE = arg('--trace', 'summary');
const RUNS = Math.max(1, Number(arg('--runs', '1')) || 1);
const dir = mkdtempSync(join(tmpdir(), 'pod-lifecycle-scale-'));

/** runOnce runs the CLI once and measures it; the JSON is counted as it streams, never held. */
function runOnce(r, n) {
  const { manifest, cluster } = writeInputs(dir, r, n);
  return new Promise((resolve) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, ['--require', join(root, 'bench', 'rusage.cjs'), join(root, 'dist', 'cli.js'), 'run', manifest, '--cluster', cluster, '--json', '--trace', TRACE,
      // The budget is raised to the run's size (about 80 steps and 2 objects per replica): the bench measures, not bounds.
      '--max-steps', String(Math.max(1_000_000, r * 100)), '--max-objects', String(Math.max(20_000, 2 * r + n + 1000))], {
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    });
    let bytes = 0;
    let running = 0;
    let inObjects = true;
    let tail = '';
    let usage = '';
    let stderr = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      bytes += Buffer.byteLength(chunk);
      if (!inObjects) return;
      // Pods Running are counted in the report's objects, which come before its events.
      const text = tail + chunk;
      const end = text.indexOf('\n  "events": [');
      const part = end >= 0 ? text.slice(0, end) : text;
      running += (part.match(/"phase": "Running"/g) ?? []).length - (tail.match(/"phase": "Running"/g) ?? []).length;
      if (end >= 0) inObjects = false;
      tail = text.slice(-40);
    });
    child.stdio[3].on('data', (d) => { usage += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_S * 1000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const wallS = Number(process.hrtime.bigint() - start) / 1e9;
      const u = usage ? JSON.parse(usage) : undefined;
      resolve({ r, n, code, signal, wallS, cpuS: u ? (u.userMs + u.systemMs) / 1000 : NaN, rssMiB: u ? u.maxRssKiB / 1024 : NaN, bytes, running, error: stderr.trim().split('\n')[0] });
    });
  });
}

/** slope fits log(y) = a + b log(x) by least squares and returns b. */
function slope(points) {
  const pts = points.filter(([x, y]) => x > 0 && y > 0 && Number.isFinite(y)).map(([x, y]) => [Math.log(x), Math.log(y)]);
  if (pts.length < 2) return NaN;
  const mx = pts.reduce((s, [x]) => s + x, 0) / pts.length;
  const my = pts.reduce((s, [, y]) => s + y, 0) / pts.length;
  const num = pts.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const den = pts.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return num / den;
}

const rows = [];
console.log(`pod-lifecycle run --json --trace ${TRACE}${RUNS > 1 ? `, fastest of ${RUNS} runs` : ''}, Deployment of R replicas (10m CPU, 16Mi each) on N nodes (8 CPU, 32Gi, 110 pods)`);
console.log('     R      N    wall s     CPU s   RSS MiB    JSON MiB   Running     pods/s  exit');
for (const n of NODES) {
  for (const r of REPLICAS) {
    let m = await runOnce(r, n);
    for (let i = 1; i < RUNS; i++) {
      const again = await runOnce(r, n);
      if (again.wallS < m.wallS) m = again;
    }
    rows.push(m);
    const podsPerS = m.running / m.wallS;
    console.log(`${String(r).padStart(6)} ${String(n).padStart(6)} ${m.wallS.toFixed(2).padStart(9)} ${m.cpuS.toFixed(2).padStart(9)} ${m.rssMiB.toFixed(0).padStart(9)} ${(m.bytes / 1048576).toFixed(1).padStart(11)} ${String(m.running).padStart(9)} ${podsPerS.toFixed(0).padStart(10)}  ${m.signal ?? m.code}${m.signal ? ` (timeout ${TIMEOUT_S}s)` : ''}${m.code === 2 ? ` ${m.error}` : ''}`);
  }
}
const ok = rows.filter((m) => m.code === 0 || m.code === 1);
console.log('\ngrowth exponents (least squares on log-log, runs with R >= 100):');
for (const n of NODES) {
  const at = ok.filter((m) => m.n === n && m.r >= 100);
  console.log(`  N=${n}: wall ~ R^${slope(at.map((m) => [m.r, m.wallS])).toFixed(2)}, CPU ~ R^${slope(at.map((m) => [m.r, m.cpuS])).toFixed(2)}, RSS ~ R^${slope(at.map((m) => [m.r, m.rssMiB])).toFixed(2)}`);
}
for (const r of REPLICAS) {
  const at = ok.filter((m) => m.r === r);
  console.log(`  R=${r}: wall ~ N^${slope(at.map((m) => [m.n, m.wallS])).toFixed(2)}, RSS ~ N^${slope(at.map((m) => [m.n, m.rssMiB])).toFixed(2)}`);
}
