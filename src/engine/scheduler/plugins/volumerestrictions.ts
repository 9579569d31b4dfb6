// VolumeRestrictions: a ReadWriteOncePod claim already used by a scheduled pod blocks every node, and a GCE PD, AWS EBS,
// RBD or iSCSI disk a pod on the node mounts read-write blocks that node. See volumerestrictions/volume_restrictions.go.
import type { PersistentVolumeClaim, Pod, Volume } from '../../api/types';
import { stateKey, type CycleState } from '../framework/cycle-state';
import type { FilterPlugin, Handle, NodeInfo, Plugin, PreFilterOutput, PreFilterPlugin } from '../framework/interfaces';
import { Code, newStatus, type PluginStatus } from '../framework/status';
import { AccessMode, Kind, NotFound } from './volume/claims';
import { Names } from './names';

/** Name is the plugin's name in profiles. */
export const Name = Names.VolumeRestrictions;

/** ErrReasonDiskConflict is the reason for a node where another pod mounts the same disk in a conflicting way. */
export const ErrReasonDiskConflict = 'node(s) had no available disk';

/**
 * ErrReasonReadWriteOncePodConflict is the reason for every node when a ReadWriteOncePod claim is in use; its words since
 * kubernetes/kubernetes#129145 (1.33), before which it read "node has pod using PersistentVolumeClaim with the same name...".
 */
export const ErrReasonReadWriteOncePodConflict = 'node(s) unavailable due to PersistentVolumeClaim with ReadWriteOncePod access mode already in-use by another pod';

/** PreFilterState is the pod's ReadWriteOncePod claims and how many scheduled pods use them. */
export interface PreFilterState {
  readWriteOncePodPVCs: ReadonlySet<string>;
  conflictingPVCRefCount: number;
}

const preFilterStateKey = stateKey<PreFilterState>(`PreFilter${Name}`);

/** needsRestrictionsCheck tells whether a volume is a disk kind the plugin checks for conflicts on the node. */
export function needsRestrictionsCheck(v: Volume): boolean {
  return v.gcePersistentDisk !== undefined || v.awsElasticBlockStore !== undefined || v.rbd !== undefined || v.iscsi !== undefined;
}

const RBD_DEFAULT_POOL = 'rbd';

function haveOverlap(a: readonly string[], b: readonly string[]): boolean {
  const set = new Set(a);
  return b.some((x) => set.has(x));
}

/** isVolumeConflict tells whether a volume conflicts with one of an existing pod's: same disk, not both read-only (EBS: ever). */
export function isVolumeConflict(v: Volume, existing: Pod): boolean {
  for (const e of existing.spec?.volumes ?? []) {
    if (v.gcePersistentDisk && e.gcePersistentDisk) {
      const [d, ed] = [v.gcePersistentDisk, e.gcePersistentDisk];
      if (d.pdName === ed.pdName && !(d.readOnly && ed.readOnly)) return true;
    }
    if (v.awsElasticBlockStore && e.awsElasticBlockStore && v.awsElasticBlockStore.volumeID === e.awsElasticBlockStore.volumeID) return true;
    if (v.iscsi && e.iscsi) {
      // Same IQN: iSCSI volumes are RWO or ROX, so only read-only mounts may share.
      if (v.iscsi.iqn === e.iscsi.iqn && !(v.iscsi.readOnly && e.iscsi.readOnly)) return true;
    }
    if (v.rbd && e.rbd) {
      const [r, er] = [v.rbd, e.rbd];
      // Same image: a shared Ceph monitor, the same pool (the API defaults it to "rbd") and image name.
      const sameImage = haveOverlap(r.monitors, er.monitors) && (r.pool ?? RBD_DEFAULT_POOL) === (er.pool ?? RBD_DEFAULT_POOL) && r.image === er.image;
      if (sameImage && !(r.readOnly && er.readOnly)) return true;
    }
  }
  return false;
}

/** VolumeRestrictions filters nodes on disk conflicts and ReadWriteOncePod claims in use. */
export class VolumeRestrictions implements PreFilterPlugin, FilterPlugin {
  readonly name = Name;
  private readonly handle: Handle;

  constructor(handle: Handle) {
    this.handle = handle;
  }

  /** preFilter finds the pod's ReadWriteOncePod claims and counts their users; it skips a pod with neither those nor checked disks. */
  preFilter(state: CycleState, pod: Pod): PreFilterOutput {
    const needsCheck = (pod.spec?.volumes ?? []).some(needsRestrictionsCheck);
    const ns = pod.metadata?.namespace ?? '';
    const rwop = new Set<string>();
    for (const v of pod.spec?.volumes ?? []) {
      if (!v.persistentVolumeClaim) continue;
      const name = v.persistentVolumeClaim.claimName;
      const pvc = this.handle.listers().get<PersistentVolumeClaim>(Kind.PersistentVolumeClaim, ns, name);
      if (!pvc) return { status: newStatus(Code.UnschedulableAndUnresolvable, NotFound.pvc(name)) };
      if ((pvc.spec?.accessModes ?? []).includes(AccessMode.ReadWriteOncePod)) rwop.add(pvc.metadata?.name ?? name);
    }
    const snapshot = this.handle.snapshot();
    let conflicting = 0;
    // Why: at most one scheduled pod can use a ReadWriteOncePod claim, so each claim in use counts once.
    for (const name of rwop) if (snapshot.isPVCUsedByPods(ns, name)) conflicting++;
    if (!needsCheck && conflicting === 0) return { status: newStatus(Code.Skip) };
    state.write(preFilterStateKey, { readWriteOncePodPVCs: rwop, conflictingPVCRefCount: conflicting });
    return { status: null };
  }

  /** filter rejects a node with a conflicting disk, then every node while a ReadWriteOncePod claim is in use (preemption may help). */
  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): PluginStatus {
    for (const v of pod.spec?.volumes ?? []) {
      if (!needsRestrictionsCheck(v)) continue;
      if (nodeInfo.pods.some((pi) => isVolumeConflict(v, pi.pod))) return newStatus(Code.Unschedulable, ErrReasonDiskConflict);
    }
    const s = state.read(preFilterStateKey);
    if (s === undefined) return newStatus(Code.Error, `cannot read "${preFilterStateKey.name}" from cycleState`);
    return s.conflictingPVCRefCount > 0 ? newStatus(Code.Unschedulable, ErrReasonReadWriteOncePodConflict) : null;
  }

  fieldPath(pod: Pod): string {
    const volumes = pod.spec?.volumes ?? [];
    const disk = volumes.findIndex(needsRestrictionsCheck);
    if (disk >= 0) return `spec.volumes[${disk}]`;
    const claim = volumes.findIndex((v) => v.persistentVolumeClaim !== undefined);
    return claim >= 0 ? `spec.volumes[${claim}].persistentVolumeClaim` : 'spec.volumes';
  }
}

/** New builds the plugin. */
export function New(handle: Handle): Plugin {
  return new VolumeRestrictions(handle);
}
