// PLACEHOLDER — StorageObjectInUseProtection is being written; this stand-in handles no request.
import type { AdmissionPlugin } from './plugin';

/** storageObjectInUseProtection is the StorageObjectInUseProtection admission plugin (plugin/pkg/admission/storage/storageobjectinuseprotection/admission.go). */
export const storageObjectInUseProtection: AdmissionPlugin = {
  name: 'StorageObjectInUseProtection',
  source: 'plugin/pkg/admission/storage/storageobjectinuseprotection/admission.go',
  handles: () => false,
};
