// Resource requirements of containers, of the pod (pod-level resources) and of its overhead, with resource names,
// quantities, hugepages and claims. See pkg/apis/core/validation/validation.go (validateResourceRequirements and
// the functions around it) and pkg/apis/core/helper/helpers.go for the resource name classes.
import { parseQuantity, quantityOf, type Quantity } from '../../api/quantity';
import type { Container } from '../../api/types';
import {
  asJSON, child, duplicate, type FieldError, forbidden, index, invalidValue, key, notFound, notSupported, required,
} from './field-errors';
import { isDNS1123Label, isQualifiedName, nameIsDNSSubdomain } from './names';
import type { Container136, PodResourceClaim136, PodSpec136, ResourceClaimRef, Resources } from './pod-types';

const HUGEPAGES_PREFIX = 'hugepages-';
const REQUESTS_PREFIX = 'requests.';
const NATIVE_PREFIX = 'kubernetes.io/';
const MILLI = 1000n;

// Why: standardResources, standardContainerResources and integerResources in pkg/apis/core/helper/helpers.go.
const STANDARD_RESOURCES = new Set([
  'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage', 'limits.cpu',
  'limits.memory', 'limits.ephemeral-storage', 'pods', 'resourcequotas', 'services', 'replicationcontrollers', 'secrets',
  'configmaps', 'persistentvolumeclaims', 'storage', 'requests.storage', 'services.nodeports', 'services.loadbalancers',
]);
const STANDARD_CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);
const INTEGER_RESOURCES = new Set([
  'pods', 'resourcequotas', 'services', 'replicationcontrollers', 'secrets', 'configmaps', 'persistentvolumeclaims',
  'services.nodeports', 'services.loadbalancers',
]);
// Why: resourcehelper.SupportedPodLevelResources in staging/src/k8s.io/component-helpers/resource; hugepages by prefix.
const POD_LEVEL_RESOURCES = ['cpu', 'memory'];
const QOS_COMPUTE_RESOURCES = new Set(['cpu', 'memory']);

const isHugePages = (name: string): boolean => name.startsWith(HUGEPAGES_PREFIX);
/** isNative is helper.IsNativeResource: no domain, or a kubernetes.io one. */
export const isNative = (name: string): boolean => !name.includes('/') || name.includes(NATIVE_PREFIX);
/** isOvercommitAllowed is helper.IsOvercommitAllowed: native resources but hugepages. */
export const isOvercommitAllowed = (name: string): boolean => isNative(name) && !isHugePages(name);
/** isStandardResourceName is helper.IsStandardResourceName. */
export const isStandardResourceName = (name: string): boolean =>
  STANDARD_RESOURCES.has(name) || isHugePages(name) || name.startsWith(`${REQUESTS_PREFIX}${HUGEPAGES_PREFIX}`);

/** isExtendedResourceName is helper.IsExtendedResourceName: not native, no `requests.` prefix, a qualified quota name. */
export function isExtendedResourceName(name: string): boolean {
  if (isNative(name) || name.startsWith(REQUESTS_PREFIX)) return false;
  return isQualifiedName(`${REQUESTS_PREFIX}${name}`).length === 0;
}

const isIntegerResourceName = (name: string): boolean => INTEGER_RESOURCES.has(name) || isExtendedResourceName(name);


/** validateResourceName is validateResourceName: a qualified name, and a standard one when it has no domain. */
export function validateResourceName(name: string, path: string): FieldError[] {
  const errs = isQualifiedName(name).map((msg) => invalidValue(path, asJSON(name), msg));
  if (errs.length) return errs;
  if (!name.includes('/') && !isStandardResourceName(name)) {
    errs.push(invalidValue(path, asJSON(name), 'must be a standard resource type or fully qualified'));
  }
  return errs;
}

/** validateContainerResourceName is validateContainerResourceName: a container resource or an extended resource. */
export function validateContainerResourceName(name: string, path: string): FieldError[] {
  const errs = validateResourceName(name, path);
  if (!name.includes('/')) {
    if (!STANDARD_CONTAINER_RESOURCES.has(name) && !isHugePages(name)) {
      errs.push(invalidValue(path, asJSON(name), 'must be a standard resource for containers'));
    }
  } else if (!isNative(name) && !isExtendedResourceName(name)) {
    errs.push(invalidValue(path, asJSON(name), "doesn't follow extended resource name standard"));
  }
  return errs;
}

