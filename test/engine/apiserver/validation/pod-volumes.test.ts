// Volumes (ValidateVolumes, validateVolumeSource and the source validators) from pkg/apis/core/validation/validation.go;
// cases echo TestValidateVolumes. Volumes are defaulted first (secret/configMap/projected defaultMode 420, etc.).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LABEL_ERROR, makePod, podErrors } from './builders';

const v0 = 'spec.volumes[0]';
const MORE = 'Forbidden: may not specify more than 1 volume type';
const MODE = 'must be a number between 0 and 0777 (octal), both inclusive';

const cases = [
  { name: 'Common volume sources are valid', pod: makePod().withVolumes({ name: 'a', emptyDir: { sizeLimit: '1Gi' } }, { name: 'b', configMap: { name: 'cm' } }, { name: 'c', secret: { secretName: 's' } }, { name: 'd', hostPath: { path: '/var/log', type: 'Directory' } }, { name: 'e', persistentVolumeClaim: { claimName: 'pvc' } }), want: [] },
  // ValidateVolumes: names.
  {
    name: 'A volume name must be a DNS label and unique',
    pod: makePod().withVolumes({ name: 'Data', emptyDir: {} }, { name: 'cache', emptyDir: {} }, { name: 'cache', emptyDir: {} }),
    want: [`${v0}.name: Invalid value: "Data": ${LABEL_ERROR}`, 'spec.volumes[2].name: Duplicate value: "cache"'],
  },
  // validateVolumeSource: one source, in Go's order; the typo'd paths are Go's.
  {
    name: 'A second source is forbidden at its own field, after the first is checked',
    pod: makePod().withVolumes({ name: 'a', emptyDir: {}, hostPath: { path: '/x' } }, { name: 'b', configMap: {}, secret: { secretName: 's' } }, { name: 'c', emptyDir: {}, downwardAPI: {} }),
    want: [`${v0}.hostPath: ${MORE}`, `spec.volumes[1].configMap: ${MORE}`, `spec.volumes[2].downwarAPI: ${MORE}`],
  },
  // validate*VolumeSource: required fields.
  {
    name: 'Each common source has its required field',
    pod: makePod().withVolumes({ name: 'a', configMap: {} }, { name: 'b', secret: {} }, { name: 'c', persistentVolumeClaim: { claimName: '' } }, { name: 'd', hostPath: { path: '' } }),
    want: [
      `${v0}.configMap.name: Required value`,
      'spec.volumes[1].secret.secretName: Required value',
      'spec.volumes[2].persistentVolumeClaim.claimName: Required value',
      'spec.volumes[3].hostPath.path: Required value',
    ],
  },
  {
    name: 'A hostPath has a known type and no backsteps',
    pod: makePod().withVolumes({ name: 'a', hostPath: { path: '/a/../etc', type: 'Dir' } }),
    want: [
      `${v0}.hostPath.path: Invalid value: "/a/../etc": must not contain '..'`,
      `${v0}.hostPath.type: Unsupported value: "Dir": supported values: "", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket"`,
    ],
  },
  {
    name: 'A negative emptyDir sizeLimit is forbidden',
    pod: makePod().withVolumes({ name: 'a', emptyDir: { sizeLimit: '-1Gi' } }),
    want: [`${v0}.emptyDir.sizeLimit: Forbidden: SizeLimit field must be a valid resource quantity`],
  },
  // validateKeyToPath and file modes.
  {
    name: 'ConfigMap items need a key and a local non-reserved path; modes are at most 0777',
    pod: makePod().withVolumes({ name: 'a', configMap: { name: 'cm', defaultMode: 0o1000, items: [{ key: '', path: '/etc/x', mode: 512 }, { key: 'k', path: '..data' }] } }),
    want: [
      `${v0}.configMap.defaultMode: Invalid value: 512: ${MODE}`,
      `${v0}.configMap.items[0].key: Required value`,
      `${v0}.configMap.items[0].path: Invalid value: "/etc/x": must be a relative path`,
      `${v0}.configMap.items[0].mode: Invalid value: 512: ${MODE}`,
      `${v0}.configMap.items[1].path: Invalid value: "..data": must not start with '..'`,
    ],
  },
  // validateDownwardAPIVolumeFile: errors at the source path, volume field paths.
  {
    name: 'Downward API files are checked at the source path, with the volume field paths',
    pod: makePod().withVolumes({ name: 'a', downwardAPI: { items: [{ path: 'node', fieldRef: { fieldPath: 'spec.nodeName' } }, { path: 'cpu', resourceFieldRef: { resource: 'limits.cpu' } }, { path: 'none' }] } }),
    want: [
      `${v0}.downwardAPI.fieldRef.fieldPath: Unsupported value: "spec.nodeName": supported values: "metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace", "metadata.uid"`,
      `${v0}.downwardAPI.resourceFieldRef.containerName: Required value`,
      `${v0}.downwardAPI: Required value: one of fieldRef and resourceFieldRef is required`,
    ],
  },
  // validateProjectionSources.
  {
    name: 'A projected source holds one kind; paths are unique across the volume; tokens last 10 minutes or more',
    pod: makePod().withSpec({ serviceAccountName: 'default' }).withVolumes({
      name: 'a',
      projected: {
        sources: [
          { configMap: { name: 'cm', items: [{ key: 'k', path: 'p' }] }, secret: { name: 's' } },
          { secret: { name: 's', items: [{ key: 'k', path: 'p' }] } },
          { serviceAccountToken: { expirationSeconds: 60, path: '' } },
        ],
      },
    }),
    want: [
      `${v0}.projected.sources[0]: Forbidden: may not specify more than 1 volume type per source`,
      `${v0}.projected: Invalid value: "s": conflicting duplicate paths`,
      `${v0}.projected.sources[2].serviceAccountToken.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes`,
      `${v0}.projected.path: Required value`,
    ],
  },
  // Other sources.
  {
    name: 'NFS needs an absolute path, CSI a driver, an image volume a reference',
    pod: makePod().withVolumes({ name: 'a', nfs: { server: 'nfs.local', path: 'exports' } }, { name: 'b', csi: { driver: '' } }, { name: 'c', image: { pullPolicy: 'IfNotPresent' } }),
    want: [
      `${v0}.nfs.path: Invalid value: "exports": must be an absolute path`,
      // ValidateCSIDriverName stops at an empty name (the reference cluster says only this).
      'spec.volumes[1].csi.driver: Required value',
      'spec.volumes[2].image.reference: Required value',
    ],
  },
  // validateEphemeralVolumeSource and ValidatePersistentVolumeClaimSpec.
  {
    name: 'An ephemeral volume needs a claim template with access modes and a storage request',
    pod: makePod().withVolumes({ name: 'a', ephemeral: {} }, { name: 'b', ephemeral: { volumeClaimTemplate: { metadata: { name: 'x' }, spec: {} } } }),
    want: [
      `${v0}.ephemeral.volumeClaimTemplate: Required value`,
      'spec.volumes[1].ephemeral.volumeClaimTemplate.metadata.name: Forbidden: cannot be set',
      'spec.volumes[1].ephemeral.volumeClaimTemplate.spec.accessModes: Required value: at least 1 access mode is required',
      'spec.volumes[1].ephemeral.volumeClaimTemplate.spec.resources[storage]: Required value',
    ],
  },
  // ValidateVolumes: "must not reference a PVC that gets created for an ephemeral volume".
  {
    name: 'A claim may not name the PVC of the pod own ephemeral volume',
    pod: makePod().withVolumes(
      { name: 'scratch', ephemeral: { volumeClaimTemplate: { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } } } },
      { name: 'data', persistentVolumeClaim: { claimName: 'web-scratch' } },
    ),
    want: ['spec.volumes[1].persistentVolumeClaim.claimName: Invalid value: "web-scratch": must not reference a PVC that gets created for an ephemeral volume'],
  },
  // A volume with errors is left out, so its mounts are not found.
  {
    name: 'A mount of an invalid volume is not found',
    pod: makePod().withVolumes({ name: 'data', configMap: {} }).withContainer({ volumeMounts: [{ name: 'data', mountPath: '/data' }] }),
    want: [`${v0}.configMap.name: Required value`, 'spec.containers[0].volumeMounts[0].name: Not found: "data"'],
  },
];

for (const c of cases) {
  test(c.name, () => {
    assert.deepEqual(podErrors(c.pod), c.want);
  });
}
