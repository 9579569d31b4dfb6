// PLACEHOLDER — DisableServiceLinks is being written; this stand-in handles no request.
import type { AdmissionPlugin } from './plugin';

/** disableServiceLinks is the DisableServiceLinks admission plugin (plugin/pkg/admission/disableservicelinks/admission.go). */
export const disableServiceLinks: AdmissionPlugin = {
  name: 'DisableServiceLinks',
  source: 'plugin/pkg/admission/disableservicelinks/admission.go',
  handles: () => false,
};
