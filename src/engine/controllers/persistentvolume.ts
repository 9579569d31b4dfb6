// The PersistentVolume controller (kube-controller-manager): binds Immediate claims to the best available PV, leaves
// WaitForFirstConsumer claims to the scheduler, makes new PVs Available, explains a claim that cannot bind, and
// releases a volume whose claim is gone (its reclaim policy carried out in pv-reclaim.ts).
// See pkg/controller/volume/persistentvolume/pv_controller.go (syncClaim, syncUnboundClaim, bind, syncVolume,
// emitEventForUnboundDelayBindingClaim, provisionClaimOperation) and index.go (findByClaim).
import type { StorageClass } from 'kubernetes-types/storage/v1';
import { labelSelectorAsSelector, selectorMatches, SelectorError, type Selector } from '../api/labels';
import { deepClone, refOf, type KubeObject, type PersistentVolume, type PersistentVolumeClaim, type Pod } from '../api/types';
import type { WatchEventType } from '../cluster/store';
import type { EngineContext } from '../context';
import type { Steps } from '../runtime/step';
import { ANN_BETA_STORAGE_PROVISIONER, ANN_STORAGE_PROVISIONER, completeBinding } from '../scheduler/plugins/volume/bind-writes';
import { Ann, bindingModeOf, BindingMode, claimClass, claimVolumes, storageCapacity, storageRequest, volumeClass } from '../scheduler/plugins/volume/claims';
import { bindVolumeToClaim, checkAccessModes, isVolumeBoundToClaim, volumeModeMismatch } from '../scheduler/plugins/volume/pv-match';
import { Reclaim } from './pv-reclaim';

/** PV_CONTROLLER is the source of the controller's events. */
export const PV_CONTROLLER = 'persistentvolume-controller';
/** PV_RESYNC_MS is --pvclaimbinder-sync-period (15 s): every claim and volume is synced again that often. */
export const PV_RESYNC_MS = 15_000;

/** Message holds the controller's event texts. */
export const Message = {
  noStorageClass: 'no persistent volumes available for this claim and no storage class is set',
  waitForFirstConsumer: 'waiting for first consumer to be created before binding',
  waitForPod: (pods: string[]): string => (pods.length > 1 ? `waiting for pods ${pods.join(',')} to be scheduled` : `waiting for pod ${pods[0]} to be scheduled`),
  externalProvisioning: (provisioner: string): string =>
    `Waiting for a volume to be created either by the external provisioner '${provisioner}' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.`,
  volumeMismatch: (volume: string, why: string): string => `Cannot bind to requested volume "${volume}": ${why}`,
} as const;

const obj = (o: unknown): KubeObject => o as KubeObject;

/** pendingPodsUsing lists the not yet scheduled pods that use a claim (findNonScheduledPodsByPVC), by name. */
function pendingPodsUsing(ctx: EngineContext, pvc: PersistentVolumeClaim): string[] {
  const ns = pvc.metadata?.namespace;
  return ctx.store.list<Pod>('Pod', ns)
    .filter((p) => !p.spec?.nodeName && claimVolumes(p).some((cv) => cv.claimName === pvc.metadata?.name))
    .map((p) => p.metadata?.name ?? '');
}

/**
 * findBestMatch is findByClaim: the PV pre-bound to the claim; otherwise (not for WaitForFirstConsumer claims, which the
 * scheduler binds) the smallest Available PV of the claim's class that is big enough, matches its selector and volume
 * mode, searching the PVs whose access-mode set holds the claim's modes, fewest modes first.
 */
