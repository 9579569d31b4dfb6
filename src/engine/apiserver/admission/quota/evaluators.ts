// The quota registry: one evaluator per resource (pods, services, persistent volume claims, object counts for the
// rest), as pkg/quota/v1/install/registry.go and staging/src/k8s.io/apiserver/pkg/quota/v1/generic build it.
import { fromValue } from '../../../api/quantity';
import type { KubeObject, PersistentVolumeClaim, Service } from '../../../api/types';
import { RESOURCES } from '../../../cluster/store';
import type { Operation } from '../plugin';
import {
  asPod, isTerminating, podConstraints, podMatchesScope, podMatchingResources, podUsage, type ScopeRequirement,
} from './pods';
import { intersection, parseResourceList, type ResourceList, ZERO } from './resources';

/** QuotaAttributes are what an evaluator reads of a request. */
export interface QuotaAttributes {
  operation: Operation;
  subresource: string;
  object: KubeObject;
  oldObject?: KubeObject;
}

/** QuotaEvaluator is quota.Evaluator: how one resource uses quota. */
export interface QuotaEvaluator {
  group: string;
  resource: string;
  /** kind is the stored kind the controller lists to compute usage. */
  kind: string;
  handles(a: QuotaAttributes): boolean;
  matchingResources(names: readonly string[]): string[];
  /** matchesScope is the evaluator's MatchesScopeFunc; only pods match any scope. */
  matchesScope(selector: ScopeRequirement, obj: KubeObject): boolean;
  /** constraints is what the object lacks for the required resources, as the error text; undefined when nothing. */
  constraints(required: readonly string[], obj: KubeObject): string | undefined;
  /** usage is what the object uses; now is the time in epoch milliseconds. */
  usage(obj: KubeObject, now: number): ResourceList;
}

/** objectCountName is generic.ObjectCountQuotaResourceNameFor: `count/pods`, `count/deployments.apps`. */
export function objectCountName(resource: string, group: string): string {
  return group ? `count/${resource}.${group}` : `count/${resource}`;
}

// Why: legacyObjectCountAliases in pkg/quota/v1/evaluator/core/registry.go: the names before count/<resource>.
const LEGACY_ALIASES: Readonly<Record<string, string>> = {
  configmaps: 'configmaps', resourcequotas: 'resourcequotas', replicationcontrollers: 'replicationcontrollers', secrets: 'secrets',
};

// Why: DefaultIgnoredResources in pkg/quota/v1/install/registry.go: events are never counted.
const IGNORED = new Set(['/events']);

const noScope = (): boolean => false;
const noConstraints = (): undefined => undefined;

/** objectCountEvaluator is generic.NewObjectCountEvaluator: 1 of count/<resource> (and the legacy alias) per object created. */
function objectCountEvaluator(kind: string, resource: string, group: string): QuotaEvaluator {
  const names = [objectCountName(resource, group), ...(group === '' && LEGACY_ALIASES[resource] ? [LEGACY_ALIASES[resource]] : [])];
  return {
    group, resource, kind,
    handles: (a) => a.operation === 'CREATE',
    matchingResources: (input) => intersection(input, names),
    matchesScope: noScope,
    constraints: noConstraints,
    usage: () => new Map(names.map((n) => [n, fromValue(1)])),
  };
}

/** podEvaluator: create, a resize, or an update that moves the pod between the Terminating scopes. */
const podEvaluator: QuotaEvaluator = {
  group: '', resource: 'pods', kind: 'Pod',
  handles(a) {
    if (a.subresource === 'resize') return a.operation === 'UPDATE';
    if (a.subresource !== '') return false;
    if (a.operation === 'UPDATE' && a.oldObject) return isTerminating(asPod(a.oldObject)) !== isTerminating(asPod(a.object));
    return a.operation === 'CREATE';
  },
  matchingResources: podMatchingResources,
  matchesScope: (selector, obj) => podMatchesScope(selector, asPod(obj)),
  constraints: (required, obj) => podConstraints(required, asPod(obj)),
  usage: (obj, now) => podUsage(asPod(obj), now),
};

const SERVICE_RESOURCES = [objectCountName('services', ''), 'services', 'services.nodeports', 'services.loadbalancers'];

