// The API server's validation of a HorizontalPodAutoscaler's spec.behavior, after autoscaling/v2 defaulting completed
// each rule given: validateBehavior, validateScalingRules and validateScalingPolicy in
// pkg/apis/autoscaling/validation/validation.go (v1.36.3), every error with its path and words, in their order, after
// the spec's other errors. Each case writes an autoscaler of a Deployment, 1 to 5 replicas, with that behavior.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { runJson } from './harness';

const dir = mkdtempSync(join(tmpdir(), 'hpa-behavior-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** runHpa writes the autoscaler with this behavior (and spec overrides) and runs it. */
function runHpa(name: string, behavior: unknown, spec: Record<string, unknown> = {}) {
  const hpa = {
    apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'web' },
    spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 5, behavior, ...spec },
  };
  const file = join(dir, `${name.replace(/\W+/g, '-').slice(0, 60)}.yaml`);
  writeFileSync(file, `${JSON.stringify(hpa)}\n`);
  return runJson('run', file, '--for', '1s');
}

const invalid = (...errors: string[]) => `HorizontalPodAutoscaler.autoscaling "web" is invalid: ${errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`}`;

const refused: { name: string; behavior: unknown; spec?: Record<string, unknown>; message: string }[] = [
  {
    name: 'stabilization windows outside 0..3600 and an unknown selectPolicy',
    behavior: { scaleUp: { stabilizationWindowSeconds: -1, selectPolicy: 'Maximum' }, scaleDown: { stabilizationWindowSeconds: 3601 } },
    message: invalid(
      'spec.behavior.scaleUp.stabilizationWindowSeconds: Invalid value: -1: must be greater than or equal to zero',
      'spec.behavior.scaleUp.selectPolicy: Unsupported value: "Maximum": supported values: "Disabled", "Max", "Min"',
      'spec.behavior.scaleDown.stabilizationWindowSeconds: Invalid value: 3601: must be less than or equal to 3600',
    ),
  },
  {
    // An empty list is kept by defaulting (copyHPAScalingRules replaces only nil policies).
    name: 'an empty policy list, and policies of an unknown or missing type, a value and a period out of bounds',
    behavior: {
      scaleUp: { policies: [] },
      scaleDown: { policies: [{ type: 'Replicas', value: 0, periodSeconds: 0 }, { type: 'Pods', value: -1, periodSeconds: 1801 }, { value: 1, periodSeconds: 15 }] },
    },
    message: invalid(
      'spec.behavior.scaleUp.policies: Required value: must specify at least one Policy',
      'spec.behavior.scaleDown.policies[0].type: Unsupported value: "Replicas": supported values: "Percent", "Pods"',
      'spec.behavior.scaleDown.policies[0].value: Invalid value: 0: must be greater than zero',
      'spec.behavior.scaleDown.policies[0].periodSeconds: Invalid value: 0: must be greater than zero',
      'spec.behavior.scaleDown.policies[1].value: Invalid value: -1: must be greater than zero',
      'spec.behavior.scaleDown.policies[1].periodSeconds: Invalid value: 1801: must be less than or equal to 1800',
      'spec.behavior.scaleDown.policies[2].type: Unsupported value: "": supported values: "Percent", "Pods"',
    ),
  },
  {
    // ValidateNonnegativeQuantity prints the quantity's canonical string (HPAConfigurableTolerance is on by default).
    name: 'a negative tolerance, printed as its canonical quantity',
    behavior: { scaleDown: { tolerance: '-0.05' } },
    message: invalid('spec.behavior.scaleDown.tolerance: Invalid value: "-50m": must be greater than or equal to 0'),
  },
  {
    name: 'behavior errors after the replica bounds and metrics',
    behavior: { scaleUp: { policies: [{ type: 'Pods', value: 4, periodSeconds: 2000 }] } },
    spec: { maxReplicas: 0, metrics: [{ type: 'Pods', pods: { metric: { name: 'rps' }, target: { type: 'AverageValue' } } }] },
    message: invalid(
      'spec.maxReplicas: Required value: must be set and greater than 0',
      'spec.maxReplicas: Invalid value: 0: must be greater than or equal to `minReplicas`',
      'spec.metrics[0].pods.target.averageValue: Required value: must specify a positive target averageValue',
      'spec.behavior.scaleUp.policies[0].periodSeconds: Invalid value: 2000: must be less than or equal to 1800',
    ),
  },
];

for (const c of refused) {
  test(`HPA behavior validation: the API server refuses ${c.name}`, () => {
    const { status, report } = runHpa(c.name, c.behavior, c.spec);
    assert.equal(status, 1);
    assert.equal(report.outcome, 'Rejected');
    assert.equal(report.rejection?.code, 422);
    assert.equal(report.rejection?.message, c.message);
  });
}

test('HPA behavior validation: the bounds themselves are accepted, and the rules given in part are stored completed', () => {
  const behavior = { scaleUp: { stabilizationWindowSeconds: 3600, selectPolicy: 'Disabled' }, scaleDown: { stabilizationWindowSeconds: 0, policies: [{ type: 'Pods', value: 1, periodSeconds: 1800 }], tolerance: '0' } };
  const { report } = runHpa('bounds', behavior);
  assert.equal(report.rejection, undefined);
  const stored = report.objects.find((o) => o.kind === 'HorizontalPodAutoscaler');
  assert.deepEqual(stored?.spec?.['behavior'], {
    scaleUp: { stabilizationWindowSeconds: 3600, selectPolicy: 'Disabled', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] },
    scaleDown: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 1, periodSeconds: 1800 }], tolerance: '0' },
  });
});
