// PLACEHOLDER — ValidatingAdmissionWebhook is being written; this stand-in handles no request.
import type { AdmissionPlugin } from './plugin';

/** validatingAdmissionWebhook is the ValidatingAdmissionWebhook admission plugin (staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/validating/plugin.go). */
export const validatingAdmissionWebhook: AdmissionPlugin = {
  name: 'ValidatingAdmissionWebhook',
  source: 'staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/validating/plugin.go',
  handles: () => false,
};
