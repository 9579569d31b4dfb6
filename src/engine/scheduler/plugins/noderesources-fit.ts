// NodeResourcesFit: the node must have the pod's requests free (cpu, memory, ephemeral storage, extended resources, a pod
// slot); among those that do, LeastAllocated prefers the emptiest. See pkg/scheduler/framework/plugins/noderesources/fit.go.
import type { Pod } from '../../api/types';
import { stateKey, type CycleState } from '../framework/cycle-state';
import type { FilterPlugin, NodeInfo, Plugin, PreFilterOutput, PreFilterPlugin, PreScorePlugin, ScorePlugin } from '../framework/interfaces';
import { isPodLevelRequestsSet, podRequests } from '../framework/pod-resources';
import { newResource, ResourceName, setMaxList, type Resource } from '../framework/resource';
import { Code, newStatus, type PluginStatus } from '../framework/status';
import { leastResourceScorer } from './least-allocated';
import { Names } from './names';
import { DEFAULT_RESOURCES, podResourceRequestList, scoreNode } from './resource-allocation';

/** Name is the plugin's name in profiles. */
export const Name = Names.NodeResourcesFit;

/** Reason lists the fixed Filter reasons; an extended resource reads `Insufficient <name>`. */
export const Reason = {
  TooManyPods: 'Too many pods',
  InsufficientCPU: 'Insufficient cpu',
  InsufficientMemory: 'Insufficient memory',
  InsufficientEphemeralStorage: 'Insufficient ephemeral-storage',
} as const;

const preFilterStateKey = stateKey<Resource>(`PreFilter${Name}`);
const preScoreStateKey = stateKey<number[]>(`PreScore${Name}`);

/** InsufficientResource is one resource the node lacks; unresolvable when the request exceeds the node's allocatable. */
export interface InsufficientResource {
  resourceName: string;
  reason: string;
  requested: number;
  used: number;
  capacity: number;
  unresolvable: boolean;
}

/** computePodResourceRequest is the pod's effective request as one Resource (the peak of each dimension). */
export function computePodResourceRequest(pod: Pod): Resource {
  const r = newResource();
  setMaxList(r, podRequests(pod));
  return r;
}

/** fitsRequest lists what the node lacks for the request, in Kubernetes' order: pods, cpu, memory, ephemeral storage, scalars. */
export function fitsRequest(req: Resource, nodeInfo: NodeInfo): InsufficientResource[] {
  const out: InsufficientResource[] = [];
  const alloc = nodeInfo.allocatable;
  const used = nodeInfo.requested;
  if (nodeInfo.pods.length + 1 > alloc.allowedPodNumber) {
    out.push({ resourceName: ResourceName.Pods, reason: Reason.TooManyPods, requested: 1, used: nodeInfo.pods.length, capacity: alloc.allowedPodNumber, unresolvable: false });
  }
  if (req.milliCPU === 0 && req.memory === 0 && req.ephemeralStorage === 0 && req.scalar.size === 0) return out;
  const check = (name: string, reason: string, want: number, inUse: number, capacity: number): void => {
    if (want > 0 && want > capacity - inUse) {
      out.push({ resourceName: name, reason, requested: want, used: inUse, capacity, unresolvable: want > capacity });
    }
  };
  check(ResourceName.CPU, Reason.InsufficientCPU, req.milliCPU, used.milliCPU, alloc.milliCPU);
  check(ResourceName.Memory, Reason.InsufficientMemory, req.memory, used.memory, alloc.memory);
  check(ResourceName.EphemeralStorage, Reason.InsufficientEphemeralStorage, req.ephemeralStorage, used.ephemeralStorage, alloc.ephemeralStorage);
  for (const [name, want] of req.scalar) {
    if (want === 0) continue;
    const capacity = alloc.scalar.get(name) ?? 0;
    const inUse = used.scalar.get(name) ?? 0;
    if (want > capacity - inUse) {
      out.push({ resourceName: name, reason: `Insufficient ${name}`, requested: want, used: inUse, capacity, unresolvable: want > capacity });
    }
  }
  return out;
}

/** fits lists what a node lacks for a pod; kubelet admission runs the same check. */
export function fits(pod: Pod, nodeInfo: NodeInfo): InsufficientResource[] {
  return fitsRequest(computePodResourceRequest(pod), nodeInfo);
}

/** NodeResourcesFit filters nodes that lack the pod's requests and scores the rest with LeastAllocated. */
export class NodeResourcesFit implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin {
  readonly name = Name;
  private readonly scorer = leastResourceScorer(DEFAULT_RESOURCES);

  preFilter(state: CycleState, pod: Pod): PreFilterOutput {
    state.write(preFilterStateKey, computePodResourceRequest(pod));
    return { status: null };
  }

  /** filter rejects a node that lacks a resource: Unschedulable, or UnschedulableAndUnresolvable if even an empty node would. */
  filter(state: CycleState, _pod: Pod, nodeInfo: NodeInfo): PluginStatus {
    const req = state.read(preFilterStateKey);
    if (req === undefined) return newStatus(Code.Error, `error reading "${preFilterStateKey.name}" from cycleState: not found`);
    const insufficient = fitsRequest(req, nodeInfo);
    if (insufficient.length === 0) return null;
    const code = insufficient.some((r) => r.unresolvable) ? Code.UnschedulableAndUnresolvable : Code.Unschedulable;
    return newStatus(code, ...insufficient.map((r) => r.reason));
  }

  preScore(state: CycleState, pod: Pod): PluginStatus {
    state.write(preScoreStateKey, podResourceRequestList(pod, DEFAULT_RESOURCES, false));
    return null;
  }

  score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): number {
    const podRequestList = state.read(preScoreStateKey) ?? podResourceRequestList(pod, DEFAULT_RESOURCES, false);
    return scoreNode(nodeInfo, podRequestList, DEFAULT_RESOURCES, false, this.scorer);
  }

  fieldPath(pod: Pod): string {
    return resourcesFieldPath(pod);
  }
}

/** resourcesFieldPath points at the requests that make the pod's request: a container's, an init container's or the pod's. */
export function resourcesFieldPath(pod: Pod): string {
  if (isPodLevelRequestsSet(pod)) return 'spec.resources.requests';
  const containers = pod.spec?.containers ?? [];
  const i = containers.findIndex((c) => c.resources?.requests && Object.keys(c.resources.requests).length > 0);
  if (i >= 0) return `spec.containers[${i}].resources.requests`;
  const init = pod.spec?.initContainers ?? [];
  const j = init.findIndex((c) => c.resources?.requests && Object.keys(c.resources.requests).length > 0);
  if (j >= 0) return `spec.initContainers[${j}].resources.requests`;
  return 'spec.containers[0].resources';
}

/** New builds the plugin. */
export function New(): Plugin {
  return new NodeResourcesFit();
}
