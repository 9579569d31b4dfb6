// The Job controller and the TTL-after-finished controller: pods up to parallelism until completions succeed, the
// pod-failure back-off, backoffLimit and activeDeadlineSeconds, the terminal conditions, and the Job's deletion
// ttlSecondsAfterFinished after it finished. Indexed Jobs are in job-indexed.ts, the pod failure policy in
// job-failure-policy.ts, spec.suspend's condition in job-suspend.ts. See pkg/controller/job/{job_controller.go,backoff_utils.go} and
// pkg/controller/ttlafterfinished/ttlafterfinished_controller.go.
import type { KubeObject, Pod } from '../api/types';
import type { ApiServer } from '../apiserver/server';
import type { EngineContext } from '../context';
import type { Millis } from '../runtime/clock';
import type { Steps } from '../runtime/step';
import { jobColumns } from '../kubectl/job-printer';
import { ControllerClient } from './client';
import { asObject, controlledPods, isPodReady, isPodTerminal, timeOf } from './pods';
import { createPods, deletePods, k8sEqual, podFromTemplate } from './replicaset';
import { failJobMessage, isPodFailed, matchPodFailurePolicy, onlyReplaceFailedPods } from './job-failure-policy';
import {
  completionIndex, failedIndexes, firstPendingIndexes, formatIndexes, hasBackoffLimitPerIndex, indexAbsoluteFailureCount, indexedPodTemplate, type Interval, isIndexedJob,
  lastFailedPodPerIndex, matchSuccessPolicy, podGenerateNameWithIndex, succeededIndexes, totalIndexes,
} from './job-indexed';
import type { Job, JobCondition, JobStatus } from './job-types';
import { type BackoffRecord, backoffStore, finishedAt, newBackoffRecord, remainingForFailures } from './job-backoff';
import { jobSuspended, syncSuspendCondition } from './job-suspend';
import { STATUS_MANAGERS, updateStatus } from '../apiserver/status-write';

/** JOB_CONTROLLER and TTL_AFTER_FINISHED_CONTROLLER are the sources of their events and their service accounts. */
export const JOB_CONTROLLER = 'job-controller';
export const TTL_AFTER_FINISHED_CONTROLLER = 'ttl-after-finished-controller';

/** JOB_TRACKING_FINALIZER keeps a finished pod until the controller has counted it (batch.JobTrackingFinalizer). */
export const JOB_TRACKING_FINALIZER = 'batch.kubernetes.io/job-tracking';

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
  // job_controller.go syncJob with backoffLimitPerIndex (JobReasonMaxFailedIndexesExceeded, JobReasonFailedIndexes).
  maxFailedIndexesExceeded: { reason: 'MaxFailedIndexesExceeded', message: 'Job has exceeded the specified maximal number of failed indexes' },
  failedIndexes: { reason: 'FailedIndexes', message: 'Job has failed indexes' },
} as const;

/** JOB_REASON_POD_FAILURE_POLICY and JOB_REASON_SUCCESS_POLICY are the reasons whose messages come from the policy (pkg/apis/batch/types.go). */
export const JOB_REASON_POD_FAILURE_POLICY = 'PodFailurePolicy';
export const JOB_REASON_SUCCESS_POLICY = 'SuccessPolicy';

