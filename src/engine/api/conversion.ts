// What the API server's conversion between the v1 and the internal (core) types does to a pod spec: kube-apiserver
// decodes a request into v1, converts it to the internal type for admission, validation and storage, and converts it
// back to v1 for every answer. The engine keeps objects in their v1 form, so the two directions are applied in place.
// See pkg/apis/core/v1/conversion.go (k8s.io/kubernetes v1.36.3).
import { isObject, type KubeObject } from './types';

type Rec = Record<string, unknown>;

const rec = (v: unknown): Rec | undefined => (isObject(v) ? v : undefined);

/** TEMPLATE_KINDS are the kinds that hold a PodTemplateSpec at spec.template (apps/v1, batch/v1, core/v1). */
const TEMPLATE_KINDS = new Set(['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'Job', 'ReplicationController']);

/**
 * podSpecsOf finds the pod specs an object holds: a Pod's spec, a PodTemplate's template, a workload's spec.template
 * and a CronJob's spec.jobTemplate.spec.template. Each goes through Convert_core_PodSpec_To_v1_PodSpec on the way out.
 */
export function podSpecsOf(obj: KubeObject): Rec[] {
  const spec = rec(obj['spec']);
  const templateSpec = (template: unknown): Rec[] => {
    const s = rec(rec(template)?.['spec']);
    return s ? [s] : [];
  };
  switch (obj.kind) {
    case 'Pod': return spec ? [spec] : [];
    case 'PodTemplate': return templateSpec(obj['template']);
    case 'CronJob': return templateSpec(rec(rec(spec?.['jobTemplate'])?.['spec'])?.['template']);
    default: return TEMPLATE_KINDS.has(String(obj.kind)) ? templateSpec(spec?.['template']) : [];
  }
}

/** Conversion is a field the conversion changed, with its value before and after, for the trace. */
export interface Conversion {
  field: string;
  from: unknown;
  to: unknown;
}

/**
 * convertFromV1 is what decoding a v1 object into the internal type changes (the object is edited in place):
 * - Convert_v1_PodSpec_To_core_PodSpec (pkg/apis/core/v1/conversion.go, v1.36.3): the deprecated
 *   `serviceAccount` is an alias of `serviceAccountName`, which wins when both are set;
 * - Convert_v1_Pod_To_core_Pod (same file): a Pod's negative terminationGracePeriodSeconds becomes 1 ("Just for Pod,
 *   not for PodSpec": a template keeps its negative value).
 */
export function convertFromV1(obj: KubeObject): Conversion[] {
  const changes: Conversion[] = [];
  const base = obj.kind === 'Pod' ? 'spec' : obj.kind === 'PodTemplate' ? 'template.spec' : obj.kind === 'CronJob' ? 'spec.jobTemplate.spec.template.spec' : 'spec.template.spec';
  for (const spec of podSpecsOf(obj)) {
    const alias = spec['serviceAccount'];
    if (!spec['serviceAccountName'] && typeof alias === 'string' && alias !== '') {
      changes.push({ field: `${base}.serviceAccountName`, from: spec['serviceAccountName'] ?? null, to: alias });
      spec['serviceAccountName'] = alias;
    }
  }
  const podSpec = obj.kind === 'Pod' ? rec(obj['spec']) : undefined;
  const grace = podSpec?.['terminationGracePeriodSeconds'];
  if (podSpec && typeof grace === 'number' && grace < 0) {
    changes.push({ field: 'spec.terminationGracePeriodSeconds', from: grace, to: 1 });
    podSpec['terminationGracePeriodSeconds'] = 1;
  }
  return changes;
}

const CONTAINER_LISTS = ['initContainers', 'containers', 'ephemeralContainers'] as const;

/**
 * convertToV1 writes an object as the API server returns it (edited in place, and returned):
 * - Convert_core_PodSpec_To_v1_PodSpec (pkg/apis/core/v1/conversion.go, v1.36.3) sets the deprecated
 *   `serviceAccount` to `serviceAccountName` (both omitempty: absent when the name is empty);
 * - a container's `resources` is a struct, not a pointer, in k8s.io/api core/v1 (Container.Resources and
 *   EphemeralContainerCommon.Resources, types.go v0.36.3): encoding/json writes it even when empty, `"resources": {}`.
 */
export function convertToV1<T extends KubeObject>(obj: T): T {
  for (const spec of podSpecsOf(obj)) {
    const name = spec['serviceAccountName'];
    if (typeof name === 'string' && name !== '') spec['serviceAccount'] = name;
    else delete spec['serviceAccount'];
    for (const list of CONTAINER_LISTS) {
      const containers = spec[list];
      if (!Array.isArray(containers)) continue;
      for (const c of containers) if (isObject(c) && !isObject(c['resources'])) c['resources'] = {};
    }
  }
  return obj;
}
