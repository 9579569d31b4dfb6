// The pod's claims as the volume plugins see them: which volumes use a PVC, the claims' classes, the listers' NotFound words.
// See component-helpers/storage/volume/helpers.go, component-helpers/storage/ephemeral/ephemeral.go and client-go listers.
import type { PersistentVolume, PersistentVolumeClaim, Pod, Volume } from '../../../api/types';
import { parseQuantity, type Quantity } from '../../../api/quantity';
import type { StorageClass } from 'kubernetes-types/storage/v1';
import type { Listers } from '../../framework/listers';

/** Kind names the objects the volume plugins read through the listers. */
export const Kind = {
  PersistentVolumeClaim: 'PersistentVolumeClaim',
  PersistentVolume: 'PersistentVolume',
  StorageClass: 'StorageClass',
  CSINode: 'CSINode',
  CSIDriver: 'CSIDriver',
  CSIStorageCapacity: 'CSIStorageCapacity',
  VolumeAttachment: 'VolumeAttachment',
} as const;

/** Ann lists the annotations of the binding protocol between scheduler, PV controller and provisioners (component-helpers/storage/volume). */
export const Ann = {
  /** SelectedNode is set by the scheduler on a claim to provision on that node. */
  SelectedNode: 'volume.kubernetes.io/selected-node',
  /** BindCompleted is set by the PV controller on a claim once it is fully bound. */
  BindCompleted: 'pv.kubernetes.io/bind-completed',
  /** BoundByController marks a binding the controller (not the user) made. */
  BoundByController: 'pv.kubernetes.io/bound-by-controller',
  /** BetaStorageClass is the class annotation that predates spec.storageClassName (v1.BetaStorageClassAnnotation). */
  BetaStorageClass: 'volume.beta.kubernetes.io/storage-class',
} as const;

/** AccessMode lists the access modes the plugins test for. */
export const AccessMode = { ReadWriteOncePod: 'ReadWriteOncePod' } as const;

/** BindingMode lists StorageClass.volumeBindingMode values. */
export const BindingMode = { Immediate: 'Immediate', WaitForFirstConsumer: 'WaitForFirstConsumer' } as const;

/** NOT_SUPPORTED_PROVISIONER is the provisioner of classes that cannot provision (local volumes). */
export const NOT_SUPPORTED_PROVISIONER = 'kubernetes.io/no-provisioner';

/** ClaimVolume is a pod volume backed by a PVC: its index in spec.volumes, the claim's name, whether it is ephemeral. */
export interface ClaimVolume {
  index: number;
  volume: Volume;
  claimName: string;
  ephemeral: boolean;
}

/** ephemeralClaimName is the PVC a generic ephemeral volume gets: `<pod>-<volume>` (ephemeral.VolumeClaimName). */
export function ephemeralClaimName(pod: Pod, volume: Volume): string {
  return `${pod.metadata?.name ?? ''}-${volume.name}`;
}

/** claimVolumes lists the pod's volumes that use a PVC, directly or as generic ephemeral volumes, in spec order. */
export function claimVolumes(pod: Pod): ClaimVolume[] {
  const out: ClaimVolume[] = [];
  (pod.spec?.volumes ?? []).forEach((volume, index) => {
    if (volume.persistentVolumeClaim) out.push({ index, volume, claimName: volume.persistentVolumeClaim.claimName, ephemeral: false });
    else if (volume.ephemeral) out.push({ index, volume, claimName: ephemeralClaimName(pod, volume), ephemeral: true });
  });
  return out;
}

/** claimFieldPath is the manifest field of a claim volume: `spec.volumes[0].persistentVolumeClaim` or `.ephemeral`. */
export function claimFieldPath(cv: ClaimVolume): string {
  return `spec.volumes[${cv.index}].${cv.ephemeral ? 'ephemeral' : 'persistentVolumeClaim'}`;
}

