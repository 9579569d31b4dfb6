// Builders for scheduler tests, after kube-scheduler's st.MakePod() and st.MakeNode(): small chains instead of YAML.
import type { Container, Node, NodeSelectorRequirement, NodeSelectorTerm, Pod, Taint, Toleration } from '../../../src/engine/api/types';
import { Random } from '../../../src/engine/runtime/random';
import { isSleep, type Steps } from '../../../src/engine/runtime/step';
import type { TraceInput } from '../../../src/engine/runtime/recorder';
import { CycleState } from '../../../src/engine/scheduler/framework/cycle-state';
import type { Framework } from '../../../src/engine/scheduler/framework/framework';
import type { NodeScore, Plugin, ScorePlugin } from '../../../src/engine/scheduler/framework/interfaces';
import { newDefaultFramework, scheduleCycle, type ScheduleCycleInput, type ScheduleResult } from '../../../src/engine/scheduler/framework/runner';
import { Snapshot } from '../../../src/engine/scheduler/framework/snapshot';
import { viewOf, type PluginStatus, type StatusView } from '../../../src/engine/scheduler/framework/status';

type Quantities = Record<string, string>;

/** PodBuilder builds a Pod step by step. */
export class PodBuilder {
  readonly pod: Pod;

  constructor(name: string, namespace: string) {
    this.pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace, uid: `uid-${namespace}-${name}` }, spec: { containers: [] } };
  }

  private get spec(): NonNullable<Pod['spec']> {
    return this.pod.spec!;
  }

  /** req adds a container with these requests, as st.MakePod().Req does. */
  req(requests: Quantities): this {
    const i = this.spec.containers.length;
    this.spec.containers.push({ name: `c${i}`, image: 'pause', resources: { requests } });
    return this;
  }

  /** container adds a container running an image, without requests. */
  container(image: string): this {
    this.spec.containers.push({ name: `c${this.spec.containers.length}`, image });
    return this;
  }

  /** initReq adds an init container with these requests; sidecar makes it restartPolicy Always. */
  initReq(requests: Quantities, sidecar = false): this {
    const init: Container = { name: `i${this.spec.initContainers?.length ?? 0}`, image: 'pause', resources: { requests } };
    if (sidecar) init.restartPolicy = 'Always';
    (this.spec.initContainers ??= []).push(init);
    return this;
  }

  /** initImage adds an init container running an image. */
  initImage(image: string): this {
    (this.spec.initContainers ??= []).push({ name: `i${this.spec.initContainers?.length ?? 0}`, image });
    return this;
  }

  /** overhead sets spec.overhead. */
  overhead(quantities: Quantities): this {
    this.spec.overhead = quantities;
    return this;
  }

  /** podRequests sets pod-level spec.resources.requests. */
  podRequests(requests: Quantities): this {
    (this.spec as { resources?: { requests: Quantities } }).resources = { requests };
    return this;
  }

  /** toleration adds a toleration. */
  toleration(t: Toleration): this {
    (this.spec.tolerations ??= []).push(t);
    return this;
  }

  /** nodeSelector sets spec.nodeSelector. */
  nodeSelector(labels: Record<string, string>): this {
    this.spec.nodeSelector = labels;
    return this;
  }

  /** requiredTerms sets the required node affinity terms. */
  requiredTerms(...terms: NodeSelectorTerm[]): this {
    const na = this.nodeAffinity();
    na.requiredDuringSchedulingIgnoredDuringExecution = { nodeSelectorTerms: terms };
    return this;
  }

  /** preferred adds a preferred node affinity term. */
  preferred(weight: number, ...matchExpressions: NodeSelectorRequirement[]): this {
    const na = this.nodeAffinity();
    (na.preferredDuringSchedulingIgnoredDuringExecution ??= []).push({ weight, preference: { matchExpressions } });
    return this;
  }

  private nodeAffinity(): NonNullable<NonNullable<NonNullable<Pod['spec']>['affinity']>['nodeAffinity']> {
    this.spec.affinity ??= {};
    return (this.spec.affinity.nodeAffinity ??= {});
  }

  /** hostPort adds a container with a host port. */
  hostPort(port: number, protocol = 'TCP', hostIP?: string): this {
    this.spec.containers.push({ name: `c${this.spec.containers.length}`, image: 'pause', ports: [{ containerPort: port, hostPort: port, protocol, ...(hostIP ? { hostIP } : {}) }] });
    return this;
  }

  /** priority sets spec.priority. */
  priority(p: number): this {
    this.spec.priority = p;
    return this;
  }

  /** preemptionPolicy sets spec.preemptionPolicy. */
  preemptionPolicy(policy: string): this {
    this.spec.preemptionPolicy = policy;
    return this;
  }

  /** node assigns the pod to a node (spec.nodeName). */
  node(name: string): this {
    this.spec.nodeName = name;
    return this;
  }

  /** schedulingGates sets spec.schedulingGates. */
  schedulingGates(...names: string[]): this {
    this.spec.schedulingGates = names.map((name) => ({ name }));
    return this;
  }

  /** obj returns the pod. */
  obj(): Pod {
    return this.pod;
  }
}

