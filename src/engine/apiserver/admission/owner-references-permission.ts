// PLACEHOLDER — OwnerReferencesPermissionEnforcement is being written; this stand-in handles no request.
import type { AdmissionPlugin } from './plugin';

/** ownerReferencesPermissionEnforcement is the OwnerReferencesPermissionEnforcement admission plugin (plugin/pkg/admission/gc/gc_admission.go). */
export const ownerReferencesPermissionEnforcement: AdmissionPlugin = {
  name: 'OwnerReferencesPermissionEnforcement',
  source: 'plugin/pkg/admission/gc/gc_admission.go',
  handles: () => false,
};
