// VolumeAttachment and CSIStorageCapacity validation on create and update: ValidateVolumeAttachment (the attacher, one
// source, the node name, the status), ValidateVolumeAttachmentUpdate's immutable spec, ValidateCSIStorageCapacity and
// ValidateCSIStorageCapacityUpdate. See pkg/apis/storage/validation/validation.go and
// pkg/registry/storage/{volumeattachment,csistoragecapacity}/strategy.go (k8s.io/kubernetes v1.36.3). VolumeAttachment's
// declarative rules only shadow these (no enforcement is configured for it), so these messages are the ones returned.
import { isObject, type KubeObject, type LabelSelector } from '../../api/types';
import { labelSelectorJSON } from './apps';
import { nonnegativeQuantity } from './autoscaling-behavior';
import { asJSON, child, FIELD_IMMUTABLE, type FieldError, forbidden, invalidValue, required, tooLong } from './field-errors';
import { invalidShown, validateObjectMeta } from './metadata';
import { byteLength, inclusiveRangeError, nameIsDNSSubdomain } from './names';
import { validatePersistentVolumeSpec } from './persistent-volume';
import { validateLabelSelector } from './pod-label-selectors';
import { validateCSIDriverName } from './pod-volume-sources';

type Rec = Record<string, unknown>;
const rec = (v: unknown): Rec => (isObject(v) ? v : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** MAX_ATTACHED_VOLUME_METADATA_SIZE is maxAttachedVolumeMetadataSize (256 kB); MAX_VOLUME_ERROR_MESSAGE_SIZE maxVolumeErrorMessageSize. */
const MAX_ATTACHED_VOLUME_METADATA_SIZE = 256 * (1 << 10);
const MAX_VOLUME_ERROR_MESSAGE_SIZE = 1024;
const MAX_INT32 = 2147483647;
const ONE_SOURCE = 'must specify exactly one of inlineVolumeSpec and persistentVolumeName';

/**
 * validateVolumeAttachment is ValidateVolumeAttachment: the metadata (ValidateClassName), the attacher
 * (ValidateCSIDriverName), the source, the node name, the status, then the persistent volume's name.
 */
export function validateVolumeAttachment(va: KubeObject): FieldError[] {
  const errs = validateObjectMeta(va, false, nameIsDNSSubdomain);
  const spec = rec(va['spec']);
  errs.push(...validateCSIDriverName(str(spec['attacher']), 'spec.attacher'));
  const source = rec(spec['source']);
  errs.push(...validateVolumeAttachmentSource(source, 'spec.source'));
  const nodeName = str(spec['nodeName']);
  errs.push(...nameIsDNSSubdomain(nodeName, false).map((msg) => invalidValue('spec.nodeName', nodeName, msg)));
  errs.push(...validateVolumeAttachmentStatus(rec(va['status']), 'status'));
  const pvName = source['persistentVolumeName'];
  if (typeof pvName === 'string') errs.push(...nameIsDNSSubdomain(pvName, false).map((msg) => invalidValue('spec.source.persistentVolumeName', pvName, msg)));
  return errs;
}

/** validateVolumeAttachmentSource: exactly one of inlineVolumeSpec and persistentVolumeName, a name not empty, an inline spec valid. */
function validateVolumeAttachmentSource(source: Rec, path: string): FieldError[] {
  const inline = isObject(source['inlineVolumeSpec']) ? source['inlineVolumeSpec'] : undefined;
  const pvName = source['persistentVolumeName'];
  const hasName = typeof pvName === 'string';
  if (!inline && !hasName) return [required(path, ONE_SOURCE)];
  if (inline && hasName) return [forbidden(path, ONE_SOURCE)];
  if (hasName) return pvName.length === 0 ? [required(child(path, 'persistentVolumeName'), 'must specify non empty persistentVolumeName')] : [];
  return validatePersistentVolumeSpec(inline!, '', child(path, 'inlineVolumeSpec'), true);
}

/**
 * validateVolumeAttachmentStatus: attachment metadata of 256 kB at most, and each error's message and code. The
 * strategy empties the status on create and keeps the old one on update, so only a status write meets these.
 */
function validateVolumeAttachmentStatus(status: Rec, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let size = 0;
  for (const [k, v] of Object.entries(rec(status['attachmentMetadata']))) size += byteLength(k) + byteLength(str(v));
  if (size > MAX_ATTACHED_VOLUME_METADATA_SIZE) errs.push(tooLong(child(path, 'attachmentMetadata'), MAX_ATTACHED_VOLUME_METADATA_SIZE));
  for (const name of ['attachError', 'detachError']) {
    const e = status[name];
    if (!isObject(e)) continue;
    // Why: Go reports the metadata limit, not the message limit, in a too-long message's error.
    if (byteLength(str(e['message'])) > MAX_VOLUME_ERROR_MESSAGE_SIZE) errs.push(tooLong(child(path, name, 'message'), MAX_ATTACHED_VOLUME_METADATA_SIZE));
    const code = e['errorCode'];
    if (typeof code === 'number' && code < 0) errs.push(invalidValue(child(path, name, 'errorCode'), code, inclusiveRangeError(0, MAX_INT32)));
  }
  return errs;
}

/**
 * validateVolumeAttachmentUpdate is the update-only part of ValidateVolumeAttachmentUpdate: the spec may not change.
 * It prints as the internal VolumeAttachmentSpec (no json tags: Go field names); an inline volume spec is shown as
 * the request wrote it, not as the internal PersistentVolumeSpec with every field.
 */
export function validateVolumeAttachmentUpdate(next: KubeObject, old: KubeObject): FieldError[] {
  const n = rec(next['spec']);
  if (JSON.stringify(n) === JSON.stringify(rec(old['spec']))) return [];
  const source = rec(n['source']);
  const shown = {
    Attacher: str(n['attacher']),
    Source: { PersistentVolumeName: typeof source['persistentVolumeName'] === 'string' ? source['persistentVolumeName'] : null, InlineVolumeSpec: source['inlineVolumeSpec'] ?? null },
    NodeName: str(n['nodeName']),
  };
  return [invalidValue('spec', asJSON(shown), FIELD_IMMUTABLE)];
}

/** validateCSIStorageCapacity is ValidateCSIStorageCapacity: metadata, nodeTopology, storageClassName, a non-negative capacity. */
export function validateCSIStorageCapacity(capacity: KubeObject, allowInvalidLabelValueInSelector = false): FieldError[] {
  const errs = validateObjectMeta(capacity, true, nameIsDNSSubdomain);
  const topology = capacity['nodeTopology'];
  if (isObject(topology)) errs.push(...validateLabelSelector(topology as LabelSelector, 'nodeTopology', allowInvalidLabelValueInSelector));
  const className = str(capacity['storageClassName']);
  errs.push(...nameIsDNSSubdomain(className, false).map((msg) => invalidValue('storageClassName', className, msg)));
  const quantity = capacity['capacity'];
  if (typeof quantity === 'string' || typeof quantity === 'number') errs.push(...nonnegativeQuantity(quantity, 'capacity'));
  return errs;
}

/**
 * validateCSIStorageCapacityUpdate is ValidateCSIStorageCapacityUpdate: nodeTopology and storageClassName may not change.
 * The strategy runs it after ValidateCSIStorageCapacity with invalid label values allowed when the old topology had
 * them (validateCSIStorageCapacityForUpdate).
 */
export function validateCSIStorageCapacityUpdate(next: KubeObject, old: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const topology = isObject(next['nodeTopology']) ? (next['nodeTopology'] as LabelSelector) : undefined;
  const oldTopology = isObject(old['nodeTopology']) ? (old['nodeTopology'] as LabelSelector) : undefined;
  if (JSON.stringify(topology ?? null) !== JSON.stringify(oldTopology ?? null)) {
    errs.push(topology ? invalidShown('nodeTopology', labelSelectorJSON(topology), FIELD_IMMUTABLE) : invalidValue('nodeTopology', null, FIELD_IMMUTABLE));
  }
  const className = str(next['storageClassName']);
  if (className !== str(old['storageClassName'])) errs.push(invalidValue('storageClassName', className, FIELD_IMMUTABLE));
  return errs;
}

/** validateCSIStorageCapacityForUpdate is the create rules as the strategy's ValidateUpdate runs them, with the old object's allowance. */
export function validateCSIStorageCapacityForUpdate(next: KubeObject, old: KubeObject): FieldError[] {
  const oldTopology = old['nodeTopology'];
  const allowInvalid = isObject(oldTopology) && validateLabelSelector(oldTopology as LabelSelector, 'nodeTopology').length > 0;
  return validateCSIStorageCapacity(next, allowInvalid);
}
