// Indexed Jobs, backoffLimitPerIndex, the success policy and the pod failure policy through the CLI. Each expected
// reason, message and time sits beside the Kubernetes source it follows (pkg/controller/job/..., read as of 1.33–1.36).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Report, runJson, type StoredObject } from './harness';

const F = 'test/fixtures/controllers';
const NAME = /-[bcdfghjklmnpqrstvwxz2456789]{5}$/;

/** jobEvents are the Job's events as [at, type, reason, message], pod names' random suffix as `*`. */
const jobEvents = (r: Report) => r.events.filter((e) => e.object === 'Job/default/pi').map((e) => [e.at, e.type, e.reason, e.message.replace(/pi-(\d+-)?[bcdfghjklmnpqrstvwxz2456789]{5}/, (m, ix: string | undefined) => `pi-${ix ?? ''}*`)]);
const job = (r: Report): StoredObject => r.objects.find((o) => o.kind === 'Job')!;
const conditions = (o: StoredObject) => ((o.status?.['conditions'] ?? []) as { type: string; reason: string; message: string }[]).map((c) => [c.type, c.reason, c.message]);
const counters = (o: StoredObject) => {
  const s = o.status ?? {};
  return { succeeded: s['succeeded'], failed: s['failed'], completedIndexes: s['completedIndexes'], failedIndexes: s['failedIndexes'] };
};

interface Case {
  name: string;
  manifest: string;
  behavior?: string;
  cluster?: string;
  outcome: string;
  events: (string | number)[][];
  conditions: string[][];
  counters: Record<string, unknown>;
}

