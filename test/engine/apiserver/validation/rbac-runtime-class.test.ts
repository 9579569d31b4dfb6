// Tests the create and update validation of Roles, ClusterRoles, RoleBindings, ClusterRoleBindings and RuntimeClasses
// against the API server's field paths and messages: pkg/apis/rbac/validation/validation.go and
// pkg/apis/node/validation/validation.go (k8s.io/kubernetes v1.36.3), bindings after rbac/v1 defaulting.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/engine/api/types';
import { applyDefaults } from '../../../../src/engine/apiserver/defaulting';
import type { FieldError } from '../../../../src/engine/apiserver/validation/field-errors';
import { validateObject } from '../../../../src/engine/apiserver/validation';
import { validateUpdate } from '../../../../src/engine/apiserver/validation/update';
import { LABEL_ERROR, SUBDOMAIN_ERROR } from './builders';

const RBAC = 'rbac.authorization.k8s.io';
const printed = (errs: FieldError[]): string[] => errs.map((e) => `${e.field}: ${e.body}`);
/** validated runs what the create handler runs: scheme defaulting, then the strategy's Validate. */
const validated = (obj: KubeObject): string[] => printed(validateObject(applyDefaults(obj).object));

const role = (rules: unknown[], name = 'pod-reader'): KubeObject =>
  ({ apiVersion: `${RBAC}/v1`, kind: 'Role', metadata: { name, namespace: 'default' }, rules });
const clusterRole = (extra: Record<string, unknown>): KubeObject =>
  ({ apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name: 'monitoring' }, ...extra });
const binding = (kind: 'RoleBinding' | 'ClusterRoleBinding', roleRef: unknown, subjects: unknown[] = []): KubeObject => ({
  apiVersion: `${RBAC}/v1`, kind, metadata: kind === 'RoleBinding' ? { name: 'read-pods', namespace: 'default' } : { name: 'read-pods' },
  ...(roleRef === undefined ? {} : { roleRef }), subjects,
});
const runtimeClass = (extra: Record<string, unknown>): KubeObject => ({ apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: 'gvisor' }, ...extra });

