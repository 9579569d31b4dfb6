// The finalizers the API server puts on an object deleted with a propagation policy, for the garbage collector to act
// on. The API server's own rule, shared with the collector (which reads them): staging/src/k8s.io/apiserver/pkg/
// registry/generic/registry/store.go (deletionFinalizersForGarbageCollection), v1.36.3.
import type { KubeObject } from '../api/types';

/** The garbage collection finalizers (metav1.FinalizerOrphanDependents, FinalizerDeleteDependents). */
export const FINALIZER_ORPHAN = 'orphan';
export const FINALIZER_FOREGROUND = 'foregroundDeletion';

/** PropagationPolicy is metav1.DeletionPropagation. */
export type PropagationPolicy = 'Background' | 'Foreground' | 'Orphan';

/**
 * gcFinalizers is deletionFinalizersForGarbageCollection: the object's finalizers without the two GC ones, then
 * `orphan` for Orphan and `foregroundDeletion` for Foreground; undefined when nothing changes. Pods are left out
 * here: their graceful deletion is the kubelet's.
 */
export function gcFinalizers(obj: KubeObject, policy: PropagationPolicy | undefined): string[] | undefined {
  if (obj.kind === 'Pod' || !policy) return undefined;
  const current = obj.metadata?.finalizers ?? [];
  const next = current.filter((f) => f !== FINALIZER_ORPHAN && f !== FINALIZER_FOREGROUND);
  if (policy === 'Orphan') next.push(FINALIZER_ORPHAN);
  if (policy === 'Foreground') next.push(FINALIZER_FOREGROUND);
  const same = next.length === current.length && next.every((f) => current.includes(f));
  return same ? undefined : next;
}
