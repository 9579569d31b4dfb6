// Snapshot: the NodeInfo of every node, built once and updated pod by pod, as the scheduler cache's snapshot.
// See pkg/scheduler/backend/cache/snapshot.go and cache.go (image states, terminal pods left out).
import type { Node, Pod } from '../../api/types';
import { DomainCounts } from './domain-counts';
import { NodeInfo, PodInfo, podWithAffinity, type ImageStateSummary } from './node-info';

/** TERMINAL_PHASES are the pod phases the scheduler's pod informer filters out: such pods hold no resources. */
export const TERMINAL_PHASES: ReadonlySet<string> = new Set(['Succeeded', 'Failed']);

/** ARRAY_INDEX is a name JavaScript orders before the others among an object's keys (a canonical array index). */
const ARRAY_INDEX = /^(0|[1-9][0-9]*)$/;
const MAX_ARRAY_INDEX = 2 ** 32 - 2;

/** listedBy finds the snapshot a node list belongs to, so that helpers given a plugin's `nodes` can use its lists. */
const listedBy = new WeakMap<readonly NodeInfo[], Snapshot>();

/**
 * havePodsWithAffinity is the nodes with a pod that has pod affinity or anti-affinity, in order: the snapshot's kept list
 * when `nodes` is a snapshot's nodeInfoList, else `nodes` filtered.
 */
export function havePodsWithAffinity(nodes: readonly NodeInfo[]): readonly NodeInfo[] {
  return listedBy.get(nodes)?.havePodsWithAffinityNodeInfoList ?? nodes.filter((ni) => ni.podsWithAffinity.length > 0);
}

/** havePodsWithRequiredAntiAffinity is havePodsWithAffinity for the nodes with a pod that has required anti-affinity. */
export function havePodsWithRequiredAntiAffinity(nodes: readonly NodeInfo[]): readonly NodeInfo[] {
  const snapshot = listedBy.get(nodes);
  return snapshot?.havePodsWithRequiredAntiAffinityNodeInfoList ?? nodes.filter((ni) => ni.podsWithRequiredAntiAffinity.length > 0);
}

/** Snapshot lists the NodeInfos in node order and finds them by name. */
export class Snapshot {
  readonly nodeInfoList: NodeInfo[];
  /** nodeNames are the node names in node order, computed once: the node list of a snapshot never changes. */
  readonly nodeNames: readonly string[];
  /**
   * plainNodeNames is true when the names are unique and none is an array index ("0", "42"): a record keyed by node
   * name then lists its keys in node order, so the trace can count and print from arrays without building the record.
   */
  readonly plainNodeNames: boolean;
  private readonly byName: Map<string, NodeInfo>;
  /** affinityLists are the havePodsWith... lists, computed when first asked for after a change that may alter them. */
  private affinityLists: { withAffinity: NodeInfo[]; withRequiredAntiAffinity: NodeInfo[] } | undefined;
  /** indexOfNode is each NodeInfo's place in nodeInfoList, made when the affinity lists first change. */
  private indexOfNode: Map<NodeInfo, number> | undefined;
  /** usedPVCs counts the pods mounting each claim (`namespace/name`), computed like affinityLists. */
  private usedPVCs: Map<string, number> | undefined;
  /** domainCounts are the per-domain sums of matching pods PodTopologySpread reads, kept as pods come and go. */
  readonly domainCounts = new DomainCounts();

  private constructor(list: NodeInfo[]) {
    this.nodeInfoList = list;
    this.byName = new Map(list.map((ni) => [ni.name, ni]));
    this.nodeNames = Object.freeze(list.map((ni) => ni.name));
    this.plainNodeNames = this.byName.size === list.length && !this.nodeNames.some(isArrayIndex);
    listedBy.set(list, this);
  }

  /** build makes the NodeInfos of the nodes, accounts the assigned non-terminal pods and the image spread. */
  static build(nodes: readonly Node[], pods: readonly Pod[] = []): Snapshot {
    const snapshot = new Snapshot(nodes.map((n) => new NodeInfo(n)));
    for (const pod of pods) snapshot.addPod(pod);
    snapshot.computeImageStates();
    return snapshot;
  }

  /** numNodes is the number of nodes. */
  get numNodes(): number {
    return this.nodeInfoList.length;
  }

  /** get returns a node's NodeInfo. */
  get(name: string): NodeInfo | undefined {
    return this.byName.get(name);
  }

  /** addPod accounts a pod on its spec.nodeName (as the cache does on assume or on a bound pod); it returns whether it did. */
  addPod(pod: Pod): boolean {
    const nodeName = pod.spec?.nodeName;
    if (!nodeName || TERMINAL_PHASES.has(pod.status?.phase ?? '')) return false;
    const ni = this.byName.get(nodeName);
    if (!ni) return false;
    ni.addPod(new PodInfo(pod));
    this.domainCounts.podAdded(ni, pod);
    if (this.affinityLists && podWithAffinity(pod)) this.listAffinityNode(ni);
    if (this.usedPVCs && pod.spec?.volumes?.some((v) => v.persistentVolumeClaim)) this.usedPVCs = undefined;
    return true;
  }

  /**
   * updatePod takes a newer version of a pod in place of the old one on its node, when nothing the snapshot accounts
   * changed (NodeInfo.updatePod: a status write); false otherwise, and the caller removes and adds it.
   */
  updatePod(old: Pod, pod: Pod): boolean {
    if (TERMINAL_PHASES.has(pod.status?.phase ?? '')) return false;
    return this.byName.get(pod.spec?.nodeName ?? '')?.updatePod(old, pod) === true;
  }

