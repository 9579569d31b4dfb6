// The CLI as a process on ValidatingAdmissionPolicies and their bindings: the registry's validation
// (pkg/apis/admissionregistration/validation, v1.36.3) and its authorization of their params
// (pkg/registry/admissionregistration/validatingadmissionpolicy{,binding}/authz.go), then what the valid ones are
// stored as and how an update changes them. Every expected status and kubectl line is what kube-apiserver v1.36.3 and kubectl answered to the same
// fixture (the reference cluster).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type Refusal, runJson, testRefusals } from './harness';

const FIXTURES = 'test/fixtures/validation';

const run = (...args: string[]) => runJson('run', ...args);

const cases: Refusal[] = [
  {
    file: "vap-policy-bad.yaml", code: 422, reason: "Invalid",
    message: "ValidatingAdmissionPolicy.admissionregistration.k8s.io \"replica-limits\" is invalid: [spec.failurePolicy: Unsupported value: \"Retry\": supported values: \"Fail\", \"Ignore\", spec.paramKind.apiVersion: Invalid value: \"Rules.Example.com\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), spec.paramKind.apiVersion: Invalid value: \"V1\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?'), spec.paramKind.kind: Invalid value: \"replica_limit\": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?'), spec.matchConstraints.matchPolicy: Unsupported value: \"Fuzzy\": supported values: \"Equivalent\", \"Exact\", spec.matchConstraints.namespaceSelector.matchExpressions[0].operator: Invalid value: \"Within\": not a valid selector operator, spec.matchConstraints.resourceRules[0].resourceNames[1]: Duplicate value: \"web\", spec.matchConstraints.resourceRules[0].resourceNames[2]: Invalid value: \"a/b\": may not contain '/', spec.matchConstraints.resourceRules[0].operations[1]: Unsupported value: \"PATCH\": supported values: \"*\", \"CONNECT\", \"CREATE\", \"DELETE\", \"UPDATE\", spec.matchConstraints.excludeResourceRules[0].resources: Required value, spec.matchConstraints.excludeResourceRules[0].scope: Unsupported value: \"Everywhere\": supported values: \"*\", \"Cluster\", \"Namespaced\", spec.validations[0].expression: Required value: expression is not specified, spec.validations[1].message: Invalid value: \"too many\\nreplicas\": must not contain line breaks, spec.validations[1].reason: Unsupported value: \"Teapot\": supported values: \"Forbidden\", \"Invalid\", \"RequestEntityTooLarge\", spec.validations[2].messageExpression: Invalid value: \"  \": must be non-empty if specified, spec.validations[2].message: Invalid value: \"   \": must be non-empty if specified]",
    kubectl: "The ValidatingAdmissionPolicy \"replica-limits\" is invalid: \n* spec.failurePolicy: Unsupported value: \"Retry\": supported values: \"Fail\", \"Ignore\"\n* spec.paramKind.apiVersion: Invalid value: \"Rules.Example.com\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')\n* spec.paramKind.apiVersion: Invalid value: \"V1\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')\n* spec.paramKind.kind: Invalid value: \"replica_limit\": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')\n* spec.matchConstraints.matchPolicy: Unsupported value: \"Fuzzy\": supported values: \"Equivalent\", \"Exact\"\n* spec.matchConstraints.namespaceSelector.matchExpressions[0].operator: Invalid value: \"Within\": not a valid selector operator\n* spec.matchConstraints.resourceRules[0].resourceNames[1]: Duplicate value: \"web\"\n* spec.matchConstraints.resourceRules[0].resourceNames[2]: Invalid value: \"a/b\": may not contain '/'\n* spec.matchConstraints.resourceRules[0].operations[1]: Unsupported value: \"PATCH\": supported values: \"*\", \"CONNECT\", \"CREATE\", \"DELETE\", \"UPDATE\"\n* spec.matchConstraints.excludeResourceRules[0].resources: Required value\n* spec.matchConstraints.excludeResourceRules[0].scope: Unsupported value: \"Everywhere\": supported values: \"*\", \"Cluster\", \"Namespaced\"\n* spec.validations[0].expression: Required value: expression is not specified\n* spec.validations[1].message: Invalid value: \"too many\\nreplicas\": must not contain line breaks\n* spec.validations[1].reason: Unsupported value: \"Teapot\": supported values: \"Forbidden\", \"Invalid\", \"RequestEntityTooLarge\"\n* spec.validations[2].messageExpression: Invalid value: \"  \": must be non-empty if specified\n* spec.validations[2].message: Invalid value: \"   \": must be non-empty if specified",
  },
  {
    file: "vap-policy-cel.yaml", code: 422, reason: "Invalid",
    message: "ValidatingAdmissionPolicy.admissionregistration.k8s.io \"replica-checks\" is invalid: [spec.matchConditions[0].expression: Invalid value: \"params.enabled == true\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'params' (in container '')\n | params.enabled == true\n | ^, spec.variables[1].name: Invalid value: \"1st\": must be a valid CEL identifier, spec.variables[1].expression: Invalid value: \"variables.replicas + 'x' == 1\": compilation failed: ERROR: <input>:1:26: found no matching overload for '_==_' applied to '(string, int)'\n | variables.replicas + 'x' == 1\n | .........................^, spec.variables[2].expression: Invalid value: \"nolimit\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'nolimit' (in container '')\n | nolimit\n | ^, spec.validations[0].expression: Invalid value: \"object.metadata.name\": must evaluate to bool but got dyn, spec.validations[1].messageExpression: Invalid value: \"size(object.metadata.name)\": must evaluate to string but got int, spec.validations[2].expression: Invalid value: \"request.namespace == 1\": compilation failed: ERROR: <input>:1:19: found no matching overload for '_==_' applied to '(string, int)'\n | request.namespace == 1\n | ..................^, spec.auditAnnotations[0].valueExpression: Invalid value: \"size(object.metadata.name)\": must evaluate to one of [string null_type] but got int, spec.auditAnnotations[1].key: Invalid value: \"replica-checks/bad key!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), spec.auditAnnotations[2].valueExpression: Required value: valueExpression is not specified, spec.auditAnnotations[2].key: Duplicate value: \"replicas\", spec.auditAnnotations[3].valueExpression: Invalid value: \"object.spec.replicas > 3 ? 'high' : null\": compilation failed: ERROR: <input>:1:26: found no matching overload for '_?_:_' applied to '(bool, string, null)'\n | object.spec.replicas > 3 ? 'high' : null\n | .........................^]",
    kubectl: "The ValidatingAdmissionPolicy \"replica-checks\" is invalid: \n* spec.matchConditions[0].expression: Invalid value: \"params.enabled == true\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'params' (in container '')\n | params.enabled == true\n | ^\n* spec.variables[1].name: Invalid value: \"1st\": must be a valid CEL identifier\n* spec.variables[1].expression: Invalid value: \"variables.replicas + 'x' == 1\": compilation failed: ERROR: <input>:1:26: found no matching overload for '_==_' applied to '(string, int)'\n | variables.replicas + 'x' == 1\n | .........................^\n* spec.variables[2].expression: Invalid value: \"nolimit\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'nolimit' (in container '')\n | nolimit\n | ^\n* spec.validations[0].expression: Invalid value: \"object.metadata.name\": must evaluate to bool but got dyn\n* spec.validations[1].messageExpression: Invalid value: \"size(object.metadata.name)\": must evaluate to string but got int\n* spec.validations[2].expression: Invalid value: \"request.namespace == 1\": compilation failed: ERROR: <input>:1:19: found no matching overload for '_==_' applied to '(string, int)'\n | request.namespace == 1\n | ..................^\n* spec.auditAnnotations[0].valueExpression: Invalid value: \"size(object.metadata.name)\": must evaluate to one of [string null_type] but got int\n* spec.auditAnnotations[1].key: Invalid value: \"replica-checks/bad key!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')\n* spec.auditAnnotations[2].valueExpression: Required value: valueExpression is not specified\n* spec.auditAnnotations[2].key: Duplicate value: \"replicas\"\n* spec.auditAnnotations[3].valueExpression: Invalid value: \"object.spec.replicas > 3 ? 'high' : null\": compilation failed: ERROR: <input>:1:26: found no matching overload for '_?_:_' applied to '(bool, string, null)'\n | object.spec.replicas > 3 ? 'high' : null\n | .........................^",
  },
  {
    file: "vap-policy-empty.yaml", code: 422, reason: "Invalid",
    message: "ValidatingAdmissionPolicy.admissionregistration.k8s.io \"does-nothing\" is invalid: [spec.failurePolicy: Unsupported value: \"\": supported values: \"Fail\", \"Ignore\", spec.paramKind.apiVersion: Required value, spec.paramKind.kind: Required value, spec.matchConstraints: Required value, spec.validations: Required value: validations or auditAnnotations must contain at least one item, spec.auditAnnotations: Required value: validations or auditAnnotations must contain at least one item]",
    kubectl: "The ValidatingAdmissionPolicy \"does-nothing\" is invalid: \n* spec.failurePolicy: Unsupported value: \"\": supported values: \"Fail\", \"Ignore\"\n* spec.paramKind.apiVersion: Required value\n* spec.paramKind.kind: Required value\n* spec.matchConstraints: Required value\n* spec.validations: Required value: validations or auditAnnotations must contain at least one item\n* spec.auditAnnotations: Required value: validations or auditAnnotations must contain at least one item",
  },
  {
    file: "vap-policy-no-rules.yaml", code: 422, reason: "Invalid",
    message: "ValidatingAdmissionPolicy.admissionregistration.k8s.io \"no-rules\" is invalid: [spec.paramKind.apiVersion: Invalid value: \"/\": version must be specified, spec.matchConstraints.objectSelector.matchLabels: Invalid value: \"front end\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?'), spec.matchConstraints.resourceRules: Required value]",
    kubectl: "The ValidatingAdmissionPolicy \"no-rules\" is invalid: \n* spec.paramKind.apiVersion: Invalid value: \"/\": version must be specified\n* spec.matchConstraints.objectSelector.matchLabels: Invalid value: \"front end\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')\n* spec.matchConstraints.resourceRules: Required value",
  },
  {
    file: "vap-policy-expressions.yaml", code: 422, reason: "Invalid",
    message: "ValidatingAdmissionPolicy.admissionregistration.k8s.io \"expression-checks\" is invalid: [spec.matchConditions[0].expression: Invalid value: \"variables.enabled\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'variables' (in container '')\n | variables.enabled\n | ^, spec.validations[0].expression: Invalid value: \"variables.limit == 1\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'variables' (in container '')\n | variables.limit == 1\n | ^, spec.validations[1].messageExpression: Invalid value: \"authorizer.group('apps').resource('deployments').check('get').reason()\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'authorizer' (in container '')\n | authorizer.group('apps').resource('deployments').check('get').reason()\n | ^, spec.validations[2].expression: Invalid value: \"object.spec.replicas > 1 ? true : 'no'\": compilation failed: ERROR: <input>:1:26: found no matching overload for '_?_:_' applied to '(bool, bool, string)'\n | object.spec.replicas > 1 ? true : 'no'\n | .........................^, spec.auditAnnotations[0].valueExpression: Invalid value: \"object.metadata.name\": must evaluate to one of [string null_type] but got dyn]",
    kubectl: "The ValidatingAdmissionPolicy \"expression-checks\" is invalid: \n* spec.matchConditions[0].expression: Invalid value: \"variables.enabled\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'variables' (in container '')\n | variables.enabled\n | ^\n* spec.validations[0].expression: Invalid value: \"variables.limit == 1\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'variables' (in container '')\n | variables.limit == 1\n | ^\n* spec.validations[1].messageExpression: Invalid value: \"authorizer.group('apps').resource('deployments').check('get').reason()\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'authorizer' (in container '')\n | authorizer.group('apps').resource('deployments').check('get').reason()\n | ^\n* spec.validations[2].expression: Invalid value: \"object.spec.replicas > 1 ? true : 'no'\": compilation failed: ERROR: <input>:1:26: found no matching overload for '_?_:_' applied to '(bool, bool, string)'\n | object.spec.replicas > 1 ? true : 'no'\n | .........................^\n* spec.auditAnnotations[0].valueExpression: Invalid value: \"object.metadata.name\": must evaluate to one of [string null_type] but got dyn",
  },
  {
    file: "vap-binding-bad.yaml", code: 422, reason: "Invalid",
    message: "ValidatingAdmissionPolicyBinding.admissionregistration.k8s.io \"replica-limits-binding\" is invalid: [spec.policyName: Invalid value: \"Replica_Limits\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), spec.paramRef.name: Invalid value: \"limits/prod\": may not contain '/', spec.paramRef.name: Forbidden: name and selector are mutually exclusive, spec.paramRef.selector.matchLabels: Invalid value: \"a b\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?'), spec.paramRef.selector: Forbidden: name and selector are mutually exclusive, spec.paramRef.parameterNotFoundAction: Required value, spec.validationActions[2]: Duplicate value: \"Deny\", spec.validationActions[3]: Unsupported value: \"Block\": supported values: \"Audit\", \"Deny\", \"Warn\", spec.validationActions: Invalid value: [\"Deny\",\"Warn\",\"Deny\",\"Block\"]: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)]",
    kubectl: "The ValidatingAdmissionPolicyBinding \"replica-limits-binding\" is invalid: \n* spec.policyName: Invalid value: \"Replica_Limits\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')\n* spec.paramRef.name: Invalid value: \"limits/prod\": may not contain '/'\n* spec.paramRef.name: Forbidden: name and selector are mutually exclusive\n* spec.paramRef.selector.matchLabels: Invalid value: \"a b\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')\n* spec.paramRef.selector: Forbidden: name and selector are mutually exclusive\n* spec.paramRef.parameterNotFoundAction: Required value\n* spec.validationActions[2]: Duplicate value: \"Deny\"\n* spec.validationActions[3]: Unsupported value: \"Block\": supported values: \"Audit\", \"Deny\", \"Warn\"\n* spec.validationActions: Invalid value: [\"Deny\",\"Warn\",\"Deny\",\"Block\"]: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)",
  },
  {
    file: "vap-binding-paramref.yaml", code: 422, reason: "Invalid",
    message: "ValidatingAdmissionPolicyBinding.admissionregistration.k8s.io \"limits-binding\" is invalid: [spec.paramRef: Required value: one of name or selector must be specified, spec.paramRef.parameterNotFoundAction: Unsupported value: \"Ignore\": supported values: \"Deny\", \"Allow\", spec.matchResources.matchPolicy: Unsupported value: \"Fuzzy\": supported values: \"Equivalent\", \"Exact\", spec.matchResources.resourceRules[0].resourceNames[0]: Invalid value: \"..\": may not be '..', spec.matchResources.resourceRules[0].apiGroups: Invalid value: [\"\",\"*\"]: if '*' is present, must not specify other API groups, spec.validationActions: Required value: at least one validation action is required]",
    kubectl: "The ValidatingAdmissionPolicyBinding \"limits-binding\" is invalid: \n* spec.paramRef: Required value: one of name or selector must be specified\n* spec.paramRef.parameterNotFoundAction: Unsupported value: \"Ignore\": supported values: \"Deny\", \"Allow\"\n* spec.matchResources.matchPolicy: Unsupported value: \"Fuzzy\": supported values: \"Equivalent\", \"Exact\"\n* spec.matchResources.resourceRules[0].resourceNames[0]: Invalid value: \"..\": may not be '..'\n* spec.matchResources.resourceRules[0].apiGroups: Invalid value: [\"\",\"*\"]: if '*' is present, must not specify other API groups\n* spec.validationActions: Required value: at least one validation action is required",
  },
];

