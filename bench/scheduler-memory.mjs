// Memory of the scheduler's state at scale: 5,000 nodes holding 150,000 pods (templates/pod-default.yaml). 145,000 pods
// come bound (the cache's initial list, Snapshot.build), the last 5,000 are placed by scheduleOne and assumed with
// snapshot.addPod. Prints the peak resident set and heap. Run after `npx tsc -p tsconfig.test.json`.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createRequire } from 'node:module';
import { makeNodes, memoryFigures, Placer, report, Templates } from './scheduler-perf.mjs';

const require = createRequire(import.meta.url);
const { Snapshot } = require('../out/src/engine/scheduler/framework/snapshot.js');

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');
const mib = (n) => `${(n / 1024 / 1024).toFixed(1)} MiB`;

const NODES = 5000;
const TOTAL_PODS = Number(process.env.TOTAL_PODS ?? 150000);
const SCHEDULED_PODS = 5000;
let peakHeap = 0;
const sample = () => { peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed); };

const nodes = makeNodes(NODES);
const bound = [];
for (let i = 0; i < TOTAL_PODS - SCHEDULED_PODS; i++) {
  const p = Templates.default(i, `namespace-${i % 10}`);
  p.spec.nodeName = nodes[i % NODES].metadata.name;
  p.status.phase = 'Running';
  bound.push(p);
}
const placer = new Placer([]);
let start = process.hrtime.bigint();
placer.snapshot = Snapshot.build(nodes, bound);
const buildSeconds = Number(process.hrtime.bigint() - start) / 1e9;
sample();
const pending = Array.from({ length: SCHEDULED_PODS }, (_, i) => Templates.default(TOTAL_PODS + i, 'namespace-10'));
const cpu = process.cpuUsage();
start = process.hrtime.bigint();
for (let i = 0; i < pending.length; i++) {
  placer.place(pending[i]);
  if (i % 500 === 0) sample();
}
const seconds = Number(process.hrtime.bigint() - start) / 1e9;
const used = process.cpuUsage(cpu);
placer.cpuSeconds = (used.user + used.system) / 1e6;
sample();
console.log(`memory ${NODES} nodes, ${TOTAL_PODS} pods: Snapshot.build of ${bound.length} bound pods in ${(buildSeconds * 1000).toFixed(0)} ms`);
report(`memory ${NODES} nodes, ${TOTAL_PODS} pods`, placer, SCHEDULED_PODS, seconds);
memoryFigures(`memory ${NODES} nodes, ${TOTAL_PODS} pods`);
console.log(`memory ${NODES} nodes, ${TOTAL_PODS} pods peak heap used (sampled): ${mib(peakHeap)}`);
gc();
console.log(`memory ${NODES} nodes, ${TOTAL_PODS} pods live heap after GC: ${mib(process.memoryUsage().heapUsed)} (${bound.length + placer.scheduled} pods held)`);
