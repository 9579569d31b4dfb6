// The checks of the volume sources other than the everyday ones (network and cloud disks, CSI, flex): mostly their
// required fields. See pkg/apis/core/validation/validation.go (validateGitRepoVolumeSource ... validateCSIVolumeSource).
import { asJSON, child, type FieldError, invalidValue, key, notSupported, required, tooLong } from './field-errors';
import { inclusiveRangeError, isDNS1123Label, isDNS1123Subdomain, nameIsDNSSubdomain } from './names';
import { validateLocalDescendingPath } from './pod-paths';
import type { PodValidationOptions, Volume136 } from './pod-types';

/** SourceRule checks one volume source kind, given the volume's path and the source object. */
export type SourceRule = (source: Record<string, unknown>, volumePath: string, volume: Volume136, opts: PodValidationOptions) => FieldError[];

/** VolumeSourceCheck is one VolumeSource field in the order validateVolumeSource tries them. */
export interface VolumeSourceCheck {
  /** field is the JSON field of v1.VolumeSource. */
  field: string;
  /** forbiddenAs is the path child of its "more than 1 volume type" error when Go spells it otherwise. */
  forbiddenAs?: string;
  rule: SourceRule;
}

const MAX_PARTITION = 255;
const MAX_LUN = 255;
const MAX_CSI_DRIVER_NAME = 63;
const MAX_QUOBYTE_TENANT = 64;
const PARTITION_ERROR = inclusiveRangeError(1, MAX_PARTITION);
const IQN_RE = /iqn\.\d{4}-\d{2}\.([A-Za-z0-9.-]+)(:[^,;*&$|\s]+)$/;
const EUI_RE = /^eui.[A-Za-z0-9]{16}$/;
const NAA_RE = /^naa.[A-Za-z0-9]{32}$/;

const str = (s: Record<string, unknown>, name: string): string => (typeof s[name] === 'string' ? (s[name] as string) : '');
const num = (s: Record<string, unknown>, name: string): number => (typeof s[name] === 'number' ? (s[name] as number) : 0);
const list = (s: Record<string, unknown>, name: string): unknown[] => (Array.isArray(s[name]) ? (s[name] as unknown[]) : []);
const obj = (s: Record<string, unknown>, name: string): Record<string, unknown> | undefined =>
  (typeof s[name] === 'object' && s[name] !== null ? (s[name] as Record<string, unknown>) : undefined);

/** requireAll reports each of the named string fields that is empty, in order. */
function requireAll(s: Record<string, unknown>, at: string, ...names: string[]): FieldError[] {
  return names.filter((n) => !str(s, n)).map((n) => required(child(at, n)));
}

function partition(s: Record<string, unknown>, at: string): FieldError[] {
  const p = num(s, 'partition');
  return p < 0 || p > MAX_PARTITION ? [invalidValue(child(at, 'partition'), p, PARTITION_ERROR)] : [];
}

/** iqnErrors is the format check of an iSCSI qualified name (iqn, eui or naa). */
function iqnErrors(value: string, path: string, prefixMessage: string): FieldError[] {
  if (!value.startsWith('iqn') && !value.startsWith('eui') && !value.startsWith('naa')) return [invalidValue(path, value, prefixMessage)];
  const ok = value.startsWith('iqn') ? IQN_RE.test(value) : value.startsWith('eui') ? EUI_RE.test(value) : NAA_RE.test(value);
  return ok ? [] : [invalidValue(path, value, 'must be valid format')];
}

const iscsi: SourceRule = (s, p) => {
  const at = child(p, 'iscsi');
  const errs = requireAll(s, at, 'targetPortal');
  if (!str(s, 'iqn')) errs.push(required(child(at, 'iqn')));
  else errs.push(...iqnErrors(str(s, 'iqn'), child(at, 'iqn'), 'must be valid format starting with iqn, eui, or naa'));
  const lun = num(s, 'lun');
  if (lun < 0 || lun > MAX_LUN) errs.push(invalidValue(child(at, 'lun'), lun, inclusiveRangeError(0, MAX_LUN)));
  if ((s['chapAuthDiscovery'] === true || s['chapAuthSession'] === true) && !obj(s, 'secretRef')) errs.push(required(child(at, 'secretRef')));
  if (typeof s['initiatorName'] === 'string') {
    errs.push(...iqnErrors(s['initiatorName'], child(at, 'initiatorname'), 'must be valid format starting with iqn, eui, or naa'));
  }
  return errs;
};

const flocker: SourceRule = (s, p) => {
  const at = child(p, 'flocker');
  const errs: FieldError[] = [];
  const name = str(s, 'datasetName');
  const uuid = str(s, 'datasetUUID');
  if (!name && !uuid) errs.push(required(at, 'one of datasetName and datasetUUID is required'));
  if (name && uuid) errs.push(invalidValue(at, 'resource', 'datasetName and datasetUUID can not be specified simultaneously'));
  if (name.includes('/')) errs.push(invalidValue(child(at, 'datasetName'), name, "must not contain '/'"));
  return errs;
};

