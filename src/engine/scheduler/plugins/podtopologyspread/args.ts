// PodTopologySpreadArgs: the plugin's configuration (defaultConstraints, defaultingType) and how a profile's pluginConfig gives it.
// See pkg/scheduler/apis/config/types_pluginargs.go and apis/config/v1/defaults.go (SetDefaults_PodTopologySpreadArgs).
import type { TopologySpreadConstraint } from 'kubernetes-types/core/v1';
import { isObject } from '../../../api/types';
import type { Handle } from '../../framework/interfaces';

/** DefaultingType says where the default constraints come from: the system's, or the args' own list. */
export const DefaultingType = {
  System: 'System',
  List: 'List',
} as const;

/** DefaultingType is one of the DefaultingType values. */
export type DefaultingType = (typeof DefaultingType)[keyof typeof DefaultingType];

/** PodTopologySpreadArgs is PodTopologySpreadArgs of kubescheduler.config.k8s.io/v1. */
export interface PodTopologySpreadArgs {
  /** defaultConstraints apply to pods that set no constraints of their own, when defaultingType is List. */
  defaultConstraints?: TopologySpreadConstraint[];
  /** defaultingType defaults to System (SetDefaults_PodTopologySpreadArgs). */
  defaultingType?: DefaultingType;
}

/** LABEL_HOSTNAME is v1.LabelHostname. */
export const LABEL_HOSTNAME = 'kubernetes.io/hostname';
/** LABEL_TOPOLOGY_ZONE is v1.LabelTopologyZone. */
export const LABEL_TOPOLOGY_ZONE = 'topology.kubernetes.io/zone';

/** SYSTEM_DEFAULT_CONSTRAINTS are systemDefaultConstraints of plugin.go: spread over hostnames (maxSkew 3) and zones (maxSkew 5), softly. */
export const SYSTEM_DEFAULT_CONSTRAINTS: readonly TopologySpreadConstraint[] = Object.freeze([
  { topologyKey: LABEL_HOSTNAME, whenUnsatisfiable: 'ScheduleAnyway', maxSkew: 3 },
  { topologyKey: LABEL_TOPOLOGY_ZONE, whenUnsatisfiable: 'ScheduleAnyway', maxSkew: 5 },
]);

/**
 * pluginArgs finds a plugin's args in the framework's profile, when the profile carries a pluginConfig: a list of
 * `{name, args}` as KubeSchedulerConfiguration writes it, or a map by plugin name. Absent args read as undefined.
 */
export function pluginArgs(handle: Handle | undefined, name: string): Record<string, unknown> | undefined {
  const profile: unknown = handle && 'profile' in handle ? (handle as { profile?: unknown }).profile : undefined;
  const config: unknown = isObject(profile) ? profile['pluginConfig'] : undefined;
  let args: unknown;
  if (Array.isArray(config)) {
    const entry: unknown = config.find((c: unknown) => isObject(c) && c['name'] === name);
    args = isObject(entry) ? entry['args'] : undefined;
  } else if (config instanceof Map) {
    args = config.get(name);
  } else if (isObject(config)) {
    args = config[name];
  }
  return isObject(args) ? args : undefined;
}

/** ResolvedSpreadArgs is what the plugin runs with: the default constraints and whether they are the system's. */
export interface ResolvedSpreadArgs {
  defaultConstraints: readonly TopologySpreadConstraint[];
  systemDefaulted: boolean;
}

/** resolvePodTopologySpreadArgs applies the v1 defaults and New's choice: System defaulting replaces the list with the system's. */
export function resolvePodTopologySpreadArgs(raw: Record<string, unknown> | undefined): ResolvedSpreadArgs {
  const args = (raw ?? {}) as PodTopologySpreadArgs;
  const defaultingType = args.defaultingType || DefaultingType.System;
  if (defaultingType === DefaultingType.System) return { defaultConstraints: SYSTEM_DEFAULT_CONSTRAINTS, systemDefaulted: true };
  return { defaultConstraints: Array.isArray(args.defaultConstraints) ? args.defaultConstraints : [], systemDefaulted: false };
}
