// Tests the Job's per-index back-off, pod failure policy and pod replacement policy validation against the API
// server's field paths and messages: validateJobSpec, validatePodFailurePolicyRule(OnExitCodes|OnPodConditions) and
// validatePodReplacementPolicy of pkg/apis/batch/validation/validation.go (its validation_test.go error keys).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type JobPolicySpec, validateJobPolicies } from '../../../../src/engine/apiserver/validation/batch-policies';

const template = { spec: { restartPolicy: 'Never', containers: [{ name: 'abc', image: 'x' }], initContainers: [{ name: 'def', image: 'x' }] } };
const exitCodes = (action: string, operator: string, values: number[], containerName?: string) => ({ action, onExitCodes: { operator, values, ...(containerName ? { containerName } : {}) } });

const cases: { name: string; spec: JobPolicySpec; want: string[] }[] = [
  {
    name: 'a valid policy with each action and both kinds of rule passes',
    spec: { template, completionMode: 'Indexed', completions: 2, backoffLimitPerIndex: 1, podReplacementPolicy: 'Failed', podFailurePolicy: { rules: [
      { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }, exitCodes('Count', 'In', [1, 2, 3], 'abc'),
      exitCodes('FailIndex', 'In', [10]), exitCodes('FailJob', 'NotIn', [5, 6, 7]),
    ] } },
    want: [],
  },
  {
    name: 'maxFailedIndexes needs backoffLimitPerIndex',
    spec: { template, completionMode: 'Indexed', completions: 2, maxFailedIndexes: 1 },
    want: ['spec.backoffLimitPerIndex: Required value: when maxFailedIndexes is specified'],
  },
  {
    name: 'maxFailedIndexes may not exceed completions',
    spec: { template, completionMode: 'Indexed', completions: 2, backoffLimitPerIndex: 1, maxFailedIndexes: 3 },
    want: ['spec.maxFailedIndexes: Invalid value: 3: must be less than or equal to completions'],
  },
  {
    name: 'backoffLimitPerIndex requires the Indexed completion mode',
    spec: { template, completionMode: 'NonIndexed', backoffLimitPerIndex: 1 },
    want: ['spec.backoffLimitPerIndex: Invalid value: 1: requires indexed completion mode'],
  },
  {
    name: 'FailIndex requires backoffLimitPerIndex',
    spec: { template, podFailurePolicy: { rules: [exitCodes('FailIndex', 'In', [1])] } },
    want: ['spec.podFailurePolicy.rules[0].action: Invalid value: "FailIndex": requires the backoffLimitPerIndex to be set'],
  },
  {
    name: 'an unknown action and operator are not supported',
    spec: { template, podFailurePolicy: { rules: [exitCodes('Retry', 'Is', [1])] } },
    want: [
      'spec.podFailurePolicy.rules[0].action: Unsupported value: "Retry": supported values: "Count", "FailIndex", "FailJob", "Ignore"',
      'spec.podFailurePolicy.rules[0].onExitCodes.operator: Unsupported value: "Is": supported values: "In", "NotIn"',
    ],
  },
  {
    name: 'containerName must name a container or init container of the template',
    spec: { template, podFailurePolicy: { rules: [exitCodes('FailJob', 'In', [1], 'nope')] } },
    want: ['spec.podFailurePolicy.rules[0].onExitCodes.containerName: Invalid value: "nope": must be one of the container or initContainer names in the pod template'],
  },
  {
    name: 'exit code 0 is refused for In; values must be unique and ordered',
    spec: { template, podFailurePolicy: { rules: [exitCodes('FailJob', 'In', [0, 2, 2, 1])] } },
    want: [
      'spec.podFailurePolicy.rules[0].onExitCodes.values[0]: Invalid value: 0: must not be 0 for the In operator',
      'spec.podFailurePolicy.rules[0].onExitCodes.values[2]: Duplicate value: 2',
      // The list's value as the project prints non-scalar values (JSON, as for a selector): not checked against 1.36.
      'spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: [0,2,2,1]: must be ordered',
    ],
  },
  {
    name: 'a rule needs exactly one of onExitCodes and onPodConditions',
    spec: { template, podFailurePolicy: { rules: [{ action: 'Ignore' }] } },
    want: ['spec.podFailurePolicy.rules[0]: Invalid value: specifying one of OnExitCodes and OnPodConditions is required'],
  },
  {
    name: 'with a podFailurePolicy podReplacementPolicy must be Failed',
    spec: { template, podReplacementPolicy: 'TerminatingOrFailed', podFailurePolicy: { rules: [exitCodes('FailJob', 'In', [1])] } },
    want: ['spec.podReplacementPolicy: Unsupported value: "TerminatingOrFailed": supported values: "Failed"'],
  },
];
for (const c of cases) test(`validateJobPolicies: ${c.name}`, () => assert.deepEqual(validateJobPolicies(c.spec, 'spec').map((e) => `${e.field}: ${e.body}`), c.want));
