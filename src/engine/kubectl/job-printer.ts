// The STATUS, COMPLETIONS and DURATION columns of `kubectl get jobs`, computed as the server-side table printer does.
// See pkg/printers/internalversion/printers.go (printJob).
import type { KubeObject } from '../api/types';
import { humanDuration } from './printer';

/** JobColumns are the columns of one `kubectl get jobs` row that speak of the Job's state. */
export interface JobColumns {
  status: string;
  completions: string;
  duration: string;
}

interface PrintedJob {
  spec?: { completions?: number | null; parallelism?: number | null };
  status?: { succeeded?: number; startTime?: string; completionTime?: string; conditions?: { type: string; status: string }[] };
}

/**
 * jobColumns is printJob: COMPLETIONS "succeeded/completions", or without completions "succeeded/1" (with " of
 * parallelism" above 1); STATUS Complete, Failed, Terminating, Suspended, FailureTarget, SuccessCriteriaMet, else Running (the first that
 * holds; hasJobCondition looks at True conditions); DURATION from startTime to completionTime, or to now.
 */
export function jobColumns(job: KubeObject, now: number, epoch = 0): JobColumns {
  const { spec = {}, status = {} } = job as PrintedJob;
  const succeeded = status.succeeded ?? 0;
  let completions: string;
  if (spec.completions !== undefined && spec.completions !== null) completions = `${succeeded}/${spec.completions}`;
  else completions = (spec.parallelism ?? 0) > 1 ? `${succeeded}/1 of ${spec.parallelism}` : `${succeeded}/1`;
  // hasJobCondition: the first condition of the type decides.
  const has = (type: string) => (status.conditions ?? []).find((c) => c.type === type)?.status === 'True';
  let state = 'Running';
  if (has('Complete')) state = 'Complete';
  else if (has('Failed')) state = 'Failed';
  else if (job.metadata?.deletionTimestamp) state = 'Terminating';
  else if (has('Suspended')) state = 'Suspended';
  else if (has('FailureTarget')) state = 'FailureTarget';
  else if (has('SuccessCriteriaMet')) state = 'SuccessCriteriaMet';
  const at = (t: string | undefined) => (t ? Date.parse(t) - epoch : undefined);
  const start = at(status.startTime);
  const end = at(status.completionTime) ?? now;
  return { status: state, completions, duration: start === undefined ? '' : humanDuration(end - start) };
}
