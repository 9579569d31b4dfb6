// Tests the create and update validation of ValidatingWebhookConfigurations, MutatingWebhookConfigurations, CSIDrivers,
// CSINodes, VolumeAttachments and CSIStorageCapacities against the API server's field paths and messages:
// pkg/apis/admissionregistration/validation/validation.go and pkg/apis/storage/validation/validation.go
// (k8s.io/kubernetes v1.36.3), each object after its v1 scheme defaulting.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/engine/api/types';
import { applyDefaults } from '../../../../src/engine/apiserver/defaulting';
import { KEY_NAME_ERROR, SUBDOMAIN_ERROR, updated, validated } from './builders';

const ADM = 'admissionregistration.k8s.io/v1';
const STORAGE = 'storage.k8s.io/v1';

type Loose = Record<string, unknown>;
/** hook is a valid webhook; `patch` replaces its fields (undefined removes one). */
const hook = (patch: Loose = {}): Loose => {
  const base: Loose = { name: 'checks.example.com', sideEffects: 'None', admissionReviewVersions: ['v1'], clientConfig: { url: 'https://checks.example.com/validate' }, ...patch };
  return Object.fromEntries(Object.entries(base).filter(([, v]) => v !== undefined));
};
const validating = (...webhooks: Loose[]): KubeObject => ({ apiVersion: ADM, kind: 'ValidatingWebhookConfiguration', metadata: { name: 'checks' }, webhooks });
const mutating = (...webhooks: Loose[]): KubeObject => ({ apiVersion: ADM, kind: 'MutatingWebhookConfiguration', metadata: { name: 'injector' }, webhooks });
const rule = (patch: Loose): Loose => ({ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], ...patch });
const URL_FORM = '; desired format: https://host[/path]';

const csiDriver = (spec: Loose): KubeObject => ({ apiVersion: STORAGE, kind: 'CSIDriver', metadata: { name: 'disks.example.com' }, spec });
const csiNode = (drivers: Loose[]): KubeObject => ({ apiVersion: STORAGE, kind: 'CSINode', metadata: { name: 'worker-1' }, spec: { drivers } });
const attachment = (spec: Loose): KubeObject => ({ apiVersion: STORAGE, kind: 'VolumeAttachment', metadata: { name: 'attach-data' }, spec: { attacher: 'disks.example.com', nodeName: 'worker-1', ...spec } });
const capacity = (patch: Loose): KubeObject => ({ apiVersion: STORAGE, kind: 'CSIStorageCapacity', metadata: { name: 'zone-a', namespace: 'default' }, storageClassName: 'fast', ...patch });

