// The Deployment controller: it makes the ReplicaSet of the current template and scales it, and reports the Deployment's status.
// See pkg/controller/deployment/sync.go (getNewReplicaSet, scale) and deployment_util.go.
import { computePodTemplateHash, POD_TEMPLATE_HASH_LABEL, replicaSetName } from '../api/naming';
import { deepClone, type Deployment, type KubeObject, type Pod, type ReplicaSet } from '../api/types';
import { mappingFor, requestPath, type ApiServer } from '../apiserver/server';
import type { EngineContext } from '../context';
import type { Steps } from '../runtime/step';
import { controllerRef, ownedBy } from './owner';

/** DEPLOYMENT_CONTROLLER is the source of its events and the service account it acts as. */
export const DEPLOYMENT_CONTROLLER = 'deployment-controller';

/** newReplicaSet builds the ReplicaSet of a Deployment's current template, as getNewReplicaSet does. */
export function newReplicaSet(d: Deployment): ReplicaSet {
  const template = deepClone(d.spec?.template ?? {});
  const hash = computePodTemplateHash(template, d.status?.collisionCount);
  const labels = { ...(template.metadata?.labels ?? {}), [POD_TEMPLATE_HASH_LABEL]: hash };
  const replicas = d.spec?.replicas ?? 1;
  const maxSurge = surge(d, replicas);
  return {
    apiVersion: 'apps/v1', kind: 'ReplicaSet',
    metadata: {
      name: replicaSetName(d.metadata?.name ?? '', hash), namespace: d.metadata?.namespace,
      labels,
      annotations: {
        'deployment.kubernetes.io/desired-replicas': String(replicas),
        'deployment.kubernetes.io/max-replicas': String(replicas + maxSurge),
        'deployment.kubernetes.io/revision': '1',
      },
      ownerReferences: [controllerRef(d as unknown as KubeObject)],
    },
    spec: {
      replicas,
      minReadySeconds: d.spec?.minReadySeconds ?? 0,
      selector: { ...d.spec?.selector, matchLabels: { ...(d.spec?.selector?.matchLabels ?? {}), [POD_TEMPLATE_HASH_LABEL]: hash } },
      template: { ...template, metadata: { ...template.metadata, labels } },
    },
  };
}

/** surge resolves maxSurge (an int or a percentage, rounded up) as deploymentutil.ResolveFenceposts does. */
function surge(d: Deployment, replicas: number): number {
  const value = d.spec?.strategy?.rollingUpdate?.maxSurge ?? '25%';
  if (typeof value === 'number') return value;
  const pct = /^(\d+)%$/.exec(value);
  return pct ? Math.ceil((Number(pct[1]) * replicas) / 100) : Number(value) || 0;
}

/** syncDeployment creates the new ReplicaSet when the Deployment has none (phase controllers.deployment). */
export function* syncDeployment(ctx: EngineContext, api: ApiServer, d: Deployment): Steps<void> {
  const ns = d.metadata?.namespace ?? 'default';
  const ref = `Deployment/${ns}/${d.metadata?.name}`;
  const existing = ctx.store.list<ReplicaSet>('ReplicaSet', ns).find((rs) => ownedBy(rs as unknown as KubeObject, d.metadata?.uid));
  const rs = newReplicaSet(d);
  if (existing) {
    yield { phase: 'controllers.deployment', object: ref, field: 'spec.template', result: `ReplicaSet ${existing.metadata?.name} already matches the template`, detail: {} };
    return;
  }
  const replicas = rs.spec?.replicas ?? 1;
  yield {
    phase: 'controllers.deployment', object: ref, field: 'spec.template',
    result: `no ReplicaSet has this template: creating ${rs.metadata?.name} (pod-template-hash ${rs.metadata?.labels?.[POD_TEMPLATE_HASH_LABEL]}) with ${replicas} replica(s)`,
    detail: { replicaSet: rs.metadata?.name, podTemplateHash: rs.metadata?.labels?.[POD_TEMPLATE_HASH_LABEL], replicas },
  };
  const mapping = mappingFor('apps/v1', 'ReplicaSet')!;
  const outcome = yield* api.serve({
    verb: 'create', method: 'POST', path: requestPath(mapping, 'v1', ns), apiVersion: 'apps/v1', kind: 'ReplicaSet', group: 'apps', resource: 'replicasets',
    namespace: ns, name: rs.metadata?.name ?? '', object: rs as unknown as KubeObject, credentials: { serviceAccount: `kube-system/${DEPLOYMENT_CONTROLLER}` },
  });
  if (!outcome.ok) {
    yield { phase: 'controllers.deployment', object: ref, result: `failed to create ReplicaSet: ${outcome.error.message}`, detail: { status: outcome.error.status }, outcome: 'failed' };
    return;
  }
  // See sync.go (scaleReplicaSet): "Scaled up replica set %s from %d to %d".
  ctx.recorder.event({ type: 'Normal', reason: 'ScalingReplicaSet', object: ref, source: DEPLOYMENT_CONTROLLER, message: `Scaled up replica set ${rs.metadata?.name} from 0 to ${replicas}` });
}

/** deploymentStatus computes the Deployment's status from its ReplicaSets' pods (sync.go calculateStatus). */
export function deploymentStatus(ctx: EngineContext, d: Deployment): Deployment['status'] {
  const ns = d.metadata?.namespace ?? 'default';
  const sets = ctx.store.list<ReplicaSet>('ReplicaSet', ns).filter((rs) => ownedBy(rs as unknown as KubeObject, d.metadata?.uid));
  const pods = ctx.store.list<Pod>('Pod', ns).filter((p) => sets.some((rs) => ownedBy(p as unknown as KubeObject, rs.metadata?.uid)) && !p.metadata?.deletionTimestamp);
  const ready = pods.filter((p) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')).length;
  const replicas = d.spec?.replicas ?? 1;
  const available = ready >= replicas - unavailable(d, replicas);
  const now = ctx.clock.timestamp();
  const prev = d.status?.conditions ?? [];
  const keep = (type: string, status: string) => prev.find((c) => c.type === type && c.status === status);
  return {
    availableReplicas: ready, readyReplicas: ready, replicas: pods.length, updatedReplicas: pods.length,
    ...(pods.length - ready > 0 ? { unavailableReplicas: pods.length - ready } : {}),
    observedGeneration: d.metadata?.generation ?? 1,
    conditions: [
      keep('Available', available ? 'True' : 'False') ?? (available
        ? { type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.', lastUpdateTime: now, lastTransitionTime: now }
        : { type: 'Available', status: 'False', reason: 'MinimumReplicasUnavailable', message: 'Deployment does not have minimum availability.', lastUpdateTime: now, lastTransitionTime: now }),
      {
        type: 'Progressing', status: 'True',
        reason: ready >= replicas ? 'NewReplicaSetAvailable' : 'ReplicaSetUpdated',
        message: ready >= replicas ? `ReplicaSet "${sets[0]?.metadata?.name}" has successfully progressed.` : `ReplicaSet "${sets[0]?.metadata?.name}" is progressing.`,
        lastUpdateTime: now, lastTransitionTime: keep('Progressing', 'True')?.lastTransitionTime ?? now,
      },
    ],
  };
}

function unavailable(d: Deployment, replicas: number): number {
  const value = d.spec?.strategy?.rollingUpdate?.maxUnavailable ?? '25%';
  if (typeof value === 'number') return value;
  const pct = /^(\d+)%$/.exec(value);
  return pct ? Math.floor((Number(pct[1]) * replicas) / 100) : Number(value) || 0;
}