/** finishedCondition is the Job's Complete or Failed condition when it is True. */
export function finishedCondition(job: KubeObject): JobCondition | undefined {
  return ((job['status'] as JobStatus | undefined)?.conditions ?? []).find((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
}

function condition(type: string, m: { reason: string; message: string }, now: string): JobCondition {
  return { type, status: 'True', lastProbeTime: now, lastTransitionTime: now, reason: m.reason, message: m.message };
}

/** pastBackoffLimitOnFailure: with restartPolicy OnFailure, the active pods' container restarts reach backoffLimit. */
function pastBackoffLimitOnFailure(job: Job, active: readonly Pod[]): boolean {
  if (job.spec?.template?.spec?.restartPolicy !== 'OnFailure') return false;
  const restarts = active.reduce((n, p) => n + [...(p.status?.initContainerStatuses ?? []), ...(p.status?.containerStatuses ?? [])].reduce((m, s) => m + (s.restartCount ?? 0), 0), 0);
  const limit = job.spec?.backoffLimit ?? 6;
  return limit === 0 ? restarts > 0 : restarts >= limit;
}

const hasTrackingFinalizer = (p: Pod) => (p.metadata?.finalizers ?? []).includes(JOB_TRACKING_FINALIZER);
const isActive = (p: Pod) => !isPodTerminal(p) && !p.metadata?.deletionTimestamp;
const isTerminating = (p: Pod) => !!p.metadata?.deletionTimestamp && !isPodTerminal(p);

/** SyncState is what one sync knows of the Job: its counters, its indexes and the condition it is heading for. */
interface SyncState {
  ref: string;
  now: string;
  succeeded: number;
  failed: number;
  succeededIx?: Interval[];
  failedIx?: Interval[];
  conditions: JobCondition[];
  failure?: JobCondition;
  success?: JobCondition;
  requeue?: Millis;
  /** backoff is the Job's back-off record with this sync's finished pods. */
  backoff: BackoffRecord;
  ctx: EngineContext;
  /** delayed are the failed pods kept (finalizer and all) until their index has a replacement (backoffLimitPerIndex). */
  delayed: Map<number, Pod>;
}

/** syncJob is the Job controller's syncJob for one Job (phase controllers.job); it returns when to sync again. */
export function* syncJob(ctx: EngineContext, api: ApiServer, namespace: string, name: string): Steps<Millis | void> {
  let job = ctx.store.get<Job>('Job', namespace, name);
  if (!job || job.metadata?.deletionTimestamp || finishedCondition(job)) return;
  const j: Job = job;
  const client = new ControllerClient(api, JOB_CONTROLLER, 'controllers.job');
  const old = j.status ?? {};
  const pods = () => controlledPods(ctx.store.list<Pod>('Pod', namespace), j.metadata?.uid);
  const uid = j.metadata?.uid ?? '';
  const st: SyncState = { ref: `Job/${namespace}/${name}`, now: ctx.clock.timestamp(), succeeded: old.succeeded ?? 0, failed: old.failed ?? 0, conditions: [...(old.conditions ?? [])], backoff: backoffStore(ctx).get(uid) ?? { failuresAfterLastSuccess: 0 }, delayed: new Map(), ctx };
  // Count the pods that finished since the last sync and release them.
  const listed = pods();
  const tracked = listed.filter(hasTrackingFinalizer);
  // getNewFinishedPods: Succeeded, or failed as isPodFailed says (a deleted pod too, under TerminatingOrFailed).
  const uncounted = tracked.filter((p) => p.status?.phase === 'Succeeded' || isPodFailed(p, j));
  if (isIndexedJob(j)) {
    st.succeededIx = succeededIndexes(j, uncounted);
    if (hasBackoffLimitPerIndex(j)) {
      st.failedIx = failedIndexes(j, uncounted);
      // getPodsWithDelayedDeletionPerIndex: the replacement needs the failed pod's failure count and finish time.
      st.delayed = lastFailedPodPerIndex(j, tracked, listed.filter(isActive), st.succeededIx, st.failedIx, (p) => finishedAt(ctx, p));
    }
  }
  const held = new Set(st.delayed.values());
  const counting = uncounted.filter((p) => !held.has(p));
  st.backoff = newBackoffRecord(ctx, st.backoff, counting.filter((p) => p.status?.phase === 'Succeeded'), counting.filter((p) => p.status?.phase !== 'Succeeded'));
  yield* countPods(j, st, counting);
  if (st.succeededIx) st.succeeded = totalIndexes(st.succeededIx);
  let active = pods().filter(isActive);
  // Job first start: startTime is set only if the Job is not suspended (syncJob).
  let startTime = old.startTime ?? (jobSuspended(j) ? undefined : st.now);
  // getFailJobMessage looks at the pods as listed, before their finalizers go.
  yield* decideFinished(ctx, j, st, listed, active, startTime);
  // canRemoveFinalizer: once the Job is finishing, no failed pod is held for its index any more.
  if ((st.failure || st.success) && held.size) yield* countPods(j, st, [...held]);
  if (st.failure || st.success) {
    // A finished Job deletes its active pods (deleteActivePods) and finishes once none is left terminating.
    if (active.length) yield* deletePods(ctx, client, j, active, 'controllers.job', JOB_CONTROLLER, (st.failure ?? st.success)!.reason);
    active = [];
  } else {
    active = yield* manageJob(ctx, client, j, st, pods, active);
    // syncJob: once manageJob ran and the Job is not complete, the Suspended condition follows spec.suspend.
    if (!st.success) {
      const hadStartTime = startTime !== undefined;
      const s = syncSuspendCondition(j, st.conditions, startTime, st.now);
      st.conditions = s.conditions;
      startTime = s.startTime;
      if (s.event) {
        ctx.recorder.event({ type: 'Normal', reason: s.event.reason, object: st.ref, source: JOB_CONTROLLER, message: s.event.message });
        yield { phase: 'controllers.job', object: st.ref, field: 'spec.suspend', result: `${s.event.message}: Suspended condition ${jobSuspended(j) ? `True (JobSuspended); ${hadStartTime ? 'status.startTime cleared, the activeDeadlineSeconds timer stops' : 'no status.startTime until it is resumed'}` : `False (JobResumed); status.startTime reset to ${st.now}`}`, detail: { suspend: jobSuspended(j), startTime: startTime ?? null } };
      }
    }
  }
  const all = pods();
  const terminating = all.filter(isTerminating).length;
  let completionTime = old.completionTime;
  let finished: JobCondition | undefined;
  // enactJobFinished: the terminal condition once no pod is left active or terminating.
  if ((st.failure || st.success) && terminating === 0 && active.length === 0) {
    finished = st.failure ? condition('Failed', st.failure, st.now) : condition('Complete', st.success!, st.now);
    st.conditions = [...st.conditions, finished];
    if (!st.failure) completionTime = st.now;
  }
  const status: JobStatus = {
    ...(active.length ? { active: active.length } : {}),
    ...(st.succeeded ? { succeeded: st.succeeded } : {}), ...(st.failed ? { failed: st.failed } : {}),
    ...(st.succeededIx?.length ? { completedIndexes: formatIndexes(st.succeededIx) } : {}),
    ...(st.failedIx ? { failedIndexes: formatIndexes(st.failedIx) } : {}),
    ...(startTime ? { startTime } : {}), ...(completionTime ? { completionTime } : {}),
    ready: active.filter(isPodReady).length, terminating, uncountedTerminatedPods: {},
    ...(st.conditions.length ? { conditions: st.conditions } : {}),
  };
  if (!k8sEqual(status, old)) {
    job = updateStatus<Job>(ctx, STATUS_MANAGERS.controllers, 'Job', namespace, name, (o) => { o['status'] = status; }) ?? job;
    const cols = jobColumns(job, ctx.clock.now, ctx.clock.epoch.getTime());
    const indexes = isIndexedJob(j) ? `; completedIndexes "${status.completedIndexes ?? ''}"${status.failedIndexes !== undefined ? `, failedIndexes "${status.failedIndexes}"` : ''}` : '';
    yield { phase: 'controllers.job', object: st.ref, field: 'status', result: `status: ${status.active ?? 0} active, ${status.ready} ready, ${status.succeeded ?? 0} succeeded, ${status.failed ?? 0} failed${indexes}${finished ? `; ${finished.type} (${finished.reason})` : ''}; kubectl get jobs: STATUS ${cols.status}, COMPLETIONS ${cols.completions}`, detail: { status } };
  }
  // The back-off record is kept while the Job runs and removed once it finished (syncJob, removeBackoffRecord).
  if (finished) backoffStore(ctx).delete(uid);
  else backoffStore(ctx).set(uid, st.backoff);
  if (finished) {
    // recordJobFinished: Normal Completed "Job completed", or a Warning with the failure's reason and message.
    if (finished.type === 'Complete') ctx.recorder.event({ type: 'Normal', reason: 'Completed', object: st.ref, source: JOB_CONTROLLER, message: 'Job completed' });
    else ctx.recorder.event({ type: 'Warning', reason: finished.reason, object: st.ref, source: JOB_CONTROLLER, message: finished.message });
  }
  return st.requeue;
}

/**
 * countPods counts finished pods into the sync's counters and removes their tracking finalizer
 * (trackJobStatusAndRemoveFinalizers); a failure an Ignore rule matches is not counted (nonIgnoredFailedPodsCount).
 */
function* countPods(j: Job, st: SyncState, pods: readonly Pod[]): Steps<void> {
  const spec = j.spec ?? {};
  for (const pod of pods) {
    const ok = pod.status?.phase === 'Succeeded';
    const match = ok ? undefined : matchPodFailurePolicy(spec.podFailurePolicy, pod);
    if (ok && !isIndexedJob(j)) st.succeeded++;
    // An Indexed Job counts only pods with a valid index (getValidPodsWithFilter).
    if (!ok && match?.countFailed && (!isIndexedJob(j) || (completionIndex(pod) >= 0 && completionIndex(pod) < (spec.completions ?? 0)))) st.failed++;
    yield* releasePod(st.ctx, pod);
    const why = match?.action ? ` (podFailurePolicy rule ${match.ruleIndex}: ${match.action}${match.countFailed ? '' : ', not counted against backoffLimit'})` : '';
    yield { phase: 'controllers.job', object: st.ref, step: { kind: 'object', name: pod.metadata?.name ?? '' }, result: `counted pod ${pod.metadata?.name} as ${ok ? 'succeeded' : match?.countFailed ? 'failed' : 'failed but ignored'}${why}; removed its ${JOB_TRACKING_FINALIZER} finalizer`, detail: { succeeded: st.succeeded, failed: st.failed, ...(match?.action ? { podFailurePolicyAction: match.action } : {}) } };
  }
}

/**
 * decideFinished is syncJob's choice of the interim condition, in its order: a SuccessCriteriaMet or FailureTarget
 * already set; a pod matching a FailJob rule (getFailJobMessage, reason PodFailurePolicy); backoffLimit (or the
 * restarts under OnFailure); activeDeadlineSeconds; for Indexed Jobs with backoffLimitPerIndex, maxFailedIndexes
 * and the failed indexes; then the success policy (reason SuccessPolicy).
 */
function* decideFinished(ctx: EngineContext, job: Job, st: SyncState, all: readonly Pod[], active: readonly Pod[], startTime: string | undefined): Steps<void> {
  const spec = job.spec ?? {};
  st.success = st.conditions.find((c) => c.type === 'SuccessCriteriaMet' && c.status === 'True');
  st.failure = st.success ? undefined : st.conditions.find((c) => c.type === 'FailureTarget' && c.status === 'True');
  if (st.success || st.failure) return;
  const backoffLimit = spec.backoffLimit ?? 6;
  let field = 'spec.backoffLimit';
  const message = failJobMessage(job, all);
  if (message !== undefined) {
    st.failure = condition('FailureTarget', { reason: JOB_REASON_POD_FAILURE_POLICY, message }, st.now);
    field = 'spec.podFailurePolicy';
  } else if (st.failed > backoffLimit || pastBackoffLimitOnFailure(job, active)) {
    st.failure = condition('FailureTarget', JOB_MESSAGES.backoffLimitExceeded, st.now);
  } else if (spec.activeDeadlineSeconds !== undefined && startTime && !jobSuspended(job) && ctx.clock.now - (timeOf(ctx.clock, startTime) ?? 0) >= spec.activeDeadlineSeconds * 1000) {
    // pastActiveDeadline: false while the Job is suspended, and no deadline requeue either.
    st.failure = condition('FailureTarget', JOB_MESSAGES.deadlineExceeded, st.now);
    field = 'spec.activeDeadlineSeconds';
  } else if (spec.activeDeadlineSeconds !== undefined && startTime && !jobSuspended(job)) {
    st.requeue = (timeOf(ctx.clock, startTime) ?? 0) + spec.activeDeadlineSeconds * 1000 - ctx.clock.now;
  }
  if (!st.failure && st.failedIx) {
    const failedCount = totalIndexes(st.failedIx);
    if (spec.maxFailedIndexes !== undefined && spec.maxFailedIndexes !== null && failedCount > spec.maxFailedIndexes) {
      st.failure = condition('FailureTarget', JOB_MESSAGES.maxFailedIndexesExceeded, st.now);
      field = 'spec.maxFailedIndexes';
    } else if (failedCount > 0 && failedCount + totalIndexes(st.succeededIx ?? []) >= (spec.completions ?? 0)) {
      st.failure = condition('FailureTarget', JOB_MESSAGES.failedIndexes, st.now);
      field = 'spec.backoffLimitPerIndex';
    }
  }
  if (st.failure) {
    st.conditions = [...st.conditions, st.failure];
    yield { phase: 'controllers.job', object: st.ref, field, result: `FailureTarget: ${st.failure.message} (${st.failed} failed, backoffLimit ${backoffLimit}${st.failedIx ? `, failedIndexes "${formatIndexes(st.failedIx)}"` : ''})`, detail: { failed: st.failed, backoffLimit }, outcome: 'failed' };
    return;
  }
  const matched = st.succeededIx ? matchSuccessPolicy(spec.successPolicy?.rules, spec.completions ?? 0, st.succeededIx) : undefined;
  if (matched !== undefined) {
    st.success = condition('SuccessCriteriaMet', { reason: JOB_REASON_SUCCESS_POLICY, message: matched }, st.now);
    st.conditions = [...st.conditions, st.success];
    yield { phase: 'controllers.job', object: st.ref, field: 'spec.successPolicy', result: `SuccessCriteriaMet: ${matched} (completedIndexes "${formatIndexes(st.succeededIx!)}")`, detail: { completedIndexes: formatIndexes(st.succeededIx!) } };
  }
}

/**
 * manageJob is manageJob: completion when enough pods succeeded, else pods up to parallelism, past the back-off (per
 * index with backoffLimitPerIndex), each Indexed pod with the lowest pending index; with podReplacementPolicy Failed a
 * terminating pod still holds its place. Returns the active pods.
 */
function* manageJob(ctx: EngineContext, client: ControllerClient, job: Job, st: SyncState, pods: () => Pod[], active: Pod[]): Steps<Pod[]> {
  const spec = job.spec ?? {};
  const parallelism = spec.parallelism ?? 1;
  const noCompletions = spec.completions === undefined || spec.completions === null;
  const wantActive = noCompletions ? (st.succeeded > 0 ? active.length : parallelism) : Math.max(0, Math.min(spec.completions! - st.succeeded, parallelism));
  if (jobSuspended(job)) {
    // manageJob: "Deleting all active pods in suspended job" (deleteJobPods, so they count as neither succeeded nor
    // failed); syncJob then checks completion with none active.
    if (active.length) yield* deleteJobPods(ctx, client, job, active, 'the Job is suspended (spec.suspend)');
    active = [];
  }
  const complete = noCompletions ? st.succeeded > 0 && active.length === 0 : st.succeeded >= spec.completions! && active.length === 0;
  if (complete) {
    st.success = condition('SuccessCriteriaMet', JOB_MESSAGES.completionsReached, st.now);
    st.conditions = [...st.conditions, st.success];
    yield { phase: 'controllers.job', object: st.ref, field: 'spec.completions', result: `SuccessCriteriaMet: ${st.succeeded} of ${spec.completions ?? 1} completions succeeded`, detail: { succeeded: st.succeeded, completions: spec.completions ?? null } };
    return active;
  }
  if (jobSuspended(job)) return active;
  if (active.length > wantActive) {
    yield* deleteJobPods(ctx, client, job, active.slice(0, active.length - wantActive), `too many active pods (want ${wantActive})`);
    return active.slice(active.length - wantActive);
  }
  const terminating = onlyReplaceFailedPods(job) ? pods().filter(isTerminating) : [];
  let diff = Math.min(wantActive - terminating.length - active.length, MAX_POD_CREATE_DELETE_PER_SYNC);
  if (diff <= 0) {
    if (terminating.length && wantActive > active.length) yield { phase: 'controllers.job', object: st.ref, field: 'spec.podReplacementPolicy', result: `podReplacementPolicy Failed: ${terminating.length} terminating pod(s) are replaced only once they are Failed`, detail: { terminating: terminating.length } };
    return active;
  }
  const perIndex = hasBackoffLimitPerIndex(job);
  const wait = perIndex ? 0 : remainingForFailures(ctx, st.backoff.failuresAfterLastSuccess, st.backoff.lastFailureTime);
  if (wait > 0) {
    st.requeue = Math.min(st.requeue ?? Infinity, wait);
    yield { phase: 'controllers.job', object: st.ref, field: 'spec.backoffLimit', result: `pod failure back-off: the next pod in ${wait / 1000}s (${st.failed} failed so far, backoffLimit ${spec.backoffLimit ?? 6})`, detail: { backoffMs: wait, failed: st.failed } };
    return active;
  }
  let indexes: number[] | undefined;
  const replaced = st.delayed;
  if (isIndexedJob(job)) {
    indexes = firstPendingIndexes({ active, terminating, succeeded: st.succeededIx ?? [], failed: st.failedIx, count: diff, completions: spec.completions ?? 0 });
    if (perIndex) {
      // getPodCreationInfoForIndependentIndexes: each index waits out its own back-off (getRemainingTimePerIndex).
      const remaining = new Map(indexes.map((ix) => {
        const last = replaced.get(ix);
        return [ix, last ? remainingForFailures(ctx, indexAbsoluteFailureCount(last) + 1, finishedAt(ctx, last)) : 0] as const;
      }));
      const now = indexes.filter((ix) => remaining.get(ix) === 0);
      if (indexes.length && !now.length) {
        // A fold, not Math.min(...): an Indexed Job may wait on more indexes than a call takes arguments.
        const w = [...remaining.values()].reduce((a, b) => Math.min(a, b), Infinity);
        st.requeue = Math.min(st.requeue ?? Infinity, w);
        yield { phase: 'controllers.job', object: st.ref, field: 'spec.backoffLimitPerIndex', result: `per-index back-off: index ${indexes.join(',')} gets its next pod in ${w / 1000}s`, detail: { backoffMs: w, indexes } };
        return active;
      }
      indexes = now;
    }
    diff = indexes.length;
    if (diff === 0) return active;
  }
  yield { phase: 'controllers.job', object: st.ref, field: 'spec.parallelism', result: `${active.length} active, ${st.succeeded} succeeded of ${spec.completions ?? '-'} completions, parallelism ${parallelism}: creating ${diff}${indexes ? ` (index ${indexes.join(',')})` : ''}`, detail: { active: active.length, succeeded: st.succeeded, failed: st.failed, wantActive, creating: diff, ...(indexes ? { indexes } : {}) } };
  const template = { ...spec.template, metadata: { ...spec.template?.metadata, finalizers: [...(spec.template?.metadata?.finalizers ?? []).filter((f) => f !== JOB_TRACKING_FINALIZER), JOB_TRACKING_FINALIZER] } };
  const queue = [...(indexes ?? [])];
  yield* createPods(ctx, client, job, diff, () => {
    const ix = queue.shift();
    if (ix === undefined) return podFromTemplate(job, template);
    const pod = podFromTemplate(job, indexedPodTemplate(job, template, ix, replaced.get(ix)));
    pod.metadata = { ...pod.metadata, generateName: podGenerateNameWithIndex(job.metadata?.name ?? '', ix) };
    return pod;
  }, 'controllers.job', JOB_CONTROLLER);
  return pods().filter(isActive);
}

/**
 * deleteJobPods is deleteJobPods: each pod loses its tracking finalizer first (removeTrackingFinalizerPatch), then is
 * deleted, so the controller never counts it as succeeded or failed.
 */
function* deleteJobPods(ctx: EngineContext, client: ControllerClient, job: Job, pods: readonly Pod[], why: string): Steps<void> {
  for (const pod of pods) yield* releasePod(ctx, pod);
  yield* deletePods(ctx, client, job, pods, 'controllers.job', JOB_CONTROLLER, `${why}; its ${JOB_TRACKING_FINALIZER} finalizer removed first, so it is counted neither succeeded nor failed`);
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
  yield* new ControllerClient(api, TTL_AFTER_FINISHED_CONTROLLER, 'controllers.job').delete(asObject(job), { propagationPolicy: 'Foreground' });
}
