// The PV controller's reclaim of a Released volume: Retain keeps it, Delete finds the plugin that deletes it (an
// external provisioner's volume is left to that provisioner), Recycle finds a recycler, and an unknown policy fails it.
// See pkg/controller/volume/persistentvolume/pv_controller.go (reclaimVolume, deleteVolumeOperation, findDeletablePlugin,
// doDeleteVolume, removeDeletionProtectionFinalizer, recycleVolumeOperation, isVolumeUsed) and
// pv_controller_base.go (updateMigrationAnnotations) at k8s.io/kubernetes v1.36.3.
import { refOf, type PersistentVolume, type Pod } from '../api/types';
import { finalizeDelete } from '../apiserver/delete';
import type { EngineContext } from '../context';
import type { Steps } from '../runtime/step';
import { ANN_PROVISIONED_BY } from '../scheduler/plugins/volume/bind-writes';
import { claimVolumes } from '../scheduler/plugins/volume/claims';

/** PV_CONTROLLER_SOURCE is the source of the controller's events (pv_controller_base.go, NewController). */
const PV_CONTROLLER_SOURCE = 'persistentvolume-controller';
/** ANN_MIGRATED_TO is storagehelpers.AnnMigratedTo: the CSI driver an in-tree volume's operations went to. */
export const ANN_MIGRATED_TO = 'pv.kubernetes.io/migrated-to';
/** PV_IN_TREE_FINALIZER is storagehelpers.PVDeletionInTreeProtectionFinalizer, which doDeleteVolume removes. */
export const PV_IN_TREE_FINALIZER = 'kubernetes.io/pv-controller';
/** PV_EXTERNAL_FINALIZER is the external provisioner's finalizerPV (sig-storage-lib-external-provisioner controller.go). */
export const PV_EXTERNAL_FINALIZER = 'external-provisioner.volume.kubernetes.io/finalizer';

/**
 * MIGRATED_PLUGINS are the in-tree plugins whose CSI migration is on in 1.36 (csimigration/plugin_manager.go
 * IsMigrationEnabledForPlugin), with the CSI driver each is translated to (staging/src/k8s.io/csi-translation-lib/plugins,
 * v0.36.3). The PV controller stands down for their volumes: the CSI driver's external provisioner deletes them.
 */
const MIGRATED_PLUGINS: Readonly<Record<string, string>> = {
  'kubernetes.io/aws-ebs': 'ebs.csi.aws.com',
  'kubernetes.io/gce-pd': 'pd.csi.storage.gke.io',
  'kubernetes.io/azure-file': 'file.csi.azure.com',
  'kubernetes.io/azure-disk': 'disk.csi.azure.com',
  'kubernetes.io/cinder': 'cinder.csi.openstack.org',
  'kubernetes.io/vsphere-volume': 'csi.vsphere.vmware.com',
  'kubernetes.io/portworx-volume': 'pxd.portworx.com',
};

/** ReclaimMessage holds the texts of the reclaim events, as the controller and the volume plugins write them. */
export const ReclaimMessage = {
  /** reclaimVolume's default case. */
  unknownPolicy: 'Volume has unrecognized PersistentVolumeReclaimPolicy',
  /** recycleVolumeOperation when FindRecyclablePluginBySpec fails. */
  noRecycler: 'No recycler plugin found for the volume!',
  /** recycleVolumeOperation when isVolumeUsed finds live pods (their namespace/name, sorted, comma-joined). */
  usedByPods: (pods: readonly string[]): string => `Volume is used by pods: ${pods.join(',')}`,
  /** findDeletablePlugin's wrap of FindDeletablePluginBySpec's error. */
  noDeleter: (volume: string, why: string): string => `error getting deleter volume plugin for volume "${volume}": ${why}`,
  /** doDeleteVolume's wrap of NewDeleter's error. */
  noDeleterCreated: (volume: string, why: string): string => `failed to create deleter for volume "${volume}": ${why}`,
  /** pkg/volume/hostpath/host_path.go (hostPathDeleter.Delete). */
  hostPathOutsideTmp: (path: string): string => `host_path deleter only supports /tmp/.+ but received provided ${path}`,
} as const;

