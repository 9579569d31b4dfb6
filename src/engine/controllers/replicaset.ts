// The ReplicaSet controller: it creates the pods a ReplicaSet is missing, in slow-start batches, through the API server.
// See pkg/controller/replicaset/replica_set.go (manageReplicas, slowStartBatch) and pkg/controller/controller_utils.go.
import { podGenerateName } from '../api/naming';
import { deepClone, type KubeObject, type Pod, type ReplicaSet } from '../api/types';
import type { ApiServer } from '../apiserver/server';
import { mappingFor, requestPath } from '../apiserver/server';
import type { EngineContext } from '../context';
import type { Steps } from '../runtime/step';
import { controllerRef, ownedBy } from './owner';

/** REPLICASET_CONTROLLER is the source of its events and the service account it acts as. */
export const REPLICASET_CONTROLLER = 'replicaset-controller';

/** SLOW_START_INITIAL_BATCH_SIZE is the first batch of pod creations (controller.SlowStartInitialBatchSize). */
const SLOW_START_INITIAL_BATCH_SIZE = 1;

/** podFromTemplate builds a pod from a ReplicaSet's template, as GetPodFromTemplate does. */
export function podFromTemplate(rs: ReplicaSet): Pod {
  const t = deepClone(rs.spec?.template ?? {});
  return {
    apiVersion: 'v1', kind: 'Pod',
    metadata: {
      generateName: podGenerateName(rs.metadata?.name ?? ''), namespace: rs.metadata?.namespace,
      ...(t.metadata?.labels ? { labels: t.metadata.labels } : {}),
      ...(t.metadata?.annotations ? { annotations: t.metadata.annotations } : {}),
      ...(t.metadata?.finalizers ? { finalizers: t.metadata.finalizers } : {}),
      ownerReferences: [controllerRef(rs as unknown as KubeObject)],
    },
    spec: t.spec ?? { containers: [] },
  };
}

/** syncReplicaSet creates the missing pods of a ReplicaSet (phase controllers.replicaset). */
export function* syncReplicaSet(ctx: EngineContext, api: ApiServer, rs: ReplicaSet): Steps<void> {
  const ns = rs.metadata?.namespace ?? 'default';
  const name = rs.metadata?.name ?? '';
  const ref = `ReplicaSet/${ns}/${name}`;
  const want = rs.spec?.replicas ?? 1;
  const have = ctx.store.list<Pod>('Pod', ns).filter((p) => ownedBy(p as unknown as KubeObject, rs.metadata?.uid) && !p.metadata?.deletionTimestamp).length;
  const diff = want - have;
  yield {
    phase: 'controllers.replicaset', object: ref, field: 'spec.replicas',
    result: diff > 0 ? `${have} of ${want} pods exist: creating ${diff}` : `${have} of ${want} pods exist: nothing to create`,
    detail: { replicas: want, existing: have, toCreate: Math.max(0, diff) },
  };
  if (diff <= 0) return;
  const mapping = mappingFor('v1', 'Pod')!;
  let remaining = diff;
  for (let batch = Math.min(remaining, SLOW_START_INITIAL_BATCH_SIZE); batch > 0; batch = Math.min(2 * batch, remaining)) {
    let failed = false;
    for (let i = 0; i < batch; i++) {
      const pod = podFromTemplate(rs);
      const outcome = yield* api.serve({
        verb: 'create', method: 'POST', path: requestPath(mapping, 'v1', ns), apiVersion: 'v1', kind: 'Pod', group: '', resource: 'pods',
        namespace: ns, object: pod as unknown as KubeObject, credentials: { serviceAccount: `kube-system/${REPLICASET_CONTROLLER}` },
      });
      if (outcome.ok) {
        const podName = outcome.object?.metadata?.name ?? '';
        ctx.recorder.event({ type: 'Normal', reason: 'SuccessfulCreate', object: ref, source: REPLICASET_CONTROLLER, message: `Created pod: ${podName}` });
        yield { phase: 'controllers.replicaset', object: ref, step: { kind: 'object', name: podName }, result: `created pod ${podName}`, detail: { pod: podName } };
      } else {
        failed = true;
        ctx.recorder.event({ type: 'Warning', reason: 'FailedCreate', object: ref, source: REPLICASET_CONTROLLER, message: `Error creating: ${outcome.error.message}` });
        yield { phase: 'controllers.replicaset', object: ref, result: `Error creating: ${outcome.error.message}`, detail: { status: outcome.error.status }, outcome: 'failed' };
      }
    }
    remaining -= batch;
    // A failed batch stops the slow start; the rest waits for the next sync. See slowStartBatch.
    if (failed) return;
  }
}
