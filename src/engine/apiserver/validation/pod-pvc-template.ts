// A generic ephemeral volume's claim template: only labels and annotations in its metadata, and a valid claim spec.
// See pkg/apis/core/validation/validation.go (validateEphemeralVolumeSource, ValidatePersistentVolumeClaimTemplate,
// ValidateTemplateObjectMeta, ValidatePersistentVolumeClaimSpec) and apimachinery's ValidateAnnotations.
import { asJSON, child, type FieldError, forbidden, invalidValue, key, notSupported, required, tooLong } from './field-errors';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, nameIsDNSSubdomain } from './names';
import { validateLabels, validateLabelSelector } from './pod-label-selectors';
import { quantityOf } from '../../api/quantity';
import type { LabelSelector } from 'kubernetes-types/meta/v1';

type Rec = Record<string, unknown>;

// Why: supportedAccessModes and supportedVolumeModes, sorted by sets.List.
const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
const VOLUME_MODES = ['Block', 'Filesystem'];
const TOTAL_ANNOTATION_SIZE = 256 * 1024;
// ObjectMeta's fields in Go order (json name, Go name), for the allow list of a template's metadata.
const OBJECT_META_FIELDS: readonly (readonly [string, string])[] = [
  ['name', 'Name'], ['generateName', 'GenerateName'], ['namespace', 'Namespace'], ['selfLink', 'SelfLink'], ['uid', 'UID'],
  ['resourceVersion', 'ResourceVersion'], ['generation', 'Generation'], ['creationTimestamp', 'CreationTimestamp'],
  ['deletionTimestamp', 'DeletionTimestamp'], ['deletionGracePeriodSeconds', 'DeletionGracePeriodSeconds'], ['labels', 'Labels'],
  ['annotations', 'Annotations'], ['ownerReferences', 'OwnerReferences'], ['finalizers', 'Finalizers'], ['managedFields', 'ManagedFields'],
];
const TEMPLATE_META_ALLOWED = new Set(['Labels', 'Annotations']);

const rec = (v: unknown): Rec | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Rec) : undefined);
// Why: validateFieldAllowList compares each Go field with its zero value (reflect.DeepEqual): a pointer
// (deletionTimestamp, deletionGracePeriodSeconds) or a slice (ownerReferences, finalizers, managedFields) is set once it
// is not nil, even to 0 or []; a string, an int or a Time is set when it is not zero.
const NILLABLE = new Set(['deletionTimestamp', 'deletionGracePeriodSeconds', 'ownerReferences', 'finalizers', 'managedFields']);
const isSet = (json: string, v: unknown): boolean => v !== undefined && v !== null && (NILLABLE.has(json) || (v !== '' && v !== 0));

/** validateEphemeralVolumeSource is validateEphemeralVolumeSource: a volumeClaimTemplate, itself valid. */
export function validateEphemeralVolumeSource(source: Rec, path: string): FieldError[] {
  const template = rec(source['volumeClaimTemplate']);
  const at = child(path, 'volumeClaimTemplate');
  if (!template) return [required(at)];
  return [...validateTemplateObjectMeta(rec(template['metadata']) ?? {}, child(at, 'metadata')), ...validateClaimSpec(rec(template['spec']) ?? {}, child(at, 'spec'))];
}

/** validateTemplateObjectMeta is ValidateTemplateObjectMeta: annotations, labels, and nothing else set. */
function validateTemplateObjectMeta(meta: Rec, path: string): FieldError[] {
  const errs = validateAnnotations(rec(meta['annotations']) as Record<string, string> | undefined, child(path, 'annotations'));
  errs.push(...validateLabels(rec(meta['labels']) as Record<string, string> | undefined, child(path, 'labels')));
  for (const [json, goName] of OBJECT_META_FIELDS) {
    if (TEMPLATE_META_ALLOWED.has(goName) || !isSet(json, meta[json])) continue;
    // Why: validateFieldAllowList lower-cases the first letter of the Go field name (UID becomes uID).
    errs.push(forbidden(child(path, goName[0]!.toLowerCase() + goName.slice(1)), 'cannot be set'));
  }
  return errs;
}

/** validateAnnotations is apimachinery's ValidateAnnotations: qualified (lower-cased) keys, at most 256 KiB in all. */
function validateAnnotations(annotations: Record<string, string> | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let size = 0;
  for (const [k, v] of Object.entries(annotations ?? {})) {
    errs.push(...isQualifiedName(k.toLowerCase()).map((msg) => invalidValue(path, k, msg)));
    size += Buffer.byteLength(k) + Buffer.byteLength(String(v));
  }
  if (size > TOTAL_ANNOTATION_SIZE) errs.push(tooLong(path, TOTAL_ANNOTATION_SIZE));
  return errs;
}

/**
 * validateClaimTemplateSpec is ValidatePersistentVolumeClaimSpec for a StatefulSet's volumeClaimTemplates[i].spec
 * (validateVolumeClaimTemplates in pkg/apis/apps/validation/validation.go, v1.36.3): the same rules as an ephemeral
 * volume's claim template.
 */