/** PluginError holds pkg/volume/plugins.go's errors (ErrNoPluginMatched, FindPluginByName, FindDeletablePlugin*). */
const PluginError = {
  noneMatched: 'no volume plugin matched',
  noneByName: (name: string): string => `no volume plugin matched name: ${name}`,
  notDeletable: 'no deletable volume plugin matched',
} as const;

/** ControllerPlugin is one of the plugins the PV controller probes (ProbeProvisionableRecyclableVolumePlugins). */
type ControllerPlugin = 'kubernetes.io/host-path' | 'kubernetes.io/nfs';

/**
 * pluginBySpec is FindPluginBySpec over the controller's plugins: host-path and nfs are all it has (the others a
 * kubelet has are neither provisionable, deletable nor recyclable; cmd/kube-controller-manager/app/plugins.go).
 */
function pluginBySpec(pv: PersistentVolume): ControllerPlugin | undefined {
  if (pv.spec?.hostPath) return 'kubernetes.io/host-path';
  if (pv.spec?.nfs) return 'kubernetes.io/nfs';
  return undefined;
}

/** Deleter is what findDeletablePlugin found: the in-tree host-path deleter, an external one, or an error. */
type Deleter = { kind: 'hostPath' } | { kind: 'external'; who: string } | { kind: 'error'; message: string };

/** findDeletablePlugin is findDeletablePlugin: the provisioner's plugin by name first, then by the volume's source. */
function findDeletablePlugin(pv: PersistentVolume): Deleter {
  const name = pv.metadata?.name ?? '';
  const provisioner = pv.metadata?.annotations?.[ANN_PROVISIONED_BY] ?? '';
  if (provisioner !== '') {
    if (provisioner === 'kubernetes.io/host-path') return { kind: 'hostPath' };
    if (provisioner === 'kubernetes.io/nfs') return { kind: 'error', message: PluginError.notDeletable };
    // "External provisioner is requested, do not report error".
    if (!provisioner.startsWith('kubernetes.io/')) return { kind: 'external', who: `the external provisioner ${provisioner}` };
    return { kind: 'error', message: PluginError.noneByName(provisioner) };
  }
  const migrated = pv.metadata?.annotations?.[ANN_MIGRATED_TO];
  if (migrated) return { kind: 'external', who: `the CSI driver ${migrated}` };
  if (pv.spec?.csi) return { kind: 'external', who: `the CSI driver ${pv.spec.csi.driver}'s external provisioner, which deletes only the volumes it provisioned (${ANN_PROVISIONED_BY})` };
  const plugin = pluginBySpec(pv);
  if (plugin === 'kubernetes.io/host-path') return { kind: 'hostPath' };
  return { kind: 'error', message: ReclaimMessage.noDeleter(name, plugin ? PluginError.notDeletable : PluginError.noneMatched) };
}

/** isPodTerminated is util.IsPodTerminated as isVolumeUsed reads it: Failed or Succeeded. */
function isPodTerminated(pod: Pod): boolean {
  return pod.status?.phase === 'Failed' || pod.status?.phase === 'Succeeded';
}

/** ReclaimWriter makes the controller's own writes (which its informers do not answer) and records its events. */
export interface ReclaimWriter {
  write(fn: () => void): void;
}

/** Reclaim carries out a Released volume's reclaim policy. */
export class Reclaim {
  constructor(private readonly ctx: EngineContext, private readonly writer: ReclaimWriter) {}

