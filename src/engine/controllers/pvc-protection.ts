// The PVC protection controller: a claim being deleted keeps its kubernetes.io/pvc-protection finalizer (put there by
// the StorageObjectInUseProtection admission plugin) while a scheduled pod of its namespace mounts it, and loses it
// (an update as the pvc-protection-controller service account) once none does, so the API server can remove it. See
// pkg/controller/volume/pvcprotection/pvc_protection_controller.go (processPVC, isBeingUsedWith, podUsesPVCForDeletion,
// removeFinalizer, podAddedDeletedUpdated) at k8s.io/kubernetes v1.36.3. The PersistentVolumeClaimUnusedSinceTime
// condition is alpha and off in 1.36.
import type { KubeObject, Pod } from '../api/types';
import type { EngineContext } from '../context';
import type { Steps } from '../runtime/step';
import type { ApiServer } from '../apiserver/server';
import { ControllerClient } from './client';

/** PVC_PROTECTION_FINALIZER is volumeutil.PVCProtectionFinalizer. */
export const PVC_PROTECTION_FINALIZER = 'kubernetes.io/pvc-protection';
/** PVC_PROTECTION_CONTROLLER is the controller's service account in kube-system. */
export const PVC_PROTECTION_CONTROLLER = 'pvc-protection-controller';

/** isDeletionCandidate is protectionutil.IsDeletionCandidate: being deleted and still holding the finalizer. */
export function isDeletionCandidate(claim: KubeObject): boolean {
  return !!claim.metadata?.deletionTimestamp && (claim.metadata.finalizers ?? []).includes(PVC_PROTECTION_FINALIZER);
}

/** claimNamesOf are the claims a pod's volumes name (persistentVolumeClaim sources). */
export function claimNamesOf(pod: Pod): string[] {
  return (pod.spec?.volumes ?? []).flatMap((v) => (v.persistentVolumeClaim?.claimName ? [v.persistentVolumeClaim.claimName] : []));
}

/**
 * podUsesClaim is podUsesPVCForDeletion for a persistentVolumeClaim volume: only a scheduled pod counts (the kubelet
 * starts no pod on a claim being deleted), whatever its phase.
 */
function podUsesClaim(pod: Pod, claim: string): boolean {
  return !!pod.spec?.nodeName && claimNamesOf(pod).includes(claim);
}

/** syncClaim is processPVC: a deletion candidate no pod uses loses the finalizer. */
export function* syncProtectedClaim(ctx: EngineContext, api: ApiServer, namespace: string, name: string): Steps<void> {
  const claim = ctx.store.get<KubeObject>('PersistentVolumeClaim', namespace, name);
  if (!claim || !isDeletionCandidate(claim)) return;
  const ref = `PersistentVolumeClaim/${namespace}/${name}`;
  const users = ctx.store.list<Pod>('Pod', namespace).filter((p) => podUsesClaim(p, name)).map((p) => p.metadata?.name ?? '');
  if (users.length > 0) {
    yield { phase: 'controllers.persistentvolume', object: ref, field: 'metadata.finalizers', result: `claim ${name} is being deleted but pod ${users.join(', ')} uses it: it keeps ${PVC_PROTECTION_FINALIZER}`, detail: { pods: users }, outcome: 'waiting' };
    return;
  }
  const finalizers = (claim.metadata?.finalizers ?? []).filter((f) => f !== PVC_PROTECTION_FINALIZER);
  const next: KubeObject = { ...claim, metadata: { ...claim.metadata, finalizers } };
  yield { phase: 'controllers.persistentvolume', object: ref, field: 'metadata.finalizers', result: `claim ${name} is being deleted and no pod uses it: removing ${PVC_PROTECTION_FINALIZER}`, detail: { finalizer: PVC_PROTECTION_FINALIZER } };
  yield* new ControllerClient(api, PVC_PROTECTION_CONTROLLER, 'controllers.persistentvolume').update(next, ref);
}
