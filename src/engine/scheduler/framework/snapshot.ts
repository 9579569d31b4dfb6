// Snapshot: the NodeInfo of every node, built once and updated pod by pod, as the scheduler cache's snapshot.
// See pkg/scheduler/backend/cache/snapshot.go and cache.go (image states, terminal pods left out).
import type { Node, Pod } from '../../api/types';
import { NodeInfo, PodInfo, type ImageStateSummary } from './node-info';

/** TERMINAL_PHASES are the pod phases the scheduler's pod informer filters out: such pods hold no resources. */
export const TERMINAL_PHASES: ReadonlySet<string> = new Set(['Succeeded', 'Failed']);

/** Snapshot lists the NodeInfos in node order and finds them by name. */
export class Snapshot {
  readonly nodeInfoList: NodeInfo[];
  private readonly byName: Map<string, NodeInfo>;

  private constructor(list: NodeInfo[]) {
    this.nodeInfoList = list;
    this.byName = new Map(list.map((ni) => [ni.name, ni]));
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
    return true;
  }

  /** removePod forgets a pod from its node. */
  removePod(pod: Pod): boolean {
    const ni = this.byName.get(pod.spec?.nodeName ?? '');
    return ni ? ni.removePod(pod) : false;
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
