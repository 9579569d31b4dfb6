// What the scheduling queue holds and tells: a queued pod with its attempts, where it is, each move for the trace,
// and the queue's options. See pkg/scheduler/framework/types.go (QueuedPodInfo) and
// pkg/scheduler/backend/queue/scheduling_queue.go (v1.36.3).
import type { Pod } from '../../api/types';
import type { Millis } from '../../runtime/clock';
import type { ClusterEventWithHint, PreEnqueuePlugin, QueuedPodInfo as SortablePodInfo } from '../framework/interfaces';

/** QueuedPodInfo is a pod in the queue with its attempt history (framework.QueuedPodInfo). */
export interface QueuedPodInfo extends SortablePodInfo {
  key: string;
  attempts: number;
  unschedulableCount: number;
  consecutiveErrorsCount: number;
  initialAttemptTimestamp?: Millis;
  /** unschedulablePlugins rejected the last attempt (or gate the pod); pendingPlugins answered Pending. */
  unschedulablePlugins: Set<string>;
  pendingPlugins: Set<string>;
  /** gatingPlugin is the PreEnqueue plugin that keeps the pod out of activeQ, '' when none does. */
  gatingPlugin: string;
  gatingMessage: string;
}

/** QueueName names where a pod is. */
export type QueueName = 'activeQ' | 'backoffQ' | 'unschedulablePods';

/** QueueMove is one move of a pod, for the trace: where it went and the event that moved it. */
export interface QueueMove {
  pod: Pod;
  to: QueueName | 'popped' | 'removed';
  event: string;
  attempts: number;
  /** backoffUntil is when a pod sent to backoffQ completes its backoff. */
  backoffUntil?: Millis;
  /** plugins are the rejecting plugins for unschedulablePods, the gating plugin for a gated pod. */
  plugins?: string[];
  gatingMessage?: string;
  /** cause names the object whose change moved the pod (`Node/worker-3`), for moves on a cluster event. */
  cause?: string;
}

/** QueueProfile is what the queue needs of a profile: its PreEnqueue plugins and the events its plugins registered. */
export interface QueueProfile {
  schedulerName: string;
  preEnqueuePlugins: readonly PreEnqueuePlugin[];
  enqueueExtensions: readonly { plugin: string; events: readonly ClusterEventWithHint[] }[];
}

/** QueueOptions configure the queue; times are virtual milliseconds. */
export interface QueueOptions {
  now: () => Millis;
  /** less is the QueueSort plugin's order (every profile has the same). */
  less: (a: SortablePodInfo, b: SortablePodInfo) => boolean;
  profiles: readonly QueueProfile[];
  podInitialBackoff: Millis;
  podMaxBackoff: Millis;
  podMaxInUnschedulablePods?: Millis;
  /** lister reads a pod as the scheduler's informer has it (the nominator's check that it is still there, unbound). */
  lister?: (namespace: string | undefined, name: string) => Pod | undefined;
  /** extraGate is a PreEnqueue check the component adds (DefaultPreemption's "preemption still running"). */
  extraGate?: (pod: Pod) => { plugin: string; message: string } | undefined;
}

/** schedulerNameOf is a pod's spec.schedulerName, default-scheduler when unset (as API defaulting would set it). */
export function schedulerNameOf(pod: Pod): string {
  return pod.spec?.schedulerName || 'default-scheduler';
}