/** NodeBuilder builds a Node step by step. */
export class NodeBuilder {
  readonly node: Node;

  constructor(name: string) {
    this.node = { apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'kubernetes.io/hostname': name } }, spec: {}, status: {} };
  }

  /** capacity sets both capacity and allocatable, as st.MakeNode().Capacity does; pods defaults to 32. */
  capacity(quantities: Quantities): this {
    const q = { pods: '32', ...quantities };
    this.node.status!.capacity = q;
    this.node.status!.allocatable = { ...q };
    return this;
  }

  /** taint adds a taint. */
  taint(key: string, value: string | undefined, effect: string): this {
    const t: Taint = { key, effect };
    if (value !== undefined) t.value = value;
    (this.node.spec!.taints ??= []).push(t);
    return this;
  }

  /** label sets a label. */
  label(key: string, value: string): this {
    this.node.metadata!.labels![key] = value;
    return this;
  }

  /** unschedulable cordons the node. */
  unschedulable(): this {
    this.node.spec!.unschedulable = true;
    return this;
  }

  /** image adds an image to node.status.images. */
  image(sizeBytes: number, ...names: string[]): this {
    (this.node.status!.images ??= []).push({ names, sizeBytes });
    return this;
  }

  /** obj returns the node. */
  obj(): Node {
    return this.node;
  }
}

/** makePod starts a pod in namespace default. */
export function makePod(name = 'web', namespace = 'default'): PodBuilder {
  return new PodBuilder(name, namespace);
}

/** makeNode starts a node. */
export function makeNode(name: string): NodeBuilder {
  return new NodeBuilder(name);
}

/** MB is a mebibyte. */
export const MB = 1024 * 1024;

/** runFilter runs one plugin's PreFilter (when it has one) and Filter on one node, as the plugin tests do. */
export function runFilter(plugin: Plugin, pod: Pod, node: Node, pods: Pod[] = []): StatusView {
  const snapshot = Snapshot.build([node], pods);
  const state = new CycleState();
  if ('preFilter' in plugin) {
    const out = (plugin as { preFilter(s: CycleState, p: Pod, n: unknown[]): { status: PluginStatus } }).preFilter(state, pod, snapshot.nodeInfoList);
    if (out.status?.code === 'Skip') return { code: 'Success', reasons: [] };
    if (out.status !== null) return viewOf(out.status);
  }
  return viewOf((plugin as unknown as { filter(s: CycleState, p: Pod, n: unknown): PluginStatus }).filter(state, pod, snapshot.nodeInfoList[0]!));
}

/** runScore runs a Score plugin's PreScore, Score on every node and NormalizeScore, as kube-scheduler's plugin tests do. */
export function runScore(fw: Framework, name: string, pod: Pod, nodes: Node[], pods: Pod[] = []): NodeScore[] | StatusView {
  const snapshot = Snapshot.build(nodes, pods);
  fw.startCycle(snapshot, new Random(1));
  const plugin = fw.plugins.get(name) as ScorePlugin & Partial<{ preScore(s: CycleState, p: Pod, n: unknown[]): PluginStatus }>;
  const state = new CycleState();
  if (plugin.preScore) {
    const s = plugin.preScore(state, pod, snapshot.nodeInfoList);
    if (s !== null) return viewOf(s);
  }
  const scores: NodeScore[] = [];
  for (const ni of snapshot.nodeInfoList) {
    const s = plugin.score(state, pod, ni);
    if (typeof s !== 'number') return viewOf(s);
    scores.push({ name: ni.name, score: s });
  }
  plugin.normalizeScore?.(state, pod, scores);
  return scores;
}

/** framework returns a fresh default framework. */
export function framework(): Framework {
  return newDefaultFramework();
}

/** runCycle runs a scheduling cycle to its end and returns the trace entries and the result. */
export function runCycle(input: Omit<ScheduleCycleInput, 'random'> & { seed?: number }): { trace: TraceInput[]; result: ScheduleResult } {
  const steps: Steps<ScheduleResult> = scheduleCycle({ ...input, random: new Random(input.seed ?? 1) });
  const trace: TraceInput[] = [];
  for (;;) {
    const next = steps.next();
    if (next.done) return { trace, result: next.value };
    if (!isSleep(next.value)) trace.push(next.value);
  }
}

/** matchIn is a matchExpressions requirement key In values. */
export function matchIn(key: string, ...values: string[]): NodeSelectorRequirement {
  return { key, operator: 'In', values };
}
