// The shapes of kube-scheduler's scheduler_perf workloads (test/integration/scheduler_perf: templates/node-default.yaml,
// pod-default.yaml, pod-with-node-affinity.yaml, pod-with-pod-anti-affinity.yaml) and the loop that places pods one
// scheduling cycle at a time, as the scheduler does: scheduleOne, then assume the pod in the snapshot (snapshot.addPod).
// Needs the compiled engine: `npx tsc -p tsconfig.test.json`.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { scheduleOne, newDefaultFramework } = require('../out/src/engine/scheduler/framework/runner.js');
const { Snapshot } = require('../out/src/engine/scheduler/framework/snapshot.js');
const { Random } = require('../out/src/engine/runtime/random.js');

/** HOSTNAME_LABEL is the label scheduler_perf's node preparer gives every node (its name). */
export const HOSTNAME_LABEL = 'kubernetes.io/hostname';
/** ZONE_LABEL is the label labelNodePrepareStrategy sets in the NodeAffinity workload. */
export const ZONE_LABEL = 'topology.kubernetes.io/zone';

/**
 * makeNodes builds templates/node-default.yaml n times: 4 cpu, 32Gi, 110 pods (allocatable defaults to capacity, as
 * the API server's SetDefaults_NodeStatus does), named and labelled as IntegrationTestNodePreparer does, plus `labels`.
 */
export function makeNodes(n, labels = {}) {
  const nodes = [];
  for (let i = 0; i < n; i++) {
    const name = `scheduler-perf-${String(i).padStart(5, '0')}`;
    const capacity = { pods: '110', cpu: '4', memory: '32Gi' };
    nodes.push({
      apiVersion: 'v1', kind: 'Node',
      metadata: { name, uid: `node-${i}`, labels: { [HOSTNAME_LABEL]: name, ...labels } },
      spec: {},
      status: { capacity, allocatable: { ...capacity }, conditions: [{ type: 'Ready', status: 'True' }], phase: 'Running' },
    });
  }
  return nodes;
}

/** pauseContainer is the container of every scheduler_perf pod template: 100m cpu, 500Mi memory, port 80 (no hostPort). */
function pauseContainer() {
  return {
    name: 'pause', image: 'registry.k8s.io/pause:3.10.1', ports: [{ containerPort: 80 }],
    resources: { limits: { cpu: '100m', memory: '500Mi' }, requests: { cpu: '100m', memory: '500Mi' } },
  };
}

function pod(name, namespace, spec, labels) {
  return {
    apiVersion: 'v1', kind: 'Pod',
    metadata: { name, namespace, uid: `${namespace}-${name}`, ...(labels ? { labels } : {}) },
    spec: { schedulerName: 'default-scheduler', priority: 0, ...spec, containers: [pauseContainer()] },
    status: { phase: 'Pending' },
  };
}

/** Templates are the pod templates of the workloads, each a function of the pod's index and namespace. */
export const Templates = {
  /** default is templates/pod-default.yaml. */
  default: (i, ns = 'default') => pod(`pod-${i}`, ns, {}),
  /** nodeAffinity is templates/pod-with-node-affinity.yaml: required zone In (zone1, zone2). */
  nodeAffinity: (i, ns = 'default') => pod(`node-affinity-${i}`, ns, {
    affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [
      { matchExpressions: [{ key: ZONE_LABEL, operator: 'In', values: ['zone1', 'zone2'] }] },
    ] } } },
  }),
  /** podAntiAffinity is templates/pod-with-pod-anti-affinity.yaml: color=green, required anti-affinity on the hostname. */
  podAntiAffinity: (i, ns = 'default') => pod(`anti-affinity-pod-${i}`, ns, {
    affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [
      { labelSelector: { matchLabels: { color: 'green' } }, topologyKey: HOSTNAME_LABEL, namespaces: ['sched-1', 'sched-0'] },
    ] } },
  }, { color: 'green' }),
};

/** Placer runs scheduling cycles over one snapshot and one framework, carrying nextStartNodeIndex from cycle to cycle. */
export class Placer {
  constructor(nodes, seed = 1) {
    this.snapshot = Snapshot.build(nodes);
    this.framework = newDefaultFramework();
    this.random = new Random(seed);
    this.nextStartNodeIndex = 0;
    this.scheduled = 0;
    this.failed = 0;
    this.evaluated = 0;
    this.feasible = 0;
  }

  /** place runs one cycle for the pod and, when a node is chosen, assumes the pod there. It returns the result. */
  place(p) {
    const result = scheduleOne({ pod: p, snapshot: this.snapshot, random: this.random, nextStartNodeIndex: this.nextStartNodeIndex, framework: this.framework });
    this.nextStartNodeIndex = result.nextStartNodeIndex;
    this.evaluated += result.evaluatedNodes;
    this.feasible += result.feasibleNodes;
    if (result.outcome === 'Scheduled') {
      p.spec.nodeName = result.suggestedHost;
      this.snapshot.addPod(p);
      this.scheduled++;
    } else {
      this.failed++;
    }
    return result;
  }

  /**
   * placeAll places every pod and returns the seconds it took, wall clock; cpuSeconds keeps the process's CPU time for
   * them, the steadier figure when other processes share the machine's cores.
   */
  placeAll(pods) {
    const cpu = process.cpuUsage();
    const start = process.hrtime.bigint();
    for (const p of pods) this.place(p);
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    const used = process.cpuUsage(cpu);
    this.cpuSeconds = (used.user + used.system) / 1e6;
    return seconds;
  }

  /** resetCounts forgets the counts of the setup phase. */
  resetCounts() {
    this.scheduled = this.failed = this.evaluated = this.feasible = 0;
  }
}

/** pluginImplements tells whether the framework runs a plugin at an extension point (placeholders run nowhere). */
export function pluginImplements(framework, name, point) {
  const list = { PreFilter: framework.preFilterPlugins, Filter: framework.filterPlugins, Score: framework.scorePlugins }[point];
  return list.some((p) => p.name === name);
}

/** report prints the throughput figures of a measured phase, one per line. */
export function report(label, placer, count, seconds) {
  console.log(`${label} pods/s: ${(count / seconds).toFixed(1)}`);
  console.log(`${label} ms per pod: ${((seconds * 1000) / count).toFixed(3)}`);
  if (placer.cpuSeconds !== undefined) console.log(`${label} pods per CPU second: ${(count / placer.cpuSeconds).toFixed(1)} (${placer.cpuSeconds.toFixed(2)} s of CPU, garbage collection included)`);
  console.log(`${label} scheduled: ${placer.scheduled} of ${count} (evaluated ${Math.round(placer.evaluated / count)} nodes, ${Math.round(placer.feasible / count)} feasible per cycle)`);
}

/** memoryFigures prints the peak resident set and the heap in use. */
export function memoryFigures(label) {
  const mib = (n) => (n / 1024 / 1024).toFixed(1);
  const { heapUsed, heapTotal, rss } = process.memoryUsage();
  console.log(`${label} peak RSS: ${mib(process.resourceUsage().maxRSS * 1024)} MiB`);
  console.log(`${label} RSS now: ${mib(rss)} MiB`);
  console.log(`${label} heap used: ${mib(heapUsed)} MiB (heap total ${mib(heapTotal)} MiB)`);
}
