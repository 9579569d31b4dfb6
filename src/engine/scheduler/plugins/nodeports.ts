// NodePorts: a node must have the pod's host ports free (same protocol and port on the same IP or on 0.0.0.0).
// See pkg/scheduler/framework/plugins/nodeports/node_ports.go.
import type { ContainerPort, Pod } from '../../api/types';
import { stateKey, type CycleState } from '../framework/cycle-state';
import type { FilterPlugin, NodeInfo, Plugin, PreFilterOutput, PreFilterPlugin } from '../framework/interfaces';
import { CONTAINER_RESTART_POLICY_ALWAYS } from '../framework/pod-resources';
import { getHostPorts, type HostPortInfo } from '../framework/host-ports';
import { Code, newStatus, type PluginStatus } from '../framework/status';
import { Names } from './names';

/** Name is the plugin's name in profiles. */
export const Name = Names.NodePorts;

/** ErrReason is the reason for a node where a wanted host port is taken. */
export const ErrReason = "node(s) didn't have free ports for the requested pod ports";

const preFilterStateKey = stateKey<ContainerPort[]>(`PreFilter${Name}`);

/** fitsPorts tells whether none of the wanted ports conflicts with the ports in use. */
export function fitsPorts(wantPorts: readonly ContainerPort[], portsInUse: HostPortInfo): boolean {
  return wantPorts.every((p) => !portsInUse.checkConflict(p.hostIP, p.protocol, p.hostPort));
}

/** NodePorts filters out nodes where the pod's host ports are taken. */
export class NodePorts implements PreFilterPlugin, FilterPlugin {
  readonly name = Name;

  /** preFilter collects the pod's host ports; a pod without any skips Filter. */
  preFilter(state: CycleState, pod: Pod): PreFilterOutput {
    const ports = getHostPorts(pod);
    if (ports.length === 0) return { status: newStatus(Code.Skip) };
    state.write(preFilterStateKey, ports);
    return { status: null };
  }

  /** filter rejects a node where a wanted port is in use; preemption may free it, so the node stays resolvable. */
  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): PluginStatus {
    const wanted = state.read(preFilterStateKey) ?? getHostPorts(pod);
    return fitsPorts(wanted, nodeInfo.usedPorts) ? null : newStatus(Code.Unschedulable, ErrReason);
  }

  /** fieldPath points at the first container port with a hostPort. */
  fieldPath(pod: Pod): string | undefined {
    const init = pod.spec?.initContainers ?? [];
    for (let i = 0; i < init.length; i++) {
      if (init[i]!.restartPolicy !== CONTAINER_RESTART_POLICY_ALWAYS) continue;
      const j = (init[i]!.ports ?? []).findIndex((p) => (p.hostPort ?? 0) > 0);
      if (j >= 0) return `spec.initContainers[${i}].ports[${j}].hostPort`;
    }
    const containers = pod.spec?.containers ?? [];
    for (let i = 0; i < containers.length; i++) {
      const j = (containers[i]!.ports ?? []).findIndex((p) => (p.hostPort ?? 0) > 0);
      if (j >= 0) return `spec.containers[${i}].ports[${j}].hostPort`;
    }
    return undefined;
  }
}

/** New builds the plugin. */
export function New(): Plugin {
  return new NodePorts();
}
