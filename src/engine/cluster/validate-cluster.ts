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
import { validateObject } from '../apiserver/validation';
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
    const errors = validateObject(prepareWith(applyDefaults(deepClone({ ...object, metadata: meta })).object, undefined, system));
    if (errors.length) throw at(doc, sourcePath(kind, errors[0]!.field), invalid(kind, group, name, toCauses(errors)).message);
    const key = `${group}/${kind}/${namespaced ? object.metadata?.namespace : ''}/${name}`;
    if (taken.has(key)) throw at(doc, 'metadata.name', alreadyExists(info?.resource ?? `${kind.toLowerCase()}s`, group, name).message);
    taken.add(key);
  }
}

/** at is an InputError at a field of the document (its nearest ancestor with a range, else the document's start). */
function at(doc: SourceDocument, path: string | undefined, problem: string): InputError {
  return new InputError(doc.file, new Checker(doc).line(path ?? ''), problem);
}

/** sourcePath is where an error's field is written: ValidateNode reports spec.taints as metadata.taints. */
function sourcePath(kind: string, field: string): string {
  return kind === 'Node' && field.startsWith('metadata.taints') ? `spec.taints${field.slice('metadata.taints'.length)}` : field;
}
