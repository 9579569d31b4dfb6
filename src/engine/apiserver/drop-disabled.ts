// The pod spec fields of features that are off by default in Kubernetes 1.36, which the registry drops before
// validation (a pod or template already using one keeps it on update). See pkg/api/pod/util.go (DropDisabledPodFields,
// DropDisabledTemplateFields, dropDisabledFields) and the defaults of pkg/features/kube_features.go, v1.36.3.
import { isObject } from '../api/types';

type Rec = Record<string, unknown>;

const CONTAINER_LISTS = ['containers', 'initContainers', 'ephemeralContainers'] as const;

/** containersOf lists a spec's containers of every kind (VisitContainers with AllContainers). */
function containersOf(spec: Rec): Rec[] {
  return CONTAINER_LISTS.flatMap((l) => (Array.isArray(spec[l]) ? spec[l] : [])).filter(isObject);
}

/** projectedSourcesOf lists the sources of a spec's projected volumes. */
function projectedSourcesOf(spec: Rec): Rec[] {
  const volumes = Array.isArray(spec['volumes']) ? spec['volumes'].filter(isObject) : [];
  return volumes.flatMap((v) => {
    const projected = v['projected'];
    return isObject(projected) && Array.isArray(projected['sources']) ? projected['sources'].filter(isObject) : [];
  });
}

/** DISABLED is each gate off by default in 1.36 whose fields dropDisabledFields removes: in use, and drop. */
const DISABLED: readonly { gate: string; inUse: (spec: Rec) => boolean; drop: (spec: Rec) => void }[] = [
  {
    // GenericWorkload (Alpha since 1.35, off): dropDisabledSchedulingGroup.
    gate: 'GenericWorkload',
    inUse: (spec) => spec['schedulingGroup'] !== undefined && spec['schedulingGroup'] !== null,
    drop: (spec) => { delete spec['schedulingGroup']; },
  },
  {
    // ClusterTrustBundleProjection (Beta since 1.33, off): dropDisabledClusterTrustBundleProjection.
    gate: 'ClusterTrustBundleProjection',
    inUse: (spec) => projectedSourcesOf(spec).some((s) => isObject(s['clusterTrustBundle'])),
    drop: (spec) => { for (const s of projectedSourcesOf(spec)) delete s['clusterTrustBundle']; },
  },
  {
    // PodCertificateRequest (Beta since 1.35, off): dropDisabledPodCertificateProjection.
    gate: 'PodCertificateRequest',
    inUse: (spec) => projectedSourcesOf(spec).some((s) => isObject(s['podCertificate'])),
    drop: (spec) => { for (const s of projectedSourcesOf(spec)) delete s['podCertificate']; },
  },
  {
    // ContainerStopSignals (Alpha since 1.33, off): dropContainerStopSignals; a lifecycle left empty goes too.
    gate: 'ContainerStopSignals',
    inUse: (spec) => containersOf(spec).some((c) => isObject(c['lifecycle']) && c['lifecycle']['stopSignal'] !== undefined && c['lifecycle']['stopSignal'] !== null),
    drop: (spec) => {
      for (const c of containersOf(spec)) {
        const lifecycle = c['lifecycle'];
        if (!isObject(lifecycle) || lifecycle['stopSignal'] === undefined) continue;
        delete lifecycle['stopSignal'];
        if (Object.keys(lifecycle).length === 0) delete c['lifecycle'];
      }
    },
  },
];

/**
 * dropDisabledPodSpecFields removes, in place, the fields of the gates off by default in 1.36 from a pod spec, unless
 * `old` (the stored spec of an update) already uses them. Returns the gates whose fields it removed.
 */
export function dropDisabledPodSpecFields(spec: Rec, old?: Rec): string[] {
  const dropped: string[] = [];
  for (const d of DISABLED) {
    if (old && d.inUse(old)) continue;
    if (d.inUse(spec)) dropped.push(d.gate);
    d.drop(spec);
  }
  return dropped;
}
