// PLACEHOLDER — NamespaceAutoProvision is being written; this stand-in handles no request.
import type { AdmissionPlugin } from './plugin';

/** namespaceAutoProvision is the NamespaceAutoProvision admission plugin (plugin/pkg/admission/namespace/autoprovision/admission.go). */
export const namespaceAutoProvision: AdmissionPlugin = {
  name: 'NamespaceAutoProvision',
  source: 'plugin/pkg/admission/namespace/autoprovision/admission.go',
  handles: () => false,
};
