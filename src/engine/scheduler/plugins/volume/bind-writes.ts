// The API writes behind VolumeBinding's PreBind: the scheduler's own (bindAPIUpdate), then those it waits for
// (checkBindings) from the PV controller and, for dynamic provisioning, the external provisioner.
// See volumebinding/binder.go (bindAPIUpdate, checkBindings), pkg/controller/volume/persistentvolume/pv_controller.go
// (bind, bindClaimToVolume, updateClaimStatus, updateVolumePhase) and sig-storage-lib-external-provisioner (provisionClaimOperation).
import type { CSINode, StorageClass } from 'kubernetes-types/storage/v1';
import { deepClone, type KubeObject, type Mutable, type Node, type PersistentVolume, type PersistentVolumeClaim } from '../../../api/types';
import type { ObjectWrite } from '../../framework/interfaces';
import type { Listers } from '../../framework/listers';
import type { PodVolumes } from './binder';
import { Ann, claimClass, Kind } from './claims';
import { claimReference } from './pv-match';

/** Writer names the components that make the writes. */
export const Writer = {
  Scheduler: 'kube-scheduler',
  PVController: 'persistentvolume-controller',
  Provisioner: 'external-provisioner',
} as const;

/** ANN_PROVISIONED_BY names the provisioner of a dynamically provisioned PV (pv.kubernetes.io/provisioned-by). */
export const ANN_PROVISIONED_BY = 'pv.kubernetes.io/provisioned-by';
/** ANN_STORAGE_PROVISIONER is set on a claim by the PV controller when it hands the claim to an external provisioner. */
export const ANN_STORAGE_PROVISIONER = 'volume.kubernetes.io/storage-provisioner';
/** ANN_BETA_STORAGE_PROVISIONER is its older twin, still set alongside. */
export const ANN_BETA_STORAGE_PROVISIONER = 'volume.beta.kubernetes.io/storage-provisioner';

const PHASE_BOUND = 'Bound';

const obj = (o: Mutable<PersistentVolume> | Mutable<PersistentVolumeClaim> | PersistentVolume | PersistentVolumeClaim): KubeObject => o as unknown as KubeObject;

/** bindWrites lists the writes that bind the pod's volumes on the chosen node, after assumePodVolumes. */
export function bindWrites(podVolumes: PodVolumes, nodeName: string, listers: Listers): ObjectWrite[] {
  const writes: ObjectWrite[] = [];
  // The scheduler's API updates: PVs pre-bound to their claims, claims annotated with the node to provision on.
  for (const b of podVolumes.staticBindings) writes.push({ verb: 'update', object: obj(b.pv), by: Writer.Scheduler });
  for (const pvc of podVolumes.dynamicProvisions) writes.push({ verb: 'update', object: obj(pvc), by: Writer.Scheduler });
  // What checkBindings waits for: the PV controller completes each static binding...
  for (const b of podVolumes.staticBindings) writes.push(...completeBinding(b.pv, b.pvc));
  // ...and each claim to provision gets a PV from its provisioner, which the PV controller then binds.
  for (const pvc of podVolumes.dynamicProvisions) {
    const sc = listers.get<StorageClass>(Kind.StorageClass, undefined, claimClass(pvc));
    if (!sc) continue;
    const handed = handToProvisioner(pvc, sc.provisioner);
    writes.push({ verb: 'update', object: obj(handed), by: Writer.PVController });
    const node = listers.get<Node>('Node', undefined, nodeName);
    const pv = provisionedVolume(handed, sc, node?.metadata?.labels ?? {}, listers.get<CSINode>(Kind.CSINode, undefined, nodeName));
    writes.push({ verb: 'create', object: obj(pv), by: Writer.Provisioner });
    writes.push(...completeBinding(pv, handed));
  }
  return writes;
}

/** completeBinding is the PV controller's bind(): the PV's phase Bound, the claim's volumeName, annotations and status. */
export function completeBinding(pv: PersistentVolume, pvc: PersistentVolumeClaim): ObjectWrite[] {
  const boundPV: Mutable<PersistentVolume> = deepClone(pv);
  boundPV.status = { ...boundPV.status, phase: PHASE_BOUND };
  const claim = deepClone(pvc);
  const annotations: Record<string, string> = { ...claim.metadata?.annotations, [Ann.BindCompleted]: 'yes' };
  // Why: bindClaimToVolume marks the binding as the controller's when the user did not pre-bind the claim.
  if ((pvc.spec?.volumeName ?? '') === '') annotations[Ann.BoundByController] = 'yes';
  claim.metadata = { ...claim.metadata, annotations };
  claim.spec = { ...claim.spec, volumeName: pv.metadata?.name ?? '' };
  const withStatus: Mutable<PersistentVolumeClaim> = deepClone(claim);
  withStatus.status = { ...withStatus.status, phase: PHASE_BOUND, accessModes: [...(pv.spec?.accessModes ?? [])], capacity: { ...pv.spec?.capacity } };
  return [
    { verb: 'update', subresource: 'status', object: obj(boundPV), by: Writer.PVController },
    { verb: 'update', object: obj(claim), by: Writer.PVController },
    { verb: 'update', subresource: 'status', object: obj(withStatus), by: Writer.PVController },
  ];
}

/** handToProvisioner is the PV controller's setClaimProvisioner: the claim names the provisioner that should act on it. */
function handToProvisioner(pvc: PersistentVolumeClaim, provisioner: string): PersistentVolumeClaim {
  const claim = deepClone(pvc);
  claim.metadata = { ...claim.metadata, annotations: { ...claim.metadata?.annotations, [ANN_BETA_STORAGE_PROVISIONER]: provisioner, [ANN_STORAGE_PROVISIONER]: provisioner } };
  return claim;
}

/**
 * provisionedVolume is the PV an external provisioner creates for the claim: named pvc-<claim uid>, pointing back at the
 * claim, with the class's reclaim policy and mount options. The volume handle and topology are the CSI driver's own; the
 * simulation uses the PV name and the selected node's values of the driver's topology keys (CSINode topologyKeys).
 */
function provisionedVolume(pvc: PersistentVolumeClaim, sc: StorageClass, nodeLabels: Readonly<Record<string, string>>, csiNode: CSINode | undefined): PersistentVolume {
  const name = `pvc-${pvc.metadata?.uid ?? pvc.metadata?.name ?? ''}`;
  const pv: PersistentVolume = {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name, annotations: { [ANN_PROVISIONED_BY]: sc.provisioner } },
    spec: {
      accessModes: [...(pvc.spec?.accessModes ?? [])],
      capacity: { storage: pvc.spec?.resources?.requests?.['storage'] ?? '0' },
      claimRef: claimReference(pvc),
      csi: { driver: sc.provisioner, volumeHandle: name },
      persistentVolumeReclaimPolicy: sc.reclaimPolicy ?? 'Delete',
      storageClassName: sc.metadata?.name ?? '',
      volumeMode: pvc.spec?.volumeMode ?? 'Filesystem',
    },
  };
  if (sc.mountOptions && sc.mountOptions.length > 0) pv.spec!.mountOptions = [...sc.mountOptions];
  const keys = (csiNode?.spec?.drivers ?? []).find((d) => d.name === sc.provisioner)?.topologyKeys ?? [];
  const exprs = keys.filter((key) => nodeLabels[key] !== undefined).map((key) => ({ key, operator: 'In', values: [nodeLabels[key]!] }));
  if (exprs.length > 0) pv.spec!.nodeAffinity = { required: { nodeSelectorTerms: [{ matchExpressions: exprs }] } };
  return pv;
}