/** serviceEvaluator counts services, their node ports and load balancers (evaluator/core/services.go). */
const serviceEvaluator: QuotaEvaluator = {
  group: '', resource: 'services', kind: 'Service',
  handles: (a) => a.operation === 'CREATE' || a.operation === 'UPDATE',
  matchingResources: (input) => intersection(input, SERVICE_RESOURCES),
  matchesScope: noScope,
  constraints: noConstraints,
  usage(obj) {
    const spec = (obj as Service).spec ?? {};
    const ports = spec.ports ?? [];
    let nodePorts = ZERO;
    let loadBalancers = ZERO;
    if (spec.type === 'NodePort') nodePorts = fromValue(ports.length);
    if (spec.type === 'LoadBalancer') {
      // With allocateLoadBalancerNodePorts false only the ports that name a nodePort take one.
      nodePorts = fromValue(spec.allocateLoadBalancerNodePorts === false ? ports.filter((p) => (p.nodePort ?? 0) !== 0).length : ports.length);
      loadBalancers = fromValue(1);
    }
    return new Map([
      [SERVICE_RESOURCES[0]!, fromValue(1)], ['services', fromValue(1)], ['services.loadbalancers', loadBalancers], ['services.nodeports', nodePorts],
    ]);
  },
};

const STORAGE_CLASS_SUFFIX = '.storageclass.storage.k8s.io/';
const PVC_RESOURCES = ['persistentvolumeclaims', 'requests.storage'];
const PVC_OBJECT_COUNT = objectCountName('persistentvolumeclaims', '');

/** storageClassOf is storagehelpers.GetPersistentVolumeClaimClass: the beta annotation first, then spec.storageClassName. */
function storageClassOf(pvc: PersistentVolumeClaim): string {
  const annotations = pvc.metadata?.annotations ?? {};
  if (Object.hasOwn(annotations, 'volume.beta.kubernetes.io/storage-class')) return annotations['volume.beta.kubernetes.io/storage-class']!;
  return pvc.spec?.storageClassName ?? '';
}

/** pvcEvaluator counts claims and requested storage, in all and per storage class (evaluator/core/persistent_volume_claims.go). */
const pvcEvaluator: QuotaEvaluator = {
  group: '', resource: 'persistentvolumeclaims', kind: 'PersistentVolumeClaim',
  handles: (a) => a.operation === 'CREATE' || a.operation === 'UPDATE',
  matchingResources: (input) => input.filter((n) => n === PVC_OBJECT_COUNT || PVC_RESOURCES.includes(n)
    || PVC_RESOURCES.some((r) => n.endsWith(STORAGE_CLASS_SUFFIX + r))),
  matchesScope: noScope,
  constraints: noConstraints,
  usage(obj) {
    const pvc = obj as PersistentVolumeClaim;
    const result: ResourceList = new Map([['persistentvolumeclaims', fromValue(1)], [PVC_OBJECT_COUNT, fromValue(1)]]);
    const storageClass = storageClassOf(pvc);
    if (storageClass) result.set(`${storageClass}${STORAGE_CLASS_SUFFIX}persistentvolumeclaims`, fromValue(1));
    let storage = parseResourceList(pvc.spec?.resources?.requests).get('storage');
    const allocated = parseResourceList((pvc.status as { allocatedResources?: unknown } | undefined)?.allocatedResources).get('storage');
    if (storage && allocated && allocated.cmp(storage) > 0) storage = allocated;
    if (storage) {
      // Storage counts in whole bytes (RoundUp(0)), so that a fractional request still passes quota validation.
      const whole = storage.scaledValue(0);
      if (fromValue(whole).cmp(storage) !== 0) storage = fromValue(whole, storage.format);
      result.set('requests.storage', storage);
      if (storageClass) result.set(`${storageClass}${STORAGE_CLASS_SUFFIX}requests.storage`, storage);
    }
    return result;
  },
};

const SPECIFIC: readonly QuotaEvaluator[] = [podEvaluator, serviceEvaluator, pvcEvaluator];

/**
 * evaluatorFor is the registry lookup the admission plugin makes: the resource's own evaluator, an object count
 * evaluator for any other resource, or undefined for an ignored one (events).
 * See Evaluate in staging/src/k8s.io/apiserver/pkg/admission/plugin/resourcequota/controller.go.
 */
export function evaluatorFor(kind: string, resource: string, group: string): QuotaEvaluator | undefined {
  if (IGNORED.has(`${group}/${resource}`)) return undefined;
  return SPECIFIC.find((e) => e.resource === resource && e.group === group) ?? objectCountEvaluator(kind, resource, group);
}

/** controllerEvaluators are the evaluators the quota controller measures usage with: one per namespaced stored kind. */
export function controllerEvaluators(): QuotaEvaluator[] {
  const out: QuotaEvaluator[] = [];
  for (const [kind, info] of Object.entries(RESOURCES)) {
    if (!info.namespaced) continue;
    const evaluator = evaluatorFor(kind, info.resource, info.group);
    if (evaluator) out.push(evaluator);
  }
  return out;
}

