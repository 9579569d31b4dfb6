// A PersistentVolume's volume source: exactly one, and the checks of each kind, in the order ValidatePersistentVolumeSpec
// tries them. See pkg/apis/core/validation/validation.go (ValidatePersistentVolumeSpec and the validate*PersistentVolumeSource
// funcs, kubernetes v1.36.3). The sources a pod shares with a volume reuse the pod's rules (pod-volume-sources.ts).
import { child, type FieldError, forbidden, invalidValue, required } from './field-errors';
import { nameIsDNSLabel } from './metadata';
import { inclusiveRangeError, isDNS1123Label, isDNS1123Subdomain } from './names';
import { validatePathNoBacksteps } from './pod-paths';
import { LEGACY_SOURCES, type SourceRule, storageOSVolumeErrors, validateCSIDriverName } from './pod-volume-sources';
import { hostPathRule } from './pod-volumes';
import type { Volume136 } from './pod-types';

type Rec = Record<string, unknown>;

/** PVSourceRule checks one source kind of a PersistentVolume, given the spec's path, the source and the volume's name. */
type PVSourceRule = (source: Rec, specPath: string, pvName: string) => FieldError[];

interface PVSourceCheck {
  /** field is the JSON field of v1.PersistentVolumeSource. */
  field: string;
  /** forbiddenAs is the path child of its "more than 1 volume type" error when Go spells it otherwise. */
  forbiddenAs?: string;
  /** alwaysCounts: flexVolume is never refused as a second source, only counted. */
  alwaysCounts?: boolean;
  rule: PVSourceRule;
}

const MORE_THAN_ONE = 'may not specify more than 1 volume type';
const MAX_ISCSI_TARGET = 64;
const IQN_RE = /iqn\.\d{4}-\d{2}\.([A-Za-z0-9.-]+)(:[^,;*&$|\s]+)$/;
const EUI_RE = /^eui.[A-Za-z0-9]{16}$/;
const NAA_RE = /^naa.[A-Za-z0-9]{32}$/;

const str = (s: Rec, name: string): string => (typeof s[name] === 'string' ? (s[name] as string) : '');
const rec = (v: unknown): Rec | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Rec) : undefined);
const requireAll = (s: Rec, at: string, ...names: string[]): FieldError[] => names.filter((n) => !str(s, n)).map((n) => required(child(at, n)));

/** pod reuses a pod volume's rule for the source a PersistentVolume shares with it (same Go function). */
function pod(field: string): PVSourceRule {
  const rule: SourceRule | undefined = field === 'hostPath' ? hostPathRule : LEGACY_SOURCES.find((c) => c.field === field)?.rule;
  const volume: Volume136 = { name: '' };
  return (s, p) => (rule ? rule(s, p, volume, { resourceIsPod: false }) : []);
}

/** secretRefErrors: the SecretReference of a PV source names its namespace (cinder, storageos). */
function secretRefErrors(s: Rec, at: string): FieldError[] {
  const ref = rec(s['secretRef']);
  if (!ref) return [];
  return [
    ...(str(ref, 'name') ? [] : [required(child(at, 'secretRef', 'name'))]),
    ...(str(ref, 'namespace') ? [] : [required(child(at, 'secretRef', 'namespace'))]),
  ];
}

/** validateGlusterfsPersistentVolumeSource: endpoints and path, and a valid endpointsNamespace when set. */
const glusterfs: PVSourceRule = (s, p) => {
  const at = child(p, 'glusterfs');
  const errs = requireAll(s, at, 'endpoints', 'path');
  const ns = s['endpointsNamespace'];
  if (typeof ns === 'string') {
    if (!ns) errs.push(invalidValue(child(at, 'endpointsNamespace'), ns, 'if the endpointnamespace is set, it must be a valid namespace name'));
    else errs.push(...nameIsDNSLabel(ns, false).map((msg) => invalidValue(child(at, 'endpointsNamespace'), ns, msg)));
  }
  return errs;
};

