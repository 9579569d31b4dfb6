// ValidatingAdmissionPolicy on its own: matching, bindings and their validationActions, params, variables, the CEL
// variables Kubernetes binds, failure policies and compile errors. Expected texts beside their sources.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validatingAdmissionPolicy } from '../../../../src/engine/apiserver/admission/validating-admission-policy';
import type { UserInfo } from '../../../../src/engine/apiserver/request';
import { ADMIN, attributesFor, makeContext, makeNamespace } from './plugin-harness';
import { labelledPod } from './webhook-harness';

const POD_RULES = { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['pods'] }] };

/** policy is ValidatingAdmissionPolicy `name` on pod creates and updates with these spec fields. */
function policy(name: string, spec: Record<string, unknown>): object {
  return { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name }, spec: { matchConstraints: POD_RULES, ...spec } };
}

/** binding is ValidatingAdmissionPolicyBinding `<policy>-binding` with validationActions [Deny] unless told. */
function binding(policyName: string, spec: Record<string, unknown> = {}): object {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: `${policyName}-binding` },
    spec: { policyName, validationActions: ['Deny'], ...spec },
  };
}

/** requireTeam is the policy of the CLI scenario: pods need a team label. */
const requireTeam = (spec: Record<string, unknown> = {}): object => policy('require-team', {
  validations: [{ expression: "has(object.metadata.labels) && 'team' in object.metadata.labels", message: 'pods must have a team label' }], ...spec,
});

// Why: the prefix is admission.NewForbidden's; the rest is policy/validating/dispatcher.go.
const denied = (p: string, message: string, b = `${p}-binding`): string => `pods "web" is forbidden: ValidatingAdmissionPolicy '${p}' with binding '${b}' denied request: ${message}`;

const RBAC = [
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'cluster-admin' }, rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }] },
  {
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'kubeadm:cluster-admins' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' }, subjects: [{ kind: 'Group', name: 'kubeadm:cluster-admins' }],
  },
];

interface Case {
  name: string;
  objects: object[];
  labels?: Record<string, string>;
  user?: UserInfo;
  want: { error?: { code: number; reason: string; message: string }; warnings?: string[] };
}

