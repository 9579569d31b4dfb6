// The registry's work before validation on create: system fields (uid, creationTimestamp) and each kind's PrepareForCreate.
// See staging/src/k8s.io/apiserver/pkg/registry/rest/create.go (BeforeCreate) and pkg/registry/*/strategy.go.
import { prepareForCreate } from '../api/pod-create';
import type { KubeObject, Pod } from '../api/types';
import type { EngineContext } from '../context';

/** prepareObjectForCreate gives an object its name (when generated), uid and creation time, and runs its kind's PrepareForCreate. */
export function prepareObjectForCreate(ctx: EngineContext, obj: KubeObject, generatedName: string | undefined): KubeObject {
  const named: KubeObject = { ...obj, metadata: { ...obj.metadata, ...(generatedName ? { name: generatedName } : {}) } };
  const uid = ctx.rng.uuid();
  const creationTimestamp = ctx.clock.timestamp();
  if (named.kind === 'Pod') return prepareForCreate(named as Pod, { uid, creationTimestamp }).object as KubeObject;
  const { deletionTimestamp: _t, deletionGracePeriodSeconds: _g, ...meta } = named.metadata ?? {};
  const withMeta: KubeObject = { ...named, metadata: { ...meta, uid, creationTimestamp } };
  // Workloads start at generation 1 with an empty status. See pkg/registry/apps/deployment/strategy.go (PrepareForCreate).
  if (named.kind === 'Deployment' || named.kind === 'ReplicaSet') {
    return { ...withMeta, metadata: { ...withMeta.metadata, generation: 1 }, status: {} };
  }
  return withMeta;
}
