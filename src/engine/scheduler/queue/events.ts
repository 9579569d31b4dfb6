// Cluster events: what changed in the cluster, in the scheduling queue's words (NodeAdd, AssignedPodDelete...), and how a
// watch event of a Node or Pod becomes them. See staging/src/k8s.io/kube-scheduler/framework/types.go (ActionType,
// EventResource, ClusterEvent) and pkg/scheduler/framework/events.go (NodeSchedulingPropertiesChange, PodSchedulingPropertiesChange).
import type { KubeObject, Node, Pod } from '../../api/types';

/** ActionType is a bit set of what happened to an object (fwk.ActionType). */
export const ActionType = {
  Add: 1 << 0,
  Delete: 1 << 1,
  UpdateNodeAllocatable: 1 << 2,
  UpdateNodeLabel: 1 << 3,
  UpdateNodeTaint: 1 << 4,
  UpdateNodeCondition: 1 << 5,
  UpdateNodeAnnotation: 1 << 6,
  UpdatePodLabel: 1 << 7,
  UpdatePodScaleDown: 1 << 8,
  UpdatePodToleration: 1 << 9,
  UpdatePodSchedulingGatesEliminated: 1 << 10,
  UpdatePodGeneratedResourceClaim: 1 << 11,
  /** UpdatePodOther is a pod update none of the other bits describes (a status change, for one). */
  UpdatePodOther: 1 << 12,
  /** Update is any update: an object whose updates are not told apart (a PVC, a StorageClass) gets this. */
  Update: ((1 << 13) - 1) & ~((1 << 0) | (1 << 1)),
  All: (1 << 13) - 1,
} as const;

const ACTION_NAMES: readonly [number, string][] = [
  [ActionType.All, 'All'], [ActionType.Update, 'Update'], [ActionType.Add, 'Add'], [ActionType.Delete, 'Delete'],
  [ActionType.UpdateNodeAllocatable, 'UpdateNodeAllocatable'], [ActionType.UpdateNodeLabel, 'UpdateNodeLabel'],
  [ActionType.UpdateNodeTaint, 'UpdateNodeTaint'], [ActionType.UpdateNodeCondition, 'UpdateNodeCondition'],
  [ActionType.UpdateNodeAnnotation, 'UpdateNodeAnnotation'], [ActionType.UpdatePodLabel, 'UpdatePodLabel'],
  [ActionType.UpdatePodScaleDown, 'UpdatePodScaleDown'], [ActionType.UpdatePodToleration, 'UpdatePodToleration'],
  [ActionType.UpdatePodSchedulingGatesEliminated, 'UpdatePodSchedulingGatesEliminated'],
  [ActionType.UpdatePodGeneratedResourceClaim, 'UpdatePodGeneratedResourceClaim'], [ActionType.UpdatePodOther, 'Update'],
];

/**
 * EventResource is the kind of object an event is about. `AssignedPod` and `UnschedulablePod` split Pod events by
 * whether the pod has a node; a plugin that registers `Pod` hears both. `*` is the wildcard of the timeout and activation events.
 */
export type EventResource =
  | 'Pod' | 'AssignedPod' | 'UnschedulablePod' | 'Node' | 'PersistentVolume' | 'PersistentVolumeClaim' | 'StorageClass'
  | 'CSINode' | 'CSIDriver' | 'CSIStorageCapacity' | 'VolumeAttachment' | 'ResourceClaim' | 'ResourceSlice' | 'DeviceClass' | '*';

/** ClusterEvent is one kind of change: a resource and the actions; `label` names the special ones. */
export interface ClusterEvent {
  readonly resource: EventResource;
  readonly actionType: number;
  readonly label?: string;
}