export function findBestMatch(pvc: PersistentVolumeClaim, volumes: readonly PersistentVolume[], delayBinding: boolean): PersistentVolume | undefined {
  const prebound = volumes.find((pv) => isVolumeBoundToClaim(pv, pvc) && !pv.metadata?.deletionTimestamp && !volumeModeMismatch(pvc, pv) && storageCapacity(pv).cmp(storageRequest(pvc)) >= 0);
  if (prebound) return prebound;
  if (delayBinding) return undefined;
  let selector: Selector | null = null;
  if (pvc.spec?.selector) {
    try {
      selector = labelSelectorAsSelector(pvc.spec.selector);
    } catch (err) {
      if (err instanceof SelectorError) return undefined;
      throw err;
    }
  }
  const fits = volumes.filter((pv) => !pv.spec?.claimRef && pv.status?.phase === 'Available' && !pv.metadata?.deletionTimestamp
    && storageCapacity(pv).cmp(storageRequest(pvc)) >= 0 && !volumeModeMismatch(pvc, pv)
    && (pvc.spec?.volumeAttributesClassName ?? '') === (pv.spec?.volumeAttributesClassName ?? '')
    && (selector === null || selectorMatches(selector, pv.metadata?.labels)) && volumeClass(pv) === claimClass(pvc) && checkAccessModes(pvc, pv));
  const modeSets = [...new Set(fits.map((pv) => [...new Set(pv.spec?.accessModes ?? [])].sort().join(',')))].sort((a, b) => a.split(',').length - b.split(',').length);
  for (const set of modeSets) {
    const group = fits.filter((pv) => [...new Set(pv.spec?.accessModes ?? [])].sort().join(',') === set);
    return group.reduce((best, pv) => (storageCapacity(pv).cmp(storageCapacity(best)) < 0 ? pv : best));
  }
  return undefined;
}

/** checkVolumeSatisfyClaim is the check of a PV a claim names in spec.volumeName; the reason it cannot bind, if any. */
export function checkVolumeSatisfyClaim(pv: PersistentVolume, pvc: PersistentVolumeClaim): string | undefined {
  if (pv.metadata?.deletionTimestamp) return `the volume is marked for deletion "${pv.metadata.name ?? ''}"`;
  if (storageCapacity(pv).cmp(storageRequest(pvc)) < 0) return 'requested PV is too small';
  if (volumeClass(pv) !== claimClass(pvc)) return 'storageClassName does not match';
  if (volumeModeMismatch(pvc, pv)) return 'incompatible volumeMode';
  if (!checkAccessModes(pvc, pv)) return 'incompatible accessMode';
  return undefined;
}

/** PersistentVolumeController reacts to claims and volumes, as the controller's informers and its periodic resync do. */
export class PersistentVolumeController {
  private resyncQueued = false;
  private writing = false;
  private readonly reclaim: Reclaim;

  constructor(private readonly ctx: EngineContext) {
    this.reclaim = new Reclaim(ctx, { write: (fn) => this.write(fn) });
    // The controller synced the cluster's claims and volumes before the run began: their state is brought up to date
    // at once (new PVs Available, Immediate claims bound), with no events, which belong to that past.
    ctx.schedule(0, `${PV_CONTROLLER}: initial sync`, () => this.initialSync());
  }

  /** onChange is the informers' handler: a claim or volume that changed is synced; the controller's own writes are not. */
  onChange(type: WatchEventType, o: KubeObject): void {
    if (!this.writing && type === 'DELETED' && o.kind === 'PersistentVolumeClaim') {
      // deleteClaim: the volume bound to the claim is synced at once (it is Released).
      for (const pv of this.ctx.store.list<PersistentVolume>('PersistentVolume').filter((v) => v.spec?.claimRef?.uid === o.metadata?.uid)) {
        this.ctx.schedule(0, `${PV_CONTROLLER}: sync volume ${refOf(pv)}`, () => this.syncVolume(pv.metadata?.name ?? ''));
      }
    }
    if (this.writing || type === 'DELETED') return;
    if (o.kind === 'PersistentVolumeClaim') {
      const pvc = o as unknown as PersistentVolumeClaim;
      // The pods waiting for the claim are those the controller sees when it gets to the claim: right after it was made.
      const pods = pendingPodsUsing(this.ctx, pvc);
      this.ctx.schedule(0, `${PV_CONTROLLER}: sync claim ${refOf(o)}`, () => this.syncClaim(pvc.metadata?.namespace, pvc.metadata?.name ?? '', pods, true));
    } else if (o.kind === 'PersistentVolume') {
      this.ctx.schedule(0, `${PV_CONTROLLER}: sync volume ${refOf(o)}`, () => this.syncVolume(o.metadata?.name ?? ''));
      // syncVolume leaves a volume no claim names alone: a claim made before it is bound at the next periodic resync.
      if (!(o as unknown as PersistentVolume).spec?.claimRef && this.unboundClaims().length > 0) this.queueResync();
    } else if (o.kind === 'Pod' && type === 'ADDED') {
      // A new pod using a claim that waits makes the periodic resync matter again.
      const pod = o as unknown as Pod;
      for (const cv of claimVolumes(pod)) {
        const pvc = this.ctx.store.get<PersistentVolumeClaim>('PersistentVolumeClaim', pod.metadata?.namespace, cv.claimName);
        if (pvc && pvc.metadata?.annotations?.[Ann.BindCompleted] === undefined) this.scheduleResync(pvc);
      }
    }
  }

