// NamespaceExists: a request in a namespace that does not exist is refused (off by default; NamespaceLifecycle does it too).
import type { Namespace } from '../../api/types';
import { notFound } from '../request';
import type { AdmissionPlugin } from './plugin';

/**
 * namespaceExists refuses, in the validating pass, every create, update or delete of a namespaced object whose
 * namespace is missing, with the 404 of the live lookup: `namespaces "dev" not found`. Namespaces themselves and
 * cluster-scoped objects pass. See plugin/pkg/admission/namespace/exists/admission.go (Validate).
 */
export const namespaceExists: AdmissionPlugin = {
  name: 'NamespaceExists',
  source: 'plugin/pkg/admission/namespace/exists/admission.go',
  handles: (a) => a.operation === 'CREATE' || a.operation === 'UPDATE' || a.operation === 'DELETE',
  validate(a, ctx) {
    if (a.namespace === '' || (a.kind === 'Namespace' && a.group === '')) return { note: 'not in a namespace', detail: { namespace: a.namespace || null } };
    const found = ctx.store.get<Namespace>('Namespace', undefined, a.namespace) !== undefined;
    // The informer cache is asked first, then storage, live: the simulation's store is both.
    const detail = { namespace: a.namespace, found, lookups: found ? ['informer cache'] : ['informer cache', 'live GET'] };
    if (!found) return { error: notFound('namespaces', '', a.namespace), detail };
    return { note: `namespace "${a.namespace}" exists`, detail };
  },
};
