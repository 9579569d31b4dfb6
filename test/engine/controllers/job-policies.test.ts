// The Job controller's pure parts: the pod failure policy's matching and messages, the completion-index intervals,
// the pending indexes, the failed-index rule, the success policy and the Indexed pod template. See
// pkg/controller/job/{pod_failure_policy.go,indexed_job_utils.go,success_policy.go} and their _test.go tables.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Pod } from '../../../src/engine/api/types';
import { matchPodFailurePolicy, onlyReplaceFailedPods, type PodFailurePolicy } from '../../../src/engine/controllers/job-failure-policy';
import {
  firstPendingIndexes, formatIndexes, indexedPodTemplate, isIndexFailed, matchSuccessPolicy, parseIndexes, podGenerateNameWithIndex, withIndexes,
} from '../../../src/engine/controllers/job-indexed';
import type { Job } from '../../../src/engine/controllers/job-types';
import { type BackoffRecord, finishedAt, newBackoffRecord, remainingForFailures } from '../../../src/engine/controllers/job-backoff';
import type { EngineContext } from '../../../src/engine/context';
import { VirtualClock } from '../../../src/engine/runtime/clock';

/** makePod builds a pod with terminated containers (name → exit code), conditions and annotations. */
const makePod = (o: { name?: string; phase?: string; exits?: Record<string, number>; initExits?: Record<string, number>; conditions?: [string, string][]; index?: number; failures?: number; deleting?: boolean } = {}): Pod => ({
  apiVersion: 'v1', kind: 'Pod',
  metadata: {
    name: o.name ?? 'x', namespace: 'default',
    ...(o.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
    annotations: { ...(o.index !== undefined ? { 'batch.kubernetes.io/job-completion-index': String(o.index) } : {}), ...(o.failures !== undefined ? { 'batch.kubernetes.io/job-index-failure-count': String(o.failures) } : {}) },
  },
  spec: { containers: [] },
  status: {
    phase: o.phase ?? 'Failed',
    containerStatuses: Object.entries(o.exits ?? {}).map(([name, exitCode]) => ({ name, state: { terminated: { exitCode } }, restartCount: 0, ready: false, image: '', imageID: '' })),
    initContainerStatuses: Object.entries(o.initExits ?? {}).map(([name, exitCode]) => ({ name, state: { terminated: { exitCode } }, restartCount: 0, ready: false, image: '', imageID: '' })),
    conditions: (o.conditions ?? []).map(([type, status]) => ({ type, status })),
  },
} as Pod);

const exitIn = (action: string, values: number[], containerName?: string) => ({ action, onExitCodes: { operator: 'In', values, ...(containerName ? { containerName } : {}) } });

const policyCases: { name: string; policy: PodFailurePolicy; pod: Pod; want: ReturnType<typeof matchPodFailurePolicy> }[] = [
  {
    name: 'a FailJob rule on the exit code gives the Job\'s failure message naming container, pod, code, action and rule index',
    policy: { rules: [exitIn('FailJob', [42])] }, pod: makePod({ exits: { app: 42 } }),
    want: { failJobMessage: 'Container app for pod default/x failed with exit code 42 matching FailJob rule at index 0', countFailed: true, action: 'FailJob', ruleIndex: 0 },
  },
  {
    name: 'the first matching rule decides: Ignore at index 0 wins over FailJob at index 1',
    policy: { rules: [exitIn('Ignore', [42]), exitIn('FailJob', [42])] }, pod: makePod({ exits: { app: 42 } }),
    want: { countFailed: false, action: 'Ignore', ruleIndex: 0 },
  },
  {
    name: 'NotIn matches any non-zero exit code outside the values',
    policy: { rules: [{ action: 'Count', onExitCodes: { operator: 'NotIn', values: [1, 2] } }] }, pod: makePod({ exits: { app: 3 } }),
    want: { countFailed: true, action: 'Count', ruleIndex: 0 },
  },
  {
    name: 'exit code 0 never matches, even NotIn',
    policy: { rules: [{ action: 'FailJob', onExitCodes: { operator: 'NotIn', values: [1] } }] }, pod: makePod({ exits: { app: 0 } }),
    want: { countFailed: true },
  },
  {
    name: 'containerName restricts the rule to that container',
    policy: { rules: [exitIn('FailJob', [42], 'other')] }, pod: makePod({ exits: { app: 42 } }),
    want: { countFailed: true },
  },
  {
    name: 'init containers are looked at after the containers',
    policy: { rules: [exitIn('FailJob', [5])] }, pod: makePod({ initExits: { setup: 5 } }),
    want: { failJobMessage: 'Container setup for pod default/x failed with exit code 5 matching FailJob rule at index 0', countFailed: true, action: 'FailJob', ruleIndex: 0 },
  },
  {
    name: 'a DisruptionTarget condition matched by an Ignore rule does not count against backoffLimit',
    policy: { rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }] }, pod: makePod({ exits: { app: 137 }, conditions: [['DisruptionTarget', 'True']] }),
    want: { countFailed: false, action: 'Ignore', ruleIndex: 0 },
  },
  {
    name: 'a FailJob rule on a pod condition says "Pod %s/%s has condition %v matching %v rule at index %d"',
    policy: { rules: [exitIn('Count', [1]), { action: 'FailJob', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }] }, pod: makePod({ exits: { app: 137 }, conditions: [['DisruptionTarget', 'True']] }),
    want: { failJobMessage: 'Pod default/x has condition DisruptionTarget matching FailJob rule at index 1', countFailed: true, action: 'FailJob', ruleIndex: 1 },
  },
  {
    name: 'FailIndex counts the failure and names the action',
    policy: { rules: [exitIn('FailIndex', [42])] }, pod: makePod({ exits: { app: 42 } }),
    want: { countFailed: true, action: 'FailIndex', ruleIndex: 0 },
  },
  {
    name: 'no rule matching counts the failure as without a policy',
    policy: { rules: [exitIn('FailJob', [42])] }, pod: makePod({ exits: { app: 1 } }),
    want: { countFailed: true },
  },
];
for (const c of policyCases) test(`matchPodFailurePolicy: ${c.name}`, () => assert.deepEqual(matchPodFailurePolicy(c.policy, c.pod), c.want));

