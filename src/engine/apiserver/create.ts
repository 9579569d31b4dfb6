// The create handler: decode and default, mutating admission, the registry's preparation and validation,
// validating admission, then storage. See staging/src/k8s.io/apiserver/pkg/endpoints/handlers/create.go
// and staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go (Create).
import { convertToV1, encodeAsStored } from '../api/conversion';
import { generateName } from '../api/naming';
import { deepClone, type KubeObject, objectRef, type Pod } from '../api/types';
import type { EngineContext } from '../context';
import { storageKey } from '../cluster/store';
import { quietEntry } from '../runtime/recorder';
import type { Steps } from '../runtime/step';
import { runAdmission } from './admission';
import { paramAuthorization } from './admission-policy-authz';
import { decodeBody } from './decode';
import type { AdmissionAttributes } from './admission/plugin';
import { internalError } from './admission/errors';
import { applyDefaults } from './defaulting';
import { applyManagedFields, fieldManagerScope, updateManagedFields } from './fieldmanager/manager';
import { escalationCheck, escalationEntry } from './rbac-escalation';
import { prepareObjectForCreate } from './registry';
import { allocateServiceCreate } from './service-alloc';
import { alreadyExists, type ApiRequest, invalid, type UserInfo } from './request';
import type { ApiOutcome } from './server';
import { toCauses } from './validation/field-errors';
import { validateObject } from './validation';
import { warningsOnCreate } from './warnings';

