// InterPodAffinityArgs: the plugin's configuration and its v1 defaults.
// See pkg/scheduler/apis/config/types_pluginargs.go and apis/config/v1/defaults.go (SetDefaults_InterPodAffinityArgs).

/** DEFAULT_HARD_POD_AFFINITY_WEIGHT is the default weight of an existing pod's required affinity term when scoring. */
export const DEFAULT_HARD_POD_AFFINITY_WEIGHT = 1;

/** InterPodAffinityArgs is InterPodAffinityArgs of kubescheduler.config.k8s.io/v1. */
export interface InterPodAffinityArgs {
  /** hardPodAffinityWeight scores the nodes near existing pods whose required affinity the incoming pod matches; default 1. */
  hardPodAffinityWeight?: number;
  /** ignorePreferredTermsOfExistingPods skips existing pods' preferred terms unless the incoming pod has preferred terms. */
  ignorePreferredTermsOfExistingPods?: boolean;
}

/** ResolvedAffinityArgs are the args with their defaults applied. */
export interface ResolvedAffinityArgs {
  hardPodAffinityWeight: number;
  ignorePreferredTermsOfExistingPods: boolean;
}

/** resolveInterPodAffinityArgs applies the v1 defaults. */
export function resolveInterPodAffinityArgs(raw: Record<string, unknown> | undefined): ResolvedAffinityArgs {
  const args = (raw ?? {}) as InterPodAffinityArgs;
  return {
    hardPodAffinityWeight: typeof args.hardPodAffinityWeight === 'number' ? args.hardPodAffinityWeight : DEFAULT_HARD_POD_AFFINITY_WEIGHT,
    ignorePreferredTermsOfExistingPods: args.ignorePreferredTermsOfExistingPods === true,
  };
}
