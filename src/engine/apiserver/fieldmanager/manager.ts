// The field manager of kube-apiserver 1.36: every write records in metadata.managedFields which manager set which
// fields (Update), and server-side apply merges a manager's configuration into the live object, removes what it
// applied before and applies no more, and refuses (409) to change fields other managers own unless forced.
// See staging/src/k8s.io/apimachinery/pkg/util/managedfields/internal (v0.36.3): fieldmanager.go (Update, Apply,
// decodeLiveOrNew), skipnonapplied.go, capmanagers.go, buildmanagerinfo.go, managedfieldsupdater.go, stripmeta.go,
// structuredmerge.go; and sigs.k8s.io/structured-merge-diff/v6@v6.3.3 merge/update.go (Updater.update, Update, Apply, prune).
import type { ManagedFieldsEntry } from 'kubernetes-types/meta/v1';
import { deepClone, type KubeObject } from '../../api/types';
import { internalError } from '../admission/errors';
import { type ApiRequest, badRequest, StatusError } from '../request';
import { type Conflict, conflictError, decodeManaged, encodeManaged, isResetManagedFields, type Managed, managerIdentifier, type ManagerSet } from './managed';
import { goJson, type JsonValue, type Path } from './path';
import { SCHEMA_TYPES } from '../../api/schema/schema.generated';
import { isJsonObject, kindType, type MergeType } from './schema';
import { FieldSet } from './set';
import { compare, type Comparison, merge, removeItems, toFieldSet, typedErrors, withNamedFields } from './typed';

/** FieldManagerScope is what a request's field manager knows: the version and kind served, the subresource, the time. */
export interface FieldManagerScope {
  apiVersion: string;
  kind: string;
  subresource?: string;
  /** now is the virtual clock's RFC 3339 time, seconds precision (metav1.Time). */
  now: string;
}

/** STRIP_SET are the fields no manager owns (stripmeta.go): type meta and the metadata the server keeps. */
const STRIP_SET = FieldSet.of(
  [{ field: 'apiVersion' }], [{ field: 'kind' }], [{ field: 'metadata' }],
  ...['name', 'namespace', 'creationTimestamp', 'selfLink', 'uid', 'clusterName', 'generation', 'managedFields', 'resourceVersion']
    .map((f): Path => [{ field: 'metadata' }, { field: f }]),
);

/** MAX_UPDATE_MANAGERS is DefaultMaxUpdateManagers; older Update managers merge into `ancient-changes`. */
const MAX_UPDATE_MANAGERS = 10;

/** BEFORE_FIRST_APPLY owns the fields of an object no manager tracked when it is first applied (skipnonapplied.go). */
const BEFORE_FIRST_APPLY = 'before-first-apply';

/**
 * resetFields are the strategies' GetResetFields as an exclude filter: through the main resource nobody owns the
 * status; through status only the status (and metadata) is owned. See pkg/registry/core/pod/strategy.go (GetResetFields).
 */
function filterReset(set: FieldSet, subresource: string | undefined): FieldSet {
  if (subresource === 'status') return set.onlyFields(['status', 'metadata']);
  return set.withoutPrefixes([[{ field: 'status' }]]);
}

/**
 * zeroObject is the object `scope.Creater.New` makes, as the type converter sees it: the Go zero value, whose structs
 * (metadata, spec, a pod template, a strategy) are there but empty and whose lists without omitempty are null. What the
 * first write adds beneath them is owned field by field; what it adds beside them is owned as a new node (`.`).
 * See staging/src/k8s.io/api/{core,apps,batch}/v1/types.go (v0.36.3).
 */
export function zeroObject(apiVersion: string, kind: string): Record<string, unknown> {
  const podTemplate = (): Record<string, unknown> => ({ metadata: {}, spec: { containers: null } });
  switch (kind) {
    case 'Pod': return { metadata: {}, spec: { containers: null }, status: {} };
    case 'Deployment': return { metadata: {}, spec: { template: podTemplate(), strategy: {} }, status: {} };
    case 'ReplicaSet': case 'Job': return { metadata: {}, spec: { template: podTemplate() }, status: {} };
    case 'StatefulSet': case 'DaemonSet': return { metadata: {}, spec: { template: podTemplate(), updateStrategy: {} }, status: {} };
    case 'CronJob': return { metadata: {}, spec: { jobTemplate: { metadata: {}, spec: { template: podTemplate() } } }, status: {} };
    case 'Service': return { metadata: {}, spec: {}, status: { loadBalancer: {} } };
    default: {
      // Every kind's Spec and Status are struct values, so always there.
      const t = kindType(apiVersion, kind);
      const props = t.t === 'struct' ? SCHEMA_TYPES[t.id]?.properties ?? {} : {};
      return { metadata: {}, ...('spec' in props ? { spec: {} } : {}), ...('status' in props ? { status: {} } : {}) };
    }
  }
}

