// PLACEHOLDER — PodSecurity is being written; this stand-in handles no request.
import type { AdmissionPlugin } from './plugin';

/** podSecurity is the PodSecurity admission plugin (plugin/pkg/admission/security/podsecurity/admission.go). */
export const podSecurity: AdmissionPlugin = {
  name: 'PodSecurity',
  source: 'plugin/pkg/admission/security/podsecurity/admission.go',
  handles: () => false,
};
