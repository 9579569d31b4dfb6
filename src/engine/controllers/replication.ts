// The ReplicationController controller: kube-controller-manager's ReplicationManager is the ReplicaSet controller run
// for ReplicationControllers through a conversion layer, as if ReplicationController were an older API version of
// ReplicaSet. This is that layer: the kind, the event source "replication-controller", the service account it acts
// as, the ReplicaSet a ReplicationController reads as, and the status in ReplicationControllerStatus' form (which has
// no terminatingReplicas: EnableStatusTerminatingReplicas is false). Pods, events and messages are the ReplicaSet
// controller's own ("Created pod: web-x7k2p"), owned by the ReplicationController (apiVersion v1).
// See pkg/controller/replication/replication_controller.go (NewReplicationManager), conversion.go (convertRCtoRS,
// podControlAdapter) and cmd/kube-controller-manager/app/core.go (NewClient("replication-controller")), v1.36.3.
import { rcSelectsPod, replicaSetView } from '../api/replication-controller';
import type { KubeObject } from '../api/types';
import type { EngineContext } from '../context';
import type { ReplicaSetKind } from './replicaset';

/** REPLICATION_CONTROLLER is the source of its events and the service account it acts as. */
export const REPLICATION_CONTROLLER = 'replication-controller';

/** REPLICATION_CONTROLLER_KIND is the ReplicaSet controller's instance for ReplicationControllers. */
export const REPLICATION_CONTROLLER_KIND: ReplicaSetKind = {
  kind: 'ReplicationController', source: REPLICATION_CONTROLLER, serviceAccount: REPLICATION_CONTROLLER,
  read: (ctx, namespace, name) => {
    const rc = ctx.store.get<KubeObject>('ReplicationController', namespace, name);
    return rc && { owner: rc, rs: replicaSetView(rc) };
  },
  // convertRStoRC: ReplicationControllerStatus in its field order; replicas is not omitempty, the other counts,
  // observedGeneration and conditions are (k8s.io/api core/v1 types.go).
  writeStatus: (counts, conditions, observedGeneration) => {
    const status: Record<string, unknown> = { replicas: counts.replicas };
    if (counts.fullyLabeledReplicas) status['fullyLabeledReplicas'] = counts.fullyLabeledReplicas;
    if (counts.readyReplicas) status['readyReplicas'] = counts.readyReplicas;
    if (counts.availableReplicas) status['availableReplicas'] = counts.availableReplicas;
    if (observedGeneration) status['observedGeneration'] = observedGeneration;
    if (conditions.length) status['conditions'] = conditions;
    return status;
  },
};

/** podReplicationControllers is the lister's GetPodControllers: the names of the namespace's ReplicationControllers selecting the pod. */
export function podReplicationControllers(ctx: EngineContext, pod: KubeObject): string[] {
  return ctx.store.list<KubeObject>('ReplicationController', pod.metadata?.namespace)
    .filter((rc) => rcSelectsPod(rc, pod.metadata?.labels))
    .map((rc) => rc.metadata?.name ?? '');
}
