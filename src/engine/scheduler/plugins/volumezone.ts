// VolumeZone: a bound PV's zone and region labels must match the node's (when the node has any such label).
// See pkg/scheduler/framework/plugins/volumezone/volume_zone.go.
import type { StorageClass } from 'kubernetes-types/storage/v1';
import type { PersistentVolume, PersistentVolumeClaim, Pod } from '../../api/types';
import { stateKey, type CycleState } from '../framework/cycle-state';
import type { FilterPlugin, Handle, NodeInfo, Plugin, PreFilterOutput, PreFilterPlugin } from '../framework/interfaces';
import { Code, newStatus, Status, type PluginStatus } from '../framework/status';
import { BindingMode, bindingModeOf, claimClass, Kind, NotFound } from './volume/claims';
import { Names } from './names';

/** Name is the plugin's name in profiles. */
export const Name = Names.VolumeZone;

/** ErrReasonConflict is the reason for a node outside the zone or region of one of the pod's PVs. */
export const ErrReasonConflict = 'node(s) had no available volume zone';

/** Reason lists the PreFilter reasons about a claim the plugin cannot place. */
export const Reason = {
  claimNoName: 'PersistentVolumeClaim had no name',
  noPVNorClass: 'PersistentVolumeClaim had no pv name and storageClass name',
  noPVName: 'PersistentVolume had no name',
} as const;

/** TOPOLOGY_LABELS are the PV labels that pin it to a zone or region, beta ones first (v1.LabelFailureDomainBeta*, v1.LabelTopology*). */
export const TOPOLOGY_LABELS = [
  'failure-domain.beta.kubernetes.io/zone',
  'failure-domain.beta.kubernetes.io/region',
  'topology.kubernetes.io/zone',
  'topology.kubernetes.io/region',
] as const;

/** MULTI_ZONE_DELIMITER separates the zones of a label that lists several (cloudvolume.LabelMultiZoneDelimiter). */
const MULTI_ZONE_DELIMITER = '__';

/** PVTopology is one topology label of one of the pod's PVs and the values it allows. */
export interface PVTopology {
  pvName: string;
  key: string;
  values: ReadonlySet<string>;
}

const preFilterStateKey = stateKey<PVTopology[]>(`PreFilter${Name}`);

/** translateToGALabel maps a beta zone or region label to its GA name. */
function translateToGALabel(label: string): string {
  if (label === 'failure-domain.beta.kubernetes.io/region') return 'topology.kubernetes.io/region';
  if (label === 'failure-domain.beta.kubernetes.io/zone') return 'topology.kubernetes.io/zone';
  return label;
}

/** labelZonesToSet splits a zone label on "__"; an empty zone makes the label unusable (volumehelpers.LabelZonesToSet). */
function labelZonesToSet(value: string): Set<string> | undefined {
  const zones = value.split(MULTI_ZONE_DELIMITER).map((z) => z.trim());
  return zones.includes('') ? undefined : new Set(zones);
}

/** VolumeZone filters nodes on the zone labels of the pod's bound PVs. */
export class VolumeZone implements PreFilterPlugin, FilterPlugin {
  readonly name = Name;
  private readonly handle: Handle;

  constructor(handle: Handle) {
    this.handle = handle;
  }

  /** getPVbyPod reads the topology labels of the PVs bound to the pod's claims; unbound WaitForFirstConsumer claims are VolumeBinding's. */
  getPVbyPod(pod: Pod): PVTopology[] | Status {
    const listers = this.handle.listers();
    const ns = pod.metadata?.namespace ?? '';
    const out: PVTopology[] = [];
    for (const v of pod.spec?.volumes ?? []) {
      if (!v.persistentVolumeClaim) continue;
      const claimName = v.persistentVolumeClaim.claimName;
      if (claimName === '') return newStatus(Code.UnschedulableAndUnresolvable, Reason.claimNoName);
      const pvc = listers.get<PersistentVolumeClaim>(Kind.PersistentVolumeClaim, ns, claimName);
      if (!pvc) return newStatus(Code.UnschedulableAndUnresolvable, NotFound.pvc(claimName));
      const pvName = pvc.spec?.volumeName ?? '';
      if (pvName === '') {
        const scName = claimClass(pvc);
        if (scName === '') return newStatus(Code.UnschedulableAndUnresolvable, Reason.noPVNorClass);
        const sc = listers.get<StorageClass>(Kind.StorageClass, undefined, scName);
        if (!sc) return newStatus(Code.UnschedulableAndUnresolvable, NotFound.storageClass(scName));
        if (bindingModeOf(sc) === BindingMode.WaitForFirstConsumer) continue;
        return newStatus(Code.UnschedulableAndUnresolvable, Reason.noPVName);
      }
      const pv = listers.get<PersistentVolume>(Kind.PersistentVolume, undefined, pvName);
      if (!pv) return newStatus(Code.UnschedulableAndUnresolvable, NotFound.pv(pvName));
      for (const key of TOPOLOGY_LABELS) {
        const value = pv.metadata?.labels?.[key];
        if (value === undefined) continue;
        // A label that does not parse is ignored (Kubernetes logs it).
        const values = labelZonesToSet(value);
        if (values) out.push({ pvName, key, values });
      }
    }
    return out;
  }

  /** preFilter computes the PVs' topologies once; a pod without any skips Filter. */
  preFilter(state: CycleState, pod: Pod): PreFilterOutput {
    const topologies = this.getPVbyPod(pod);
    if (topologies instanceof Status) return { status: topologies };
    if (topologies.length === 0) return { status: newStatus(Code.Skip) };
    state.write(preFilterStateKey, topologies);
    return { status: null };
  }

  /** filter rejects a node whose zone or region label (beta or GA) is not among a PV's; a node without such labels fits. */
  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): PluginStatus {
    if ((pod.spec?.volumes ?? []).length === 0) return null;
    let topologies = state.read(preFilterStateKey);
    if (topologies === undefined) {
      const computed = this.getPVbyPod(pod);
      if (computed instanceof Status) return computed;
      topologies = computed;
    }
    const labels = nodeInfo.node.metadata?.labels ?? {};
    // Why: a single-zone cluster's nodes may carry no topology label at all.
    if (!TOPOLOGY_LABELS.some((k) => labels[k] !== undefined)) return null;
    for (const t of topologies) {
      const value = labels[t.key] ?? labels[translateToGALabel(t.key)];
      if (value === undefined || !t.values.has(value)) return newStatus(Code.UnschedulableAndUnresolvable, ErrReasonConflict);
    }
    return null;
  }

  fieldPath(pod: Pod): string {
    const i = (pod.spec?.volumes ?? []).findIndex((v) => v.persistentVolumeClaim !== undefined);
    return i >= 0 ? `spec.volumes[${i}].persistentVolumeClaim` : 'spec.volumes';
  }
}

/** New builds the plugin. */
export function New(handle: Handle): Plugin {
  return new VolumeZone(handle);
}
