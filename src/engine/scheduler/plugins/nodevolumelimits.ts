// NodeVolumeLimits: a node takes no more volumes of a CSI driver than its CSINode allows (spec.drivers[].allocatable.count),
// counting each unique volume of the pods on the node, the node's VolumeAttachments and the new pod's. See nodevolumelimits/csi.go.
import type { CSINode, StorageClass, VolumeAttachment } from 'kubernetes-types/storage/v1';
import type { PersistentVolume, PersistentVolumeClaim, Pod } from '../../api/types';
import type { CycleState } from '../framework/cycle-state';
import type { FilterPlugin, Handle, NodeInfo, Plugin, PreFilterOutput, PreFilterPlugin } from '../framework/interfaces';
import type { Listers } from '../framework/listers';
import { Code, newStatus, type PluginStatus } from '../framework/status';
import { claimClass, claimVolumes, Kind, NotFound, volumeIsForPod } from './volume/claims';
import { isInlineMigratable, provisionerDriver, translateInline, translatePV } from './volume/csi-translation';
import { Names } from './names';

/** Name is the plugin's name in profiles (CSIName in Kubernetes). */
export const Name = Names.NodeVolumeLimits;

/** ErrReasonMaxVolumeCountExceeded is the reason for a node whose driver limit the pod's volumes would pass. */
export const ErrReasonMaxVolumeCountExceeded = 'node(s) exceed max volume count';

/**
 * UNBOUND_VOLUME_PREFIX stands for Kubernetes' randomVolumeIDPrefix: an unbound claim counts as `<driver>/<prefix>-<ns>/<name>`,
 * unique per claim and unlike any real handle (Kubernetes draws 32 random letters once per plugin).
 */
export const UNBOUND_VOLUME_PREFIX = 'unbound-claim';

/** AttachableError is a claim the new pod cannot do without (UnschedulableAndUnresolvable) or any other failure (Error). */
class AttachableError extends Error {
  constructor(message: string, readonly notFound: boolean) {
    super(message);
  }
}

/** VolumeCounts maps each unique volume `<driver>/<handle>` to its driver, the key of the driver's limit. */
type VolumeCounts = Map<string, string>;

/** NodeVolumeLimits filters nodes on their CSI drivers' attach limits. */
export class NodeVolumeLimits implements PreFilterPlugin, FilterPlugin {
  readonly name = Name;
  private readonly handle: Handle;

  constructor(handle: Handle) {
    this.handle = handle;
  }

  /** preFilter skips pods with no claim, no generic ephemeral volume and no in-tree volume that migrated to CSI. */
  preFilter(_state: CycleState, pod: Pod): PreFilterOutput {
    const counts = (pod.spec?.volumes ?? []).some((v) => v.persistentVolumeClaim !== undefined || v.ephemeral !== undefined || isInlineMigratable(v));
    return { status: counts ? null : newStatus(Code.Skip) };
  }

  filter(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): PluginStatus {
    if ((pod.spec?.volumes ?? []).length === 0) return null;
    const listers = this.handle.listers();
    // Without a CSINode the node reports no limits; its absence is not an error (yet) in Kubernetes.
    const csiNode = listers.get<CSINode>(Kind.CSINode, undefined, nodeInfo.name);
    const newVolumes: VolumeCounts = new Map();
    try {
      filterAttachableVolumes(listers, pod, csiNode, true, newVolumes);
    } catch (err) {
      if (err instanceof AttachableError) return newStatus(err.notFound ? Code.UnschedulableAndUnresolvable : Code.Error, err.message);
      throw err;
    }
    if (newVolumes.size === 0) return null;
    const limits = volumeLimits(csiNode);
    if (limits.size === 0) return null;
    const attached: VolumeCounts = new Map();
    try {
      for (const pi of nodeInfo.pods) filterAttachableVolumes(listers, pi.pod, csiNode, false, attached);
    } catch (err) {
      if (err instanceof AttachableError) return newStatus(Code.Error, err.message);
      throw err;
    }
    // Volumes the attach/detach controller attached to the node count too, once.
    for (const [unique, driver] of nodeVolumeAttachments(listers, nodeInfo.name)) if (!attached.has(unique)) attached.set(unique, driver);
    const attachedCount = new Map<string, number>();
    for (const [unique, driver] of attached) {
      // A volume already on the node takes no new slot.
      newVolumes.delete(unique);
      attachedCount.set(driver, (attachedCount.get(driver) ?? 0) + 1);
    }
    const newCount = new Map<string, number>();
    for (const driver of newVolumes.values()) newCount.set(driver, (newCount.get(driver) ?? 0) + 1);
    for (const [driver, count] of newCount) {
      const max = limits.get(driver);
      if (max !== undefined && (attachedCount.get(driver) ?? 0) + count > max) return newStatus(Code.Unschedulable, ErrReasonMaxVolumeCountExceeded);
    }
    return null;
  }

