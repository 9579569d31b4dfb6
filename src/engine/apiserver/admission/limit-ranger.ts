// PLACEHOLDER — LimitRanger is being written; this stand-in handles no request.
import type { AdmissionPlugin } from './plugin';

/** limitRanger is the LimitRanger admission plugin (plugin/pkg/admission/limitranger/admission.go). */
export const limitRanger: AdmissionPlugin = {
  name: 'LimitRanger',
  source: 'plugin/pkg/admission/limitranger/admission.go',
  handles: () => false,
};