const cases: Case[] = [
  { name: 'Without policies the request is admitted', objects: [], want: {} },
  { name: 'A policy without a binding is never evaluated', objects: [requireTeam()], want: {} },
  {
    name: 'A failed validation with a message denies with 422 Invalid', objects: [requireTeam(), binding('require-team')],
    want: { error: { code: 422, reason: 'Invalid', message: denied('require-team', 'pods must have a team label') } },
  },
  { name: 'A passing validation admits', objects: [requireTeam(), binding('require-team')], labels: { team: 'payments' }, want: {} },
  {
    // Message: validator.go (`failed expression: %v` with the expression trimmed).
    name: 'A failed validation without a message names the expression', objects: [policy('p', { validations: [{ expression: '  size(object.spec.containers) > 1 ' }] }), binding('p')],
    want: { error: { code: 422, reason: 'Invalid', message: denied('p', 'failed expression: size(object.spec.containers) > 1') } },
  },
  {
    name: 'A messageExpression gives the message',
    objects: [policy('p', { validations: [{ expression: 'false', message: 'static', messageExpression: "'pod ' + object.metadata.name + ' has ' + string(size(object.spec.containers)) + ' container(s)'" }] }), binding('p')],
    want: { error: { code: 422, reason: 'Invalid', message: denied('p', 'pod web has 1 container(s)') } },
  },
  {
    name: 'A messageExpression that is empty falls back to the message', objects: [policy('p', { validations: [{ expression: 'false', message: 'static', messageExpression: "'  '" }] }), binding('p')],
    want: { error: { code: 422, reason: 'Invalid', message: denied('p', 'static') } },
  },
  {
    name: 'A reason Forbidden denies with 403', objects: [policy('p', { validations: [{ expression: 'false', message: 'no', reason: 'Forbidden' }] }), binding('p')],
    want: { error: { code: 403, reason: 'Forbidden', message: denied('p', 'no') } },
  },
  {
    // Message: dispatcher.go (the Warn action's warning text).
    name: 'The Warn action warns instead of denying', objects: [requireTeam(), binding('require-team', { validationActions: ['Warn', 'Audit'] })],
    want: { warnings: ["Validation failed for ValidatingAdmissionPolicy 'require-team' with binding 'require-team-binding': pods must have a team label"] },
  },
  { name: 'The Audit action alone neither denies nor warns', objects: [requireTeam(), binding('require-team', { validationActions: ['Audit'] })], want: { warnings: [] } },
  {
    // Message: cel/activation.go (`expression '%v' resulted in error: %v`), cel-go's `no such key`.
    name: 'An expression that errors denies under failurePolicy Fail', objects: [policy('p', { validations: [{ expression: "object.metadata.labels.team == 'a'" }] }), binding('p')],
    want: { error: { code: 422, reason: 'Invalid', message: denied('p', "expression 'object.metadata.labels.team == 'a'' resulted in error: no such key: team") } },
  },
  { name: 'An expression that errors admits under failurePolicy Ignore', objects: [policy('p', { failurePolicy: 'Ignore', validations: [{ expression: "object.metadata.labels.team == 'a'" }] }), binding('p')], want: {} },
  {
    // Message: compile.go (`compilation failed: ` + cel-go's Issues) and activation.go (`compilation error: `).
    name: 'An undeclared reference is a compilation error', objects: [policy('p', { validations: [{ expression: 'foo == 1' }] }), binding('p')],
    want: { error: { code: 422, reason: 'Invalid', message: denied('p', "compilation error: compilation failed: ERROR: <input>:1:1: undeclared reference to 'foo' (in container '')\n | foo == 1\n | ^") } },
  },
  {
    name: 'An expression that is not bool does not compile', objects: [policy('p', { validations: [{ expression: 'object.metadata.name' }] }), binding('p')],
    want: { error: { code: 422, reason: 'Invalid', message: denied('p', 'compilation error: must evaluate to bool but got dyn') } },
  },
  {
    name: 'params without a paramKind are undeclared', objects: [policy('p', { validations: [{ expression: 'params == null' }] }), binding('p')],
    want: { error: { code: 422, reason: 'Invalid', message: denied('p', "compilation error: compilation failed: ERROR: <input>:1:1: undeclared reference to 'params' (in container '')\n | params == null\n | ^") } },
  },
  {
    name: 'A false matchCondition skips the policy', objects: [requireTeam({ matchConditions: [{ name: 'only-db', expression: "object.metadata.labels.app == 'db'" }] }), binding('require-team')],
    want: {},
  },
  {
    name: 'A binding whose namespaceSelector misses the namespace does not apply',
    objects: [requireTeam(), binding('require-team', { matchResources: { namespaceSelector: { matchLabels: { env: 'dev' } } } })], want: {},
  },
  {
    name: 'excludeResourceRules take a resource out', objects: [requireTeam({ matchConstraints: { ...POD_RULES, excludeResourceRules: [{ apiGroups: [''], apiVersions: ['*'], operations: ['*'], resources: ['pods'], resourceNames: ['web'] }] } }), binding('require-team')],
    want: {},
  },
  {
    // Message: generic/policy_matcher.go (DefinitionMatches), wrapped by dispatcher.go's addConfigError.
    name: 'A policy without matchConstraints fails to configure', objects: [policy('p', { matchConstraints: undefined, validations: [{ expression: 'true' }] }), binding('p')],
    want: { error: { code: 422, reason: 'Invalid', message: `pods "web" is forbidden: ValidatingAdmissionPolicy 'p' denied request: failed to configure policy: policy contained no match constraints, a required field` } },
  },
  {
    name: 'Params come from the named ConfigMap in the request namespace',
    objects: [
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'limits', namespace: 'default' }, data: { maxContainers: '0' } },
      policy('p', { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, validations: [{ expression: 'size(object.spec.containers) <= int(params.data.maxContainers)', messageExpression: "'at most ' + params.data.maxContainers + ' containers'" }] }),
      binding('p', { paramRef: { name: 'limits', parameterNotFoundAction: 'Deny' } }),
    ],
    want: { error: { code: 422, reason: 'Invalid', message: denied('p', 'at most 0 containers') } },
  },
  {
    // Message: generic/policy_dispatcher.go (CollectParams).
    name: 'Missing params with parameterNotFoundAction Deny fail to configure the binding',
    objects: [policy('p', { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, validations: [{ expression: 'true' }] }), binding('p', { paramRef: { name: 'absent', parameterNotFoundAction: 'Deny' } })],
    want: { error: { code: 422, reason: 'Invalid', message: denied('p', 'failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction') } },
  },
  {
    name: 'Missing params with parameterNotFoundAction Allow skip the binding',
    objects: [policy('p', { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, validations: [{ expression: 'false' }] }), binding('p', { paramRef: { name: 'absent', parameterNotFoundAction: 'Allow' } })],
    want: {},
  },
  {
    // Message: generic/policy_source.go (ensureParamsForPolicyLocked), GroupVersionKind's String.
    name: 'A paramKind the server does not serve fails to configure the policy',
    objects: [policy('p', { paramKind: { apiVersion: 'rules.example.com/v1', kind: 'ReplicaLimit' }, validations: [{ expression: 'true' }] }), binding('p', { paramRef: { name: 'x', parameterNotFoundAction: 'Deny' } })],
    want: { error: { code: 422, reason: 'Invalid', message: "pods \"web\" is forbidden: ValidatingAdmissionPolicy 'p' denied request: failed to configure policy: failed to find resource referenced by paramKind: 'rules.example.com/v1, Kind=ReplicaLimit'" } },
  },
  {
    name: 'Variables are evaluated for the validations that use them',
    objects: [policy('p', { variables: [{ name: 'images', expression: 'object.spec.containers.map(c, c.image)' }, { name: 'pinned', expression: "variables.images.all(i, i.contains(':') && !i.endsWith(':latest'))" }], validations: [{ expression: 'variables.pinned && size(variables.images) > 1' }] }), binding('p')],
    want: { error: { code: 422, reason: 'Invalid', message: denied('p', 'failed expression: variables.pinned && size(variables.images) > 1') } },
  },
  {
    // Message: cel/composition.go (`composited variable %q fails to evaluate: %v`).
    name: 'A variable that fails to evaluate fails the expression using it',
    objects: [policy('p', { variables: [{ name: 'team', expression: 'object.metadata.labels.team' }], validations: [{ expression: "variables.team == 'a'" }] }), binding('p')],
    want: { error: { code: 422, reason: 'Invalid', message: denied('p', "expression 'variables.team == 'a'' resulted in error: composited variable \"team\" fails to evaluate: no such key: team") } },
  },
  {
    name: 'namespaceObject is the request namespace (the expression holds, so the pod is admitted)',
    objects: [policy('p', { validations: [{ expression: "namespaceObject.metadata.name == 'default' && namespaceObject.metadata.labels.env == 'prod'" }] }), binding('p')],
    want: {},
  },
  {
    name: 'request describes the operation, resource and user (the expression holds, so the pod is admitted)',
    objects: [policy('p', { validations: [{ expression: "request.operation == 'CREATE' && request.resource.resource == 'pods' && request.kind.kind == 'Pod' && request.userInfo.username == 'bob' && request.name == 'web' && !request.dryRun" }] }), binding('p')],
    want: {},
  },
  {
    name: 'authorizer checks run through the cluster authorizers',
    objects: [...RBAC, policy('p', { validations: [{ expression: "authorizer.group('').resource('pods').namespace('default').check('delete').allowed() && authorizer.requestResource.check('create').allowed()", message: 'admins only' }] }), binding('p')],
    user: { name: 'bob', groups: ['system:authenticated'] },
    want: { error: { code: 422, reason: 'Invalid', message: denied('p', 'admins only') } },
  },
  {
    name: 'authorizer checks allow an admin', objects: [...RBAC, policy('p', { validations: [{ expression: "authorizer.group('').resource('pods').check('delete').allowed()" }] }), binding('p')],
    user: ADMIN, want: {},
  },
  {
    name: 'Of several denying policies the first by name is reported',
    objects: [policy('b-policy', { validations: [{ expression: 'false', message: 'b' }] }), binding('b-policy'), policy('a-policy', { validations: [{ expression: 'false', message: 'a' }] }), binding('a-policy')],
    want: { error: { code: 422, reason: 'Invalid', message: denied('a-policy', 'a') } },
  },
];