const intervalCases: { name: string; text: string; completions: number; add: number[]; want: string }[] = [
  { name: 'a run of three or more prints as a range', text: '', completions: 10, add: [0, 1, 2], want: '0-2' },
  { name: 'two neighbours print with a comma', text: '', completions: 10, add: [7, 8], want: '7,8' },
  { name: 'new indexes merge into the old intervals', text: '0-2,4', completions: 10, add: [3, 6], want: '0-4,6' },
  { name: 'indexes at or past completions are cut off', text: '0-2,9-12', completions: 10, add: [], want: '0-2,9' },
];
for (const c of intervalCases) test(`completedIndexes: ${c.name}`, () => assert.equal(formatIndexes(withIndexes(parseIndexes(c.text, c.completions), c.add)), c.want));

const pendingCases: { name: string; active: number[]; terminating: number[]; succeeded: string; failed?: string; count: number; completions: number; want: number[] }[] = [
  { name: 'the lowest free indexes come first', active: [], terminating: [], succeeded: '', count: 2, completions: 5, want: [0, 1] },
  { name: 'active and succeeded indexes are skipped', active: [1], terminating: [], succeeded: '0,2', count: 2, completions: 5, want: [3, 4] },
  { name: 'failed indexes are never retried', active: [], terminating: [], succeeded: '', failed: '0', count: 1, completions: 3, want: [1] },
  { name: 'with podReplacementPolicy Failed a terminating pod keeps its index', active: [], terminating: [0], succeeded: '', count: 1, completions: 3, want: [1] },
];
for (const c of pendingCases) {
  test(`firstPendingIndexes: ${c.name}`, () => assert.deepEqual(firstPendingIndexes({
    active: c.active.map((index) => makePod({ phase: 'Running', index })), terminating: c.terminating.map((index) => makePod({ phase: 'Running', index, deleting: true })),
    succeeded: parseIndexes(c.succeeded, c.completions), ...(c.failed !== undefined ? { failed: parseIndexes(c.failed, c.completions) } : {}), count: c.count, completions: c.completions,
  }), c.want));
}

