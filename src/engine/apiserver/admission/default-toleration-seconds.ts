// DefaultTolerationSeconds: pods tolerate not-ready and unreachable nodes for 300 s before eviction.
import { applyDefaultTolerationSeconds } from '../../api/pod-create';
import type { Pod } from '../../api/types';
import type { AdmissionPlugin } from './plugin';

/**
 * defaultTolerationSeconds adds the NoExecute tolerations of node.kubernetes.io/not-ready and
 * node.kubernetes.io/unreachable (Exists, 300 s, the kube-apiserver flags' defaults) to a pod that does not
 * already tolerate them, on create and on update. See plugin/pkg/admission/defaulttolerationseconds/admission.go.
 */
export const defaultTolerationSeconds: AdmissionPlugin = {
  name: 'DefaultTolerationSeconds',
  source: 'plugin/pkg/admission/defaulttolerationseconds/admission.go',
  handles: (a) => a.resource === 'pods' && a.group === '' && a.subresource === '' && (a.operation === 'CREATE' || a.operation === 'UPDATE'),
  admit(a) {
    const pod = a.object as Pod;
    const m = applyDefaultTolerationSeconds(pod);
    a.object = m.object as typeof a.object;
    const before = pod.spec?.tolerations ?? [];
    const added = (m.object.spec?.tolerations ?? []).slice(before.length).map((t) => t.key ?? '');
    const detail = { tolerations: before.map((t) => `${t.key ?? ''}:${t.effect ?? ''}`), added, tolerationSeconds: 300 };
    return { changes: m.changes, note: added.length ? `tolerates ${added.join(' and ')} for 300s` : 'the pod already tolerates both taints', detail };
  },
};
