// A container's volumeMounts and volumeDevices: each names a valid volume, paths unique and apart, subPath rules,
// mount propagation and recursive read-only. See pkg/apis/core/validation/validation.go (ValidateVolumeMounts,
// ValidateVolumeDevices, validateMountPropagation, validateMountRecursiveReadOnly).
import type { VolumeDevice, VolumeMount } from 'kubernetes-types/core/v1';
import { asJSON, child, type FieldError, forbidden, index, invalidValue, notFound, notSupported, required } from './field-errors';
import { validateLocalDescendingPath, validatePathNoBacksteps } from './pod-paths';
import type { Container136, Volume136 } from './pod-types';

/** ValidVolumes is what ValidateVolumes returns: the volumes that passed, by name. */
export type ValidVolumes = ReadonlyMap<string, Volume136>;

const PROPAGATIONS = ['Bidirectional', 'HostToContainer', 'None'];
const RECURSIVE_READ_ONLY = ['Disabled', 'Enabled', 'IfPossible'];

/** validateVolumeMounts is ValidateVolumeMounts for one container. Some paths are the list's own, as in Go. */
export function validateVolumeMounts(container: Container136, volumes: ValidVolumes, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const devices = new Map((container.volumeDevices ?? []).map((d) => [d.name ?? '', d.devicePath ?? '']));
  const mountPoints = new Set<string>();
  (container.volumeMounts ?? []).forEach((mnt, i) => {
    const at = index(path, i);
    const name = mnt.name ?? '';
    const mountPath = mnt.mountPath ?? '';
    if (!name) errs.push(required(child(at, 'name')));
    if (!volumes.has(name)) errs.push(notFound(child(at, 'name'), name));
    if (!mountPath) errs.push(required(child(at, 'mountPath')));
    if (mountPoints.has(mountPath)) errs.push(invalidValue(child(at, 'mountPath'), mountPath, 'must be unique'));
    mountPoints.add(mountPath);
    if (devices.has(name)) errs.push(invalidValue(child(at, 'name'), name, 'must not already exist in volumeDevices'));
    if ([...devices.values()].includes(mountPath)) errs.push(invalidValue(child(at, 'mountPath'), mountPath, 'must not already exist as a path in volumeDevices'));
    if (volumes.get(name)?.image) {
      if (mnt.subPath) errs.push(invalidValue(child(at, 'subPath'), mnt.subPath, 'not allowed in image volume sources'));
      if (mnt.subPathExpr) errs.push(invalidValue(child(at, 'subPathExpr'), mnt.subPathExpr, 'not allowed in image volume sources'));
    }
    // Why: Go checks subPath, subPathExpr, propagation and recursiveReadOnly at fldPath.Child(...), the list's path.
    if (mnt.subPath) errs.push(...validateLocalDescendingPath(mnt.subPath, child(path, 'subPath')));
    if (mnt.subPathExpr) {
      if (mnt.subPath) errs.push(invalidValue(child(at, 'subPathExpr'), mnt.subPathExpr, 'subPathExpr and subPath are mutually exclusive'));
      errs.push(...validateLocalDescendingPath(mnt.subPathExpr, child(path, 'subPathExpr')));
    }
    if (mnt.mountPropagation !== undefined && mnt.mountPropagation !== null) {
      errs.push(...validateMountPropagation(mnt.mountPropagation, container, child(path, 'mountPropagation')));
    }
    errs.push(...validateMountRecursiveReadOnly(mnt, child(path, 'recursiveReadOnly')));
  });
  return errs;
}

/** validateMountPropagation is validateMountPropagation: a known mode, Bidirectional only for privileged containers. */
function validateMountPropagation(mode: string, container: Container136, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!PROPAGATIONS.includes(mode)) errs.push(notSupported(path, asJSON(mode), PROPAGATIONS));
  if (mode === 'Bidirectional' && container.securityContext?.privileged !== true) {
    errs.push(forbidden(path, 'Bidirectional mount propagation is available only to privileged containers'));
  }
  return errs;
}

/** validateMountRecursiveReadOnly is validateMountRecursiveReadOnly. */
function validateMountRecursiveReadOnly(mnt: VolumeMount, path: string): FieldError[] {
  const rro = mnt.recursiveReadOnly;
  if (rro === undefined || rro === null || rro === 'Disabled') return [];
  if (!RECURSIVE_READ_ONLY.includes(rro)) return [notSupported(path, asJSON(rro), RECURSIVE_READ_ONLY)];
  const errs: FieldError[] = [];
  if (!mnt.readOnly) errs.push(forbidden(path, 'may only be specified when readOnly is true'));
  if (mnt.mountPropagation && mnt.mountPropagation !== 'None') errs.push(forbidden(path, 'may only be specified when mountPropagation is None or not specified'));
  return errs;
}

/** validateVolumeDevices is ValidateVolumeDevices: block devices of PVC or ephemeral volumes, apart from the mounts. */
export function validateVolumeDevices(container: Container136, volumes: ValidVolumes, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const mounts = new Map((container.volumeMounts ?? []).map((m) => [m.name ?? '', m.mountPath ?? '']));
  const devicePaths = new Set<string>();
  const deviceNames = new Set<string>();
  (container.volumeDevices ?? []).forEach((dev: VolumeDevice, i) => {
    const at = index(path, i);
    const name = dev.name ?? '';
    const devPath = dev.devicePath ?? '';
    const source = volumes.get(name);
    const isPVC = source !== undefined && (source.persistentVolumeClaim !== undefined || source.ephemeral !== undefined);
    if (!name) errs.push(required(child(at, 'name')));
    if (deviceNames.has(name)) errs.push(invalidValue(child(at, 'name'), name, 'must be unique'));
    if (source && !isPVC) errs.push(invalidValue(child(at, 'name'), name, 'can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode'));
    if (!source) errs.push(notFound(child(at, 'name'), name));
    if (!devPath) errs.push(required(child(at, 'devicePath')));
    if (devicePaths.has(devPath)) errs.push(invalidValue(child(at, 'devicePath'), devPath, 'must be unique'));
    if (devPath && validatePathNoBacksteps(devPath, child(path, 'devicePath')).length > 0) {
      errs.push(invalidValue(child(at, 'devicePath'), devPath, "can not contain backsteps ('..')"));
    } else {
      devicePaths.add(devPath);
    }
    if (mounts.has(name)) errs.push(invalidValue(child(at, 'name'), name, 'must not already exist in volumeMounts'));
    if ([...mounts.values()].includes(devPath)) errs.push(invalidValue(child(at, 'devicePath'), devPath, 'must not already exist as a path in volumeMounts'));
    if (name) deviceNames.add(name);
  });
  return errs;
}
