// Exception breakpoints: the lifecycle's own failures — a refused request, an unschedulable pod, a failing
// container, any Warning event — with what exceptionInfo says about them (reason, message, manifest field).
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { KubeEvent, TraceEntry } from '../engine/runtime/recorder';

/** ExceptionFilter names one exception breakpoint filter. */
export type ExceptionFilter = 'rejected' | 'unschedulable' | 'containerFailing' | 'warning';

/** EXCEPTION_FILTERS are the filters declared in initialize, the first three on by default (as "uncaught" ones). */
export const EXCEPTION_FILTERS: DebugProtocol.ExceptionBreakpointsFilter[] = [
  { filter: 'rejected', label: 'Request rejected', description: 'kubectl or the API server refuses the request (authentication, authorization, admission, validation)', default: true },
  { filter: 'unschedulable', label: 'Pod unschedulable', description: 'the scheduler finds no node for the pod (FailedScheduling)', default: true },
  { filter: 'containerFailing', label: 'Container failing', description: 'ErrImagePull, ImagePullBackOff, CrashLoopBackOff, a failed probe or hook', default: true },
  { filter: 'warning', label: 'Any Warning event', description: 'any Kubernetes event of type Warning', default: false },
];

/**
 * CONTAINER_FAILURE_REASONS are the kubelet's Warning reasons about a container: pkg/kubelet/events/event.go
 * (FailedToCreateContainer/FailedToStartContainer/FailedToPullImage "Failed", BackOffStartContainer/BackOffPullImage
 * "BackOff", FailedToInspectImage "InspectFailed", ErrImageNeverPullPolicy "ErrImageNeverPull", ContainerUnhealthy
 * "Unhealthy", FailedPostStartHook, FailedPreStopHook).
 */
const CONTAINER_FAILURE_REASONS = new Set(['Failed', 'BackOff', 'InspectFailed', 'ErrImageNeverPull', 'Unhealthy', 'FailedPostStartHook', 'FailedPreStopHook']);

/** ExceptionStop is one exception met: which filter caught it, and what exceptionInfo reports. */
export interface ExceptionStop {
  filter: ExceptionFilter;
  reason: string;
  message: string;
  /** field is the manifest field the lifecycle was reading when it happened. */
  field?: string;
  object?: string;
}

/** ExceptionFilters holds the enabled filters. */
export class ExceptionFilters {
  private enabled = new Set<ExceptionFilter>();

  /** set replaces the enabled filters and answers one breakpoint per known filter. */
  set(filters: readonly string[]): DebugProtocol.Breakpoint[] {
    const known = new Set(EXCEPTION_FILTERS.map((f) => f.filter));
    this.enabled = new Set(filters.filter((f): f is ExceptionFilter => known.has(f)));
    return filters.map((f) => (known.has(f) ? { verified: true } : { verified: false, message: `"${f}" is no exception filter of this debugger.` }));
  }

  /**
   * detect finds the first enabled exception an entry brings, with the events recorded since the entry before it; the
   * trace up to the entry tells which field a scheduling failure is about.
   */
  detect(entry: TraceEntry, events: readonly KubeEvent[], trace: readonly TraceEntry[] = []): ExceptionStop | undefined {
    if (this.enabled.size === 0) return undefined;
    const at = { ...(entry.field ? { field: entry.field } : {}), ...(entry.object ? { object: entry.object } : {}) };
    if (this.enabled.has('rejected') && isRejection(entry)) {
      return { filter: 'rejected', reason: rejectionReason(entry), message: entry.result, ...at };
    }
    for (const event of events) {
      if (event.type !== 'Warning') continue;
      const filter: ExceptionFilter | undefined =
        // pkg/scheduler/schedule_one.go (handleSchedulingFailure) records the Warning "FailedScheduling".
        event.reason === 'FailedScheduling' && this.enabled.has('unschedulable') ? 'unschedulable'
          : CONTAINER_FAILURE_REASONS.has(event.reason) && this.enabled.has('containerFailing') ? 'containerFailing'
            : this.enabled.has('warning') ? 'warning' : undefined;
      if (!filter) continue;
      // A pod no node fits is about the field of the filter that turned most nodes away, not the queue's entry.
      const field = filter === 'unschedulable' ? rejectingField(trace, entry.seq, event.object) : undefined;
      return { filter, reason: event.reason, message: event.message, ...at, ...(field ? { field } : {}), object: event.object };
    }
    return undefined;
  }
}