  fieldPath(pod: Pod): string {
    const volumes = pod.spec?.volumes ?? [];
    const i = volumes.findIndex((v) => v.persistentVolumeClaim !== undefined || v.ephemeral !== undefined || isInlineMigratable(v));
    if (i < 0) return 'spec.volumes';
    const v = volumes[i]!;
    return v.persistentVolumeClaim ? `spec.volumes[${i}].persistentVolumeClaim` : v.ephemeral ? `spec.volumes[${i}].ephemeral` : `spec.volumes[${i}]`;
  }
}

/**
 * filterAttachableVolumes adds the pod's CSI volumes to `result`: bound claims by their PV's (translated) source, unbound ones
 * by their class's driver, migrated inline volumes by their translation. A missing claim stops a new pod; for a pod already on
 * the node it is just not counted.
 */
function filterAttachableVolumes(listers: Listers, pod: Pod, csiNode: CSINode | undefined, newPod: boolean, result: VolumeCounts): void {
  const ns = pod.metadata?.namespace ?? '';
  const claims = new Map(claimVolumes(pod).map((cv) => [cv.index, cv]));
  (pod.spec?.volumes ?? []).forEach((vol, i) => {
    const cv = claims.get(i);
    if (!cv) {
      const inline = translateInline(vol, csiNode);
      if (inline) result.set(`${inline.driver}/${inline.volumeHandle}`, inline.driver);
      return;
    }
    if (cv.claimName === '') throw new AttachableError('PersistentVolumeClaim had no name', false);
    const pvc = listers.get<PersistentVolumeClaim>(Kind.PersistentVolumeClaim, ns, cv.claimName);
    if (!pvc) {
      if (newPod) throw new AttachableError(`looking up PVC ${ns}/${cv.claimName}: ${NotFound.pvc(cv.claimName)}`, true);
      return;
    }
    const notOwner = cv.ephemeral ? volumeIsForPod(pod, pvc) : undefined;
    if (notOwner) throw new AttachableError(notOwner, false);
    const csi = driverInfo(listers, csiNode, pvc);
    if (csi) result.set(`${csi.driver}/${csi.volumeHandle}`, csi.driver);
  });
}

/** driverInfo is a claim's CSI driver and volume handle: from its PV, or from its class while unbound (or its PV is missing). */
function driverInfo(listers: Listers, csiNode: CSINode | undefined, pvc: PersistentVolumeClaim): { driver: string; volumeHandle: string } | undefined {
  const pvName = pvc.spec?.volumeName ?? '';
  const pv = pvName === '' ? undefined : listers.get<PersistentVolume>(Kind.PersistentVolume, undefined, pvName);
  if (pv) {
    const csi = translatePV(pv, csiNode);
    return csi && csi.driver !== '' && csi.volumeHandle !== '' ? csi : undefined;
  }
  // Why: a claim without a class must be an immediate one, bound before scheduling; it is safe not to count it.
  const className = claimClass(pvc);
  if (className === '') return undefined;
  const sc = listers.get<StorageClass>(Kind.StorageClass, undefined, className);
  if (!sc) return undefined;
  const driver = provisionerDriver(sc.provisioner, csiNode);
  if (!driver) return undefined;
  return { driver, volumeHandle: `${UNBOUND_VOLUME_PREFIX}-${pvc.metadata?.namespace ?? ''}/${pvc.metadata?.name ?? ''}` };
}

/** volumeLimits reads each driver's allocatable count from the CSINode; a driver without one is unlimited. */
function volumeLimits(csiNode: CSINode | undefined): Map<string, number> {
  const limits = new Map<string, number>();
  for (const d of csiNode?.spec?.drivers ?? []) if (d.allocatable?.count !== undefined) limits.set(d.name, d.allocatable.count);
  return limits;
}

/** nodeVolumeAttachments lists the CSI volumes VolumeAttachments attach to the node, by `<attacher>/<handle>`. */
function nodeVolumeAttachments(listers: Listers, nodeName: string): VolumeCounts {
  const out: VolumeCounts = new Map();
  for (const va of listers.list<VolumeAttachment>(Kind.VolumeAttachment)) {
    if (va.spec?.nodeName !== nodeName || !va.spec.attacher) continue;
    const pvName = va.spec.source?.persistentVolumeName;
    const pv = pvName ? listers.get<PersistentVolume>(Kind.PersistentVolume, undefined, pvName) : undefined;
    const handle = pv?.spec?.csi?.volumeHandle;
    if (handle) out.set(`${va.spec.attacher}/${handle}`, va.spec.attacher);
  }
  return out;
}

/** New builds the plugin. */
export function New(handle: Handle): Plugin {
  return new NodeVolumeLimits(handle);
}