testRefusals(FIXTURES, cases);

/** AS_AUTHOR are the cases bob writes: he may write policies and bindings (vap-authz-cluster.yaml), not read their params. */
const AS_AUTHOR: Refusal[] = [
  {
    file: "vap-authz-policy.yaml", code: 422, reason: "Invalid",
    message: "ValidatingAdmissionPolicy.admissionregistration.k8s.io \"replica-limits\" is invalid: spec.paramKind: Forbidden: user &{bob  [system:authenticated] map[]} must have \"get\" permission on all objects of the referenced paramKind (kind=ConfigMap, apiVersion=v1)",
    kubectl: "The ValidatingAdmissionPolicy \"replica-limits\" is invalid: spec.paramKind: Forbidden: user &{bob  [system:authenticated] map[]} must have \"get\" permission on all objects of the referenced paramKind (kind=ConfigMap, apiVersion=v1)",
  },
  {
    file: "vap-authz-binding.yaml", code: 422, reason: "Invalid",
    message: "ValidatingAdmissionPolicyBinding.admissionregistration.k8s.io \"replica-limits-binding\" is invalid: spec.paramRef: Forbidden: unable to get policy replica-limits to determine minimum required permissions and user &{bob  [system:authenticated] map[]} does not have \"get\" permission for all groups, versions and resources",
    kubectl: "The ValidatingAdmissionPolicyBinding \"replica-limits-binding\" is invalid: spec.paramRef: Forbidden: unable to get policy replica-limits to determine minimum required permissions and user &{bob  [system:authenticated] map[]} does not have \"get\" permission for all groups, versions and resources",
  },
];

