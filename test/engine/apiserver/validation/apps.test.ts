// Tests Deployment and ReplicaSet validation on create against the API server's field paths and messages.
// Objects are defaulted first (pkg/apis/apps/v1/defaults.go), as the API server does before validating; rows follow
// pkg/apis/apps/validation/validation.go and validation_test.go unless marked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultDeployment, defaultReplicaSet } from '../../../../src/engine/api/defaults-workloads';
import type { Deployment, DeploymentSpec, KubeObject, ReplicaSet } from '../../../../src/engine/api/types';
import type { FieldError } from '../../../../src/engine/apiserver/validation/field-errors';
import { validateObject } from '../../../../src/engine/apiserver/validation';
import { validateDeployment, validateDeploymentStrategy, validateReplicaSet } from '../../../../src/engine/apiserver/validation/apps';

const SUBDOMAIN = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_VALUE = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const KEY_NAME = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const PERCENT = "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";
const MISMATCH = '`selector` does not match template `labels`';

const printed = (errs: FieldError[]): string[] => errs.map((e) => `${e.field}: ${e.body}`);

/** makeDeployment is a valid Deployment "web" (selector app=web), changed by edit, then defaulted. */
function makeDeployment(edit: (d: Deployment) => void = () => {}): Deployment {
  const d: Deployment = {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
    spec: {
      replicas: 3, selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } },
    },
  };
  edit(d);
  return defaultDeployment(d).object;
}

/** makeReplicaSet is a valid ReplicaSet "web-5d4f8" (selector app=web), changed by edit, then defaulted. */
function makeReplicaSet(edit: (rs: ReplicaSet) => void = () => {}): ReplicaSet {
  const rs: ReplicaSet = {
    apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'web-5d4f8', namespace: 'default' },
    spec: {
      replicas: 2, selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } },
    },
  };
  edit(rs);
  return defaultReplicaSet(rs).object;
}

