// Indexed Jobs: the completion index of each pod (annotation, label, hostname, generateName, JOB_COMPLETION_INDEX), the
// interval format of status.completedIndexes / status.failedIndexes, which indexes are created next, backoffLimitPerIndex
// and the success policy. See pkg/controller/job/{indexed_job_utils.go,success_policy.go,backoff_utils.go}.
import type { Pod } from '../api/types';
import { isPodFailed, matchPodFailurePolicy } from './job-failure-policy';
import type { Job, SuccessPolicyRule } from './job-types';

/** JOB_COMPLETION_INDEX_ANNOTATION is batch.JobCompletionIndexAnnotation, also the label's key (PodIndexLabel, GA in 1.32). */
export const JOB_COMPLETION_INDEX_ANNOTATION = 'batch.kubernetes.io/job-completion-index';
/** JOB_INDEX_FAILURE_COUNT_ANNOTATION and the ignored one count an index's failed pods (backoffLimitPerIndex). */
export const JOB_INDEX_FAILURE_COUNT_ANNOTATION = 'batch.kubernetes.io/job-index-failure-count';
export const JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION = 'batch.kubernetes.io/job-index-ignored-failure-count';
/** COMPLETION_INDEX_ENV_NAME is completionIndexEnvName. */
export const COMPLETION_INDEX_ENV_NAME = 'JOB_COMPLETION_INDEX';

/** MAX_GENERATED_NAME_LENGTH is names.MaxGeneratedNameLength: 63 less the 5 random characters. */
const MAX_GENERATED_NAME_LENGTH = 58;

/** Interval is one run First..Last of indexes. */
export interface Interval { first: number; last: number }

/** isIndexedJob: completionMode Indexed. */
export function isIndexedJob(job: Job): boolean {
  return job.spec?.completionMode === 'Indexed';
}

/** hasBackoffLimitPerIndex: spec.backoffLimitPerIndex set (JobBackoffLimitPerIndex, GA in 1.33). */
export function hasBackoffLimitPerIndex(job: Job): boolean {
  return job.spec?.backoffLimitPerIndex !== undefined && job.spec?.backoffLimitPerIndex !== null;
}

/** completionIndex is getCompletionIndex: the annotation as a non-negative integer, else -1. */
export function completionIndex(pod: Pod): number {
  const v = pod.metadata?.annotations?.[JOB_COMPLETION_INDEX_ANNOTATION];
  if (v === undefined || !/^[+-]?\d+$/.test(v)) return -1;
  const i = Number(v);
  return i < 0 ? -1 : i;
}

/** parseIndexes is parseIndexesFromString: "0-2,4" to intervals, cut at completions; bad pieces are skipped. */
export function parseIndexes(text: string | undefined, completions: number): Interval[] {
  if (!text) return [];
  const out: Interval[] = [];
  for (const piece of text.split(',')) {
    const [a, b] = piece.split('-');
    const first = Number(a);
    if (a === undefined || a === '' || !Number.isInteger(first)) continue;
    if (first >= completions) break;
    let last = first;
    if (b !== undefined) {
      last = Number(b);
      if (b === '' || !Number.isInteger(last)) continue;
      if (last >= completions) last = completions - 1;
    }
    const prev = out[out.length - 1];
    if (prev && prev.last === first - 1) prev.last = last;
    else out.push({ first, last });
  }
  return out;
}

/** mergeIntervals is orderedIntervals.merge: both lists ordered; touching or overlapping runs join. */
export function mergeIntervals(a: readonly Interval[], b: readonly Interval[]): Interval[] {
  const all = [...a, ...b].sort((x, y) => x.first - y.first);
  const out: Interval[] = [];
  for (const iv of all) {
    const prev = out[out.length - 1];
    if (!prev || iv.first > prev.last + 1) out.push({ ...iv });
    else if (prev.last < iv.last) prev.last = iv.last;
  }
  return out;
}

/** withIndexes is orderedIntervals.withOrderedIndexes. */
export function withIndexes(intervals: readonly Interval[], indexes: Iterable<number>): Interval[] {
  return mergeIntervals(intervals, [...new Set(indexes)].sort((x, y) => x - y).map((i) => ({ first: i, last: i })));
}

/** totalIndexes is orderedIntervals.total. */
export function totalIndexes(intervals: readonly Interval[]): number {
  return intervals.reduce((n, iv) => n + iv.last - iv.first + 1, 0);
}

/** hasIndex is orderedIntervals.has. */
export function hasIndex(intervals: readonly Interval[], ix: number): boolean {
  return intervals.some((iv) => iv.first <= ix && ix <= iv.last);
}

