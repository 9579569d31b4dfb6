// The events the in-tree plugins register (EventsToRegister) and their queueing hints: which cluster changes may make a pod
// they rejected schedulable. A plugin may register its own (EnqueueExtensions); one with neither hears every event.
// See each plugin's EventsToRegister in pkg/scheduler/framework/plugins/* (1.36) and runtime/framework.go (fillEnqueueExtensions).
import type { KubeObject, Node, Pod } from '../../api/types';
import type { Framework } from '../framework/framework';
import { hasEnqueueExtensions, type ClusterEventWithHint, type Plugin, type QueueingHint, type QueueingHintFn } from '../framework/interfaces';
import { NodeInfo } from '../framework/node-info';
import { getHostPorts } from '../framework/host-ports';
import { computePodResourceRequest, fits } from '../plugins/noderesources-fit';
import { doNotScheduleTaint, findMatchingUntoleratedTaint, TAINT_NODE_UNSCHEDULABLE, tolerationsTolerateTaint } from '../framework/taints';
import { getRequiredNodeAffinity, matchRequired } from '../plugins/nodeaffinity';
import { Names } from '../plugins/names';
import { resourceListOf } from '../framework/pod-resources';
import { ActionType as A, type ClusterEvent } from './events';
import type { QueueProfile } from './queue-types';

const QUEUE: QueueingHint = 'Queue';
const SKIP: QueueingHint = 'QueueSkip';

const asNode = (o: KubeObject | undefined): Node | undefined => o as Node | undefined;
const asPod = (o: KubeObject | undefined): Pod | undefined => o as Pod | undefined;
const samePod = (a: Pod, b: Pod | undefined): boolean => b !== undefined && (a.metadata?.uid ?? a.metadata?.name) === (b.metadata?.uid ?? b.metadata?.name)
  && a.metadata?.namespace === b.metadata?.namespace;

/** targetPodUpdated queues the pod when the update is of the pod itself (its gates, its tolerations). */
const targetPodUpdated: QueueingHintFn = (pod, _old, newObj) => (samePod(pod, asPod(newObj)) ? QUEUE : SKIP);

/** nodeNameMatches is NodeName's hint: a node added with the name the pod asks for. */
const nodeNameMatches: QueueingHintFn = (pod, _old, newObj) => (asNode(newObj)?.metadata?.name === pod.spec?.nodeName ? QUEUE : SKIP);

/** nodeBecameSchedulable is NodeUnschedulable's hint: the node now takes pods, or the pod tolerates its unschedulable taint. */
const nodeBecameSchedulable: QueueingHintFn = (pod, oldObj, newObj) => {
  const node = asNode(newObj);
  if (!node) return SKIP;
  const tolerates = tolerationsTolerateTaint(pod.spec?.tolerations, { key: TAINT_NODE_UNSCHEDULABLE, effect: 'NoSchedule' });
  if (node.spec?.unschedulable && !tolerates) return SKIP;
  const old = asNode(oldObj);
  return old === undefined || (old.spec?.unschedulable ?? false) ? QUEUE : SKIP;
};

/** taintsNowTolerated is TaintToleration's hint: the node's NoSchedule/NoExecute taints were not all tolerated and now are. */
const taintsNowTolerated: QueueingHintFn = (pod, oldObj, newObj) => {
  const node = asNode(newObj);
  if (!node) return SKIP;
  const untolerated = (n: Node): boolean => findMatchingUntoleratedTaint(n.spec?.taints, pod.spec?.tolerations, doNotScheduleTaint) !== undefined;
  const old = asNode(oldObj);
  const was = old === undefined ? true : untolerated(old);
  return was && !untolerated(node) ? QUEUE : SKIP;
};

/** affinityNowMatches is NodeAffinity's hint: the node matches the pod's required affinity and did not before. */
const affinityNowMatches: QueueingHintFn = (pod, oldObj, newObj) => {
  const node = asNode(newObj);
  if (!node) return SKIP;
  const required = getRequiredNodeAffinity(pod);
  if (!matchRequired(required, node)) return SKIP;
  const old = asNode(oldObj);
  return old === undefined || !matchRequired(required, old) ? QUEUE : SKIP;
};

