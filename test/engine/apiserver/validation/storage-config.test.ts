// Tests the validation of PersistentVolumes, claims, StorageClasses, ConfigMaps and Secrets on what the CLI fixtures
// (test/cli/rejections-storage-config.test.ts) do not reach: the 1 MiB limit, a Secret's values as the request sends
// them (base64 data, stringData) or as the store keeps them (redacted notes), docker configs json.Unmarshal refuses,
// the rarer PersistentVolume sources and the StorageClass parameter limits. Rules and messages from
// pkg/apis/core/validation/validation.go and pkg/apis/storage/validation/validation.go (kubernetes v1.36.3).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/engine/api/types';
import { validateObject } from '../../../../src/engine/apiserver/validation';
import { redactedNote } from '../../../../src/engine/cluster/secret-values';

const MIB = 1024 * 1024;
const b64 = (text: string): string => Buffer.from(text).toString('base64');
const meta = (name: string, namespace: string | undefined = 'default') => ({ name, ...(namespace ? { namespace } : {}) });
const secret = (fields: Record<string, unknown>): KubeObject => ({ apiVersion: 'v1', kind: 'Secret', metadata: meta('s'), type: 'Opaque', ...fields } as KubeObject);
const pv = (spec: Record<string, unknown>, annotations?: Record<string, string>): KubeObject => ({
  apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pv', ...(annotations ? { annotations } : {}) },
  spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], persistentVolumeReclaimPolicy: 'Retain', volumeMode: 'Filesystem', ...spec },
} as KubeObject);

