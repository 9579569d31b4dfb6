// A component's write of an object's status, as the status subresource takes it: on a live cluster (whose clients
// name their managers, EngineContext.recordManagers) the write is recorded in metadata.managedFields under the
// component's manager with `subresource: status`, as kube-apiserver's field manager records an UpdateStatus: the
// kubelet's pod status as `kubelet`, a controller's as `kube-controller-manager`, the scheduler's as `kube-scheduler`.
// See staging/src/k8s.io/apiserver/pkg/endpoints/handlers/update.go (fieldManager.UpdateNoErrors) and the status
// strategies' ResetFieldsFor (status and metadata only), v0.36.3; a run keeps its objects without managed fields.
import { deepClone, type KubeObject, type Meta, type Mutable } from '../api/types';
import type { EngineContext } from '../context';
import { updateManagedFields } from './fieldmanager/manager';

/** STATUS_MANAGERS are the managers the components' User-Agents name (managerOrUserAgent: the program's name). */
export const STATUS_MANAGERS = { kubelet: 'kubelet', controllers: 'kube-controller-manager', scheduler: 'kube-scheduler' } as const;

type Ctx = Pick<EngineContext, 'store' | 'clock' | 'recordManagers'>;

/** recorded is `next` with the status write recorded in its managedFields, when the cluster records managers. */
function recorded<T extends Meta>(ctx: Ctx, live: T, next: T, manager: string): Meta['metadata'] {
  const scope = { apiVersion: String(live.apiVersion ?? ''), kind: String(live.kind ?? ''), subresource: 'status', now: ctx.clock.timestamp() };
  return updateManagedFields(live as unknown as KubeObject, next as unknown as KubeObject, manager, scope).metadata;
}

/**
 * updateStatus changes a copy of the stored object and stores it, recorded under `manager`. The copy is what a status
 * write may change: its own status and metadata fields; the rest (the spec) is the stored, frozen object's own, so a
 * write costs the status, not the object.
 */
export function updateStatus<T extends Meta = KubeObject>(ctx: Ctx, manager: string, kind: string, namespace: string | undefined, name: string, change: (obj: Mutable<T>) => void): T | undefined {
  return ctx.store.replace<T>(kind, namespace, name, (live) => {
    const { metadata, status } = live as { metadata?: object; status?: unknown };
    const o = { ...live, ...(metadata ? { metadata: { ...metadata } } : {}), ...(status !== undefined ? { status: deepClone(status) } : {}) } as Mutable<T>;
    change(o);
    if (ctx.recordManagers) o.metadata = recorded(ctx, live, o as T, manager) as Mutable<T>['metadata'];
    return o as Partial<T>;
  });
}

/** replaceStatus stores the object with its status replaced (nothing else copied), recorded under `manager`. */
export function replaceStatus<T extends Meta = KubeObject>(ctx: Ctx, manager: string, kind: string, namespace: string | undefined, name: string, status: (current: T) => unknown): T | undefined {
  return ctx.store.replace<T>(kind, namespace, name, (current) => {
    const fields = { status: status(current) } as unknown as Partial<T>;
    if (!ctx.recordManagers) return fields;
    return { ...fields, metadata: recorded(ctx, current, { ...current, ...fields }, manager) } as Partial<T>;
  });
}
