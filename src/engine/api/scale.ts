// The autoscaling/v1 Scale of a workload, as the scale subresource serves it: the object's name, uid and
// resourceVersion, spec.replicas, status.replicas and status.selector (the workload's selector as a string). See
// pkg/registry/apps/{deployment,replicaset,statefulset}/storage/storage.go (scaleFrom*) and
// pkg/registry/core/replicationcontroller/storage/storage.go (scaleFromRC) at k8s.io/kubernetes v1.36.3.
import { labelSelectorAsSelector, selectorFromSet, selectorToString } from './labels';
import type { KubeObject, LabelSelector } from './types';

/**
 * SCALED_KINDS are the built-in kinds whose resource serves a scale subresource in 1.36: the apps workloads and the
 * core ReplicationController. Any other resource answers GET or PUT .../scale with go-restful's 404.
 */
export const SCALED_KINDS: ReadonlySet<string> = new Set(['Deployment', 'ReplicaSet', 'StatefulSet', 'ReplicationController']);

/** ScaleObject is an autoscaling/v1 Scale as JSON: spec.replicas and status.selector omitted when empty. */
export interface ScaleObject extends KubeObject {
  apiVersion: 'autoscaling/v1';
  kind: 'Scale';
  spec: { replicas?: number };
  status: { replicas: number; selector?: string };
}

/**
 * scaleSelector is status.selector: LabelSelectorAsSelector(spec.selector).String() for the apps kinds (its error
 * thrown as SelectorError, the registries' BadRequest), labels.SelectorFromSet(spec.selector).String() for a
 * ReplicationController.
 */
function scaleSelector(kind: string, selector: unknown): string {
  if (kind === 'ReplicationController') return selectorToString(selectorFromSet((selector ?? {}) as Record<string, string>));
  return selectorToString(labelSelectorAsSelector(selector as LabelSelector | undefined));
}

/** scaleOf is scaleFrom* for a stored workload of a SCALED_KINDS kind; it throws SelectorError for a selector it cannot convert. */
export function scaleOf(obj: KubeObject): ScaleObject {
  const spec = (obj['spec'] ?? {}) as { replicas?: number; selector?: unknown };
  const m = obj.metadata ?? {};
  const selector = scaleSelector(String(obj.kind), spec.selector);
  const replicas = spec.replicas ?? 1;
  return {
    apiVersion: 'autoscaling/v1', kind: 'Scale',
    metadata: {
      name: m.name ?? '', ...(m.namespace ? { namespace: m.namespace } : {}), ...(m.uid ? { uid: m.uid } : {}),
      ...(m.resourceVersion ? { resourceVersion: m.resourceVersion } : {}), ...(m.creationTimestamp ? { creationTimestamp: m.creationTimestamp } : {}),
    },
    spec: replicas !== 0 ? { replicas } : {},
    status: { replicas: ((obj['status'] ?? {}) as { replicas?: number }).replicas ?? 0, ...(selector ? { selector } : {}) },
  };
}