export function validateClaimTemplateSpec(spec: Rec, path: string): FieldError[] {
  return validateClaimSpec(spec, path);
}

/**
 * validateClaimSpec is ValidatePersistentVolumeClaimSpec with the create options (no old object, VolumeAttributesClass
 * on, invalid label values and data source API groups refused): a claim's, a claim template's.
 */
export function validateClaimSpec(spec: Rec, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const modes = Array.isArray(spec['accessModes']) ? (spec['accessModes'] as string[]) : [];
  if (modes.length === 0) errs.push(required(child(path, 'accessModes'), 'at least 1 access mode is required'));
  if (spec['selector']) errs.push(...validateLabelSelector(spec['selector'] as LabelSelector, child(path, 'selector')));
  let rwop = false;
  let other = false;
  for (const mode of modes) {
    if (!ACCESS_MODES.includes(mode)) errs.push(notSupported(child(path, 'accessModes'), asJSON(mode), ACCESS_MODES));
    if (mode === 'ReadWriteOncePod') rwop = true;
    else if (ACCESS_MODES.includes(mode)) other = true;
  }
  if (rwop && other) errs.push(forbidden(child(path, 'accessModes'), 'may not use ReadWriteOncePod with other access modes'));
  errs.push(...validateStorageRequest(rec(rec(spec['resources'])?.['requests'])?.['storage'], key(child(path, 'resources'), 'storage')));
  const className = spec['storageClassName'];
  if (typeof className === 'string' && className) errs.push(...nameIsDNSSubdomain(className, false).map((msg) => invalidValue(child(path, 'storageClassName'), className, msg)));
  const volumeMode = spec['volumeMode'];
  if (typeof volumeMode === 'string' && !VOLUME_MODES.includes(volumeMode)) errs.push(notSupported(child(path, 'volumeMode'), asJSON(volumeMode), VOLUME_MODES));
  const dataSource = rec(spec['dataSource']);
  if (dataSource) errs.push(...validateDataSource(dataSource, child(path, 'dataSource')));
  const dataSourceRef = rec(spec['dataSourceRef']);
  if (dataSourceRef) errs.push(...validateDataSource(dataSourceRef, child(path, 'dataSourceRef')));
  errs.push(...validateDataSourcePair(dataSource, dataSourceRef, path));
  const vac = spec['volumeAttributesClassName'];
  if (typeof vac === 'string' && vac) errs.push(...nameIsDNSSubdomain(vac, false).map((msg) => invalidValue(child(path, 'volumeAttributesClassName'), vac, msg)));
  return errs;
}

/** validateStorageRequest: the storage request is required, positive and not negative. */
function validateStorageRequest(value: unknown, path: string): FieldError[] {
  const q = quantityOf(value);
  if (!q) return [required(path)];
  if (q.sign() <= 0) return [invalidValue(path, q.toString(), 'must be greater than zero')];
  return [];
}

/** validateDataSource is validateDataSource / validateDataSourceRef: name and kind, a PVC in the core group, a DNS group. */
function validateDataSource(ds: Rec, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const kind = typeof ds['kind'] === 'string' ? ds['kind'] : '';
  const apiGroup = typeof ds['apiGroup'] === 'string' ? ds['apiGroup'] : '';
  if (!ds['name']) errs.push(required(child(path, 'name')));
  if (!kind) errs.push(required(child(path, 'kind')));
  if (!apiGroup && kind !== 'PersistentVolumeClaim') errs.push(invalidValue(path, kind, "must be 'PersistentVolumeClaim' when referencing the default apiGroup"));
  if (apiGroup) errs.push(...isDNS1123Subdomain(apiGroup).map((msg) => invalidValue(child(path, 'apiGroup'), apiGroup, msg)));
  const namespace = ds['namespace'];
  if (typeof namespace === 'string' && namespace) errs.push(...isDNS1123Label(namespace).map((msg) => invalidValue(child(path, 'namespace'), namespace, msg)));
  return errs;
}

/**
 * validateDataSourcePair: a dataSourceRef naming a namespace leaves no room for a dataSource; otherwise both, when set,
 * name the same object (isDataSourceEqualDataSourceRef: the apiGroup pointers equal, kind and name). The bad value Go
 * gives is a *field.Path, whose unexported fields json.Marshal prints as `{}`.
 */
function validateDataSourcePair(ds: Rec | undefined, ref: Rec | undefined, path: string): FieldError[] {
  const refNamespace = ref?.['namespace'];
  if (typeof refNamespace === 'string' && refNamespace) {
    return ds ? [invalidValue(path, asJSON({}), 'may not be specified when dataSourceRef.namespace is specified')] : [];
  }
  if (!ds || !ref) return [];
  const same = (ds['apiGroup'] ?? null) === (ref['apiGroup'] ?? null) && (ds['kind'] ?? '') === (ref['kind'] ?? '') && (ds['name'] ?? '') === (ref['name'] ?? '');
  return same ? [] : [invalidValue(path, asJSON({}), 'must match dataSourceRef')];
}