/** CYCLE_LOOKBACK bounds how far back a scheduling cycle's filter entries are looked for. */
const CYCLE_LOOKBACK = 500;

/**
 * rejectingField is the manifest field of the filter plugin that rejected the most nodes in the pod's last scheduling
 * cycle before `seq` (the later one on a tie): `Insufficient cpu` is about the container's requests, not the pod's
 * priority the queue reads. Undefined when the cycle filtered nothing out (an error, no nodes at all).
 */
function rejectingField(trace: readonly TraceEntry[], seq: number, pod: string): string | undefined {
  let best: { field: string; nodes: number } | undefined;
  for (let i = Math.min(seq, trace.length - 1); i >= 0 && i > seq - CYCLE_LOOKBACK; i--) {
    const e = trace[i]!;
    if (e.object !== pod) continue;
    // The cycle began where the queue handed the pod out.
    if (e.phase === 'scheduler.queue' && e.result.startsWith('popped from activeQ')) break;
    if (e.phase !== 'scheduler.filter' || e.step?.kind !== 'plugin' || e.outcome !== 'rejected' || e.field === undefined) continue;
    const nodes = Number(/rejected (\d+) of/.exec(e.result)?.[1] ?? 0);
    if (!best || nodes > best.nodes) best = { field: e.field, nodes };
  }
  return best?.field;
}

/** isRejection: the phase-level entry of kubectl or the API server that refuses the request. */
function isRejection(entry: TraceEntry): boolean {
  return !entry.step && (entry.outcome === 'rejected' || entry.outcome === 'failed') && /^(kubectl|apiserver|etcd)\./.test(entry.phase);
}

/** STATUS_REASONS are metav1.StatusReason by HTTP code: staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/types.go. */
const STATUS_REASONS: Record<string, string> = { 401: 'Unauthorized', 403: 'Forbidden', 404: 'NotFound', 422: 'Invalid', 500: 'InternalError', 504: 'Timeout' };

/** rejectionReason is the Status reason the refusal carries: from its detail, its HTTP status line, else by phase. */
function rejectionReason(entry: TraceEntry): string {
  const status = entry.detail.status;
  if (status && typeof status === 'object' && typeof (status as { reason?: unknown }).reason === 'string') return (status as { reason: string }).reason;
  // An HTTP status in the result (`401 Unauthorized` on kubectl's request) names the StatusReason of its code.
  const code = /\b(401|403|404|422|500|504) [A-Z]/.exec(entry.result)?.[1];
  if (code) return STATUS_REASONS[code]!;
  if (entry.phase === 'apiserver.authenticate') return 'Unauthorized';
  if (entry.phase === 'apiserver.authorize') return 'Forbidden';
  if (entry.phase === 'apiserver.validate') return 'Invalid';
  return 'Rejected';
}

/** exceptionInfo renders an exception for the exceptionInfo request. */
export function exceptionInfo(stop: ExceptionStop): DebugProtocol.ExceptionInfoResponse['body'] {
  const where = stop.field ? ` (manifest field ${stop.field})` : '';
  return {
    exceptionId: stop.reason,
    description: `${stop.message}${where}`,
    breakMode: 'always',
    details: {
      message: stop.message,
      typeName: stop.reason,
      fullTypeName: `${EXCEPTION_FILTERS.find((f) => f.filter === stop.filter)?.label ?? stop.filter}: ${stop.reason}`,
      ...(stop.field ? { evaluateName: stop.field } : {}),
      ...(stop.object ? { source: stop.object } : {}),
    },
  };
}
