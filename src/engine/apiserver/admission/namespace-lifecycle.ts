// NamespaceLifecycle: no new objects in a namespace that does not exist or is being deleted.
import type { Namespace } from '../../api/types';
import { forbidden, notFound } from '../request';
import type { AdmissionPlugin } from './plugin';

/** IMMORTAL_NAMESPACES can never be deleted. See plugin/pkg/admission/namespace/lifecycle/admission.go. */
const IMMORTAL_NAMESPACES = ['default', 'kube-system', 'kube-public'];

/** namespaceLifecycle refuses creates in a missing or terminating namespace (staging/src/k8s.io/apiserver/pkg/admission/plugin/namespace/lifecycle/admission.go). */
export const namespaceLifecycle: AdmissionPlugin = {
  name: 'NamespaceLifecycle',
  source: 'staging/src/k8s.io/apiserver/pkg/admission/plugin/namespace/lifecycle/admission.go',
  handles: (a) => a.namespace !== '' && a.kind !== 'Namespace',
  // Lifecycle implements Admit, so it runs first in the mutating pass, before any plugin looks the namespace up.
  admit(a, ctx) {
    if (a.operation !== 'CREATE') return {};
    const ns = ctx.store.get<Namespace>('Namespace', undefined, a.namespace);
    if (!ns) return { error: notFound('namespaces', '', a.namespace), note: `namespace "${a.namespace}" does not exist` };
    if (ns.status?.phase === 'Terminating' && !IMMORTAL_NAMESPACES.includes(a.namespace)) {
      return { error: forbidden(a.resource, a.group, a.name || undefined, `unable to create new content in namespace ${a.namespace} because it is being terminated`) };
    }
    return { note: `namespace "${a.namespace}" is Active` };
  },
};