/** splitsHostPort tells whether net.SplitHostPort accepts a "host:port" (or "[v6]:port") pair. */
function splitsHostPort(pair: string): boolean {
  if (pair.startsWith('[')) return /^\[[^\]]*\]:[^:]*$/.test(pair);
  return pair.split(':').length === 2;
}

const quobyte: SourceRule = (s, p) => {
  const at = child(p, 'quobyte');
  const errs: FieldError[] = [];
  const registry = str(s, 'registry');
  const pairsMessage = 'must be a host:port pair or multiple pairs separated by commas';
  if (!registry) errs.push(required(child(at, 'registry'), pairsMessage));
  else if (Buffer.byteLength(str(s, 'tenant')) > MAX_QUOBYTE_TENANT) {
    errs.push(required(child(at, 'tenant'), 'must be a UUID and may not exceed a length of 64 characters'));
  } else {
    for (const pair of registry.split(',')) if (!splitsHostPort(pair)) errs.push(invalidValue(child(at, 'registry'), registry, pairsMessage));
  }
  errs.push(...requireAll(s, at, 'volume'));
  return errs;
};

const fc: SourceRule = (s, p) => {
  const at = child(p, 'fc');
  const errs: FieldError[] = [];
  const wwns = list(s, 'targetWWNs');
  const wwids = list(s, 'wwids');
  if (wwns.length < 1 && wwids.length < 1) errs.push(required(child(at, 'targetWWNs'), 'must specify either targetWWNs or wwids, but not both'));
  if (wwns.length && wwids.length) errs.push(invalidValue(child(at, 'targetWWNs'), asJSON(wwns), 'targetWWNs and wwids can not be specified simultaneously'));
  if (wwns.length) {
    if (typeof s['lun'] !== 'number') errs.push(required(child(at, 'lun'), 'lun is required if targetWWNs is specified'));
    else if (s['lun'] < 0 || s['lun'] > MAX_LUN) errs.push(invalidValue(child(at, 'lun'), s['lun'], inclusiveRangeError(0, MAX_LUN)));
  }
  return errs;
};

const flexVolume: SourceRule = (s, p) => {
  const at = child(p, 'flexVolume');
  const errs = requireAll(s, at, 'driver');
  for (const k of Object.keys(obj(s, 'options') ?? {})) {
    const namespace = k.includes('/') ? k.slice(0, k.indexOf('/')) : k;
    const normalized = `.${namespace.toLowerCase()}`;
    if (normalized.endsWith('.kubernetes.io') || normalized.endsWith('.k8s.io')) {
      errs.push(invalidValue(key(child(at, 'options'), k), k, 'kubernetes.io and k8s.io namespaces are reserved'));
    }
  }
  return errs;
};

// Why: supportedCachingModes and supportedDiskKinds of validateAzureDisk, sorted by sets.List.
const CACHING_MODES = ['None', 'ReadOnly', 'ReadWrite'];
const DISK_KINDS = ['Dedicated', 'Managed', 'Shared'];

const azureDisk: SourceRule = (s, p) => {
  const at = child(p, 'azureDisk');
  const errs = requireAll(s, at, 'diskName', 'diskURI');
  const caching = s['cachingMode'];
  const kind = s['kind'];
  const uri = str(s, 'diskURI');
  if (typeof caching === 'string' && !CACHING_MODES.includes(caching)) errs.push(notSupported(child(at, 'cachingMode'), asJSON(caching), CACHING_MODES));
  if (typeof kind === 'string' && !DISK_KINDS.includes(kind)) errs.push(notSupported(child(at, 'kind'), asJSON(kind), DISK_KINDS));
  if (kind === 'Managed' && !uri.startsWith('/subscriptions/')) {
    errs.push(notSupported(child(at, 'diskURI'), uri, ['/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}']));
  }
  if (typeof kind === 'string' && kind !== 'Managed' && !uri.startsWith('https://')) {
    errs.push(notSupported(child(at, 'diskURI'), uri, ['https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd']));
  }
  return errs;
};

/**
 * storageOSVolumeErrors are what validateStorageOSVolumeSource and validateStorageOSPersistentVolumeSource share
 * (validation.go, v1.36.3): a required DNS-label volumeName, and a DNS-label volumeNamespace when given.
 */
export function storageOSVolumeErrors(s: Record<string, unknown>, at: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(s, 'volumeName');
  if (!name) errs.push(required(child(at, 'volumeName')));
  else errs.push(...isDNS1123Label(name).map((msg) => invalidValue(child(at, 'volumeName'), name, msg)));
  const ns = str(s, 'volumeNamespace');
  if (ns) errs.push(...isDNS1123Label(ns).map((msg) => invalidValue(child(at, 'volumeNamespace'), ns, msg)));
  return errs;
}

const storageos: SourceRule = (s, p) => {
  const at = child(p, 'storageos');
  const errs = storageOSVolumeErrors(s, at);
  const ref = obj(s, 'secretRef');
  if (ref && !str(ref, 'name')) errs.push(required(child(at, 'secretRef', 'name')));
  return errs;
};

