// PersistentVolumes, PersistentVolumeClaims, StorageClasses, ConfigMaps and Secrets the API server refuses at validation,
// run through the pod-lifecycle CLI as a process: outcome Rejected at apiserver.validate, the 422 Invalid Status with the
// server's message (the group-qualified kind, the causes joined as `[a, b]`) and kubectl's lines. The causes come from
// pkg/apis/core/validation/validation.go (ValidatePersistentVolume, ValidatePersistentVolumeClaim, ValidateConfigMap,
// ValidateSecret) and pkg/apis/storage/validation/validation.go (ValidateStorageClass), kubernetes v1.36.3; each fixture
// is an oracle case (scripts/oracle/cases.mjs), where a real kube-apiserver 1.36.3 gives the same.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runJson } from './harness';

const SUBDOMAIN = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const CONFIG_KEY = "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";
const ACCESS_MODES = 'supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"';
const F = 'test/fixtures/validation';

const cases: { name: string; fixture: string; kind: string; group?: string; object: string; causes: string[] }[] = [
  {
    name: 'a PersistentVolume without capacity is refused: capacity is required and must hold storage',
    fixture: `${F}/pv-no-capacity.yaml`, kind: 'PersistentVolume', object: 'data',
    causes: ['spec.capacity: Required value', 'spec.capacity: Unsupported value: null: supported values: "storage"'],
  },
  {
    name: 'a PersistentVolume with two volume sources is refused at the second one',
    fixture: `${F}/pv-two-sources.yaml`, kind: 'PersistentVolume', object: 'data',
    causes: ['spec.nfs: Forbidden: may not specify more than 1 volume type'],
  },
  {
    name: 'a PersistentVolume with the reclaim policy Keep is refused: Delete, Recycle or Retain',
    fixture: `${F}/pv-reclaim-keep.yaml`, kind: 'PersistentVolume', object: 'data',
    causes: ['spec.persistentVolumeReclaimPolicy: Unsupported value: "Keep": supported values: "Delete", "Recycle", "Retain"'],
  },
  {
    name: 'a local PersistentVolume needs node affinity; its capacity holds storage alone, its access modes are known ones',
    fixture: `${F}/pv-local-no-affinity.yaml`, kind: 'PersistentVolume', object: 'local-data',
    causes: [
      `spec.accessModes: Unsupported value: "ReadWriteOnly": ${ACCESS_MODES}`,
      'spec.capacity: Unsupported value: {"cpu":"1","storage":"10Gi"}: supported values: "storage"',
      'spec.nodeAffinity: Required value: Local volume requires node affinity',
    ],
  },
  {
    name: 'a PersistentVolume with no source, a zero capacity, ReadWriteOncePod beside another mode and an unknown volume mode',
    fixture: `${F}/pv-no-source.yaml`, kind: 'PersistentVolume', object: 'data',
    causes: [
      'spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes',
      'spec.capacity[storage]: Invalid value: "0": must be greater than zero',
      'spec: Required value: must specify a volume type',
      'spec.volumeMode: Unsupported value: "Raw": supported values: "Block", "Filesystem"',
    ],
  },
  {
    name: 'a hostPath of / may not be recycled; a hostPath takes no mount options, no `..` and only known types',
    fixture: `${F}/pv-hostpath-root-recycle.yaml`, kind: 'PersistentVolume', object: 'root',
    causes: [
      'spec.hostPath.path: Invalid value: "/srv/../": must not contain \'..\'',
      'spec.hostPath.type: Unsupported value: "Folder": supported values: "", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket"',
      "spec.persistentVolumeReclaimPolicy: Forbidden: may not be 'recycle' for a hostPath mount of '/'",
      'metadata.annotations.volume.beta.kubernetes.io/mount-options: Forbidden: may not specify mount options for this volume type',
    ],
  },
  {
    name: 'a CSI PersistentVolume needs a volume handle and secret references with a namespace; an attributes class name may not be empty',
    fixture: `${F}/pv-csi-incomplete.yaml`, kind: 'PersistentVolume', object: 'csi-data',
    causes: [
      'spec.csi.volumeHandle: Required value',
      'spec.csi.nodePublishSecretRef.namespace: Required value',
      'spec.volumeAttributesClassName: Required value: an empty string is disallowed',
    ],
  },
  {
    name: 'a PersistentVolumeClaim whose dataSource and dataSourceRef differ is refused, as is a selector operator that is no operator',
    fixture: `${F}/pvc-data-source-mismatch.yaml`, kind: 'PersistentVolumeClaim', object: 'clone',
    causes: ['spec.selector.matchExpressions[0].operator: Invalid value: "Equals": not a valid selector operator', 'spec: Invalid value: {}: must match dataSourceRef'],
  },
  {
    name: 'a PersistentVolumeClaim without access modes or a storage request is refused',
    fixture: `${F}/pvc-no-access-modes.yaml`, kind: 'PersistentVolumeClaim', object: 'data',
    causes: ['spec.accessModes: Required value: at least 1 access mode is required', 'spec.resources[storage]: Required value'],
  },
  {
    name: 'a PersistentVolumeClaim with an unknown access mode, a zero request and a storage class name that is no DNS subdomain',
    fixture: `${F}/pvc-bad-request.yaml`, kind: 'PersistentVolumeClaim', object: 'data',
    causes: [
      `spec.accessModes: Unsupported value: "ReadWriteOnly": ${ACCESS_MODES}`,
      'spec.resources[storage]: Invalid value: "0": must be greater than zero',
      `spec.storageClassName: Invalid value: "Fast_SSD": ${SUBDOMAIN}`,
    ],
  },
  {
    name: 'a ConfigMap key with a slash is no config key, and a key may not be in both data and binaryData',
    fixture: `${F}/configmap-bad-key.yaml`, kind: 'ConfigMap', object: 'app-config',
    causes: [`data[config/app.yaml]: Invalid value: "config/app.yaml": ${CONFIG_KEY}`, 'data[logo]: Invalid value: "logo": duplicate of key present in binaryData'],
  },
  {
    name: 'a kubernetes.io/tls Secret without tls.crt is refused',
    fixture: `${F}/secret-tls-missing-cert.yaml`, kind: 'Secret', object: 'web-tls',
    causes: ['data[tls.crt]: Required value'],
  },
  {
    name: 'a kubernetes.io/dockerconfigjson Secret whose value is not JSON is refused with json.Unmarshal\'s error, the value redacted',
    fixture: `${F}/secret-dockerconfigjson-invalid.yaml`, kind: 'Secret', object: 'regcred',
    causes: ['data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": invalid character \'a\' looking for beginning of object key string'],
  },
  {
    name: 'a kubernetes.io/basic-auth Secret needs a username or a password; its keys are config keys',
    fixture: `${F}/secret-basic-auth-empty.yaml`, kind: 'Secret', object: 'creds',
    causes: [`data[user name]: Invalid value: "user name": ${CONFIG_KEY}`, 'data[username]: Required value', 'data[password]: Required value'],
  },
  {
    name: 'a kubernetes.io/dockercfg Secret whose value is a JSON list cannot unmarshal into a map',
    fixture: `${F}/secret-dockercfg-array.yaml`, kind: 'Secret', object: 'legacy-regcred',
    causes: ['data[.dockercfg]: Invalid value: "<secret contents redacted>": json: cannot unmarshal array into Go value of type map[string]interface {}'],
  },
  {
    name: 'a kubernetes.io/ssh-auth Secret with an empty private key is refused',
    fixture: `${F}/secret-ssh-empty-key.yaml`, kind: 'Secret', object: 'git-ssh',
    causes: ['data[ssh-privatekey]: Required value'],
  },
  {
    name: 'a service account token Secret must name its service account',
    fixture: `${F}/secret-sa-token-no-annotation.yaml`, kind: 'Secret', object: 'build-robot-token',
    causes: ['metadata.annotations[kubernetes.io/service-account.name]: Required value'],
  },
  {
    name: 'a StorageClass may not recycle, and its binding mode is Immediate or WaitForFirstConsumer',
    fixture: `${F}/storageclass-bad-policies.yaml`, kind: 'StorageClass', group: 'storage.k8s.io', object: 'fast',
    causes: [
      'reclaimPolicy: Unsupported value: "Recycle": supported values: "Delete", "Retain"',
      'volumeBindingMode: Unsupported value: "WaitForConsumer": supported values: "Immediate", "WaitForFirstConsumer"',
    ],
  },
  {
    name: 'a StorageClass needs a provisioner; its allowed topologies hold no value twice and no term twice',
    fixture: `${F}/storageclass-bad-topology.yaml`, kind: 'StorageClass', group: 'storage.k8s.io', object: 'zonal',
    causes: [
      'provisioner: Required value',
      'allowedTopologies[0].matchLabelExpressions[0].values[1]: Duplicate value: "us-east-1a"',
      'allowedTopologies[1].matchLabelExpressions: Duplicate value: ""',
    ],
  },
  {
    name: 'a StorageClass provisioner is a qualified name once lower-cased; a parameter key may not be empty; its name is a DNS subdomain',
    fixture: `${F}/storageclass-bad-provisioner.yaml`, kind: 'StorageClass', group: 'storage.k8s.io', object: 'Fast',
    causes: [
      `metadata.name: Invalid value: "Fast": ${SUBDOMAIN}`,
      'provisioner: Invalid value: "my provisioner": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')',
      'parameters: Invalid value: "": field can not be empty.',
    ],
  },
];

