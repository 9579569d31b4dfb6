// StorageObjectInUseProtection: new claims, volumes and volume attributes classes get the finalizer that keeps them
// while in use.
import type { AdmissionAttributes, AdmissionPlugin } from './plugin';

/**
 * PROTECTION_FINALIZERS are the finalizers by resource: the PVC, PV and VolumeAttributesClass protection
 * controllers remove them once nothing uses the object. See pkg/volume/util (PVCProtectionFinalizer, ...).
 */
export const PROTECTION_FINALIZERS: Readonly<Record<string, string>> = {
  persistentvolumeclaims: 'kubernetes.io/pvc-protection',
  persistentvolumes: 'kubernetes.io/pv-protection',
  volumeattributesclasses: 'kubernetes.io/vac-protection',
};

function finalizerFor(a: AdmissionAttributes): string | undefined {
  const group = a.resource === 'volumeattributesclasses' ? 'storage.k8s.io' : '';
  return a.group === group ? PROTECTION_FINALIZERS[a.resource] : undefined;
}

/**
 * storageObjectInUseProtection appends the protection finalizer to a PersistentVolumeClaim, PersistentVolume or
 * VolumeAttributesClass on create, unless it is there already.
 * See plugin/pkg/admission/storage/storageobjectinuseprotection/admission.go.
 */
export const storageObjectInUseProtection: AdmissionPlugin = {
  name: 'StorageObjectInUseProtection',
  source: 'plugin/pkg/admission/storage/storageobjectinuseprotection/admission.go',
  handles: (a) => a.operation === 'CREATE' && a.subresource === '' && finalizerFor(a) !== undefined,
  admit(a) {
    const finalizer = finalizerFor(a) ?? '';
    const finalizers = a.object.metadata?.finalizers ?? [];
    if (finalizers.includes(finalizer)) return { note: `already has ${finalizer}`, detail: { finalizer, finalizers } };
    a.object = { ...a.object, metadata: { ...a.object.metadata, finalizers: [...finalizers, finalizer] } };
    return { changes: [`metadata.finalizers[${finalizers.length}]`], note: `added the ${finalizer} finalizer`, detail: { finalizer, finalizers } };
  },
};
