// The Job controller and the TTL-after-finished controller: pods up to parallelism until completions succeed, the
// pod-failure back-off, backoffLimit and activeDeadlineSeconds, the terminal conditions, and the Job's deletion
// ttlSecondsAfterFinished after it finished. See pkg/controller/job/{job_controller.go,backoff_utils.go} and
// pkg/controller/ttlafterfinished/ttlafterfinished_controller.go.
import type { KubeObject, Pod } from '../api/types';
import type { ApiServer } from '../apiserver/server';
import type { EngineContext } from '../context';
import type { Millis } from '../runtime/clock';
import type { Steps } from '../runtime/step';
import { ControllerClient } from './client';
import { asObject, controlledPods, isPodReady, isPodTerminal, timeOf } from './pods';
import { createPods, deletePods, k8sEqual, podFromTemplate } from './replicaset';

/** JOB_CONTROLLER and TTL_AFTER_FINISHED_CONTROLLER are the sources of their events and their service accounts. */
export const JOB_CONTROLLER = 'job-controller';
export const TTL_AFTER_FINISHED_CONTROLLER = 'ttl-after-finished-controller';

/** JOB_TRACKING_FINALIZER keeps a finished pod until the controller has counted it (batch.JobTrackingFinalizer). */
export const JOB_TRACKING_FINALIZER = 'batch.kubernetes.io/job-tracking';

/** The pod-failure back-off: 10 s, doubling with each failure after the last success, at most 10 min (backoff_utils.go). */
export const DEFAULT_JOB_POD_FAILURE_BACKOFF_MS = 10_000;
export const MAX_JOB_POD_FAILURE_BACKOFF_MS = 10 * 60_000;

/** JOB_SYNC_BATCH_PERIOD_MS batches the syncs that pod events ask for (syncJobBatchPeriod). */
export const JOB_SYNC_BATCH_PERIOD_MS = 1000;

/** MAX_POD_CREATE_DELETE_PER_SYNC caps one sync's creations (MaxPodCreateDeletePerSync). */
const MAX_POD_CREATE_DELETE_PER_SYNC = 500;

/**
 * Reasons and messages of the Job's conditions and events: pkg/controller/job/job_controller.go syncJob
 * (newFailureCondition with JobReasonBackoffLimitExceeded / JobReasonDeadlineExceeded) and newSuccessCondition
 * (JobReasonCompletionsReached), first as the interim FailureTarget / SuccessCriteriaMet, then copied into Failed /
 * Complete (newFailedConditionForFailureTarget); recordJobFinished's events. Reasons: pkg/apis/batch/types.go.
 */
