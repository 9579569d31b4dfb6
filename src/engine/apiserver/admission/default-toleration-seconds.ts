// DefaultTolerationSeconds: pods tolerate not-ready and unreachable nodes for 300 s before eviction.
import { applyDefaultTolerationSeconds } from '../../api/pod-create';
import type { Pod } from '../../api/types';
import type { AdmissionPlugin } from './plugin';

/** defaultTolerationSeconds adds the two NoExecute tolerations (plugin/pkg/admission/defaulttolerationseconds/admission.go). */
export const defaultTolerationSeconds: AdmissionPlugin = {
  name: 'DefaultTolerationSeconds',
  source: 'plugin/pkg/admission/defaulttolerationseconds/admission.go',
  handles: (a) => a.kind === 'Pod' && a.subresource === '' && a.operation === 'CREATE',
  admit(a) {
    const m = applyDefaultTolerationSeconds(a.object as Pod);
    a.object = m.object as typeof a.object;
    return { changes: m.changes, note: m.changes.length ? 'added the not-ready and unreachable tolerations (300s)' : 'the pod already tolerates both taints' };
  },
};
