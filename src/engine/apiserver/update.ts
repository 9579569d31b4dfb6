// The update and patch handlers: the stored object, the patch merged into it (PATCH) or the body (PUT), defaulting,
// mutating admission (UPDATE), the strategy's PrepareForUpdate and ValidateUpdate, validating admission, storage.
// See staging/src/k8s.io/apiserver/pkg/endpoints/handlers/{update,patch}.go and registry/generic/registry/store.go (Update).
import { convertFromV1, convertToV1, encodeAsStored, podSpecsOf } from '../api/conversion';
import { deepClone, type KubeObject } from '../api/types';
import { jsonEqual } from '../api/json-equal';
import { dropTopologyOnV1 } from './endpoint-slice-topology';
import { encodeStoredFields } from '../api/stored-fields';
import { hpaFromV1, hpaToV1, isHpaV1 } from '../api/hpa-v1';
import type { EngineContext } from '../context';
import { storageKey } from '../cluster/store';
import type { Steps } from '../runtime/step';
import { runAdmission } from './admission';
import { paramAuthorization } from './admission-policy-authz';
import { escalationCheck, escalationEntry } from './rbac-escalation';
import type { AdmissionAttributes } from './admission/plugin';
import { applyDefaults } from './defaulting';
import { applyManagedFields, checkName, fieldManagerScope, updateManagedFields } from './fieldmanager/manager';
import { dropDisabledPodSpecFields } from './drop-disabled';
import { dropStatefulSetDisabledFields } from './registry';
import { applyPatch, type PatchType } from './patch';
import { type ApiRequest, invalid, notFound, StatusError, type UserInfo } from './request';
import type { ApiOutcome } from './server';
import { invalidValue, toCauses } from './validation/field-errors';
import { FIELD_IMMUTABLE } from './validation/field-errors';
import { validateObjectOnUpdate, validateUpdate, withoutUnchangedErrors } from './validation/update';

/** UpdateOptions carry a PATCH's body and its type (strategic merge when absent); a PUT sends the whole object as the request's object. */
export interface UpdateOptions {
  /** patch is a JSON object for a strategic merge or JSON merge patch, a list of operations for a JSON patch. */
  patch?: unknown;
  patchType?: PatchType;
  /** apply makes the patch a server-side apply configuration (application/apply-patch+yaml); force takes conflicting fields. */
  apply?: { force: boolean };
}

/** PATCH_NAMES name each patch type in the trace. */
const PATCH_NAMES: Readonly<Record<PatchType, string>> = { strategic: 'strategic merge patch', merge: 'JSON merge patch', json: 'JSON patch' };

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * prepareForUpdate is the strategies' PrepareForUpdate: the status cannot change through the main resource, the
 * system fields stay, and the generation grows when the spec changes (a Deployment's also when its annotations
 * do, since they are copied to its ReplicaSets). See pkg/registry/apps/deployment/strategy.go, replicaset/strategy.go,
 * core/replicationcontroller/strategy.go,
 * batch/job/strategy.go and policy/poddisruptionbudget/strategy.go (PrepareForUpdate) and rest/update.go (BeforeUpdate).
 */
