// LimitRanger: a pod gets the default requests and limits of its namespace's LimitRanges (mutating pass), and a pod
// or claim outside their minimums, maximums or ratios is refused (validating pass).
import { appendFieldPath } from '../../api/fieldpath';
import { aggregate } from '../../api/labels-validation';
import type { Quantity } from '../../api/quantity';
import { deepClone, type Container, type KubeObject, type LimitRange, type Mutable, type PersistentVolumeClaim, type Pod } from '../../api/types';
import type { EngineContext } from '../../context';
import { forbidden } from '../request';
import type { AdmissionAttributes, AdmissionPlugin } from './plugin';
import { limitRequestRatioConstraint, maxConstraint, maxRequestConstraint, minConstraint } from './quota/limit-constraints';
import { LIMIT_RANGER_OPTIONS, podLimits, podRequests } from './quota/pod-resources';
import { byteOrder, parseResourceList, type ResourceList, toRecord } from './quota/resources';

/** LIMIT_RANGER_ANNOTATION names the defaults LimitRanger set on a pod. */
export const LIMIT_RANGER_ANNOTATION = 'kubernetes.io/limit-ranger';

/** LimitItem is a LimitRangeItem with its quantities parsed and the API server's defaults applied. */
interface LimitItem {
  type: string;
  min: ResourceList;
  max: ResourceList;
  default: ResourceList;
  defaultRequest: ResourceList;
  maxLimitRequestRatio: ResourceList;
}

/** NamedLimits is one LimitRange of the namespace. */
interface NamedLimits {
  name: string;
  items: LimitItem[];
}

/**
 * defaultItem is SetDefaults_LimitRangeItem, which the stored LimitRange has been through: for a Container item a
 * max with no default limit becomes the default limit, a default limit with no default request becomes the
 * default request, and so does a min. See pkg/apis/core/v1/defaults.go.
 */
function defaultItem(raw: NonNullable<LimitRange['spec']>['limits'][number]): LimitItem {
  const item: LimitItem = {
    type: raw.type, min: parseResourceList(raw.min), max: parseResourceList(raw.max), default: parseResourceList(raw.default),
    defaultRequest: parseResourceList(raw.defaultRequest), maxLimitRequestRatio: parseResourceList(raw.maxLimitRequestRatio),
  };
  if (item.type === 'Container') {
    for (const [k, v] of item.max) if (!item.default.has(k)) item.default.set(k, v);
    for (const [k, v] of item.default) if (!item.defaultRequest.has(k)) item.defaultRequest.set(k, v);
    for (const [k, v] of item.min) if (!item.defaultRequest.has(k)) item.defaultRequest.set(k, v);
  }
  return item;
}

/** limitRangesOf lists the namespace's LimitRanges as the plugin's lister would (in name order here). */
function limitRangesOf(ctx: EngineContext, namespace: string): NamedLimits[] {
  return ctx.store.list<LimitRange>('LimitRange', namespace).map((lr) => ({
    name: lr.metadata?.name ?? '', items: (lr.spec?.limits ?? []).map(defaultItem),
  }));
}

/** describe is a LimitRange as the Decision view shows it: each item after defaulting, quantities canonical. */
const describe = (lr: NamedLimits): Record<string, unknown> => ({
  name: lr.name,
  limits: lr.items.map((i) => ({
    type: i.type, min: toRecord(i.min), max: toRecord(i.max), default: toRecord(i.default),
    defaultRequest: toRecord(i.defaultRequest), maxLimitRequestRatio: toRecord(i.maxLimitRequestRatio),
  })),
});

/** supportsAttributes is DefaultLimitRangerActions.SupportsAttributes: pods and claims, no pod update but a resize. */
function supportsAttributes(a: AdmissionAttributes): boolean {
  if (a.operation !== 'CREATE' && a.operation !== 'UPDATE') return false;
  if (a.subresource === 'resize' && a.kind === 'Pod' && a.operation === 'UPDATE') return true;
  if (a.subresource !== '') return false;
  if (a.kind === 'Pod' && a.operation === 'UPDATE') return false;
  return a.kind === 'Pod' || a.kind === 'PersistentVolumeClaim';
}