/** validatePodResourceName is validatePodResourceName: cpu, memory and hugepages only. */
function validatePodResourceName(name: string, path: string): FieldError[] {
  const errs = validateResourceName(name, path);
  if (errs.length) return errs;
  if (!POD_LEVEL_RESOURCES.includes(name) && !isHugePages(name)) errs.push(notSupported(path, asJSON(name), POD_LEVEL_RESOURCES));
  return errs;
}

/** validateResourceQuantityValue is ValidateResourceQuantityValue: not negative, and whole for integer resources. */
export function validateResourceQuantityValue(name: string, q: Quantity, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (q.sign() < 0) errs.push(invalidValue(path, q.toString(), 'must be greater than or equal to 0'));
  // The value is a resource.Quantity, which json.Marshal prints as its string.
  if (isIntegerResourceName(name) && q.scaledValue(-3) % MILLI !== 0n) errs.push(invalidValue(path, asJSON(q.toString()), 'must be an integer'));
  return errs;
}

/** hugePageValueError is validateResourceQuantityHugePageValue: a whole number of pages (IsHugePageResourceValueDivisible). */
function hugePageValueError(name: string, q: Quantity): string | undefined {
  const pageSize = quantityOf(name.slice(HUGEPAGES_PREFIX.length));
  const divisible = pageSize !== undefined && pageSize.sign() > 0 && pageSize.scaledValue(-3) % MILLI === 0n
    && q.scaledValue(0) % pageSize.scaledValue(0) === 0n;
  return divisible ? undefined : `${q.toString()} is not positive integer multiple of ${name}`;
}

type ResourceNameRule = (name: string, path: string) => FieldError[];

/**
 * validateResourceRequirements is validateResourceRequirements: the limits, then the requests (each no greater than its
 * limit, equal to it for resources that cannot be overcommitted), hugepages needing cpu or memory, then the claims.
 * Go walks the resource maps in random order; this walks them in the order written.
 */
function validateResourceRequirements(
  resources: Resources | undefined, nameRule: ResourceNameRule, podClaimNames: ReadonlySet<string>, path: string,
): FieldError[] {
  const errs: FieldError[] = [];
  const limPath = child(path, 'limits');
  const reqPath = child(path, 'requests');
  const limits = new Map<string, Quantity>();
  let hasCPUOrMemory = false;
  let hasHugePages = false;
  for (const [name, value] of Object.entries(resources?.limits ?? {})) {
    const q = quantityOf(value);
    if (!q) continue;
    limits.set(name, q);
    errs.push(...validateEntry(name, q, nameRule, key(limPath, name)));
    hasHugePages ||= isHugePages(name);
    hasCPUOrMemory ||= QOS_COMPUTE_RESOURCES.has(name);
  }
  for (const [name, value] of Object.entries(resources?.requests ?? {})) {
    const q = quantityOf(value);
    if (!q) continue;
    const fieldPath = key(reqPath, name);
    errs.push(...nameRule(name, fieldPath), ...validateResourceQuantityValue(name, q, fieldPath));
    const limit = limits.get(name);
    if (limit) {
      if (q.cmp(limit) !== 0 && !isOvercommitAllowed(name)) {
        errs.push(invalidValue(reqPath, q.toString(), `must be equal to ${name} limit of ${limit.toString()}`));
      } else if (q.cmp(limit) > 0) {
        errs.push(invalidValue(reqPath, q.toString(), `must be less than or equal to ${name} limit of ${limit.toString()}`));
      }
    } else if (!isOvercommitAllowed(name)) {
      errs.push(required(limPath, 'Limit must be set for non overcommitable resources'));
    }
    if (isHugePages(name)) {
      hasHugePages = true;
      const msg = hugePageValueError(name, q);
      if (msg) errs.push(invalidValue(fieldPath, q.toString(), msg));
    }
    hasCPUOrMemory ||= QOS_COMPUTE_RESOURCES.has(name);
  }
  if (!hasCPUOrMemory && hasHugePages) errs.push(forbidden(path, 'HugePages require cpu or memory'));
  errs.push(...validateResourceClaimNames(resources?.claims, podClaimNames, child(path, 'claims')));
  return errs;
}

