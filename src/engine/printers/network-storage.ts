// The table printers of Services and their endpoints, and of storage: Service, Endpoints, EndpointSlice,
// PersistentVolume, PersistentVolumeClaim, StorageClass. See pkg/printers/internalversion/printers.go.
import type { KubeObject } from '../api/types';
import type { Endpoints, PersistentVolume, PersistentVolumeClaim, Service } from 'kubernetes-types/core/v1';
import type { EndpointSlice } from 'kubernetes-types/discovery/v1';
import type { StorageClass } from 'kubernetes-types/storage/v1';
import { accessModesString, formatLabels, listWithMoreString, quantityString, translateTimestampSince } from './format';
import { AGE_COLUMN, columns, NAME_COLUMN, type PrintHandler } from './types';

const name = (o: KubeObject) => o.metadata?.name ?? '';
const age = (o: KubeObject, nowMs: number) => translateTimestampSince(o.metadata?.creationTimestamp, nowMs);

/**
 * serviceExternalIP is getServiceExternalIP as the server calls it (wide, so a load balancer's list is not clipped):
 * the external IPs of a ClusterIP or NodePort Service (`<none>`), a LoadBalancer's ingress IPs or hostnames sorted
 * then its external IPs (`<pending>` when neither), an ExternalName's name, else `<unknown>`.
 */
function serviceExternalIP(svc: Service): string {
  const externalIPs = svc.spec?.externalIPs ?? [];
  switch (svc.spec?.type) {
    case 'ClusterIP':
    case 'NodePort':
      return externalIPs.length > 0 ? externalIPs.join(',') : '<none>';
    case 'LoadBalancer': {
      // loadBalancerStatusStringer: a sets.String, so sorted and without repeats.
      const lb = [...new Set((svc.status?.loadBalancer?.ingress ?? []).map((i) => i.ip || i.hostname || '').filter((s) => s !== ''))].sort().join(',');
      if (externalIPs.length > 0) return [...(lb ? lb.split(',') : []), ...externalIPs].join(',');
      return lb || '<pending>';
    }
    case 'ExternalName':
      return svc.spec.externalName ?? '';
    default:
      return '<unknown>';
  }
}

/** printService: CLUSTER-IP is the first of clusterIPs; PORT(S) each `port[:nodePort]/protocol`. */
const SERVICE: PrintHandler = {
  columns: columns(
    NAME_COLUMN,
    { name: 'Type', doc: 'corev1.ServiceSpec.type' },
    { name: 'Cluster-IP', doc: 'corev1.ServiceSpec.clusterIP' },
    { name: 'External-IP', doc: 'corev1.ServiceSpec.externalIPs' },
    { name: 'Port(s)', doc: 'corev1.ServiceSpec.ports' },
    AGE_COLUMN,
    { name: 'Selector', priority: 1, doc: 'corev1.ServiceSpec.selector' },
  ),
  print: (o, nowMs) => {
    const svc = o as unknown as Service;
    // makePortString
    const ports = (svc.spec?.ports ?? []).map((p) => ((p.nodePort ?? 0) > 0 ? `${p.port}:${p.nodePort}/${p.protocol ?? ''}` : `${p.port}/${p.protocol ?? ''}`)).join(',');
    return {
      cells: [name(o), svc.spec?.type ?? '', svc.spec?.clusterIPs?.[0] ?? '<none>', serviceExternalIP(svc), ports || '<none>', age(o, nowMs), formatLabels(svc.spec?.selector)],
    };
  },
};

