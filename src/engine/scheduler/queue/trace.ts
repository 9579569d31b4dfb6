// The scheduler.queue trace: each move of a pod between activeQ, backoffQ and unschedulablePods, said in one line with
// the event that caused it. The queue logs the moves; this turns them into entries the debugger steps through.
import { refOf, type Pod } from '../../api/types';
import type { Millis } from '../../runtime/clock';
import type { TraceInput } from '../../runtime/recorder';
import type { QueueMove } from './queue-types';

const seconds = (ms: Millis): string => `${Math.round(ms) / 1000}s`;

/** moveEntry describes one queue move at `now`. */
export function moveEntry(m: QueueMove, now: Millis): TraceInput {
  const pod = m.pod;
  const gates = (pod.spec?.schedulingGates ?? []).map((g) => g.name);
  const gatedBy = m.gatingMessage !== undefined ? m.plugins?.[0] : undefined;
  const base = { phase: 'scheduler.queue' as const, object: refOf({ ...pod, kind: 'Pod' }), field: gatedBy === 'SchedulingGates' ? 'spec.schedulingGates' : 'spec.priority' };
  const on = `${m.event}${m.cause ? ` (${m.cause})` : ''}`;
  const detail: Record<string, unknown> = {
    queue: m.to, event: m.event, ...(m.cause ? { cause: m.cause } : {}), attempts: m.attempts, priority: pod.spec?.priority ?? 0,
    schedulerName: pod.spec?.schedulerName ?? '', schedulingGates: gates,
  };
  switch (m.to) {
    case 'popped':
      return { ...base, result: m.event === '' ? `popped from activeQ for attempt ${m.attempts} (priority ${pod.spec?.priority ?? 0})` : `popped from backoffQ for attempt ${m.attempts}: activeQ is empty (${m.event})`, detail };
    case 'activeQ':
      return { ...base, result: m.attempts === 0 && m.event.endsWith('PodAdd') ? `entered activeQ (${on})` : `moved to activeQ on ${on}`, detail };
    case 'backoffQ': {
      const wait = m.backoffUntil === undefined ? 0 : m.backoffUntil - now;
      return { ...base, result: `moved to backoffQ on ${on}: backing off for ${seconds(wait)} after ${m.attempts} attempt(s)`, detail: { ...detail, backoffSeconds: wait / 1000 }, outcome: 'waiting' };
    }
    case 'unschedulablePods': {
      if (m.gatingMessage !== undefined) {
        const by = m.plugins?.[0] ?? '';
        const result = by === 'SchedulingGates' ? `held by scheduling gates: ${gates.join(', ')} (PreEnqueue ${by}: ${m.gatingMessage})` : `held by PreEnqueue ${by}: ${m.gatingMessage}`;
        return { ...base, result, detail: { ...detail, gatingPlugin: by }, outcome: 'waiting' };
      }
      const plugins = m.plugins?.length ? m.plugins.join(', ') : 'no plugin';
      return { ...base, result: `moved to unschedulablePods on ${on}: waits for a cluster event ${plugins} may act on, or 5 minutes`, detail: { ...detail, unschedulablePlugins: m.plugins ?? [] }, outcome: 'waiting' };
    }
    default:
      return { ...base, result: 'left the scheduling queue (deleted, or bound)', detail };
  }
}

/** notMineEntry is the entry of a pod whose schedulerName no profile has: kube-scheduler leaves it to another scheduler. */
export function notMineEntry(pod: Pod, profiles: readonly string[]): TraceInput {
  const name = pod.spec?.schedulerName ?? '';
  return {
    phase: 'scheduler.queue', object: refOf({ ...pod, kind: 'Pod' }), field: 'spec.schedulerName',
    result: `not queued: no profile of kube-scheduler is named "${name}" (profiles: ${profiles.join(', ')}); the pod waits for that scheduler`,
    detail: { schedulerName: name, profiles: [...profiles] }, outcome: 'waiting',
  };
}