const cases: { name: string; obj: KubeObject; want: string[] }[] = [
  { name: 'accepts a webhook with a URL, side effects None and review version v1', obj: validating(hook()), want: [] },
  {
    name: 'refuses a webhook name with fewer than three segments, then a name that is no DNS subdomain',
    obj: validating(hook({ name: 'checks.example' }), hook({ name: 'Checks' })),
    want: [
      'webhooks[0].name: Invalid value: "checks.example": should be a domain with at least three segments separated by dots',
      `webhooks[1].name: Invalid value: "Checks": ${SUBDOMAIN_ERROR}`, // IsFullyQualifiedName: IsDNS1123Subdomain's messages joined by ","
    ],
  },
  {
    name: 'refuses a repeated webhook name, after that webhook\'s review versions',
    obj: mutating(hook(), hook({ admissionReviewVersions: [] })),
    want: ['webhooks[1].admissionReviewVersions: Required value: must specify one of v1, v1beta1', 'webhooks[1].name: Duplicate value: "checks.example.com"'],
  },
  {
    name: 'refuses wildcard subresource rules that overlap, and */* beside other resources',
    obj: validating(hook({ rules: [rule({ resources: ['*/status', 'pods/status', 'pods/*', 'pods/log', '*/*'] }), rule({ operations: [], apiGroups: [], apiVersions: ['*', 'v1'], resources: [''], scope: 'All' })] })),
    want: [
      "webhooks[0].rules[0].resources[1]: Invalid value: \"pods/status\": if '*/status' is present, must not specify pods/status",
      "webhooks[0].rules[0].resources[3]: Invalid value: \"pods/log\": if 'pods/*' is present, must not specify pods/log",
      'webhooks[0].rules[0].resources: Invalid value: ["*/status","pods/status","pods/*","pods/log","*/*"]: if \'*/*\' is present, must not specify other resources',
      'webhooks[0].rules[1].operations: Required value',
      'webhooks[0].rules[1].apiGroups: Required value',
      'webhooks[0].rules[1].apiVersions: Invalid value: ["*","v1"]: if \'*\' is present, must not specify other API versions',
      'webhooks[0].rules[1].resources[0]: Required value',
      'webhooks[0].rules[1].scope: Unsupported value: "All": supported values: "*", "Cluster", "Namespaced"',
    ],
  },
  {
    name: 'refuses an unknown operation, named with json.Marshal',
    obj: validating(hook({ rules: [rule({ operations: ['PATCH'] })] })),
    want: ['webhooks[0].rules[0].operations[0]: Unsupported value: "PATCH": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"'],
  },
  {
    name: 'refuses URLs url.Parse rejects, or without https and a host',
    obj: validating(hook({ clientConfig: { url: ':checks' } }), hook({ name: 'b.example.com', clientConfig: { url: 'https://checks.example.com:port/x' } }),
      hook({ name: 'c.example.com', clientConfig: { url: 'checks.example.com/validate' } }), hook({ name: 'd.example.com', clientConfig: { url: 'https:///validate' } })),
    want: [
      `webhooks[0].clientConfig.url: Required value: url must be a valid URL: parse ":checks": missing protocol scheme${URL_FORM}`,
      `webhooks[1].clientConfig.url: Required value: url must be a valid URL: parse "https://checks.example.com:port/x": invalid port ":port" after host${URL_FORM}`,
      `webhooks[2].clientConfig.url: Invalid value: "": 'https' is the only allowed URL scheme${URL_FORM}`,
      `webhooks[2].clientConfig.url: Invalid value: "": host must be specified${URL_FORM}`,
      `webhooks[3].clientConfig.url: Invalid value: "": host must be specified${URL_FORM}`,
    ],
  },
  {
    name: 'reports a missing service name at namespace and a missing namespace at name, as Go passes them swapped',
    obj: validating(hook({ clientConfig: { service: { namespace: 'policy' } } }), hook({ name: 'b.example.com', clientConfig: { service: { name: 'checks', path: '//' } } })),
    want: [
      'webhooks[0].clientConfig.service.namespace: Required value',
      'webhooks[1].clientConfig.service.name: Required value',
      'webhooks[1].clientConfig.service.path: Invalid value: "//": segment[0] may not be empty',
    ],
  },
  {
    name: 'refuses side effects other than None and NoneOnDryRun, and a zero timeout',
    obj: validating(hook({ sideEffects: 'Unknown', timeoutSeconds: 0, failurePolicy: 'Fail' })),
    want: [
      'webhooks[0].sideEffects: Unsupported value: "Unknown": supported values: "None", "NoneOnDryRun"',
      'webhooks[0].timeoutSeconds: Invalid value: 0: the timeout value must be between 1 and 30 seconds',
    ],
  },
  {
    name: 'refuses a validating webhook\'s review versions that are no DNS-1035 label, repeated, or not accepted',
    obj: validating(hook({ admissionReviewVersions: ['v2', 'v2', '2'] })),
    want: [
      'webhooks[0].admissionReviewVersions[1]: Invalid value: "v2": duplicate version',
      "webhooks[0].admissionReviewVersions[2]: Invalid value: \"2\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
      'webhooks[0].admissionReviewVersions: Invalid value: ["v2","v2","2"]: must include at least one of v1, v1beta1',
    ],
  },
  {
    name: 'refuses more than 64 match conditions, then checks each',
    obj: validating(hook({ matchConditions: Array.from({ length: 65 }, (_, i) => ({ name: `c${i}`, expression: 'true' })) })),
    want: ['webhooks[0].matchConditions: Too many: 65: must have at most 64 items'],
  },
  {
    name: 'refuses a match condition that does not compile, with cel-go\'s check error',
    obj: validating(hook({ matchConditions: [{ name: 'ns', expression: ' request.namespace == 1 ' }, { name: '', expression: 'true' }] })),
    want: [
      "webhooks[0].matchConditions[0].expression: Invalid value: \"request.namespace == 1\": compilation failed: ERROR: <input>:1:19: found no matching overload for '_==_' applied to '(string, int)'\n | request.namespace == 1\n | ..................^",
      'webhooks[0].matchConditions[1].name: Required value',
    ],
  },
  {
    name: 'refuses bad selectors and a bad reinvocation policy on a mutating webhook',
    obj: mutating(hook({ namespaceSelector: { matchExpressions: [{ key: 'env', operator: 'In' }] }, objectSelector: { matchLabels: { 'a b': 'x' } }, reinvocationPolicy: 'Always' })),
    want: [
      "webhooks[0].namespaceSelector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
      `webhooks[0].objectSelector.matchLabels: Invalid value: "a b": ${KEY_NAME_ERROR}`,
      'webhooks[0].reinvocationPolicy: Unsupported value: "Always": supported values: "IfNeeded", "Never"',
    ],
  },
  // CSIDriver after SetDefaults_CSIDriver.
  { name: 'accepts a CSIDriver with an empty spec (defaulting fills it)', obj: csiDriver({}), want: [] },
  {
    name: 'refuses a token request over 2^32 seconds and an unknown lifecycle mode once per mode',
    obj: csiDriver({ tokenRequests: [{ audience: '', expirationSeconds: 2 ** 32 + 1 }], volumeLifecycleModes: ['Inline', 'Inline'] }),
    want: [
      'spec.tokenRequests[0].expirationSeconds: Invalid value: 4294967297: may not specify a duration larger than 2^32 seconds',
      'spec.volumeLifecycleModes: Unsupported value: "Inline": supported values: "Persistent", "Ephemeral"',
      'spec.volumeLifecycleModes: Unsupported value: "Inline": supported values: "Persistent", "Ephemeral"',
    ],
  },
  // CSINode.
  {
    name: 'refuses a CSINode driver with no name, a node ID over 256 bytes and an empty topology key',
    obj: csiNode([{ name: '', nodeID: 'n'.repeat(257), topologyKeys: [''] }]),
    want: [
      'spec.drivers[0].name: Required value',
      `spec.drivers[0].nodeID: Invalid value: "${'n'.repeat(257)}": must be 256 characters or less`,
      'spec.drivers[0]: Required value', // field.Required(fldPath, key): the key is the detail, and it is ""
      "spec.drivers[0]: Invalid value: \"\": name part must be non-empty",
      `spec.drivers[0]: Invalid value: "": ${KEY_NAME_ERROR}`,
    ],
  },
  // VolumeAttachment.
  {
    name: 'refuses a VolumeAttachment without a source or an attacher',
    obj: attachment({ attacher: '', source: {} }),
    want: ['spec.attacher: Required value', 'spec.source: Required value: must specify exactly one of inlineVolumeSpec and persistentVolumeName'],
  },
  {
    name: 'refuses an empty persistentVolumeName twice: not empty, and a DNS subdomain',
    obj: attachment({ source: { persistentVolumeName: '' } }),
    want: ['spec.source.persistentVolumeName: Required value: must specify non empty persistentVolumeName', `spec.source.persistentVolumeName: Invalid value: "": ${SUBDOMAIN_ERROR}`],
  },
  {
    name: 'accepts an inline CSI volume spec',
    obj: attachment({ source: { inlineVolumeSpec: { accessModes: ['ReadWriteOnce'], csi: { driver: 'disks.example.com', volumeHandle: 'vol-1' } } } }),
    want: [],
  },
  // CSIStorageCapacity.
  {
    name: 'refuses a CSIStorageCapacity without a storage class or a namespace',
    obj: { apiVersion: STORAGE, kind: 'CSIStorageCapacity', metadata: { name: 'zone-a' } },
    want: ['metadata.namespace: Required value', `storageClassName: Invalid value: "": ${SUBDOMAIN_ERROR}`],
  },
  { name: 'accepts a CSIStorageCapacity with a capacity and no topology', obj: capacity({ capacity: '10Gi', maximumVolumeSize: '1Gi' }), want: [] },
];