/** formatIndexes is orderedIntervals.String: "1-3,5", two neighbours as "7,8". */
export function formatIndexes(intervals: readonly Interval[]): string {
  return intervals.map((iv) => (iv.last === iv.first ? `${iv.first}` : `${iv.first}${iv.last === iv.first + 1 ? ',' : '-'}${iv.last}`)).join(',');
}

/** validIndexOf: the pod's index when it lies in [0, completions), else -1. */
function validIndexOf(pod: Pod, completions: number): number {
  const ix = completionIndex(pod);
  return ix >= 0 && ix < completions ? ix : -1;
}

/**
 * firstPendingIndexes is firstPendingIndexes: the `count` lowest indexes below completions that no active pod holds and
 * that have not succeeded or failed; with onlyReplaceFailedPods the terminating pods' indexes are taken too.
 */
export function firstPendingIndexes(o: { active: readonly Pod[]; terminating: readonly Pod[]; succeeded: readonly Interval[]; failed?: readonly Interval[]; count: number; completions: number }): number[] {
  if (o.count <= 0) return [];
  const taken = (pods: readonly Pod[]) => pods.map(completionIndex).filter((i) => i >= 0);
  let nonPending = withIndexes(o.succeeded, [...taken(o.active), ...taken(o.terminating)]);
  if (o.failed) nonPending = mergeIntervals(nonPending, o.failed);
  const out: number[] = [];
  for (let candidate = 0; candidate < o.completions && out.length < o.count; candidate++) {
    if (!hasIndex(nonPending, candidate)) out.push(candidate);
  }
  return out;
}

/** succeededIndexes is calculateSucceededIndexes: status.completedIndexes plus the Succeeded pods not yet counted. */
export function succeededIndexes(job: Job, uncounted: readonly Pod[]): Interval[] {
  const completions = job.spec?.completions ?? 0;
  const prev = parseIndexes(job.status?.completedIndexes, completions);
  return withIndexes(prev, uncounted.filter((p) => p.status?.phase === 'Succeeded').map((p) => validIndexOf(p, completions)).filter((i) => i >= 0));
}

/** indexFailureCount reads the job-index-failure-count annotation (parseIndexFailureCountAnnotation), 0 when absent or bad. */
export function indexFailureCount(pod: Pod, key = JOB_INDEX_FAILURE_COUNT_ANNOTATION): number {
  const v = pod.metadata?.annotations?.[key];
  if (v === undefined || !/^\d+$/.test(v)) return 0;
  const n = Number(v);
  return n > 2147483647 ? 0 : n;
}

/** indexAbsoluteFailureCount is getIndexAbsoluteFailureCount: counted plus ignored failures of the index. */
export function indexAbsoluteFailureCount(pod: Pod): number {
  return indexFailureCount(pod) + indexFailureCount(pod, JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION);
}

/**
 * isIndexFailed is isIndexFailed: a failed pod fails its index when a FailIndex rule matches, or when the failure counts
 * and the index had already failed backoffLimitPerIndex times before this pod.
 */
export function isIndexFailed(job: Job, pod: Pod): boolean {
  if (!isPodFailed(pod, job)) return false;
  const m = matchPodFailurePolicy(job.spec?.podFailurePolicy, pod);
  if (m.action === 'FailIndex') return true;
  return m.countFailed && indexFailureCount(pod) >= (job.spec?.backoffLimitPerIndex ?? 0);
}

/** failedIndexes is calculateFailedIndexes: status.failedIndexes plus the indexes failed by uncounted pods. */
export function failedIndexes(job: Job, uncounted: readonly Pod[]): Interval[] {
  const completions = job.spec?.completions ?? 0;
  const prev = parseIndexes(job.status?.failedIndexes, completions);
  return withIndexes(prev, uncounted.filter((p) => isIndexFailed(job, p)).map((p) => validIndexOf(p, completions)).filter((i) => i >= 0));
}

/**
 * lastFailedPodPerIndex is getPodsWithDelayedDeletionPerIndex: for each index still pending (not succeeded, failed or
 * active), its failed pod with the highest failure count and the latest finish; the replacement builds on it.
 */
export function lastFailedPodPerIndex(job: Job, pods: readonly Pod[], active: readonly Pod[], succeeded: readonly Interval[], failed: readonly Interval[], finishedAt: (p: Pod) => number): Map<number, Pod> {
  const completions = job.spec?.completions ?? 0;
  const activeIx = new Set(active.map(completionIndex));
  const out = new Map<number, Pod>();
  for (const p of pods) {
    if (!isPodFailed(p, job)) continue;
    const ix = validIndexOf(p, completions);
    if (ix < 0 || hasIndex(succeeded, ix) || hasIndex(failed, ix) || activeIx.has(ix)) continue;
    const last = out.get(ix);
    if (!last || (indexAbsoluteFailureCount(last) <= indexAbsoluteFailureCount(p) && finishedAt(p) >= finishedAt(last))) out.set(ix, p);
  }
  return out;
}