for (const c of cases) {
  test(c.name, () => {
    const ns = { ...makeNamespace('default'), metadata: { name: 'default', labels: { 'kubernetes.io/metadata.name': 'default', env: 'prod' } } };
    const ctx = makeContext([ns, ...c.objects]);
    const attrs = attributesFor(labelledPod({ app: 'web', ...(c.labels ?? {}) }), { user: c.user ?? { name: 'bob', groups: ['system:authenticated'] } });
    const result = validatingAdmissionPolicy.validate!(attrs, ctx);
    if (c.want.error) assert.deepEqual({ code: result.error?.code, reason: result.error?.reason, message: result.error?.message }, c.want.error);
    else assert.equal(result.error, undefined, result.error?.message);
    if (c.want.warnings) assert.deepEqual(result.warnings ?? [], c.want.warnings);
  });
}

test('A denial carries the resource, name and the message as its one cause', () => {
  const ctx = makeContext([makeNamespace('default'), requireTeam(), binding('require-team')]);
  const result = validatingAdmissionPolicy.validate!(attributesFor(labelledPod()), ctx);
  const message = "ValidatingAdmissionPolicy 'require-team' with binding 'require-team-binding' denied request: pods must have a team label";
  assert.deepEqual(result.error?.status.details, { name: 'web', group: '', kind: 'pods', causes: [{ reason: '', message, field: '' }] });
});

