// PLACEHOLDER — DefaultStorageClass is being written; this stand-in handles no request.
import type { AdmissionPlugin } from './plugin';

/** defaultStorageClass is the DefaultStorageClass admission plugin (plugin/pkg/admission/storage/storageclass/setdefault/admission.go). */
export const defaultStorageClass: AdmissionPlugin = {
  name: 'DefaultStorageClass',
  source: 'plugin/pkg/admission/storage/storageclass/setdefault/admission.go',
  handles: () => false,
};