for (const c of AS_AUTHOR) {
  test(`refused as kube-apiserver refuses it to a user who may not read the params: ${c.file}`, () => {
    const { status, report } = run(`${FIXTURES}/${c.file}`, '--cluster', `${FIXTURES}/vap-authz-cluster.yaml`, '--as', 'bob');
    assert.equal(status, 1);
    assert.deepEqual(report.rejection && { code: report.rejection.code, reason: report.rejection.reason, message: report.rejection.message },
      { code: c.code, reason: c.reason, message: c.message });
    assert.equal(report.kubectl, c.kubectl);
  });
}

test('a user who may not read the params changes a policy that keeps its paramKind, not a binding with a paramRef', () => {
  const existing = ['--cluster', `${FIXTURES}/vap-authz-existing.yaml`, '--as', 'bob'];
  const missing = (kind: string, name: string): string => `Warning: resource ${kind}/${name} is missing the kubectl.kubernetes.io/last-applied-configuration annotation which is required by kubectl apply. kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. The missing annotation will be patched automatically.`;
  const policy = run(`${FIXTURES}/vap-authz-update-policy.yaml`, ...existing);
  assert.equal(policy.status, 0);
  assert.equal(policy.report.kubectl, [missing('validatingadmissionpolicies', 'replica-limits'), 'validatingadmissionpolicy.admissionregistration.k8s.io/replica-limits configured'].join('\n'));
  const validations = policy.report.objects.find((o) => o.kind === 'ValidatingAdmissionPolicy')?.spec?.['validations'] as Record<string, unknown>[] | undefined;
  assert.equal(validations?.[0]?.['messageExpression'], "'no more than ' + string(variables.limit) + ' replicas'");
  const binding = run(`${FIXTURES}/vap-authz-update-binding.yaml`, ...existing);
  assert.equal(binding.status, 1);
  assert.equal(binding.report.kubectl, [
    missing('validatingadmissionpolicybindings', 'replica-limits-binding'),
    'The ValidatingAdmissionPolicyBinding "replica-limits-binding" is invalid: spec.paramRef: Forbidden: user &{bob  [system:authenticated] map[]} does not have "get" permission on the object referenced by paramRef',
  ].join('\n'));
});