/** withoutManagedFields is an object's value as compared: its managedFields left out. */
function withoutManagedFields(obj: unknown): Record<string, unknown> {
  const o = { ...(obj as Record<string, unknown>) };
  const meta = o['metadata'] as Record<string, unknown> | undefined;
  if (meta && 'managedFields' in meta) {
    const { managedFields: _m, ...rest } = meta;
    o['metadata'] = rest;
  }
  return o;
}

/** decodeOrEmpty is emptyManagedFieldsOnErr(DecodeManagedFields(...)). */
function decodeOrEmpty(entries: readonly ManagedFieldsEntry[] | undefined): Managed {
  try {
    return decodeManaged(entries);
  } catch {
    return new Map();
  }
}

/**
 * stealAndForget is Updater.update after its conflict check: every manager but `self` loses the fields the change
 * set (they conflict: forced) and those it removed; managers left with nothing are dropped.
 */
function stealAndForget(managed: Managed, self: string, cmp: Comparison): void {
  const changed = cmp.modified.union(cmp.added);
  for (const [id, m] of managed) {
    if (id === self) continue;
    m.set = m.set.difference(m.set.intersection(changed)).difference(cmp.removed);
    if (m.set.empty()) managed.delete(id);
  }
}

/** comparison is the change from one object to another, without the fields the request's strategy resets. */
function comparison(live: unknown, next: unknown, type: MergeType, subresource: string | undefined): Comparison {
  const c = compare(withoutManagedFields(live), withoutManagedFields(next), type);
  return { added: filterReset(c.added, subresource), modified: filterReset(c.modified, subresource), removed: filterReset(c.removed, subresource) };
}

/**
 * recordUpdate is the Update chain from BuildManagerInfo down: the manager, as an Update at the scope's version and
 * subresource, owns what it added or changed (the others lose it) and keeps what it owned before; a write that
 * changes nothing leaves every entry, time included, as it was.
 */
function recordUpdate(managed: Managed, live: unknown, next: unknown, manager: string, scope: FieldManagerScope, type: MergeType): void {
  const cmp = comparison(live, next, type, scope.subresource);
  const entry = { manager: manager || 'unknown', operation: 'Update' as const, apiVersion: scope.apiVersion, ...(scope.subresource ? { subresource: scope.subresource } : {}) };
  const id = managerIdentifier(entry);
  stealAndForget(managed, '', cmp);
  const own = cmp.modified.union(cmp.added).difference(STRIP_SET);
  if (own.empty()) return;
  const previous = managed.get(id);
  // A scale subresource's entry takes its time from the parent's entries, which never hold it: it has none
  // (staging/src/k8s.io/apimachinery/pkg/util/managedfields/scalehandler.go ToParent).
  const time = scope.subresource === 'scale' ? {} : { time: scope.now };
  managed.set(id, { ...entry, ...time, set: previous ? own.union(previous.set) : own });
  capUpdateManagers(managed, scope.apiVersion);
}

/** capUpdateManagers is capmanagers.go: past ten Update managers, the oldest are merged into `ancient-changes`. */
function capUpdateManagers(managed: Managed, apiVersion: string): void {
  const updaters = [...managed].filter(([, m]) => m.operation === 'Update');
  if (updaters.length <= MAX_UPDATE_MANAGERS) return;
  const seconds = (t?: string): number => (t ? Math.floor(Date.parse(t) / 1000) : 0);
  updaters.sort(([a, x], [b, y]) => seconds(x.time) - seconds(y.time) || (a < b ? -1 : a > b ? 1 : 0));
  const bucket = managerIdentifier({ manager: 'ancient-changes', operation: 'Update', apiVersion });
  let length = updaters.length;
  let first: string | undefined;
  for (const [id, m] of updaters) {
    if (length <= MAX_UPDATE_MANAGERS) break;
    if (first === undefined) {
      first = id;
      continue;
    }
    if (!managed.has(bucket)) {
      const s = managed.get(first) as ManagerSet;
      managed.delete(first);
      managed.set(bucket, { manager: 'ancient-changes', operation: 'Update', apiVersion, ...(s.time ? { time: s.time } : {}), set: s.set });
    }
    const b = managed.get(bucket) as ManagerSet;
    managed.set(bucket, { ...b, set: m.set.union(b.set), ...(m.time ? { time: m.time } : {}) });
    managed.delete(id);
    length--;
  }
}

