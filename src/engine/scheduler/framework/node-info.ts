// NodeInfo: a node with the pods on it and their precomputed requests, as the scheduler cache keeps it.
// See pkg/scheduler/framework/types.go (NodeInfo, PodInfo.CalculateResource).
import type { Node, Pod } from '../../api/types';
import { getHostPorts, HostPortInfo } from './host-ports';
import { isPodLevelRequestsSet, NON_ZERO_DEFAULTS, podRequests, resourceListOf } from './pod-resources';
import { addList, addResource, newResource, ResourceName, valueOf, type Resource, type ResourceList } from './resource';

/** ImageStateSummary is an image on a node: its size and how many nodes of the cluster have it. */
export interface ImageStateSummary {
  size: number;
  numNodes: number;
}

/** PodInfo is a pod with what the scheduler computes once for it: requests, non-zero requests, host ports, priority. */
export class PodInfo {
  readonly pod: Pod;
  /** requested is the pod's effective requests (podRequests). */
  readonly requested: Resource;
  /** non0CPU is the milli-CPU the pod counts for when scoring: 100m per container that sets no cpu request. */
  readonly non0CPU: number;
  /** non0Mem is the memory the pod counts for when scoring: 200Mi per container that sets no memory request. */
  readonly non0Mem: number;

  constructor(pod: Pod) {
    this.pod = pod;
    const requests = podRequests(pod);
    this.requested = newResource();
    addList(this.requested, requests);
    const non0 = nonZeroRequests(pod, requests);
    this.non0CPU = non0.get(ResourceName.CPU) ?? 0;
    this.non0Mem = valueOf(ResourceName.Memory, non0.get(ResourceName.Memory) ?? 0);
  }

  /** priority is spec.priority, 0 when unset (corev1helpers.PodPriority). */
  get priority(): number {
    return this.pod.spec?.priority ?? 0;
  }
}

/** nonZeroRequests adds the scoring defaults to a pod's requests; with pod-level requests only where both levels are silent. */
function nonZeroRequests(pod: Pod, requests: ResourceList): ResourceList {
  let nonMissing = NON_ZERO_DEFAULTS;
  if (isPodLevelRequestsSet(pod)) {
    nonMissing = new Map([...NON_ZERO_DEFAULTS].filter(([name]) => !requests.has(name)));
  }
  return nonMissing.size > 0 ? podRequests(pod, { nonMissingContainerRequests: nonMissing }) : requests;
}

/** NodeInfo is one node with the pods on it, their summed requests, the ports they use and the node's allocatable. */
export class NodeInfo {
  readonly node: Node;
  readonly name: string;
  readonly pods: PodInfo[] = [];
  /** requested is the sum of the pods' requests. */
  readonly requested: Resource = newResource();
  /** nonZeroRequested is the sum of the pods' requests with the scoring defaults (cpu and memory only). */
  readonly nonZeroRequested: Resource = newResource();
  /** allocatable is node.status.allocatable. */
  readonly allocatable: Resource;
  readonly usedPorts = new HostPortInfo();
  /** imageStates maps an image name of node.status.images to its size and spread. */
  imageStates: ReadonlyMap<string, ImageStateSummary> = new Map();

  constructor(node: Node, allocatable?: Resource) {
    this.node = node;
    this.name = node.metadata?.name ?? '';
    if (allocatable) {
      this.allocatable = allocatable;
    } else {
      this.allocatable = newResource();
      addList(this.allocatable, resourceListOf(node.status?.allocatable));
    }
  }

  /** addPod accounts a pod on the node. */
  addPod(pi: PodInfo): void {
    this.pods.push(pi);
    this.update(pi, 1);
  }

  /** removePod forgets a pod by uid (or namespace/name); it returns whether the pod was there. */
  removePod(pod: Pod): boolean {
    const i = this.pods.findIndex((p) => samePod(p.pod, pod));
    if (i < 0) return false;
    const [pi] = this.pods.splice(i, 1);
    this.update(pi!, -1);
    return true;
  }

  /** without returns a NodeInfo of the same node without some pods, sharing the node's fixed data (used by preemption). */
  without(drop: (pi: PodInfo) => boolean): NodeInfo {
    const copy = new NodeInfo(this.node, this.allocatable);
    copy.imageStates = this.imageStates;
    for (const pi of this.pods) if (!drop(pi)) copy.addPod(pi);
    return copy;
  }

  private update(pi: PodInfo, sign: 1 | -1): void {
    addResource(this.requested, pi.requested, sign);
    this.nonZeroRequested.milliCPU += sign * pi.non0CPU;
    this.nonZeroRequested.memory += sign * pi.non0Mem;
    for (const p of getHostPorts(pi.pod)) {
      if (sign > 0) this.usedPorts.add(p.hostIP, p.protocol, p.hostPort);
      else this.usedPorts.remove(p.hostIP, p.protocol, p.hostPort);
    }
  }
}

function samePod(a: Pod, b: Pod): boolean {
  if (a.metadata?.uid && b.metadata?.uid) return a.metadata.uid === b.metadata.uid;
  return a.metadata?.namespace === b.metadata?.namespace && a.metadata?.name === b.metadata?.name;
}
