// PLACEHOLDER — AlwaysPullImages is being written; this stand-in handles no request.
import type { AdmissionPlugin } from './plugin';

/** alwaysPullImages is the AlwaysPullImages admission plugin (plugin/pkg/admission/alwayspullimages/admission.go). */
export const alwaysPullImages: AdmissionPlugin = {
  name: 'AlwaysPullImages',
  source: 'plugin/pkg/admission/alwayspullimages/admission.go',
  handles: () => false,
};
