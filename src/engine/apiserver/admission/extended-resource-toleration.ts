// ExtendedResourceToleration: a pod requesting an extended resource (example.com/gpu) tolerates the taint of the
// nodes that carry it (off by default).
import { isLabelKey } from '../../api/labels-validation';
import type { Pod, Toleration } from '../../api/types';
import type { AdmissionPlugin } from './plugin';

/**
 * isExtendedResourceName is helper.IsExtendedResourceName: a name outside kubernetes.io/ (so with a domain),
 * not starting with requests., that is a qualified name once prefixed with requests. (as quota names it).
 */
export function isExtendedResourceName(name: string): boolean {
  const native = !name.includes('/') || name.includes('kubernetes.io/');
  if (native || name.startsWith('requests.')) return false;
  return isLabelKey(`requests.${name}`).length === 0;
}

/**
 * addOrUpdateToleration is helper.AddOrUpdateTolerationInPod: a toleration with the same key, effect, operator and
 * value is replaced (kept when equal); otherwise the toleration is appended. It returns whether anything changed.
 */
function addOrUpdateToleration(tolerations: Toleration[], toleration: Toleration): boolean {
  const same = (t: Toleration): boolean => (t.key ?? '') === (toleration.key ?? '') && (t.effect ?? '') === (toleration.effect ?? '') &&
    (t.operator ?? '') === (toleration.operator ?? '') && (t.value ?? '') === (toleration.value ?? '');
  const i = tolerations.findIndex(same);
  if (i < 0) {
    tolerations.push(toleration);
    return true;
  }
  const current = tolerations[i]!;
  if ((current.tolerationSeconds ?? null) === (toleration.tolerationSeconds ?? null)) return false;
  tolerations[i] = toleration;
  return true;
}

/**
 * extendedResourceToleration adds, for each extended resource the containers and init containers request (in
 * sorted order), a toleration {key: <resource>, operator: Exists, effect: NoSchedule}.
 * See plugin/pkg/admission/extendedresourcetoleration/admission.go.
 */
export const extendedResourceToleration: AdmissionPlugin = {
  name: 'ExtendedResourceToleration',
  source: 'plugin/pkg/admission/extendedresourcetoleration/admission.go',
  handles: (a) => a.resource === 'pods' && a.group === '' && a.subresource === '' && (a.operation === 'CREATE' || a.operation === 'UPDATE'),
  admit(a) {
    const pod = structuredClone(a.object) as Pod;
    const spec = (pod.spec ??= { containers: [] });
    const resources = new Set<string>();
    for (const c of [...spec.containers, ...(spec.initContainers ?? [])]) {
      for (const name of Object.keys(c.resources?.requests ?? {})) if (isExtendedResourceName(name)) resources.add(name);
    }
    const sorted = [...resources].sort();
    const tolerations = [...(spec.tolerations ?? [])];
    const changes: string[] = [];
    for (const key of sorted) {
      if (addOrUpdateToleration(tolerations, { key, operator: 'Exists', effect: 'NoSchedule' })) {
        changes.push(`spec.tolerations[${tolerations.findIndex((t) => t.key === key && t.operator === 'Exists' && t.effect === 'NoSchedule')}]`);
      }
    }
    if (changes.length === 0) return { note: sorted.length ? 'the pod already tolerates its extended resources' : 'no extended resource requested', detail: { extendedResources: sorted } };
    spec.tolerations = tolerations;
    a.object = pod as typeof a.object;
    return { changes, note: `tolerates ${sorted.join(', ')}`, detail: { extendedResources: sorted } };
  },
};