for (const c of cases) {
  test(`webhook configuration and CSI validation: ${c.name}`, () => {
    assert.deepEqual(validated(c.obj), c.want);
  });
}

test('webhook configurations get the admissionregistration/v1 defaults before validation', () => {
  const { object, changes } = applyDefaults(mutating(hook({ clientConfig: { service: { namespace: 'a', name: 'b' } }, rules: [rule({})] })));
  const defaulted = (object['webhooks'] as Loose[])[0]!;
  assert.deepEqual(
    { failurePolicy: defaulted['failurePolicy'], matchPolicy: defaulted['matchPolicy'], namespaceSelector: defaulted['namespaceSelector'], objectSelector: defaulted['objectSelector'], timeoutSeconds: defaulted['timeoutSeconds'], reinvocationPolicy: defaulted['reinvocationPolicy'], port: (defaulted['clientConfig'] as { service: Loose }).service['port'], scope: (defaulted['rules'] as Loose[])[0]!['scope'] },
    { failurePolicy: 'Fail', matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {}, timeoutSeconds: 10, reinvocationPolicy: 'Never', port: 443, scope: '*' },
  );
  assert.equal(changes.length, 8);
});

const updates: { name: string; next: KubeObject; old: KubeObject; want: string[] }[] = [
  {
    name: 'a webhook configuration keeps the side effects, review versions and repeated names its stored object already had',
    next: validating(hook({ sideEffects: 'Some', admissionReviewVersions: ['v2'] }), hook({ sideEffects: 'Some', admissionReviewVersions: ['v2'] })),
    old: validating(hook({ sideEffects: 'Unknown', admissionReviewVersions: ['v3'] }), hook({ sideEffects: 'Unknown', admissionReviewVersions: ['v3'] })),
    want: [],
  },
  {
    name: 'a webhook configuration whose stored webhooks have no side effects may not get some',
    next: validating(hook({ sideEffects: 'Some' })),
    old: validating(hook()),
    want: ['webhooks[0].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"'],
  },
  {
    name: 'unchanged match conditions are not compiled again',
    next: mutating(hook({ matchConditions: [{ name: 'n', expression: 'object' }] })),
    old: mutating(hook({ matchConditions: [{ name: 'n', expression: 'object' }] })),
    want: [],
  },
  {
    name: 'changed match conditions are compiled again',
    next: mutating(hook({ matchConditions: [{ name: 'n', expression: 'object' }, { name: 'm', expression: 'true' }] })),
    old: mutating(hook({ matchConditions: [{ name: 'n', expression: 'object' }] })),
    want: ['webhooks[0].matchConditions[0].expression: Invalid value: "object": must evaluate to bool but got dyn'],
  },
  {
    name: 'a CSIDriver may not change attachRequired (at spec.attachedRequired) or its lifecycle modes',
    next: csiDriver({ attachRequired: false, volumeLifecycleModes: ['Ephemeral'] }),
    old: csiDriver({}),
    want: ['spec.attachedRequired: Invalid value: false: field is immutable', 'spec.volumeLifecycleModes: Invalid value: ["Ephemeral"]: field is immutable'],
  },
  {
    name: 'a CSINode driver may change its allocatable count but not its node ID',
    next: csiNode([{ name: 'disks.example.com', nodeID: 'b', allocatable: { count: 3 } }]),
    old: csiNode([{ name: 'disks.example.com', nodeID: 'a', allocatable: { count: 1 } }]),
    want: ['spec.drivers: Invalid value: {"Name":"disks.example.com","NodeID":"b","TopologyKeys":null,"Allocatable":null}: field is immutable'],
  },
  {
    name: 'a CSIStorageCapacity may change its capacity, not its storage class, and keeps the invalid label values it had',
    next: capacity({ storageClassName: 'slow', capacity: '5Gi', nodeTopology: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a b'] }] } }),
    old: capacity({ nodeTopology: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a b'] }] } }),
    want: ['storageClassName: Invalid value: "slow": field is immutable'],
  },
];

for (const c of updates) {
  test(`webhook configuration and CSI update validation: ${c.name}`, () => {
    assert.deepEqual(updated(c.next, c.old), c.want);
  });
}
