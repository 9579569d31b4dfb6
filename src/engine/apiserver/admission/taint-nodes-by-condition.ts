// PLACEHOLDER — TaintNodesByCondition is being written; this stand-in handles no request.
import type { AdmissionPlugin } from './plugin';

/** taintNodesByCondition is the TaintNodesByCondition admission plugin (plugin/pkg/admission/nodetaint/admission.go). */
export const taintNodesByCondition: AdmissionPlugin = {
  name: 'TaintNodesByCondition',
  source: 'plugin/pkg/admission/nodetaint/admission.go',
  handles: () => false,
};