/** MutableContainer is a container of the plugin's own clone of the pod. */
type MutableContainer = Mutable<Container>;

/**
 * mergeContainer is mergeContainerResources: each default limit and default request the container does not set
 * is set (as the quantity's canonical text), and the annotation part names them, sorted, e.g.
 * `cpu, memory request for container app`.
 */
function mergeContainer(c: MutableContainer, defaults: { limits: ResourceList; requests: ResourceList }, path: string, prefix: string,
  changes: string[], parts: string[]): void {
  const resources = (c.resources ??= {});
  const fill = (key: 'limits' | 'requests', from: ResourceList): string[] => {
    const set: string[] = [];
    const list = (resources[key] ??= {});
    for (const name of [...from.keys()].sort(byteOrder)) {
      if (Object.hasOwn(list, name)) continue;
      list[name] = from.get(name)!.toString();
      set.push(name);
      changes.push(appendFieldPath(`${path}.resources.${key}`, name));
    }
    if (Object.keys(list).length === 0) delete resources[key];
    return set;
  };
  const limits = fill('limits', defaults.limits);
  const requests = fill('requests', defaults.requests);
  if (Object.keys(resources).length === 0) delete c.resources;
  if (requests.length) parts.push(`${requests.join(', ')} request for ${prefix} ${c.name}`);
  if (limits.length) parts.push(`${limits.join(', ')} limit for ${prefix} ${c.name}`);
}

/**
 * mutatePod is PodMutateLimitFunc for one LimitRange: the Container items' defaults (a later item's win), merged
 * into containers then init containers; the annotation is replaced when this LimitRange set anything.
 */
function mutatePod(pod: Mutable<Pod>, lr: NamedLimits, changes: string[]): void {
  const defaults = { limits: new Map<string, Quantity>(), requests: new Map<string, Quantity>() };
  for (const item of lr.items.filter((i) => i.type === 'Container')) {
    for (const [k, v] of item.defaultRequest) defaults.requests.set(k, v);
    for (const [k, v] of item.default) defaults.limits.set(k, v);
  }
  const parts: string[] = [];
  (pod.spec?.containers ?? []).forEach((c, i) => mergeContainer(c, defaults, `spec.containers[${i}]`, 'container', changes, parts));
  (pod.spec?.initContainers ?? []).forEach((c, i) => mergeContainer(c, defaults, `spec.initContainers[${i}]`, 'init container', changes, parts));
  if (parts.length === 0) return;
  const meta = (pod.metadata ??= {});
  (meta.annotations ??= {})[LIMIT_RANGER_ANNOTATION] = `LimitRanger plugin set: ${parts.join('; ')}`;
  changes.push(appendFieldPath('metadata.annotations', LIMIT_RANGER_ANNOTATION));
}

/** checkItem runs min, max and ratio of one item over one set of requests and limits, in that order. */
function checkItem(item: LimitItem, requests: ResourceList, limits: ResourceList): string[] {
  const errs: (string | undefined)[] = [];
  for (const [k, v] of item.min) errs.push(minConstraint(item.type, k, v, requests, limits));
  for (const [k, v] of item.max) errs.push(maxConstraint(item.type, k, v, requests, limits));
  for (const [k, v] of item.maxLimitRequestRatio) errs.push(limitRequestRatioConstraint(item.type, k, v, requests, limits));
  return errs.filter((e): e is string => e !== undefined);
}

/**
 * validatePod is PodValidateLimitFunc: Container items check every container and init container on its own,
 * Pod items the pod's total (sidecars summed, the init container peak, pod-level resources, no overhead).
 * Go ranges over the items' maps in random order; the order written is used here.
 */