/** QueueLabel names the queue's own moves, which are not cluster events (framework.ScheduleAttemptFailure, ...). */
export const QueueLabel = {
  ScheduleAttemptFailure: 'ScheduleAttemptFailure',
  BackoffComplete: 'BackoffComplete',
  PopFromBackoffQ: 'PopFromBackoffQ',
  ForceActivate: 'ForceActivate',
  UnschedulableTimeout: 'UnschedulableTimeout',
} as const;

/** Events lists the fixed events the scheduler's handlers send. */
export const Events = {
  NodeAdd: { resource: 'Node', actionType: ActionType.Add },
  NodeDelete: { resource: 'Node', actionType: ActionType.Delete },
  AssignedPodAdd: { resource: 'AssignedPod', actionType: ActionType.Add },
  AssignedPodDelete: { resource: 'AssignedPod', actionType: ActionType.Delete },
  UnscheduledPodAdd: { resource: 'UnschedulablePod', actionType: ActionType.Add },
  UnscheduledPodUpdate: { resource: 'UnschedulablePod', actionType: ActionType.Update },
  UnschedulableTimeout: { resource: '*', actionType: ActionType.All, label: QueueLabel.UnschedulableTimeout },
  ForceActivate: { resource: '*', actionType: ActionType.All, label: QueueLabel.ForceActivate },
} as const satisfies Record<string, ClusterEvent>;

/** actionName prints an action type as Go's ActionType.String does for a single bit, or the known combinations. */
export function actionName(action: number): string {
  const exact = ACTION_NAMES.find(([bits]) => bits === action);
  if (exact) return exact[1];
  return ACTION_NAMES.filter(([bits, name]) => name !== 'All' && name !== 'Update' && (bits & action) === bits).map(([, n]) => n).join('|');
}

/** eventLabel is ClusterEvent.Label(): the custom label, else the resource then the action (`NodeAdd`, `AssignedPodDelete`). */
export function eventLabel(e: ClusterEvent): string {
  return e.label ?? `${e.resource === '*' ? 'WildCard' : e.resource}${actionName(e.actionType)}`;
}

/** isWildCard tells the events that match every registration (UnschedulableTimeout, ForceActivate). */
export function isWildCard(e: ClusterEvent): boolean {
  return e.resource === '*' && e.actionType === ActionType.All;
}

/** matchClusterEvents tells whether an event a plugin registered (`registered`) covers an event that happened. */
export function matchClusterEvents(registered: ClusterEvent, event: ClusterEvent): boolean {
  if (registered.resource === '*') return true;
  const sameResource = registered.resource === event.resource
    || (registered.resource === 'Pod' && (event.resource === 'AssignedPod' || event.resource === 'UnschedulablePod'));
  return sameResource && (registered.actionType & event.actionType) !== 0;
}

/** matchAnyClusterEvent tells whether any of the registered events covers the event. */
export function matchAnyClusterEvent(event: ClusterEvent, registered: readonly ClusterEvent[]): boolean {
  return registered.some((r) => matchClusterEvents(r, event));
}

const json = (v: unknown): string => JSON.stringify(v ?? null);
/** differ tells two values apart by content; the same object (a status write keeps the spec and labels) is not read. */
const differ = (a: unknown, b: unknown): boolean => a !== b && json(a) !== json(b);

/**
 * nodeSchedulingPropertiesChange is NodeSchedulingPropertiesChange: one event per kind of change that matters to
 * scheduling. spec.unschedulable counts as a taint change, as the scheduler sees it through the unschedulable taint.
 */
export function nodeSchedulingPropertiesChange(newNode: Node, oldNode: Node): ClusterEvent[] {
  const changes: number[] = [];
  if ((newNode.spec?.unschedulable ?? false) !== (oldNode.spec?.unschedulable ?? false)) changes.push(ActionType.UpdateNodeTaint);
  if (differ(newNode.status?.allocatable, oldNode.status?.allocatable)) changes.push(ActionType.UpdateNodeAllocatable);
  if (differ(newNode.metadata?.labels, oldNode.metadata?.labels)) changes.push(ActionType.UpdateNodeLabel);
  if (differ(newNode.spec?.taints, oldNode.spec?.taints)) changes.push(ActionType.UpdateNodeTaint);
  if (json(conditionStatuses(newNode)) !== json(conditionStatuses(oldNode))) changes.push(ActionType.UpdateNodeCondition);
  if (differ(newNode.metadata?.annotations, oldNode.metadata?.annotations)) changes.push(ActionType.UpdateNodeAnnotation);
  return [...new Set(changes)].map((actionType) => ({ resource: 'Node', actionType }));
}