/**
 * updateManagedFields is FieldManager.UpdateNoErrors for a create (no live object), update or patch: the request's own
 * managedFields are taken when they decode and are not empty (a main resource only; `[]` or `[{}]` clears them),
 * else the live object's; an object that has none and already exists is not tracked (skipnonapplied.go).
 */
export function updateManagedFields(live: KubeObject | undefined, next: KubeObject, manager: string, scope: FieldManagerScope): KubeObject {
  try {
    return recordedUpdate(live, next, manager, scope);
  } catch {
    // UpdateNoErrors: an object the field manager cannot read (a list item without its keys, which validation refuses
    // next) goes on without managedFields.
    return withManagedFields(next, undefined);
  }
}

function recordedUpdate(live: KubeObject | undefined, next: KubeObject, manager: string, scope: FieldManagerScope): KubeObject {
  const type = kindType(scope.apiVersion, scope.kind);
  const requested = next.metadata?.managedFields;
  let managed: Managed;
  if (scope.subresource) managed = decodeOrEmpty(live?.metadata?.managedFields);
  else if (isResetManagedFields(requested)) managed = new Map();
  else {
    managed = decodeOrEmpty(requested);
    if (!managed.size) managed = decodeOrEmpty(live?.metadata?.managedFields);
  }
  const out = withManagedFields(next, undefined);
  if (!managed.size && live) return out;
  recordUpdate(managed, live ?? zeroObject(scope.apiVersion, scope.kind), versionedView(out), manager, scope, type);
  return withManagedFields(out, encodeManaged(managed), requested ? next : live);
}

/** TEMPLATE_GENERATION is apps/v1's annotation of a DaemonSet's internal spec.templateGeneration. */
const TEMPLATE_GENERATION = 'deprecated.daemonset.template.generation';

/**
 * versionedView is the object as the field manager sees it, converted from the internal version: a DaemonSet always
 * carries its template generation annotation there ("0" before the strategy sets it), so its writer owns it.
 * See pkg/apis/apps/v1/conversion.go (Convert_apps_DaemonSet_To_v1_DaemonSet), v1.36.3.
 */
function versionedView(obj: KubeObject): KubeObject {
  if (obj.kind !== 'DaemonSet' || obj.metadata?.annotations?.[TEMPLATE_GENERATION] !== undefined) return obj;
  return { ...obj, metadata: { ...obj.metadata, annotations: { ...(obj.metadata?.annotations ?? {}), [TEMPLATE_GENERATION]: '0' } } };
}

/** ApplyResult is an apply's object (the live one when nothing changed) with its managedFields. */
export interface ApplyResult {
  object: KubeObject;
  changed: boolean;
}

/**
 * applyManagedFields is FieldManager.Apply: the configuration merged into the live object (or a new one), the fields
 * the manager applied before and no longer applies removed unless another manager owns them, the manager's set made
 * the configuration's, and other managers' fields it changes a conflict (409) unless `force` takes them over.
 */
