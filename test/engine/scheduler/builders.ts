// Builders for scheduler tests, after kube-scheduler's st.MakePod() and st.MakeNode(): small chains instead of YAML.
import type { CSINode, StorageClass } from 'kubernetes-types/storage/v1';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1';
import type { KubeObject, Mutable, PersistentVolume, PersistentVolumeClaim, Volume } from '../../../src/engine/api/types';
import { listersOf } from '../../../src/engine/scheduler/framework/listers';
import type { PodAffinityTerm, TopologySpreadConstraint } from 'kubernetes-types/core/v1';
import type { Container, LabelSelector, Node, NodeSelectorRequirement, NodeSelectorTerm, Pod, Taint, Toleration } from '../../../src/engine/api/types';
import type { Listers } from '../../../src/engine/scheduler/framework/listers';
import { Random } from '../../../src/engine/runtime/random';
import { entriesOf, type Steps } from '../../../src/engine/runtime/step';
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

  /** spreadConstraint adds a topology spread constraint, as st.MakePod().SpreadConstraint does. */
  spreadConstraint(maxSkew: number, topologyKey: string, whenUnsatisfiable: string, labelSelector?: LabelSelector, extra: SpreadExtra = {}): this {
    const c: TopologySpreadConstraint = { maxSkew, topologyKey, whenUnsatisfiable, ...extra };
    if (labelSelector) c.labelSelector = labelSelector;
    (this.spec.topologySpreadConstraints ??= []).push(c);
    return this;
  }

  /** podAffinity adds a required pod affinity (or, with anti, anti-affinity) term. */
  podAffinity(term: PodAffinityTerm, anti = false): this {
    const a = this.podAffinityOf(anti);
    (a.requiredDuringSchedulingIgnoredDuringExecution ??= []).push(term);
    return this;
  }

  /** preferredPodAffinity adds a preferred pod affinity (or, with anti, anti-affinity) term. */
  preferredPodAffinity(weight: number, term: PodAffinityTerm, anti = false): this {
    const a = this.podAffinityOf(anti);
    (a.preferredDuringSchedulingIgnoredDuringExecution ??= []).push({ weight, podAffinityTerm: term });
    return this;
  }

  private podAffinityOf(anti: boolean): { requiredDuringSchedulingIgnoredDuringExecution?: PodAffinityTerm[]; preferredDuringSchedulingIgnoredDuringExecution?: { weight: number; podAffinityTerm: PodAffinityTerm }[] } {
    this.spec.affinity ??= {};
    return anti ? (this.spec.affinity.podAntiAffinity ??= {}) : (this.spec.affinity.podAffinity ??= {});
  }

  /** controlledBy sets a controller owner reference (kind, name, apiVersion). */
  controlledBy(kind: string, name: string, apiVersion = 'apps/v1'): this {
    this.pod.metadata!.ownerReferences = [{ apiVersion, kind, name, uid: `uid-${name}`, controller: true }];
    return this;
  }

  /** uid sets metadata.uid (the builder's default is `uid-<namespace>-<name>`). */
  uid(uid: string): this {
    this.meta().uid = uid;
    return this;
  }

  /** label sets a label. */
  label(key: string, value: string): this {
    (this.pod.metadata!.labels ??= {})[key] = value;
    return this;
  }

  /** startTime sets status.startTime to this many seconds after the epoch, as the API prints it. */
  startTime(seconds: number): this {
    this.status().startTime = new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
    return this;
  }

  /** terminating sets metadata.deletionTimestamp, as st.MakePod().Terminating does. */
  terminating(): this {
    this.meta().deletionTimestamp = '1970-01-01T00:00:00Z';
    return this;
  }

  /** condition adds a status condition. */
  condition(type: string, status: string, reason: string): this {
    (this.status().conditions ??= []).push({ type, status, reason });
    return this;
  }

  /** nominatedNodeName sets status.nominatedNodeName. */
  nominatedNodeName(node: string): this {
    this.status().nominatedNodeName = node;
    return this;
  }

  private meta(): Mutable<NonNullable<Pod['metadata']>> {
    return this.pod.metadata as Mutable<NonNullable<Pod['metadata']>>;
  }

  private status(): Mutable<NonNullable<Pod['status']>> {
    return ((this.pod as Mutable<Pod>).status ??= {});
  }

  /** obj returns the pod. */
  obj(): Pod {
    return this.pod;
  }
}

