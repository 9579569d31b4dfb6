// kube-scheduler's affinity workloads (scheduler_perf affinity/performance-config.yaml) on 5,000 nodes, one scheduleOne per pod:
// SchedulingNodeAffinity/5000Nodes_10000Pods (every node zone=zone1; 5,000 pods placed, then 10,000 timed) and
// SchedulingPodAntiAffinity/5000Nodes_2000Pods (1,000 pods placed in sched-0, then 2,000 timed in sched-1).
// Run after `npx tsc -p tsconfig.test.json`; SHAPE=node or SHAPE=pod runs one of them.
import { makeNodes, memoryFigures, Placer, pluginImplements, report, Templates, ZONE_LABEL } from './scheduler-perf.mjs';

const NODES = 5000;
const scale = Number(process.env.SCALE ?? 1);
const shape = process.env.SHAPE ?? 'all';

function run(label, nodes, template, init, measure) {
  const placer = new Placer(nodes);
  const initPods = Array.from({ length: init.count }, (_, i) => template(i, init.namespace));
  const initSeconds = placer.placeAll(initPods);
  if (placer.failed > 0) throw new Error(`${label}: ${placer.failed} init pods did not schedule`);
  placer.resetCounts();
  const pods = Array.from({ length: measure.count }, (_, i) => template(init.count + i, measure.namespace));
  const seconds = placer.placeAll(pods);
  console.log(`${label}: ${init.count} init pods in ${(initSeconds * 1000).toFixed(0)} ms`);
  report(label, placer, measure.count, seconds);
  return placer;
}

if (shape === 'all' || shape === 'node') {
  run('SchedulingNodeAffinity 5000 nodes', makeNodes(NODES, { [ZONE_LABEL]: 'zone1' }), Templates.nodeAffinity,
    { count: 5000 * scale, namespace: 'namespace-1' }, { count: 10000 * scale, namespace: 'namespace-1' });
}
if (shape === 'all' || shape === 'pod') {
  const placer = run('SchedulingPodAntiAffinity 5000 nodes', makeNodes(NODES), Templates.podAntiAffinity,
    { count: 1000 * scale, namespace: 'sched-0' }, { count: 2000 * scale, namespace: 'sched-1' });
  // Until InterPodAffinity is simulated its placeholder runs at no extension point and this shape measures the rest.
  const active = pluginImplements(placer.framework, 'InterPodAffinity', 'Filter');
  console.log(`SchedulingPodAntiAffinity 5000 nodes InterPodAffinity filter: ${active ? 'simulated' : 'placeholder (not run)'}`);
}
memoryFigures('affinity');
