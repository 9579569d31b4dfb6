// PLACEHOLDER — PodNodeSelector is being written; this stand-in handles no request.
import type { AdmissionPlugin } from './plugin';

/** podNodeSelector is the PodNodeSelector admission plugin (plugin/pkg/admission/podnodeselector/admission.go). */
export const podNodeSelector: AdmissionPlugin = {
  name: 'PodNodeSelector',
  source: 'plugin/pkg/admission/podnodeselector/admission.go',
  handles: () => false,
};
