// Tests HorizontalPodAutoscaler behavior validation on create against the API server's field paths and messages:
// validateBehavior, validateScalingRules and validateScalingPolicy in pkg/apis/autoscaling/validation/validation.go
// (v1.36.3), on a behavior as given (validateObject runs after defaulting: these cases set what it would set).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/engine/api/types';
import type { FieldError } from '../../../../src/engine/apiserver/validation/field-errors';
import { validateObject } from '../../../../src/engine/apiserver/validation';

const printed = (errs: FieldError[]): string[] => errs.map((e) => `${e.field}: ${e.body}`);
const POLICY = { type: 'Pods', value: 4, periodSeconds: 15 };

/** makeHpa is an autoscaler "web" of Deployment web, 1 to 5 replicas, with this behavior. */
function makeHpa(behavior: unknown): KubeObject {
  return {
    apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'web', namespace: 'default' },
    spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 5, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }], behavior },
  } as KubeObject;
}

const cases: { name: string; behavior: unknown; want: string[] }[] = [
  { name: 'accepts no behavior', behavior: undefined, want: [] },
  { name: 'accepts a null behavior', behavior: null, want: [] },
  { name: 'accepts a behavior with null rules (nothing to check in that direction)', behavior: { scaleUp: null, scaleDown: { policies: [POLICY] } }, want: [] },
  {
    name: 'accepts every bound and selectPolicy value',
    behavior: { scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Disabled', policies: [{ type: 'Percent', value: 1, periodSeconds: 1 }], tolerance: '0' }, scaleDown: { stabilizationWindowSeconds: 3600, selectPolicy: 'Min', policies: [{ type: 'Pods', value: 1, periodSeconds: 1800 }], tolerance: 0.5 } },
    want: [],
  },
  {
    name: 'refuses rules without policies, however small',
    behavior: { scaleUp: {}, scaleDown: { policies: null } },
    want: ['spec.behavior.scaleUp.policies: Required value: must specify at least one Policy', 'spec.behavior.scaleDown.policies: Required value: must specify at least one Policy'],
  },
  {
    name: 'refuses a selectPolicy in the wrong case, quoted as JSON',
    behavior: { scaleUp: { selectPolicy: 'max', policies: [POLICY] } },
    want: ['spec.behavior.scaleUp.selectPolicy: Unsupported value: "max": supported values: "Disabled", "Max", "Min"'],
  },
  {
    name: 'refuses a null policy as an empty one',
    behavior: { scaleDown: { policies: [null] } },
    want: [
      'spec.behavior.scaleDown.policies[0].type: Unsupported value: "": supported values: "Percent", "Pods"',
      'spec.behavior.scaleDown.policies[0].value: Invalid value: 0: must be greater than zero',
      'spec.behavior.scaleDown.policies[0].periodSeconds: Invalid value: 0: must be greater than zero',
    ],
  },
  {
    name: 'refuses a negative tolerance as a number, printed as its canonical quantity after the policies',
    behavior: { scaleUp: { stabilizationWindowSeconds: 4000, policies: [{ ...POLICY, value: 0 }], tolerance: -1.5 } },
    want: [
      'spec.behavior.scaleUp.stabilizationWindowSeconds: Invalid value: 4000: must be less than or equal to 3600',
      'spec.behavior.scaleUp.policies[0].value: Invalid value: 0: must be greater than zero',
      'spec.behavior.scaleUp.tolerance: Invalid value: "-1500m": must be greater than or equal to 0',
    ],
  },
];

for (const c of cases) {
  test(`HorizontalPodAutoscaler behavior validation ${c.name}`, () => {
    assert.deepEqual(printed(validateObject(makeHpa(c.behavior))), c.want);
  });
}
