// Full lifecycles (kubectl apply → Running → kubectl delete → gone) per second for examples/pod.yaml,
// run in-process on the embedded cluster. Needs the compiled engine: `npx tsc -p tsconfig.test.json`.
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
