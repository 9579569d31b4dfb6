// The pod's volumes: unique DNS-label names, exactly one source each, and the checks of each source kind.
// See pkg/apis/core/validation/validation.go (ValidateVolumes, validateVolumeSource and the validate*VolumeSource funcs).
import type { ObjectMeta } from 'kubernetes-types/meta/v1';
import { asJSON, child, duplicate, type FieldError, forbidden, index, invalidValue, notSupported, required } from './field-errors';
import { isDNS1123Label, nameIsDNSSubdomain } from './names';
import { validateFileMode, validateKeyToPath, validatePathNoBacksteps } from './pod-paths';
import { validateDownwardAPIVolumeSource, validateProjectedVolumeSource } from './pod-projected';
import { validateEphemeralVolumeSource } from './pod-pvc-template';
import type { ImageVolumeSource, PodValidationOptions, Volume136 } from './pod-types';
import { quantityOf } from '../../api/quantity';
import { LEGACY_SOURCES, type SourceRule, type VolumeSourceCheck } from './pod-volume-sources';
import type { ValidVolumes } from './pod-volume-mounts';

const MORE_THAN_ONE = 'may not specify more than 1 volume type';
// Why: supportedHostPathTypes, printed sorted by sets.List ("" is HostPathUnset).
const HOST_PATH_TYPES = ['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket'];
const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];

const emptyDirRule: SourceRule = (s, p) => {
  const limit = quantityOf(s['sizeLimit']);
  if (limit && limit.sign() < 0) {
    return [forbidden(child(p, 'emptyDir', 'sizeLimit'), 'SizeLimit field must be a valid resource quantity')];
  }
  return [];
};

/** hostPathRule is validateHostPathVolumeSource: a path without '..', a known type. */
export const hostPathRule: SourceRule = (s, p) => {
  const at = child(p, 'hostPath');
  const path = typeof s['path'] === 'string' ? s['path'] : '';
  if (!path) return [required(child(at, 'path'))];
  const errs = validatePathNoBacksteps(path, child(at, 'path'));
  const type = s['type'];
  if (typeof type === 'string' && !HOST_PATH_TYPES.includes(type)) errs.push(notSupported(child(at, 'type'), asJSON(type), HOST_PATH_TYPES));
  return errs;
};

const secretRule: SourceRule = (s, p) => {
  const at = child(p, 'secret');
  const errs: FieldError[] = [];
  if (!s['secretName']) errs.push(required(child(at, 'secretName')));
  errs.push(...validateFileMode(s['defaultMode'] as number | undefined, child(at, 'defaultMode')));
  itemsOf(s).forEach((item, i) => errs.push(...validateKeyToPath(item, index(child(at, 'items'), i))));
  return errs;
};

const configMapRule: SourceRule = (s, p) => {
  const at = child(p, 'configMap');
  const errs: FieldError[] = [];
  if (!s['name']) errs.push(required(child(at, 'name')));
  errs.push(...validateFileMode(s['defaultMode'] as number | undefined, child(at, 'defaultMode')));
  itemsOf(s).forEach((item, i) => errs.push(...validateKeyToPath(item, index(child(at, 'items'), i))));
  return errs;
};

const pvcRule: SourceRule = (s, p) => (s['claimName'] ? [] : [required(child(p, 'persistentVolumeClaim', 'claimName'))]);

const imageRule: SourceRule = (s, p, _v, opts) => {
  const image = s as ImageVolumeSource;
  const at = child(p, 'image');
  const errs: FieldError[] = [];
  if (opts.resourceIsPod && !image.reference) errs.push(required(child(at, 'reference')));
  const policy = image.pullPolicy ?? '';
  if (!policy) errs.push(required(child(at, 'pullPolicy')));
  else if (!PULL_POLICIES.includes(policy)) errs.push(notSupported(child(at, 'pullPolicy'), asJSON(policy), PULL_POLICIES));
  return errs;
};

const ephemeralRule: SourceRule = (s, p, volume, opts) => {
  const errs = validateEphemeralVolumeSource(s, child(p, 'ephemeral'));
  // Why: the PVC that will be created is named <pod>-<volume>, checked when the pod's name is known.
  const podName = opts.podMeta?.name;
  if (podName && volume.name) {
    const pvcName = `${podName}-${volume.name}`;
    for (const msg of nameIsDNSSubdomain(pvcName, false)) errs.push(invalidValue(child(p, 'name'), volume.name, `PVC name "${pvcName}": ${msg}`));
  }
  return errs;
};