const deploymentCases: { name: string; deployment: Deployment; want: string[] }[] = [
  { name: 'accepts a Deployment whose selector matches its template', deployment: makeDeployment(), want: [] },
  { name: 'accepts a paused Deployment with no revision history kept', deployment: makeDeployment((d) => Object.assign(d.spec!, { paused: true, revisionHistoryLimit: 0 })), want: [] },
  // ValidateDeploymentName = NameIsDNSSubdomain, through ValidateObjectMeta.
  { name: 'rejects an uppercase name', deployment: makeDeployment((d) => { d.metadata!.name = 'Web'; }), want: [`metadata.name: Invalid value: "Web": ${SUBDOMAIN}`] },
  { name: 'rejects an invalid label value of the Deployment itself', deployment: makeDeployment((d) => { d.metadata!.labels = { tier: 'front end' }; }), want: [`metadata.labels: Invalid value: "front end": ${LABEL_VALUE}`] },
  // ValidateDeploymentSpec: replicas, selector.
  { name: 'rejects negative replicas', deployment: makeDeployment((d) => { d.spec!.replicas = -1; }), want: ['spec.replicas: Invalid value: -1: must be greater than or equal to 0'] },
  {
    name: 'requires a selector, and a missing one matches no template',
    deployment: makeDeployment((d) => { const spec: Partial<DeploymentSpec> = d.spec!; delete spec.selector; }),
    want: ['spec.selector: Required value', `spec.template.metadata.labels: Invalid value: {"app":"web"}: ${MISMATCH}`],
  },
  { name: 'rejects an empty selector, printed as JSON', deployment: makeDeployment((d) => { d.spec!.selector = {}; }), want: ['spec.selector: Invalid value: {}: empty selector is invalid for deployment'] },
  { name: 'rejects a selector with empty matchLabels as empty', deployment: makeDeployment((d) => { d.spec!.selector = { matchLabels: {} }; }), want: ['spec.selector: Invalid value: {}: empty selector is invalid for deployment'] },
  // ValidatePodTemplateSpecForReplicaSet: the selector against the template's labels (a map printed as sorted JSON).
  { name: 'rejects a selector that does not match the template labels', deployment: makeDeployment((d) => { d.spec!.template.metadata!.labels = { app: 'api' }; }), want: [`spec.template.metadata.labels: Invalid value: {"app":"api"}: ${MISMATCH}`] },
  { name: 'prints the template labels with their keys sorted', deployment: makeDeployment((d) => { d.spec!.template.metadata!.labels = { tier: 'web', app: 'api' }; }), want: [`spec.template.metadata.labels: Invalid value: {"app":"api","tier":"web"}: ${MISMATCH}`] },
  { name: 'prints absent template labels as null', deployment: makeDeployment((d) => { delete d.spec!.template.metadata; }), want: [`spec.template.metadata.labels: Invalid value: null: ${MISMATCH}`] },
  {
    name: 'matches matchExpressions against the template labels',
    deployment: makeDeployment((d) => { d.spec!.selector = { matchExpressions: [{ key: 'app', operator: 'In', values: ['api', 'worker'] }] }; }),
    want: [`spec.template.metadata.labels: Invalid value: {"app":"web"}: ${MISMATCH}`],
  },
  // v1validation.ValidateLabelSelector (strict values); a selector that does not parse stops before the template.
  {
    name: 'requires values for In and then calls the selector invalid',
    deployment: makeDeployment((d) => { d.spec!.selector = { matchExpressions: [{ key: 'app', operator: 'In' }] }; d.spec!.template.metadata!.labels = { other: 'x' }; }),
    want: ["spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'", 'spec.selector: Invalid value: {"matchExpressions":[{"key":"app","operator":"In"}]}: invalid label selector'],
  },
  {
    name: 'rejects an unknown selector operator',
    deployment: makeDeployment((d) => { d.spec!.selector = { matchExpressions: [{ key: 'app', operator: 'Equals', values: ['web'] }] }; }),
    want: ['spec.selector.matchExpressions[0].operator: Invalid value: "Equals": not a valid selector operator', 'spec.selector: Invalid value: {"matchExpressions":[{"key":"app","operator":"Equals","values":["web"]}]}: invalid label selector'],
  },
  {
    name: 'forbids values for Exists',
    deployment: makeDeployment((d) => { d.spec!.selector = { matchExpressions: [{ key: 'app', operator: 'Exists', values: ['web'] }] }; }),
    want: ["spec.selector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'", 'spec.selector: Invalid value: {"matchExpressions":[{"key":"app","operator":"Exists","values":["web"]}]}: invalid label selector'],
  },
  {
    name: 'rejects an invalid matchLabels value at the matchLabels path',
    deployment: makeDeployment((d) => { d.spec!.selector = { matchLabels: { app: 'front end' } }; }),
    want: [`spec.selector.matchLabels: Invalid value: "front end": ${LABEL_VALUE}`, 'spec.selector: Invalid value: {"matchLabels":{"app":"front end"}}: invalid label selector'],
  },
  // ValidatePodTemplateSpec (pkg/apis/core/validation/validation.go): labels and annotations at spec.template.{labels,annotations}.
  { name: 'checks template labels at spec.template.labels', deployment: makeDeployment((d) => { d.spec!.template.metadata!.labels = { app: 'web', tier: 'front end' }; }), want: [`spec.template.labels: Invalid value: "front end": ${LABEL_VALUE}`] },
  { name: 'checks template annotations at spec.template.annotations', deployment: makeDeployment((d) => { d.spec!.template.metadata!.annotations = { 'bad key': 'x' }; }), want: [`spec.template.annotations: Invalid value: "bad key": ${KEY_NAME}`] },
  { name: 'checks the template spec with the pod rules at spec.template.spec', deployment: makeDeployment((d) => { d.spec!.template.spec!.containers = []; }), want: ['spec.template.spec.containers: Required value'] },
  {
    name: 'forbids ephemeral containers in the template',
    deployment: makeDeployment((d) => { d.spec!.template.spec!.ephemeralContainers = [{ name: 'debug', image: 'busybox:1.36', imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File', terminationMessagePath: '/dev/termination-log' }]; }),
    want: ['spec.template.spec.ephemeralContainers: Forbidden: ephemeral containers not allowed in pod template'],
  },
  // ValidatePodTemplateSpecForReplicaSet: restartPolicy Always, no activeDeadlineSeconds.
  { name: 'accepts only Always as the template restartPolicy', deployment: makeDeployment((d) => { d.spec!.template.spec!.restartPolicy = 'Never'; }), want: ['spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"'] },
  { name: 'refuses OnFailure as the template restartPolicy', deployment: makeDeployment((d) => { d.spec!.template.spec!.restartPolicy = 'OnFailure'; }), want: ['spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"'] },
  { name: 'forbids activeDeadlineSeconds in the template, naming ReplicaSet', deployment: makeDeployment((d) => { d.spec!.template.spec!.activeDeadlineSeconds = 30; }), want: ['spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported'] },
  // ValidateDeploymentStrategy and ValidateRollingUpdateDeployment.
  { name: 'forbids rollingUpdate with the Recreate strategy', deployment: makeDeployment((d) => { d.spec!.strategy = { type: 'Recreate', rollingUpdate: { maxSurge: 1 } }; }), want: ["spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'"] },
  { name: 'accepts the Recreate strategy alone', deployment: makeDeployment((d) => { d.spec!.strategy = { type: 'Recreate' }; }), want: [] },
  {
    name: 'rejects an unknown strategy type, printing the internal struct',
    deployment: makeDeployment((d) => { d.spec!.strategy = { type: 'BlueGreen' }; }),
    want: ['spec.strategy: Unsupported value: {"Type":"BlueGreen","RollingUpdate":null}: supported values: "Recreate", "RollingUpdate"'],
  },
  { name: 'rejects maxUnavailable and maxSurge both 0', deployment: makeDeployment((d) => { d.spec!.strategy = { rollingUpdate: { maxUnavailable: 0, maxSurge: 0 } }; }), want: ['spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0'] },
  { name: 'counts 0% as zero, printed quoted', deployment: makeDeployment((d) => { d.spec!.strategy = { rollingUpdate: { maxUnavailable: '0%', maxSurge: 0 } }; }), want: ['spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "0%": may not be 0 when `maxSurge` is 0'] },
  { name: 'rejects a maxSurge string that is not a percent', deployment: makeDeployment((d) => { d.spec!.strategy = { rollingUpdate: { maxSurge: '10' } }; }), want: [`spec.strategy.rollingUpdate.maxSurge: Invalid value: "10": ${PERCENT}`] },
  { name: 'rejects a negative maxUnavailable', deployment: makeDeployment((d) => { d.spec!.strategy = { rollingUpdate: { maxUnavailable: -1 } }; }), want: ['spec.strategy.rollingUpdate.maxUnavailable: Invalid value: -1: must be greater than or equal to 0'] },
  { name: 'rejects maxUnavailable over 100%', deployment: makeDeployment((d) => { d.spec!.strategy = { rollingUpdate: { maxUnavailable: '120%' } }; }), want: ['spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "120%": must not be greater than 100%'] },
  { name: 'accepts maxSurge over 100%', deployment: makeDeployment((d) => { d.spec!.strategy = { rollingUpdate: { maxSurge: '200%' } }; }), want: [] },
  // minReadySeconds, revisionHistoryLimit, progressDeadlineSeconds.
  { name: 'rejects a negative minReadySeconds', deployment: makeDeployment((d) => { d.spec!.minReadySeconds = -1; }), want: ['spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0'] },
  { name: 'rejects a negative revisionHistoryLimit', deployment: makeDeployment((d) => { d.spec!.revisionHistoryLimit = -1; }), want: ['spec.revisionHistoryLimit: Invalid value: -1: must be greater than or equal to 0'] },
  {
    name: 'requires progressDeadlineSeconds to exceed minReadySeconds',
    deployment: makeDeployment((d) => { Object.assign(d.spec!, { minReadySeconds: 10, progressDeadlineSeconds: 10 }); }),
    want: ['spec.progressDeadlineSeconds: Invalid value: 10: must be greater than minReadySeconds'],
  },
  {
    name: 'reports a negative progressDeadlineSeconds twice',
    deployment: makeDeployment((d) => { d.spec!.progressDeadlineSeconds = -1; }),
    want: ['spec.progressDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0', 'spec.progressDeadlineSeconds: Invalid value: -1: must be greater than minReadySeconds'],
  },
  {
    name: 'lists errors in ValidateDeployment order: metadata, replicas, template, strategy, minReadySeconds',
    deployment: makeDeployment((d) => {
      d.metadata!.name = 'Web';
      Object.assign(d.spec!, { replicas: -1, minReadySeconds: -5, strategy: { type: 'Recreate', rollingUpdate: {} } });
      d.spec!.template.spec!.restartPolicy = 'Never';
    }),
    want: [
      `metadata.name: Invalid value: "Web": ${SUBDOMAIN}`, 'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
      'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
      "spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'", 'spec.minReadySeconds: Invalid value: -5: must be greater than or equal to 0',
    ],
  },
];

for (const c of deploymentCases) {
  test(c.name, () => {
    assert.deepEqual(printed(validateDeployment(c.deployment)), c.want);
  });
}

test('requires rollingUpdate for the RollingUpdate strategy when defaulting did not run', () => {
  assert.deepEqual(printed(validateDeploymentStrategy({ type: 'RollingUpdate' }, 'spec.strategy')), ['spec.strategy.rollingUpdate: Required value: this should be defaulted and never be nil']);
});

// ValidateReplicaSet and ValidateReplicaSetSpec: the same selector and template rules.
const replicaSetCases: { name: string; replicaSet: ReplicaSet; want: string[] }[] = [
  { name: 'accepts a ReplicaSet whose selector matches its template', replicaSet: makeReplicaSet(), want: [] },
  {
    name: 'checks ReplicaSet replicas before minReadySeconds',
    replicaSet: makeReplicaSet((rs) => { Object.assign(rs.spec!, { replicas: -2, minReadySeconds: -1 }); }),
    want: ['spec.replicas: Invalid value: -2: must be greater than or equal to 0', 'spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0'],
  },
  { name: 'says an empty ReplicaSet selector is invalid "for deployment"', replicaSet: makeReplicaSet((rs) => { rs.spec!.selector = {}; }), want: ['spec.selector: Invalid value: {}: empty selector is invalid for deployment'] },
  { name: 'rejects a ReplicaSet selector that does not match its template', replicaSet: makeReplicaSet((rs) => { rs.spec!.selector = { matchLabels: { app: 'api' } }; }), want: [`spec.template.metadata.labels: Invalid value: {"app":"web"}: ${MISMATCH}`] },
  { name: 'accepts only Always as a ReplicaSet template restartPolicy', replicaSet: makeReplicaSet((rs) => { rs.spec!.template!.spec!.restartPolicy = 'OnFailure'; }), want: ['spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"'] },
  { name: 'forbids activeDeadlineSeconds in a ReplicaSet template', replicaSet: makeReplicaSet((rs) => { rs.spec!.template!.spec!.activeDeadlineSeconds = 60; }), want: ['spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported'] },
  { name: 'rejects a ReplicaSet with no namespace', replicaSet: makeReplicaSet((rs) => { delete rs.metadata!.namespace; }), want: ['metadata.namespace: Required value'] },
];

for (const c of replicaSetCases) {
  test(c.name, () => {
    assert.deepEqual(printed(validateReplicaSet(c.replicaSet)), c.want);
  });
}

test('validateObject sends Deployments and ReplicaSets to their own rules', () => {
  const deployment = makeDeployment((d) => { d.spec!.template.spec!.restartPolicy = 'Never'; });
  const replicaSet = makeReplicaSet((rs) => { rs.spec!.selector = {}; });
  assert.deepEqual(printed(validateObject(deployment as object as KubeObject)), ['spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"']);
  assert.deepEqual(printed(validateObject(replicaSet as object as KubeObject)), ['spec.selector: Invalid value: {}: empty selector is invalid for deployment']);
});