const cases: { name: string; obj: KubeObject; want: string[] }[] = [
  // ValidateRole / ValidateClusterRole and ValidatePolicyRule.
  { name: 'accepts a Role with a resource rule', obj: role([{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }]), want: [] },
  {
    name: 'refuses a rule without verbs, apiGroups or resources',
    obj: role([{}]),
    want: [
      'rules[0].verbs: Required value: verbs must contain at least one value', // field.Required(... "verbs must contain at least one value")
      'rules[0].apiGroups: Required value: resource rules must supply at least one api group', // "resource rules must supply at least one api group"
      'rules[0].resources: Required value: resource rules must supply at least one resource', // "resource rules must supply at least one resource"
    ],
  },
  {
    name: 'refuses non-resource URLs in a Role, and mixed with resources',
    obj: role([{ verbs: ['get'], nonResourceURLs: ['/healthz'], resourceNames: ['x'] }]),
    want: [
      'rules[0].nonResourceURLs: Invalid value: ["/healthz"]: namespaced rules cannot apply to non-resource URLs', // field.Invalid(..., rule.NonResourceURLs, ...)
      'rules[0].nonResourceURLs: Invalid value: ["/healthz"]: rules cannot apply to both regular resources and non-resource URLs',
    ],
  },
  { name: 'accepts non-resource URLs in a ClusterRole', obj: clusterRole({ rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }] }), want: [] },
  { name: 'refuses a Role name with a slash (ValidateRBACName)', obj: role([], 'a/b'), want: ["metadata.name: Invalid value: \"a/b\": may not contain '/'"] },
  { name: 'accepts an upper-case Role name (a path segment)', obj: role([], 'PodReader'), want: [] },
  {
    name: 'refuses an aggregationRule without selectors',
    obj: clusterRole({ aggregationRule: { clusterRoleSelectors: [] } }),
    // field.Required(field.NewPath("aggregationRule", "clusterRoleSelectors"), "at least one clusterRoleSelector required if aggregationRule is non-nil")
    want: ['aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil'],
  },
  {
    name: 'refuses a bad selector twice: ValidateLabelSelector, then LabelSelectorAsSelector with a nil selector',
    obj: clusterRole({ aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: 'b' } }, { matchExpressions: [{ key: 'tier', operator: 'Maybe', values: ['web'] }] }] } }),
    want: [
      'aggregationRule.clusterRoleSelectors[1].matchExpressions[0].operator: Invalid value: "Maybe": not a valid selector operator',
      'aggregationRule.clusterRoleSelectors[1]: Invalid value: null: invalid label selector.', // field.Invalid(fieldPath, selector, "invalid label selector.")
    ],
  },
  // ValidateRoleBinding / ValidateClusterRoleBinding.
  {
    name: 'refuses a RoleBinding without roleRef: the apiGroup is defaulted, kind and name are not',
    obj: binding('RoleBinding', undefined, [{ kind: 'User', name: 'jane' }]),
    want: [
      'roleRef.kind: Unsupported value: "": supported values: "Role", "ClusterRole"', // field.NotSupported(..., []string{"Role", "ClusterRole"})
      'roleRef.name: Required value', // field.Required(field.NewPath("roleRef", "name"), "")
    ],
  },
  {
    name: 'refuses a foreign roleRef apiGroup and a bad roleRef name',
    obj: binding('RoleBinding', { apiGroup: 'example.com', kind: 'Role', name: '..' }),
    want: ['roleRef.apiGroup: Unsupported value: "example.com": supported values: "rbac.authorization.k8s.io"', "roleRef.name: Invalid value: \"..\": may not be '..'"],
  },
  {
    name: 'refuses bad subjects in the order ValidateRoleBindingSubject checks them',
    obj: binding('RoleBinding', { kind: 'Role', name: 'pod-reader' }, [
      { kind: 'ServiceAccount', name: 'Builder', apiGroup: RBAC }, { kind: 'Robot', name: 'r2d2' }, { kind: 'Group', apiGroup: 'example.com' },
    ]),
    want: [
      `subjects[0].name: Invalid value: "Builder": ${SUBDOMAIN_ERROR}`, // ValidateServiceAccountName = NameIsDNSSubdomain
      'subjects[0].apiGroup: Unsupported value: "rbac.authorization.k8s.io": supported values: ""',
      'subjects[1].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"',
      'subjects[2].name: Required value',
      'subjects[2].apiGroup: Unsupported value: "example.com": supported values: "rbac.authorization.k8s.io"',
    ],
  },
  {
    name: 'accepts a RoleBinding whose User and Group subjects get their apiGroup by defaulting',
    obj: binding('RoleBinding', { kind: 'ClusterRole', name: 'view' }, [{ kind: 'User', name: 'jane' }, { kind: 'Group', name: 'devs' }, { kind: 'ServiceAccount', name: 'builder' }]),
    want: [],
  },
  {
    name: 'refuses a ClusterRoleBinding to a Role and a ServiceAccount subject without namespace',
    obj: binding('ClusterRoleBinding', { kind: 'Role', name: 'pod-reader' }, [{ kind: 'ServiceAccount', name: 'builder' }]),
    want: ['roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"', 'subjects[0].namespace: Required value'],
  },
  {
    name: 'accepts a ClusterRoleBinding with a namespaced ServiceAccount',
    obj: binding('ClusterRoleBinding', { kind: 'ClusterRole', name: 'view' }, [{ kind: 'ServiceAccount', name: 'builder', namespace: 'default' }]),
    want: [],
  },
  // ValidateRuntimeClass.
  { name: 'refuses a RuntimeClass without handler', obj: runtimeClass({}), want: ['handler: Required value'] },
  { name: 'refuses a handler that is no DNS label', obj: runtimeClass({ handler: 'kata_v2' }), want: [`handler: Invalid value: "kata_v2": ${LABEL_ERROR}`] },
  {
    name: 'checks overhead as container limits and scheduling as labels and tolerations, duplicates last',
    obj: runtimeClass({
      handler: 'kata',
      overhead: { podFixed: { cpu: '-250m' } },
      scheduling: {
        nodeSelector: { 'a/b/c': 'x' },
        tolerations: [{ key: 'sandbox', operator: 'Exists', effect: 'NoSchedule' }, { key: 'sandbox', operator: 'Exists', effect: 'NoSchedule', tolerationSeconds: 30 }],
      },
    }),
    want: [
      'overhead.limits[cpu]: Invalid value: "-250m": must be greater than or equal to 0',
      "scheduling.nodeSelector: Invalid value: \"a/b/c\": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
      "scheduling.tolerations[1].effect: Invalid value: \"NoSchedule\": effect must be 'NoExecute' when `tolerationSeconds` is set",
      // field.Duplicate(fldPath.Index(i), t): the internal core.Toleration, json.Marshal'd with its Go field names.
      'scheduling.tolerations[1]: Duplicate value: {"Key":"sandbox","Operator":"Exists","Value":"","Effect":"NoSchedule","TolerationSeconds":30}',
    ],
  },
  {
    name: 'accepts a RuntimeClass with overhead and scheduling',
    obj: runtimeClass({ handler: 'runsc', overhead: { podFixed: { cpu: '250m', memory: '64Mi' } }, scheduling: { nodeSelector: { runtime: 'gvisor' }, tolerations: [{ key: 'sandbox', operator: 'Exists' }] } }),
    want: [],
  },
];

for (const c of cases) {
  test(`RBAC and RuntimeClass validation: ${c.name}`, () => {
    assert.deepEqual(validated(c.obj), c.want);
  });
}

const updates: { name: string; next: KubeObject; old: KubeObject; want: string[] }[] = [
  {
    name: 'a RoleBinding may not change its roleRef, shown as the internal rbac.RoleRef',
    next: binding('RoleBinding', { apiGroup: RBAC, kind: 'ClusterRole', name: 'view' }),
    old: binding('RoleBinding', { apiGroup: RBAC, kind: 'Role', name: 'pod-reader' }),
    // field.Invalid(field.NewPath("roleRef"), roleBinding.RoleRef, "cannot change roleRef")
    want: ['roleRef: Invalid value: {"APIGroup":"rbac.authorization.k8s.io","Kind":"ClusterRole","Name":"view"}: cannot change roleRef'],
  },
  {
    name: 'a ClusterRoleBinding may change its subjects',
    next: binding('ClusterRoleBinding', { apiGroup: RBAC, kind: 'ClusterRole', name: 'view' }, [{ kind: 'User', name: 'jane', apiGroup: RBAC }]),
    old: binding('ClusterRoleBinding', { apiGroup: RBAC, kind: 'ClusterRole', name: 'view' }),
    want: [],
  },
  {
    name: 'a RuntimeClass may not change its handler',
    next: runtimeClass({ handler: 'kata' }),
    old: runtimeClass({ handler: 'runsc' }),
    want: ['handler: Invalid value: "kata": field is immutable'], // ValidateImmutableField(new.Handler, old.Handler, ...)
  },
];

for (const c of updates) {
  test(`RBAC and RuntimeClass update validation: ${c.name}`, () => {
    assert.deepEqual(printed(validateUpdate(c.next, c.old)), c.want);
  });
}
