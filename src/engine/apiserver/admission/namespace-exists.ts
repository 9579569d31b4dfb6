// PLACEHOLDER — NamespaceExists is being written; this stand-in handles no request.
import type { AdmissionPlugin } from './plugin';

/** namespaceExists is the NamespaceExists admission plugin (plugin/pkg/admission/namespace/exists/admission.go). */
export const namespaceExists: AdmissionPlugin = {
  name: 'NamespaceExists',
  source: 'plugin/pkg/admission/namespace/exists/admission.go',
  handles: () => false,
};
