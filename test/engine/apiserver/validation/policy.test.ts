// Tests PodDisruptionBudget validation on create against the API server's field paths and messages: the strategy's
// ValidatePodDisruptionBudgetSpec (pkg/apis/policy/validation/validation.go), then, when it passes, the registry's
// ObjectMeta check with path-segment names (staging/src/k8s.io/apiserver/pkg/registry/rest/create.go), v1.36.3.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/engine/api/types';
import type { FieldError } from '../../../../src/engine/apiserver/validation/field-errors';
import { validateObject } from '../../../../src/engine/apiserver/validation';

const PERCENT = "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";
const LABEL_VALUE = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const BOTH = 'minAvailable and maxUnavailable cannot be both set';

const printed = (errs: FieldError[]): string[] => errs.map((e) => `${e.field}: ${e.body}`);

/** makeBudget is a PodDisruptionBudget "web" in default selecting app=web, with the spec fields of `spec` on top. */
function makeBudget(spec: Record<string, unknown>, name = 'web'): KubeObject {
  return { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name, namespace: 'default' }, spec: { selector: { matchLabels: { app: 'web' } }, ...spec } };
}

const cases: { name: string; pdb: KubeObject; want: string[] }[] = [
  { name: 'accepts minAvailable as an int', pdb: makeBudget({ minAvailable: 2 }), want: [] },
  { name: 'accepts maxUnavailable as a percent', pdb: makeBudget({ maxUnavailable: '25%' }), want: [] },
  { name: 'accepts minAvailable 100%', pdb: makeBudget({ minAvailable: '100%' }), want: [] },
  { name: 'accepts neither minAvailable nor maxUnavailable', pdb: makeBudget({}), want: [] },
  { name: 'accepts no selector (it selects nothing)', pdb: { ...makeBudget({ minAvailable: 1 }), spec: { minAvailable: 1 } }, want: [] },
  { name: 'accepts the AlwaysAllow policy', pdb: makeBudget({ minAvailable: 1, unhealthyPodEvictionPolicy: 'AlwaysAllow' }), want: [] },
  { name: 'accepts the IfHealthyBudget policy', pdb: makeBudget({ maxUnavailable: 0, unhealthyPodEvictionPolicy: 'IfHealthyBudget' }), want: [] },
  {
    name: 'refuses minAvailable and maxUnavailable together, the spec shown as its internal struct',
    pdb: makeBudget({ minAvailable: 1, maxUnavailable: '50%' }),
    want: [`spec: Invalid value: {"MinAvailable":1,"Selector":{"matchLabels":{"app":"web"}},"MaxUnavailable":"50%","UnhealthyPodEvictionPolicy":null}: ${BOTH}`],
  },
  {
    name: 'refuses both set, with the policy and no selector in the struct',
    pdb: { ...makeBudget({}), spec: { minAvailable: '10%', maxUnavailable: 0, unhealthyPodEvictionPolicy: 'AlwaysAllow' } },
    want: [`spec: Invalid value: {"MinAvailable":"10%","Selector":null,"MaxUnavailable":0,"UnhealthyPodEvictionPolicy":"AlwaysAllow"}: ${BOTH}`],
  },
  { name: 'refuses a negative minAvailable', pdb: makeBudget({ minAvailable: -1 }), want: ['spec.minAvailable: Invalid value: -1: must be greater than or equal to 0'] },
  { name: 'refuses a negative maxUnavailable', pdb: makeBudget({ maxUnavailable: -3 }), want: ['spec.maxUnavailable: Invalid value: -3: must be greater than or equal to 0'] },
  { name: 'refuses a string that is not a percent, JSON-quoted', pdb: makeBudget({ minAvailable: '50' }), want: [`spec.minAvailable: Invalid value: "50": ${PERCENT}`] },
  { name: 'refuses a negative percent as no percent', pdb: makeBudget({ maxUnavailable: '-10%' }), want: [`spec.maxUnavailable: Invalid value: "-10%": ${PERCENT}`] },
  { name: 'refuses minAvailable over 100%', pdb: makeBudget({ minAvailable: '150%' }), want: ['spec.minAvailable: Invalid value: "150%": must not be greater than 100%'] },
  { name: 'refuses maxUnavailable over 100%', pdb: makeBudget({ maxUnavailable: '101%' }), want: ['spec.maxUnavailable: Invalid value: "101%": must not be greater than 100%'] },
  {
    name: 'reports both fields when both are set and bad, after the exclusivity error',
    pdb: makeBudget({ minAvailable: '200%', maxUnavailable: -1 }),
    want: [
      `spec: Invalid value: {"MinAvailable":"200%","Selector":{"matchLabels":{"app":"web"}},"MaxUnavailable":-1,"UnhealthyPodEvictionPolicy":null}: ${BOTH}`,
      'spec.minAvailable: Invalid value: "200%": must not be greater than 100%',
      'spec.maxUnavailable: Invalid value: -1: must be greater than or equal to 0',
    ],
  },
  { name: 'refuses an invalid label value in the selector', pdb: makeBudget({ minAvailable: 1, selector: { matchLabels: { app: 'web app' } } }), want: [`spec.selector.matchLabels: Invalid value: "web app": ${LABEL_VALUE}`] },
  {
    name: 'refuses an In requirement without values',
    pdb: makeBudget({ minAvailable: 1, selector: { matchExpressions: [{ key: 'app', operator: 'In' }] } }),
    want: ["spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'"],
  },
  {
    name: 'refuses an unknown operator',
    pdb: makeBudget({ minAvailable: 1, selector: { matchExpressions: [{ key: 'app', operator: 'Equals', values: ['web'] }] } }),
    want: ['spec.selector.matchExpressions[0].operator: Invalid value: "Equals": not a valid selector operator'],
  },
  {
    name: 'refuses an unknown unhealthyPodEvictionPolicy, listing the supported ones sorted',
    pdb: makeBudget({ minAvailable: 1, unhealthyPodEvictionPolicy: 'Never' }),
    want: ['spec.unhealthyPodEvictionPolicy: Unsupported value: "Never": supported values: "AlwaysAllow", "IfHealthyBudget"'],
  },
  // The strategy validates no name; rest.BeforeCreate then checks it as a path segment.
  { name: 'accepts an uppercase name: only a path segment is required', pdb: makeBudget({ minAvailable: 1 }, 'Web'), want: [] },
  { name: 'refuses a name with a slash, once the spec passes', pdb: makeBudget({ minAvailable: 1 }, 'web/a'), want: ['metadata.name: Invalid value: "web/a": may not contain \'/\''] },
  { name: 'a bad spec is reported alone, before the name is checked', pdb: makeBudget({ minAvailable: -1 }, 'web/a'), want: ['spec.minAvailable: Invalid value: -1: must be greater than or equal to 0'] },
];

for (const c of cases) {
  test(`PodDisruptionBudget validation: ${c.name}`, () => {
    assert.deepEqual(printed(validateObject(c.pdb)), c.want);
  });
}
