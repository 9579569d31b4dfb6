// Tests ValidateObjectMeta on create and the name rules kinds pick from, against the API server's own field paths
// and messages. Rows follow staging/src/k8s.io/apimachinery/pkg/api/validation/objectmeta_test.go and
// generic_test.go unless marked; each names the Go source of the rule it checks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ObjectMeta } from '../../../../src/engine/api/types';
import type { FieldError } from '../../../../src/engine/apiserver/validation/field-errors';
import { validateObject } from '../../../../src/engine/apiserver/validation';
import {
  maskTrailingDash, nameIsDNS1035Label, nameIsDNSLabel, nameIsDNSSubdomain, pathSegmentName, validateObjectMeta, type NameRule,
} from '../../../../src/engine/apiserver/validation/metadata';

const SUBDOMAIN = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const DNS_LABEL = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const DNS1035_LABEL = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const KEY_NAME = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

/** printed is each error as it appears in the Status message: `field: body`. */
const printed = (errs: FieldError[]): string[] => errs.map((e) => `${e.field}: ${e.body}`);

interface MetaCase {
  name: string;
  meta: ObjectMeta;
  namespaced?: boolean;
  want: string[];
}

const ok = { name: 'web', namespace: 'default' };
const cases: MetaCase[] = [
  // ValidateObjectMetaAccessor: name, generateName (objectmeta.go).
  { name: 'accepts a name, a namespace, labels, annotations and finalizers', meta: { ...ok, labels: { app: 'web', 'app.kubernetes.io/name': 'web', empty: '' }, annotations: { 'Example.com/Owner': 'team a' }, finalizers: ['example.com/cleanup'] }, want: [] },
  { name: 'requires a name when there is no generateName', meta: { namespace: 'default' }, want: ['metadata.name: Required value: name or generateName is required'] },
  { name: 'rejects an uppercase name as a DNS subdomain', meta: { ...ok, name: 'Web' }, want: [`metadata.name: Invalid value: "Web": ${SUBDOMAIN}`] },
  { name: 'rejects a name longer than 253 bytes with the length message alone', meta: { ...ok, name: 'a'.repeat(254) }, want: [`metadata.name: Invalid value: "${'a'.repeat(254)}": must be no more than 253 characters`] },
  { name: 'accepts a generateName ending in a dash and the name drawn from it', meta: { ...ok, name: 'web-x7k2p', generateName: 'web-' }, want: [] },
  {
    name: 'reports a bad generateName before the name drawn from it',
    meta: { ...ok, name: 'Web-x7k2p', generateName: 'Web-' },
    want: [`metadata.generateName: Invalid value: "Web-": ${SUBDOMAIN}`, `metadata.name: Invalid value: "Web-x7k2p": ${SUBDOMAIN}`],
  },
  { name: 'does not mask a generateName ending in a dot', meta: { ...ok, name: 'web.x7k2p', generateName: 'web.' }, want: [`metadata.generateName: Invalid value: "web.": ${SUBDOMAIN}`] },
  // validateObjectMetaAccessorWithOptsCommon: namespace, generation (objectmeta.go).
  { name: 'requires a namespace for a namespaced kind', meta: { name: 'web' }, want: ['metadata.namespace: Required value'] },
  { name: 'rejects a namespace that is not a DNS label', meta: { ...ok, namespace: 'Dev' }, want: [`metadata.namespace: Invalid value: "Dev": ${DNS_LABEL}`] },
  { name: 'says a dotted namespace must not contain dots', meta: { ...ok, namespace: 'team.a' }, want: ['metadata.namespace: Invalid value: "team.a": must not contain dots'] },
  { name: 'forbids a namespace on a cluster-scoped kind', meta: { ...ok }, namespaced: false, want: ['metadata.namespace: Forbidden: not allowed on this type'] },
  { name: 'accepts no namespace on a cluster-scoped kind', meta: { name: 'worker-1' }, namespaced: false, want: [] },
  { name: 'rejects a negative generation', meta: { ...ok, generation: -1 }, want: ['metadata.generation: Invalid value: -1: must be greater than or equal to 0'] },
  // v1validation.ValidateLabels (staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation.go).
  { name: 'rejects a label key with a space at the labels path', meta: { ...ok, labels: { 'app name': 'web' } }, want: [`metadata.labels: Invalid value: "app name": ${KEY_NAME}`] },
  { name: 'rejects a label key whose prefix is not a lowercase subdomain', meta: { ...ok, labels: { 'Example.com/app': 'web' } }, want: [`metadata.labels: Invalid value: "Example.com/app": prefix part ${SUBDOMAIN}`] },
  { name: 'rejects a label key with an empty prefix', meta: { ...ok, labels: { '/app': 'web' } }, want: ['metadata.labels: Invalid value: "/app": prefix part must be non-empty'] },
  {
    name: 'rejects a label key with two slashes',
    meta: { ...ok, labels: { 'a/b/c': 'web' } },
    want: ["metadata.labels: Invalid value: \"a/b/c\": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"],
  },
  { name: 'rejects a label value with a space', meta: { ...ok, labels: { tier: 'front end' } }, want: [`metadata.labels: Invalid value: "front end": ${LABEL_VALUE}`] },
  // content.IsLabelValue counts bytes (k8s.io/apimachinery/pkg/api/validate/content, v0.36.3), as the reference cluster says.
  { name: 'rejects a label value of 64 characters', meta: { ...ok, labels: { tier: 'a'.repeat(64) } }, want: [`metadata.labels: Invalid value: "${'a'.repeat(64)}": must be no more than 63 bytes`] },
  {
    name: 'reports label errors in the order the labels are written, key before value',
    meta: { ...ok, labels: { tier: 'front end', 'app name': '-web' } },
    want: [`metadata.labels: Invalid value: "front end": ${LABEL_VALUE}`, `metadata.labels: Invalid value: "app name": ${KEY_NAME}`, `metadata.labels: Invalid value: "-web": ${LABEL_VALUE}`],
  },
  // ValidateAnnotations (objectmeta.go): keys checked in lower case, 256 KiB in all.
  { name: 'rejects an annotation key that is no qualified name, shown as written', meta: { ...ok, annotations: { 'Bad Key': 'x' } }, want: [`metadata.annotations: Invalid value: "Bad Key": ${KEY_NAME}`] },
  { name: 'accepts annotations of exactly 256 KiB', meta: { ...ok, annotations: { a: 'x'.repeat(262143) } }, want: [] },
  { name: 'rejects annotations over 256 KiB as too long', meta: { ...ok, annotations: { a: 'x'.repeat(262144) } }, want: ['metadata.annotations: Too long: may not be more than 262144 bytes'] },
  { name: 'counts annotation bytes, not characters', meta: { ...ok, annotations: { a: 'é'.repeat(131072) } }, want: ['metadata.annotations: Too long: may not be more than 262144 bytes'] },
  // ValidateOwnerReferences and validateOwnerReference (objectmeta.go): errors at the list's path.
  {
    name: 'requires the version, kind, name and uid of an owner reference',
    meta: { ...ok, ownerReferences: [{ apiVersion: 'apps/', kind: '', name: '', uid: '' }] },
    want: [
      'metadata.ownerReferences.apiVersion: Invalid value: "apps/": version must not be empty', 'metadata.ownerReferences.kind: Invalid value: "": must not be empty',
      'metadata.ownerReferences.name: Invalid value: "": must not be empty', 'metadata.ownerReferences.uid: Invalid value: "": must not be empty',
    ],
  },
  { name: 'reads an apiVersion with two slashes as having no version', meta: { ...ok, ownerReferences: [{ apiVersion: 'a/b/c', kind: 'Thing', name: 't', uid: '1' }] }, want: ['metadata.ownerReferences.apiVersion: Invalid value: "a/b/c": version must not be empty'] },
  {
    name: 'forbids an Event as an owner, printing the reference as JSON',
    meta: { ...ok, ownerReferences: [{ apiVersion: 'v1', kind: 'Event', name: 'e', uid: '1' }] },
    want: ['metadata.ownerReferences: Invalid value: {"apiVersion":"v1","kind":"Event","name":"e","uid":"1"}: /v1, Kind=Event is disallowed from being an owner'],
  },
  {
    name: 'allows one controller reference only',
    meta: { ...ok, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'a', uid: '1', controller: true }, { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'b', uid: '2', controller: true, blockOwnerDeletion: true }] },
    want: ['metadata.ownerReferences: Invalid value: [{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"a","uid":"1","controller":true},{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"b","uid":"2","controller":true,"blockOwnerDeletion":true}]: Only one reference can have Controller set to true. Found "true" in references for ReplicaSet/a and ReplicaSet/b'],
  },
  // ValidateFinalizers (objectmeta.go).
  { name: 'rejects a finalizer that is no qualified name', meta: { ...ok, finalizers: ['clean up'] }, want: [`metadata.finalizers: Invalid value: "clean up": ${KEY_NAME}`] },
  { name: 'rejects orphan and foregroundDeletion together', meta: { ...ok, finalizers: ['orphan', 'foregroundDeletion'] }, want: ['metadata.finalizers: Invalid value: ["orphan","foregroundDeletion"]: finalizer orphan and foregroundDeletion cannot be both set'] },
  // v1validation.ValidateManagedFields and ValidateFieldManager (meta/v1/validation/validation.go).
  {
    name: 'checks the operation, fieldsType, manager and subresource of managed fields',
    meta: { ...ok, managedFields: [{ operation: 'Patch', fieldsType: 'FieldsV2', manager: 'kube\tctl' }, { operation: 'Update', manager: 'm'.repeat(129), subresource: 's'.repeat(257) }] },
    want: [
      'metadata.managedFields[0].operation: Invalid value: "Patch": must be `Apply` or `Update`', 'metadata.managedFields[0].fieldsType: Invalid value: "FieldsV2": must be `FieldsV1`',
      'metadata.managedFields[0].manager: Invalid value: "kube\\tctl": invalid character U+0009 (at position 4)',
      'metadata.managedFields[1].manager: Too long: may not be more than 128 bytes', 'metadata.managedFields[1].subresource: Too long: may not be more than 256 bytes',
    ],
  },
  // Not validated on create: the registry sets or clears them (staging/src/k8s.io/apiserver/pkg/registry/rest/create.go).
  {
    name: 'ignores uid, resourceVersion, creationTimestamp and deletionTimestamp',
    meta: { ...ok, uid: 'not-a-uuid', resourceVersion: 'abc', creationTimestamp: '2020-01-01T00:00:00Z', deletionTimestamp: '2020-01-01T00:00:00Z', deletionGracePeriodSeconds: -5 } as ObjectMeta,
    want: [],
  },
];