/**
 * fitAfterNodeChange is NodeResourcesFit's node hint: the pod must fit the (empty) node, and an update must have raised
 * the allocatable of something the pod requests.
 */
const fitAfterNodeChange: QueueingHintFn = (pod, oldObj, newObj) => {
  const node = asNode(newObj);
  if (!node || fits(pod, new NodeInfo(node)).length > 0) return SKIP;
  const old = asNode(oldObj);
  return old === undefined || requestedResourcesIncreased(pod, old, node) ? QUEUE : SKIP;
};

/** requestedResourcesIncreased is haveAnyRequestedResourcesIncreased: more pods allowed, or more of a requested resource. */
function requestedResourcesIncreased(pod: Pod, oldNode: Node, newNode: Node): boolean {
  const before = resourceListOf(oldNode.status?.allocatable);
  const after = resourceListOf(newNode.status?.allocatable);
  if ((after.get('pods') ?? 0) > (before.get('pods') ?? 0)) return true;
  const req = computePodResourceRequest(pod);
  const wanted: [string, number][] = [['cpu', req.milliCPU], ['memory', req.memory], ['ephemeral-storage', req.ephemeralStorage], ...req.scalar];
  return wanted.some(([name, want]) => want > 0 && (after.get(name) ?? 0) > (before.get(name) ?? 0));
}

/** fitAfterPodEvent is NodeResourcesFit's pod hint: a deleted pod that had a node (or a nomination) frees room; a scale-down too. */
const fitAfterPodEvent: QueueingHintFn = (_pod, oldObj, newObj) => {
  const deleted = asPod(oldObj);
  if (newObj === undefined) return deleted?.spec?.nodeName || deleted?.status?.nominatedNodeName ? QUEUE : SKIP;
  return asPod(newObj)?.spec?.nodeName ? QUEUE : SKIP;
};

/** portsFreed is NodePorts' pod hint: a deleted pod with a node used host ports the pod wants. */
const portsFreed: QueueingHintFn = (pod, oldObj) => {
  const deleted = asPod(oldObj);
  if (!deleted?.spec?.nodeName) return SKIP;
  const want = getHostPorts(pod);
  const used = getHostPorts(deleted);
  return want.some((w) => used.some((u) => u.hostPort === w.hostPort && (u.protocol ?? 'TCP') === (w.protocol ?? 'TCP'))) ? QUEUE : SKIP;
};

const ev = (resource: ClusterEvent['resource'], actionType: number): ClusterEvent => ({ resource, actionType });
const on = (event: ClusterEvent, hint?: QueueingHintFn): ClusterEventWithHint => (hint ? { event, hint } : { event });

const VOLUME_EVENTS: readonly ClusterEventWithHint[] = [
  on(ev('PersistentVolumeClaim', A.Add | A.Update)), on(ev('PersistentVolume', A.Add | A.Update)),
  on(ev('StorageClass', A.Add | A.Update)), on(ev('CSINode', A.Add | A.Update)), on(ev('CSIDriver', A.Update)),
  on(ev('CSIStorageCapacity', A.Add | A.Update)), on(ev('Node', A.Add | A.UpdateNodeLabel | A.UpdateNodeTaint)),
];

/**
 * IN_TREE_EVENTS is what each in-tree plugin registers. The node and pod hints follow the plugins' own; the volume,
 * topology and DRA plugins are given their events with a plain Queue (their hints look deeper than this table does).
 */
