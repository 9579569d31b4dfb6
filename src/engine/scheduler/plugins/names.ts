// The names of kube-scheduler's in-tree plugins, as profiles and registries write them.
// See pkg/scheduler/framework/plugins/names/names.go.

/** Names lists the in-tree plugin names. */
export const Names = {
  PrioritySort: 'PrioritySort',
  DefaultBinder: 'DefaultBinder',
  DefaultPreemption: 'DefaultPreemption',
  DynamicResources: 'DynamicResources',
  ImageLocality: 'ImageLocality',
  InterPodAffinity: 'InterPodAffinity',
  NodeAffinity: 'NodeAffinity',
  NodeName: 'NodeName',
  NodePorts: 'NodePorts',
  NodeResourcesBalancedAllocation: 'NodeResourcesBalancedAllocation',
  NodeResourcesFit: 'NodeResourcesFit',
  NodeUnschedulable: 'NodeUnschedulable',
  NodeVolumeLimits: 'NodeVolumeLimits',
  PodTopologySpread: 'PodTopologySpread',
  SchedulingGates: 'SchedulingGates',
  TaintToleration: 'TaintToleration',
  VolumeBinding: 'VolumeBinding',
  VolumeRestrictions: 'VolumeRestrictions',
  VolumeZone: 'VolumeZone',
} as const;