  private *initialSync(): Steps<void> {
    for (const pv of this.ctx.store.list<PersistentVolume>('PersistentVolume')) yield* this.syncVolume(pv.metadata?.name ?? '');
    for (const pvc of this.ctx.store.list<PersistentVolumeClaim>('PersistentVolumeClaim')) {
      yield* this.syncClaim(pvc.metadata?.namespace, pvc.metadata?.name ?? '', [], false);
    }
  }

  /** syncVolume makes an unclaimed PV (or one reserved for a claim not bound yet) Available. */
  private *syncVolume(name: string): Steps<void> {
    const pv = this.ctx.store.get<PersistentVolume>('PersistentVolume', undefined, name);
    if (!pv || pv.status?.phase === 'Available') return;
    // A volume being deleted is still released when its claim goes (the PV protection controller then lets it go).
    if (pv.spec?.claimRef && pv.spec.claimRef.uid) return yield* this.syncBoundVolume(pv);
    if (pv.metadata?.deletionTimestamp) return;
    this.write(() => this.ctx.store.update<PersistentVolume>('PersistentVolume', undefined, name, (v) => { v.status = { ...v.status, phase: 'Available', lastPhaseTransitionTime: this.ctx.clock.timestamp() }; }));
    yield {
      phase: 'controllers.persistentvolume', object: refOf(pv), field: pv.spec?.claimRef ? 'spec.claimRef' : 'spec',
      result: `PersistentVolume ${name} is Available${pv.spec?.claimRef ? ` (reserved for claim ${pv.spec.claimRef.namespace ?? ''}/${pv.spec.claimRef.name ?? ''})` : ''}`,
      detail: { phase: 'Available' },
    };
  }

  /**
   * syncBoundVolume is syncVolume for a volume bound to a claim: while the claim (by name, with the same uid) exists
   * nothing changes; once it is gone the volume is Released and its reclaim policy is carried out (pv-reclaim.ts).
   * See pkg/controller/volume/persistentvolume/pv_controller.go (syncVolume, reclaimVolume) at v1.36.3. The real
   * controller retries a Failed reclaim at every sync; a retry changes nothing the simulation shows (the event is
   * recorded once, when the phase changes), so it is not repeated, and a volume already Released or Failed when the run
   * begins is left as it is.
   */
  private *syncBoundVolume(pv: PersistentVolume): Steps<void> {
    const ref = pv.spec?.claimRef ?? {};
    const claim = this.ctx.store.get<PersistentVolumeClaim>('PersistentVolumeClaim', ref.namespace, ref.name ?? '');
    if (claim && claim.metadata?.uid === ref.uid) return;
    if (pv.status?.phase === 'Released' || pv.status?.phase === 'Failed') return;
    const name = pv.metadata?.name ?? '';
    this.write(() => this.ctx.store.update<PersistentVolume>('PersistentVolume', undefined, name, (v) => { v.status = { ...v.status, phase: 'Released', lastPhaseTransitionTime: this.ctx.clock.timestamp() }; }));
    const policy = pv.spec?.persistentVolumeReclaimPolicy ?? 'Retain';
    yield {
      phase: 'controllers.persistentvolume', object: refOf(pv), field: 'spec.claimRef',
      result: `PersistentVolume ${name} is Released: its claim ${ref.namespace ?? ''}/${ref.name ?? ''} is gone (reclaim policy ${policy})`,
      detail: { phase: 'Released', reclaimPolicy: policy },
    };
    const released = this.ctx.store.get<PersistentVolume>('PersistentVolume', undefined, name);
    if (released) yield* this.reclaim.reclaimVolume(released);
  }