// Kubernetes' CEL libraries and cel-go's extensions a policy may use; each expression holds, so the pod is admitted
// (an error or a false result would deny). See staging/src/k8s.io/apiserver/pkg/cel/library and cel-go ext/strings.go.
const holding: { name: string; expression: string }[] = [
  { name: 'Quantities compare by amount', expression: "quantity('1') == quantity('1000m') && quantity('1Gi').isGreaterThan(quantity('1000Mi')) && quantity('2Gi').asInteger() == 2147483648" },
  { name: 'The lists library sums, orders and searches', expression: '[3, 1, 2].max() == 3 && [1, 2].isSorted() && [1, 2, 3].sum() == 6 && [1, 2].indexOf(2) == 1' },
  { name: 'The strings extension replaces, indexes and formats', expression: "'a.b'.replace('.', '-') == 'a-b' && 'abc'.charAt(1) == 'b' && '%s has %d'.format(['web', 1]) == 'web has 1'" },
  { name: 'Optional selection falls back to a value', expression: "object.metadata.?labels.?team.orValue('none') == 'none'" },
  { name: 'Macros and the regex library read the containers', expression: "object.spec.containers.all(c, c.image.find('[0-9.]+$') == '1.27') && object.spec.containers.exists_one(c, c.name == 'app')" },
  { name: 'cel.bind names a value', expression: "cel.bind(n, object.metadata.name, n.startsWith('w') && n.size() == 3)" },
];

for (const c of holding) {
  test(`CEL: ${c.name}`, () => {
    const ctx = makeContext([makeNamespace('default'), policy('p', { validations: [{ expression: c.expression }] }), binding('p')]);
    const result = validatingAdmissionPolicy.validate!(attributesFor(labelledPod()), ctx);
    assert.equal(result.error, undefined, result.error?.message);
  });
}
