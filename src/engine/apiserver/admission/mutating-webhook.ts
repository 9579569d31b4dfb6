// PLACEHOLDER — MutatingAdmissionWebhook is being written; this stand-in handles no request.
import type { AdmissionPlugin } from './plugin';

/** mutatingAdmissionWebhook is the MutatingAdmissionWebhook admission plugin (staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/mutating/plugin.go). */
export const mutatingAdmissionWebhook: AdmissionPlugin = {
  name: 'MutatingAdmissionWebhook',
  source: 'staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/mutating/plugin.go',
  handles: () => false,
};
