// PersistentVolume validation on create: the persistentvolume strategy's Validate, ValidatePersistentVolume and
// ValidatePersistentVolumeSpec of pkg/apis/core/validation/validation.go with the create options (VolumeAttributesClass
// on, invalid label values in the node affinity refused), then checkMountOption of pkg/volume/validation/pv_validation.go
// (kubernetes v1.36.3). See pkg/registry/core/persistentvolume/strategy.go.
import { posix } from 'node:path';
import type { NodeSelector } from 'kubernetes-types/core/v1';
import { quantityOf } from '../../api/quantity';
import type { KubeObject } from '../../api/types';
import { asJSON, child, type FieldError, forbidden, invalidValue, key, notSupported, required } from './field-errors';
import { validateObjectMeta } from './metadata';
import { nameIsDNSSubdomain } from './names';
import { HAS_MOUNT_OPTIONS, validatePersistentVolumeSources } from './persistent-volume-sources';
import { validateNodeSelector } from './pod-scheduling';

type Rec = Record<string, unknown>;

/** ACCESS_MODES are supportedAccessModes, as sets.List sorts them. */
export const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
/** RECLAIM_POLICIES are supportedReclaimPolicy, sorted. */
const RECLAIM_POLICIES = ['Delete', 'Recycle', 'Retain'];
/** VOLUME_MODES are supportedVolumeModes, sorted. */
const VOLUME_MODES = ['Block', 'Filesystem'];
/** MOUNT_OPTIONS_ANNOTATION is core.MountOptionAnnotation. */
const MOUNT_OPTIONS_ANNOTATION = 'volume.beta.kubernetes.io/mount-options';
const NOT_POSITIVE = 'must be greater than zero';

const rec = (v: unknown): Rec | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Rec) : undefined);

/** validatePersistentVolume is the strategy's Validate: ValidatePersistentVolume, then the mount options check. */
export function validatePersistentVolume(pv: KubeObject): FieldError[] {
  const spec = rec(pv['spec']) ?? {};
  const name = pv.metadata?.name ?? '';
  // ValidatePersistentVolumeName is NameIsDNSSubdomain; a PersistentVolume has no namespace.
  const errs = validateObjectMeta(pv, false, nameIsDNSSubdomain);
  errs.push(...validatePersistentVolumeSpec(spec, name, 'spec'));
  const annotations = pv.metadata?.annotations ?? {};
  if (Object.hasOwn(annotations, MOUNT_OPTIONS_ANNOTATION) && !HAS_MOUNT_OPTIONS.some((f) => rec(spec[f]))) {
    // field.NewPath("metadata").Child("annotations", key): a child, not a key, so no brackets.
    errs.push(forbidden(child('metadata', 'annotations', MOUNT_OPTIONS_ANNOTATION), 'may not specify mount options for this volume type'));
  }
  return errs;
}