/** iqnFormatErrors is the iqn/eui/naa check of validateISCSIPersistentVolumeSource: one message for every failure. */
function iqnFormatErrors(value: string, path: string): FieldError[] {
  const ok = value.startsWith('iqn') ? IQN_RE.test(value) : value.startsWith('eui') ? EUI_RE.test(value) : value.startsWith('naa') ? NAA_RE.test(value) : false;
  return ok ? [] : [invalidValue(path, value, 'must be valid format')];
}

/** validateISCSIPersistentVolumeSource, with the volume's name in the target length check. */
const iscsi: PVSourceRule = (s, p, pvName) => {
  const at = child(p, 'iscsi');
  const errs = requireAll(s, at, 'targetPortal');
  const initiator = s['initiatorName'];
  const portal = str(s, 'targetPortal');
  if (typeof initiator === 'string' && Buffer.byteLength(`${pvName}:${portal}`) > MAX_ISCSI_TARGET) {
    errs.push(invalidValue(child(at, 'targetportal'), portal, 'Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.'));
  }
  if (!str(s, 'iqn')) errs.push(required(child(at, 'iqn')));
  else errs.push(...iqnFormatErrors(str(s, 'iqn'), child(at, 'iqn')));
  const lun = typeof s['lun'] === 'number' ? s['lun'] : 0;
  if (lun < 0 || lun > 255) errs.push(invalidValue(child(at, 'lun'), lun, inclusiveRangeError(0, 255)));
  if ((s['chapAuthDiscovery'] === true || s['chapAuthSession'] === true) && !rec(s['secretRef'])) errs.push(required(child(at, 'secretRef')));
  const ref = rec(s['secretRef']);
  if (ref && !str(ref, 'name')) errs.push(required(child(at, 'secretRef', 'name')));
  if (typeof initiator === 'string') errs.push(...iqnFormatErrors(initiator, child(at, 'initiatorname')));
  return errs;
};

/** validateCinderPersistentVolumeSource: volumeID, and a secretRef with name and namespace. */
const cinder: PVSourceRule = (s, p) => [...requireAll(s, child(p, 'cinder'), 'volumeID'), ...secretRefErrors(s, child(p, 'cinder'))];

/** validateAzureFilePV: secretName and shareName, and a secretNamespace not empty when set. */
const azureFile: PVSourceRule = (s, p) => {
  const at = child(p, 'azureFile');
  const errs = requireAll(s, at, 'secretName', 'shareName');
  if (s['secretNamespace'] === '') errs.push(required(child(at, 'secretNamespace')));
  return errs;
};

/** validateLocalVolumeSource: a path without '..' (its node affinity is checked by the spec). */
const local: PVSourceRule = (s, p) => {
  const path = str(s, 'path');
  if (!path) return [required(child(p, 'local', 'path'))];
  return validatePathNoBacksteps(path, child(p, 'local', 'path'));
};

/** validateStorageOSPersistentVolumeSource: a DNS-label volumeName and volumeNamespace, a full secretRef. */
const storageos: PVSourceRule = (s, p) => {
  const at = child(p, 'storageos');
  return [...storageOSVolumeErrors(s, at), ...secretRefErrors(s, at)];
};

/** validatePVSecretReference: a DNS-subdomain name and a DNS-label namespace, both required. */
function pvSecretReference(ref: Rec, at: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(ref, 'name');
  const ns = str(ref, 'namespace');
  if (!name) errs.push(required(child(at, 'name')));
  else errs.push(...isDNS1123Subdomain(name).map((msg) => invalidValue(child(at, 'name'), name, msg)));
  if (!ns) errs.push(required(child(at, 'namespace')));
  else errs.push(...isDNS1123Label(ns).map((msg) => invalidValue(child(at, 'namespace'), ns, msg)));
  return errs;
}

