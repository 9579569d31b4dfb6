// PLACEHOLDER — ValidatingAdmissionPolicy is being written; this stand-in handles no request.
import type { AdmissionPlugin } from './plugin';

/** validatingAdmissionPolicy is the ValidatingAdmissionPolicy admission plugin (staging/src/k8s.io/apiserver/pkg/admission/plugin/policy/validating/plugin.go). */
export const validatingAdmissionPolicy: AdmissionPlugin = {
  name: 'ValidatingAdmissionPolicy',
  source: 'staging/src/k8s.io/apiserver/pkg/admission/plugin/policy/validating/plugin.go',
  handles: () => false,
};
