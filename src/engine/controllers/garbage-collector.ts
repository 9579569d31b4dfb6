// The garbage collector: when an owner is gone, its dependents are deleted (background propagation).
// See pkg/controller/garbagecollector/garbagecollector.go (attemptToDeleteItem).
import type { KubeObject } from '../api/types';
import { mappingFor, requestPath, type ApiServer } from '../apiserver/server';
import type { EngineContext } from '../context';
import type { Steps } from '../runtime/step';
import { ownedBy } from './owner';

/** GARBAGE_COLLECTOR is the service account the collector acts as. */
export const GARBAGE_COLLECTOR = 'generic-garbage-collector';

/** collectDependents deletes every object that names the removed owner, as the collector does for Background propagation. */
export function* collectDependents(ctx: EngineContext, api: ApiServer, owner: KubeObject): Steps<void> {
  const uid = owner.metadata?.uid;
  const dependents = ctx.store.all().filter((o) => ownedBy(o, uid) && !o.metadata?.deletionTimestamp);
  for (const dep of dependents) {
    const mapping = mappingFor(String(dep.apiVersion), String(dep.kind));
    if (!mapping) continue;
    const ns = dep.metadata?.namespace;
    const version = String(dep.apiVersion).split('/').pop()!;
    yield* api.serve({
      verb: 'delete', method: 'DELETE', path: requestPath(mapping, version, ns, dep.metadata?.name), apiVersion: String(dep.apiVersion), kind: String(dep.kind),
      group: mapping.group, resource: mapping.resource, ...(ns ? { namespace: ns } : {}), name: dep.metadata?.name ?? '', credentials: { serviceAccount: `kube-system/${GARBAGE_COLLECTOR}` },
    }, undefined, { propagationPolicy: 'Background' });
  }
}
