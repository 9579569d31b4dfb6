// Tests spec.successPolicy validation against the API server's field paths and messages: validateJobSpec's
// successPolicy branch, validateSuccessPolicy, validateSuccessPolicyRule and validateIndexesFormat / parseIndexInterval
// of pkg/apis/batch/validation/validation.go (read in a copy with maxSuccessPolicyRule = 20 and
// maxJobSuccessPolicySucceededIndexesLimit = 64 * 1024, the 1.31–1.36 era).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type JobPolicySpec, validateJobPolicies } from '../../../../src/engine/apiserver/validation/batch-policies';
import { validateIndexesFormat } from '../../../../src/engine/apiserver/validation/batch-success-policy';

const template = { spec: { restartPolicy: 'Never', containers: [{ name: 'abc', image: 'x' }] } };
const indexed = (rules: { succeededIndexes?: string; succeededCount?: number }[], completions = 10): JobPolicySpec => ({ template, completionMode: 'Indexed', completions, successPolicy: { rules } });

const cases: { name: string; spec: JobPolicySpec; want: string[] }[] = [
  {
    name: 'rules with indexes, a count, or both within completions pass',
    spec: indexed([{ succeededIndexes: '0-2,4' }, { succeededCount: 3 }, { succeededIndexes: '5-9', succeededCount: 5 }]),
    want: [],
  },
  {
    // validateJobSpec: field.Invalid(fldPath.Child("successPolicy"), *spec.SuccessPolicy, "requires indexed completion mode");
    // the internal batch.SuccessPolicy has no json tags, so its Go field names print (rendering not checked against 1.36).
    name: 'a success policy requires the Indexed completion mode',
    spec: { template, completionMode: 'NonIndexed', successPolicy: { rules: [{ succeededIndexes: '0' }] } },
    want: ['spec.successPolicy: Invalid value: {"Rules":[{"SucceededIndexes":"0","SucceededCount":null}]}: requires indexed completion mode'],
  },
  {
    // validateSuccessPolicy: field.Required(rulesPath, "at least one rules must be specified when the successPolicy is specified").
    name: 'a success policy without rules is refused',
    spec: indexed([]),
    want: ['spec.successPolicy.rules: Required value: at least one rules must be specified when the successPolicy is specified'],
  },
  {
    // validateSuccessPolicy: field.TooMany(rulesPath, len(rules), maxSuccessPolicyRule) with maxSuccessPolicyRule = 20.
    name: 'at most 20 rules are allowed',
    spec: indexed(Array.from({ length: 21 }, () => ({ succeededCount: 1 }))),
    want: ['spec.successPolicy.rules: Too many: 21: must have at most 20 items'],
  },
  {
    // validateSuccessPolicyRule: field.Required(rulePath, "at least one of succeededCount or succeededIndexes must be specified").
    name: 'a rule needs succeededIndexes or succeededCount',
    spec: indexed([{}]),
    want: ['spec.successPolicy.rules[0]: Required value: at least one of succeededCount or succeededIndexes must be specified'],
  },
  {
    // parseIndexInterval: fmt.Errorf("too large index: %q", limitsStr[1]), wrapped as "error parsing succeededIndexes: %s".
    name: 'an index at or above completions is too large',
    spec: indexed([{ succeededIndexes: '0-10' }]),
    want: ['spec.successPolicy.rules[0].succeededIndexes: Invalid value: "0-10": error parsing succeededIndexes: too large index: "10"'],
  },
  {
    // validateIndexesFormat: fmt.Errorf("non-increasing order, previous: %d, current: %d", *lastIndex, x).
    name: 'intervals must be in increasing order',
    spec: indexed([{ succeededIndexes: '3,1' }]),
    want: ['spec.successPolicy.rules[0].succeededIndexes: Invalid value: "3,1": error parsing succeededIndexes: non-increasing order, previous: 3, current: 1'],
  },
  {
    // parseIndexInterval: fmt.Errorf("cannot convert string to integer for index: %q", limitsStr[0]); a count above the
    // indexes of a malformed succeededIndexes is compared with 0 (validateIndexesFormat returns 0 with its error).
    name: 'a non-numeric index is refused, and the count is then checked against 0 indexes',
    spec: indexed([{ succeededIndexes: 'a', succeededCount: 1 }]),
    want: [
      'spec.successPolicy.rules[0].succeededIndexes: Invalid value: "a": error parsing succeededIndexes: cannot convert string to integer for index: "a"',
      'spec.successPolicy.rules[0].succeededCount: Invalid value: 1: must be less than or equal to 0 (the number of indexes in the specified succeededIndexes field)',
    ],
  },
  {
    // validateSuccessPolicyRule: "must be less than or equal to %d (the number of specified completions)".
    name: 'succeededCount may not exceed completions',
    spec: indexed([{ succeededCount: 4 }], 3),
    want: ['spec.successPolicy.rules[0].succeededCount: Invalid value: 4: must be less than or equal to 3 (the number of specified completions)'],
  },
  {
    // validateSuccessPolicyRule: "must be less than or equal to %d (the number of indexes in the specified succeededIndexes field)".
    name: 'succeededCount may not exceed the number of succeededIndexes',
    spec: indexed([{ succeededIndexes: '0-1', succeededCount: 3 }]),
    want: ['spec.successPolicy.rules[0].succeededCount: Invalid value: 3: must be less than or equal to 2 (the number of indexes in the specified succeededIndexes field)'],
  },
  {
    // ValidateNonnegativeField: "must be greater than or equal to 0".
    name: 'succeededCount may not be negative',
    spec: indexed([{ succeededCount: -1 }]),
    want: ['spec.successPolicy.rules[0].succeededCount: Invalid value: -1: must be greater than or equal to 0'],
  },
];
for (const c of cases) test(`validateJobPolicies (successPolicy): ${c.name}`, () => assert.deepEqual(validateJobPolicies(c.spec, 'spec').map((e) => `${e.field}: ${e.body}`), c.want));

const formatCases: { name: string; text: string; completions: number; want: number | string }[] = [
  { name: 'an empty string holds no index', text: '', completions: 3, want: 0 },
  { name: '"1,3-5" holds 4 indexes', text: '1,3-5', completions: 6, want: 4 },
  { name: 'an interval of three parts is refused', text: '1-2-3', completions: 6, want: 'the fragment "1-2-3" violates the requirement that an index interval can have at most two parts separated by \'-\'' },
  { name: 'an interval whose end is not above its start is refused', text: '2-2', completions: 6, want: 'non-increasing order, previous: 2, current: 2' },
  { name: 'a negative index cannot be written: "-1" is an empty first part', text: '-1', completions: 6, want: 'cannot convert string to integer for index: ""' },
];
for (const c of formatCases) test(`validateIndexesFormat: ${c.name}`, () => assert.equal(validateIndexesFormat(c.text, c.completions), c.want));
