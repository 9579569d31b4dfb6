// LimitPodHardAntiAffinityTopology: required pod anti-affinity may only spread by kubernetes.io/hostname (off by default).
import type { Pod } from '../../api/types';
import { forbidden } from '../request';
import type { AdmissionPlugin } from './plugin';

/** LABEL_HOSTNAME is the only topology key the plugin allows (v1.LabelHostname). */
const LABEL_HOSTNAME = 'kubernetes.io/hostname';

/**
 * limitPodHardAntiAffinityTopology refuses, in the validating pass, a pod whose
 * requiredDuringSchedulingIgnoredDuringExecution anti-affinity terms use another topology key:
 * `pods "web" is forbidden: affinity.PodAntiAffinity.RequiredDuringScheduling has TopologyKey zone but only key
 * kubernetes.io/hostname is allowed` (apierrors.NewForbidden with pod.Name, which validation sees generated).
 * See plugin/pkg/admission/antiaffinity/admission.go.
 */
export const limitPodHardAntiAffinityTopology: AdmissionPlugin = {
  name: 'LimitPodHardAntiAffinityTopology',
  source: 'plugin/pkg/admission/antiaffinity/admission.go',
  handles: (a) => a.resource === 'pods' && a.group === '' && a.subresource === '' && (a.operation === 'CREATE' || a.operation === 'UPDATE'),
  validate(a) {
    const pod = a.object as Pod;
    const terms = pod.spec?.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [];
    const detail = { topologyKeys: terms.map((t) => t.topologyKey) };
    for (const term of terms) {
      if (term.topologyKey !== LABEL_HOSTNAME) {
        const reason = `affinity.PodAntiAffinity.RequiredDuringScheduling has TopologyKey ${term.topologyKey} but only key ${LABEL_HOSTNAME} is allowed`;
        return { error: forbidden(a.resource, a.group, pod.metadata?.name || undefined, reason), detail };
      }
    }
    return { note: terms.length ? `every required anti-affinity term spreads by ${LABEL_HOSTNAME}` : 'no required pod anti-affinity', detail };
  },
};
