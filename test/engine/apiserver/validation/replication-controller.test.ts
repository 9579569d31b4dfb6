// Tests ReplicationController defaulting and validation on create against the API server's field paths and messages.
// Objects are defaulted first (SetObjectDefaults_ReplicationController, pkg/apis/core/v1), as the API server does before
// validating; rows follow pkg/apis/core/validation/validation.go (ValidateReplicationController,
// ValidateReplicationControllerSpec, ValidatePodTemplateSpecForRC, ValidateNonEmptySelector) at kubernetes v1.36.3.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultReplicationController, type ReplicationController } from '../../../../src/engine/api/replication-controller';
import type { KubeObject, Mutable } from '../../../../src/engine/api/types';
import type { FieldError } from '../../../../src/engine/apiserver/validation/field-errors';
import { validateObject } from '../../../../src/engine/apiserver/validation';
import { validateReplicationControllerSpec } from '../../../../src/engine/apiserver/validation/replication-controller';

const SUBDOMAIN = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const MISMATCH = '`selector` does not match template `labels`';

type RC = Mutable<ReplicationController>;
type RCSpec = NonNullable<RC['spec']>;

const printed = (errs: FieldError[]): string[] => errs.map((e) => `${e.field}: ${e.body}`);

/** makeRC is a valid ReplicationController "web" (selector app=web), changed by edit, then defaulted. */
function makeRC(edit: (rc: RC) => void = () => {}): KubeObject {
  const rc: RC = {
    apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: 'web', namespace: 'default' },
    spec: {
      replicas: 2, selector: { app: 'web' },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } },
    },
  };
  edit(rc);
  return defaultReplicationController(rc as KubeObject).object;
}

const spec = (rc: RC): RCSpec => rc.spec!;
const templateSpec = (rc: RC) => spec(rc).template!.spec!;

const cases: { name: string; rc: KubeObject; want: string[] }[] = [
  { name: 'accepts a ReplicationController whose selector matches its template', rc: makeRC(), want: [] },
  { name: 'accepts zero replicas', rc: makeRC((rc) => { spec(rc).replicas = 0; }), want: [] },
  { name: 'accepts a selector of some of the template labels', rc: makeRC((rc) => { spec(rc).template!.metadata!.labels = { app: 'web', tier: 'front' }; }), want: [] },
  // ValidateObjectMetaWithOpts with validate.LongName: a DNS subdomain.
  { name: 'rejects an uppercase name', rc: makeRC((rc) => { rc.metadata!.name = 'Web'; }), want: [`metadata.name: Invalid value: "Web": ${SUBDOMAIN}`] },
  {
    name: 'checks the generated name, not generateName itself (ValidateObjectMetaWithOpts)',
    rc: makeRC((rc) => { rc.metadata = { ...rc.metadata, name: 'Web-x7k2p', generateName: 'Web-' }; }),
    want: [`metadata.name: Invalid value: "Web-x7k2p": ${SUBDOMAIN}`],
  },
  { name: 'rejects negative replicas', rc: makeRC((rc) => { spec(rc).replicas = -1; }), want: ['spec.replicas: Invalid value: -1: must be greater than or equal to 0'] },
  { name: 'rejects negative minReadySeconds', rc: makeRC((rc) => { spec(rc).minReadySeconds = -5; }), want: ['spec.minReadySeconds: Invalid value: -5: must be greater than or equal to 0'] },
  {
    name: 'requires a selector when the template has no labels to default it from; an empty selector matches no check',
    rc: makeRC((rc) => { delete spec(rc).selector; delete spec(rc).template!.metadata; }),
    want: ['spec.selector: Required value'],
  },
  {
    name: 'rejects a selector the template labels do not match, printed as the labels\' JSON',
    rc: makeRC((rc) => { spec(rc).selector = { app: 'api' }; spec(rc).template!.metadata!.labels = { tier: 'front', app: 'web' }; }),
    want: [`spec.template.metadata.labels: Invalid value: {"app":"web","tier":"front"}: ${MISMATCH}`],
  },
  {
    name: 'a template with no labels matches no selector: null',
    rc: makeRC((rc) => { delete spec(rc).template!.metadata; }),
    want: [`spec.template.metadata.labels: Invalid value: null: ${MISMATCH}`],
  },
  { name: 'requires a template', rc: makeRC((rc) => { delete spec(rc).template; }), want: ['spec.template: Required value'] },
  {
    name: 'rejects a restartPolicy other than Always',
    rc: makeRC((rc) => { templateSpec(rc).restartPolicy = 'OnFailure'; }),
    want: ['spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"'],
  },
  {
    name: 'forbids activeDeadlineSeconds, naming ReplicationController',
    rc: makeRC((rc) => { templateSpec(rc).activeDeadlineSeconds = 30; }),
    want: ['spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicationController is not Supported'],
  },
  {
    name: 'reports in the spec\'s order: minReadySeconds, selector, replicas, template',
    rc: makeRC((rc) => { spec(rc).minReadySeconds = -1; spec(rc).replicas = -2; delete spec(rc).selector; delete spec(rc).template!.metadata; templateSpec(rc).restartPolicy = 'Never'; }),
    want: [
      'spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0',
      'spec.selector: Required value',
      'spec.replicas: Invalid value: -2: must be greater than or equal to 0',
      'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
    ],
  },
];

for (const c of cases) {
  test(`ReplicationController validation: ${c.name}`, () => {
    assert.deepEqual(printed(validateObject(c.rc)), c.want);
  });
}

test('ReplicationController validation: replicas unset is Required (never after defaulting)', () => {
  assert.deepEqual(printed(validateReplicationControllerSpec({ selector: { app: 'web' } }, 'spec')), ['spec.replicas: Required value', 'spec.template: Required value']);
});

const defaultingCases: { name: string; edit: (rc: RC) => void; selector: unknown; labels: unknown; replicas: number }[] = [
  { name: 'the selector and the labels come from the template, replicas 1', edit: (rc) => { delete spec(rc).selector; delete spec(rc).replicas; }, selector: { app: 'web' }, labels: { app: 'web' }, replicas: 1 },
  { name: 'a given selector and given labels are kept', edit: (rc) => { rc.metadata!.labels = { team: 'a' }; spec(rc).template!.metadata!.labels = { app: 'web', v: '2' }; }, selector: { app: 'web' }, labels: { team: 'a' }, replicas: 2 },
  { name: 'a template without labels defaults neither', edit: (rc) => { delete spec(rc).selector; delete spec(rc).template!.metadata; }, selector: undefined, labels: undefined, replicas: 2 },
];

for (const c of defaultingCases) {
  test(`ReplicationController defaulting: ${c.name}`, () => {
    const rc = makeRC(c.edit) as RC;
    assert.deepEqual(spec(rc).selector, c.selector);
    assert.deepEqual(rc.metadata?.labels, c.labels);
    assert.equal(spec(rc).replicas, c.replicas);
    // The template's pod spec is defaulted as every workload's is.
    assert.equal(templateSpec(rc).restartPolicy, 'Always');
  });
}

test('ReplicationController defaulting: a missing template stays missing, for validation to require', () => {
  const rc = makeRC((r) => { delete spec(r).template; }) as RC;
  assert.equal(spec(rc).template, undefined);
});