  /** reclaimVolume is reclaimVolume: the policy's operation, run at once (scheduleOperation's goroutine). */
  *reclaimVolume(pv: PersistentVolume): Steps<void> {
    const name = pv.metadata?.name ?? '';
    const ref = refOf(pv);
    yield* this.annotateMigration(pv);
    const migrated = this.ctx.store.get<PersistentVolume>('PersistentVolume', undefined, name)?.metadata?.annotations?.[ANN_MIGRATED_TO];
    if (migrated) {
      yield { phase: 'controllers.persistentvolume', object: ref, field: `metadata.annotations['${ANN_MIGRATED_TO}']`, result: `volume ${name} is migrated to the CSI driver ${migrated}: the PV controller stands down and leaves its reclaim to that driver's external provisioner`, detail: { migratedTo: migrated } };
      return;
    }
    const policy = pv.spec?.persistentVolumeReclaimPolicy ?? 'Retain';
    const field = 'spec.persistentVolumeReclaimPolicy';
    if (policy === 'Retain') {
      yield { phase: 'controllers.persistentvolume', object: ref, field, result: `reclaim policy Retain: nothing to do; the volume and its data are kept, and no new claim binds it while it names the old one`, detail: { reclaimPolicy: policy } };
      return;
    }
    if (policy === 'Delete') return yield* this.deleteVolumeOperation(pv);
    if (policy === 'Recycle') return yield* this.recycleVolumeOperation(pv);
    yield* this.fail(pv, 'VolumeUnknownReclaimPolicy', ReclaimMessage.unknownPolicy, field);
  }

  /**
   * annotateMigration is updateMigrationAnnotations for a volume (syncVolume's first step): the provisioner's in-tree
   * plugin is migrated, so the volume names the CSI driver it went to.
   */
  private *annotateMigration(pv: PersistentVolume): Steps<void> {
    const provisioner = pv.metadata?.annotations?.[ANN_PROVISIONED_BY];
    const driver = provisioner ? MIGRATED_PLUGINS[provisioner] : undefined;
    if (!driver || pv.metadata?.annotations?.[ANN_MIGRATED_TO] === driver) return;
    const name = pv.metadata?.name ?? '';
    this.writer.write(() => this.ctx.store.update<PersistentVolume>('PersistentVolume', undefined, name, (v) => {
      v.metadata = { ...v.metadata, annotations: { ...v.metadata?.annotations, [ANN_MIGRATED_TO]: driver } };
    }));
    yield { phase: 'controllers.persistentvolume', object: refOf(pv), field: `metadata.annotations['${ANN_PROVISIONED_BY}']`, result: `the in-tree plugin ${provisioner ?? ''} is migrated to CSI: annotated ${ANN_MIGRATED_TO}: ${driver}`, detail: { migratedTo: driver } };
  }

  /** deleteVolumeOperation is deleteVolumeOperation: find the deleter; the in-tree host-path one deletes here. */
  private *deleteVolumeOperation(pv: PersistentVolume): Steps<void> {
    const name = pv.metadata?.name ?? '';
    const ref = refOf(pv);
    const deleter = findDeletablePlugin(pv);
    if (deleter.kind === 'error') return yield* this.fail(pv, 'VolumeFailedDelete', deleter.message, 'spec');
    if (deleter.kind === 'external') {
      // "External deleter for volume requested, ignoring".
      yield { phase: 'controllers.persistentvolume', object: ref, field: 'spec.persistentVolumeReclaimPolicy', result: `reclaim policy Delete: the deleter is external (${deleter.who}); the PV controller leaves the volume to it`, detail: { reclaimPolicy: 'Delete', deleter: 'external' } };
      return;
    }
    // doDeleteVolume: the host-path plugin's NewDeleter and Delete.
    const path = pv.spec?.hostPath?.path;
    if (path === undefined) return yield* this.fail(pv, 'VolumeFailedDelete', ReclaimMessage.noDeleterCreated(name, 'spec.PersistentVolumeSource.HostPath is nil'), 'spec');
    if (!/\/tmp\/./.test(path)) return yield* this.fail(pv, 'VolumeFailedDelete', ReclaimMessage.hostPathOutsideTmp(path), 'spec.hostPath.path');
    yield { phase: 'controllers.persistentvolume', object: ref, field: 'spec.hostPath.path', result: `reclaim policy Delete: the host-path deleter removed ${path} (it deletes only under /tmp/); deleting the PersistentVolume`, detail: { reclaimPolicy: 'Delete', deleter: 'kubernetes.io/host-path', path } };
    yield* this.removeFinalizer(name, PV_IN_TREE_FINALIZER);
    yield* deletePersistentVolume(this.ctx, name, ref);
  }

