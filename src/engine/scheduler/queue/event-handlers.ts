// The scheduler's event handlers: a watch event of a Node, a Pod or a volume object becomes cache updates and queue moves.
// See pkg/scheduler/eventhandlers.go (addNodeToCache, updateNodeInCache, addPodToSchedulingQueue, updatePodInSchedulingQueue,
// deletePodFromSchedulingQueue, addPodToCache, updatePodInCache, deletePodFromCache).
import type { KubeObject, Node, Pod } from '../../api/types';
import type { WatchEventType } from '../../cluster/store';
import { Events, nodeSchedulingPropertiesChange, objectEvent, podSchedulingPropertiesChange } from './events';
import { isTerminal, type SchedulerCache } from './scheduler-cache';
import { schedulerNameOf } from './queue-types';
import type { SchedulingQueue } from './scheduling-queue';

/** HandlerTarget is what the handlers feed: the cache, the queue, and which scheduler names the profiles answer to. */
export interface HandlerTarget {
  cache: SchedulerCache;
  queue: SchedulingQueue;
  /** handles tells whether a profile has the scheduler name (responsibleForPod). */
  handles(schedulerName: string): boolean;
  /** ignored is told of a new unassigned pod no profile answers to: kube-scheduler never sees it. */
  ignored(pod: Pod): void;
}

/** handleWatchEvent routes one watch event to the cache and the queue, as the scheduler's informers' handlers do. */
export function handleWatchEvent(t: HandlerTarget, type: WatchEventType, obj: KubeObject, old: KubeObject | undefined): void {
  if (obj.kind === 'Node') return onNode(t, type, obj as Node, old as Node | undefined);
  if (obj.kind === 'Pod') return onPod(t, type, obj as Pod, type === 'ADDED' ? undefined : (old as Pod | undefined));
  const event = objectEvent(String(obj.kind), type);
  if (event) t.queue.moveAllToActiveOrBackoffQueue(event, type === 'ADDED' ? undefined : old, type === 'DELETED' ? undefined : obj);
}

function onNode(t: HandlerTarget, type: WatchEventType, node: Node, old: Node | undefined): void {
  if (type === 'DELETED') {
    t.cache.removeNode(node);
    t.queue.moveAllToActiveOrBackoffQueue(Events.NodeDelete, node as KubeObject, undefined);
    return;
  }
  t.cache.addNode(node);
  if (type === 'ADDED' || !old) return t.queue.moveAllToActiveOrBackoffQueue(Events.NodeAdd, undefined, node as KubeObject);
  for (const event of nodeSchedulingPropertiesChange(node, old)) t.queue.moveAllToActiveOrBackoffQueue(event, old as KubeObject, node as KubeObject);
}

/**
 * onPod splits pods as the two pod informers do: unassigned ones this scheduler handles go to the queue, assigned ones to
 * the cache. Terminal pods are filtered out by the informer, so a pod turning Succeeded or Failed reads as deleted.
 */
function onPod(t: HandlerTarget, type: WatchEventType, pod: Pod, old: Pod | undefined): void {
  const assigned = (p: Pod | undefined): boolean => Boolean(p?.spec?.nodeName) && !isTerminal(p!);
  const mine = (p: Pod): boolean => t.handles(schedulerNameOf(p));
  if (type === 'DELETED') {
    if (assigned(pod)) assignedDeleted(t, pod);
    else if (!pod.spec?.nodeName) t.queue.delete(pod);
    return;
  }
  const wasAssigned = assigned(old);
  const isAssigned = assigned(pod);
  if (!pod.spec?.nodeName) {
    if (!mine(pod)) return type === 'ADDED' ? t.ignored(pod) : undefined;
    if (!old) return t.queue.add(pod);
    if (t.cache.isAssumed(pod)) return;
    t.queue.update(old, pod, podSchedulingPropertiesChange(pod, old));
    return;
  }
  // The pod has a node now: the unassigned informer saw it leave, the assigned one saw it arrive.
  if (old && !old.spec?.nodeName) t.queue.delete(pod);
  if (isAssigned && !wasAssigned) {
    t.cache.addPod(pod);
    t.queue.assignedPodAdded(pod);
  } else if (isAssigned && wasAssigned) {
    t.cache.addPod(pod);
    for (const event of podSchedulingPropertiesChange(pod, old!)) t.queue.assignedPodUpdated(old!, pod, event);
  } else if (!isAssigned && wasAssigned) {
    assignedDeleted(t, old!);
  }
}

function assignedDeleted(t: HandlerTarget, pod: Pod): void {
  t.cache.removePod(pod);
  t.queue.moveAllToActiveOrBackoffQueue(Events.AssignedPodDelete, pod as KubeObject, undefined);
}