export const IN_TREE_EVENTS: Readonly<Record<string, readonly ClusterEventWithHint[]>> = {
  [Names.SchedulingGates]: [on(ev('Pod', A.UpdatePodSchedulingGatesEliminated), targetPodUpdated)],
  [Names.NodeUnschedulable]: [on(ev('Node', A.Add | A.UpdateNodeTaint), nodeBecameSchedulable), on(ev('Pod', A.UpdatePodToleration), targetPodUpdated)],
  [Names.NodeName]: [on(ev('Node', A.Add), nodeNameMatches)],
  [Names.TaintToleration]: [on(ev('Node', A.Add | A.UpdateNodeTaint), taintsNowTolerated), on(ev('Pod', A.UpdatePodToleration), targetPodUpdated)],
  [Names.NodeAffinity]: [on(ev('Node', A.Add | A.UpdateNodeLabel), affinityNowMatches)],
  [Names.NodePorts]: [on(ev('Pod', A.Delete), portsFreed), on(ev('Node', A.Add | A.Update))],
  [Names.NodeResourcesFit]: [
    on(ev('Pod', A.Delete | A.UpdatePodScaleDown), fitAfterPodEvent),
    on(ev('Node', A.Add | A.UpdateNodeAllocatable | A.UpdateNodeTaint | A.UpdateNodeLabel), fitAfterNodeChange),
  ],
  [Names.VolumeRestrictions]: [on(ev('Pod', A.Delete)), on(ev('PersistentVolumeClaim', A.Add | A.Update)), on(ev('Node', A.Add))],
  [Names.NodeVolumeLimits]: [on(ev('CSINode', A.Add | A.Update)), on(ev('Pod', A.Delete)), on(ev('PersistentVolumeClaim', A.Add)), on(ev('VolumeAttachment', A.Delete))],
  [Names.VolumeBinding]: [...VOLUME_EVENTS, on(ev('Pod', A.Delete))],
  [Names.VolumeZone]: [on(ev('StorageClass', A.Add)), on(ev('Node', A.Add | A.UpdateNodeLabel)), on(ev('PersistentVolumeClaim', A.Add | A.Update)), on(ev('PersistentVolume', A.Add | A.Update))],
  [Names.PodTopologySpread]: [on(ev('Pod', A.Add | A.UpdatePodLabel | A.Delete)), on(ev('Node', A.Add | A.Delete | A.UpdateNodeLabel | A.UpdateNodeTaint))],
  [Names.InterPodAffinity]: [on(ev('Pod', A.Add | A.UpdatePodLabel | A.Delete)), on(ev('Node', A.Add | A.UpdateNodeLabel))],
  [Names.DynamicResources]: [
    on(ev('ResourceClaim', A.Add | A.Update)), on(ev('ResourceSlice', A.Add | A.Update)), on(ev('DeviceClass', A.Add | A.Update)),
    on(ev('Pod', A.UpdatePodGeneratedResourceClaim)),
  ],
  [Names.DefaultPreemption]: [on(ev('Pod', A.Delete))],
};

/** ALL_EVENTS is what a plugin that says nothing hears: every event, each hinted Queue (defaultEnqueueExtension). */
export const ALL_EVENTS: readonly ClusterEventWithHint[] = [on(ev('*', A.All))];


/** queueProfileOf lists what each of a framework's PreEnqueue, PreFilter, Filter, Reserve and Permit plugins hears. */
export function queueProfileOf(fw: Framework): QueueProfile {
  const eligible = new Set<Plugin>([...fw.preEnqueuePlugins, ...fw.preFilterPlugins, ...fw.filterPlugins, ...fw.reservePlugins, ...fw.permitPlugins]);
  // Why: DefaultPreemption is a PreEnqueue plugin in 1.36 (async preemption holds the preemptor); the component plays its gate.
  const preemption = fw.plugins.get(Names.DefaultPreemption);
  if (preemption) eligible.add(preemption);
  const enqueueExtensions = [...eligible].map((p) => ({
    plugin: p.name,
    events: hasEnqueueExtensions(p) ? p.eventsToRegister() : IN_TREE_EVENTS[p.name] ?? ALL_EVENTS,
  }));
  return { schedulerName: fw.profile.schedulerName, preEnqueuePlugins: fw.preEnqueuePlugins, enqueueExtensions };
}
