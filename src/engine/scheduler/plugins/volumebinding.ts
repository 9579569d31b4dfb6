// VolumeBinding: a pod's claims must exist and be bound, or (WaitForFirstConsumer) be bindable on the node to an available
// PV or by provisioning; Reserve assumes the choice and PreBind binds. See pkg/scheduler/framework/plugins/volumebinding/volume_binding.go.
import type { PersistentVolumeClaim, Pod } from '../../api/types';
import { NOT_FOUND, stateKey, type CycleState } from '../framework/cycle-state';
import type {
  FilterPlugin, Handle, NodeInfo, ObjectWrite, Plugin, PreBindPlugin, PreFilterOutput, PreFilterPlugin, PreScorePlugin, ReservePlugin, ScorePlugin,
} from '../framework/interfaces';
import { asError, Code, newStatus, type PluginStatus } from '../framework/status';
import { bindWrites } from './volume/bind-writes';
import { VolumeBinder, type PodVolumeClaims, type PodVolumes } from './volume/binder';
import { claimVolumes, Kind, NotFound, volumeIsForPod, volumesFieldPath } from './volume/claims';
import { Names } from './names';

export { ConflictReason } from './volume/binder';

/** Name is the plugin's name in profiles. */
export const Name = Names.VolumeBinding;

/** ErrReasonUnboundImmediate is the PreFilter reason when a claim of an Immediate class is not bound yet (the PV controller's job). */
export const ErrReasonUnboundImmediate = 'pod has unbound immediate PersistentVolumeClaims';

/** Reason builds the PreFilter reasons about one claim, as podHasPVCs words them. */
export const Reason = {
  notFound: NotFound.pvc,
  ephemeralNotCreated: (name: string): string => `waiting for ephemeral volume controller to create the persistentvolumeclaim "${name}"`,
  lost: (name: string, pv: string): string => `persistentvolumeclaim "${name}" bound to non-existent persistentvolume "${pv}"`,
  deleting: (name: string): string => `persistentvolumeclaim "${name}" is being deleted`,
  noPodVolumes: (node: string): string => `no pod volumes found for node "${node}"`,
} as const;

/**
 * STORAGE_CAPACITY_SCORING is the StorageCapacityScoring feature gate: alpha and off by default in 1.36 (beta in 1.37), so
 * the plugin has no scorer: PreScore skips Score, which still sits in the profile with weight 1.
 */
export const STORAGE_CAPACITY_SCORING = false;

const CLAIM_LOST = 'Lost';

/** StateData is what PreFilter finds and Filter, Reserve and PreBind fill in; shared by clones, as Go's pointer is. */
interface StateData {
  allBound: boolean;
  podVolumesByNode: Map<string, PodVolumes>;
  claims: PodVolumeClaims | null;
  hasStaticBindings: boolean;
  writes: ObjectWrite[];
}

const stateDataKey = stateKey<StateData>(Name);

const newState = (claims: PodVolumeClaims | null): StateData => ({ allBound: false, podVolumesByNode: new Map(), claims, hasStaticBindings: false, writes: [] });

/** VolumeBinding checks, assumes and binds the pod's PersistentVolumeClaims. */
export class VolumeBinding implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin, ReservePlugin, PreBindPlugin {
  readonly name = Name;
  /** binder keeps the assumed PVs and claims from Reserve to PreBind, across cycles of this framework. */
  readonly binder: VolumeBinder;
  private readonly handle: Handle;

  constructor(handle: Handle) {
    this.handle = handle;
    this.binder = new VolumeBinder(() => handle.listers());
  }

  /** podHasPVCs tells whether the pod uses claims, or why one of them makes it unschedulable (missing, lost, deleting, not the pod's). */
  private podHasPVCs(pod: Pod): { hasPVC: boolean; error?: string } {
    const ns = pod.metadata?.namespace ?? '';
    let hasPVC = false;
    for (const cv of claimVolumes(pod)) {
      hasPVC = true;
      const pvc = this.handle.listers().get<PersistentVolumeClaim>(Kind.PersistentVolumeClaim, ns, cv.claimName);
      if (!pvc) return { hasPVC, error: cv.ephemeral ? Reason.ephemeralNotCreated(cv.claimName) : Reason.notFound(cv.claimName) };
      const name = pvc.metadata?.name ?? cv.claimName;
      if (pvc.status?.phase === CLAIM_LOST) return { hasPVC, error: Reason.lost(name, pvc.spec?.volumeName ?? '') };
      if (pvc.metadata?.deletionTimestamp) return { hasPVC, error: Reason.deleting(name) };
      const notOwner = cv.ephemeral ? volumeIsForPod(pod, pvc) : undefined;
      if (notOwner) return { hasPVC, error: notOwner };
    }
    return { hasPVC };
  }