const cases: { name: string; obj: KubeObject; want: string[] }[] = [
  {
    name: 'a ConfigMap of more than 1 MiB in data and binaryData together is too long, at the empty path',
    obj: { apiVersion: 'v1', kind: 'ConfigMap', metadata: meta('big'), data: { a: 'x'.repeat(MIB) }, binaryData: { b: b64('y') } } as KubeObject,
    want: [': Too long: may not be more than 1048576 bytes'],
  },
  {
    name: 'a ConfigMap of exactly 1 MiB passes',
    obj: { apiVersion: 'v1', kind: 'ConfigMap', metadata: meta('full'), data: { a: 'x'.repeat(MIB) } } as KubeObject,
    want: [],
  },
  {
    name: 'a ConfigMap binaryData key is a config key too, and `..` keys are refused by name',
    obj: { apiVersion: 'v1', kind: 'ConfigMap', metadata: meta('cm'), binaryData: { '..data': b64('x') } } as KubeObject,
    want: ['binaryData[..data]: Invalid value: "..data": must not start with \'..\''],
  },
  {
    name: 'a Secret counts its decoded bytes: 1 MiB of data plus one byte of stringData is too long, at data',
    obj: secret({ data: { a: Buffer.alloc(MIB).toString('base64') }, stringData: { b: 'z' } }),
    want: ['data: Too long: may not be more than 1048576 bytes'],
  },
  {
    name: 'a stored Secret (values redacted, as an update sees it) counts each value by its note',
    obj: secret({ data: { a: redactedNote(MIB), b: redactedNote(1) } }),
    want: ['data: Too long: may not be more than 1048576 bytes'],
  },
  {
    name: 'a stored docker config Secret is not parsed again: its value is redacted',
    obj: secret({ type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': redactedNote(20) } }),
    want: [],
  },
  {
    name: 'a docker config value that is not there at all is required',
    obj: secret({ type: 'kubernetes.io/dockerconfigjson', data: {} }),
    want: ['data[.dockerconfigjson]: Required value'],
  },
  {
    name: 'an empty docker config is unexpected end of JSON input; null is a valid empty map',
    obj: secret({ type: 'kubernetes.io/dockercfg', stringData: { '.dockercfg': '' } }),
    want: ['data[.dockercfg]: Invalid value: "<secret contents redacted>": unexpected end of JSON input'],
  },
  {
    name: 'a docker config of null passes (json.Unmarshal leaves the map as it is)',
    obj: secret({ type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': b64('null') } }),
    want: [],
  },
  {
    name: 'a docker config that is a JSON string cannot unmarshal into a map',
    obj: secret({ type: 'kubernetes.io/dockerconfigjson', stringData: { '.dockerconfigjson': '"auths"' } }),
    want: ['data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": json: cannot unmarshal string into Go value of type map[string]interface {}'],
  },
  {
    name: 'a basic-auth Secret with only a password passes; an unknown type needs nothing',
    obj: secret({ type: 'kubernetes.io/basic-auth', stringData: { password: '' } }),
    want: [],
  },
  {
    name: 'a Secret of a type of its own needs no key',
    obj: secret({ type: 'example.com/custom' }),
    want: [],
  },
  {
    name: 'a glusterfs volume needs endpoints and path, and a set endpointsNamespace may not be empty',
    obj: pv({ glusterfs: { endpointsNamespace: '' } }),
    want: [
      'spec.glusterfs.endpoints: Required value', 'spec.glusterfs.path: Required value',
      'spec.glusterfs.endpointsNamespace: Invalid value: "": if the endpointnamespace is set, it must be a valid namespace name',
    ],
  },
  {
    name: 'a flexVolume is never refused as a second source, a third one after it is; cephfs is refused as cephFS',
    obj: pv({ nfs: { server: 'nfs', path: '/x' }, flexVolume: { driver: 'acme/x' }, cephfs: { monitors: ['m'] }, csi: { driver: 'x', volumeHandle: 'h' } }),
    want: ['spec.cephFS: Forbidden: may not specify more than 1 volume type', 'spec.csi: Forbidden: may not specify more than 1 volume type'],
  },
  {
    name: 'an NFS volume takes mount options; its path must be absolute',
    obj: pv({ nfs: { server: 'nfs', path: 'exports' } }, { 'volume.beta.kubernetes.io/mount-options': 'hard' }),
    want: ['spec.nfs.path: Invalid value: "exports": must be an absolute path'],
  },
  {
    name: 'node affinity without required terms, and required terms that are empty',
    obj: pv({ local: { path: '/mnt/a' }, nodeAffinity: {} }),
    want: ['spec.nodeAffinity.required: Required value: must specify required node constraints'],
  },
  {
    name: 'a volume attributes class needs a CSI volume, and a negative capacity is no valid quantity',
    obj: pv({ capacity: { storage: '-1Gi' }, hostPath: { path: '/data' }, volumeAttributesClassName: 'gold' }),
    want: [
      'spec.capacity[storage]: Invalid value: -1073741824: must be a valid resource quantity',
      'spec.capacity[storage]: Invalid value: "-1Gi": must be greater than zero',
      'spec.csi: Required value: has to be specified when using volumeAttributesClassName',
    ],
  },
  {
    name: 'a PersistentVolume name is a DNS subdomain',
    obj: { ...pv({ hostPath: { path: '/data' } }), metadata: { name: 'Data_1' } } as KubeObject,
    want: ["metadata.name: Invalid value: \"Data_1\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"],
  },
  {
    name: 'a StorageClass has at most 512 parameters',
    obj: {
      apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'many' }, provisioner: 'example.com/p', reclaimPolicy: 'Delete',
      volumeBindingMode: 'Immediate', parameters: Object.fromEntries(Array.from({ length: 513 }, (_, i) => [`k${i}`, 'v'])),
    } as KubeObject,
    want: ['parameters: Too long: may not be more than 512 bytes'],
  },
  {
    name: 'a StorageClass term with no expressions is a duplicate of every empty term Go holds before it',
    obj: {
      apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'empty-terms' }, provisioner: 'example.com/p', reclaimPolicy: 'Delete',
      volumeBindingMode: 'Immediate', allowedTopologies: [{ matchLabelExpressions: [{ key: 'zone', values: ['a'] }] }, {}],
    } as KubeObject,
    want: ['allowedTopologies[1].matchLabelExpressions: Duplicate value: ""', 'allowedTopologies[1].matchLabelExpressions: Duplicate value: ""'],
  },
];

for (const c of cases) {
  test(c.name, () => {
    assert.deepEqual(validateObject(c.obj).map((e) => `${e.field}: ${e.body}`), c.want);
  });
}
