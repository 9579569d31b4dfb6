// PodDisruptionBudgets in preemption: which potential victims an eviction would push past their budget.
// See pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go (filterPodsWithPDBViolation) and
// pkg/scheduler/framework/preemption/preemption.go (getPodDisruptionBudgets).
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1';
import { labelSelectorAsSelector, SelectorError, selectorMatches, type Selector } from '../../../api/labels';
import type { Listers } from '../../framework/listers';
import type { PodInfo } from '../../framework/node-info';

export type { PodDisruptionBudget };

/** PDB_KIND is the kind the scheduler's policy/v1 informer lists. */
export const PDB_KIND = 'PodDisruptionBudget';

/** listPodDisruptionBudgets lists every namespace's PodDisruptionBudgets, as the PDB lister does with labels.Everything(). */
export function listPodDisruptionBudgets(listers: Listers): PodDisruptionBudget[] {
  return listers.list<PodDisruptionBudget>(PDB_KIND);
}

/** PDBSplit is the potential victims grouped by whether evicting them violates a budget, each group in the given order. */
export interface PDBSplit {
  violating: PodInfo[];
  nonViolating: PodInfo[];
}

/** budgetSelector is the PDB's selector, or undefined when it matches nothing: nil, empty or invalid. */
function budgetSelector(pdb: PodDisruptionBudget): Selector | undefined {
  try {
    const selector = labelSelectorAsSelector(pdb.spec?.selector);
    // Why: "A PDB with a nil or empty selector matches nothing" (selector.Empty() is true for both).
    return selector.requirements.length === 0 ? undefined : selector;
  } catch (err) {
    if (err instanceof SelectorError) return undefined;
    throw err;
  }
}

/**
 * filterPodsWithPDBViolation walks the pods in order and takes one disruption from each matching budget of the pod's
 * namespace (unless the budget already lists the pod in disruptedPods, which the API server has processed); a pod that
 * drives any budget below zero violates it. The split is stable: sorted input gives sorted groups.
 */
export function filterPodsWithPDBViolation(podInfos: readonly PodInfo[], pdbs: readonly PodDisruptionBudget[]): PDBSplit {
  const allowed = pdbs.map((pdb) => pdb.status?.disruptionsAllowed ?? 0);
  const selectors = pdbs.map(budgetSelector);
  const split: PDBSplit = { violating: [], nonViolating: [] };
  for (const pi of podInfos) {
    const meta = pi.pod.metadata;
    const labels = meta?.labels ?? {};
    let violated = false;
    // Why: a pod with no labels matches no budget, so the loop is skipped (as Go does).
    if (Object.keys(labels).length > 0) {
      pdbs.forEach((pdb, i) => {
        const selector = selectors[i];
        if ((pdb.metadata?.namespace ?? '') !== (meta?.namespace ?? '') || !selector || !selectorMatches(selector, labels)) return;
        if (Object.hasOwn(pdb.status?.disruptedPods ?? {}, meta?.name ?? '')) return;
        allowed[i]! -= 1;
        if (allowed[i]! < 0) violated = true;
      });
    }
    (violated ? split.violating : split.nonViolating).push(pi);
  }
  return split;
}