/** PDBBuilder builds a policy/v1 PodDisruptionBudget, after st.MakePDB(). */
export class PDBBuilder {
  readonly pdb: PodDisruptionBudget;

  constructor(name: string, namespace: string) {
    this.pdb = { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name, namespace }, spec: {}, status: { currentHealthy: 0, desiredHealthy: 0, disruptionsAllowed: 0, expectedPods: 0 } };
  }

  /** matchLabel adds a matchLabels entry to spec.selector. */
  matchLabel(key: string, value: string): this {
    const selector = (this.pdb.spec!.selector ??= {});
    (selector.matchLabels ??= {})[key] = value;
    return this;
  }

  /** minAvailable sets spec.minAvailable. */
  minAvailable(value: number | string): this {
    this.pdb.spec!.minAvailable = value;
    return this;
  }

  /** disruptionsAllowed sets status.disruptionsAllowed, what the disruption controller would have computed. */
  disruptionsAllowed(n: number): this {
    this.pdb.status!.disruptionsAllowed = n;
    return this;
  }

  /** disruptedPod lists a pod in status.disruptedPods, an eviction the API server has processed. */
  disruptedPod(name: string): this {
    (this.pdb.status!.disruptedPods ??= {})[name] = '1970-01-01T00:00:00Z';
    return this;
  }

  /** obj returns the budget. */
  obj(): PodDisruptionBudget {
    return this.pdb;
  }
}

