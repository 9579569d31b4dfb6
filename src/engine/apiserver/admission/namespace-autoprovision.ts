// NamespaceAutoProvision: a request in a namespace that does not exist creates the namespace first (off by default).
import type { Namespace } from '../../api/types';
import type { AdmissionPlugin } from './plugin';

/** NAMESPACE_NAME_LABEL is the label every namespace gets with its own name (v1.LabelMetadataName). */
const NAMESPACE_NAME_LABEL = 'kubernetes.io/metadata.name';

/**
 * namespaceAutoProvision creates the missing namespace of a namespaced create, as the plugin's loopback client
 * does: the Namespace as the API server stores it (the kubernetes.io/metadata.name label from defaulting, the
 * `kubernetes` finalizer and phase Active from the namespace strategy). The request itself is not changed.
 * See plugin/pkg/admission/namespace/autoprovision/admission.go (Admit).
 */
export const namespaceAutoProvision: AdmissionPlugin = {
  name: 'NamespaceAutoProvision',
  source: 'plugin/pkg/admission/namespace/autoprovision/admission.go',
  writes: true,
  handles: (a) => a.operation === 'CREATE',
  admit(a, ctx) {
    if (a.namespace === '' || (a.kind === 'Namespace' && a.group === '')) return { note: 'not in a namespace', detail: { namespace: a.namespace || null } };
    if (ctx.store.get('Namespace', undefined, a.namespace)) {
      return { note: `namespace "${a.namespace}" exists`, detail: { namespace: a.namespace, created: false } };
    }
    const ns: Namespace = {
      apiVersion: 'v1', kind: 'Namespace',
      metadata: { name: a.namespace, uid: ctx.rng.uuid(), creationTimestamp: ctx.clock.timestamp(), labels: { [NAMESPACE_NAME_LABEL]: a.namespace } },
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Active' },
    };
    const stored = ctx.store.put(ns);
    return {
      note: `created namespace "${a.namespace}"`,
      detail: { namespace: a.namespace, created: true, resourceVersion: stored.metadata?.resourceVersion ?? null },
    };
  },
};