/** validateAccessModes is the access-mode part of ValidatePersistentVolumeSpec and ValidatePersistentVolumeClaimSpec. */
export function validateAccessModes(modes: readonly unknown[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  let rwop = false;
  let other = false;
  for (const mode of modes) {
    const known = typeof mode === 'string' && ACCESS_MODES.includes(mode);
    // A named string type (PersistentVolumeAccessMode): ErrorBody prints it with json.Marshal.
    if (!known) errs.push(notSupported(path, asJSON(mode), ACCESS_MODES));
    if (mode === 'ReadWriteOncePod') rwop = true;
    else if (known) other = true;
  }
  if (rwop && other) errs.push(forbidden(path, 'may not use ReadWriteOncePod with other access modes'));
  return errs;
}

/**
 * validatePersistentVolumeSpec is ValidatePersistentVolumeSpec: for a PersistentVolume, or with `inline` for a
 * VolumeAttachment's inlineVolumeSpec (no claimRef, capacity, node affinity or storage class; a CSI source; reclaim
 * policy Retain and volumeMode Filesystem at most; volumeAttributesClassName not checked, as its options leave
 * EnableVolumeAttributesClass off).
 */
export function validatePersistentVolumeSpec(spec: Rec, pvName: string, path: string, inline = false): FieldError[] {
  const errs: FieldError[] = [];
  const INLINE = 'in the context of inline volumes';
  if (inline) {
    if (rec(spec['claimRef'])) errs.push(forbidden(child(path, 'claimRef'), `may not be specified ${INLINE}`));
    if (Object.keys(rec(spec['capacity']) ?? {}).length !== 0) errs.push(forbidden(child(path, 'capacity'), `may not be specified ${INLINE}`));
    if (!rec(spec['csi'])) errs.push(required(child(path, 'csi'), `has to be specified ${INLINE}`));
  }
  const modes = Array.isArray(spec['accessModes']) ? (spec['accessModes'] as unknown[]) : [];
  if (modes.length === 0) errs.push(required(child(path, 'accessModes')));
  errs.push(...validateAccessModes(modes, child(path, 'accessModes')));
  if (!inline) errs.push(...validateCapacity(rec(spec['capacity']), child(path, 'capacity')));
  const policy = spec['persistentVolumeReclaimPolicy'];
  if (typeof policy === 'string' && policy && inline && policy !== 'Retain') {
    errs.push(forbidden(child(path, 'persistentVolumeReclaimPolicy'), `may only be Retain ${INLINE}`));
  } else if (typeof policy === 'string' && policy && !inline && !RECLAIM_POLICIES.includes(policy)) {
    errs.push(notSupported(child(path, 'persistentVolumeReclaimPolicy'), asJSON(policy), RECLAIM_POLICIES));
  }
  const nodeAffinity = inline ? undefined : rec(spec['nodeAffinity']);
  if (inline && rec(spec['nodeAffinity'])) errs.push(forbidden(child(path, 'nodeAffinity'), `may not be specified ${INLINE}`));
  if (nodeAffinity) {
    // validateVolumeNodeAffinity: the required node selector (ValidateNodeSelector) must be there.
    const requiredSelector = rec(nodeAffinity['required']);
    if (requiredSelector) errs.push(...validateNodeSelector(requiredSelector as unknown as NodeSelector, child(path, 'nodeAffinity', 'required')));
    else errs.push(required(child(path, 'nodeAffinity', 'required'), 'must specify required node constraints'));
  }
  errs.push(...validatePersistentVolumeSources(spec, path, pvName, nodeAffinity !== undefined));
  const hostPath = rec(spec['hostPath']);
  if (hostPath && goPathClean(typeof hostPath['path'] === 'string' ? hostPath['path'] : '') === '/' && policy === 'Recycle') {
    errs.push(forbidden(child(path, 'persistentVolumeReclaimPolicy'), "may not be 'recycle' for a hostPath mount of '/'"));
  }
  const className = spec['storageClassName'];
  if (typeof className === 'string' && className && inline) errs.push(forbidden(child(path, 'storageClassName'), `may not be specified ${INLINE}`));
  else if (typeof className === 'string' && className) {
    errs.push(...nameIsDNSSubdomain(className, false).map((msg) => invalidValue(child(path, 'storageClassName'), className, msg)));
  }
  const volumeMode = spec['volumeMode'];
  if (typeof volumeMode === 'string' && inline && volumeMode !== 'Filesystem') {
    errs.push(forbidden(child(path, 'volumeMode'), `may not specify volumeMode other than Filesystem ${INLINE}`));
  } else if (typeof volumeMode === 'string' && !inline && !VOLUME_MODES.includes(volumeMode)) {
    errs.push(notSupported(child(path, 'volumeMode'), asJSON(volumeMode), VOLUME_MODES));
  }
  const vac = spec['volumeAttributesClassName'];
  if (typeof vac === 'string' && !inline) {
    // VolumeAttributesClass is on (GA since 1.34): an empty name is refused, a set one needs a CSI source.
    if (!vac) errs.push(required(child(path, 'volumeAttributesClassName'), 'an empty string is disallowed'));
    else errs.push(...nameIsDNSSubdomain(vac, false).map((msg) => invalidValue(child(path, 'volumeAttributesClassName'), vac, msg)));
    if (!rec(spec['csi'])) errs.push(required(child(path, 'csi'), 'has to be specified when using volumeAttributesClassName'));
  }
  return errs;
}

/**
 * validateCapacity: a capacity is required and holds storage alone (the whole list shown as json.Marshal prints a
 * ResourceList: keys sorted, quantities canonical), each quantity a valid one (validateBasicResource) above zero
 * (ValidatePositiveQuantityValue).
 */
function validateCapacity(capacity: Rec | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const entries = Object.entries(capacity ?? {});
  if (entries.length === 0) errs.push(required(path));
  if (!capacity || !Object.hasOwn(capacity, 'storage') || entries.length > 1) {
    errs.push(notSupported(path, asJSON(capacity ? canonicalResourceList(capacity) : null), ['storage']));
  }
  for (const [name, value] of entries) {
    const q = quantityOf(value);
    // A value that is no quantity never gets here: decoding the PersistentVolume refuses it first.
    if (!q) continue;
    const at = key(path, name);
    if (q.value() < 0) errs.push(invalidValue(at, q.value(), 'must be a valid resource quantity'));
    if (q.sign() <= 0) errs.push(invalidValue(at, q.toString(), NOT_POSITIVE));
  }
  return errs;
}

/** canonicalResourceList is a ResourceList as json.Marshal writes it: keys sorted, each quantity's canonical string. */
function canonicalResourceList(list: Rec): Rec {
  const out: Rec = {};
  for (const name of Object.keys(list).sort()) out[name] = quantityOf(list[name])?.toString() ?? list[name];
  return out;
}

/** goPathClean is path.Clean: the shortest equivalent slash path ("" is "."). */
function goPathClean(p: string): string {
  if (!p) return '.';
  const cleaned = posix.normalize(p);
  return cleaned.length > 1 && cleaned.endsWith('/') ? cleaned.slice(0, -1) : cleaned;
}