export function applyManagedFields(live: KubeObject | undefined, config: Record<string, unknown>, manager: string, force: boolean, scope: FieldManagerScope): ApplyResult {
  const type = kindType(scope.apiVersion, scope.kind);
  // versioncheck.go: the configuration is of the kind and version served, `invalid object type: apps/v1, Kind=Deployment`.
  const apiVersion = typeof config['apiVersion'] === 'string' ? config['apiVersion'] : '';
  const kind = typeof config['kind'] === 'string' ? config['kind'] : '';
  if (apiVersion !== scope.apiVersion || kind !== scope.kind) {
    const [group, version] = apiVersion.includes('/') ? apiVersion.split('/', 2) : ['', apiVersion];
    throw badRequest(`invalid object type: ${group}/${version}, Kind=${kind}`);
  }
  const configMeta = config['metadata'] as Record<string, unknown> | undefined;
  // structuredmerge.go: an apply configuration may not carry managedFields.
  if (configMeta && configMeta['managedFields'] !== undefined) throw badRequest('metadata.managedFields must be nil');
  // The configuration must fit the schema (ObjectToTyped): a 500 without a reason, whatever fieldValidation says.
  const errs = typedErrors(config, type);
  if (errs.length) {
    const [group, version] = scope.apiVersion.includes('/') ? scope.apiVersion.split('/', 2) : ['', scope.apiVersion];
    const who = `${String(configMeta?.['namespace'] ?? '')}/${String(configMeta?.['name'] ?? '')}; ${group}/${version}, Kind=${scope.kind}`;
    const message = `failed to create typed patch object (${who}): ${errs.length === 1 ? errs[0] : ['errors:', ...errs.map((e) => `  ${e}`)].join('\n')}`;
    throw new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code: 500 });
  }
  let outcome = tolerant(() => mergeAndOwn(live, config, manager, force, scope, type));
  // lastappliedmanager.go: kubectl's own apply may take over, without force, the fields its client-side apply set
  // while the live object still has the values the last-applied annotation recorded (an upgrade to server-side apply).
  if ('conflicts' in outcome && manager === 'kubectl') {
    const allowed = allowedFromLastApplied(live, type, scope.apiVersion);
    const remaining = allowed ? outcome.conflicts.filter((c) => !allowed.has(c.path)) : outcome.conflicts;
    outcome = remaining.length ? { conflicts: remaining } : tolerant(() => mergeAndOwn(live, config, manager, true, scope, type));
  }
  if ('conflicts' in outcome) throw conflictError(outcome.conflicts);
  return outcome;
}

/**
 * tolerant runs an apply step, a live object the field manager cannot read being the 500 of structuredmerge.go's
 * `failed to create typed live object` rather than a crash.
 */
function tolerant<T>(step: () => T): T {
  try {
    return step();
  } catch (e) {
    if (e instanceof StatusError) throw e;
    throw new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `failed to create typed live object: ${(e as Error).message}`, code: 500 });
  }
}

/** mergeAndOwn is the apply from BuildManagerInfo down (see applyManagedFields), or the conflicts it met. */
function mergeAndOwn(live: KubeObject | undefined, config: Record<string, unknown>, manager: string, force: boolean, scope: FieldManagerScope, type: MergeType): ApplyResult | { conflicts: Conflict[] } {
  let managed: Managed;
  try {
    managed = decodeManaged(live?.metadata?.managedFields);
  } catch (e) {
    throw internalError(`failed to decode managed fields: ${(e as Error).message}`);
  }
  const base = live ? withoutManagedFields(live) : zeroObject(scope.apiVersion, scope.kind);
  // An object no manager tracked gets its fields owned by before-first-apply first, as an Update from nothing.
  if (!managed.size && live) recordUpdate(managed, zeroObject(scope.apiVersion, scope.kind), base, BEFORE_FIRST_APPLY, scope, type);
  const id = managerIdentifier({ manager, operation: 'Apply', apiVersion: scope.apiVersion });
  const last = managed.get(id);
  let merged = merge(base, config, type) as Record<string, unknown>;
  const applied = filterReset(toFieldSet(config, type), scope.subresource);
  managed.set(id, { manager, operation: 'Apply', apiVersion: scope.apiVersion, ...(last?.time ? { time: last.time } : {}), set: applied });
  if (last && !last.set.empty()) merged = prune(merged, last.set, managed, type);
  const cmp = comparison(base, merged, type, scope.subresource);
  const changed = cmp.modified.union(cmp.added);
  const conflicts: Conflict[] = [];
  for (const [other, m] of [...managed].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (other === id) continue;
    for (const path of m.set.intersection(changed).paths()) conflicts.push({ manager: other, path });
  }
  if (conflicts.length && !force) return { conflicts };
  stealAndForget(managed, id, cmp);
  const mine = managed.get(id) as ManagerSet;
  mine.set = mine.set.difference(STRIP_SET);
  if (mine.set.empty()) managed.delete(id);
  const isChanged = !cmp.added.empty() || !cmp.modified.empty() || !cmp.removed.empty() || !live;
  if (isChanged && managed.has(id)) mine.time = scope.now;
  const object = withLastApplied((isChanged ? merged : base) as KubeObject, config, manager, live);
  return { object: withManagedFields(object, encodeManaged(managed), live), changed: isChanged };
}

/**
 * allowedFromLastApplied is allowedConflictsFromLastApplied: the fields of the last-applied annotation whose values
 * the live object still has; undefined when there is no such annotation or it does not read.
 */