  /** syncClaim is syncClaim: a bound claim is left alone; an unbound one is bound, or told why it waits. */
  private *syncClaim(namespace: string | undefined, name: string, pendingPods: string[], live: boolean): Steps<void> {
    const pvc = this.ctx.store.get<PersistentVolumeClaim>('PersistentVolumeClaim', namespace, name);
    if (!pvc || pvc.metadata?.deletionTimestamp) return;
    if (pvc.metadata?.annotations?.[Ann.BindCompleted] !== undefined) return;
    const ref = refOf(pvc);
    const volumes = this.ctx.store.list<PersistentVolume>('PersistentVolume');
    const className = claimClass(pvc);
    const sc = className ? this.ctx.store.get<StorageClass>('StorageClass', undefined, className) : undefined;
    const delayBinding = sc !== undefined && bindingModeOf(sc) === BindingMode.WaitForFirstConsumer;
    const event = (type: 'Normal' | 'Warning', reason: string, message: string): void => {
      if (live) this.ctx.recorder.event({ type, reason, object: ref, source: PV_CONTROLLER, message });
    };
    const requested = pvc.spec?.volumeName ?? '';
    if (requested !== '') {
      const pv = volumes.find((v) => v.metadata?.name === requested);
      const why = !pv ? `volume "${requested}" not found` : pv.spec?.claimRef && !isVolumeBoundToClaim(pv, pvc) ? `volume "${requested}" is bound to another claim` : checkVolumeSatisfyClaim(pv, pvc);
      if (pv && why === undefined) return yield* this.bind(pv, pvc);
      if (pv && !pv.spec?.claimRef && why) event('Warning', 'VolumeMismatch', Message.volumeMismatch(requested, why));
      yield* this.markPending(pvc, `claim names volume ${requested}: ${why ?? ''}`, 'spec.volumeName');
      this.scheduleResync(pvc);
      return;
    }
    const pv = findBestMatch(pvc, volumes, delayBinding);
    if (pv) return yield* this.bind(pv, pvc);
    let why: string;
    if (delayBinding && pvc.metadata?.annotations?.[Ann.SelectedNode] === undefined) {
      const pods = live ? pendingPods : [];
      event('Normal', pods.length ? 'WaitForPodScheduled' : 'WaitForFirstConsumer', pods.length ? Message.waitForPod(pods) : Message.waitForFirstConsumer);
      why = `StorageClass ${className} binds on first consumer: the scheduler picks the volume`;
    } else if (className !== '') {
      why = this.provision(pvc, sc, className, event);
    } else {
      event('Normal', 'FailedBinding', Message.noStorageClass);
      why = Message.noStorageClass;
    }
    yield* this.markPending(pvc, why, className ? 'spec.storageClassName' : 'spec');
    this.scheduleResync(pvc);
  }

  /**
   * provision is provisionClaimOperation without a provisioner to answer it: a missing class or an in-tree name with no
   * plugin fails (ProvisioningFailed); any other provisioner is external, so the claim is annotated with it and waits.
   */
  private provision(pvc: PersistentVolumeClaim, sc: StorageClass | undefined, className: string, event: (type: 'Normal' | 'Warning', reason: string, message: string) => void): string {
    // findProvisionablePlugin: the class lister's NotFound, or the plugin manager's for an in-tree name it has no plugin for.
    const failure = !sc ? `storageclass.storage.k8s.io "${className}" not found`
      : sc.provisioner.startsWith('kubernetes.io/') && sc.provisioner !== 'kubernetes.io/host-path' ? `no volume plugin matched name: ${sc.provisioner}` : undefined;
    if (failure || !sc) {
      event('Warning', 'ProvisioningFailed', failure ?? '');
      return failure ?? '';
    }
    const annotations = pvc.metadata?.annotations ?? {};
    if (annotations[ANN_STORAGE_PROVISIONER] !== sc.provisioner) {
      this.write(() => this.ctx.store.update<PersistentVolumeClaim>('PersistentVolumeClaim', pvc.metadata?.namespace, pvc.metadata?.name ?? '', (c) => {
        c.metadata = { ...c.metadata, annotations: { ...c.metadata?.annotations, [ANN_BETA_STORAGE_PROVISIONER]: sc.provisioner, [ANN_STORAGE_PROVISIONER]: sc.provisioner } };
      }));
    }
    event('Normal', 'ExternalProvisioning', Message.externalProvisioning(sc.provisioner));
    return `waiting for the external provisioner ${sc.provisioner}, which the simulation does not run for Immediate classes`;
  }

  /** markPending is updateClaimStatus(Pending): a claim with no phase yet gets Pending. */
  private *markPending(pvc: PersistentVolumeClaim, why: string, field: string): Steps<void> {
    if (pvc.status?.phase !== 'Pending') {
      this.write(() => this.ctx.store.update<PersistentVolumeClaim>('PersistentVolumeClaim', pvc.metadata?.namespace, pvc.metadata?.name ?? '', (c) => { c.status = { ...c.status, phase: 'Pending' }; }));
    }
    yield { phase: 'controllers.persistentvolume', object: refOf(pvc), field, result: `claim ${pvc.metadata?.name ?? ''} stays Pending: ${why}`, detail: { phase: 'Pending' }, outcome: 'waiting' };
  }

