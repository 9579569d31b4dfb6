// Full lifecycles (kubectl apply → Running → kubectl delete → gone) per second for examples/pod.yaml,
// run in-process on the embedded cluster, then the same through the CLI as a process. Needs the compiled engine
// (`npx tsc -p tsconfig.test.json`) and the bundle (`npm run build`).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { loadRunFiles } = require('../out/src/engine/cluster/files.js');
const { Simulation } = require('../out/src/engine/simulation.js');

const read = (p) => readFileSync(p, 'utf8');
const files = { manifest: 'examples/pod.yaml', clusters: [], identity: { kind: 'default' } };

function lifecycle(seed) {
  const sim = new Simulation(loadRunFiles(files, read), { seed, delete: {} });
  const result = sim.run();
  if (result.outcome !== 'Deleted') throw new Error(`unexpected outcome ${result.outcome}`);
  return result.trace.length;
}

for (let i = 0; i < 20; i++) lifecycle(i); // warm up
const runs = 300;
const start = process.hrtime.bigint();
let entries = 0;
for (let i = 0; i < runs; i++) entries += lifecycle(i);
const seconds = Number(process.hrtime.bigint() - start) / 1e9;
const heapMiB = process.memoryUsage().heapUsed / 1024 / 1024;
console.log(`lifecycles/s (create → Running → delete, examples/pod.yaml): ${(runs / seconds).toFixed(1)}`);
console.log(`ms per lifecycle: ${((seconds * 1000) / runs).toFixed(2)} (load + run, ${Math.round(entries / runs)} trace entries each)`);
console.log(`heap used after ${runs} runs: ${heapMiB.toFixed(1)} MiB`);

// The same lifecycle as a user runs it: the CLI as a process, spawn to exit (loading Node and the bundle included).
const { spawnSync } = require('node:child_process');
const cliRuns = 10;
const cliTimes = [];
for (let i = 0; i < cliRuns; i++) {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['dist/cli.js', 'run', 'examples/pod.yaml', '--delete', '--json', '--seed', String(i)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`pod-lifecycle run exited ${r.status}: ${r.stderr}`);
  cliTimes.push(Number(process.hrtime.bigint() - t) / 1e6);
}
cliTimes.sort((a, b) => a - b);
console.log(`CLI as a process (node dist/cli.js run examples/pod.yaml --delete --json): median ${cliTimes[cliRuns >> 1].toFixed(0)} ms, fastest ${cliTimes[0].toFixed(0)} ms of ${cliRuns}`);
