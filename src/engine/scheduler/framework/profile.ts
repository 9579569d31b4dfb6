// The 1.36 default scheduler profile: the MultiPoint plugins in order with their score weights, and what each implements.
// See pkg/scheduler/apis/config/v1/default_plugins.go (getDefaultPlugins) and runtime/framework.go (expandMultiPointPlugins).
import { Names } from '../plugins/names';
import { ExtensionPoint } from './interfaces';

/** MAX_NODE_SCORE is the highest score a Score plugin may give after NormalizeScore (framework.MaxNodeScore). */
export const MAX_NODE_SCORE = 100;
/** MIN_NODE_SCORE is the lowest score a Score plugin may give after NormalizeScore. */
export const MIN_NODE_SCORE = 0;
/** DEFAULT_SCORE_WEIGHT is the weight of a Score plugin the profile gives none. */
export const DEFAULT_SCORE_WEIGHT = 1;
/** DEFAULT_SCHEDULER_NAME is the profile name pods get in spec.schedulerName by default. */
export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';

/** ProfilePlugin is one enabled plugin, with its score weight when it scores. */
export interface ProfilePlugin {
  name: string;
  weight?: number;
}

/** Profile is a scheduler profile: the MultiPoint plugins in order, expanded to every extension point each implements. */
export interface Profile {
  schedulerName: string;
  multiPoint: readonly ProfilePlugin[];
  /** percentageOfNodesToScore overrides the global setting for this profile; 0 or unset means adaptive. */
  percentageOfNodesToScore?: number;
}

/**
 * DEFAULT_MULTI_POINT is getDefaultPlugins() of 1.36: DynamicResources comes before DefaultPreemption since DRA is on by
 * default, and the in-tree EBS/GCE PD/Azure Disk limit plugins are gone.
 */
export const DEFAULT_MULTI_POINT: readonly ProfilePlugin[] = [
  { name: Names.SchedulingGates },
  { name: Names.PrioritySort },
  { name: Names.NodeUnschedulable },
  { name: Names.NodeName },
  { name: Names.TaintToleration, weight: 3 },
  { name: Names.NodeAffinity, weight: 2 },
  { name: Names.NodePorts },
  { name: Names.NodeResourcesFit, weight: 1 },
  { name: Names.VolumeRestrictions },
  { name: Names.NodeVolumeLimits },
  { name: Names.VolumeBinding },
  { name: Names.VolumeZone },
  { name: Names.PodTopologySpread, weight: 2 },
  { name: Names.InterPodAffinity, weight: 2 },
  { name: Names.DynamicResources },
  { name: Names.DefaultPreemption },
  { name: Names.NodeResourcesBalancedAllocation, weight: 1 },
  { name: Names.ImageLocality, weight: 1 },
  { name: Names.DefaultBinder },
];

/** DEFAULT_PROFILE is the profile of `default-scheduler`. */
export const DEFAULT_PROFILE: Profile = { schedulerName: DEFAULT_SCHEDULER_NAME, multiPoint: DEFAULT_MULTI_POINT };

const E = ExtensionPoint;

/**
 * KUBERNETES_EXTENSION_POINTS records which extension points each default plugin implements in Kubernetes, so that the
 * profile can be listed per extension point even for plugins this simulator does not run yet.
 */
export const KUBERNETES_EXTENSION_POINTS: Readonly<Record<string, readonly ExtensionPoint[]>> = {
  [Names.SchedulingGates]: [E.PreEnqueue],
  [Names.PrioritySort]: [E.QueueSort],
  [Names.NodeUnschedulable]: [E.Filter],
  [Names.NodeName]: [E.Filter],
  [Names.TaintToleration]: [E.Filter, E.PreScore, E.Score],
  [Names.NodeAffinity]: [E.PreFilter, E.Filter, E.PreScore, E.Score],
  [Names.NodePorts]: [E.PreFilter, E.Filter],
  [Names.NodeResourcesFit]: [E.PreFilter, E.Filter, E.PreScore, E.Score],
  [Names.VolumeRestrictions]: [E.PreFilter, E.Filter],
  [Names.NodeVolumeLimits]: [E.PreFilter, E.Filter],
  [Names.VolumeBinding]: [E.PreFilter, E.Filter, E.Reserve, E.PreBind],
  [Names.VolumeZone]: [E.PreFilter, E.Filter],
  [Names.PodTopologySpread]: [E.PreFilter, E.Filter, E.PreScore, E.Score],
  [Names.InterPodAffinity]: [E.PreFilter, E.Filter, E.PreScore, E.Score],
  [Names.DynamicResources]: [E.PreEnqueue, E.PreFilter, E.Filter, E.PostFilter, E.Reserve, E.PreBind],
  [Names.DefaultPreemption]: [E.PostFilter],
  [Names.NodeResourcesBalancedAllocation]: [E.PreScore, E.Score],
  [Names.ImageLocality]: [E.Score],
  [Names.DefaultBinder]: [E.Bind],
};

/** pluginsAt lists a profile's plugins at one extension point, in MultiPoint order, with their weights for Score. */
export function pluginsAt(profile: Profile, point: ExtensionPoint): ProfilePlugin[] {
  return profile.multiPoint
    .filter((p) => KUBERNETES_EXTENSION_POINTS[p.name]?.includes(point) ?? false)
    .map((p) => (point === E.Score ? { name: p.name, weight: p.weight ?? DEFAULT_SCORE_WEIGHT } : { name: p.name }));
}