const indexedJob = (spec: Job['spec'] = {}): Job => ({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'pi', namespace: 'default' }, spec: { completionMode: 'Indexed', completions: 3, backoffLimitPerIndex: 1, ...spec } });
const failedIndexCases: { name: string; job: Job; pod: Pod; want: boolean }[] = [
  { name: 'a first failure under backoffLimitPerIndex 1 leaves the index to be retried', job: indexedJob(), pod: makePod({ index: 0, failures: 0, exits: { app: 1 } }), want: false },
  { name: 'a failure after backoffLimitPerIndex earlier ones fails the index', job: indexedJob(), pod: makePod({ index: 0, failures: 1, exits: { app: 1 } }), want: true },
  { name: 'a FailIndex rule fails the index at once', job: indexedJob({ podFailurePolicy: { rules: [exitIn('FailIndex', [42])] } }), pod: makePod({ index: 0, failures: 0, exits: { app: 42 } }), want: true },
  { name: 'an ignored failure never fails the index', job: indexedJob({ podFailurePolicy: { rules: [exitIn('Ignore', [1])] } }), pod: makePod({ index: 0, failures: 5, exits: { app: 1 } }), want: false },
];
for (const c of failedIndexCases) test(`isIndexFailed: ${c.name}`, () => assert.equal(isIndexFailed(c.job, c.pod), c.want));

const successCases: { name: string; rules: { succeededIndexes?: string; succeededCount?: number }[]; succeeded: string; want: string | undefined }[] = [
  { name: 'all the rule\'s indexes succeeded', rules: [{ succeededIndexes: '0,2' }], succeeded: '0-2', want: 'Matched rules at index 0' },
  { name: 'succeededCount of the rule\'s indexes is enough', rules: [{ succeededIndexes: '0-4', succeededCount: 2 }], succeeded: '1,3', want: 'Matched rules at index 0' },
  { name: 'a count alone counts every succeeded index; the first matching rule is named', rules: [{ succeededIndexes: '4' }, { succeededCount: 2 }], succeeded: '0,1', want: 'Matched rules at index 1' },
  { name: 'nothing matches while the rule\'s indexes are missing', rules: [{ succeededIndexes: '3' }], succeeded: '0-2', want: undefined },
];
for (const c of successCases) test(`matchSuccessPolicy: ${c.name}`, () => assert.equal(matchSuccessPolicy(c.rules, 5, parseIndexes(c.succeeded, 5)), c.want));

test('indexedPodTemplate: index annotation and label, hostname, JOB_COMPLETION_INDEX from the label, failure count one past the replaced pod', () => {
  const job = indexedJob();
  const t = indexedPodTemplate(job, { metadata: { labels: { app: 'pi' } }, spec: { containers: [{ name: 'app', image: 'x', env: [{ name: 'A', value: '1' }] }], initContainers: [{ name: 'setup', image: 'x' }] } }, 2, makePod({ index: 2, failures: 0, exits: { app: 1 } }));
  assert.deepEqual(t.metadata, { labels: { app: 'pi', 'batch.kubernetes.io/job-completion-index': '2' }, annotations: { 'batch.kubernetes.io/job-completion-index': '2', 'batch.kubernetes.io/job-index-failure-count': '1' } });
  assert.equal(t.spec?.hostname, 'pi-2');
  const env = { name: 'JOB_COMPLETION_INDEX', valueFrom: { fieldRef: { fieldPath: "metadata.labels['batch.kubernetes.io/job-completion-index']" } } };
  assert.deepEqual(t.spec?.containers[0]?.env, [{ name: 'A', value: '1' }, env]);
  assert.deepEqual(t.spec?.initContainers?.[0]?.env, [env]);
});

