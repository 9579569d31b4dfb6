// One sync of the Deployment controller: the Deployment as last written, its ReplicaSets as this sync saw them, and
// the Deployment's status write. See pkg/controller/deployment/sync.go (syncDeploymentStatus) (v1.36.3).
import type { Deployment, ReplicaSet } from '../api/types';
import type { EngineContext } from '../context';
import type { Steps } from '../runtime/step';
import type { ControllerClient } from './client';
import type { DeploymentStatus } from './deployment-util';
import { k8sEqual } from './replicaset';
import { STATUS_MANAGERS, updateStatus } from '../apiserver/status-write';

/** Rollout is one sync's view: the Deployment as last written and its ReplicaSets. */
export interface Rollout {
  /** requeueAfter is requeueStuckDeployment's delay: when the progress deadline would pass. */
  requeueAfter?: number;
  ctx: EngineContext;
  client: ControllerClient;
  d: Deployment;
  ref: string;
  sets: ReplicaSet[];
}

/** fresh is the ReplicaSet as this sync last saw it. */
export function fresh(r: Rollout, rs: ReplicaSet): ReplicaSet {
  return r.sets.find((s) => s.metadata?.uid === rs.metadata?.uid) ?? rs;
}

/** remember keeps a ReplicaSet this sync wrote. */
export function remember(r: Rollout, rs: ReplicaSet): ReplicaSet {
  r.sets = [...r.sets.filter((s) => s.metadata?.uid !== rs.metadata?.uid), rs];
  return rs;
}

/** writeStatus is UpdateStatus of the Deployment: its status, and the annotations the status update carries. */
export function* writeStatus(r: Rollout, status: DeploymentStatus, annotations?: Record<string, string>): Steps<void> {
  const { namespace, name } = { namespace: r.d.metadata?.namespace, name: r.d.metadata?.name ?? '' };
  if (k8sEqual(status, r.d.status ?? {}) && (!annotations || k8sEqual(annotations, r.d.metadata?.annotations ?? {}))) return;
  const updated = updateStatus<Deployment>(r.ctx, STATUS_MANAGERS.controllers, 'Deployment', namespace, name, (o) => {
    o.status = status as typeof o.status;
    if (annotations) o.metadata = { ...o.metadata, annotations };
  });
  if (updated) r.d = updated;
  const progressing = status.conditions?.find((c) => c.type === 'Progressing');
  const available = status.conditions?.find((c) => c.type === 'Available');
  yield {
    phase: 'controllers.deployment', object: r.ref, field: 'status',
    result: `status: ${status.replicas ?? 0} replicas, ${status.updatedReplicas ?? 0} updated, ${status.readyReplicas ?? 0} ready, ${status.availableReplicas ?? 0} available`
      + `${available ? `; Available=${available.status} (${available.reason})` : ''}${progressing ? `; Progressing=${progressing.status} (${progressing.reason})` : ''}`,
    detail: { status },
  };
}
