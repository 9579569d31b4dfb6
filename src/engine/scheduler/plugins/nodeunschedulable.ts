// NodeUnschedulable: a cordoned node (spec.unschedulable) takes only pods that tolerate its unschedulable taint.
// See pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable.go.
import type { Pod, Taint } from '../../api/types';
import type { CycleState } from '../framework/cycle-state';
import type { FilterPlugin, NodeInfo, Plugin } from '../framework/interfaces';
import { Code, newStatus, type PluginStatus } from '../framework/status';
import { TAINT_NODE_UNSCHEDULABLE, TaintEffect, tolerationsTolerateTaint } from '../framework/taints';
import { Names } from './names';

/** Name is the plugin's name in profiles. */
export const Name = Names.NodeUnschedulable;

/** ErrReasonUnschedulable is the reason for a cordoned node. */
export const ErrReasonUnschedulable = 'node(s) were unschedulable';

/** UNSCHEDULABLE_TAINT is the taint a cordoned node stands for: node.kubernetes.io/unschedulable:NoSchedule. */
const UNSCHEDULABLE_TAINT: Readonly<Taint> = Object.freeze({ key: TAINT_NODE_UNSCHEDULABLE, effect: TaintEffect.NoSchedule });

/** NodeUnschedulable filters out cordoned nodes. */
export class NodeUnschedulable implements FilterPlugin {
  readonly name = Name;

  /** filter rejects a node with spec.unschedulable unless the pod tolerates node.kubernetes.io/unschedulable:NoSchedule. */
  filter(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): PluginStatus {
    if (!nodeInfo.node.spec?.unschedulable) return null;
    const tolerates = tolerationsTolerateTaint(pod.spec?.tolerations, UNSCHEDULABLE_TAINT);
    return tolerates ? null : newStatus(Code.UnschedulableAndUnresolvable, ErrReasonUnschedulable);
  }

  fieldPath(): string {
    return 'spec.tolerations';
  }
}

/** New builds the plugin. */
export function New(): Plugin {
  return new NodeUnschedulable();
}
