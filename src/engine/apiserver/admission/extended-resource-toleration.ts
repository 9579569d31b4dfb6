// PLACEHOLDER — ExtendedResourceToleration is being written; this stand-in handles no request.
import type { AdmissionPlugin } from './plugin';

/** extendedResourceToleration is the ExtendedResourceToleration admission plugin (plugin/pkg/admission/extendedresourcetoleration/admission.go). */
export const extendedResourceToleration: AdmissionPlugin = {
  name: 'ExtendedResourceToleration',
  source: 'plugin/pkg/admission/extendedresourcetoleration/admission.go',
  handles: () => false,
};