const cases: Case[] = [
  {
    name: 'an Indexed Job of 3 completions, 2 at a time, creates indexes 0 and 1, then 2, and lists them as completedIndexes "0-2"',
    manifest: 'job-indexed.yaml', behavior: 'job-behavior.yaml', outcome: 'Succeeded',
    // job_controller.go manageJob: firstPendingIndexes gives the lowest indexes first; podGenerateNameWithIndex
    // "<job>-<index>-". Pods start at 2 s and exit 5 s later; the controller syncs 1 s after (syncJobBatchPeriod).
    events: [[0, 'Normal', 'SuccessfulCreate', 'Created pod: pi-0-*'], [0, 'Normal', 'SuccessfulCreate', 'Created pod: pi-1-*'], [8, 'Normal', 'SuccessfulCreate', 'Created pod: pi-2-*'], [14, 'Normal', 'Completed', 'Job completed']],
    conditions: [['SuccessCriteriaMet', 'CompletionsReached', 'Reached expected number of succeeded pods'], ['Complete', 'CompletionsReached', 'Reached expected number of succeeded pods']],
    // indexed_job_utils.go orderedIntervals.String: "0-2".
    counters: { succeeded: 3, failed: undefined, completedIndexes: '0-2', failedIndexes: undefined },
  },
  {
    name: 'with backoffLimitPerIndex 1 each index is retried once with its own 10 s back-off, then the Job fails with FailedIndexes',
    manifest: 'job-indexed-per-index.yaml', behavior: 'job-fail-behavior.yaml', outcome: 'Failed',
    // backoff_utils.go getRemainingTimePerIndex: the index's failure count + 1 = 1 failure, 10 s after it (3 s).
    // job_controller.go: newFailureCondition(JobReasonFailedIndexes, "Job has failed indexes") once failed + succeeded
    // indexes reach completions; recordJobFinished: a Warning with the condition's reason and message. The retries exit
    // at 14, when the controller's sync for their Ready runs first; the kubelet's sync that sends Failed (the PLEG's
    // report of the exit) comes after it, and the controller sees it in its next batch, 1 s later.
    events: [[0, 'Normal', 'SuccessfulCreate', 'Created pod: pi-0-*'], [0, 'Normal', 'SuccessfulCreate', 'Created pod: pi-1-*'], [13, 'Normal', 'SuccessfulCreate', 'Created pod: pi-0-*'], [13, 'Normal', 'SuccessfulCreate', 'Created pod: pi-1-*'], [15, 'Warning', 'FailedIndexes', 'Job has failed indexes']],
    conditions: [['FailureTarget', 'FailedIndexes', 'Job has failed indexes'], ['Failed', 'FailedIndexes', 'Job has failed indexes']],
    // Two indexes next to each other print as "0,1" (orderedIntervals.String).
    counters: { succeeded: undefined, failed: 4, completedIndexes: undefined, failedIndexes: '0,1' },
  },
  {
    name: 'with maxFailedIndexes 1 the second failed index fails the Job with MaxFailedIndexesExceeded, index 2 never runs',
    manifest: 'job-indexed-max-failed.yaml', behavior: 'job-fail-behavior.yaml', outcome: 'Failed',
    // A failed index is not retried (firstPendingIndexes skips failedIndexes), so index 1 is created at once (3 s); the
    // seeded tie-break between the two workers puts it on the other one (worker-2), which pulls the image first (2 s),
    // so it fails at 6. (The tie-break moves when the cluster's bootstrap draws another uid: kube-system's
    // cronjob-controller service account did.)
    // job_controller.go: JobReasonMaxFailedIndexesExceeded, "Job has exceeded the specified maximal number of failed indexes".
    events: [[0, 'Normal', 'SuccessfulCreate', 'Created pod: pi-0-*'], [3, 'Normal', 'SuccessfulCreate', 'Created pod: pi-1-*'], [6, 'Warning', 'MaxFailedIndexesExceeded', 'Job has exceeded the specified maximal number of failed indexes']],
    conditions: [['FailureTarget', 'MaxFailedIndexesExceeded', 'Job has exceeded the specified maximal number of failed indexes'], ['Failed', 'MaxFailedIndexesExceeded', 'Job has exceeded the specified maximal number of failed indexes']],
    counters: { succeeded: undefined, failed: 2, completedIndexes: undefined, failedIndexes: '0,1' },
  },
  {
    name: 'a successPolicy on index 0 completes the Job once index 0 succeeded, with reason SuccessPolicy',
    manifest: 'job-success-policy.yaml', behavior: 'job-behavior.yaml', outcome: 'Succeeded',
    // success_policy.go matchSuccessPolicy: "Matched rules at index %d"; types.go JobReasonSuccessPolicy.
    events: [[0, 'Normal', 'SuccessfulCreate', 'Created pod: pi-0-*'], [8, 'Normal', 'Completed', 'Job completed']],
    conditions: [['SuccessCriteriaMet', 'SuccessPolicy', 'Matched rules at index 0'], ['Complete', 'SuccessPolicy', 'Matched rules at index 0']],
    counters: { succeeded: 1, failed: undefined, completedIndexes: '0', failedIndexes: undefined },
  },
  {
    name: 'a FailJob rule on exit code 42 fails the Job at the first failure, whatever backoffLimit says',
    manifest: 'job-fail-job-rule.yaml', behavior: 'job-exit-42-behavior.yaml', outcome: 'Failed',
    // pod_failure_policy.go matchPodFailurePolicy:
    // "Container %s for pod %s/%s failed with exit code %v matching %v rule at index %d"; job_controller.go
    // getFailJobMessage, reason JobReasonPodFailurePolicy.
    events: [[0, 'Normal', 'SuccessfulCreate', 'Created pod: pi-*'], [3, 'Warning', 'PodFailurePolicy', 'Container pi for pod default/pi-* failed with exit code 42 matching FailJob rule at index 0']],
    conditions: [['FailureTarget', 'PodFailurePolicy', 'Container pi for pod default/pi-* failed with exit code 42 matching FailJob rule at index 0'], ['Failed', 'PodFailurePolicy', 'Container pi for pod default/pi-* failed with exit code 42 matching FailJob rule at index 0']],
    counters: { succeeded: undefined, failed: 1, completedIndexes: undefined, failedIndexes: undefined },
  },
  {
    name: 'an Ignore rule keeps failures off backoffLimit 0: the pods are replaced after the back-off until activeDeadlineSeconds',
    manifest: 'job-ignore-rule.yaml', behavior: 'job-fail-behavior.yaml', outcome: 'Failed',
    // job_controller.go nonIgnoredFailedPodsCount: status.failed stays 0; the back-off record still counts the
    // failures (newBackoffRecord with all new failed pods): 10 s after the first (3 s), 20 s after the second (14 s),
    // which the deadline of 20 s cuts short.
    events: [[0, 'Normal', 'SuccessfulCreate', 'Created pod: pi-*'], [13, 'Normal', 'SuccessfulCreate', 'Created pod: pi-*'], [20, 'Warning', 'DeadlineExceeded', 'Job was active longer than specified deadline']],
    conditions: [['FailureTarget', 'DeadlineExceeded', 'Job was active longer than specified deadline'], ['Failed', 'DeadlineExceeded', 'Job was active longer than specified deadline']],
    counters: { succeeded: undefined, failed: undefined, completedIndexes: undefined, failedIndexes: undefined },
  },
  {
    name: 'a failure no FailJob rule matches but a Count rule does counts against backoffLimit 0 and fails the Job',
    manifest: 'job-count-rule.yaml', behavior: 'job-fail-behavior.yaml', outcome: 'Failed',
    // pod_failure_policy.go: rules in order; exit code 1 is not In [42], is NotIn [0]: Count.
    events: [[0, 'Normal', 'SuccessfulCreate', 'Created pod: pi-*'], [3, 'Warning', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit']],
    conditions: [['FailureTarget', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit'], ['Failed', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit']],
    counters: { succeeded: undefined, failed: 1, completedIndexes: undefined, failedIndexes: undefined },
  },
  {
    name: 'an Ignore rule on DisruptionTarget replaces each evicted pod after the back-off without counting it',
    manifest: 'job-disruption-ignore.yaml', cluster: 'job-evicted-cluster.yaml', outcome: 'Failed',
    // taint_eviction.go: the pod tolerates dedicated=batch:NoExecute for 5 s, then gets DisruptionTarget and a delete;
    // it ends Failed at 6 s (SIGTERM, exit 1 s later). pod_failure_policy.go onPodConditions: Ignore, so
    // status.failed stays unset; backoff_utils.go: the record still counts it, 10 s from its finish (6 s) = 16 s,
    // and the second one, evicted at 21 s and Failed at 22 s, would wait 20 s: the deadline of 30 s comes first.
    events: [[0, 'Normal', 'SuccessfulCreate', 'Created pod: pi-*'], [16, 'Normal', 'SuccessfulCreate', 'Created pod: pi-*'], [30, 'Warning', 'DeadlineExceeded', 'Job was active longer than specified deadline']],
    conditions: [['FailureTarget', 'DeadlineExceeded', 'Job was active longer than specified deadline'], ['Failed', 'DeadlineExceeded', 'Job was active longer than specified deadline']],
    counters: { succeeded: undefined, failed: undefined, completedIndexes: undefined, failedIndexes: undefined },
  },
  {
    name: 'a FailJob rule on DisruptionTarget fails the Job with "Pod default/x has condition DisruptionTarget matching FailJob rule at index 0"',
    manifest: 'job-disruption-failjob.yaml', cluster: 'job-evicted-cluster.yaml', outcome: 'Failed',
    // pod_failure_policy.go: "Pod %s/%s has condition %v matching %v rule at index %d", once the pod is Failed (6 s).
    events: [[0, 'Normal', 'SuccessfulCreate', 'Created pod: pi-*'], [6, 'Warning', 'PodFailurePolicy', 'Pod default/pi-* has condition DisruptionTarget matching FailJob rule at index 0']],
    conditions: [['FailureTarget', 'PodFailurePolicy', 'Pod default/pi-* has condition DisruptionTarget matching FailJob rule at index 0'], ['Failed', 'PodFailurePolicy', 'Pod default/pi-* has condition DisruptionTarget matching FailJob rule at index 0']],
    counters: { succeeded: undefined, failed: 1, completedIndexes: undefined, failedIndexes: undefined },
  },
];

for (const c of cases) {
  test(c.name, () => {
    const inputs = c.behavior ? ['--behavior', `${F}/${c.behavior}`] : ['--cluster', 'src/engine/cluster/default-cluster.yaml', '--cluster', `${F}/${c.cluster}`];
    const { status, report } = runJson('run', `${F}/${c.manifest}`, ...inputs);
    assert.equal(status, c.outcome === 'Failed' ? 1 : 0, 'the CLI exits 1 when the run ends Failed');
    assert.equal(report.kubectl, 'job.batch/pi created');
    assert.equal(report.outcome, c.outcome);
    assert.deepEqual(jobEvents(report), c.events);
    assert.deepEqual(conditions(job(report)).map(([t, r, m]) => [t, r, m!.replace(/pi-[bcdfghjklmnpqrstvwxz2456789]{5}/, 'pi-*')]), c.conditions);
    assert.deepEqual(counters(job(report)), c.counters);
  });
}

test('each Indexed pod carries its index: annotation, label, hostname, the template\'s subdomain and JOB_COMPLETION_INDEX', () => {
  const { report } = runJson('run', `${F}/job-indexed.yaml`, '--behavior', `${F}/job-behavior.yaml`);
  const pods = report.objects.filter((o) => o.kind === 'Pod').map((p) => p as StoredObject & { metadata: { generateName?: string }; spec: { hostname?: string; subdomain?: string; containers: { env?: unknown[] }[] } });
  assert.deepEqual(pods.map((p) => p.metadata.name.replace(NAME, '')).sort(), ['pi-0', 'pi-1', 'pi-2']);
  for (const p of pods) {
    const ix = p.metadata.name.split('-')[1]!;
    // indexed_job_utils.go addCompletionIndexAnnotation / addCompletionIndexLabel (PodIndexLabel, GA in 1.32),
    // podGenerateNameWithIndex; job_controller.go manageJob: Hostname "%s-%d"; the subdomain is the template's own.
    assert.equal(p.metadata.annotations?.['batch.kubernetes.io/job-completion-index'], ix);
    assert.equal(p.metadata.labels?.['batch.kubernetes.io/job-completion-index'], ix);
    assert.equal(p.metadata.generateName, `pi-${ix}-`);
    assert.equal(p.spec.hostname, `pi-${ix}`);
    assert.equal(p.spec.subdomain, 'pi-workers');
    // addCompletionIndexEnvVariable: from the label when PodIndexLabel is on; the API server defaults apiVersion v1.
    assert.deepEqual(p.spec.containers[0]!.env, [{ name: 'JOB_COMPLETION_INDEX', valueFrom: { fieldRef: { fieldPath: "metadata.labels['batch.kubernetes.io/job-completion-index']", apiVersion: 'v1' } } }]);
  }
});

test('with backoffLimitPerIndex each pod counts its index\'s earlier failures in job-index-failure-count', () => {
  const { report } = runJson('run', `${F}/job-indexed-per-index.yaml`, '--behavior', `${F}/job-fail-behavior.yaml`);
  // indexed_job_utils.go addIndexFailureCountAnnotation / getNewIndexFailureCounts: 0 first, the replaced pod's + 1.
  const counts = report.objects.filter((o) => o.kind === 'Pod').map((p) => [p.metadata.annotations?.['batch.kubernetes.io/job-completion-index'], p.metadata.annotations?.['batch.kubernetes.io/job-index-failure-count']]).sort();
  assert.deepEqual(counts, [['0', '0'], ['0', '1'], ['1', '0'], ['1', '1']]);
});

const refusals: { name: string; manifest: string; want: string }[] = [
  {
    name: 'a podFailurePolicy with restartPolicy OnFailure is refused with the API server\'s message',
    manifest: 'job-policy-on-failure.yaml',
    // pkg/apis/batch/validation/validation.go validateJobSpec:
    // field.Invalid(..., fmt.Sprintf("only %q is supported when podFailurePolicy is specified", api.RestartPolicyNever)).
    want: 'The Job "pi" is invalid: spec.template.spec.restartPolicy: Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy is specified',
  },
  {
    name: 'a successPolicy on a NonIndexed Job is refused: it requires the Indexed completion mode',
    manifest: 'job-success-policy-nonindexed.yaml',
    // validation.go validateJobSpec: field.Invalid(fldPath.Child("successPolicy"), *spec.SuccessPolicy, "requires indexed
    // completion mode"). The value is the internal batch.SuccessPolicy (no json tags): its printing is not checked against 1.36.
    want: 'The Job "pi" is invalid: spec.successPolicy: Invalid value: {"Rules":[{"SucceededIndexes":"0","SucceededCount":null}]}: requires indexed completion mode',
  },
  {
    name: 'a successPolicy rule naming an index past completions and counting more than completions is refused on three counts',
    manifest: 'job-success-policy-bad-rules.yaml',
    // validation.go validateSuccessPolicyRule: "error parsing succeededIndexes: %s" with parseIndexInterval's
    // "too large index: %q"; "must be less than or equal to %d (the number of specified completions)"; and, the indexes
    // unparsable (validateIndexesFormat returns 0), "must be less than or equal to %d (the number of indexes in the
    // specified succeededIndexes field)". kubectl lists several causes as `* ` lines.
    want: [
      'The Job "pi" is invalid: ',
      '* spec.successPolicy.rules[0].succeededIndexes: Invalid value: "1-3": error parsing succeededIndexes: too large index: "3"',
      '* spec.successPolicy.rules[0].succeededCount: Invalid value: 4: must be less than or equal to 3 (the number of specified completions)',
      '* spec.successPolicy.rules[0].succeededCount: Invalid value: 4: must be less than or equal to 0 (the number of indexes in the specified succeededIndexes field)',
    ].join('\n'),
  },
];
for (const c of refusals) {
  test(c.name, () => {
    const { report } = runJson('run', `${F}/${c.manifest}`);
    assert.equal(report.kubectl, c.want);
    assert.equal(report.outcome, 'Rejected');
  });
}

const replacementCases: { name: string; manifest: string; creates: number[]; active: number | undefined; failed: number | undefined }[] = [
  {
    // job_controller.go manageJob: diff = wantActive - active (TerminatingOrFailed): the terminating pod is no longer
    // active. The node is Unknown and tainted at 65 s (node lifecycle controller, grace period 50 s after the last
    // heartbeat), the pod evicted 300 s later (DefaultTolerationSeconds' toleration of node.kubernetes.io/unreachable),
    // and the Job's sync after the pod update, batched by 1 s (syncJobBatchPeriod), makes the replacement at 366 s.
    name: 'podReplacementPolicy TerminatingOrFailed replaces an evicted pod while it is still terminating',
    manifest: 'job-replace-terminatingorfailed.yaml', creates: [0, 366], active: 1, failed: 1,
  },
  {
    // job_controller.go manageJob with onlyReplaceFailedPods: diff = wantActive - terminating - active; the pod on the
    // downed node never becomes Failed, so no replacement is made.
    name: 'podReplacementPolicy Failed makes no replacement while the evicted pod is terminating',
    manifest: 'job-replace-failed.yaml', creates: [0], active: undefined, failed: undefined,
  },
];
for (const c of replacementCases) {
  test(c.name, () => {
    const { report } = runJson('run', `${F}/${c.manifest}`);
    assert.deepEqual(report.events.filter((e) => e.object === 'Job/default/pi' && e.reason === 'SuccessfulCreate').map((e) => e.at), c.creates);
    const s = job(report).status ?? {};
    assert.equal(s['terminating'], 1, 'status.terminating counts the evicted pod');
    assert.equal(s['active'], c.active);
    // job_controller.go isPodFailed: a deleted pod counts as failed at once, unless only failed pods are replaced;
    // its finish time for the back-off is its Ready=False transition at 65 s (backoff_utils.go getFinishedTime).
    assert.equal(s['failed'], c.failed);
  });
}
