// Node validation on create: the node strategy's Validate, ValidateNode in pkg/apis/core/validation/validation.go
// (kubernetes v1.36.3): the name (a DNS subdomain, no namespace), the taints (with the field path that function
// gives them, `metadata.taints[i]`, as kube-apiserver reports it), and the capacity and allocatable quantities
// (ValidateNodeResources). Not checked here: the annotation-borne taints and avoid-pods, status.nodeInfo.swap,
// status.declaredFeatures and spec.podCIDRs.
import { quantityOf } from '../../api/quantity';
import { validateResourceQuantityValue } from './pod-resources';
import { asJSON, child, duplicate, type FieldError, index, invalidValue, notSupported, required } from './field-errors';
import { validateObjectMeta } from './metadata';
import { isValidLabelValue, nameIsDNSSubdomain } from './names';
import { validateLabelName } from './pod-label-selectors';
import type { KubeObject } from '../../api/types';

/** TAINT_EFFECTS are validateTaintEffect's supported values (NoScheduleNoAdmit is not implemented upstream). */
const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

interface NodeTaint {
  key?: string;
  value?: string;
  effect?: string;
  timeAdded?: string | null;
}

/** validateNode is ValidateNode. */
export function validateNode(node: KubeObject): FieldError[] {
  const spec = (node['spec'] ?? {}) as { taints?: NodeTaint[] };
  const status = (node['status'] ?? {}) as { capacity?: Record<string, unknown>; allocatable?: Record<string, unknown> };
  const errs = validateObjectMeta(node, false, nameIsDNSSubdomain);
  // ValidateNode: validateNodeTaints(node.Spec.Taints, fldPath.Child("taints")) with fldPath "metadata".
  if (spec.taints?.length) errs.push(...validateNodeTaints(spec.taints, 'metadata.taints'));
  for (const [list, values] of [['capacity', status.capacity], ['allocatable', status.allocatable]] as const) {
    for (const [name, value] of Object.entries(values ?? {})) {
      const q = quantityOf(value);
      // A value that is no quantity never gets here: decoding the Node refuses it first.
      if (q) errs.push(...validateResourceQuantityValue(name, q, `status.${list}.${name}`));
    }
  }
  return errs;
}

/** validateNodeTaints is validateNodeTaints: key, value and effect of each taint, unique by key and effect. */
function validateNodeTaints(taints: NodeTaint[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Map<string, Set<string>>();
  taints.forEach((taint, i) => {
    const at = index(path, i);
    const key = taint.key ?? '';
    const effect = taint.effect ?? '';
    errs.push(...validateLabelName(key, child(at, 'key')));
    const valueErrs = isValidLabelValue(taint.value ?? '');
    if (valueErrs.length) errs.push(invalidValue(child(at, 'value'), taint.value ?? '', valueErrs.join(';')));
    // validateTaintEffect(&currTaint.Effect, false, ...): an empty effect is required here.
    if (!effect) errs.push(required(child(at, 'effect')));
    else if (!TAINT_EFFECTS.includes(effect)) errs.push(notSupported(child(at, 'effect'), asJSON(effect), TAINT_EFFECTS));
    const keys = seen.get(effect) ?? new Set<string>();
    if (keys.has(key)) {
      // field.Duplicate(idxPath, currTaint): the internal core.Taint has no json tags, so its Go field names print.
      const dup = duplicate(at, asJSON({ Key: key, Value: taint.value ?? '', Effect: effect, TimeAdded: taint.timeAdded ?? null }));
      errs.push({ ...dup, body: `${dup.body}: taints must be unique by key and effect pair` });
      return;
    }
    seen.set(effect, keys.add(key));
  });
  return errs;
}
