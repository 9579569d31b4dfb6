// PLACEHOLDER — LimitPodHardAntiAffinityTopology is being written; this stand-in handles no request.
import type { AdmissionPlugin } from './plugin';

/** limitPodHardAntiAffinityTopology is the LimitPodHardAntiAffinityTopology admission plugin (plugin/pkg/admission/antiaffinity/admission.go). */
export const limitPodHardAntiAffinityTopology: AdmissionPlugin = {
  name: 'LimitPodHardAntiAffinityTopology',
  source: 'plugin/pkg/admission/antiaffinity/admission.go',
  handles: () => false,
};