/** createObject serves a create request whose user is authenticated and authorized. */
export function* createObject(ctx: EngineContext, req: ApiRequest, ref: string, generatedName: string | undefined, apply?: { force: boolean }): Steps<ApiOutcome> {
  const user = req.user as UserInfo;
  // Decoding the body into the kind's Go type comes before admission (createHandler); it is recorded as the first
  // sub-step of apiserver.admit.mutating, where a person stepping through the request looks for it.
  const decoded = yield* decodeBody(req, ref);
  if ('error' in decoded) return { ok: false, error: decoded.error, phase: 'apiserver.admit.mutating' };
  const defaulted = applyDefaults(deepClone(decoded.object));
  // Admission sees the object as v1 (its webhooks get it so): convertToV1 (api/conversion.ts).
  const obj = convertToV1(defaulted.object);
  if (req.namespace && obj.metadata) obj.metadata.namespace = req.namespace;
  // The field manager records the create before admission (create.go: fieldManager.UpdateNoErrors); an apply that
  // creates makes the manager own its configuration (patch.go applyPatcher.createNewObject).
  if (req.fieldManager !== undefined) {
    const scope = fieldManagerScope(ctx, req);
    const recorded = apply ? applyManagedFields(undefined, (req.object ?? {}) as Record<string, unknown>, req.fieldManager, apply.force, scope).object
      : updateManagedFields(undefined, obj, req.fieldManager, scope);
    const entries = recorded.metadata?.managedFields;
    obj.metadata = { ...obj.metadata, ...(entries ? { managedFields: entries } : {}) };
    if (!entries) delete obj.metadata.managedFields;
  }
  // generatedName, drawn by the server, is assigned by the registry below, where kube-apiserver does it.
  // See staging/src/k8s.io/apiserver/pkg/registry/rest/create.go (BeforeCreate).
  // A request about an object the trace keeps nothing more of makes its steps without their results and details.
  yield ctx.recorder.isQuiet(ref) ? quietEntry('apiserver.admit.mutating', ref, DEFAULTING) : {
    phase: 'apiserver.admit.mutating', object: ref, step: DEFAULTING,
    result: defaulted.changes.length ? `defaulting set ${defaulted.changes.length} field(s): ${defaulted.changes.join(', ')}` : 'defaulting changed nothing',
    detail: { changes: defaulted.changes },
  };
  const attrs: AdmissionAttributes = {
    operation: 'CREATE', kind: req.kind, group: req.group, resource: req.resource, subresource: '',
    // The mutating pass sees the request's name: none yet for a generated one (errors then name its generateName).
    namespace: req.namespace ?? '', name: obj.metadata?.name ?? '', object: obj, user,
  };
  const mutating = yield* runAdmission(ctx, attrs, 'mutating', ref);
  if (mutating.error) return { ok: false, error: mutating.error, phase: 'apiserver.admit.mutating', warnings: mutating.warnings };
  // The registry's BeginCreate comes before PrepareForCreate and validation: a Service's cluster IPs and node ports.
  // See staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go (Create) and service-alloc.ts.
  let admitted = attrs.object;
  if (req.kind === 'Service') {
    const alloc = allocateServiceCreate(admitted, ctx.store.list('Service'));
    const failed = 'errors' in alloc ? invalid(req.kind, req.group, admitted.metadata?.name ?? '', toCauses(alloc.errors)) : 'internal' in alloc ? internalError(alloc.internal) : undefined;
    yield {
      phase: 'apiserver.validate', object: ref, step: { kind: 'plugin', name: 'allocate' }, field: 'spec.clusterIPs',
      result: failed ? failed.message : 'allocated' in alloc && alloc.allocated.length ? `allocated ${alloc.allocated.join(', ')}` : 'nothing to allocate',
      detail: failed ? { status: failed.status } : {}, ...(failed ? { outcome: 'rejected' as const } : {}),
    };
    if (failed) return { ok: false, error: failed, phase: 'apiserver.validate', warnings: mutating.warnings };
    if ('object' in alloc) admitted = alloc.object;
  }
  // The RBAC kinds' policy-based storages guard their Create before the registry's own (rbac-escalation.ts).
  const escalation = escalationCheck(ctx.store, ctx.profile, { obj: admitted, namespace: req.namespace ?? '', user });
  if (escalation) {
    yield escalationEntry(ref, req.kind, escalation);
    if ('error' in escalation) return { ok: false, error: escalation.error, phase: 'apiserver.validate', warnings: mutating.warnings };
  }
  // A generated name that is taken is drawn again, up to 8 tries, each through the registry's preparation, validation
  // and validating admission once more. See staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go
  // (createWithGenerateNameRetry, maxNameGenerationCreateAttempts; RetryGenerateName is GA and locked on since 1.32).
  let name = generatedName;
  let warnings: string[] = mutating.warnings;
  for (let attempt = 1; ; attempt++) {
    const tried = yield* prepareAndValidate(ctx, req, ref, attrs, admitted, name, warnings);
    if ('failed' in tried) return tried.failed;
    warnings = tried.warnings;
    const prepared = tried.prepared;
    // A taken name is found by storage itself, after admission. See registry/store.go (Create) and etcd3 store (Create).
    if (!ctx.store.get(req.kind, req.namespace, prepared.metadata?.name ?? '')) return yield* persist(ctx, req, ref, prepared, warnings);
    const error = alreadyExists(req.resource, req.group, prepared.metadata?.name ?? '');
    const again = name !== undefined && attempt < MAX_NAME_GENERATION_CREATE_ATTEMPTS;
    yield {
      phase: 'etcd.persist', object: ref, detail: { status: error.status, attempt },
      result: again ? `${error.message}: the name was generated, so the registry tries again with a new one (attempt ${attempt + 1} of ${MAX_NAME_GENERATION_CREATE_ATTEMPTS})` : error.message,
      ...(again ? {} : { outcome: 'rejected' as const }),
    };
    if (!again) return { ok: false, error, phase: 'etcd.persist' };
    name = generateName(admitted.metadata?.generateName ?? '', ctx.rng);
    ref = objectRef(req.kind, req.namespace, name);
  }
}

/** DEFAULTING is the defaulting sub-step of the mutating admission phase. */
const DEFAULTING = { kind: 'plugin', name: 'defaulting' } as const;

/** MAX_NAME_GENERATION_CREATE_ATTEMPTS is how many generated names a create tries (registry/store.go). */
export const MAX_NAME_GENERATION_CREATE_ATTEMPTS = 8;

/**
 * prepareAndValidate is one try of the registry's create: the name given and the strategy's PrepareForCreate,
 * validation, the strategy's warnings, then validating admission. It returns the object ready to store, or the
 * request's answer when one of them refuses it.
 */