function allowedFromLastApplied(live: KubeObject | undefined, type: MergeType, apiVersion: string): FieldSet | undefined {
  const text = live?.metadata?.annotations?.[LAST_APPLIED];
  if (!text) return undefined;
  let last: unknown;
  try {
    last = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isJsonObject(last) || last['apiVersion'] !== apiVersion) return undefined;
  const cmp = compare(last, withoutManagedFields(live), type);
  return toFieldSet(last, type).difference(cmp.modified).difference(cmp.added).difference(cmp.removed);
}

/** LAST_APPLIED is the annotation of kubectl's client-side apply. */
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/**
 * withLastApplied is lastappliedupdater.go: kubectl's server-side apply (manager `kubectl`) keeps an existing
 * client-side apply annotation in step, as the configuration without that annotation, encoded as JSON with a newline.
 */
function withLastApplied(obj: KubeObject, config: Record<string, unknown>, manager: string, live: KubeObject | undefined): KubeObject {
  if (manager !== 'kubectl' || !live?.metadata?.annotations?.[LAST_APPLIED]) return obj;
  const meta = { ...(config['metadata'] as Record<string, unknown> | undefined) };
  // Unstructured's SetAnnotations: a map left empty stays `{}`, none stays none.
  if (isJsonObject(meta['annotations'])) {
    const annotations = { ...meta['annotations'] };
    delete annotations[LAST_APPLIED];
    meta['annotations'] = annotations;
  } else delete meta['annotations'];
  const value = `${goJson({ ...config, metadata: meta } as JsonValue)}\n`;
  return { ...obj, metadata: { ...obj.metadata, annotations: { ...(obj.metadata?.annotations ?? {}), [LAST_APPLIED]: value } } };
}

/**
 * prune is Updater.prune: what the manager applied last time and applies no more is removed from the merged object,
 * unless some manager (this one included, by its new configuration) still owns it.
 */
function prune(merged: Record<string, unknown>, lastSet: FieldSet, managed: Managed, type: MergeType): Record<string, unknown> {
  let owned = new FieldSet();
  for (const m of managed.values()) owned = owned.union(m.set);
  const removable = withNamedFields(lastSet, type).difference(withNamedFields(owned, type));
  if (removable.empty()) return merged;
  return (removeItems(merged, type, removable) ?? {}) as Record<string, unknown>;
}

/**
 * withManagedFields is a copy of an object with its managedFields set, or without any; they keep the place they have
 * in `like`'s metadata (the stored object's), so that a write that changes nothing stays byte for byte the same.
 */
function withManagedFields(obj: KubeObject, entries: ManagedFieldsEntry[] | undefined, like: KubeObject | undefined = obj): KubeObject {
  const out = deepClone(obj);
  const meta = (out.metadata ?? {}) as Record<string, unknown>;
  const order = [...Object.keys(like?.metadata ?? {}), ...Object.keys(meta)];
  const placed: Record<string, unknown> = {};
  for (const k of order) {
    if (k in placed) continue;
    if (k === 'managedFields') {
      if (entries) placed[k] = entries;
    } else if (k in meta) placed[k] = meta[k];
  }
  if (entries && !('managedFields' in placed)) placed['managedFields'] = entries;
  out.metadata = placed as KubeObject['metadata'];
  return out;
}

/** fieldManagerScope is a request's scope: its version, kind and subresource, at the virtual clock's time. */
export function fieldManagerScope(ctx: { clock: { timestamp(): string } }, req: Pick<ApiRequest, 'apiVersion' | 'kind' | 'subresource'>): FieldManagerScope {
  return { apiVersion: req.apiVersion, kind: req.kind, ...(req.subresource ? { subresource: req.subresource } : {}), now: ctx.clock.timestamp() };
}

/**
 * checkName is rest.go's checkName on an applied object: its name must be the URL's, its namespace (when it has one)
 * the request's. See staging/src/k8s.io/apiserver/pkg/endpoints/handlers/rest.go (v0.36.3).
 */
export function checkName(obj: KubeObject, req: Pick<ApiRequest, 'name' | 'namespace'>): void {
  const name = obj.metadata?.name ?? '';
  if (name !== (req.name ?? '')) throw badRequest(`the name of the object (${name}) does not match the name on the URL (${req.name ?? ''})`);
  const ns = obj.metadata?.namespace ?? '';
  if (req.namespace && ns && ns !== req.namespace) throw badRequest(`the namespace of the object (${ns}) does not match the namespace on the request (${req.namespace})`);
}
