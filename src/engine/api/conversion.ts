// What the API server's conversion between the v1 and the internal (core) types does to a pod spec: kube-apiserver
// decodes a request into v1, converts it to the internal type for admission, validation and storage, and converts it
// back to v1 for every answer. The engine keeps objects in their v1 form, so the two directions are applied in place.
// See pkg/apis/core/v1/conversion.go (k8s.io/kubernetes v1.36.3).
import { goStructJson } from './go-json';
import { encodeStoredFields } from './stored-fields';
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
  if (obj.kind === 'Pod') {
    const spec = rec(obj['spec']);
    return spec ? [spec] : [];
  }
  return podTemplatesOf(obj).flatMap((t) => {
    const s = rec(t['spec']);
    return s ? [s] : [];
  });
}

/** podTemplatesOf finds the pod templates (PodTemplateSpec) an object holds, as podSpecsOf finds their specs. */
export function podTemplatesOf(obj: KubeObject): Rec[] {
  const spec = rec(obj['spec']);
  const template = (t: unknown): Rec[] => (rec(t) ? [rec(t)!] : []);
  switch (obj.kind) {
    case 'Pod': return [];
    case 'PodTemplate': return template(obj['template']);
    case 'CronJob': return template(rec(rec(spec?.['jobTemplate'])?.['spec'])?.['template']);
    default: return TEMPLATE_KINDS.has(String(obj.kind)) ? template(spec?.['template']) : [];
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

/**
 * encodeAsStored writes each pod spec of an object (edited in place, and returned) as kube-apiserver stores and returns
 * it: what encoding/json writes of the k8s.io/api core/v1 PodSpec (types.go v0.36.3) once it has been through etcd's
 * protobuf (go-json.ts). A field tagged omitempty is left out when zero (`""`, `false`, `0`, an empty list or map); a
 * struct that is not a pointer is always written (a `divisor` of `"0"`, an ephemeral volume's claim template
 * `"metadata": {}`, a template's metadata); a list without omitempty that is empty is `null`. Validation sees the
 * object before this, as Go's does (an empty list there is not a missing one). The keys keep the order they had.
 */
export function encodeAsStored<T extends KubeObject>(obj: T): T {
  // Events, EndpointSlices and ControllerRevisions get their always-written fields (stored-fields.ts).
  encodeStoredFields(obj);
  for (const spec of podSpecsOf(obj)) replaceContents(spec, goStructJson('core/v1.PodSpec', spec) as Rec);
  // A template's metadata is a struct (PodTemplateSpec.ObjectMeta, and a CronJob's JobTemplateSpec.ObjectMeta): always
  // written, `{}` when empty.
  const jobTemplate = obj.kind === 'CronJob' ? rec(rec(obj['spec'])?.['jobTemplate']) : undefined;
  for (const template of [...podTemplatesOf(obj), ...(jobTemplate ? [jobTemplate] : [])]) {
    replaceContents(template, { ...template, metadata: goStructJson('meta/v1.ObjectMeta', template['metadata']) });
  }
  return obj;
}

/** replaceContents makes `target` hold `encoded`'s content, in place, keeping the order of the keys it had (inOrder). */
function replaceContents(target: Rec, encoded: Rec): void {
  const merged = inOrder(target, encoded) as Rec;
  // Keys are deleted only when the encoding dropped some: a deleted key turns V8's object into a slow dictionary, and
  // pods' specs are read on every scheduling cycle. Otherwise the values are set over and the new keys come last.
  for (const k of Object.keys(target)) if (!Object.hasOwn(merged, k)) delete target[k];
  Object.assign(target, merged);
}

/**
 * inOrder is `encoded` with its object keys in the order `original` had them (keys only `encoded` has come last, in
 * Go's field order): the engine's outputs keep the request's order, as they did before the encoding.
 */
function inOrder(original: unknown, encoded: unknown): unknown {
  if (Array.isArray(encoded)) return encoded.map((v, i) => inOrder(Array.isArray(original) ? original[i] : undefined, v));
  if (!isObject(encoded)) return encoded;
  const before = isObject(original) ? original : undefined;
  const out: Rec = {};
  if (before) for (const k of Object.keys(before)) if (Object.hasOwn(encoded, k)) out[k] = inOrder(before[k], encoded[k]);
  for (const k of Object.keys(encoded)) if (!before || !Object.hasOwn(before, k)) out[k] = inOrder(undefined, encoded[k]);
  return out;
}
