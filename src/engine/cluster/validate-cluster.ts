// The objects of cluster files, taken as kube-apiserver would take them on create: each decodes into its kind's Go
// type (BadRequest), is defaulted and passes its kind's validation (Invalid), and no two have one name
// (AlreadyExists). The first that would not stops the run before it starts: an InputError at the field's line, in
// the API server's words. See staging/src/k8s.io/apiserver/pkg/endpoints/handlers/create.go (decode),
// staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go (Create: the strategy's Validate, then the
// storage's "already exists") at kubernetes v1.36.3.
import { deepClone, type KubeObject } from '../api/types';
import { decodeObject } from '../apiserver/decode';
import { applyDefaults } from '../apiserver/defaulting';
import { prepareWith } from '../apiserver/registry';
import { alreadyExists, invalid } from '../apiserver/request';
import { validateServiceCreate } from '../apiserver/service-alloc';
import { validateObject } from '../apiserver/validation';
import type { FieldError } from '../apiserver/validation/field-errors';
import { toCauses } from '../apiserver/validation/field-errors';
import { Checker } from './checker';
import { InputError, type SourceDocument } from './inputs';
import { RESOURCES } from './store';

/** validateClusterObjects checks the cluster files' objects in order and throws at the first one the API server would refuse. */
export function validateClusterObjects(docs: readonly SourceDocument[]): void {
  const taken = new Set<string>();
  for (const doc of docs) {
    const kind = String(doc.object.kind ?? '');
    const apiVersion = String(doc.object.apiVersion ?? '');
    const info = RESOURCES[kind];
    const group = info?.group ?? (apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '');
    const namespaced = info?.namespaced ?? true;
    const name = doc.object.metadata?.name ?? '';
    // kubectl sends a namespaced object that names no namespace to its context's namespace, default.
    const object: KubeObject = namespaced && !doc.object.metadata?.namespace
      ? { ...doc.object, metadata: { ...doc.object.metadata, namespace: 'default' } } : doc.object;
    const decoded = decodeObject(object, { strict: false });
    if ('error' in decoded) throw at(doc, decoded.field, decoded.error.message);
    // The registry prepares the object before its strategy validates it (BeforeCreate, PrepareForCreate: a Job gets
    // its generated selector). A managedFields list that does not decode is dropped by the field manager
    // (UpdateNoErrors), never refused: it is left out here.
    const { managedFields: _m, ...meta } = object.metadata ?? {};
    const system = { uid: meta.uid ?? '00000000-0000-0000-0000-000000000000', creationTimestamp: meta.creationTimestamp ?? '1970-01-01T00:00:00Z' };
    const prepared = prepareWith(applyDefaults(deepClone({ ...object, metadata: meta })).object, undefined, system);
    const errors = kind === 'Service' ? validateClusterService(prepared) : validateObject(prepared);
    if (errors.length) throw at(doc, sourcePath(kind, errors[0]!.field), invalid(kind, group, name, toCauses(errors)).message);
    const key = `${group}/${kind}/${namespaced ? object.metadata?.namespace : ''}/${name}`;
    if (taken.has(key)) throw at(doc, 'metadata.name', alreadyExists(info?.resource ?? `${kind.toLowerCase()}s`, group, name).message);
    taken.add(key);
  }
}

/**
 * validateClusterService validates a Service of a cluster file as it was stored: one written without its cluster IP
 * gets what the allocators gave it on create (as bootstrap.ts gives it), one naming clusterIP alone gets clusterIPs
 * from it (normalizeClusterIPs); an address the engine's service range does not hold is kept, as a real dump has it.
 */
function validateClusterService(service: KubeObject): FieldError[] {
  const spec = (service['spec'] ?? {}) as { clusterIP?: unknown; clusterIPs?: unknown; type?: unknown };
  if (spec.clusterIP === undefined && spec.type !== 'ExternalName') {
    return validateServiceCreate(service, []);
  }
  const ips = Array.isArray(spec.clusterIPs) ? spec.clusterIPs : [];
  const normalized = typeof spec.clusterIP === 'string' && spec.clusterIP !== '' && ips.length === 0 ? { ...spec, clusterIPs: [spec.clusterIP] } : spec;
  return validateObject({ ...service, spec: normalized });
}

/** at is an InputError at a field of the document (its nearest ancestor with a range, else the document's start). */
function at(doc: SourceDocument, path: string | undefined, problem: string): InputError {
  return new InputError(doc.file, new Checker(doc).line(path ?? ''), problem);
}

/** sourcePath is where an error's field is written: ValidateNode reports spec.taints as metadata.taints. */
function sourcePath(kind: string, field: string): string {
  return kind === 'Node' && field.startsWith('metadata.taints') ? `spec.taints${field.slice('metadata.taints'.length)}` : field;
}
