// PLACEHOLDER — PodTolerationRestriction is being written; this stand-in handles no request.
import type { AdmissionPlugin } from './plugin';

/** podTolerationRestriction is the PodTolerationRestriction admission plugin (plugin/pkg/admission/podtolerationrestriction/admission.go). */
export const podTolerationRestriction: AdmissionPlugin = {
  name: 'PodTolerationRestriction',
  source: 'plugin/pkg/admission/podtolerationrestriction/admission.go',
  handles: () => false,
};
