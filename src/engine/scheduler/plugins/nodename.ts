// NodeName: a pod that names its node (spec.nodeName) fits only that node.
// See pkg/scheduler/framework/plugins/nodename/node_name.go.
import type { Pod } from '../../api/types';
import type { CycleState } from '../framework/cycle-state';
import type { FilterPlugin, NodeInfo, Plugin } from '../framework/interfaces';
import { Code, newStatus, type PluginStatus } from '../framework/status';
import { Names } from './names';

/** Name is the plugin's name in profiles. */
export const Name = Names.NodeName;

/** ErrReason is the reason for a node that is not the one the pod names. */
export const ErrReason = "node(s) didn't match the requested node name";

/** fits tells whether the pod names no node or this one. */
export function fits(pod: Pod, nodeInfo: NodeInfo): boolean {
  const wanted = pod.spec?.nodeName ?? '';
  return wanted.length === 0 || wanted === nodeInfo.name;
}

/** NodeName filters out every node but the one the pod names. */
export class NodeName implements FilterPlugin {
  readonly name = Name;

  filter(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): PluginStatus {
    return fits(pod, nodeInfo) ? null : newStatus(Code.UnschedulableAndUnresolvable, ErrReason);
  }

  fieldPath(): string {
    return 'spec.nodeName';
  }
}

/** New builds the plugin. */
export function New(): Plugin {
  return new NodeName();
}