/** validateEntry checks one limit: its name, its quantity and, for hugepages, its page multiple. */
function validateEntry(name: string, q: Quantity, nameRule: ResourceNameRule, path: string): FieldError[] {
  const errs = [...nameRule(name, path), ...validateResourceQuantityValue(name, q, path)];
  const msg = isHugePages(name) ? hugePageValueError(name, q) : undefined;
  if (msg) errs.push(invalidValue(path, q.toString(), msg));
  return errs;
}

/** validateResourceClaimNames is validateResourceClaimNames: each claim (and request) named once, in pod.spec.resourceClaims. */
function validateResourceClaimNames(claims: ResourceClaimRef[] | undefined, podClaimNames: ReadonlySet<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (claims ?? []).forEach((claim, i) => {
    const name = claim.name ?? '';
    const at = index(path, i);
    if (!name) {
      errs.push(required(at));
      return;
    }
    if (seen.has(name)) {
      errs.push(duplicate(at, name));
    } else {
      let entry = name;
      if (claim.request) {
        errs.push(...isDNS1123Label(claim.request).map((msg) => invalidValue(child(at, 'request'), claim.request, msg)));
        entry += `/${claim.request}`;
      }
      if (seen.has(entry)) errs.push(duplicate(at, entry));
      else if (!claim.request) {
        for (const other of seen) if (other.includes('/') && other.slice(0, other.indexOf('/')) === name) errs.push(duplicate(at, name));
      }
      seen.add(entry);
    }
    if (!podClaimNames.has(name)) {
      const known = [...podClaimNames].sort();
      errs.push(notFound(at, name, `must be one of the names in pod.spec.resourceClaims${known.length ? `: ${known.join(', ')}` : ' which is empty'}`));
    }
  });
  return errs;
}

/** validateContainerResources is ValidateContainerResourceRequirements for a container's resources. */
export function validateContainerResources(resources: Resources | undefined, podClaimNames: ReadonlySet<string>, path: string): FieldError[] {
  return validateResourceRequirements(resources, validateContainerResourceName, podClaimNames, path);
}

/** validateOverhead is validateOverhead: the overhead checked as the limits of a container. */
export function validateOverhead(overhead: Record<string, unknown>, path: string): FieldError[] {
  return validateResourceRequirements({ limits: overhead as Resources['limits'] }, validateContainerResourceName, new Set(), path);
}

/** gatherPodResourceClaimNames is gatherPodResourceClaimNames: the non-empty spec.resourceClaims names. */
export function gatherPodResourceClaimNames(claims: PodResourceClaim136[] | undefined): Set<string> {
  return new Set((claims ?? []).map((c) => c.name ?? '').filter((n) => n !== ''));
}

