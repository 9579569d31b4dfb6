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

/** PluginSet is what a profile enables and disables at one extension point (config.PluginSet); `*` disables all. */
export interface PluginSet {
  enabled: readonly ProfilePlugin[];
  disabled: readonly string[];
}

/** PluginConfig is one plugin's args (config.PluginConfig), as plain v1 JSON, defaulted by the configuration. */
export interface PluginConfig {
  name: string;
  args: Readonly<Record<string, unknown>>;
}

/** Profile is a scheduler profile: the MultiPoint plugins in order, expanded to every extension point each implements. */
export interface Profile {
  schedulerName: string;
  multiPoint: readonly ProfilePlugin[];
  /** percentageOfNodesToScore overrides the global setting for this profile; 0 or unset means adaptive. */
  percentageOfNodesToScore?: number;
  /** extensionPoints are the sets a configuration gives single extension points (after defaulting); absent means none. */
  extensionPoints?: Readonly<Partial<Record<ExtensionPoint, PluginSet>>>;
  /** pluginConfig are the plugins' args, defaulted, in the order the configuration lists them. */
  pluginConfig?: readonly PluginConfig[];
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
  // VolumeBinding is a PreScore and Score plugin whatever StorageCapacityScoring says (ExpandedPluginsV1 in
  // pkg/scheduler/apis/config/testing/defaults); with the gate off, as in 1.36, its PreScore skips its Score.
  [Names.VolumeBinding]: [E.PreFilter, E.Filter, E.PreScore, E.Score, E.Reserve, E.PreBind],
  [Names.VolumeZone]: [E.PreFilter, E.Filter],
  [Names.PodTopologySpread]: [E.PreFilter, E.Filter, E.PreScore, E.Score],
  [Names.InterPodAffinity]: [E.PreFilter, E.Filter, E.PreScore, E.Score],
  [Names.DynamicResources]: [E.PreEnqueue, E.PreFilter, E.Filter, E.PostFilter, E.Reserve, E.PreBind],
  [Names.DefaultPreemption]: [E.PostFilter],
  [Names.NodeResourcesBalancedAllocation]: [E.PreScore, E.Score],
  [Names.ImageLocality]: [E.Score],
  [Names.DefaultBinder]: [E.Bind],
};

/** pluginsAt lists a profile's plugins at one extension point, in framework order, with their weights for Score. */
export function pluginsAt(profile: Profile, point: ExtensionPoint): ProfilePlugin[] {
  const kubernetes = (name: string, at: ExtensionPoint): Implements => {
    const points = KUBERNETES_EXTENSION_POINTS[name];
    return points === undefined ? 'unknown' : points.includes(at) ? 'yes' : 'no';
  };
  const expanded = expandProfile(profile, kubernetes);
  return (expanded.points.get(point) ?? []).map((name) => (point === E.Score ? { name, weight: expanded.weights.get(name) ?? DEFAULT_SCORE_WEIGHT } : { name }));
}

/** EXTENSION_POINTS_IN_ORDER is the framework's order of extension points (getExtensionPoints), which its errors follow. */
export const EXTENSION_POINTS_IN_ORDER: readonly ExtensionPoint[] = [
  E.PreFilter, E.Filter, E.PostFilter, E.Reserve, E.PreScore, E.Score, E.PreBind, E.Bind, E.PostBind, E.Permit, E.PreEnqueue, E.QueueSort,
];

/** Implements says whether a plugin runs at a point: yes, no, unknown (no such plugin), or missing (not simulated there). */
export type Implements = 'yes' | 'no' | 'unknown' | 'missing';

/** ExpandedProfile is every extension point's plugins in order, the score weights, or the framework's error. */
export interface ExpandedProfile {
  points: Map<ExtensionPoint, string[]>;
  weights: Map<string, number>;
  error?: string;
}

/**
 * expandProfile fills each extension point as NewFramework does: the point's own enabled plugins (updatePluginList), then
 * MultiPoint's (expandMultiPointPlugins): a point's `*` disables MultiPoint there, a disabled name is left out, a plugin the
 * point enables itself keeps its place first. Score weights come from the Score set first, then MultiPoint; 0 means 1.
 */
export function expandProfile(profile: Profile, implementsAt: (name: string, point: ExtensionPoint) => Implements): ExpandedProfile {
  const points = new Map<ExtensionPoint, string[]>();
  const fail = (error: string): ExpandedProfile => ({ points, weights: new Map(), error });
  const typeName = (point: ExtensionPoint): string => `${point}Plugin`;
  for (const point of EXTENSION_POINTS_IN_ORDER) {
    const set = profile.extensionPoints?.[point];
    const own: string[] = [];
    for (const { name } of set?.enabled ?? []) {
      const has = implementsAt(name, point);
      if (has === 'unknown') return fail(`${typeName(point)} "${name}" does not exist`);
      if (has === 'no') return fail(`plugin "${name}" does not extend ${typeName(point)} plugin`);
      if (own.includes(name)) return fail(`plugin "${name}" already registered as "${typeName(point)}"`);
      own.push(name);
    }
    points.set(point, own);
  }
  for (const point of EXTENSION_POINTS_IN_ORDER) {
    const set = profile.extensionPoints?.[point];
    const disabled = new Set(set?.disabled ?? []);
    if (disabled.has('*') || profile.multiPoint.length === 0) continue;
    const own = points.get(point)!;
    const overrides: string[] = [];
    const multi: string[] = [];
    for (const { name } of profile.multiPoint) {
      const has = implementsAt(name, point);
      if (has === 'unknown') return fail(`${typeName(point)} "${name}" does not exist`);
      if (has !== 'yes' || disabled.has(name)) continue;
      if (own.includes(name)) {
        overrides.push(name);
        continue;
      }
      if (multi.includes(name)) return fail(`plugin "${name}" already registered as "${typeName(point)}"`);
      multi.push(name);
    }
    const first = own.filter((n) => overrides.includes(n));
    points.set(point, [...first, ...multi, ...own.filter((n) => !overrides.includes(n))]);
  }
  const weights = new Map<string, number>();
  const scoring = new Set(points.get(E.Score) ?? []);
  for (const { name, weight } of [...(profile.extensionPoints?.[E.Score]?.enabled ?? []), ...profile.multiPoint]) {
    if (scoring.has(name) && !weights.has(name)) weights.set(name, weight || DEFAULT_SCORE_WEIGHT);
  }
  return { points, weights };
}
