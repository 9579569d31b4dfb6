// In-tree volumes as the CSI drivers they migrated to: which in-tree sources migrate, to which driver, under which volume
// handle. See staging/src/k8s.io/csi-translation-lib (plugins/*.go) and nodevolumelimits/utils.go (isCSIMigrationOn).
import type { CSINode } from 'kubernetes-types/storage/v1';
import type { PersistentVolume, Volume } from '../../../api/types';

/** CSIVolume is a volume as a CSI driver knows it. */
export interface CSIVolume {
  driver: string;
  volumeHandle: string;
}

/** InTreePlugin is one in-tree plugin: its name, the CSI driver it migrated to, and its source's handle (undefined: not this kind). */
interface InTreePlugin {
  plugin: string;
  driver: string;
  /** ga tells whether CSI migration is on for it without a feature gate (isCSIMigrationOn's true cases). */
  ga: boolean;
  inline: (v: Volume) => string | undefined;
  pv: (pv: PersistentVolume) => string | undefined;
}

const UNSPECIFIED = 'UNSPECIFIED';
const ZONE_LABELS = ['topology.kubernetes.io/zone', 'failure-domain.beta.kubernetes.io/zone'];

/** ebsVolumeID is KubernetesVolumeIDToEBSVolumeID: `aws://<zone>/<vol-id>` or a bare volume id. */
function ebsVolumeID(id: string): string {
  if (!id.startsWith('aws://')) return id;
  return id.slice('aws://'.length).split('/').filter((p) => p !== '').pop() ?? '';
}

/** gcePDHandle is the GCE PD driver's volume id: zonal in the PV's zone, regional across two zones, UNSPECIFIED inline. */
function gcePDHandle(pdName: string, pv?: PersistentVolume): string {
  const labels = pv?.metadata?.labels ?? {};
  const zoneLabel = ZONE_LABELS.map((k) => labels[k]).find((v) => v !== undefined);
  const zones = zoneLabel ? zoneLabel.split('__') : [];
  if (zones.length > 1) return `projects/${UNSPECIFIED}/regions/${zones[0]!.replace(/-[^-]*$/, '')}/disks/${pdName}`;
  return `projects/${UNSPECIFIED}/zones/${zones[0] ?? UNSPECIFIED}/disks/${pdName}`;
}

const IN_TREE: readonly InTreePlugin[] = [
  { plugin: 'kubernetes.io/aws-ebs', driver: 'ebs.csi.aws.com', ga: true,
    inline: (v) => v.awsElasticBlockStore && ebsVolumeID(v.awsElasticBlockStore.volumeID), pv: (pv) => pv.spec?.awsElasticBlockStore && ebsVolumeID(pv.spec.awsElasticBlockStore.volumeID) },
  { plugin: 'kubernetes.io/gce-pd', driver: 'pd.csi.storage.gke.io', ga: true,
    inline: (v) => v.gcePersistentDisk && gcePDHandle(v.gcePersistentDisk.pdName), pv: (pv) => pv.spec?.gcePersistentDisk && gcePDHandle(pv.spec.gcePersistentDisk.pdName, pv) },
  { plugin: 'kubernetes.io/azure-disk', driver: 'disk.csi.azure.com', ga: true, inline: (v) => v.azureDisk?.diskURI, pv: (pv) => pv.spec?.azureDisk?.diskURI },
  { plugin: 'kubernetes.io/cinder', driver: 'cinder.csi.openstack.org', ga: true, inline: (v) => v.cinder?.volumeID, pv: (pv) => pv.spec?.cinder?.volumeID },
  // Why: these migrate too (IsInlineMigratable), but isCSIMigrationOn is false for them in the volume limits plugin.
  { plugin: 'kubernetes.io/azure-file', driver: 'file.csi.azure.com', ga: false, inline: (v) => v.azureFile?.shareName, pv: (pv) => pv.spec?.azureFile?.shareName },
  { plugin: 'kubernetes.io/vsphere-volume', driver: 'csi.vsphere.vmware.com', ga: false, inline: (v) => v.vsphereVolume?.volumePath, pv: (pv) => pv.spec?.vsphereVolume?.volumePath },
  { plugin: 'kubernetes.io/portworx-volume', driver: 'pxd.portworx.com', ga: false, inline: (v) => v.portworxVolume?.volumeID, pv: (pv) => pv.spec?.portworxVolume?.volumeID },
];

/** isInlineMigratable tells whether a pod volume is an in-tree source that migrated to CSI (translator.IsInlineMigratable). */
export function isInlineMigratable(v: Volume): boolean {
  return IN_TREE.some((p) => p.inline(v) !== undefined);
}

/** isCSIMigrationOn tells whether the node runs the plugin's volumes through CSI: a CSINode and a GA migration. */
function isCSIMigrationOn(csiNode: CSINode | undefined, p: InTreePlugin): boolean {
  return csiNode !== undefined && p.ga;
}

/** translateInline is an inline in-tree volume as CSI on the node, or undefined when it is not counted there. */
export function translateInline(v: Volume, csiNode: CSINode | undefined): CSIVolume | undefined {
  const p = IN_TREE.find((x) => x.inline(v) !== undefined);
  if (!p || !isCSIMigrationOn(csiNode, p)) return undefined;
  return { driver: p.driver, volumeHandle: p.inline(v)! };
}

/** translatePV is a PV's CSI source: its own, or its in-tree source translated when migration is on for the node. */
export function translatePV(pv: PersistentVolume, csiNode: CSINode | undefined): CSIVolume | undefined {
  const csi = pv.spec?.csi;
  if (csi) return { driver: csi.driver, volumeHandle: csi.volumeHandle };
  const p = IN_TREE.find((x) => x.pv(pv) !== undefined);
  if (!p || !isCSIMigrationOn(csiNode, p)) return undefined;
  return { driver: p.driver, volumeHandle: p.pv(pv)! };
}

/** provisionerDriver is the CSI driver behind a StorageClass provisioner: an in-tree one migrated, or the provisioner itself. */
export function provisionerDriver(provisioner: string, csiNode: CSINode | undefined): string | undefined {
  const p = IN_TREE.find((x) => x.plugin === provisioner);
  if (!p) return provisioner;
  return isCSIMigrationOn(csiNode, p) ? p.driver : undefined;
}
