// The external provisioner's half of the Delete reclaim policy: a Released volume it provisioned (its
// pv.kubernetes.io/provisioned-by annotation names a provisioner outside kubernetes.io/, which the PV controller leaves
// alone) is deleted from the storage (CSI DeleteVolume) and then from the API, and its finalizer is removed. The
// simulation takes the provisioner to be running and its DeleteVolume to succeed, as its provisioning of
// WaitForFirstConsumer claims does. See sig-storage-lib-external-provisioner controller.go (shouldDelete,
// deleteVolumeOperation) as kubernetes-csi/external-provisioner runs it.
import { refOf, type PersistentVolume } from '../api/types';
import type { EngineContext } from '../context';
import type { Steps } from '../runtime/step';
import { ANN_PROVISIONED_BY } from '../scheduler/plugins/volume/bind-writes';
import { ANN_MIGRATED_TO, deletePersistentVolume, PV_EXTERNAL_FINALIZER } from './pv-reclaim';

/** EXTERNAL_PROVISIONER names the component in the trace, as the scheduler's provisioning writes do. */
const EXTERNAL_PROVISIONER = 'external-provisioner';

/** externalDeleterOf names the provisioner that deletes a volume, when it is an external one. */
export function externalDeleterOf(pv: PersistentVolume): string | undefined {
  const provisioner = pv.metadata?.annotations?.[ANN_PROVISIONED_BY] ?? '';
  if (provisioner === '') return undefined;
  if (!provisioner.startsWith('kubernetes.io/')) return provisioner;
  // A migrated in-tree plugin's volumes go to the CSI driver's provisioner (its AdditionalProvisionerNames).
  return pv.metadata?.annotations?.[ANN_MIGRATED_TO];
}

/** shouldDelete is shouldDelete: Released, reclaim policy Delete, provisioned by an external provisioner. */
export function shouldDeleteExternally(pv: PersistentVolume): boolean {
  return pv.status?.phase === 'Released' && pv.spec?.persistentVolumeReclaimPolicy === 'Delete' && !pv.metadata?.deletionTimestamp && externalDeleterOf(pv) !== undefined;
}

/** deleteExternally is deleteVolumeOperation: DeleteVolume, the PV's DELETE, then its own finalizer off. */
export function* deleteExternally(ctx: EngineContext, name: string): Steps<void> {
  const pv = ctx.store.get<PersistentVolume>('PersistentVolume', undefined, name);
  if (!pv || !shouldDeleteExternally(pv)) return;
  const ref = refOf(pv);
  const provisioner = externalDeleterOf(pv) ?? '';
  const handle = pv.spec?.csi?.volumeHandle;
  yield {
    phase: 'controllers.persistentvolume', object: ref, field: `metadata.annotations['${ANN_PROVISIONED_BY}']`,
    result: `${EXTERNAL_PROVISIONER} (${provisioner}): the volume is Released with reclaim policy Delete: DeleteVolume${handle ? ` ${handle}` : ''} succeeded; deleting the PersistentVolume`,
    detail: { by: EXTERNAL_PROVISIONER, provisioner, ...(handle ? { volumeHandle: handle } : {}) },
  };
  yield* deletePersistentVolume(ctx, name, ref);
  const left = ctx.store.get<PersistentVolume>('PersistentVolume', undefined, name);
  if (!left || !(left.metadata?.finalizers ?? []).includes(PV_EXTERNAL_FINALIZER)) return;
  ctx.store.update<PersistentVolume>('PersistentVolume', undefined, name, (v) => {
    v.metadata = { ...v.metadata, finalizers: (v.metadata?.finalizers ?? []).filter((f) => f !== PV_EXTERNAL_FINALIZER) };
  });
  yield { phase: 'controllers.persistentvolume', object: ref, field: 'metadata.finalizers', result: `${EXTERNAL_PROVISIONER} (${provisioner}): removed the ${PV_EXTERNAL_FINALIZER} finalizer`, detail: { finalizer: PV_EXTERNAL_FINALIZER } };
  if ((ctx.store.get<PersistentVolume>('PersistentVolume', undefined, name)?.metadata?.finalizers ?? []).length === 0) yield* deletePersistentVolume(ctx, name, ref);
}