for (const c of cases) {
  test(c.name, () => {
    const { status, report, stderr } = runJson('run', c.fixture);
    assert.equal(status, 1, stderr);
    assert.equal(report.outcome, 'Rejected');
    const joined = c.causes.length === 1 ? c.causes[0]! : `[${c.causes.join(', ')}]`;
    const qualified = c.group ? `${c.kind}.${c.group}` : c.kind;
    assert.deepEqual(report.rejection, {
      ...report.rejection,
      phase: 'apiserver.validate', code: 422, reason: 'Invalid',
      message: `${qualified} "${c.object}" is invalid: ${joined}`,
    });
    const kubectl = c.causes.length === 1
      ? `The ${c.kind} "${c.object}" is invalid: ${c.causes[0]}`
      : `The ${c.kind} "${c.object}" is invalid: \n${c.causes.map((cause) => `* ${cause}`).join('\n')}`;
    assert.equal(report.kubectl, kubectl);
    assert.ok(!report.objects.some((o) => o.kind === c.kind && o.metadata.name === c.object), 'nothing was stored');
  });
}

test('claims are stored with their data sources as the claim strategy leaves them: copied across, or a legacy one dropped', () => {
  // PrepareForCreate: EnforceDataSourceBackwardsCompatibility and NormalizeDataSources (pkg/api/persistentvolumeclaim/util.go,
  // v1.36.3); apiGroup, a pointer without omitempty, is written null when nil. The oracle case stores the same.
  const { report, stderr } = runJson('run', 'test/fixtures/defaults/pvc-data-sources.yaml');
  assert.notEqual(report.outcome, 'Rejected', stderr);
  const sources = Object.fromEntries(report.objects.filter((o) => o.kind === 'PersistentVolumeClaim')
    .map((o) => [o.metadata.name, { dataSource: o.spec?.['dataSource'], dataSourceRef: o.spec?.['dataSourceRef'] }]));
  const claimRef = { apiGroup: null, kind: 'PersistentVolumeClaim', name: 'source' };
  const snapshotRef = { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: 'snap' };
  assert.deepEqual(sources, {
    'from-ref': { dataSource: claimRef, dataSourceRef: claimRef },
    'from-snapshot': { dataSource: snapshotRef, dataSourceRef: snapshotRef },
    'from-configmap': { dataSource: undefined, dataSourceRef: undefined },
  });
});
