// ServiceAccount: a pod gets its service account (default) and the projected API token volume.
import { applyServiceAccount } from '../../api/pod-create';
import type { Pod, ServiceAccount } from '../../api/types';
import { forbidden } from '../request';
import type { AdmissionPlugin } from './plugin';

/** serviceAccount mutates pods on create (plugin/pkg/admission/serviceaccount/admission.go). */
export const serviceAccount: AdmissionPlugin = {
  name: 'ServiceAccount',
  source: 'plugin/pkg/admission/serviceaccount/admission.go',
  handles: (a) => a.kind === 'Pod' && a.subresource === '' && a.operation === 'CREATE',
  admit(a, ctx) {
    const accounts = ctx.store.list<ServiceAccount>('ServiceAccount', a.namespace);
    const m = applyServiceAccount(a.object as Pod, ctx.rng, accounts);
    if (m.error) return { error: forbidden(a.resource, a.group, a.name || undefined, m.error) };
    a.object = m.object as typeof a.object;
    return { changes: m.changes, note: `service account "${m.object.spec?.serviceAccountName}"` };
  },
};