  /** bind is bind(): the PV's claimRef, its phase Bound, the claim's volumeName and annotations, the claim's phase Bound. */
  private *bind(pv: PersistentVolume, pvc: PersistentVolumeClaim): Steps<void> {
    const { pv: claimed } = bindVolumeToClaim(pv, pvc);
    const writes = [{ verb: 'update', object: obj(claimed) }, ...completeBinding(claimed, pvc)];
    this.write(() => {
      for (const w of writes) {
        const o = w.object;
        // updateVolumePhase stamps the PV's phase change (lastPhaseTransitionTime, GA since 1.31).
        const status = o.kind === 'PersistentVolume' ? { ...(o['status'] as object), lastPhaseTransitionTime: this.ctx.clock.timestamp() } : o['status'];
        if ('subresource' in w && w.subresource === 'status') this.ctx.store.update(String(o.kind), o.metadata?.namespace, o.metadata?.name ?? '', (x) => void (x['status'] = deepClone(status)));
        else this.ctx.store.update(String(o.kind), o.metadata?.namespace, o.metadata?.name ?? '', (x) => {
          x.metadata = deepClone(o.metadata);
          x['spec'] = deepClone(o['spec']);
        });
      }
    });
    const pvName = pv.metadata?.name ?? '';
    yield {
      phase: 'controllers.persistentvolume', object: refOf(pvc), field: pvc.spec?.volumeName ? 'spec.volumeName' : 'spec.resources.requests',
      result: `bound claim ${pvc.metadata?.name ?? ''} to PersistentVolume ${pvName} (${pv.spec?.capacity?.['storage'] ?? '?'}, ${(pv.spec?.accessModes ?? []).join(',')}): both Bound`,
      detail: { volume: pvName, annotations: { [Ann.BindCompleted]: 'yes', ...(pvc.spec?.volumeName ? {} : { [Ann.BoundByController]: 'yes' }) } },
    };
  }

  /** scheduleResync syncs the claims again after the resync period while a pod still waits for one. */
  private scheduleResync(pvc: PersistentVolumeClaim): void {
    if (this.resyncQueued || !ctxPodsWaiting(this.ctx, pvc)) return;
    this.queueResync();
  }

  /** queueResync runs the periodic resync once, the resync period from now. */
  private queueResync(): void {
    if (this.resyncQueued) return;
    this.resyncQueued = true;
    this.ctx.schedule(PV_RESYNC_MS, `${PV_CONTROLLER}: resync`, () => this.resync());
  }

  /** resyncDue tells whether a resync is to come that may bind a claim: a run has not settled before it. */
  get resyncDue(): boolean {
    return this.resyncQueued && this.unboundClaims().length > 0;
  }

  /** unboundClaims are the claims the controller has not bound yet and that are not going away. */
  private unboundClaims(): PersistentVolumeClaim[] {
    return this.ctx.store.list<PersistentVolumeClaim>('PersistentVolumeClaim').filter((pvc) => pvc.metadata?.annotations?.[Ann.BindCompleted] === undefined && !pvc.metadata?.deletionTimestamp);
  }

  /**
   * resync is the periodic resync (resync in pv_controller_base.go): every claim not bound yet is synced again; one
   * a pod waits for queues the next resync while it stays unbound (syncClaim), one alone does not.
   */
  private *resync(): Steps<void> {
    this.resyncQueued = false;
    for (const pvc of this.unboundClaims()) {
      yield* this.syncClaim(pvc.metadata?.namespace, pvc.metadata?.name ?? '', pendingPodsUsing(this.ctx, pvc), true);
    }
  }

  /** write makes the controller's own writes, which its informers do not answer in this simulation. */
  private write(fn: () => void): void {
    this.writing = true;
    try {
      fn();
    } finally {
      this.writing = false;
    }
  }
}

/** ctxPodsWaiting tells whether a live pod uses the claim: the periodic resync goes on while one does. */
function ctxPodsWaiting(ctx: EngineContext, pvc: PersistentVolumeClaim): boolean {
  return ctx.store.list<Pod>('Pod', pvc.metadata?.namespace).some((p) => !p.metadata?.deletionTimestamp && claimVolumes(p).some((cv) => cv.claimName === pvc.metadata?.name));
}
