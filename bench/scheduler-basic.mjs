// kube-scheduler's SchedulingBasic/5000Nodes_10000Pods (scheduler_perf misc/performance-config.yaml): 5,000 nodes,
// 1,000 pods placed first, then 10,000 pods placed and timed, one scheduleOne per pod. Run after `npx tsc -p tsconfig.test.json`.
import { makeNodes, memoryFigures, Placer, report, Templates } from './scheduler-perf.mjs';

const INIT_NODES = 5000;
const INIT_PODS = 1000;
const MEASURE_PODS = Number(process.env.MEASURE_PODS ?? 10000);

const placer = new Placer(makeNodes(INIT_NODES));
const init = Array.from({ length: INIT_PODS }, (_, i) => Templates.default(i, 'namespace-1'));
const initSeconds = placer.placeAll(init); // also warms the JIT up
if (placer.failed > 0) throw new Error(`${placer.failed} init pods did not schedule`);
placer.resetCounts();
const measured = Array.from({ length: MEASURE_PODS }, (_, i) => Templates.default(INIT_PODS + i, 'namespace-2'));
const seconds = placer.placeAll(measured);
console.log(`SchedulingBasic 5000 nodes: ${INIT_PODS} init pods in ${(initSeconds * 1000).toFixed(0)} ms`);
report('SchedulingBasic 5000 nodes', placer, MEASURE_PODS, seconds);
memoryFigures('SchedulingBasic 5000 nodes');