/** joinHostPort is net.JoinHostPort: an IPv6 host goes in brackets. */
const joinHostPort = (host: string, port: number) => (host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`);

/**
 * formatEndpoints (ports nil: all of them): the first three `ip:port` of each subset's ports and addresses (the bare
 * IPs of a subset without ports), then `+ N more...`; `<none>` without subsets.
 */
function formatEndpoints(ep: Endpoints): string {
  const subsets = ep.subsets ?? [];
  if (subsets.length === 0) return '<none>';
  const list: string[] = [];
  const max = 3;
  let more = false;
  let count = 0;
  for (const ss of subsets) {
    const addresses = ss.addresses ?? [];
    const ports = ss.ports ?? [];
    if (ports.length === 0) {
      count += addresses.length;
      for (const a of addresses) {
        if (list.length === max) { more = true; break; }
        list.push(a.ip);
      }
      continue;
    }
    for (const port of ports) {
      count += addresses.length;
      for (const a of addresses) {
        if (list.length === max) { more = true; break; }
        list.push(joinHostPort(a.ip, port.port));
      }
    }
  }
  const ret = list.join(',');
  return more ? `${ret} + ${count - max} more...` : ret;
}

// printEndpoints
const ENDPOINTS: PrintHandler = {
  columns: columns(NAME_COLUMN, { name: 'Endpoints', doc: 'corev1.Endpoints.subsets' }, AGE_COLUMN),
  print: (o, nowMs) => ({ cells: [name(o), formatEndpoints(o as unknown as Endpoints), age(o, nowMs)] }),
};

/** printEndpointSlice: PORTS (formatDiscoveryPorts: the port, or its name, or `*`) and ENDPOINTS, three of each at most. */
const ENDPOINT_SLICE: PrintHandler = {
  columns: columns(
    NAME_COLUMN,
    { name: 'AddressType', doc: 'discoveryv1.EndpointSlice.addressType' },
    { name: 'Ports', doc: 'discoveryv1.EndpointSlice.ports' },
    { name: 'Endpoints', doc: 'discoveryv1.EndpointSlice.endpoints' },
    AGE_COLUMN,
  ),
  print: (o, nowMs) => {
    const slice = o as unknown as EndpointSlice;
    const max = 3;
    const ports: string[] = [];
    let portsCount = 0;
    for (const p of slice.ports ?? []) {
      if (ports.length < max) ports.push(p.port !== undefined && p.port !== null ? String(p.port) : p.name ?? '*');
      portsCount++;
    }
    const addresses: string[] = [];
    let addressCount = 0;
    for (const e of slice.endpoints ?? []) {
      for (const a of e.addresses) {
        if (addresses.length < max) addresses.push(a);
        addressCount++;
      }
    }
    return {
      cells: [name(o), slice.addressType ?? '', listWithMoreString(ports, portsCount > max, portsCount, max),
        listWithMoreString(addresses, addressCount > max, addressCount, max), age(o, nowMs)],
    };
  },
};

// core.BetaStorageClassAnnotation: a class named by annotation wins over spec.storageClassName.
const BETA_STORAGE_CLASS = 'volume.beta.kubernetes.io/storage-class';
const annotation = (o: KubeObject, key: string): string | undefined => {
  const annotations = o.metadata?.annotations;
  return annotations && Object.hasOwn(annotations, key) ? annotations[key] : undefined;
};

/** printPersistentVolume: CLAIM is `namespace/name` of the claim ref; STATUS Terminating while being deleted. */
const PERSISTENT_VOLUME: PrintHandler = {
  columns: columns(
    NAME_COLUMN,
    { name: 'Capacity', doc: 'corev1.PersistentVolumeSpec.capacity' },
    { name: 'Access Modes', doc: 'corev1.PersistentVolumeSpec.accessModes' },
    { name: 'Reclaim Policy', doc: 'corev1.PersistentVolumeSpec.persistentVolumeReclaimPolicy' },
    { name: 'Status', doc: 'corev1.PersistentVolumeStatus.phase' },
    { name: 'Claim', doc: 'corev1.PersistentVolumeSpec.claimRef' },
    { name: 'StorageClass', description: 'StorageClass of the pv' },
    { name: 'VolumeAttributesClass', description: 'VolumeAttributesClass of the pv' },
    { name: 'Reason', doc: 'corev1.PersistentVolumeStatus.reason' },
    AGE_COLUMN,
    { name: 'VolumeMode', priority: 1, doc: 'corev1.PersistentVolumeSpec.volumeMode' },
  ),
  print: (o, nowMs) => {
    const pv = o as unknown as PersistentVolume;
    const spec = pv.spec ?? {};
    const claim = spec.claimRef ? `${spec.claimRef.namespace ?? ''}/${spec.claimRef.name ?? ''}` : '';
    const phase = pv.metadata?.deletionTimestamp ? 'Terminating' : pv.status?.phase ?? '';
    return {
      cells: [name(o), quantityString(spec.capacity?.['storage']), accessModesString(spec.accessModes), spec.persistentVolumeReclaimPolicy ?? '',
        phase, claim, annotation(o, BETA_STORAGE_CLASS) ?? spec.storageClassName ?? '', spec.volumeAttributesClassName ?? '<unset>',
        pv.status?.reason ?? '', age(o, nowMs), spec.volumeMode ?? '<unset>'],
    };
  },
};

/** printPersistentVolumeClaim: CAPACITY and ACCESS MODES come from the status, and only once the claim is bound to a volume. */
const PERSISTENT_VOLUME_CLAIM: PrintHandler = {
  columns: columns(
    NAME_COLUMN,
    { name: 'Status', doc: 'corev1.PersistentVolumeClaimStatus.phase' },
    { name: 'Volume', doc: 'corev1.PersistentVolumeClaimSpec.volumeName' },
    { name: 'Capacity', doc: 'corev1.PersistentVolumeClaimStatus.capacity' },
    { name: 'Access Modes', doc: 'corev1.PersistentVolumeClaimStatus.accessModes' },
    { name: 'StorageClass', description: 'StorageClass of the pvc' },
    { name: 'VolumeAttributesClass', description: 'VolumeAttributesClass of the pvc' },
    AGE_COLUMN,
    { name: 'VolumeMode', priority: 1, doc: 'corev1.PersistentVolumeClaimSpec.volumeMode' },
  ),
  print: (o, nowMs) => {
    const pvc = o as unknown as PersistentVolumeClaim;
    const spec = pvc.spec ?? {};
    const phase = pvc.metadata?.deletionTimestamp ? 'Terminating' : pvc.status?.phase ?? '';
    const bound = (spec.volumeName ?? '') !== '';
    return {
      cells: [name(o), phase, spec.volumeName ?? '', bound ? quantityString(pvc.status?.capacity?.['storage']) : '',
        bound ? accessModesString(pvc.status?.accessModes) : '', annotation(o, BETA_STORAGE_CLASS) ?? spec.storageClassName ?? '',
        spec.volumeAttributesClassName ?? '<unset>', age(o, nowMs), spec.volumeMode ?? '<unset>'],
    };
  },
};

/**
 * printStorageClass: NAME gains ` (default)` for the default class (storageutil.IsDefaultAnnotation); reclaim policy
 * Delete, binding mode Immediate and no expansion when unset.
 */
const STORAGE_CLASS: PrintHandler = {
  columns: columns(
    NAME_COLUMN,
    { name: 'Provisioner', doc: 'storagev1.StorageClass.provisioner' },
    { name: 'ReclaimPolicy', doc: 'storagev1.StorageClass.reclaimPolicy' },
    { name: 'VolumeBindingMode', doc: 'storagev1.StorageClass.volumeBindingMode' },
    { name: 'AllowVolumeExpansion', doc: 'storagev1.StorageClass.allowVolumeExpansion' },
    AGE_COLUMN,
  ),
  print: (o, nowMs) => {
    const sc = o as unknown as StorageClass;
    const isDefault = annotation(o, 'storageclass.kubernetes.io/is-default-class') === 'true' || annotation(o, 'storageclass.beta.kubernetes.io/is-default-class') === 'true';
    return {
      cells: [name(o) + (isDefault ? ' (default)' : ''), sc.provisioner ?? '', sc.reclaimPolicy ?? 'Delete', sc.volumeBindingMode ?? 'Immediate',
        sc.allowVolumeExpansion ?? false, age(o, nowMs)],
    };
  },
};

/** NETWORK_STORAGE_PRINTERS are this file's handlers by kind. */
export const NETWORK_STORAGE_PRINTERS: Readonly<Record<string, PrintHandler>> = {
  Service: SERVICE, Endpoints: ENDPOINTS, EndpointSlice: ENDPOINT_SLICE, PersistentVolume: PERSISTENT_VOLUME,
  PersistentVolumeClaim: PERSISTENT_VOLUME_CLAIM, StorageClass: STORAGE_CLASS,
};
