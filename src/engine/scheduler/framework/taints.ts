// Taint and toleration matching, shared by TaintToleration and NodeUnschedulable.
// See staging/src/k8s.io/component-helpers/scheduling/corev1/helpers.go and k8s.io/api/core/v1/toleration.go.
import type { Taint, Toleration } from '../../api/types';

/** TaintEffect lists the effects a taint may have. */
export const TaintEffect = {
  NoSchedule: 'NoSchedule',
  PreferNoSchedule: 'PreferNoSchedule',
  NoExecute: 'NoExecute',
} as const;

/** TolerationOperator lists the operators of a toleration; an empty operator means Equal. */
export const TolerationOperator = {
  Equal: 'Equal',
  Exists: 'Exists',
} as const;

/** TAINT_NODE_UNSCHEDULABLE is the taint key that stands for node.spec.unschedulable. */
export const TAINT_NODE_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';

/**
 * toleratesTaint tells whether a toleration tolerates a taint: an empty effect matches every effect, an empty key (with
 * Exists) every key, Exists every value, Equal (or no operator) the same value. The Lt and Gt operators of the
 * TaintTolerationComparisonOperators feature gate (off by default) match nothing.
 */
export function toleratesTaint(t: Toleration, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  switch (t.operator ?? '') {
    case '':
    case TolerationOperator.Equal:
      return (t.value ?? '') === (taint.value ?? '');
    case TolerationOperator.Exists:
      return true;
    default:
      return false;
  }
}

/** tolerationsTolerateTaint tells whether any of the tolerations tolerates the taint. */
export function tolerationsTolerateTaint(tolerations: readonly Toleration[] | undefined, taint: Taint): boolean {
  // Plain loops: Filter runs this on every node checked, and `(tolerations ?? []).some(...)` allocated each time.
  if (!tolerations) return false;
  for (let i = 0; i < tolerations.length; i++) if (toleratesTaint(tolerations[i]!, taint)) return true;
  return false;
}

/** doNotScheduleTaint selects the taints the filter cares about: NoSchedule and NoExecute. */
export function doNotScheduleTaint(taint: Taint): boolean {
  return taint.effect === TaintEffect.NoSchedule || taint.effect === TaintEffect.NoExecute;
}

/** findMatchingUntoleratedTaint returns the first taint, among those the filter selects, that no toleration tolerates. */
export function findMatchingUntoleratedTaint(
  taints: readonly Taint[] | undefined,
  tolerations: readonly Toleration[] | undefined,
  inclusionFilter: (taint: Taint) => boolean,
): Taint | undefined {
  if (!taints) return undefined;
  for (let i = 0; i < taints.length; i++) {
    const taint = taints[i]!;
    if (!inclusionFilter(taint)) continue;
    if (!tolerationsTolerateTaint(tolerations, taint)) return taint;
  }
  return undefined;
}