test('podGenerateNameWithIndex keeps "-<index>-" and cuts the Job name to fit 58 characters', () => {
  assert.equal(podGenerateNameWithIndex('pi', 7), 'pi-7-');
  const long = podGenerateNameWithIndex('a'.repeat(60), 12);
  assert.equal(long, `${'a'.repeat(54)}-12-`);
  assert.equal(long.length, 58);
});

test('onlyReplaceFailedPods: podReplacementPolicy Failed, or any podFailurePolicy', () => {
  assert.equal(onlyReplaceFailedPods(indexedJob({ podReplacementPolicy: 'TerminatingOrFailed' })), false);
  assert.equal(onlyReplaceFailedPods(indexedJob({ podReplacementPolicy: 'Failed' })), true);
  assert.equal(onlyReplaceFailedPods(indexedJob({ podFailurePolicy: { rules: [] } })), true);
});

// backoff_utils.go newBackoffRecord / getFinishedTime, with pods that finished at the given seconds.
const clock = new VirtualClock();
const ctx = { clock } as unknown as EngineContext;
const finished = (phase: string, at: number): Pod => ({ ...makePod({ phase }), status: { phase, containerStatuses: [{ name: 'app', state: { terminated: { exitCode: phase === 'Failed' ? 1 : 0, finishedAt: clock.timestamp(at * 1000) } }, restartCount: 0, ready: false, image: '', imageID: '' }] } } as Pod);
const backoffCases: { name: string; old?: BackoffRecord; succeeded: number[]; failed: number[]; want: BackoffRecord }[] = [
  { name: 'new failures add to the count and set the last failure', old: { failuresAfterLastSuccess: 1, lastFailureTime: 3000 }, succeeded: [], failed: [14, 12], want: { failuresAfterLastSuccess: 3, lastFailureTime: 14_000 } },
  { name: 'a success resets the count', old: { failuresAfterLastSuccess: 2, lastFailureTime: 3000 }, succeeded: [20], failed: [], want: { failuresAfterLastSuccess: 0 } },
  { name: 'with a success, only the failures finished after it count', succeeded: [20], failed: [10, 25, 30], want: { failuresAfterLastSuccess: 2, lastFailureTime: 30_000 } },
  { name: 'nothing new keeps the record', old: { failuresAfterLastSuccess: 1, lastFailureTime: 3000 }, succeeded: [], failed: [], want: { failuresAfterLastSuccess: 1, lastFailureTime: 3000 } },
];
for (const c of backoffCases) {
  test(`newBackoffRecord: ${c.name}`, () => assert.deepEqual(newBackoffRecord(ctx, c.old, c.succeeded.map((s) => finished('Succeeded', s)), c.failed.map((s) => finished('Failed', s))), c.want));
}

test('getFinishedTime: a deleted pod without terminated containers finished at deletionTimestamp less its grace period', () => {
  const pod = { ...makePod({ phase: 'Running' }), status: { phase: 'Running' } } as Pod;
  pod.metadata = { ...pod.metadata, deletionTimestamp: clock.timestamp(60_000), deletionGracePeriodSeconds: 30 };
  assert.equal(finishedAt(ctx, pod), 30_000);
});

test('getRemainingTimeForFailuresCount: 10 s doubled per failure, at most 10 min, less the time since the last failure', () => {
  clock.now = 100_000;
  assert.equal(remainingForFailures(ctx, 1, 95_000), 5000);
  assert.equal(remainingForFailures(ctx, 3, 95_000), 35_000);
  assert.equal(remainingForFailures(ctx, 20, 100_000), 600_000);
  assert.equal(remainingForFailures(ctx, 1, 80_000), 0);
  clock.now = 0;
});