test('a valid policy and binding are stored at generation 1 with the admissionregistration/v1 defaults and an empty status', () => {
  const { status, report } = run(`${FIXTURES}/vap-valid.yaml`);
  assert.equal(status, 0);
  assert.equal(report.kubectl, [
    'validatingadmissionpolicy.admissionregistration.k8s.io/replica-limits created',
    'validatingadmissionpolicybinding.admissionregistration.k8s.io/replica-limits-binding created',
  ].join('\n'));
  const policy = report.objects.find((o) => o.kind === 'ValidatingAdmissionPolicy');
  const constraints = policy?.spec?.['matchConstraints'] as Record<string, unknown> | undefined;
  assert.deepEqual(
    { generation: policy?.metadata?.generation, status: policy?.status, failurePolicy: policy?.spec?.['failurePolicy'], matchPolicy: constraints?.['matchPolicy'],
      namespaceSelector: constraints?.['namespaceSelector'], objectSelector: constraints?.['objectSelector'],
      scope: (constraints?.['resourceRules'] as Record<string, unknown>[] | undefined)?.[0]?.['scope'] },
    { generation: 1, status: {}, failurePolicy: 'Fail', matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {}, scope: '*' },
  );
  const binding = report.objects.find((o) => o.kind === 'ValidatingAdmissionPolicyBinding');
  assert.equal(binding?.metadata?.generation, 1);
  assert.deepEqual(binding?.spec?.['matchResources'], { namespaceSelector: { matchLabels: { environment: 'prod' } }, matchPolicy: 'Equivalent', objectSelector: {} });
});