export const JOB_MESSAGES = {
  completionsReached: { reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods' },
  backoffLimitExceeded: { reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' },
  deadlineExceeded: { reason: 'DeadlineExceeded', message: 'Job was active longer than specified deadline' },
} as const;

interface JobCondition {
  type: string;
  status: string;
  lastProbeTime: string;
  lastTransitionTime: string;
  reason: string;
  message: string;
}

interface JobStatus {
  active?: number;
  ready?: number;
  terminating?: number;
  succeeded?: number;
  failed?: number;
  startTime?: string;
  completionTime?: string;
  uncountedTerminatedPods?: Record<string, never>;
  conditions?: JobCondition[];
}

interface JobSpec {
  parallelism?: number;
  completions?: number;
  backoffLimit?: number;
  activeDeadlineSeconds?: number;
  ttlSecondsAfterFinished?: number;
  suspend?: boolean;
  template?: { metadata?: Pod['metadata']; spec?: Pod['spec'] };
}

type Job = KubeObject & { spec?: JobSpec; status?: JobStatus };

/** finishedCondition is the Job's Complete or Failed condition when it is True. */
export function finishedCondition(job: KubeObject): JobCondition | undefined {
  return ((job['status'] as JobStatus | undefined)?.conditions ?? []).find((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
}

function condition(type: string, m: { reason: string; message: string }, now: string): JobCondition {
  return { type, status: 'True', lastProbeTime: now, lastTransitionTime: now, reason: m.reason, message: m.message };
}

/** finishedAt is getFinishedTime: the last container's finishedAt, else now. */
function finishedAt(ctx: EngineContext, pod: Pod): Millis {
  const times = [...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? [])]
    .map((s) => timeOf(ctx.clock, s.state?.terminated?.finishedAt)).filter((t): t is number => t !== undefined);
  return times.length ? Math.max(...times) : ctx.clock.now;
}

/**
 * backoffRemaining is the back-off record's getRemainingTime: failures since the last success give 10 s doubled
 * (failures - 1) times, at most 10 min, counted from the last failure.
 */
function backoffRemaining(ctx: EngineContext, pods: readonly Pod[]): Millis {
  const lastSuccess = Math.max(-Infinity, ...pods.filter((p) => p.status?.phase === 'Succeeded').map((p) => finishedAt(ctx, p)));
  const failures = pods.filter((p) => p.status?.phase === 'Failed' && finishedAt(ctx, p) > lastSuccess);
  if (failures.length === 0) return 0;
  let backoff = DEFAULT_JOB_POD_FAILURE_BACKOFF_MS;
  for (let i = 1; i < failures.length; i++) backoff = Math.min(backoff * 2, MAX_JOB_POD_FAILURE_BACKOFF_MS);
  const lastFailure = Math.max(...failures.map((p) => finishedAt(ctx, p)));
  return backoff - (ctx.clock.now - lastFailure);
}

/** pastBackoffLimitOnFailure: with restartPolicy OnFailure, the active pods' container restarts reach backoffLimit. */
function pastBackoffLimitOnFailure(job: Job, active: readonly Pod[]): boolean {
  if (job.spec?.template?.spec?.restartPolicy !== 'OnFailure') return false;
  const restarts = active.reduce((n, p) => n + [...(p.status?.initContainerStatuses ?? []), ...(p.status?.containerStatuses ?? [])].reduce((m, s) => m + (s.restartCount ?? 0), 0), 0);
  const limit = job.spec?.backoffLimit ?? 6;
  return limit === 0 ? restarts > 0 : restarts >= limit;
}

/** syncJob is the Job controller's syncJob for one Job (phase controllers.job); it returns when to sync again. */
export function* syncJob(ctx: EngineContext, api: ApiServer, namespace: string, name: string): Steps<Millis | void> {
  let job = ctx.store.get<Job>('Job', namespace, name);
  if (!job || job.metadata?.deletionTimestamp || finishedCondition(job)) return;
  const ref = `Job/${namespace}/${name}`;
  const client = new ControllerClient(api, JOB_CONTROLLER);
  const now = ctx.clock.timestamp();
  const spec = job.spec ?? {};
  const old = job.status ?? {};
  // Count the pods that finished since the last sync and release them (trackJobStatusAndRemoveFinalizers).
  let succeeded = old.succeeded ?? 0;
  let failed = old.failed ?? 0;
  for (const pod of controlledPods(ctx.store.list<Pod>('Pod', namespace), job.metadata?.uid)) {
    if (!isPodTerminal(pod) || !(pod.metadata?.finalizers ?? []).includes(JOB_TRACKING_FINALIZER)) continue;
    if (pod.status?.phase === 'Succeeded') succeeded++;
    else failed++;
    yield* releasePod(ctx, pod);
    yield { phase: 'controllers.job', object: ref, step: { kind: 'object', name: pod.metadata?.name ?? '' }, result: `counted pod ${pod.metadata?.name} as ${pod.status?.phase === 'Succeeded' ? 'succeeded' : 'failed'}; removed its ${JOB_TRACKING_FINALIZER} finalizer`, detail: { succeeded, failed } };
  }
  const pods = () => controlledPods(ctx.store.list<Pod>('Pod', namespace), job!.metadata?.uid);
  let active = pods().filter((p) => !isPodTerminal(p) && !p.metadata?.deletionTimestamp);
  const startTime = old.startTime ?? (spec.suspend ? undefined : now);
  let conditions = [...(old.conditions ?? [])];
  let requeue: Millis | undefined;
  const backoffLimit = spec.backoffLimit ?? 6;
  let failure = conditions.find((c) => c.type === 'FailureTarget' && c.status === 'True');
  if (!failure) {
    if (failed > backoffLimit || pastBackoffLimitOnFailure(job, active)) failure = condition('FailureTarget', JOB_MESSAGES.backoffLimitExceeded, now);
    else if (spec.activeDeadlineSeconds !== undefined && startTime && ctx.clock.now - (timeOf(ctx.clock, startTime) ?? 0) >= spec.activeDeadlineSeconds * 1000) {
      failure = condition('FailureTarget', JOB_MESSAGES.deadlineExceeded, now);
    } else if (spec.activeDeadlineSeconds !== undefined && startTime) {
      requeue = (timeOf(ctx.clock, startTime) ?? 0) + spec.activeDeadlineSeconds * 1000 - ctx.clock.now;
    }
    if (failure) {
      conditions = [...conditions, failure];
      yield { phase: 'controllers.job', object: ref, field: failure.reason === 'DeadlineExceeded' ? 'spec.activeDeadlineSeconds' : 'spec.backoffLimit', result: `FailureTarget: ${failure.message} (${failed} failed, backoffLimit ${backoffLimit})`, detail: { failed, backoffLimit }, outcome: 'failed' };
    }
  }
  let success = conditions.find((c) => c.type === 'SuccessCriteriaMet' && c.status === 'True');
  if (failure) {
    // A failing Job deletes its active pods (deleteActivePods) and fails once none is left terminating.
    if (active.length) yield* deletePods(ctx, client, job, active, 'controllers.job', JOB_CONTROLLER, failure.reason);
    active = [];
  } else if (!success) {
    const parallelism = spec.parallelism ?? 1;
    let wantActive: number;
    if (spec.completions === undefined || spec.completions === null) wantActive = succeeded > 0 ? active.length : parallelism;
    else wantActive = Math.max(0, Math.min(spec.completions - succeeded, parallelism));
    if (spec.suspend) wantActive = 0;
    const complete = spec.completions === undefined || spec.completions === null ? succeeded > 0 && active.length === 0 : succeeded >= spec.completions && active.length === 0;
    if (complete) {
      success = condition('SuccessCriteriaMet', JOB_MESSAGES.completionsReached, now);
      conditions = [...conditions, success];
      yield { phase: 'controllers.job', object: ref, field: 'spec.completions', result: `SuccessCriteriaMet: ${succeeded} of ${spec.completions ?? 1} completions succeeded`, detail: { succeeded, completions: spec.completions ?? null } };
    } else if (active.length > wantActive) {
      yield* deletePods(ctx, client, job, active.slice(0, active.length - wantActive), 'controllers.job', JOB_CONTROLLER, `too many active pods (want ${wantActive})`);
      active = active.slice(active.length - wantActive);
    } else if (active.length < wantActive) {
      const wait = backoffRemaining(ctx, pods());
      if (wait > 0) {
        requeue = Math.min(requeue ?? Infinity, wait);
        yield { phase: 'controllers.job', object: ref, field: 'spec.backoffLimit', result: `pod failure back-off: the next pod in ${wait / 1000}s (${failed} failed so far, backoffLimit ${backoffLimit})`, detail: { backoffMs: wait, failed } };
      } else {
        const diff = Math.min(wantActive - active.length, MAX_POD_CREATE_DELETE_PER_SYNC);
        yield { phase: 'controllers.job', object: ref, field: 'spec.parallelism', result: `${active.length} active, ${succeeded} succeeded of ${spec.completions ?? '-'} completions, parallelism ${parallelism}: creating ${diff}`, detail: { active: active.length, succeeded, failed, wantActive, creating: diff } };
        const template = { ...spec.template, metadata: { ...spec.template?.metadata, finalizers: [...(spec.template?.metadata?.finalizers ?? []).filter((f) => f !== JOB_TRACKING_FINALIZER), JOB_TRACKING_FINALIZER] } };
        yield* createPods(ctx, client, job, diff, () => podFromTemplate(job!, template), 'controllers.job', JOB_CONTROLLER);
        active = pods().filter((p) => !isPodTerminal(p) && !p.metadata?.deletionTimestamp);
      }
    }
  }
  const all = pods();
  const terminating = all.filter((p) => p.metadata?.deletionTimestamp && !isPodTerminal(p)).length;
  let completionTime = old.completionTime;
  let finished: JobCondition | undefined;
  // enactJobFinished: the terminal condition once no pod is left active or terminating.
  if ((failure || success) && terminating === 0 && active.length === 0) {
    finished = failure ? condition('Failed', failure, now) : condition('Complete', success!, now);
    conditions = [...conditions, finished];
    if (!failure) completionTime = now;
  }
  const status: JobStatus = {
    ...(active.length ? { active: active.length } : {}),
    ...(succeeded ? { succeeded } : {}), ...(failed ? { failed } : {}),
    ...(startTime ? { startTime } : {}), ...(completionTime ? { completionTime } : {}),
    ready: active.filter(isPodReady).length, terminating, uncountedTerminatedPods: {},
    ...(conditions.length ? { conditions } : {}),
  };
  if (!k8sEqual(status, old)) {
    job = ctx.store.update<Job>('Job', namespace, name, (o) => { o['status'] = status; }) ?? job;
    yield { phase: 'controllers.job', object: ref, field: 'status', result: `status: ${status.active ?? 0} active, ${status.ready} ready, ${status.succeeded ?? 0} succeeded, ${status.failed ?? 0} failed${finished ? `; ${finished.type} (${finished.reason})` : ''}`, detail: { status } };
  }
  if (finished) {
    // recordJobFinished: Normal Completed "Job completed", or a Warning with the failure's reason and message.
    if (finished.type === 'Complete') ctx.recorder.event({ type: 'Normal', reason: 'Completed', object: ref, source: JOB_CONTROLLER, message: 'Job completed' });
    else ctx.recorder.event({ type: 'Warning', reason: finished.reason, object: ref, source: JOB_CONTROLLER, message: finished.message });
  }
  return requeue;
}

/** releasePod removes the job-tracking finalizer; a pod already deleted (grace period over) then goes. */
function* releasePod(ctx: EngineContext, pod: Pod): Steps<void> {
  const ns = pod.metadata?.namespace;
  const name = pod.metadata?.name ?? '';
  const updated = ctx.store.update<Pod>('Pod', ns, name, (p) => {
    const finalizers = (p.metadata?.finalizers ?? []).filter((f) => f !== JOB_TRACKING_FINALIZER);
    p.metadata = { ...p.metadata, finalizers };
    if (finalizers.length === 0) delete (p.metadata as { finalizers?: unknown }).finalizers;
  });
  if (updated?.metadata?.deletionTimestamp && updated.metadata.deletionGracePeriodSeconds === 0 && !(updated.metadata.finalizers ?? []).length) {
    ctx.store.remove('Pod', ns, name);
    yield { phase: 'apiserver.finalize', object: `Pod/${ns}/${name}`, field: 'metadata.finalizers', result: `the last finalizer is gone: removed Pod "${name}" from storage`, detail: {} };
  }
}

/**
 * syncTtlAfterFinished is the TTL-after-finished controller: a finished Job with ttlSecondsAfterFinished is deleted
 * (propagationPolicy Foreground) once the finish time (its condition's lastTransitionTime) plus the TTL has passed.
 */
export function* syncTtlAfterFinished(ctx: EngineContext, api: ApiServer, namespace: string, name: string): Steps<Millis | void> {
  const job = ctx.store.get<Job>('Job', namespace, name);
  if (!job || job.metadata?.deletionTimestamp) return;
  const ttl = job.spec?.ttlSecondsAfterFinished;
  const finished = finishedCondition(job);
  if (ttl === undefined || ttl === null || !finished) return;
  const expireAt = (timeOf(ctx.clock, finished.lastTransitionTime) ?? ctx.clock.now) + ttl * 1000;
  const ref = `Job/${namespace}/${name}`;
  if (expireAt > ctx.clock.now) {
    yield { phase: 'controllers.job', object: ref, field: 'spec.ttlSecondsAfterFinished', step: { kind: 'plugin', name: TTL_AFTER_FINISHED_CONTROLLER }, result: `finished at ${finished.lastTransitionTime}: deleted in ${(expireAt - ctx.clock.now) / 1000}s (ttlSecondsAfterFinished ${ttl})`, detail: { expireAt: ctx.clock.timestamp(expireAt) } };
    return expireAt - ctx.clock.now;
  }
  yield { phase: 'controllers.job', object: ref, field: 'spec.ttlSecondsAfterFinished', step: { kind: 'plugin', name: TTL_AFTER_FINISHED_CONTROLLER }, result: `the TTL of ${ttl}s after finishing has expired: deleting the Job (propagationPolicy Foreground)`, detail: {} };
  yield* new ControllerClient(api, TTL_AFTER_FINISHED_CONTROLLER).delete(asObject(job), { propagationPolicy: 'Foreground' });
}