/** conditionStatuses is what extractNodeConditionsChange compares: each condition's type and status, heartbeats aside. */
function conditionStatuses(node: Node): Record<string, string> {
  return Object.fromEntries((node.status?.conditions ?? []).map((c) => [c.type, c.status]));
}

/**
 * podSchedulingPropertiesChange is PodSchedulingPropertiesChange: labels, a scale-down of requests, the last scheduling
 * gate removed, tolerations; anything else is UpdatePodOther. The resource says whether the new pod has a node.
 */
export function podSchedulingPropertiesChange(newPod: Pod, oldPod: Pod): ClusterEvent[] {
  const resource: EventResource = newPod.spec?.nodeName ? 'AssignedPod' : 'UnschedulablePod';
  const changes: number[] = [];
  if (differ(newPod.metadata?.labels, oldPod.metadata?.labels)) changes.push(ActionType.UpdatePodLabel);
  if (scaledDown(newPod, oldPod)) changes.push(ActionType.UpdatePodScaleDown);
  if ((newPod.spec?.schedulingGates ?? []).length === 0 && (oldPod.spec?.schedulingGates ?? []).length > 0) changes.push(ActionType.UpdatePodSchedulingGatesEliminated);
  if (differ(newPod.spec?.tolerations, oldPod.spec?.tolerations)) changes.push(ActionType.UpdatePodToleration);
  if (changes.length === 0) changes.push(ActionType.UpdatePodOther);
  return changes.map((actionType) => ({ resource, actionType }));
}

/** scaledDown tells a resize that lowered a container's requests (extractPodScaleDown, on the spec as resized). */
function scaledDown(newPod: Pod, oldPod: Pod): boolean {
  if (newPod.spec?.containers === oldPod.spec?.containers) return false;
  const requests = (p: Pod): string[] => (p.spec?.containers ?? []).map((c) => json(c.resources?.requests));
  const a = requests(newPod);
  const b = requests(oldPod);
  return a.length === b.length && a.some((r, i) => r !== b[i]);
}

/** objectEvent is the event of a watch event on a kind the scheduler hears about only as Add, Update or Delete. */
export function objectEvent(kind: string, type: 'ADDED' | 'MODIFIED' | 'DELETED'): ClusterEvent | undefined {
  const resource = OTHER_RESOURCES.get(kind);
  if (!resource) return undefined;
  const actionType = type === 'ADDED' ? ActionType.Add : type === 'DELETED' ? ActionType.Delete : ActionType.Update;
  return { resource, actionType };
}

const OTHER_RESOURCES: ReadonlyMap<string, EventResource> = new Map<string, EventResource>([
  ['PersistentVolume', 'PersistentVolume'], ['PersistentVolumeClaim', 'PersistentVolumeClaim'], ['StorageClass', 'StorageClass'],
  ['CSINode', 'CSINode'], ['CSIDriver', 'CSIDriver'], ['CSIStorageCapacity', 'CSIStorageCapacity'], ['VolumeAttachment', 'VolumeAttachment'],
  ['ResourceClaim', 'ResourceClaim'], ['ResourceSlice', 'ResourceSlice'], ['DeviceClass', 'DeviceClass'],
]);

/** EventObjects are the old and new objects of an event, as the queueing hints get them (either may be absent). */
export interface EventObjects {
  oldObj?: KubeObject | undefined;
  newObj?: KubeObject | undefined;
}
