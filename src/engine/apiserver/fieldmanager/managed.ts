// metadata.managedFields read and written as kube-apiserver 1.36 does: one entry per manager, operation, apiVersion
// (none kept in an Apply's identity) and subresource, sorted by operation, time, manager, apiVersion and subresource;
// and the 409 an apply's conflicts give. See staging/src/k8s.io/apimachinery/pkg/util/managedfields/internal
// (v0.36.3) managedfields.go (DecodeManagedFields, BuildManagerIdentifier, sortEncodedManagedFields) and conflict.go.
import type { ManagedFieldsEntry } from 'kubernetes-types/meta/v1';
import { StatusError } from '../request';
import { pathString, type Path } from './path';
import { FieldSet } from './set';

/** ManagerSet is one manager's entry: who, how, at which version, when, and the fields. */
export interface ManagerSet {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  subresource?: string;
  time?: string;
  set: FieldSet;
}

/** Managed maps each manager's identity (BuildManagerIdentifier's JSON) to its entry. */
export type Managed = Map<string, ManagerSet>;

/** managerIdentifier is BuildManagerIdentifier: the entry without time and fields as JSON, an Apply's without apiVersion. */
export function managerIdentifier(e: Pick<ManagerSet, 'manager' | 'operation' | 'apiVersion' | 'subresource'>): string {
  return JSON.stringify({
    ...(e.manager ? { manager: e.manager } : {}), operation: e.operation,
    ...(e.operation === 'Update' && e.apiVersion ? { apiVersion: e.apiVersion } : {}), ...(e.subresource ? { subresource: e.subresource } : {}),
  });
}

/**
 * decodeManaged is DecodeManagedFields: it throws for an entry whose operation, apiVersion or fieldsType is wrong or
 * whose fields do not parse; the callers then fall back to the live object's or to none.
 */
export function decodeManaged(entries: readonly ManagedFieldsEntry[] | undefined): Managed {
  const out: Managed = new Map();
  (entries ?? []).forEach((e, i) => {
    if (e.operation !== 'Apply' && e.operation !== 'Update') throw new Error('operation must be `Apply` or `Update`');
    if (!e.apiVersion) throw new Error('apiVersion must not be empty');
    if (!e.fieldsType) throw new Error(`missing fieldsType in managed fields entry ${i}`);
    if (e.fieldsType !== 'FieldsV1') throw new Error(`invalid fieldsType ${JSON.stringify(e.fieldsType)} in managed fields entry ${i}`);
    const entry: ManagerSet = {
      manager: e.manager ?? '', operation: e.operation, apiVersion: e.apiVersion, ...(e.subresource ? { subresource: e.subresource } : {}),
      ...(e.time ? { time: e.time } : {}), set: FieldSet.fromFieldsV1(e.fieldsV1 ?? {}),
    };
    out.set(managerIdentifier(entry), entry);
  });
  return out;
}

/** isResetManagedFields tells a request that clears managedFields: an empty list, or one empty entry. */
export function isResetManagedFields(entries: readonly ManagedFieldsEntry[] | undefined): boolean {
  if (!entries) return false;
  if (entries.length === 0) return true;
  return entries.length === 1 && Object.keys(entries[0] ?? {}).length === 0;
}

/** encodeManaged is encodeManagedFields: the entries in ManagedFieldsEntry's field order, sorted; none when empty. */
export function encodeManaged(managed: Managed): ManagedFieldsEntry[] | undefined {
  if (!managed.size) return undefined;
  const seconds = (t?: string): number => (t ? Math.floor(Date.parse(t) / 1000) : 0);
  const entries = [...managed.values()].sort((p, q) => {
    if (p.operation !== q.operation) return p.operation < q.operation ? -1 : 1;
    if (seconds(p.time) !== seconds(q.time)) return seconds(p.time) - seconds(q.time);
    if (p.manager !== q.manager) return p.manager < q.manager ? -1 : 1;
    if (p.apiVersion !== q.apiVersion) return p.apiVersion < q.apiVersion ? -1 : 1;
    return (p.subresource ?? '') < (q.subresource ?? '') ? -1 : (p.subresource ?? '') > (q.subresource ?? '') ? 1 : 0;
  });
  return entries.map((e) => ({
    ...(e.manager ? { manager: e.manager } : {}), operation: e.operation, apiVersion: e.apiVersion,
    ...(e.time ? { time: e.time } : {}), fieldsType: 'FieldsV1', fieldsV1: e.set.toFieldsV1(), ...(e.subresource ? { subresource: e.subresource } : {}),
  }));
}

/** Conflict is one field another manager owns with another value. */
export interface Conflict {
  manager: string;
  path: Path;
}

/** printManager is conflict.go's printManager: `"name"`, its subresource, and an Update's apiVersion. */
function printManager(identifier: string): string {
  let e: { manager?: string; operation?: string; apiVersion?: string; subresource?: string };
  try {
    e = JSON.parse(identifier) as typeof e;
  } catch {
    return JSON.stringify(identifier);
  }
  let s = JSON.stringify(e.manager ?? '');
  if (e.subresource) s = `${s} with subresource ${JSON.stringify(e.subresource)}`;
  return e.operation === 'Update' ? `${s} using ${e.apiVersion ?? ''}` : s;
}

/**
 * conflictError is NewConflictError: a 409 Conflict whose causes name each field (reason FieldManagerConflict), with
 * getConflictMessage's message: the one conflict, or the managers sorted with their fields listed under each.
 */
export function conflictError(conflicts: readonly Conflict[]): StatusError {
  const causes = conflicts.map((c) => ({ reason: 'FieldManagerConflict', message: `conflict with ${printManager(c.manager)}`, field: pathString(c.path) }));
  let message: string;
  if (conflicts.length === 1) {
    const c = conflicts[0] as Conflict;
    message = `Apply failed with 1 conflict: conflict with ${printManager(c.manager)}: ${pathString(c.path)}`;
  } else {
    const byManager = new Map<string, Path[]>();
    for (const c of conflicts) byManager.set(c.manager, [...(byManager.get(c.manager) ?? []), c.path]);
    const lines: string[] = [];
    for (const m of [...byManager.keys()].sort()) {
      lines.push(`conflicts with ${printManager(m)}:`);
      for (const p of byManager.get(m) ?? []) lines.push(`- ${pathString(p)}`);
    }
    message = `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
  }
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'Conflict', details: { causes }, code: 409 });
}
