// Why a DaemonSet has a pod on some nodes and not on others: for each node, its daemon pod, or the reason the
// DaemonSet controller gives none (NodeShouldRunDaemonPod: the template's nodeName, the node selector or required
// affinity, an untolerated taint). See pkg/controller/daemon/daemon_controller.go (v1.36.3).
import type { KubeObject, Node, Pod } from '../api/types';
import { daemonPodFit, targetNodeName } from '../controllers/daemonset-pods';

/** DaemonSetReport is one DaemonSet's nodes: each with its daemon pod, or why it has none. */
export interface DaemonSetReport {
  /** daemonSet is `namespace/name`. */
  daemonSet: string;
  nodes: { node: string; pod?: string; phase?: string; why?: string }[];
}

/** explainDaemonSets explains every DaemonSet stored at the end of the run, node by node. */
export function explainDaemonSets(objects: readonly KubeObject[]): DaemonSetReport[] {
  const nodes = objects.filter((o) => o.kind === 'Node') as Node[];
  const pods = objects.filter((o) => o.kind === 'Pod') as Pod[];
  return objects.filter((o) => o.kind === 'DaemonSet').map((ds) => {
    const uid = ds.metadata?.uid;
    const own = pods.filter((p) => p.metadata?.ownerReferences?.some((r) => r.controller && r.uid === uid));
    return {
      daemonSet: `${ds.metadata?.namespace ?? 'default'}/${ds.metadata?.name ?? ''}`,
      nodes: nodes.map((node) => {
        const name = node.metadata?.name ?? '';
        const pod = own.find((p) => targetNodeName(p) === name);
        if (pod) return { node: name, pod: pod.metadata?.name ?? '', phase: pod.status?.phase ?? 'Pending' };
        const fit = daemonPodFit(node, ds as Parameters<typeof daemonPodFit>[1]);
        return { node: name, why: fit.why ?? 'it should run one, and the controller has not made it yet' };
      }),
    };
  });
}