test('a policy named with the static suffix is stored with the strategy\'s warning', () => {
  const { status, report } = run(`${FIXTURES}/vap-static-suffix.yaml`);
  assert.equal(status, 0);
  assert.equal(report.kubectl, [
    'Warning: metadata.name: names ending with ".static.k8s.io" are reserved for static manifest-based configurations and cannot be managed via the API',
    'validatingadmissionpolicy.admissionregistration.k8s.io/replica-limits.static.k8s.io created',
  ].join('\n'));
});

test('applied again with changed specs, the policy and the binding each go to generation 2', () => {
  const { status, report } = run(`${FIXTURES}/vap-valid.yaml`, '--then-apply', `1s,${FIXTURES}/vap-valid-changed.yaml`);
  assert.equal(status, 0);
  const generations = report.objects.filter((o) => o.kind?.startsWith('ValidatingAdmissionPolicy')).map((o) => [o.kind, o.metadata?.generation]);
  assert.deepEqual(generations.sort(), [['ValidatingAdmissionPolicy', 2], ['ValidatingAdmissionPolicyBinding', 2]]);
});

test('an update that makes a validation no bool is refused as the create would be, and the policy stays as it was', () => {
  const { report } = run(`${FIXTURES}/vap-valid.yaml`, '--then-apply', `1s,${FIXTURES}/vap-valid-bad-update.yaml`);
  assert.equal(report.kubectl, [
    'validatingadmissionpolicy.admissionregistration.k8s.io/replica-limits created',
    'validatingadmissionpolicybinding.admissionregistration.k8s.io/replica-limits-binding created',
    'The ValidatingAdmissionPolicy "replica-limits" is invalid: spec.validations[0].expression: Invalid value: "variables.replicas": must evaluate to bool but got dyn',
  ].join('\n'));
  const policy = report.objects.find((o) => o.kind === 'ValidatingAdmissionPolicy');
  assert.equal(policy?.metadata?.generation, 1);
});
