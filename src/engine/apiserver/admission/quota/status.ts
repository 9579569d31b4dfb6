// A ResourceQuota as admission reads it: its status.hard and status.used, or, where the status is missing or stale,
// the status the resource quota controller would have written (pkg/controller/resourcequota, syncResourceQuota).
import type { KubeObject, ResourceQuota } from '../../../api/types';
import type { Store } from '../../../cluster/store';
import { controllerEvaluators, type QuotaEvaluator } from './evaluators';
import type { ScopeRequirement } from './pods';
import { add, equals, intersection, mask, parseResourceList, resourceNames, type ResourceList, ZERO } from './resources';

/** ObservedQuota is one quota of the namespace with the status admission checks against. */
export interface ObservedQuota {
  name: string;
  hard: ResourceList;
  used: ResourceList;
  selectors: ScopeRequirement[];
  /** computed is true when the stored status was missing or stale and the controller's was computed here. */
  computed: boolean;
}

/**
 * scopeSelectorsOf is getScopeSelectorsFromQuota: each of spec.scopes as an Exists requirement, then the
 * scopeSelector's expressions. See staging/src/k8s.io/apiserver/pkg/admission/plugin/resourcequota/controller.go.
 */
export function scopeSelectorsOf(quota: ResourceQuota): ScopeRequirement[] {
  const fromScopes = (quota.spec?.scopes ?? []).map((scopeName) => ({ scopeName, operator: 'Exists' }));
  const fromSelector = (quota.spec?.scopeSelector?.matchExpressions ?? []).map((e) => ({
    scopeName: e.scopeName, operator: e.operator, ...(e.values ? { values: e.values } : {}),
  }));
  return [...fromScopes, ...fromSelector];
}

/**
 * matchesAllScopes tells whether an object falls in every scope of a quota. A selector the evaluator cannot
 * evaluate counts as no match (the API server's validation refuses such a quota before it is stored).
 */
export function matchesAllScopes(evaluator: QuotaEvaluator, selectors: readonly ScopeRequirement[], obj: KubeObject): boolean {
  return selectors.every((s) => {
    try {
      return evaluator.matchesScope(s, obj);
    } catch {
      return false;
    }
  });
}

/**
 * calculateUsage is quota.CalculateUsage with each evaluator's UsageStats: every tracked resource starts at zero
 * and the usage of each object of the namespace in the quota's scopes is added, masked to the quota's resources.
 * See staging/src/k8s.io/apiserver/pkg/quota/v1/resources.go and generic/evaluator.go (CalculateUsageStats).
 */
export function calculateUsage(store: Store, namespace: string, selectors: readonly ScopeRequirement[], hard: ResourceList, now: number): ResourceList {
  const hardNames = resourceNames(hard);
  const evaluators = controllerEvaluators();
  const potential = evaluators.flatMap((e) => e.matchingResources(hardNames));
  const matched = intersection(hardNames, potential);
  let usage: ResourceList = new Map();
  for (const evaluator of evaluators) {
    const tracked = evaluator.matchingResources(matched);
    if (tracked.length === 0) continue;
    let used: ResourceList = new Map(tracked.map((n) => [n, ZERO]));
    for (const obj of store.list<KubeObject>(evaluator.kind, namespace)) {
      if (matchesAllScopes(evaluator, selectors, obj)) used = add(used, evaluator.usage(obj, now));
    }
    usage = add(usage, used);
  }
  return mask(usage, matched);
}

/**
 * observeQuota reads a quota's status. When status.hard or status.used is missing, or status.hard is not
 * spec.hard, the controller has not synced it yet in this simulation, and the status it would write is
 * computed: hard from spec.hard, used from the namespace's objects.
 */
export function observeQuota(quota: ResourceQuota, store: Store, now: number): ObservedQuota {
  const name = quota.metadata?.name ?? '';
  const selectors = scopeSelectorsOf(quota);
  const specHard = parseResourceList(quota.spec?.hard);
  const status = quota.status;
  const statusHard = parseResourceList(status?.hard);
  if (status?.hard && status.used && equals(statusHard, specHard)) {
    return { name, hard: statusHard, used: parseResourceList(status.used), selectors, computed: false };
  }
  const previous = parseResourceList(status?.used);
  const observed = calculateUsage(store, quota.metadata?.namespace ?? '', selectors, specHard, now);
  const used = mask(new Map([...previous, ...observed]), resourceNames(specHard));
  return { name, hard: specHard, used, selectors, computed: true };
}