  /** preFilter skips pods without claims and rejects a pod whose claims cannot be bound by the scheduler. */
  preFilter(state: CycleState, pod: Pod): PreFilterOutput {
    const { hasPVC, error } = this.podHasPVCs(pod);
    if (error !== undefined) return { status: newStatus(Code.UnschedulableAndUnresolvable, error) };
    if (!hasPVC) {
      state.write(stateDataKey, newState(null));
      return { status: newStatus(Code.Skip) };
    }
    let claims: PodVolumeClaims;
    try {
      claims = this.binder.getPodVolumeClaims(pod);
    } catch (err) {
      return { status: asError(err) };
    }
    // Immediate claims are the PV controller's to bind; the pod comes back when it has.
    if (claims.unboundClaimsImmediate.length > 0) return { status: newStatus(Code.UnschedulableAndUnresolvable, ErrReasonUnboundImmediate) };
    state.write(stateDataKey, newState({ ...claims, unboundClaimsImmediate: [] }));
    return { status: null };
  }

  /** filter checks bound PVs' node affinity and finds, for unbound WaitForFirstConsumer claims, PVs to bind or provisioning. */
  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): PluginStatus {
    const s = state.read(stateDataKey);
    if (s === undefined || s.claims === null) return newStatus(Code.Error, NOT_FOUND);
    let found;
    try {
      found = this.binder.findPodVolumes(s.claims, nodeInfo.node);
    } catch (err) {
      return asError(err);
    }
    if (found.reasons.length > 0) return newStatus(Code.UnschedulableAndUnresolvable, ...found.reasons);
    s.podVolumesByNode.set(nodeInfo.name, found.podVolumes);
    s.hasStaticBindings ||= found.podVolumes.staticBindings.length > 0;
    return null;
  }

  /** preScore skips Score: without StorageCapacityScoring there is no scorer, and nothing to score without static bindings. */
  preScore(state: CycleState): PluginStatus {
    if (!STORAGE_CAPACITY_SCORING) return newStatus(Code.Skip);
    const s = state.read(stateDataKey);
    if (s === undefined) return newStatus(Code.Error, NOT_FOUND);
    return s.hasStaticBindings ? null : newStatus(Code.Skip);
  }

  /** score is 0: the capacity scorer exists only with StorageCapacityScoring. */
  score(): number {
    return 0;
  }

  /** reserve assumes the node's bindings and provisionings; a pod with nothing to bind on the node is all bound. */
  reserve(state: CycleState, pod: Pod, nodeName: string): PluginStatus {
    const s = state.read(stateDataKey);
    if (s === undefined) return newStatus(Code.Error, NOT_FOUND);
    const podVolumes = s.podVolumesByNode.get(nodeName);
    s.allBound = podVolumes === undefined ? true : this.binder.assumePodVolumes(pod, nodeName, podVolumes);
    return null;
  }

  /** unreserve forgets what reserve assumed. */
  unreserve(state: CycleState, _pod: Pod, nodeName: string): void {
    const podVolumes = state.read(stateDataKey)?.podVolumesByNode.get(nodeName);
    if (podVolumes) this.binder.revertAssumedPodVolumes(podVolumes);
  }

  /** preBindPreFlight skips PreBind when Reserve found every claim bound; otherwise PreBind has work (AllowParallel in Go). */
  preBindPreFlight(state: CycleState, _pod: Pod, nodeName: string): PluginStatus {
    const s = state.read(stateDataKey);
    if (s === undefined) return newStatus(Code.Error, NOT_FOUND);
    if (s.allBound) return newStatus(Code.Skip);
    return s.podVolumesByNode.has(nodeName) ? null : newStatus(Code.Error, Reason.noPodVolumes(nodeName));
  }

  /** preBind decides the API writes that bind the volumes (see preBindWrites); nothing when all were bound. */
  preBind(state: CycleState, _pod: Pod, nodeName: string): PluginStatus {
    const s = state.read(stateDataKey);
    if (s === undefined) return newStatus(Code.Error, NOT_FOUND);
    if (s.allBound) return null;
    const podVolumes = s.podVolumesByNode.get(nodeName);
    if (!podVolumes) return newStatus(Code.Error, Reason.noPodVolumes(nodeName));
    s.writes = bindWrites(podVolumes, nodeName, this.handle.listers());
    return null;
  }

  /** preBindWrites are the writes of the last preBind: the scheduler's PV/PVC updates, then the controllers' it waits for. */
  preBindWrites(state: CycleState): ObjectWrite[] {
    return state.read(stateDataKey)?.writes ?? [];
  }

  fieldPath(pod: Pod): string {
    return volumesFieldPath(pod);
  }
}

/** New builds the plugin. */
export function New(handle: Handle): Plugin {
  return new VolumeBinding(handle);
}
