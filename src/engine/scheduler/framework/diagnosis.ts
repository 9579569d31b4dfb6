// Why a pod fits nowhere: the status of every node, the plugins that rejected it, the PreFilter and PostFilter messages.
// See pkg/scheduler/framework/types.go (NodeToStatus, Diagnosis, FitError).
import type { Pod } from '../../api/types';
import { Code, Status, isRejected } from './status';

/** NodeToStatus holds the status of each rejected node, and one status for the nodes it does not list. */
export class NodeToStatus {
  private readonly byNode = new Map<string, Status>();
  /** absent is the status of the nodes not listed; by default UnschedulableAndUnresolvable without reasons. */
  private absent = new Status(Code.UnschedulableAndUnresolvable);

  /** get returns the status of a node: its own, or the absent-nodes status. */
  get(nodeName: string): Status {
    return this.byNode.get(nodeName) ?? this.absent;
  }

  /** set records a node's status. */
  set(nodeName: string, status: Status): void {
    this.byNode.set(nodeName, status);
  }

  /** setAbsentNodesStatus sets the status of every node not listed. */
  setAbsentNodesStatus(status: Status): void {
    this.absent = status;
  }

  /** absentNodesStatus returns the status of the nodes not listed. */
  absentNodesStatus(): Status {
    return this.absent;
  }

  /** size is the number of nodes listed explicitly. */
  get size(): number {
    return this.byNode.size;
  }

  /** entries lists the nodes with their own status, in the order they were set. */
  entries(): IterableIterator<[string, Status]> {
    return this.byNode.entries();
  }
}

/** Diagnosis records the details of a scheduling failure. */
export interface Diagnosis {
  nodeToStatus: NodeToStatus;
  /** unschedulablePlugins are the plugins that rejected the pod somewhere. */
  unschedulablePlugins: Set<string>;
  /** pendingPlugins are the plugins that returned Pending. */
  pendingPlugins: Set<string>;
  /** preFilterMsg is the message of a PreFilter rejection, when PreFilter rejected the pod. */
  preFilterMsg: string;
  /** postFilterMsg is the message of the PostFilter plugins (preemption). */
  postFilterMsg: string;
}

/** newDiagnosis returns an empty Diagnosis. */
export function newDiagnosis(): Diagnosis {
  return { nodeToStatus: new NodeToStatus(), unschedulablePlugins: new Set(), pendingPlugins: new Set(), preFilterMsg: '', postFilterMsg: '' };
}

/** addPluginStatus notes the plugin of a rejecting or pending status, as Diagnosis.AddPluginStatus does. */
export function addPluginStatus(d: Diagnosis, status: Status): void {
  if (!status.plugin) return;
  if (isRejected(status)) d.unschedulablePlugins.add(status.plugin);
  if (status.code === Code.Pending) d.pendingPlugins.add(status.plugin);
}

/** FitError is the error of a scheduling attempt that found no node: its message is the FailedScheduling event's. */
export interface FitError {
  pod: Pod;
  numAllNodes: number;
  diagnosis: Diagnosis;
}