function validatePod(pod: Pod, lr: NamedLimits): string[] {
  const errs: string[] = [];
  for (const item of lr.items) {
    if (item.type === 'Container') {
      for (const c of [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])]) {
        errs.push(...checkItem(item, parseResourceList(c.resources?.requests), parseResourceList(c.resources?.limits)));
      }
    }
    if (item.type === 'Pod') errs.push(...checkItem(item, podRequests(pod, LIMIT_RANGER_OPTIONS), podLimits(pod, LIMIT_RANGER_OPTIONS)));
  }
  return errs;
}

/** validateClaim is PersistentVolumeClaimValidateLimitFunc: a claim's storage request between min and max. */
function validateClaim(pvc: PersistentVolumeClaim, lr: NamedLimits): string[] {
  const errs: (string | undefined)[] = [];
  const requests = parseResourceList(pvc.spec?.resources?.requests);
  for (const item of lr.items.filter((i) => i.type === 'PersistentVolumeClaim')) {
    for (const [k, v] of item.min) errs.push(minConstraint(item.type, k, v, requests, new Map()));
    for (const [k, v] of item.max) errs.push(maxRequestConstraint(item.type, k, v, requests));
  }
  return errs.filter((e): e is string => e !== undefined);
}

/** resourceName is the name admission.NewForbidden puts in the message: the object's name, else its generateName. */
const resourceName = (obj: KubeObject): string => obj.metadata?.name || obj.metadata?.generateName || 'Unknown';

/** beingDeleted: runLimitFunc ignores an update of an object already marked for deletion. */
const beingDeleted = (a: AdmissionAttributes): boolean => !!a.oldObject?.metadata?.deletionTimestamp;

/** limitRanger is the LimitRanger admission plugin (plugin/pkg/admission/limitranger/admission.go). */
export const limitRanger: AdmissionPlugin = {
  name: 'LimitRanger',
  source: 'plugin/pkg/admission/limitranger/admission.go',
  handles: (a) => supportsAttributes(a) && !beingDeleted(a),
  admit(a, ctx) {
    const ranges = limitRangesOf(ctx, a.namespace);
    if (ranges.length === 0) return { note: `no LimitRange in namespace "${a.namespace}"`, detail: { limitRanges: [] } };
    // Only pods get defaults (MutateLimit); a claim's storage is required, so it has no default.
    if (a.kind !== 'Pod') return { detail: { limitRanges: ranges.map(describe) } };
    const pod = deepClone(a.object) as Mutable<Pod>;
    const changes: string[] = [];
    for (const lr of ranges) mutatePod(pod, lr, changes);
    a.object = pod as KubeObject;
    const annotation = pod.metadata?.annotations?.[LIMIT_RANGER_ANNOTATION];
    return {
      changes, ...(changes.length ? { note: annotation } : {}),
      detail: { limitRanges: ranges.map(describe), ...(changes.length ? { annotation } : {}) },
    };
  },
  validate(a, ctx) {
    const ranges = limitRangesOf(ctx, a.namespace);
    if (ranges.length === 0) return { note: `no LimitRange in namespace "${a.namespace}"`, detail: { limitRanges: [] } };
    // The first LimitRange the object violates refuses it, with all that LimitRange's violations aggregated.
    for (const lr of ranges) {
      const errs = a.kind === 'Pod' ? validatePod(a.object as Pod, lr) : validateClaim(a.object as PersistentVolumeClaim, lr);
      if (errs.length) {
        return {
          error: forbidden(a.resource, a.group, resourceName(a.object), aggregate(errs)),
          detail: { limitRanges: ranges.map(describe), violated: lr.name, violations: [...new Set(errs)] },
        };
      }
    }
    return { note: `within ${ranges.map((r) => `LimitRange ${r.name}`).join(', ')}`, detail: { limitRanges: ranges.map(describe) } };
  },
};
