// PLACEHOLDER — RuntimeClass is being written; this stand-in handles no request.
import type { AdmissionPlugin } from './plugin';

/** runtimeClass is the RuntimeClass admission plugin (plugin/pkg/admission/runtimeclass/admission.go). */
export const runtimeClass: AdmissionPlugin = {
  name: 'RuntimeClass',
  source: 'plugin/pkg/admission/runtimeclass/admission.go',
  handles: () => false,
};
