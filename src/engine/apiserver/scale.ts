// The scale subresource's update, `PUT /apis/apps/v1/namespaces/NS/deployments/NAME/scale` (and replicasets,
// statefulsets, replicationcontrollers): the stored workload's Scale, the request's Scale through mutating admission,
// ValidateScale, the replicas moved into the workload (whose generation grows with its spec), validating admission on
// the new and old Scale, storage. See pkg/registry/apps/deployment/storage/storage.go (ScaleREST.Update,
// scaleUpdatedObjectInfo, toScaleUpdateValidation) and pkg/apis/autoscaling/validation/validation.go (ValidateScale)
// at k8s.io/kubernetes v1.36.3; the other workloads' registries do the same.
import { SelectorError } from '../api/labels';
import { SCALED_KINDS, scaleOf, type ScaleObject } from '../api/scale';
import { deepClone, type KubeObject } from '../api/types';
import type { EngineContext } from '../context';
import { storageKey } from '../cluster/store';
import type { Steps } from '../runtime/step';
import { runAdmission } from './admission';
import { fieldManagerScope, updateManagedFields } from './fieldmanager/manager';
import type { AdmissionAttributes } from './admission/plugin';
import { type ApiRequest, badRequest, invalid, notFound, StatusError, type UserInfo } from './request';
import type { ApiOutcome } from './server';

/** NO_ROUTE is go-restful's 404 for a resource without the subresource, as serviceErrorHandler words it (apiserver/pkg/server/handler.go, v0.36.3). */
const NO_ROUTE = new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server could not find the requested resource', reason: 'NotFound', details: {}, code: 404 });

/** updateScale serves an update of a workload's scale subresource whose user is authenticated and authorized. */
export function* updateScale(ctx: EngineContext, req: ApiRequest, ref: string): Steps<ApiOutcome> {
  if (!SCALED_KINDS.has(req.kind)) return { ok: false, error: NO_ROUTE, phase: 'apiserver.authorize' };
  const name = req.name ?? '';
  const current = ctx.store.get<KubeObject>(req.kind, req.namespace, name);
  if (!current) return { ok: false, error: notFound(req.resource, req.group, name), phase: 'apiserver.validate' };
  let oldScale: ScaleObject;
  try {
    oldScale = scaleOf(current);
  } catch (err) {
    if (err instanceof SelectorError) return { ok: false, error: badRequest(err.message), phase: 'apiserver.validate' };
    throw err;
  }
  const given = deepClone((req.object ?? {}) as KubeObject) as ScaleObject;
  const attrs: AdmissionAttributes = {
    operation: 'UPDATE', kind: 'Scale', group: req.group, resource: req.resource, subresource: 'scale', namespace: req.namespace ?? '', name,
    object: given, oldObject: oldScale, user: req.user as UserInfo,
  };
  const mutating = yield* runAdmission(ctx, attrs, 'mutating', ref);
  if (mutating.error) return { ok: false, error: mutating.error, phase: 'apiserver.admit.mutating', warnings: mutating.warnings };
  const replicas = (attrs.object as ScaleObject).spec?.replicas ?? 0;
  // ValidateScale: a negative count is refused, with the Scale named by the workload's name.
  if (replicas < 0) {
    const error = invalid('Scale', 'autoscaling', name, [{ field: 'spec.replicas', reason: 'FieldValueInvalid', message: `Invalid value: ${replicas}: must be greater than or equal to 0` }]);
    yield { phase: 'apiserver.validate', object: ref, field: 'spec.replicas', result: `invalid: ${error.message}`, detail: { replicas }, outcome: 'rejected' };
    return { ok: false, error, phase: 'apiserver.validate' };
  }
  const changed = (current['spec'] as { replicas?: number } | undefined)?.replicas !== replicas;
  // The strategies' PrepareForUpdate: the generation grows when the spec changes.
  const m = current.metadata ?? {};
  const updated: KubeObject = {
    ...deepClone(current), metadata: { ...deepClone(m), ...(changed ? { generation: (m.generation ?? 1) + 1 } : {}) },
    spec: { ...deepClone((current['spec'] ?? {}) as Record<string, unknown>), replicas },
  };
  yield { phase: 'apiserver.validate', object: ref, field: 'spec.replicas', result: `the scale is valid: spec.replicas ${replicas}`, detail: { replicas } };
  const validating = yield* runAdmission(ctx, { ...attrs, object: scaleOf(updated) }, 'validating', ref);
  const warnings = [...mutating.warnings, ...validating.warnings];
  if (validating.error) return { ok: false, error: validating.error, phase: 'apiserver.admit.validating', warnings };
  const key = storageKey(req.kind, req.namespace, name);
  if (!changed) {
    yield { phase: 'etcd.persist', object: ref, field: 'spec.replicas', result: `no change: ${key} keeps resourceVersion ${current.metadata?.resourceVersion}`, detail: { key } };
    return { ok: true, code: 200, object: oldScale, ...(warnings.length ? { warnings } : {}) };
  }
  // The field manager records the scale's write on the workload under the scale subresource (ScaleHandler in
  // staging/src/k8s.io/apiserver/pkg/endpoints/handlers/fieldmanager, v0.36.3): `kubectl scale` owns spec.replicas.
  const recorded = req.fieldManager !== undefined ? updateManagedFields(current, updated, req.fieldManager, fieldManagerScope(ctx, req)) : updated;
  const stored = ctx.store.put(recorded);
  yield {
    phase: 'etcd.persist', object: ref, field: 'spec.replicas',
    result: `updated ${req.kind} "${name}" at ${key} through its scale: spec.replicas ${replicas} (resourceVersion ${stored.metadata?.resourceVersion}, generation ${stored.metadata?.generation ?? '-'})`,
    detail: { key, replicas, resourceVersion: stored.metadata?.resourceVersion, generation: stored.metadata?.generation ?? null },
  };
  return { ok: true, code: 200, object: scaleOf(stored), ...(warnings.length ? { warnings } : {}) };
}
