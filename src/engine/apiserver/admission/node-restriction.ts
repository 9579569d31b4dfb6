// PLACEHOLDER — NodeRestriction is being written; this stand-in handles no request.
import type { AdmissionPlugin } from './plugin';

/** nodeRestriction is the NodeRestriction admission plugin (plugin/pkg/admission/noderestriction/admission.go). */
export const nodeRestriction: AdmissionPlugin = {
  name: 'NodeRestriction',
  source: 'plugin/pkg/admission/noderestriction/admission.go',
  handles: () => false,
};