/** volumesFieldPath points at the first claim volume, or at spec.volumes when the pod has none. */
export function volumesFieldPath(pod: Pod): string {
  const first = claimVolumes(pod)[0];
  return first ? claimFieldPath(first) : 'spec.volumes';
}

/** volumeIsForPod is ephemeral.VolumeIsForPod: a generic ephemeral volume's claim must be controlled by the pod; else the error. */
export function volumeIsForPod(pod: Pod, pvc: PersistentVolumeClaim): string | undefined {
  const owner = (pvc.metadata?.ownerReferences ?? []).find((r) => r.controller === true);
  if (owner && owner.uid === pod.metadata?.uid) return undefined;
  const ns = pod.metadata?.namespace ?? '';
  return `PVC ${pvc.metadata?.namespace ?? ''}/${pvc.metadata?.name ?? ''} was not created for pod ${ns}/${pod.metadata?.name ?? ''} (pod is not owner)`;
}

/** NotFound is the message of a lister's NotFound error, `<resource>[.<group>] "<name>" not found` (errors.NewNotFound). */
export const NotFound = {
  pvc: (name: string): string => `persistentvolumeclaim "${name}" not found`,
  pv: (name: string): string => `persistentvolume "${name}" not found`,
  storageClass: (name: string): string => `storageclass.storage.k8s.io "${name}" not found`,
} as const;

/** claimClass is the claim's class: the beta annotation first, then spec.storageClassName (GetPersistentVolumeClaimClass). */
export function claimClass(pvc: PersistentVolumeClaim): string {
  const ann = pvc.metadata?.annotations?.[Ann.BetaStorageClass];
  if (ann !== undefined) return ann;
  return pvc.spec?.storageClassName ?? '';
}

/** volumeClass is the PV's class: the beta annotation first, then spec.storageClassName (GetPersistentVolumeClass). */
export function volumeClass(pv: PersistentVolume): string {
  const ann = pv.metadata?.annotations?.[Ann.BetaStorageClass];
  if (ann !== undefined) return ann;
  return pv.spec?.storageClassName ?? '';
}

const ZERO = parseQuantity(0);

/** storageRequest is the claim's spec.resources.requests.storage (zero when absent). */
export function storageRequest(pvc: PersistentVolumeClaim): Quantity {
  const q = pvc.spec?.resources?.requests?.['storage'];
  return q === undefined ? ZERO : parseQuantity(q);
}

/** storageCapacity is the PV's spec.capacity.storage (zero when absent). */
export function storageCapacity(pv: PersistentVolume): Quantity {
  const q = pv.spec?.capacity?.['storage'];
  return q === undefined ? ZERO : parseQuantity(q);
}

/** bindingModeOf is the class's volumeBindingMode; the API server defaults an unset one to Immediate, so a class loaded without it reads so. */
export function bindingModeOf(sc: StorageClass): string {
  return sc.volumeBindingMode ?? BindingMode.Immediate;
}

/** isDelayBindingMode tells whether the claim's class is WaitForFirstConsumer; no class or a missing class means immediate (IsDelayBindingMode). */
export function isDelayBindingMode(pvc: PersistentVolumeClaim, listers: Listers): boolean {
  const name = claimClass(pvc);
  if (name === '') return false;
  const sc = listers.get<StorageClass>(Kind.StorageClass, undefined, name);
  return sc !== undefined && bindingModeOf(sc) === BindingMode.WaitForFirstConsumer;
}

/** isFullyBound tells whether the PV controller finished binding the claim: volumeName set and bind-completed annotated. */
export function isFullyBound(pvc: PersistentVolumeClaim): boolean {
  return (pvc.spec?.volumeName ?? '') !== '' && pvc.metadata?.annotations?.[Ann.BindCompleted] !== undefined;
}

/** claimKey is `namespace/name`, the key of the scheduler's PVC caches. */
export function claimKey(namespace: string, name: string): string {
  return `${namespace}/${name}`;
}
