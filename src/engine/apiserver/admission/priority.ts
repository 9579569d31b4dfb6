// Priority: a pod's priority comes from its PriorityClass (or the global default, or 0); only one PriorityClass
// may be the global default.
import { applyPriority } from '../../api/pod-create';
import type { Pod, PriorityClass } from '../../api/types';
import { newForbidden } from './errors';
import type { AdmissionAttributes, AdmissionPlugin, AdmissionResult } from './plugin';

/** lowestDefault is getDefaultPriorityClass: of the globalDefault classes (a race can make several), the lowest value. */
function lowestDefault(classes: readonly PriorityClass[]): PriorityClass | undefined {
  return classes.filter((pc) => pc.globalDefault === true).reduce<PriorityClass | undefined>((low, pc) => (low === undefined || low.value > pc.value ? pc : low), undefined);
}

/**
 * admitPod resolves a new pod's priority. Why no namespace rule: since 1.17 the system classes
 * (system-cluster-critical, system-node-critical) may be used in any namespace; keeping them to kube-system
 * takes a ResourceQuota admission configuration (limitedResources), which kubeadm does not write.
 */
function admitPod(a: AdmissionAttributes, classes: readonly PriorityClass[]): AdmissionResult {
  const pod = a.object as Pod;
  const m = applyPriority(pod, classes);
  const name = m.object.spec?.priorityClassName || pod.spec?.priorityClassName || '';
  const detail = {
    priorityClassName: pod.spec?.priorityClassName ?? null, resolvedFrom: pod.spec?.priorityClassName ? 'spec.priorityClassName' : name ? 'globalDefault' : 'none',
    priorityClass: name || null, priority: m.object.spec?.priority ?? null, preemptionPolicy: m.object.spec?.preemptionPolicy ?? null,
  };
  if (m.error) return { error: newForbidden(a, m.error), detail };
  a.object = m.object as typeof a.object;
  return { changes: m.changes, note: `priority ${m.object.spec?.priority}, preemptionPolicy ${m.object.spec?.preemptionPolicy}`, detail };
}

/** admitPodUpdate keeps the priority set on create when an update leaves it out (API validation refuses changes). */
function admitPodUpdate(a: AdmissionAttributes): AdmissionResult {
  const pod = a.object as Pod;
  const old = a.oldObject as Pod | undefined;
  const spec = pod.spec;
  const changes: string[] = [];
  if (spec && (spec.priority === undefined || spec.priority === null) && old?.spec?.priority !== undefined) {
    spec.priority = old.spec.priority;
    changes.push('spec.priority');
  }
  if (spec && !spec.preemptionPolicy && old?.spec?.preemptionPolicy) {
    spec.preemptionPolicy = old.spec.preemptionPolicy;
    changes.push('spec.preemptionPolicy');
  }
  return { changes, note: 'the priority set on create is kept' };
}

/**
 * validatePriorityClass refuses a second global default: `PriorityClass x is already marked as default. Only one
 * default can exist` (on create, or on an update of another class than the existing default).
 */
function validatePriorityClass(a: AdmissionAttributes, classes: readonly PriorityClass[]): AdmissionResult {
  const pc = a.object as unknown as PriorityClass;
  if (pc.globalDefault !== true) return { note: 'not a global default', detail: { globalDefault: false } };
  const existing = lowestDefault(classes);
  const detail = { globalDefault: true, existingDefault: existing?.metadata?.name ?? null };
  if (existing && (a.operation === 'CREATE' || existing.metadata?.name !== pc.metadata?.name)) {
    return { error: newForbidden(a, `PriorityClass ${existing.metadata?.name ?? ''} is already marked as default. Only one default can exist`), detail };
  }
  return { note: 'the only global default', detail };
}

const isPods = (a: AdmissionAttributes): boolean => a.resource === 'pods' && a.group === '';
const isPriorityClasses = (a: AdmissionAttributes): boolean => a.resource === 'priorityclasses' && a.group === 'scheduling.k8s.io';

/**
 * priority resolves spec.priorityClassName on pod create (`no PriorityClass with name x was found` when it names
 * none) and keeps one global default among PriorityClasses. Workloads, which it also resolves, are not served.
 * See plugin/pkg/admission/priority/admission.go.
 */
export const priority: AdmissionPlugin = {
  name: 'Priority',
  source: 'plugin/pkg/admission/priority/admission.go',
  // Handler: Create, Update, Delete; subresources are ignored, and DELETE does nothing.
  handles: (a) => a.subresource === '' && (a.operation === 'CREATE' || a.operation === 'UPDATE') && (isPods(a) || isPriorityClasses(a)),
  admit(a, ctx) {
    if (!isPods(a)) return { note: 'PriorityClasses are checked in the validating pass' };
    if (a.operation === 'UPDATE') return admitPodUpdate(a);
    return admitPod(a, ctx.store.list<PriorityClass>('PriorityClass'));
  },
  validate(a, ctx) {
    if (!isPriorityClasses(a)) return { note: 'pods were resolved in the mutating pass' };
    return validatePriorityClass(a, ctx.store.list<PriorityClass>('PriorityClass'));
  },
};
