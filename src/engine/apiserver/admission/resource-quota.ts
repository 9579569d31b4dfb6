// PLACEHOLDER — ResourceQuota is being written; this stand-in handles no request.
import type { AdmissionPlugin } from './plugin';

/** resourceQuota is the ResourceQuota admission plugin (staging/src/k8s.io/apiserver/pkg/admission/plugin/resourcequota/admission.go). */
export const resourceQuota: AdmissionPlugin = {
  name: 'ResourceQuota',
  source: 'staging/src/k8s.io/apiserver/pkg/admission/plugin/resourcequota/admission.go',
  handles: () => false,
};