  /** removePod forgets a pod from its node. */
  removePod(pod: Pod): boolean {
    const ni = this.byName.get(pod.spec?.nodeName ?? '');
    const removed = ni?.removePod(pod);
    if (!removed) return false;
    this.domainCounts.podRemoved(ni!, removed.pod);
    // The pod removed is the node's copy (matched by uid), which may differ from the one given: what it had decides.
    // A pod whose status changed is removed and added again: the kept lists change only for pods that are in them.
    if (this.affinityLists && podWithAffinity(removed.pod)) this.unlistAffinityNode(ni!);
    if (removed.pod.spec?.volumes?.some((v) => v.persistentVolumeClaim)) this.usedPVCs = undefined;
    return true;
  }

  /** havePodsWithAffinityNodeInfoList lists, in node order, the nodes with a pod that has pod affinity or anti-affinity. */
  get havePodsWithAffinityNodeInfoList(): readonly NodeInfo[] {
    return this.affinity().withAffinity;
  }

  /** havePodsWithRequiredAntiAffinityNodeInfoList lists, in node order, the nodes with a pod that has required anti-affinity. */
  get havePodsWithRequiredAntiAffinityNodeInfoList(): readonly NodeInfo[] {
    return this.affinity().withRequiredAntiAffinity;
  }

  /** isPVCUsedByPods tells whether a pod on some node mounts the claim (StorageInfos().IsPVCUsedByPods). */
  isPVCUsedByPods(namespace: string, claimName: string): boolean {
    this.usedPVCs ??= this.countPVCs();
    return (this.usedPVCs.get(`${namespace}/${claimName}`) ?? 0) > 0;
  }

  /**
   * affinity builds the lists as the scheduler cache's UpdateSnapshot does, so that InterPodAffinity walks only the
   * nodes that matter instead of every node each cycle. NodeInfo keeps the per-node lists; this keeps the nodes.
   */
  private affinity(): { withAffinity: NodeInfo[]; withRequiredAntiAffinity: NodeInfo[] } {
    this.affinityLists ??= {
      withAffinity: this.nodeInfoList.filter((ni) => ni.podsWithAffinity.length > 0),
      withRequiredAntiAffinity: this.nodeInfoList.filter((ni) => ni.podsWithRequiredAntiAffinity.length > 0),
    };
    return this.affinityLists;
  }

  /**
   * listAffinityNode puts a node that got a pod with affinity into the kept lists it now belongs to, in node order:
   * placing such pods one by one then costs a binary search, not a pass over every node.
   */
  private listAffinityNode(ni: NodeInfo): void {
    const lists = this.affinityLists!;
    if (ni.podsWithAffinity.length > 0) insertInNodeOrder(lists.withAffinity, ni, this.nodeIndex());
    if (ni.podsWithRequiredAntiAffinity.length > 0) insertInNodeOrder(lists.withRequiredAntiAffinity, ni, this.nodeIndex());
  }

  /** unlistAffinityNode takes a node out of the kept lists it no longer belongs to. */
  private unlistAffinityNode(ni: NodeInfo): void {
    const lists = this.affinityLists!;
    if (ni.podsWithAffinity.length === 0) removeNode(lists.withAffinity, ni);
    if (ni.podsWithRequiredAntiAffinity.length === 0) removeNode(lists.withRequiredAntiAffinity, ni);
  }

  private nodeIndex(): Map<NodeInfo, number> {
    return (this.indexOfNode ??= new Map(this.nodeInfoList.map((ni, i) => [ni, i])));
  }

  private countPVCs(): Map<string, number> {
    const used = new Map<string, number>();
    for (const ni of this.nodeInfoList) {
      for (const pi of ni.pods) {
        for (const v of pi.pod.spec?.volumes ?? []) {
          if (!v.persistentVolumeClaim) continue;
          const key = `${pi.pod.metadata?.namespace ?? ''}/${v.persistentVolumeClaim.claimName}`;
          used.set(key, (used.get(key) ?? 0) + 1);
        }
      }
    }
    return used;
  }

  private computeImageStates(): void {
    const numNodes = new Map<string, number>();
    for (const ni of this.nodeInfoList) {
      const seen = new Set<string>();
      for (const image of ni.node.status?.images ?? []) for (const name of image.names ?? []) seen.add(name);
      for (const name of seen) numNodes.set(name, (numNodes.get(name) ?? 0) + 1);
    }
    for (const ni of this.nodeInfoList) {
      const states = new Map<string, ImageStateSummary>();
      for (const image of ni.node.status?.images ?? []) {
        for (const name of image.names ?? []) states.set(name, { size: image.sizeBytes ?? 0, numNodes: numNodes.get(name) ?? 0 });
      }
      ni.imageStates = states;
    }
  }
}

function isArrayIndex(name: string): boolean {
  return ARRAY_INDEX.test(name) && Number(name) <= MAX_ARRAY_INDEX;
}

/** insertInNodeOrder inserts a node into a list kept in node order, unless it is there. */
function insertInNodeOrder(list: NodeInfo[], ni: NodeInfo, index: ReadonlyMap<NodeInfo, number>): void {
  const at = index.get(ni)!;
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (index.get(list[mid]!)! < at) lo = mid + 1;
    else hi = mid;
  }
  if (list[lo] !== ni) list.splice(lo, 0, ni);
}

function removeNode(list: NodeInfo[], ni: NodeInfo): void {
  const i = list.indexOf(ni);
  if (i >= 0) list.splice(i, 1);
}
