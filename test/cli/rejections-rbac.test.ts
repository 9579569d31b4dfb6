// The CLI as a process on RBAC objects and RuntimeClasses: the bindings' escalation check, then the registry's
// validation (pkg/apis/rbac/validation, pkg/apis/node/validation, v1.36.3). Every expected status and kubectl line is
// what kube-apiserver v1.36.3 and kubectl answered to the same fixture (the reference cluster).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type Refusal, runJson, testRefusals } from './harness';

const FIXTURES = 'test/fixtures/validation';

const run = (file: string) => runJson('run', file);

const cases: Refusal[] = [
  {
    // pkg/registry/rbac/validation/rule.go (GetRoleReferenceRules): a plain error, so 500 without a reason.
    file: 'rolebinding-no-roleref.yaml', code: 500, reason: '', message: 'unsupported role reference kind: ""',
    kubectl: `Error from server: error when creating "${FIXTURES}/rolebinding-no-roleref.yaml": unsupported role reference kind: ""`,
  },
  {
    file: 'rolebinding-roleref-no-name.yaml', code: 422, reason: 'Invalid',
    message: 'RoleBinding.rbac.authorization.k8s.io "read-pods" is invalid: [roleRef.apiGroup: Unsupported value: "example.com": supported values: "rbac.authorization.k8s.io", roleRef.name: Required value]',
    kubectl: 'The RoleBinding "read-pods" is invalid: \n* roleRef.apiGroup: Unsupported value: "example.com": supported values: "rbac.authorization.k8s.io"\n* roleRef.name: Required value',
  },
  {
    file: 'clusterrolebinding-sa-no-namespace.yaml', code: 422, reason: 'Invalid',
    message: 'ClusterRoleBinding.rbac.authorization.k8s.io "builders" is invalid: [roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole", subjects[0].namespace: Required value]',
    kubectl: 'The ClusterRoleBinding "builders" is invalid: \n* roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"\n* subjects[0].namespace: Required value',
  },
  {
    file: 'role-non-resource-url.yaml', code: 422, reason: 'Invalid',
    message: 'Role.rbac.authorization.k8s.io "health" is invalid: rules[0].nonResourceURLs: Invalid value: ["/healthz","/readyz"]: namespaced rules cannot apply to non-resource URLs',
    kubectl: 'The Role "health" is invalid: rules[0].nonResourceURLs: Invalid value: ["/healthz","/readyz"]: namespaced rules cannot apply to non-resource URLs',
  },
  {
    file: 'runtimeclass-no-handler.yaml', code: 422, reason: 'Invalid',
    message: 'RuntimeClass.node.k8s.io "gvisor" is invalid: handler: Required value',
    kubectl: 'The RuntimeClass "gvisor" is invalid: handler: Required value',
  },
];

testRefusals(FIXTURES, cases);

test('a valid Role, RoleBinding, ClusterRole and ClusterRoleBinding are all created', () => {
  const { status, report } = run(`${FIXTURES}/rolebinding-valid-pair.yaml`);
  assert.equal(status, 0);
  assert.equal(report.rejection, undefined);
  assert.equal(report.kubectl, [
    'role.rbac.authorization.k8s.io/pod-reader created', 'rolebinding.rbac.authorization.k8s.io/read-pods created',
    'clusterrole.rbac.authorization.k8s.io/health-reader created', 'clusterrolebinding.rbac.authorization.k8s.io/health-readers created',
  ].join('\n'));
});

// A binding by a user who may not `bind` its role is compared with the user's own permissions (ConfirmNoEscalation,
// pkg/registry/rbac/validation/rule.go, v1.36.3): Forbidden, naming each permission the user lacks.
const ESCALATION_CLUSTER = `${FIXTURES}/rbac-escalation-cluster.yaml`;

test('a binding that grants permissions its author does not hold is Forbidden, naming them', () => {
  const file = `${FIXTURES}/rbac-escalation-denied.yaml`;
  const { status, report } = runJson('run', file, '--cluster', ESCALATION_CLUSTER, '--as', 'bob');
  assert.equal(status, 1);
  const reason = [
    'rolebindings.rbac.authorization.k8s.io "deployer-jane" is forbidden: user "bob" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:',
    '{APIGroups:[""], Resources:["configmaps"], ResourceNames:["settings"], Verbs:["get"]}',
    '{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}',
    '{APIGroups:["apps"], Resources:["deployments"], Verbs:["get" "update"]}',
    '{APIGroups:["apps"], Resources:["deployments/scale"], Verbs:["get" "update"]}',
    '{NonResourceURLs:["/healthz/ready"], Verbs:["get"]}',
  ].join('\n');
  assert.deepEqual(report.rejection && { code: report.rejection.code, reason: report.rejection.reason, message: report.rejection.message }, { code: 403, reason: 'Forbidden', message: reason });
  assert.equal(report.kubectl, `Error from server (Forbidden): error when creating "${file}": ${reason}`);
});

test('a binding whose role grants only what its author holds is created', () => {
  const { status, report } = runJson('run', `${FIXTURES}/rbac-escalation-held.yaml`, '--cluster', ESCALATION_CLUSTER, '--as', 'bob');
  assert.equal(status, 0);
  assert.equal(report.kubectl, 'rolebinding.rbac.authorization.k8s.io/pod-reader-jane created');
});
