// The PV protection controller: a volume being deleted keeps its kubernetes.io/pv-protection finalizer (put there by the
// StorageObjectInUseProtection admission plugin) while it is Bound, and loses it once it is not, so it can go. See
// pkg/controller/volume/pvprotection/pv_protection_controller.go (processPV, isBeingUsed, removeFinalizer) at
// k8s.io/kubernetes v1.36.3. Adding the finalizer to a volume that lacks it (NeedToAddFinalizer) is not simulated: a
// volume read from a cluster file keeps the finalizers it was written with. Its update goes to the store as the PV
// controller's writes here do, not through the API server as the pv-protection-controller service account.
import type { PersistentVolume } from '../api/types';
import type { EngineContext } from '../context';
import type { Steps } from '../runtime/step';
import { deletePersistentVolume } from './pv-reclaim';

/** PV_PROTECTION_FINALIZER is volumeutil.PVProtectionFinalizer. */
export const PV_PROTECTION_FINALIZER = 'kubernetes.io/pv-protection';

/** isVolumeDeletionCandidate is protectionutil.IsDeletionCandidate for a volume: being deleted, still protected. */
export function isVolumeDeletionCandidate(pv: PersistentVolume): boolean {
  return !!pv.metadata?.deletionTimestamp && (pv.metadata.finalizers ?? []).includes(PV_PROTECTION_FINALIZER);
}

/**
 * syncProtectedVolume is processPV for a deletion candidate: a Bound volume is in use and keeps the finalizer; any other
 * loses it, and with no finalizer left the API server removes it.
 */
export function* syncProtectedVolume(ctx: EngineContext, name: string): Steps<void> {
  const pv = ctx.store.get<PersistentVolume>('PersistentVolume', undefined, name);
  if (!pv || !isVolumeDeletionCandidate(pv)) return;
  const ref = `PersistentVolume/${name}`;
  if (pv.status?.phase === 'Bound') {
    yield { phase: 'controllers.persistentvolume', object: ref, field: 'metadata.finalizers', result: `volume ${name} is being deleted but is Bound: it keeps ${PV_PROTECTION_FINALIZER}`, detail: { phase: 'Bound' }, outcome: 'waiting' };
    return;
  }
  ctx.store.update<PersistentVolume>('PersistentVolume', undefined, name, (v) => {
    v.metadata = { ...v.metadata, finalizers: (v.metadata?.finalizers ?? []).filter((f) => f !== PV_PROTECTION_FINALIZER) };
  });
  yield { phase: 'controllers.persistentvolume', object: ref, field: 'metadata.finalizers', result: `volume ${name} is being deleted and is ${pv.status?.phase ?? 'not Bound'}, not in use: removing ${PV_PROTECTION_FINALIZER}`, detail: { finalizer: PV_PROTECTION_FINALIZER } };
  const left = ctx.store.get<PersistentVolume>('PersistentVolume', undefined, name)?.metadata?.finalizers ?? [];
  if (left.length === 0) yield* deletePersistentVolume(ctx, name, ref);
}
