// Priority: a pod's priority comes from its PriorityClass (or the global default, or 0).
import { applyPriority } from '../../api/pod-create';
import type { Pod, PriorityClass } from '../../api/types';
import { forbidden } from '../request';
import type { AdmissionPlugin } from './plugin';

/** priority resolves spec.priorityClassName on pod create (plugin/pkg/admission/priority/admission.go). */
export const priority: AdmissionPlugin = {
  name: 'Priority',
  source: 'plugin/pkg/admission/priority/admission.go',
  handles: (a) => a.kind === 'Pod' && a.subresource === '' && a.operation === 'CREATE',
  admit(a, ctx) {
    const classes = ctx.store.list<PriorityClass>('PriorityClass');
    const m = applyPriority(a.object as Pod, classes);
    if (m.error) return { error: forbidden(a.resource, a.group, a.name || undefined, m.error) };
    a.object = m.object as typeof a.object;
    return { changes: m.changes, note: `priority ${m.object.spec?.priority}, preemptionPolicy ${m.object.spec?.preemptionPolicy}` };
  },
};