/** SOURCES is every volume source in validateVolumeSource's order. */
const SOURCES: readonly VolumeSourceCheck[] = [
  { field: 'emptyDir', rule: emptyDirRule },
  { field: 'hostPath', rule: hostPathRule },
  ...LEGACY_SOURCES.slice(0, 3), // gitRepo, gcePersistentDisk, awsElasticBlockStore
  { field: 'secret', rule: secretRule },
  ...LEGACY_SOURCES.slice(3, 7), // nfs, iscsi, glusterfs, flocker
  { field: 'persistentVolumeClaim', rule: pvcRule },
  ...LEGACY_SOURCES.slice(7, 11), // rbd, cinder, cephfs, quobyte
  { field: 'downwardAPI', forbiddenAs: 'downwarAPI', rule: (s, p) => validateDownwardAPIVolumeSource(s, child(p, 'downwardAPI')) },
  ...LEGACY_SOURCES.slice(11, 13), // fc, flexVolume
  { field: 'configMap', rule: configMapRule },
  ...LEGACY_SOURCES.slice(13, 18), // azureFile, vsphereVolume, photonPersistentDisk, portworxVolume, azureDisk
  ...LEGACY_SOURCES.slice(18, 19), // storageos
  { field: 'projected', rule: (s, p) => validateProjectedVolumeSource(s, child(p, 'projected')) },
  ...LEGACY_SOURCES.slice(19), // scaleIO, csi
  { field: 'ephemeral', rule: ephemeralRule },
  { field: 'image', rule: imageRule },
];

/**
 * validateVolumeSource is validateVolumeSource: the first source set is checked, each further one is forbidden, and
 * no source at all is required. An iscsi source also has its name length checked when it sets initiatorName.
 */
function validateVolumeSource(volume: Volume136, path: string, opts: PodValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  let count = 0;
  const record = volume as unknown as Record<string, unknown>;
  for (const source of SOURCES) {
    const value = record[source.field];
    if (value === undefined || value === null || typeof value !== 'object') continue;
    if (count > 0 && source.field !== 'emptyDir') {
      errs.push(forbidden(child(path, source.forbiddenAs ?? source.field), MORE_THAN_ONE));
    } else {
      count++;
      errs.push(...source.rule(value as Record<string, unknown>, path, volume, opts));
    }
    if (source.field === 'iscsi') errs.push(...iscsiNameLength(value as Record<string, unknown>, volume.name ?? '', path));
  }
  if (count === 0) errs.push(required(path, 'must specify a volume type'));
  return errs;
}

/** iscsiNameLength is the check of <volume name>:<targetPortal> length when an initiator name is set. */
function iscsiNameLength(iscsi: Record<string, unknown>, volumeName: string, path: string): FieldError[] {
  if (iscsi['initiatorName'] === undefined || iscsi['initiatorName'] === null) return [];
  const portal = typeof iscsi['targetPortal'] === 'string' ? iscsi['targetPortal'] : '';
  if (Buffer.byteLength(`${volumeName}:${portal}`) <= 64) return [];
  return [invalidValue(child(path, 'name'), volumeName, 'Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.')];
}

/**
 * validateVolumes is ValidateVolumes: a volume with any error is reported and left out of the returned volumes (so
 * mounts of it are "Not found"); a persistentVolumeClaim may not name the PVC of one of the pod's ephemeral volumes.
 */
export function validateVolumes(volumes: Volume136[] | undefined, podMeta: ObjectMeta | undefined, path: string, opts: PodValidationOptions): { volumes: ValidVolumes; errors: FieldError[] } {
  const errs: FieldError[] = [];
  const valid = new Map<string, Volume136>();
  const createdPVCs = new Set<string>();
  if (podMeta?.name) for (const v of volumes ?? []) if (v.ephemeral) createdPVCs.add(`${podMeta.name}-${v.name ?? ''}`);
  (volumes ?? []).forEach((vol, i) => {
    const at = index(path, i);
    const name = vol.name ?? '';
    const el = validateVolumeSource(vol, at, opts);
    if (!name) el.push(required(child(at, 'name')));
    else el.push(...isDNS1123Label(name).map((msg) => invalidValue(child(at, 'name'), name, msg)));
    if (valid.has(name)) el.push(duplicate(child(at, 'name'), name));
    if (el.length === 0) valid.set(name, vol);
    else errs.push(...el);
    const claimName = vol.persistentVolumeClaim?.claimName;
    if (claimName !== undefined && createdPVCs.has(claimName)) {
      errs.push(invalidValue(child(at, 'persistentVolumeClaim', 'claimName'), claimName, 'must not reference a PVC that gets created for an ephemeral volume'));
    }
  });
  return { volumes: valid, errors: errs };
}

function itemsOf(source: Record<string, unknown>): { key: string; path: string; mode?: number }[] {
  const items = source['items'];
  return Array.isArray(items) ? (items as { key: string; path: string; mode?: number }[]) : [];
}