/** validateCSIPersistentVolumeSource: the driver name (ValidateCSIDriverName), volumeHandle, and the secret references. */
const csi: PVSourceRule = (s, p) => {
  const at = child(p, 'csi');
  const errs: FieldError[] = validateCSIDriverName(str(s, 'driver'), child(at, 'driver'));
  if (!str(s, 'volumeHandle')) errs.push(required(child(at, 'volumeHandle')));
  for (const name of ['controllerPublishSecretRef', 'controllerExpandSecretRef', 'nodePublishSecretRef', 'nodeExpandSecretRef']) {
    const ref = rec(s[name]);
    if (ref) errs.push(...pvSecretReference(ref, child(at, name)));
  }
  return errs;
};

/** PV_SOURCES are PersistentVolumeSource's fields in the order ValidatePersistentVolumeSpec tries them. */
const PV_SOURCES: readonly PVSourceCheck[] = [
  { field: 'hostPath', rule: pod('hostPath') },
  { field: 'gcePersistentDisk', rule: pod('gcePersistentDisk') },
  { field: 'awsElasticBlockStore', rule: pod('awsElasticBlockStore') },
  { field: 'glusterfs', rule: glusterfs },
  { field: 'flocker', rule: pod('flocker') },
  { field: 'nfs', rule: pod('nfs') },
  // validateRBDPersistentVolumeSource: monitors and image, as a pod's rbd.
  { field: 'rbd', rule: pod('rbd') },
  { field: 'quobyte', rule: pod('quobyte') },
  // Why: Go forbids it as "cephFS" but validates it under "cephfs" (monitors, as a pod's).
  { field: 'cephfs', forbiddenAs: 'cephFS', rule: pod('cephfs') },
  { field: 'iscsi', rule: iscsi },
  { field: 'cinder', rule: cinder },
  { field: 'fc', rule: pod('fc') },
  { field: 'flexVolume', alwaysCounts: true, rule: pod('flexVolume') },
  { field: 'azureFile', rule: azureFile },
  { field: 'vsphereVolume', rule: pod('vsphereVolume') },
  { field: 'photonPersistentDisk', rule: pod('photonPersistentDisk') },
  { field: 'portworxVolume', rule: pod('portworxVolume') },
  { field: 'azureDisk', rule: pod('azureDisk') },
  { field: 'scaleIO', rule: pod('scaleIO') },
  { field: 'local', rule: local },
  { field: 'storageos', rule: storageos },
  { field: 'csi', rule: csi },
];

/**
 * validatePersistentVolumeSources checks the spec's sources: each one after the first is refused as "more than 1 volume
 * type" (flexVolume excepted), the first is checked; none at all is Required at the spec. A local volume without
 * node affinity gets "requires node affinity" right after its own errors.
 */
export function validatePersistentVolumeSources(spec: Rec, specPath: string, pvName: string, nodeAffinitySpecified: boolean): FieldError[] {
  const errs: FieldError[] = [];
  let numVolumes = 0;
  for (const check of PV_SOURCES) {
    const source = rec(spec[check.field]);
    if (!source) continue;
    if (numVolumes > 0 && !check.alwaysCounts) {
      errs.push(forbidden(child(specPath, check.forbiddenAs ?? check.field), MORE_THAN_ONE));
      continue;
    }
    numVolumes++;
    errs.push(...check.rule(source, specPath, pvName));
    if (check.field === 'local' && !nodeAffinitySpecified) errs.push(required(child(specPath, 'nodeAffinity'), 'Local volume requires node affinity'));
  }
  if (numVolumes === 0) errs.push(required(specPath, 'must specify a volume type'));
  return errs;
}

/** HAS_MOUNT_OPTIONS are the sources that take mount options (checkMountOption, pkg/volume/validation/pv_validation.go). */
export const HAS_MOUNT_OPTIONS = [
  'gcePersistentDisk', 'awsElasticBlockStore', 'glusterfs', 'nfs', 'rbd', 'quobyte', 'iscsi', 'cinder', 'cephfs', 'azureFile',
  'vsphereVolume', 'azureDisk', 'photonPersistentDisk',
];