function* prepareAndValidate(ctx: EngineContext, req: ApiRequest, ref: string, attrs: AdmissionAttributes, admitted: KubeObject, name: string | undefined, warningsSoFar: readonly string[]): Steps<{ prepared: KubeObject; warnings: string[] } | { failed: ApiOutcome }> {
  const prepared = convertToV1(prepareObjectForCreate(ctx, admitted, name));
  const errors = validateObject(prepared);
  // A well-formed admission policy or binding is also authorized against what its params refer to (admission-policy-authz.ts).
  if (errors.length === 0) errors.push(...paramAuthorization(ctx.store, ctx.profile, prepared, undefined, req.user as UserInfo));
  yield errors.length === 0 && ctx.recorder.isQuiet(ref) ? quietEntry('apiserver.validate', ref) : {
    phase: 'apiserver.validate', object: ref, field: errors[0]?.field,
    result: errors.length ? `invalid: ${errors.map((e) => `${e.field}: ${e.body}`).join('; ')}` : 'the object is valid',
    detail: { errors, status: prepared.status ?? null }, outcome: errors.length ? 'rejected' : 'ok',
  };
  // The language server's checks go on past the errors (they report them themselves) to see what comes after.
  if (errors.length && !ctx.pastInvalid) {
    const error = invalid(req.kind, req.group, prepared.metadata?.name ?? '', toCauses(errors));
    return { failed: { ok: false, error, phase: 'apiserver.validate' } };
  }
  // The strategy's warnings come once the object is valid, before validating admission runs. See
  // staging/src/k8s.io/apiserver/pkg/registry/rest/create.go (BeforeCreate: WarningsOnCreate) and warnings/index.ts.
  const strategyWarnings = warningsOnCreate(prepared);
  // The validating pass sees the generated name. See staging/src/k8s.io/apiserver/pkg/registry/rest/create.go (AdmissionToValidateObjectFunc).
  const validating = yield* runAdmission(ctx, { ...attrs, object: prepared, name: prepared.metadata?.name ?? '' }, 'validating', ref);
  // A warning recorded twice is sent once (staging/src/k8s.io/apiserver/pkg/endpoints/filters/warning.go, recorder.AddWarning).
  const warnings = [...new Set([...warningsSoFar, ...strategyWarnings, ...validating.warnings])];
  if (validating.error) return { failed: { ok: false, error: validating.error, phase: 'apiserver.admit.validating', warnings } };
  return { prepared, warnings };
}

/** persist stores the object (or, for a dry run, only says where it would go) and answers 201. */
function* persist(ctx: EngineContext, req: ApiRequest, ref: string, prepared: KubeObject, warnings: string[]): Steps<ApiOutcome> {
  if (req.dryRun) {
    // dryRun=All: the dry-run storage checks the key (above) and hands back the object it would have stored; nothing is
    // written and no resourceVersion is given. See staging/src/k8s.io/apiserver/pkg/registry/generic/registry/dryrun.go.
    const m = prepared.metadata ?? {};
    yield {
      phase: 'etcd.persist', object: ref, field: 'metadata',
      result: `dry run (dryRun=All): ${req.kind} "${m.name}" would be stored at ${storageKey(req.kind, req.namespace, m.name ?? '')}; nothing is written`,
      detail: { key: storageKey(req.kind, req.namespace, m.name ?? ''), dryRun: true, uid: m.uid, creationTimestamp: m.creationTimestamp },
    };
    return { ok: true, code: 201, object: encodeAsStored(prepared), ...(warnings.length ? { warnings } : {}) };
  }
  const stored = ctx.store.put(encodeAsStored(prepared));
  const m = stored.metadata ?? {};
  const status = (stored as Pod).status;
  if (ctx.recorder.isQuiet(ref)) yield quietEntry('etcd.persist', ref);
  else yield {
    phase: 'etcd.persist', object: ref, field: 'metadata',
    result: `stored ${req.kind} "${m.name}" at ${storageKey(req.kind, req.namespace, m.name ?? '')} (uid ${m.uid}, resourceVersion ${m.resourceVersion})`,
    detail: { key: storageKey(req.kind, req.namespace, m.name ?? ''), uid: m.uid, resourceVersion: m.resourceVersion, creationTimestamp: m.creationTimestamp, ...(status ? { phase: status.phase, qosClass: status.qosClass } : {}) },
  };
  return { ok: true, code: 201, object: stored, ...(warnings.length ? { warnings } : {}) };
}

/** KubeObjectWithStatus is an object that may carry a status. */
export type KubeObjectWithStatus = KubeObject & { status?: Record<string, unknown> };