/** validatePodResourceClaims is validatePodResourceClaims: named once each, with exactly one of claim and template names. */
export function validatePodResourceClaims(claims: PodResourceClaim136[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  (claims ?? []).forEach((claim, i) => {
    const at = index(path, i);
    const name = claim.name ?? '';
    if (!name) errs.push(required(child(at, 'name')));
    else if (names.has(name)) errs.push(duplicate(child(at, 'name'), name));
    else {
      errs.push(...isDNS1123Label(name).map((msg) => invalidValue(child(at, 'name'), name, msg)));
      names.add(name);
    }
    // The value is the internal core.PodResourceClaim, printed by json.Marshal with its Go field names.
    const shown = asJSON({ Name: name, ResourceClaimName: claim.resourceClaimName ?? null, ResourceClaimTemplateName: claim.resourceClaimTemplateName ?? null });
    const hasClaim = claim.resourceClaimName !== undefined && claim.resourceClaimName !== null;
    const hasTemplate = claim.resourceClaimTemplateName !== undefined && claim.resourceClaimTemplateName !== null;
    if (hasClaim && hasTemplate) errs.push(invalidValue(at, shown, 'at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified'));
    if (!hasClaim && !hasTemplate) errs.push(invalidValue(at, shown, 'must specify one of: `resourceClaimName`, `resourceClaimTemplateName`'));
    if (hasClaim) errs.push(...nameIsDNSSubdomain(claim.resourceClaimName!, false).map((msg) => invalidValue(child(at, 'resourceClaimName'), claim.resourceClaimName, msg)));
    if (hasTemplate) {
      errs.push(...nameIsDNSSubdomain(claim.resourceClaimTemplateName!, false).map((msg) => invalidValue(child(at, 'resourceClaimTemplateName'), claim.resourceClaimTemplateName, msg)));
    }
  });
  return errs;
}

/**
 * validatePodResources is validatePodResources (PodLevelResources, on since 1.34): no claims, valid requirements,
 * then pod requests at least the containers' aggregate and no container limit above the pod's.
 */
export function validatePodResources(spec: PodSpec136, podClaimNames: ReadonlySet<string>, path: string): FieldError[] {
  const resources = spec.resources;
  if (!resources) return [];
  const errs: FieldError[] = [];
  // validatePodResources (pkg/apis/core/validation/validation.go, v1.36.3).
  if (resources.claims !== undefined && resources.claims !== null) errs.push(forbidden(child(path, 'claims'), 'claims may not be set for Resources at pod-level'));
  errs.push(...validateResourceRequirements(resources, validatePodResourceName, podClaimNames, path));
  errs.push(...validatePodResourceConsistency(spec, resources, path));
  return errs;
}

/** validatePodResourceConsistency is validatePodResourceConsistency, with resourcehelper.AggregateContainerRequests. */
function validatePodResourceConsistency(spec: PodSpec136, resources: Resources, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const podRequests = quantities(resources.requests);
  for (const [name, aggregate] of aggregateContainerRequests(spec)) {
    const podRequest = podRequests.get(name) ?? parseQuantity('0');
    if (aggregate.cmp(podRequest) > 0) {
      errs.push(invalidValue(key(child(path, 'requests'), name), podRequest.toString(), `must be greater than or equal to aggregate container requests of ${aggregate.toString()}`));
    }
  }
  const podLimits = quantities(resources.limits);
  (spec.containers ?? []).forEach((c, i) => {
    for (const [name, limit] of quantities((c as Container136).resources?.limits)) {
      const podLimit = podLimits.get(name);
      if (podLimit && limit.cmp(podLimit) > 0) {
        // Why: the path is fldPath.Child("containers").Index(i).Key(name).Child("limits") under spec.resources, as written.
        errs.push(invalidValue(child(key(index(child(path, 'containers'), i), name), 'limits'), limit.toString(), `must be less than or equal to pod limits of ${podLimit.toString()}`));
      }
    }
  });
  return errs;
}

function quantities(list: Record<string, unknown> | undefined): Map<string, Quantity> {
  const out = new Map<string, Quantity>();
  for (const [name, value] of Object.entries(list ?? {})) {
    const q = quantityOf(value);
    if (q) out.set(name, q);
  }
  return out;
}

function addTo(into: Map<string, Quantity>, from: Map<string, Quantity>): void {
  for (const [name, q] of from) into.set(name, into.get(name)?.add(q) ?? q);
}

function maxInto(into: Map<string, Quantity>, from: Map<string, Quantity>): void {
  for (const [name, q] of from) if (!into.has(name) || q.cmp(into.get(name)!) > 0) into.set(name, q);
}

/**
 * aggregateContainerRequests is AggregateContainerRequests: the regular and sidecar containers' sum, at least each
 * init container's requests plus the sidecars started before it.
 * Why: staging/src/k8s.io/component-helpers/resource/helpers.go.
 */
function aggregateContainerRequests(spec: PodSpec136): Map<string, Quantity> {
  const total = new Map<string, Quantity>();
  for (const c of spec.containers ?? []) addTo(total, quantities((c as Container136).resources?.requests));
  const sidecars = new Map<string, Quantity>();
  const initMax = new Map<string, Quantity>();
  for (const c of (spec.initContainers ?? []) as Container[]) {
    const own = quantities((c as Container136).resources?.requests);
    const effective = new Map<string, Quantity>();
    if (c.restartPolicy === 'Always') {
      addTo(total, own);
      addTo(sidecars, own);
      addTo(effective, sidecars);
    } else {
      addTo(effective, own);
      addTo(effective, sidecars);
    }
    maxInto(initMax, effective);
  }
  maxInto(total, initMax);
  return total;
}