  /**
   * recycleVolumeOperation is recycleVolumeOperation: a volume live pods still use is not recycled (a Normal event);
   * one no recycler plugin supports fails. The host-path and NFS recyclers' scrub pod is not simulated.
   */
  private *recycleVolumeOperation(pv: PersistentVolume): Steps<void> {
    const ref = refOf(pv);
    const claim = pv.spec?.claimRef;
    const pods = this.ctx.store.list<Pod>('Pod', claim?.namespace)
      .filter((p) => !isPodTerminated(p) && claimVolumes(p).some((cv) => cv.claimName === claim?.name))
      .map((p) => `${p.metadata?.namespace ?? ''}/${p.metadata?.name ?? ''}`).sort();
    if (pods.length > 0) {
      const message = ReclaimMessage.usedByPods(pods);
      this.ctx.recorder.event({ type: 'Normal', reason: 'VolumeFailedRecycle', object: ref, source: PV_CONTROLLER_SOURCE, message });
      yield { phase: 'controllers.persistentvolume', object: ref, field: 'spec.claimRef', result: `reclaim policy Recycle: not recycled while pods use its claim: ${message}`, detail: { reclaimPolicy: 'Recycle', pods }, outcome: 'waiting' };
      return;
    }
    const plugin = pluginBySpec(pv);
    if (!plugin) return yield* this.fail(pv, 'VolumeFailedRecycle', ReclaimMessage.noRecycler, 'spec.persistentVolumeReclaimPolicy');
    yield {
      phase: 'controllers.persistentvolume', object: ref, field: 'spec.persistentVolumeReclaimPolicy',
      result: `reclaim policy Recycle (deprecated): the ${plugin} recycler would scrub the volume with a recycler-for-${pv.metadata?.name ?? ''} pod and make it Available again; that pod is not simulated, so the volume stays Released`,
      detail: { reclaimPolicy: 'Recycle', plugin, simulated: false }, outcome: 'waiting',
    };
  }

  /** fail is updateVolumePhaseWithEvent(Failed): the phase, its message and the Warning event, only when it changes. */
  private *fail(pv: PersistentVolume, reason: string, message: string, field: string): Steps<void> {
    const name = pv.metadata?.name ?? '';
    const current = this.ctx.store.get<PersistentVolume>('PersistentVolume', undefined, name);
    if (!current || current.status?.phase === 'Failed') return;
    this.writer.write(() => this.ctx.store.update<PersistentVolume>('PersistentVolume', undefined, name, (v) => {
      v.status = { ...v.status, phase: 'Failed', message, lastPhaseTransitionTime: this.ctx.clock.timestamp() };
    }));
    this.ctx.recorder.event({ type: 'Warning', reason, object: refOf(pv), source: PV_CONTROLLER_SOURCE, message });
    yield { phase: 'controllers.persistentvolume', object: refOf(pv), field, result: `PersistentVolume ${name} is Failed: ${reason}: ${message}`, detail: { phase: 'Failed', reason, message }, outcome: 'failed' };
  }

  /** removeFinalizer takes one finalizer off the volume, as an update (removeDeletionProtectionFinalizer). */
  private *removeFinalizer(name: string, finalizer: string): Steps<void> {
    const pv = this.ctx.store.get<PersistentVolume>('PersistentVolume', undefined, name);
    if (!(pv?.metadata?.finalizers ?? []).includes(finalizer)) return;
    this.writer.write(() => this.ctx.store.update<PersistentVolume>('PersistentVolume', undefined, name, (v) => {
      v.metadata = { ...v.metadata, finalizers: (v.metadata?.finalizers ?? []).filter((f) => f !== finalizer) };
    }));
    yield { phase: 'controllers.persistentvolume', object: `PersistentVolume/${name}`, field: 'metadata.finalizers', result: `removed the ${finalizer} finalizer`, detail: { finalizer } };
  }
}

/**
 * deletePersistentVolume is the DELETE of a volume: gone at once, or (with finalizers left, such as
 * kubernetes.io/pv-protection) kept with a deletionTimestamp until they are removed. It is the storage's side of the
 * request (apiserver.finalize); the controllers' authentication and authorization of it are not traced.
 */
export function* deletePersistentVolume(ctx: EngineContext, name: string, ref: string): Steps<void> {
  yield* finalizeDelete(ctx, 'PersistentVolume', undefined, name, ref, 'Background');
}