for (const c of cases) {
  test(c.name, () => {
    assert.deepEqual(printed(validateObjectMeta({ metadata: c.meta }, c.namespaced ?? true)), c.want);
  });
}

test('gives each error its field.ErrorType as the cause reason', () => {
  const errs = validateObjectMeta({ metadata: { name: 'Web', annotations: { a: 'x'.repeat(262144) } } }, false);
  assert.deepEqual(errs.map((e) => [e.field, e.type]), [['metadata.name', 'FieldValueInvalid'], ['metadata.annotations', 'FieldValueTooLong']]);
});

// ValidateNameFunc rules: generic.go (NameIsDNSLabel, NameIsDNS1035Label, maskTrailingDash) and content/path.go.
const ruleCases: { name: string; rule: NameRule; value: string; prefix: boolean; want: string[] }[] = [
  { name: 'a DNS label refuses dots with its own message', rule: nameIsDNSLabel, value: 'my.ns', prefix: false, want: ['must not contain dots'] },
  { name: 'a DNS label refuses an underscore with the regex message', rule: nameIsDNSLabel, value: 'my_ns', prefix: false, want: [DNS_LABEL] },
  { name: 'a DNS label prefix may end in a dash', rule: nameIsDNSLabel, value: 'team-', prefix: true, want: [] },
  { name: 'a DNS-1035 label must start with a letter', rule: nameIsDNS1035Label, value: '1web', prefix: false, want: [DNS1035_LABEL] },
  { name: 'a DNS subdomain prefix may end in a dash', rule: nameIsDNSSubdomain, value: 'web-', prefix: true, want: [] },
  { name: 'a DNS subdomain name may not end in a dash', rule: nameIsDNSSubdomain, value: 'web-', prefix: false, want: [SUBDOMAIN] },
  { name: 'a path segment name may not be "."', rule: pathSegmentName, value: '.', prefix: false, want: ["may not be '.'"] },
  { name: 'a path segment name may not contain "/" or "%"', rule: pathSegmentName, value: 'a/b%c', prefix: false, want: ["may not contain '/'", "may not contain '%'"] },
  { name: 'a path segment prefix may be ".."', rule: pathSegmentName, value: '..', prefix: true, want: [] },
  { name: 'a path segment name takes colons and capitals', rule: pathSegmentName, value: 'system:Admin', prefix: false, want: [] },
];

