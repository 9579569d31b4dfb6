// PodDisruptionBudgets as the disruption controller and the eviction subresource both read and write them: the
// budgets that select a pod (policy/v1: an empty selector selects every pod of the namespace, a missing one none), the
// DisruptionAllowed condition, and a pod's readiness. See staging/src/k8s.io/component-helpers/apps/poddisruptionbudget
// (helpers.go), staging/src/k8s.io/client-go/listers/policy/v1/poddisruptionbudget_expansion.go
// (GetPodPodDisruptionBudgets) and staging/src/k8s.io/apimachinery/pkg/api/meta/conditions.go (SetStatusCondition),
// all at v0.36.3.
import type { Condition, LabelSelector } from 'kubernetes-types/meta/v1';
import type { Eviction, PodDisruptionBudget, PodDisruptionBudgetStatus } from 'kubernetes-types/policy/v1';
import type { Store } from '../cluster/store';
import { matchesLabelSelector } from './labels';
import type { Pod } from './types';

export type { Condition, Eviction, PodDisruptionBudget, PodDisruptionBudgetStatus };

/** DISRUPTION_ALLOWED_CONDITION is policyv1.DisruptionAllowedCondition. */
export const DISRUPTION_ALLOWED_CONDITION = 'DisruptionAllowed';

/** The condition's reasons (k8s.io/api policy/v1 types.go): SyncFailedReason, SufficientPodsReason, InsufficientPodsReason. */
export const SYNC_FAILED_REASON = 'SyncFailed';
export const SUFFICIENT_PODS_REASON = 'SufficientPods';
export const INSUFFICIENT_PODS_REASON = 'InsufficientPods';

/** DISRUPTION_BUDGET_CAUSE is policyv1.DisruptionBudgetCause, the cause type of an eviction's 429. */
export const DISRUPTION_BUDGET_CAUSE = 'DisruptionBudget';

/** The values of spec.unhealthyPodEvictionPolicy (policyv1.IfHealthyBudget, policyv1.AlwaysAllow). */
export const IF_HEALTHY_BUDGET = 'IfHealthyBudget';
export const ALWAYS_ALLOW = 'AlwaysAllow';

/** isPodReady is podutil.IsPodReady: the pod's Ready condition is True. */
export function isPodReady(pod: Pod): boolean {
  return (pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/**
 * budgetsOfPod is GetPodPodDisruptionBudgets: the budgets of the pod's namespace whose selector matches its labels, in
 * the store's key order (the informer's order is a map's; the first one is the one "chosen arbitrarily"). A budget
 * whose selector does not parse matches nothing.
 */
export function budgetsOfPod(store: Store, pod: Pod): PodDisruptionBudget[] {
  return store.list<PodDisruptionBudget>('PodDisruptionBudget', pod.metadata?.namespace ?? '')
    .filter((pdb) => matchesLabelSelector(pdb.spec?.selector, pod.metadata?.labels ?? {}));
}

/**
 * setStatusCondition is meta.SetStatusCondition: a new condition is appended with lastTransitionTime now; an existing
 * one takes the new status (and a new lastTransitionTime when its status changes), reason, message and
 * observedGeneration. Returns whether anything changed. `now` is an RFC 3339 time.
 */
export function setStatusCondition(conditions: Condition[], next: Omit<Condition, 'lastTransitionTime'>, now: string): boolean {
  const i = conditions.findIndex((c) => c.type === next.type);
  const ordered = (c: Condition): Condition => ({
    type: c.type, status: c.status, ...(c.observedGeneration ? { observedGeneration: c.observedGeneration } : {}),
    lastTransitionTime: c.lastTransitionTime, reason: c.reason, message: c.message,
  });
  if (i < 0) {
    conditions.push(ordered({ ...next, lastTransitionTime: now }));
    return true;
  }
  const old = conditions[i]!;
  const changed = old.status !== next.status || old.reason !== next.reason || old.message !== next.message || (old.observedGeneration ?? 0) !== (next.observedGeneration ?? 0);
  conditions[i] = ordered({ ...next, lastTransitionTime: old.status !== next.status ? now : old.lastTransitionTime });
  return changed;
}

/**
 * updateDisruptionAllowedCondition is UpdateDisruptionAllowedCondition: True SufficientPods while disruptions are
 * allowed, False InsufficientPods otherwise, observedGeneration the status's; the message is empty.
 */
export function updateDisruptionAllowedCondition(status: PodDisruptionBudgetStatus, now: string): void {
  const conditions = status.conditions ?? [];
  const allowed = status.disruptionsAllowed > 0;
  setStatusCondition(conditions, {
    type: DISRUPTION_ALLOWED_CONDITION, status: allowed ? 'True' : 'False', reason: allowed ? SUFFICIENT_PODS_REASON : INSUFFICIENT_PODS_REASON,
    message: '', ...(status.observedGeneration ? { observedGeneration: status.observedGeneration } : {}),
  }, now);
  status.conditions = conditions;
}

/** conditionsAreUpToDate is ConditionsAreUpToDate: the condition matches disruptionsAllowed and the generation is observed. */
export function conditionsAreUpToDate(pdb: PodDisruptionBudget): boolean {
  const cond = (pdb.status?.conditions ?? []).find((c) => c.type === DISRUPTION_ALLOWED_CONDITION);
  if (!cond || (pdb.status?.observedGeneration ?? 0) !== (pdb.metadata?.generation ?? 0)) return false;
  return (pdb.status?.disruptionsAllowed ?? 0) > 0
    ? cond.status === 'True' && cond.reason === SUFFICIENT_PODS_REASON
    : cond.status === 'False' && cond.reason === INSUFFICIENT_PODS_REASON;
}

/**
 * orderedStatus writes a budget's status in the field order of k8s.io/api policy/v1 PodDisruptionBudgetStatus, the
 * omitempty fields left out when empty.
 */
export function orderedStatus(s: PodDisruptionBudgetStatus): PodDisruptionBudgetStatus {
  return {
    ...(s.observedGeneration ? { observedGeneration: s.observedGeneration } : {}),
    ...(s.disruptedPods && Object.keys(s.disruptedPods).length > 0 ? { disruptedPods: s.disruptedPods } : {}),
    disruptionsAllowed: s.disruptionsAllowed, currentHealthy: s.currentHealthy, desiredHealthy: s.desiredHealthy, expectedPods: s.expectedPods,
    ...(s.conditions && s.conditions.length > 0 ? { conditions: s.conditions } : {}),
  };
}

/**
 * labelSelectorString is *metav1.LabelSelector's generated String() (what `%v` prints): matchLabels sorted by key,
 * then the expressions. See staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/generated.pb.go.
 */
export function labelSelectorString(selector: LabelSelector | undefined): string {
  if (!selector) return 'nil';
  const labels = Object.keys(selector.matchLabels ?? {}).sort().map((k) => `${k}: ${selector.matchLabels![k]},`).join('');
  const expressions = (selector.matchExpressions ?? []).map((e) => `LabelSelectorRequirement{Key:${e.key},Operator:${e.operator},Values:[${(e.values ?? []).join(' ')}],},`).join('');
  return `&LabelSelector{MatchLabels:map[string]string{${labels}},MatchExpressions:[]LabelSelectorRequirement{${expressions}},}`;
}
