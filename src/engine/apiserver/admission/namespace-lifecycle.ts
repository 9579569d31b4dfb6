// NamespaceLifecycle: no new objects in a namespace that does not exist or is being deleted, and the immortal
// namespaces are never deleted.
import type { Namespace } from '../../api/types';
import { forbidden, notFound, StatusError, type StatusCause } from '../request';
import { newForbidden } from './errors';
import type { AdmissionAttributes, AdmissionPlugin } from './plugin';

/**
 * IMMORTAL_NAMESPACES can never be deleted: the plugin is registered with default, kube-system and kube-public.
 * See staging/src/k8s.io/apiserver/pkg/admission/plugin/namespace/lifecycle/admission.go (Register).
 */
export const IMMORTAL_NAMESPACES: readonly string[] = ['default', 'kube-system', 'kube-public'];

/** NAMESPACE_TERMINATING_CAUSE is the cause type a create in a terminating namespace carries (v1.NamespaceTerminatingCause). */
export const NAMESPACE_TERMINATING_CAUSE = 'NamespaceTerminating';

/** MISSING_NAMESPACE_WAIT_MS is how long the plugin waits for its cache before it looks a missing namespace up live. */
const MISSING_NAMESPACE_WAIT_MS = 50;

/** isNamespaceKind tells a v1 Namespace request (GroupKind core/Namespace). */
function isNamespaceKind(a: AdmissionAttributes): boolean {
  return a.kind === 'Namespace' && a.group === '';
}

/** terminating is the Forbidden error of a create in a terminating namespace, with its NamespaceTerminating cause. */
function terminating(a: AdmissionAttributes): StatusError {
  const err = newForbidden(a, `unable to create new content in namespace ${a.namespace} because it is being terminated`);
  const cause: StatusCause = { reason: NAMESPACE_TERMINATING_CAUSE, message: `namespace ${a.namespace} is being terminated`, field: 'metadata.namespace' };
  return new StatusError({ ...err.status, details: { ...err.status.details, causes: [cause] } });
}

/**
 * namespaceLifecycle refuses creates in a missing or terminating namespace and the deletion of the immortal
 * namespaces; every other request passes. Namespaces themselves, deletions and cluster-scoped objects are always
 * allowed. A namespace missing on a create is looked for again after 50 ms (for one created just before) and then
 * live; the simulation's store is both the cache and storage, so the answer is the same.
 */
export const namespaceLifecycle: AdmissionPlugin = {
  name: 'NamespaceLifecycle',
  source: 'staging/src/k8s.io/apiserver/pkg/admission/plugin/namespace/lifecycle/admission.go',
  handles: (a) => a.operation === 'CREATE' || a.operation === 'UPDATE' || a.operation === 'DELETE',
  // Lifecycle implements Admit, so it runs in the mutating pass, before any plugin looks the namespace up.
  admit(a, ctx) {
    if (a.operation === 'DELETE' && isNamespaceKind(a) && IMMORTAL_NAMESPACES.includes(a.name)) {
      return {
        error: forbidden(a.resource, a.group, a.name, 'this namespace may not be deleted'),
        detail: { namespace: a.name, immortal: IMMORTAL_NAMESPACES },
      };
    }
    if (a.namespace === '' && !isNamespaceKind(a)) return { note: 'cluster-scoped object', detail: { namespaced: false } };
    if (isNamespaceKind(a)) return { note: 'requests on namespaces themselves are always allowed', detail: { namespace: a.name } };
    if (a.operation === 'DELETE') return { note: 'deletions are always allowed', detail: { namespace: a.namespace } };
    if (a.group === 'authorization.k8s.io' && a.resource === 'localsubjectaccessreviews') {
      return { note: 'access reviews are always allowed', detail: { namespace: a.namespace } };
    }
    const ns = ctx.store.get<Namespace>('Namespace', undefined, a.namespace);
    const lookups = ns ? ['informer cache'] : a.operation === 'CREATE'
      ? ['informer cache', `informer cache after ${MISSING_NAMESPACE_WAIT_MS}ms`, 'live GET'] : ['informer cache', 'live GET'];
    if (!ns) {
      return { error: notFound('namespaces', '', a.namespace), note: `namespace "${a.namespace}" does not exist`, detail: { namespace: a.namespace, found: false, lookups } };
    }
    const phase = ns.status?.phase ?? 'Active';
    const detail = { namespace: a.namespace, found: true, phase, lookups, ...(ns.metadata?.deletionTimestamp ? { deletionTimestamp: ns.metadata.deletionTimestamp } : {}) };
    if (a.operation === 'CREATE' && phase === 'Terminating') return { error: terminating(a), detail };
    return { note: `namespace "${a.namespace}" is ${phase}`, detail };
  },
};