/**
 * validateCSIDriverName is ValidateCSIDriverName (pkg/apis/core/validation/validation.go, v1.36.3): an empty name is
 * only Required; else at most 63 bytes, and a DNS subdomain once lowercased.
 */
export function validateCSIDriverName(driver: string | undefined, path: string): FieldError[] {
  if (!driver) return [required(path)];
  const errs: FieldError[] = [];
  if (Buffer.byteLength(driver) > MAX_CSI_DRIVER_NAME) errs.push(tooLong(path, MAX_CSI_DRIVER_NAME));
  errs.push(...isDNS1123Subdomain(driver.toLowerCase()).map((msg) => invalidValue(path, driver, msg)));
  return errs;
}

const csi: SourceRule = (s, p) => {
  const at = child(p, 'csi');
  const errs: FieldError[] = validateCSIDriverName(str(s, 'driver'), child(at, 'driver'));
  const ref = obj(s, 'nodePublishSecretRef');
  if (ref) {
    const name = str(ref, 'name');
    if (!name) errs.push(required(child(at, 'nodePublishSecretRef', 'name')));
    // Why: Go reports a bad secret name at csi.name, not at nodePublishSecretRef.name.
    else errs.push(...nameIsDNSSubdomain(name, false).map((msg) => invalidValue(child(at, 'name'), name, msg)));
  }
  return errs;
};

/** requiredOnly builds the rule of a source whose check is only required string fields (under another path child). */
function requiredOnly(pathChild: string, ...names: string[]): SourceRule {
  return (s, p) => requireAll(s, child(p, pathChild), ...names);
}

/**
 * LEGACY_SOURCES are the sources validateVolumeSource checks besides emptyDir, hostPath, secret, persistentVolumeClaim,
 * downwardAPI, configMap, projected, ephemeral and image, in their relative order. pod-volumes.ts interleaves them.
 */
export const LEGACY_SOURCES: readonly VolumeSourceCheck[] = [
  { field: 'gitRepo', rule: (s, p) => [...requireAll(s, child(p, 'gitRepo'), 'repository'), ...validateLocalDescendingPath(str(s, 'directory'), child(p, 'gitRepo', 'directory'))] },
  // Why: Go validates gcePersistentDisk under the path "persistentDisk".
  { field: 'gcePersistentDisk', rule: (s, p) => [...requireAll(s, child(p, 'persistentDisk'), 'pdName'), ...partition(s, child(p, 'persistentDisk'))] },
  { field: 'awsElasticBlockStore', rule: (s, p) => [...requireAll(s, child(p, 'awsElasticBlockStore'), 'volumeID'), ...partition(s, child(p, 'awsElasticBlockStore'))] },
  {
    field: 'nfs', rule: (s, p) => {
      const errs = requireAll(s, child(p, 'nfs'), 'server', 'path');
      if (!str(s, 'path').startsWith('/')) errs.push(invalidValue(child(p, 'nfs', 'path'), str(s, 'path'), 'must be an absolute path'));
      return errs;
    },
  },
  { field: 'iscsi', rule: iscsi },
  { field: 'glusterfs', rule: requiredOnly('glusterfs', 'endpoints', 'path') },
  { field: 'flocker', rule: flocker },
  {
    field: 'rbd', rule: (s, p) => [
      ...(list(s, 'monitors').length === 0 ? [required(child(p, 'rbd', 'monitors'))] : []), ...requireAll(s, child(p, 'rbd'), 'image'),
    ],
  },
  {
    field: 'cinder', rule: (s, p) => {
      const errs = requireAll(s, child(p, 'cinder'), 'volumeID');
      const ref = obj(s, 'secretRef');
      if (ref && !str(ref, 'name')) errs.push(required(child(p, 'cinder', 'secretRef', 'name')));
      return errs;
    },
  },
  // Why: Go forbids it as "cephFS" but validates it under "cephfs".
  { field: 'cephfs', forbiddenAs: 'cephFS', rule: (s, p) => (list(s, 'monitors').length === 0 ? [required(child(p, 'cephfs', 'monitors'))] : []) },
  { field: 'quobyte', rule: quobyte },
  { field: 'fc', rule: fc },
  { field: 'flexVolume', rule: flexVolume },
  { field: 'azureFile', rule: requiredOnly('azureFile', 'secretName', 'shareName') },
  { field: 'vsphereVolume', rule: requiredOnly('vsphereVolume', 'volumePath') },
  { field: 'photonPersistentDisk', rule: requiredOnly('photonPersistentDisk', 'pdID') },
  { field: 'portworxVolume', rule: requiredOnly('portworxVolume', 'volumeID') },
  { field: 'azureDisk', rule: azureDisk },
  { field: 'storageos', rule: storageos },
  { field: 'scaleIO', rule: requiredOnly('scaleIO', 'gateway', 'system', 'volumeName') },
  { field: 'csi', rule: csi },
];
