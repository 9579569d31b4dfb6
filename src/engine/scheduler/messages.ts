// The scheduler's words: the FitError message of FailedScheduling events and PodScheduled conditions, and the Scheduled event.
// See pkg/scheduler/framework/types.go (FitError.Error) and pkg/scheduler/schedule_one.go (handleSchedulingFailure, finishBinding).
import { compareGoStrings } from '../api/go-json';
import type { Pod } from '../api/types';
import type { FitError } from './framework/diagnosis';

/** EventReason lists the reasons of the scheduler's events. */
export const EventReason = {
  Scheduled: 'Scheduled',
  FailedScheduling: 'FailedScheduling',
} as const;

/** PodScheduledReason lists the reasons of a PodScheduled=False condition (v1.PodReasonUnschedulable, PodReasonSchedulerError). */
export const PodScheduledReason = {
  Unschedulable: 'Unschedulable',
  SchedulerError: 'SchedulerError',
} as const;

/** SCHEDULER_COMPONENT is the source of the scheduler's events. */
export const SCHEDULER_COMPONENT = 'default-scheduler';

/** NOTE_LENGTH_LIMIT is the longest event message; longer ones are truncated (validation.NoteLengthLimit). */
export const NOTE_LENGTH_LIMIT = 1024;

/**
 * fitErrorMessage is FitError.Error(): "0/N nodes are available: <PreFilterMsg>. <count reason, ...>. <PostFilterMsg>".
 * Reasons are counted per node and sorted as strings, counts included; nodes without a status count the absent status's reasons.
 */
export function fitErrorMessage(f: FitError): string {
  let msg = `0/${f.numAllNodes} nodes are available:`;
  const d = f.diagnosis;
  if (d.preFilterMsg !== '') {
    msg += ` ${d.preFilterMsg}.`;
  } else {
    const reasons = new Map<string, number>();
    const count = (reason: string, n: number): void => void reasons.set(reason, (reasons.get(reason) ?? 0) + n);
    for (const [, status] of d.nodeToStatus.entries()) for (const r of status.reasons) count(r, 1);
    const absent = f.numAllNodes - d.nodeToStatus.size;
    if (absent > 0) for (const r of d.nodeToStatus.absentNodesStatus().reasons) count(r, absent);
    const sorted = [...reasons].map(([reason, n]) => `${n} ${reason}`).sort(compareGoStrings);
    if (sorted.length > 0) msg += ` ${sorted.join(', ')}.`;
  }
  if (d.postFilterMsg !== '') msg += ` ${d.postFilterMsg}`;
  return msg;
}

/** truncateMessage cuts an event message to the note length limit, ending it with " ...". */
export function truncateMessage(message: string): string {
  if (message.length <= NOTE_LENGTH_LIMIT) return message;
  const suffix = ' ...';
  return message.slice(0, NOTE_LENGTH_LIMIT - suffix.length) + suffix;
}

/** scheduledMessage is the Scheduled event's message: `Successfully assigned default/web to worker-1`. */
export function scheduledMessage(pod: Pod, nodeName: string): string {
  return `Successfully assigned ${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''} to ${nodeName}`;
}