/** newIndexFailureCounts is getNewIndexFailureCounts: the replaced pod's counts, one more counted or ignored failure. */
export function newIndexFailureCounts(job: Job, replaced: Pod | undefined): { count: number; ignored: number } {
  if (!replaced) return { count: 0, ignored: 0 };
  const count = indexFailureCount(replaced);
  const ignored = indexFailureCount(replaced, JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION);
  return matchPodFailurePolicy(job.spec?.podFailurePolicy, replaced).countFailed ? { count: count + 1, ignored } : { count, ignored: ignored + 1 };
}

/** podGenerateNameWithIndex is podGenerateNameWithIndex: `<job>-<index>-`, the job name cut to fit 58 characters. */
export function podGenerateNameWithIndex(jobName: string, index: number): string {
  const suffix = `-${index}-`;
  const prefix = jobName + suffix;
  return prefix.length > MAX_GENERATED_NAME_LENGTH ? prefix.slice(0, MAX_GENERATED_NAME_LENGTH - suffix.length) + suffix : prefix;
}

type PodTemplate = { metadata?: Pod['metadata']; spec?: Pod['spec'] };

/**
 * indexedPodTemplate is what manageJob does to the template of an Indexed Job's pod: JOB_COMPLETION_INDEX in every
 * (init) container that lacks it, from the label through the downward API (addCompletionIndexEnvVariable with
 * PodIndexLabel, GA in 1.32); the index annotation and label; hostname `<job>-<index>`; with backoffLimitPerIndex,
 * the failure-count annotations (addIndexFailureCountAnnotation).
 */
export function indexedPodTemplate(job: Job, template: PodTemplate, index: number, replaced: Pod | undefined): PodTemplate {
  const withEnv = <C extends { env?: unknown[] }>(c: C): C => {
    const env = (c.env ?? []) as { name?: string }[];
    if (env.some((e) => e.name === COMPLETION_INDEX_ENV_NAME)) return c;
    return { ...c, env: [...env, { name: COMPLETION_INDEX_ENV_NAME, valueFrom: { fieldRef: { fieldPath: `metadata.labels['${JOB_COMPLETION_INDEX_ANNOTATION}']` } } }] };
  };
  const spec = template.spec ?? { containers: [] };
  const annotations: Record<string, string> = { ...template.metadata?.annotations, [JOB_COMPLETION_INDEX_ANNOTATION]: String(index) };
  if (hasBackoffLimitPerIndex(job)) {
    const counts = newIndexFailureCounts(job, replaced);
    annotations[JOB_INDEX_FAILURE_COUNT_ANNOTATION] = String(counts.count);
    if (counts.ignored > 0) annotations[JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION] = String(counts.ignored);
  }
  return {
    metadata: { ...template.metadata, annotations, labels: { ...template.metadata?.labels, [JOB_COMPLETION_INDEX_ANNOTATION]: String(index) } },
    spec: {
      ...spec,
      ...(spec.initContainers ? { initContainers: spec.initContainers.map(withEnv) } : {}),
      containers: (spec.containers ?? []).map(withEnv),
      hostname: `${job.metadata?.name}-${index}`,
    },
  };
}

/**
 * matchSuccessPolicy is matchSuccessPolicy of success_policy.go: the first rule whose succeededIndexes all succeeded
 * (or at least succeededCount of them), or, without succeededIndexes, whose succeededCount is reached. Message
 * "Matched rules at index %d"; the condition's reason is JobReasonSuccessPolicy "SuccessPolicy".
 */
export function matchSuccessPolicy(rules: readonly SuccessPolicyRule[] | undefined, completions: number, succeeded: readonly Interval[]): string | undefined {
  if (!rules || succeeded.length === 0) return undefined;
  for (let i = 0; i < rules.length; i++) {
    const rule = rules[i]!;
    if (rule.succeededIndexes !== undefined && rule.succeededIndexes !== null) {
      const required = parseIndexes(rule.succeededIndexes, completions);
      if (required.length === 0) continue;
      const contains = required.reduce((n, r) => n + succeeded.reduce((m, s) => m + Math.max(0, Math.min(r.last, s.last) - Math.max(r.first, s.first) + 1), 0), 0);
      if (contains === totalIndexes(required) || (rule.succeededCount !== undefined && rule.succeededCount !== null && contains >= rule.succeededCount)) return `Matched rules at index ${i}`;
    } else if (rule.succeededCount !== undefined && rule.succeededCount !== null && totalIndexes(succeeded) >= rule.succeededCount) {
      return `Matched rules at index ${i}`;
    }
  }
  return undefined;
}
