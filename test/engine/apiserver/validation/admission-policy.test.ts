// Tests the create and update validation of ValidatingAdmissionPolicies and ValidatingAdmissionPolicyBindings against
// the API server's field paths and messages: pkg/apis/admissionregistration/validation/validation.go (k8s.io/kubernetes
// v1.36.3), each object after its admissionregistration/v1 scheme defaulting.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/engine/api/types';
import { applyDefaults } from '../../../../src/engine/apiserver/defaulting';
import { warningsOnCreate } from '../../../../src/engine/apiserver/warnings';
import { KEY_NAME_ERROR, LABEL_VALUE_ERROR, SUBDOMAIN_ERROR, updated, validated } from './builders';

const ADM = 'admissionregistration.k8s.io/v1';

type Loose = Record<string, unknown>;
const without = (o: Loose): Loose => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
const rule = (patch: Loose = {}): Loose => ({ operations: ['CREATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'], ...patch });
/** policy is a valid ValidatingAdmissionPolicy on deployments; `patch` replaces spec fields (undefined removes one). */
const policy = (patch: Loose = {}, name = 'replica-limits'): KubeObject => ({
  apiVersion: ADM, kind: 'ValidatingAdmissionPolicy', metadata: { name },
  spec: without({ matchConstraints: { resourceRules: [rule()] }, validations: [{ expression: 'object.spec.replicas <= 5' }], ...patch }),
});
/** binding is a valid ValidatingAdmissionPolicyBinding of replica-limits; `patch` replaces spec fields. */
const binding = (patch: Loose = {}): KubeObject => ({
  apiVersion: ADM, kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'replica-limits-binding' },
  spec: without({ policyName: 'replica-limits', validationActions: ['Deny'], ...patch }),
});
const PARAMS = { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' } };
const DNS1035_ERROR = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const undeclared = (expression: string, name: string): string => `compilation failed: ERROR: <input>:1:1: undeclared reference to '${name}' (in container '')\n | ${expression}\n | ^`;

const cases: { name: string; obj: KubeObject; want: string[] }[] = [
  { name: 'accepts a policy with one rule and one validation', obj: policy(), want: [] },
  {
    name: 'accepts params, variables that read earlier variables, a match condition, a message expression and an audit annotation',
    obj: policy({
      ...PARAMS,
      matchConditions: [{ name: 'not-system', expression: "!request.namespace.startsWith('kube-')" }, { name: 'enabled', expression: "params.data.enabled == 'true'" }],
      variables: [{ name: 'replicas', expression: 'object.spec.replicas' }, { name: 'over', expression: 'variables.replicas > 5' }],
      validations: [{ expression: '!variables.over', messageExpression: "'at most 5, not ' + string(variables.replicas)", reason: 'Forbidden' }],
      auditAnnotations: [{ key: 'replicas', valueExpression: "'replicas: ' + string(variables.replicas)" }],
    }),
    want: [],
  },
  {
    name: 'refuses an unknown failure policy, printed with json.Marshal',
    obj: policy({ failurePolicy: 'Retry' }),
    want: ['spec.failurePolicy: Unsupported value: "Retry": supported values: "Fail", "Ignore"'],
  },
  {
    name: 'refuses a paramKind whose group, version and kind are no DNS names',
    obj: policy({ paramKind: { apiVersion: 'Rules.Example.com/V1', kind: 'replica_limit' } }),
    want: [
      `spec.paramKind.apiVersion: Invalid value: "Rules.Example.com": ${SUBDOMAIN_ERROR}`,
      `spec.paramKind.apiVersion: Invalid value: "V1": ${DNS1035_ERROR}`,
      `spec.paramKind.kind: Invalid value: "replica_limit": may have mixed case, but should otherwise match: ${DNS1035_ERROR}`,
    ],
  },
  {
    name: 'refuses a paramKind without a version, with too many slashes, or empty',
    obj: policy({ paramKind: { apiVersion: 'example.com/', kind: 'Limit' } }),
    want: ['spec.paramKind.apiVersion: Invalid value: "example.com/": version must be specified'],
  },
  {
    name: 'refuses a paramKind apiVersion with two slashes',
    obj: policy({ paramKind: { apiVersion: 'a/b/c' } }),
    want: ['spec.paramKind.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c', 'spec.paramKind.kind: Required value'],
  },
  {
    name: 'requires matchConstraints, and at least one validation or audit annotation (both fields say so)',
    obj: policy({ matchConstraints: undefined, validations: undefined }),
    want: [
      'spec.matchConstraints: Required value',
      'spec.validations: Required value: validations or auditAnnotations must contain at least one item',
      'spec.auditAnnotations: Required value: validations or auditAnnotations must contain at least one item',
    ],
  },
  {
    name: 'requires a resource rule, and checks the defaulted selectors strictly',
    obj: policy({ matchConstraints: { objectSelector: { matchLabels: { team: 'front end' } } } }),
    want: [`spec.matchConstraints.objectSelector.matchLabels: Invalid value: "front end": ${LABEL_VALUE_ERROR}`, 'spec.matchConstraints.resourceRules: Required value'],
  },
  {
    name: 'refuses repeated or unusable resource names before the rule itself, and an unknown match policy',
    obj: policy({ matchConstraints: { matchPolicy: 'Fuzzy', resourceRules: [rule({ resourceNames: ['web', 'web', 'a/b', '..'], operations: ['PATCH'] })] } }),
    want: [
      'spec.matchConstraints.matchPolicy: Unsupported value: "Fuzzy": supported values: "Equivalent", "Exact"',
      'spec.matchConstraints.resourceRules[0].resourceNames[1]: Duplicate value: "web"',
      'spec.matchConstraints.resourceRules[0].resourceNames[2]: Invalid value: "a/b": may not contain \'/\'',
      'spec.matchConstraints.resourceRules[0].resourceNames[3]: Invalid value: "..": may not be \'..\'',
      'spec.matchConstraints.resourceRules[0].operations[0]: Unsupported value: "PATCH": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"',
    ],
  },
  {
    name: 'checks exclude rules as resource rules',
    obj: policy({ matchConstraints: { resourceRules: [rule()], excludeResourceRules: [rule({ resources: [], scope: 'Everywhere' })] } }),
    want: [
      'spec.matchConstraints.excludeResourceRules[0].resources: Required value',
      'spec.matchConstraints.excludeResourceRules[0].scope: Unsupported value: "Everywhere": supported values: "*", "Cluster", "Namespaced"',
    ],
  },
  {
    name: 'refuses a blank expression, a message on two lines, a blank message and messageExpression, and an unknown reason',
    obj: policy({
      validations: [
        { expression: '   ' },
        { expression: 'true', message: 'too many\nreplicas', reason: 'Teapot' },
        { expression: 'true', message: '  ', messageExpression: ' ' },
      ],
    }),
    want: [
      'spec.validations[0].expression: Required value: expression is not specified',
      'spec.validations[1].message: Invalid value: "too many\\nreplicas": must not contain line breaks',
      'spec.validations[1].reason: Unsupported value: "Teapot": supported values: "Forbidden", "Invalid", "RequestEntityTooLarge"',
      'spec.validations[2].messageExpression: Invalid value: " ": must be non-empty if specified',
      'spec.validations[2].message: Invalid value: "  ": must be non-empty if specified',
    ],
  },
  {
    name: 'compiles validations as bools and message expressions as strings, showing them as written',
    obj: policy({ validations: [{ expression: ' object.metadata.name' }, { expression: 'true', messageExpression: 'size(object.metadata.name)' }] }),
    want: [
      'spec.validations[0].expression: Invalid value: " object.metadata.name": must evaluate to bool but got dyn',
      'spec.validations[1].messageExpression: Invalid value: "size(object.metadata.name)": must evaluate to string but got int',
    ],
  },
  {
    name: 'gives params to match conditions only with a paramKind',
    obj: policy({ matchConditions: [{ name: 'enabled', expression: 'params.enabled' }] }),
    want: [`spec.matchConditions[0].expression: Invalid value: "params.enabled": ${undeclared('params.enabled', 'params')}`],
  },
  {
    name: 'refuses a message expression that calls the authorizer, which only validations see',
    obj: policy({ validations: [{ expression: "authorizer.group('apps').resource('deployments').check('get').allowed()", messageExpression: "'denied: ' + string(authorizer == null)" }] }),
    want: [`spec.validations[0].messageExpression: Invalid value: "'denied: ' + string(authorizer == null)": compilation failed: ERROR: <input>:1:21: undeclared reference to 'authorizer' (in container '')\n | 'denied: ' + string(authorizer == null)\n | ....................^`],
  },
  {
    name: 'refuses a variable name that is no CEL identifier, a blank variable, and an expression that does not compile',
    obj: policy({ variables: [{ name: 'if', expression: '1' }, { name: ' ', expression: '' }, { name: 'limit', expression: 'nolimit' }] }),
    want: [
      'spec.variables[0].name: Invalid value: "if": must be a valid CEL identifier',
      'spec.variables[1].name: Required value: name is not specified',
      'spec.variables[1].expression: Required value: expression is not specified',
      `spec.variables[2].expression: Invalid value: "nolimit": ${undeclared('nolimit', 'nolimit')}`,
    ],
  },
  {
    name: 'types each variable for those after it',
    obj: policy({ variables: [{ name: 'name', expression: 'object.metadata.name + "-x"' }, { name: 'bad', expression: 'variables.name == 1' }] }),
    want: ['spec.variables[1].expression: Invalid value: "variables.name == 1": compilation failed: ERROR: <input>:1:16: found no matching overload for \'_==_\' applied to \'(string, int)\'\n | variables.name == 1\n | ...............^'],
  },
  {
    name: 'refuses an audit key that is no qualified name with the policy name, a repeated key, a blank value and one neither string nor null',
    obj: policy({ auditAnnotations: [{ key: 'bad key!', valueExpression: "'x'" }, { key: 'bad key!', valueExpression: '  ' }, { key: 'size', valueExpression: ' size(object.metadata.name)' }] }),
    want: [
      `spec.auditAnnotations[0].key: Invalid value: "replica-limits/bad key!": ${KEY_NAME_ERROR}`,
      `spec.auditAnnotations[1].key: Invalid value: "replica-limits/bad key!": ${KEY_NAME_ERROR}`,
      'spec.auditAnnotations[1].valueExpression: Required value: valueExpression is not specified',
      'spec.auditAnnotations[1].key: Duplicate value: "bad key!"',
      'spec.auditAnnotations[2].valueExpression: Invalid value: " size(object.metadata.name)": must evaluate to one of [string null_type] but got int',
    ],
  },
  {
    name: 'refuses more than 20 audit annotations, shown as Go marshals the internal type',
    obj: policy({ validations: undefined, auditAnnotations: Array.from({ length: 21 }, (_, i) => ({ key: `k${i}`, valueExpression: "'v'" })) }),
    want: [`spec.auditAnnotations: Invalid value: [${Array.from({ length: 21 }, (_, i) => `{"Key":"k${i}","ValueExpression":"'v'"}`).join(',')}]: must not have more than 20 auditAnnotations`],
  },
  { name: 'accepts a binding with a paramRef by name', obj: binding({ paramRef: { name: 'limits', namespace: 'default', parameterNotFoundAction: 'Deny' } }), want: [] },
  {
    name: 'refuses a binding without a policy name or validation actions',
    obj: binding({ policyName: undefined, validationActions: undefined }),
    want: ['spec.policyName: Required value', 'spec.validationActions: Required value: at least one validation action is required'],
  },
  {
    name: 'refuses a paramRef with both a name and a selector (each says so) and no parameterNotFoundAction',
    obj: binding({ policyName: 'Replica_Limits', paramRef: { name: 'limits/prod', selector: { matchLabels: { tier: 'a b' } } } }),
    want: [
      `spec.policyName: Invalid value: "Replica_Limits": ${SUBDOMAIN_ERROR}`,
      'spec.paramRef.name: Invalid value: "limits/prod": may not contain \'/\'',
      'spec.paramRef.name: Forbidden: name and selector are mutually exclusive',
      `spec.paramRef.selector.matchLabels: Invalid value: "a b": ${LABEL_VALUE_ERROR}`,
      'spec.paramRef.selector: Forbidden: name and selector are mutually exclusive',
      'spec.paramRef.parameterNotFoundAction: Required value',
    ],
  },
  {
    name: 'refuses a paramRef with neither a name nor a selector, and an unknown parameterNotFoundAction',
    obj: binding({ paramRef: { parameterNotFoundAction: 'Ignore' } }),
    want: ['spec.paramRef: Required value: one of name or selector must be specified', 'spec.paramRef.parameterNotFoundAction: Unsupported value: "Ignore": supported values: "Deny", "Allow"'],
  },
  {
    name: 'refuses repeated and unknown validation actions, and Deny with Warn',
    obj: binding({ validationActions: ['Deny', 'Warn', 'Deny', 'Block'] }),
    want: [
      'spec.validationActions[2]: Duplicate value: "Deny"',
      'spec.validationActions[3]: Unsupported value: "Block": supported values: "Audit", "Deny", "Warn"',
      'spec.validationActions: Invalid value: ["Deny","Warn","Deny","Block"]: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
    ],
  },
  {
    name: 'checks a binding\'s match resources as a policy\'s, resource rules optional',
    obj: binding({ matchResources: { matchPolicy: 'Fuzzy', namespaceSelector: { matchExpressions: [{ key: 'env', operator: 'Within' }] } } }),
    want: [
      'spec.matchResources.matchPolicy: Unsupported value: "Fuzzy": supported values: "Equivalent", "Exact"',
      'spec.matchResources.namespaceSelector.matchExpressions[0].operator: Invalid value: "Within": not a valid selector operator',
    ],
  },
];

for (const c of cases) {
  test(`admission policy validation: ${c.name}`, () => {
    assert.deepEqual(validated(c.obj), c.want);
  });
}

test('policies and bindings get the admissionregistration/v1 defaults before validation', () => {
  const p = applyDefaults(policy({ matchConstraints: { resourceRules: [rule()], excludeResourceRules: [rule()] } }));
  const spec = p.object['spec'] as Loose;
  const constraints = spec['matchConstraints'] as Loose;
  assert.deepEqual(
    { failurePolicy: spec['failurePolicy'], matchPolicy: constraints['matchPolicy'], namespaceSelector: constraints['namespaceSelector'], objectSelector: constraints['objectSelector'],
      scopes: [...(constraints['resourceRules'] as Loose[]), ...(constraints['excludeResourceRules'] as Loose[])].map((r) => r['scope']) },
    { failurePolicy: 'Fail', matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {}, scopes: ['*', '*'] },
  );
  // A binding's paramRef gets no parameterNotFoundAction; without matchResources nothing is set.
  const b = applyDefaults(binding({ paramRef: { name: 'limits' } }));
  assert.deepEqual(b.changes, []);
  assert.deepEqual(applyDefaults(binding({ matchResources: {} })).changes, ['spec.matchResources.matchPolicy', 'spec.matchResources.namespaceSelector', 'spec.matchResources.objectSelector']);
});

const updates: { name: string; next: KubeObject; old: KubeObject; want: string[] }[] = [
  {
    name: 'unchanged match conditions are not compiled again',
    next: policy({ matchConditions: [{ name: 'n', expression: 'object' }], validations: [{ expression: 'false' }] }),
    old: policy({ matchConditions: [{ name: 'n', expression: 'object' }] }),
    want: [],
  },
  {
    name: 'a changed paramKind compiles the match conditions again',
    next: policy({ ...PARAMS, matchConditions: [{ name: 'n', expression: 'object' }] }),
    old: policy({ matchConditions: [{ name: 'n', expression: 'object' }] }),
    want: ['spec.matchConditions[0].expression: Invalid value: "object": must evaluate to bool but got dyn'],
  },
  {
    name: 'validations are compiled again on every update',
    next: policy({ validations: [{ expression: 'object' }] }),
    old: policy({ validations: [{ expression: 'object' }] }),
    want: ['spec.validations[0].expression: Invalid value: "object": must evaluate to bool but got dyn'],
  },
  {
    name: 'a binding\'s update repeats its create rules',
    next: binding({ validationActions: ['Deny', 'Warn'] }),
    old: binding(),
    want: ['spec.validationActions: Invalid value: ["Deny","Warn"]: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)'],
  },
];

for (const c of updates) {
  test(`admission policy update validation: ${c.name}`, () => {
    assert.deepEqual(updated(c.next, c.old), c.want);
  });
}

test('a policy or binding named with the static suffix is warned about on create, not refused', () => {
  const named = (obj: KubeObject): KubeObject => ({ ...obj, metadata: { name: `${obj.metadata?.name}.static.k8s.io` } });
  const warning = 'metadata.name: names ending with ".static.k8s.io" are reserved for static manifest-based configurations and cannot be managed via the API';
  for (const obj of [named(policy()), named(binding())]) {
    assert.deepEqual(validated(obj), []);
    assert.deepEqual(warningsOnCreate(obj), [warning]);
  }
  assert.deepEqual(warningsOnCreate(binding()), []);
});