/** makePDB starts a PodDisruptionBudget in namespace default. */
export function makePDB(name = 'pdb', namespace = 'default'): PDBBuilder {
  return new PDBBuilder(name, namespace);
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

  /** unlabel removes a label (nodes start with kubernetes.io/hostname). */
  unlabel(key: string): this {
    delete this.node.metadata!.labels![key];
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

/** scorePlugin runs one Score plugin instance (PreScore when it has one, Score on every node, NormalizeScore) without a framework. */
export function scorePlugin(plugin: ScorePlugin, pod: Pod, nodes: Node[], pods: Pod[] = []): NodeScore[] | StatusView {
  const snapshot = Snapshot.build(nodes, pods);
  const state = new CycleState();
  const pre = plugin as ScorePlugin & Partial<{ preScore(s: CycleState, p: Pod, n: unknown[]): PluginStatus }>;
  if (pre.preScore) {
    const s = pre.preScore(state, pod, snapshot.nodeInfoList);
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
    trace.push(...entriesOf(next.value));
  }
}

/** matchIn is a matchExpressions requirement key In values. */
export function matchIn(key: string, ...values: string[]): NodeSelectorRequirement {
  return { key, operator: 'In', values };
}

/** SpreadExtra are the optional fields of a topology spread constraint. */
export type SpreadExtra = Pick<TopologySpreadConstraint, 'minDomains' | 'nodeAffinityPolicy' | 'nodeTaintsPolicy' | 'matchLabelKeys'>;

/** exists is a label selector `key Exists`, as st.MakeLabelSelector().Exists(key). */
export function exists(key: string): LabelSelector {
  return { matchExpressions: [{ key, operator: 'Exists' }] };
}

/** affinityTerm is a pod affinity term over a topology key with a label selector and optional namespaces. */
export function affinityTerm(topologyKey: string, labelSelector: LabelSelector, extra: Omit<PodAffinityTerm, 'topologyKey' | 'labelSelector'> = {}): PodAffinityTerm {
  return { topologyKey, labelSelector, ...extra };
}

/** PluginRun is what runPreFilterAndFilter found: PreFilter's status and, when it let Filter run, each node's verdict. */
export interface PluginRun {
  preFilter: StatusView;
  nodes: Record<string, StatusView>;
}

/**
 * runPreFilterAndFilter starts a cycle on the framework (snapshot of the nodes and pods, listers), runs one plugin's
 * PreFilter over all nodes and, unless it skipped or failed, its Filter on every node.
 */
export function runPreFilterAndFilter(fw: Framework, plugin: Plugin, pod: Pod, nodes: Node[], pods: Pod[] = [], listers?: Listers): PluginRun {
  const snapshot = Snapshot.build(nodes, pods);
  fw.startCycle(snapshot, new Random(1), listers);
  const state = new CycleState();
  const p = plugin as Plugin & { preFilter(s: CycleState, p: Pod, n: readonly unknown[]): { status: PluginStatus }; filter(s: CycleState, p: Pod, n: unknown): PluginStatus };
  const preFilter = viewOf(p.preFilter(state, pod, snapshot.nodeInfoList).status);
  const out: PluginRun = { preFilter, nodes: {} };
  if (preFilter.code !== 'Success') return out;
  for (const ni of snapshot.nodeInfoList) out.nodes[ni.name] = viewOf(p.filter(state, pod, ni));
  return out;
}

/**
 * runScoreOn runs one plugin's PreScore on the feasible nodes, Score on each and NormalizeScore, in a cycle whose
 * snapshot holds the feasible and the failed nodes, as kube-scheduler's scoring tests do with nodes and failedNodes.
 */
export function runScoreOn(fw: Framework, plugin: ScorePlugin, pod: Pod, feasible: Node[], failed: Node[] = [], pods: Pod[] = [], listers?: Listers): NodeScore[] | StatusView {
  const snapshot = Snapshot.build([...feasible, ...failed], pods);
  fw.startCycle(snapshot, new Random(1), listers);
  const names = new Set(feasible.map((n) => n.metadata?.name));
  const infos = snapshot.nodeInfoList.filter((ni) => names.has(ni.name));
  const state = new CycleState();
  const p = plugin as ScorePlugin & Partial<{ preScore(s: CycleState, p: Pod, n: readonly unknown[]): PluginStatus }>;
  if (p.preScore) {
    const s = p.preScore(state, pod, infos);
    if (s !== null) return viewOf(s);
  }
  const scores: NodeScore[] = [];
  for (const ni of infos) {
    const s = p.score(state, pod, ni);
    if (typeof s !== 'number') return viewOf(s);
    scores.push({ name: ni.name, score: s });
  }
  const n = p.normalizeScore?.(state, pod, scores) ?? null;
  return n === null ? scores : viewOf(n);
}

// ---- Volumes: after st.MakePersistentVolumeClaim(), st.MakePersistentVolume() and the volumebinding test helpers. ----

/** PVCBuilder builds a PersistentVolumeClaim step by step. */
export class PVCBuilder {
  readonly pvc: Mutable<PersistentVolumeClaim>;

  constructor(name: string, namespace: string) {
    this.pvc = { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name, namespace, uid: `uid-pvc-${namespace}-${name}`, resourceVersion: '1' }, spec: { accessModes: ['ReadWriteOnce'] }, status: { phase: 'Pending' } };
  }

  /** storageClass sets spec.storageClassName. */
  storageClass(name: string): this {
    this.pvc.spec!.storageClassName = name;
    return this;
  }

  /** request sets spec.resources.requests.storage. */
  request(storage: string): this {
    this.pvc.spec!.resources = { requests: { storage } };
    return this;
  }

  /** accessModes replaces spec.accessModes. */
  accessModes(...modes: string[]): this {
    this.pvc.spec!.accessModes = modes;
    return this;
  }

  /** volumeName pre-binds the claim to a PV (spec.volumeName only: the PV controller has not completed it). */
  volumeName(pv: string): this {
    this.pvc.spec!.volumeName = pv;
    return this;
  }

  /** boundTo is a claim the PV controller bound: volumeName, the bind-completed annotation and phase Bound (makePVC().withBoundPV). */
  boundTo(pv: string): this {
    this.volumeName(pv).annotation('pv.kubernetes.io/bind-completed', 'yes');
    this.pvc.status!.phase = 'Bound';
    return this;
  }

  /** phase sets status.phase. */
  phase(phase: string): this {
    this.pvc.status!.phase = phase;
    return this;
  }

  /** annotation sets an annotation. */
  annotation(key: string, value: string): this {
    (this.pvc.metadata!.annotations ??= {})[key] = value;
    return this;
  }

  /** terminating sets metadata.deletionTimestamp. */
  terminating(): this {
    this.pvc.metadata!.deletionTimestamp = '1970-01-01T00:00:00Z';
    return this;
  }

  /** ownedBy makes the pod the claim's controller, as the ephemeral volume controller does. */
  ownedBy(pod: Pod): this {
    this.pvc.metadata!.ownerReferences = [{ apiVersion: 'v1', kind: 'Pod', name: pod.metadata?.name ?? '', uid: pod.metadata?.uid ?? '', controller: true }];
    return this;
  }

  /** obj returns the claim. */
  obj(): PersistentVolumeClaim {
    return this.pvc as PersistentVolumeClaim;
  }
}

/** PVBuilder builds a PersistentVolume step by step. */
export class PVBuilder {
  readonly pv: Mutable<PersistentVolume>;

  constructor(name: string) {
    this.pv = { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name, resourceVersion: '1' }, spec: { accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' } }, status: { phase: 'Available' } };
  }

  /** storageClass sets spec.storageClassName. */
  storageClass(name: string): this {
    this.pv.spec!.storageClassName = name;
    return this;
  }

  /** capacity sets spec.capacity.storage. */
  capacity(storage: string): this {
    this.pv.spec!.capacity = { storage };
    return this;
  }

  /** accessModes replaces spec.accessModes. */
  accessModes(...modes: string[]): this {
    this.pv.spec!.accessModes = modes;
    return this;
  }

  /** nodeAffinity adds a required term `key In values` (makePV().withNodeAffinity). */
  nodeAffinity(key: string, ...values: string[]): this {
    this.pv.spec!.nodeAffinity = { required: { nodeSelectorTerms: [{ matchExpressions: [{ key, operator: 'In', values }] }] } };
    return this;
  }

  /** local makes it a local volume on a node: a local path and node affinity to the node's hostname. */
  local(node: string, path = '/mnt/disks/vol1'): this {
    this.pv.spec!.local = { path };
    return this.nodeAffinity('kubernetes.io/hostname', node);
  }

  /** phase sets status.phase. */
  phase(phase: string): this {
    this.pv.status!.phase = phase;
    return this;
  }

  /** claimRef binds (or pre-binds) the volume to a claim. */
  claimRef(name: string, namespace = 'default', uid?: string): this {
    this.pv.spec!.claimRef = { kind: 'PersistentVolumeClaim', namespace, name, ...(uid ? { uid } : {}) };
    return this;
  }

  /** label sets a label. */
  label(key: string, value: string): this {
    (this.pv.metadata!.labels ??= {})[key] = value;
    return this;
  }

  /** csi sets a CSI source. */
  csi(driver: string, volumeHandle: string): this {
    this.pv.spec!.csi = { driver, volumeHandle };
    return this;
  }

  /** awsEBS sets an in-tree AWS EBS source. */
  awsEBS(volumeID: string): this {
    this.pv.spec!.awsElasticBlockStore = { volumeID };
    return this;
  }

  /** obj returns the volume. */
  obj(): PersistentVolume {
    return this.pv as PersistentVolume;
  }
}

/** makePVC starts a ReadWriteOnce claim in namespace default. */
export function makePVC(name: string, namespace = 'default'): PVCBuilder {
  return new PVCBuilder(name, namespace);
}

/** makePV starts an Available 1Gi ReadWriteOnce volume. */
export function makePV(name: string): PVBuilder {
  return new PVBuilder(name);
}

/** makeStorageClass is a StorageClass; `provisioner` '' stands for a class that cannot provision. */
export function makeStorageClass(name: string, mode: 'Immediate' | 'WaitForFirstConsumer', provisioner = 'kubernetes.io/no-provisioner', allowedTopologies?: { key: string; values: string[] }[]): StorageClass {
  const sc: StorageClass = { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name }, provisioner, volumeBindingMode: mode };
  if (allowedTopologies) sc.allowedTopologies = [{ matchLabelExpressions: allowedTopologies }];
  return sc;
}

/** makeCSINode is a node's CSINode with drivers and their attach limits (undefined: no limit). */
export function makeCSINode(node: string, ...drivers: { name: string; count?: number; topologyKeys?: string[] }[]): CSINode {
  return {
    apiVersion: 'storage.k8s.io/v1', kind: 'CSINode', metadata: { name: node },
    spec: { drivers: drivers.map((d) => ({ name: d.name, nodeID: node, ...(d.count !== undefined ? { allocatable: { count: d.count } } : {}), ...(d.topologyKeys ? { topologyKeys: d.topologyKeys } : {}) })) },
  };
}

/** pvcVolume is a pod volume using a claim. */
export function pvcVolume(claimName: string, name = claimName): Volume {
  return { name, persistentVolumeClaim: { claimName } };
}

/** withVolumes adds volumes to a pod being built. */
export function withVolumes(builder: PodBuilder, ...volumes: Volume[]): PodBuilder {
  (builder.pod.spec!.volumes ??= []).push(...volumes);
  return builder;
}

/** kubeObjects types API objects for listersOf. */
export function kubeObjects(...objects: object[]): KubeObject[] {
  return objects as KubeObject[];
}

/** VolumeRun is one plugin's PreFilter status and Filter status per node, as the volume plugins' Go tests compare them. */
export interface VolumeRun {
  preFilter: StatusView;
  filter: StatusView[];
  state: CycleState;
  fw: Framework;
}

/**
 * runVolumePlugin runs a plugin of the default framework over a cluster of nodes, assigned pods and other objects: PreFilter
 * once, then Filter on every node (not run after a rejecting or skipping PreFilter: Success there, as the Go tests expect).
 * Passing the framework of an earlier run keeps its plugins' state (VolumeBinding's assumed volumes).
 */
export function runVolumePlugin(name: string, pod: Pod, nodes: Node[], pods: Pod[], objects: object[], fw: Framework = framework()): VolumeRun {
  const snapshot = Snapshot.build(nodes, pods);
  fw.startCycle(snapshot, new Random(1), listersOf(kubeObjects(...nodes, ...objects)));
  const plugin = fw.plugins.get(name) as Plugin & { preFilter(s: CycleState, p: Pod, n: unknown[]): { status: PluginStatus }; filter(s: CycleState, p: Pod, n: unknown): PluginStatus };
  const state = new CycleState();
  const pre = plugin.preFilter(state, pod, snapshot.nodeInfoList).status;
  const ran = pre === null;
  const filter = snapshot.nodeInfoList.map((ni) => (ran ? viewOf(plugin.filter(state, pod, ni)) : viewOf(null)));
  return { preFilter: viewOf(pre), filter, state, fw };
}

/**
 * unevenCluster is six nodes of three zones (`z0`–`z2`, disks `hdd`/`ssd` in turn), unequally loaded by six `app: web`
 * pods, two with a PreferNoSchedule taint and one holding the image `nginx:1.27`: every Score plugin of the default
 * profile has something to say about them, and most normalize.
 */
export function unevenCluster(): { nodes: Node[]; pods: Pod[] } {
  const nodes = [0, 1, 2, 3, 4, 5].map((i) => {
    const n = makeNode(`n${i}`).capacity({ cpu: '8', memory: '16Gi', pods: '110' }).label('topology.kubernetes.io/zone', `z${i % 3}`).label('disk', i % 2 ? 'ssd' : 'hdd');
    if (i === 1 || i === 4) n.taint('soft', 'x', 'PreferNoSchedule');
    if (i === 5) n.image(500 * 1024 * 1024, 'nginx:1.27');
    return n.obj();
  });
  const pods = [0, 0, 2, 3, 3, 3].map((node, k) => makePod(`old-${k}`, 'default').label('app', 'web').node(`n${node}`).req({ cpu: `${k + 1}`, memory: `${k + 1}Gi` }).obj());
  return { nodes, pods };
}