export function prepareForUpdate(given: KubeObject, old: KubeObject): KubeObject {
  // A StatefulSet's disabled fields are dropped before the generation compares its spec (statefulset/strategy.go).
  const next = given.kind === 'StatefulSet' ? dropStatefulSetDisabledFields(given, old) : given;
  // Fields of disabled features are dropped unless the stored object uses them (DropDisabledPodFields(new, old)).
  const oldSpecs = podSpecsOf(old);
  podSpecsOf(next).forEach((spec, i) => dropDisabledPodSpecFields(spec, oldSpecs[i] ?? {}));
  const m = old.metadata ?? {};
  const out: KubeObject = {
    ...next,
    metadata: {
      ...next.metadata, uid: m.uid, creationTimestamp: m.creationTimestamp,
      ...(m.generation !== undefined ? { generation: m.generation } : {}),
      ...(m.deletionTimestamp ? { deletionTimestamp: m.deletionTimestamp, deletionGracePeriodSeconds: m.deletionGracePeriodSeconds } : {}),
    },
  };
  // Empty lists are omitempty in ObjectMeta: they are not kept.
  if (out.metadata?.ownerReferences?.length === 0) delete (out.metadata as { ownerReferences?: unknown }).ownerReferences;
  if (out.metadata?.finalizers?.length === 0) delete (out.metadata as { finalizers?: unknown }).finalizers;
  if ('status' in old) out['status'] = old['status'];
  else delete out['status'];
  const bumps = ['Deployment', 'ReplicaSet', 'ReplicationController', 'Job', 'StatefulSet', 'DaemonSet', 'Pod', 'PodDisruptionBudget'].includes(String(next.kind));
  const changed = !same(next['spec'], old['spec']) || (next.kind === 'Deployment' && !same(next.metadata?.annotations, old.metadata?.annotations));
  if (bumps && changed) out.metadata = { ...out.metadata, generation: (m.generation ?? 1) + 1 };
  // An EndpointSlice's generation grows when anything but its metadata changed, or its labels did; the fields Go always
  // writes compare as written. See pkg/registry/discovery/endpointslice/strategy.go (PrepareForUpdate), v1.36.3.
  if (next.kind === 'EndpointSlice') {
    const body = (o: KubeObject): KubeObject => {
      const copy = deepClone({ ...o, metadata: {} });
      encodeStoredFields(copy);
      return copy;
    };
    if (!jsonEqual(body(next), body(old)) || !jsonEqual(next.metadata?.labels ?? {}, m.labels ?? {})) out.metadata = { ...out.metadata, generation: (m.generation ?? 0) + 1 };
    // The generation is decided first, with the deprecatedTopology the request sent (endpoint-slice-topology.ts).
    return dropTopologyOnV1(out, old);
  }
  // A CSIDriver's, a ValidatingAdmissionPolicy's and a binding's generation grows with its spec, a webhook
  // configuration's with its webhooks. See pkg/registry/storage/csidriver/strategy.go and
  // pkg/registry/admissionregistration/{*webhookconfiguration,validatingadmissionpolicy{,binding}}/strategy.go (v1.36.3).
  const webhooks = next.kind === 'ValidatingWebhookConfiguration' || next.kind === 'MutatingWebhookConfiguration';
  const specBumps = ['CSIDriver', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding'].includes(String(next.kind));
  if ((specBumps && changed) || (webhooks && !same(next['webhooks'], old['webhooks']))) {
    out.metadata = { ...out.metadata, generation: (m.generation ?? 0) + 1 };
  }
  // A DaemonSet keeps its templateGeneration (the annotation deprecated.daemonset.template.generation in apps/v1),
  // one more when the template changed. See pkg/registry/apps/daemonset/strategy.go (PrepareForUpdate), v1.36.3.
  if (next.kind === 'DaemonSet') {
    const key = 'deprecated.daemonset.template.generation';
    const was = Number.parseInt(old.metadata?.annotations?.[key] ?? '', 10);
    const templateGeneration = Number.isFinite(was) ? was : 1;
    const template = (o: KubeObject) => (o['spec'] as { template?: unknown } | undefined)?.template;
    const value = String(same(template(next), template(old)) ? templateGeneration : templateGeneration + 1);
    out.metadata = { ...out.metadata, annotations: { ...(out.metadata?.annotations ?? {}), [key]: value } };
  }
  return out;
}

/** updateObject serves an update (PUT) or patch (PATCH) request whose user is authenticated and authorized. */
export function* updateObject(ctx: EngineContext, req: ApiRequest, ref: string, options: UpdateOptions = {}): Steps<ApiOutcome> {
  const user = req.user as UserInfo;
  const current = ctx.store.get(req.kind, req.namespace, req.name ?? '');
  if (!current) {
    const error = notFound(req.resource, req.group, req.name ?? '');
    yield { phase: 'apiserver.admit.mutating', object: ref, result: error.message, detail: { status: error.status }, outcome: 'rejected' };
    return { ok: false, error, phase: 'apiserver.admit.mutating' };
  }
  const patched = options.patch !== undefined;
  let merged: KubeObject;
  try {
    // At autoscaling/v1 the patch applies to the object as v1 serves it, and the result (or the body) converts back to
    // the stored autoscaling/v2. See pkg/apis/autoscaling/v1/conversion.go and handlers/patch.go (v1.36.3).
    const v1 = isHpaV1(req);
    const base = v1 ? hpaToV1(current) : current;
    if (options.apply) {
      // Server-side apply: the configuration merged into the live object by the field manager (patch.go applyPatcher).
      merged = applyManagedFields(base, options.patch as Record<string, unknown>, req.fieldManager ?? '', options.apply.force, fieldManagerScope(ctx, req)).object;
      checkName(merged, req);
    } else merged = patched ? applyPatch(base, options.patch, options.patchType ?? 'strategic') : deepClone(req.object ?? {});
    if (v1 && isHpaV1(merged)) merged = hpaFromV1(merged);
  } catch (e) {
    if (!(e instanceof StatusError)) throw e;
    yield { phase: 'apiserver.admit.mutating', object: ref, step: { kind: 'plugin', name: 'patch' }, result: e.message, detail: { status: e.status }, outcome: 'rejected' };
    return { ok: false, error: e, phase: 'apiserver.admit.mutating' };
  }
  if (patched) {
    yield {
      phase: 'apiserver.admit.mutating', object: ref, step: { kind: 'plugin', name: 'patch' },
      result: `merged the ${options.apply ? `apply configuration of "${req.fieldManager}"` : PATCH_NAMES[options.patchType ?? 'strategic']} into ${req.kind} "${req.name}" (resourceVersion ${current.metadata?.resourceVersion})`,
      detail: { patch: options.patch },
    };
  }
  // The body (or the patched object) is decoded and converted as a create's is (api/conversion.ts).
  convertFromV1(merged);
  const defaulted = applyDefaults(merged);
  convertToV1(defaulted.object);
  // The field manager records the write before admission (patch.go, update.go: fieldManager.UpdateNoErrors); an apply
  // recorded its own above.
  if (req.fieldManager !== undefined && !options.apply) defaulted.object = updateManagedFields(current, defaulted.object, req.fieldManager, fieldManagerScope(ctx, req));
  yield {
    phase: 'apiserver.admit.mutating', object: ref, step: { kind: 'plugin', name: 'defaulting' },
    result: defaulted.changes.length ? `defaulting set ${defaulted.changes.length} field(s): ${defaulted.changes.join(', ')}` : 'defaulting changed nothing',
    detail: { changes: defaulted.changes },
  };
  const attrs: AdmissionAttributes = {
    operation: 'UPDATE', kind: req.kind, group: req.group, resource: req.resource, subresource: req.subresource ?? '',
    namespace: req.namespace ?? '', name: req.name ?? '', object: defaulted.object, oldObject: current, user,
  };
  const mutating = yield* runAdmission(ctx, attrs, 'mutating', ref);
  if (mutating.error) return { ok: false, error: mutating.error, phase: 'apiserver.admit.mutating', warnings: mutating.warnings };
  // The RBAC kinds' policy-based storages guard their Update once the object is admitted (rbac-escalation.ts).
  const escalation = escalationCheck(ctx.store, ctx.profile, { obj: attrs.object, namespace: req.namespace ?? '', user, old: current });
  if (escalation) {
    yield escalationEntry(ref, req.kind, escalation);
    if ('error' in escalation) return { ok: false, error: escalation.error, phase: 'apiserver.validate', warnings: mutating.warnings };
  }
  const prepared = convertToV1(prepareForUpdate(attrs.object, current));
  // A stored object has always been through defaulting; one loaded from a cluster file may not have been, so the
  // immutable-field rules compare against the old object as the API server would hold it.
  const old = convertToV1(applyDefaults(deepClone(current)).object);
  const errors = withoutUnchangedErrors([...validateObjectOnUpdate(prepared, old), ...validateUpdate(prepared, old)], prepared, old);
  // A well-formed admission policy or binding is also authorized against what its params refer to (admission-policy-authz.ts).
  if (errors.length === 0) errors.push(...paramAuthorization(ctx.store, ctx.profile, prepared, old, user));
  // A patch naming another uid (the controllers' claim patches carry the object's uid as a precondition) fails
  // ValidateObjectMetaUpdate: metadata.uid is immutable. See apimachinery/pkg/api/validation/objectmeta.go.
  const patchedUid = merged.metadata?.uid;
  if (patched && patchedUid && patchedUid !== current.metadata?.uid) errors.unshift(invalidValue('metadata.uid', patchedUid, FIELD_IMMUTABLE));
  yield {
    phase: 'apiserver.validate', object: ref, field: errors[0]?.field,
    result: errors.length ? `invalid: ${errors.map((e) => `${e.field}: ${e.body}`).join('; ')}` : 'the update is valid',
    detail: { errors, generation: prepared.metadata?.generation ?? null }, outcome: errors.length ? 'rejected' : 'ok',
  };
  if (errors.length) return { ok: false, error: invalid(req.kind, req.group, req.name ?? '', toCauses(errors)), phase: 'apiserver.validate' };
  const validating = yield* runAdmission(ctx, { ...attrs, object: prepared }, 'validating', ref);
  const warnings = [...mutating.warnings, ...validating.warnings];
  if (validating.error) return { ok: false, error: validating.error, phase: 'apiserver.admit.validating', warnings };
  const key = storageKey(req.kind, req.namespace, req.name ?? '');
  // etcd3's GuaranteedUpdate writes nothing when the object did not change: the resourceVersion stays.
  const { resourceVersion: _rv, ...before } = current.metadata ?? {};
  const { resourceVersion: _nrv, ...after } = prepared.metadata ?? {};
  if (same({ ...current, metadata: before }, { ...prepared, metadata: after })) {
    yield { phase: 'etcd.persist', object: ref, field: 'metadata', result: `no change: ${key} keeps resourceVersion ${current.metadata?.resourceVersion}`, detail: { key, resourceVersion: current.metadata?.resourceVersion } };
    return { ok: true, code: 200, object: current, ...(warnings.length ? { warnings } : {}) };
  }
  if (req.dryRun) {
    // dryRun=All: the dry-run storage hands back what it would have written, at the stored resourceVersion; nothing is
    // written. See staging/src/k8s.io/apiserver/pkg/registry/generic/registry/dryrun.go (GuaranteedUpdate), v0.36.3.
    yield { phase: 'etcd.persist', object: ref, field: 'metadata', result: `dry run (dryRun=All): ${req.kind} "${req.name}" would be updated at ${key}; nothing is written`, detail: { key, dryRun: true } };
    return { ok: true, code: 200, object: encodeAsStored({ ...prepared, metadata: { ...prepared.metadata, resourceVersion: current.metadata?.resourceVersion } }), ...(warnings.length ? { warnings } : {}) };
  }
  // An update that removes the last finalizer of an object already deleted (grace period 0) deletes it.
  // See registry/generic/registry/store.go (Update, ShouldDeleteDuringUpdate).
  if (prepared.metadata?.deletionTimestamp && !(prepared.metadata.finalizers ?? []).length && (current.metadata?.deletionGracePeriodSeconds ?? 0) === 0 && req.kind !== 'Pod') {
    ctx.store.remove(req.kind, req.namespace, req.name ?? '');
    yield { phase: 'apiserver.finalize', object: ref, field: 'metadata.finalizers', result: `the last finalizer is gone: removed ${req.kind} "${req.name}" from storage`, detail: { key } };
    return { ok: true, code: 200, object: prepared, gone: true };
  }
  const stored = ctx.store.put(encodeAsStored(prepared));
  yield {
    phase: 'etcd.persist', object: ref, field: 'metadata',
    result: `updated ${req.kind} "${req.name}" at ${key} (resourceVersion ${stored.metadata?.resourceVersion}, generation ${stored.metadata?.generation ?? '-'})`,
    detail: { key, resourceVersion: stored.metadata?.resourceVersion, generation: stored.metadata?.generation ?? null },
  };
  return { ok: true, code: 200, object: stored, ...(warnings.length ? { warnings } : {}) };
}