for (const c of ruleCases) {
  test(c.name, () => {
    assert.deepEqual(c.rule(c.value, c.prefix), c.want);
  });
}

test('maskTrailingDash drops the last two bytes of a trailing-dash prefix and appends "a", as Go does', () => {
  assert.deepEqual(['web-', 'A-', 'web', '-'].map(maskTrailingDash), ['wea', 'a', 'web', '-']);
});

// The name rule each kind's own validation uses (pkg/apis/core/validation, pkg/apis/rbac/validation).
/** SERVICE_SPEC is a defaulted ClusterIP Service spec that validateService accepts. */
const SERVICE_SPEC = { type: 'ClusterIP', sessionAffinity: 'None', internalTrafficPolicy: 'Cluster', ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }] };
const kindCases = [
  { name: 'a Namespace name must be a DNS label', obj: { kind: 'Namespace', metadata: { name: 'team.a' } }, want: ['metadata.name: Invalid value: "team.a": must not contain dots'] },
  // RelaxedServiceNameValidation is on by default in 1.36: a Service name is a DNS label, which may start with a digit.
  { name: 'a Service name may start with a digit', obj: { kind: 'Service', metadata: { name: '1web', namespace: 'default' }, spec: SERVICE_SPEC }, want: [] },
  { name: 'a Service name must be a DNS label', obj: { kind: 'Service', metadata: { name: 'web.v1', namespace: 'default' }, spec: SERVICE_SPEC }, want: ['metadata.name: Invalid value: "web.v1": must not contain dots'] },
  { name: 'a ClusterRole name may hold colons', obj: { kind: 'ClusterRole', metadata: { name: 'system:controller:web' } }, want: [] },
  { name: 'a ConfigMap name must be a DNS subdomain', obj: { kind: 'ConfigMap', metadata: { name: 'Config', namespace: 'default' } }, want: [`metadata.name: Invalid value: "Config": ${SUBDOMAIN}`] },
  { name: 'a Node may not carry a namespace', obj: { kind: 'Node', metadata: { name: 'worker-1', namespace: 'default' } }, want: ['metadata.namespace: Forbidden: not allowed on this type'] },
];

for (const c of kindCases) {
  test(c.name, () => {
    assert.deepEqual(printed(validateObject(c.obj)), c.want);
  });
}
