// What the scheduler reads from a pod spec: tolerations, node and pod (anti-)affinity, topology spread constraints,
// scheduling and readiness gates. See pkg/apis/core/validation/validation.go (ValidateTolerations, validateAffinity,
// ValidateNodeSelector, validatePodAffinityTerm, validateTopologySpreadConstraints, validateSchedulingGates).
import type {
  Affinity, NodeSelector, NodeSelectorRequirement, NodeSelectorTerm, PodAffinityTerm, Toleration, TopologySpreadConstraint,
  WeightedPodAffinityTerm,
} from 'kubernetes-types/core/v1';
import type { LabelSelector } from 'kubernetes-types/meta/v1';
import { asJSON, child, duplicate, type FieldError, forbidden, index, invalidValue, notSupported, required } from './field-errors';
import { isDNS1123Label, isQualifiedName, isValidLabelValue, nameIsDNSSubdomain } from './names';
import { validateLabelName, validateLabelSelector, validateSelectorRequirement } from './pod-label-selectors';

const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];
const TOLERATION_OPERATORS = ['Equal', 'Exists'];
const WHEN_UNSATISFIABLE = ['DoNotSchedule', 'ScheduleAnyway'];
const NODE_INCLUSION_POLICIES = ['Honor', 'Ignore'];
const MIN_WEIGHT = 1;
const MAX_WEIGHT = 100;
const NOT_POSITIVE = 'must be greater than zero';
const NODE_NAME_FIELD = 'metadata.name';

/** validateTolerations is ValidateTolerations (Lt and Gt wait on the TaintTolerationComparisonOperators alpha gate). */
export function validateTolerations(tolerations: Toleration[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  (tolerations ?? []).forEach((t, i) => {
    const at = index(path, i);
    const keyName = t.key ?? '';
    const operator = t.operator ?? '';
    const effect = t.effect ?? '';
    if (keyName) errs.push(...validateLabelName(keyName, child(at, 'key')));
    if (!keyName && operator !== 'Exists') {
      errs.push(invalidValue(child(at, 'operator'), asJSON(operator), 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
    }
    if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null && effect !== 'NoExecute') {
      errs.push(invalidValue(child(at, 'effect'), asJSON(effect), "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
    if (operator === 'Equal' || operator === '') {
      const valueErrs = isValidLabelValue(t.value ?? '');
      if (valueErrs.length) errs.push(invalidValue(child(at, 'operator'), t.value ?? '', valueErrs.join(';')));
    } else if (operator === 'Exists') {
      if (t.value) errs.push(invalidValue(child(at, 'operator'), t.value, "value must be empty when `operator` is 'Exists'"));
    } else {
      errs.push(notSupported(child(at, 'operator'), asJSON(operator), TOLERATION_OPERATORS));
    }
    if (effect && !TAINT_EFFECTS.includes(effect)) errs.push(notSupported(child(at, 'effect'), asJSON(effect), TAINT_EFFECTS));
  });
  return errs;
}

/** validateNodeSelectorRequirement is ValidateNodeSelectorRequirement: a selector requirement that also admits Gt and Lt. */
function validateNodeSelectorRequirement(rq: NodeSelectorRequirement, allowInvalidLabelValue: boolean, path: string): FieldError[] {
  return validateSelectorRequirement(rq, path, allowInvalidLabelValue, true);
}

/** validateNodeFieldSelectorRequirement is ValidateNodeFieldSelectorRequirement: In/NotIn on metadata.name with one value. */
function validateNodeFieldSelectorRequirement(rq: NodeSelectorRequirement, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const values = rq.values ?? [];
  if (rq.operator === 'In' || rq.operator === 'NotIn') {
    if (values.length !== 1) errs.push(required(child(path, 'values'), "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"));
  } else {
    errs.push(invalidValue(child(path, 'operator'), asJSON(rq.operator ?? ''), 'not a valid selector operator'));
  }
  if (rq.key !== NODE_NAME_FIELD) errs.push(invalidValue(child(path, 'key'), rq.key ?? '', 'not a valid field selector key'));
  else values.forEach((v, i) => errs.push(...nameIsDNSSubdomain(v, false).map((msg) => invalidValue(index(child(path, 'values'), i), v, msg))));
  return errs;
}

function validateNodeSelectorTerm(term: NodeSelectorTerm, allowInvalidLabelValue: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  (term.matchExpressions ?? []).forEach((rq, j) => errs.push(...validateNodeSelectorRequirement(rq, allowInvalidLabelValue, index(child(path, 'matchExpressions'), j))));
  (term.matchFields ?? []).forEach((rq, j) => errs.push(...validateNodeFieldSelectorRequirement(rq, index(child(path, 'matchFields'), j))));
  return errs;
}

/** validateNodeSelector is ValidateNodeSelector: at least one term, each valid. */
export function validateNodeSelector(selector: NodeSelector, path: string): FieldError[] {
  const termsPath = child(path, 'nodeSelectorTerms');
  const terms = selector.nodeSelectorTerms ?? [];
  if (terms.length === 0) return [required(termsPath, 'must have at least one node selector term')];
  return terms.flatMap((term, i) => validateNodeSelectorTerm(term, false, index(termsPath, i)));
}

function weightErrors(weight: number | undefined, path: string): FieldError[] {
  const w = weight ?? 0;
  return w < MIN_WEIGHT || w > MAX_WEIGHT ? [invalidValue(path, w, 'must be in the range 1-100')] : [];
}

/** validateLabelKeys is validateLabelKeys: label names, and only beside a label selector. */
function validateLabelKeys(keys: string[] | undefined, selector: LabelSelector | undefined, path: string): FieldError[] {
  if (!keys || keys.length === 0) return [];
  if (!selector) return [forbidden(path, 'must not be specified when labelSelector is not set')];
  return keys.flatMap((k, i) => validateLabelName(k, index(path, i)));
}

/** validateMatchLabelKeysAndMismatchLabelKeys is validateMatchLabelKeysAndMismatchLabelKeys (paths as in Go). */
function validateMatchLabelKeysAndMismatchLabelKeys(term: PodAffinityTerm, path: string): FieldError[] {
  const match = term.matchLabelKeys ?? [];
  const mismatch = term.mismatchLabelKeys ?? [];
  const selector = term.labelSelector;
  const errs = [...validateLabelKeys(match, selector, child(path, 'matchLabelKeys')), ...validateLabelKeys(mismatch, selector, child(path, 'mismatchLabelKeys'))];
  if (selector) {
    const matchIndex = new Map(match.map((k, i) => [k, i]));
    const selectorKeys = new Set(Object.keys(selector.matchLabels ?? {}));
    for (const expr of selector.matchExpressions ?? []) {
      const i = matchIndex.get(expr.key);
      if (i !== undefined && selectorKeys.has(expr.key)) errs.push(invalidValue(index(path, i), expr.key, 'exists in both matchLabelKeys and labelSelector'));
      selectorKeys.add(expr.key);
    }
  }
  match.forEach((k, i) => {
    if (mismatch.includes(k)) errs.push(invalidValue(index(child(path, 'matchLabelKeys'), i), k, 'exists in both matchLabelKeys and mismatchLabelKeys'));
  });
  return errs;
}

/** validatePodAffinityTerm is validatePodAffinityTerm: selectors, namespaces, label keys, then a topology key. */
function validatePodAffinityTerm(term: PodAffinityTerm, path: string): FieldError[] {
  const errs = [...validateLabelSelector(term.labelSelector, child(path, 'labelSelector')), ...validateLabelSelector(term.namespaceSelector, child(path, 'namespaceSelector'))];
  // Why: Go reports a bad namespace at fldPath.Child("namespace"), singular.
  for (const ns of term.namespaces ?? []) errs.push(...isDNS1123Label(ns).map((msg) => invalidValue(child(path, 'namespace'), ns, msg)));
  errs.push(...validateMatchLabelKeysAndMismatchLabelKeys(term, path));
  const topologyKey = term.topologyKey ?? '';
  if (!topologyKey) errs.push(required(child(path, 'topologyKey'), 'can not be empty'));
  errs.push(...validateLabelName(topologyKey, child(path, 'topologyKey')));
  return errs;
}

function validatePodAffinityTerms(
  required_: PodAffinityTerm[] | undefined, preferred: WeightedPodAffinityTerm[] | undefined, path: string,
): FieldError[] {
  const errs: FieldError[] = [];
  const reqPath = child(path, 'requiredDuringSchedulingIgnoredDuringExecution');
  (required_ ?? []).forEach((term, i) => errs.push(...validatePodAffinityTerm(term, index(reqPath, i))));
  const prefPath = child(path, 'preferredDuringSchedulingIgnoredDuringExecution');
  (preferred ?? []).forEach((wt, j) => {
    errs.push(...weightErrors(wt.weight, child(index(prefPath, j), 'weight')));
    errs.push(...validatePodAffinityTerm(wt.podAffinityTerm ?? { topologyKey: '' }, child(index(prefPath, j), 'podAffinityTerm')));
  });
  return errs;
}

/** validateAffinity is validateAffinity: node affinity, pod affinity, then pod anti-affinity. */
export function validateAffinity(affinity: Affinity | undefined, path: string): FieldError[] {
  if (!affinity) return [];
  const errs: FieldError[] = [];
  const na = affinity.nodeAffinity;
  if (na) {
    const naPath = child(path, 'nodeAffinity');
    const requiredTerms = na.requiredDuringSchedulingIgnoredDuringExecution;
    if (requiredTerms) errs.push(...validateNodeSelector(requiredTerms, child(naPath, 'requiredDuringSchedulingIgnoredDuringExecution')));
    const prefPath = child(naPath, 'preferredDuringSchedulingIgnoredDuringExecution');
    (na.preferredDuringSchedulingIgnoredDuringExecution ?? []).forEach((term, i) => {
      errs.push(...weightErrors(term.weight, child(index(prefPath, i), 'weight')));
      // Why: preferred terms always allow invalid label values (they may still match on a one-node cluster).
      errs.push(...validateNodeSelectorTerm(term.preference ?? {}, true, child(index(prefPath, i), 'preference')));
    });
  }
  for (const kind of ['podAffinity', 'podAntiAffinity'] as const) {
    const a = affinity[kind];
    if (a) errs.push(...validatePodAffinityTerms(a.requiredDuringSchedulingIgnoredDuringExecution, a.preferredDuringSchedulingIgnoredDuringExecution, child(path, kind)));
  }
  return errs;
}

/** validateTopologySpreadConstraints is validateTopologySpreadConstraints. */
export function validateTopologySpreadConstraints(constraints: TopologySpreadConstraint[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const list = constraints ?? [];
  list.forEach((c, i) => {
    const at = index(path, i);
    const action = c.whenUnsatisfiable ?? '';
    if ((c.maxSkew ?? 0) <= 0) errs.push(invalidValue(child(at, 'maxSkew'), c.maxSkew ?? 0, NOT_POSITIVE));
    if (!c.topologyKey) errs.push(required(child(at, 'topologyKey'), 'can not be empty'));
    if (!WHEN_UNSATISFIABLE.includes(action)) errs.push(notSupported(child(at, 'whenUnsatisfiable'), asJSON(action), WHEN_UNSATISFIABLE));
    if (list.slice(i + 1).some((o) => (o.topologyKey ?? '') === (c.topologyKey ?? '') && (o.whenUnsatisfiable ?? '') === action)) {
      errs.push(duplicate(child(at, '{topologyKey, whenUnsatisfiable}'), `{${c.topologyKey ?? ''}, ${action}}`));
    }
    if (c.minDomains !== undefined && c.minDomains !== null) {
      if (c.minDomains <= 0) errs.push(invalidValue(child(at, 'minDomains'), c.minDomains, NOT_POSITIVE));
      if (action !== 'DoNotSchedule') errs.push(invalidValue(child(at, 'minDomains'), c.minDomains, `can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ${action}`));
    }
    for (const policy of ['nodeAffinityPolicy', 'nodeTaintsPolicy'] as const) {
      const v = c[policy];
      if (v !== undefined && v !== null && !NODE_INCLUSION_POLICIES.includes(v)) errs.push(notSupported(child(at, policy), asJSON(v), NODE_INCLUSION_POLICIES));
    }
    errs.push(...validateMatchLabelKeysInTopologySpread(c.matchLabelKeys, c.labelSelector, child(at, 'matchLabelKeys')));
    errs.push(...validateLabelSelector(c.labelSelector, child(at, 'labelSelector')));
  });
  return errs;
}

/** validateMatchLabelKeysInTopologySpread is validateMatchLabelKeysInTopologySpread. */
function validateMatchLabelKeysInTopologySpread(keys: string[] | undefined, selector: LabelSelector | undefined, path: string): FieldError[] {
  if (!keys || keys.length === 0) return [];
  const errs: FieldError[] = [];
  const selectorKeys = new Set<string>();
  if (selector) {
    for (const k of Object.keys(selector.matchLabels ?? {})) selectorKeys.add(k);
    for (const e of selector.matchExpressions ?? []) selectorKeys.add(e.key);
  } else {
    errs.push(forbidden(path, 'must not be specified when labelSelector is not set'));
  }
  keys.forEach((k, i) => {
    errs.push(...validateLabelName(k, index(path, i)));
    if (selectorKeys.has(k)) errs.push(invalidValue(index(path, i), k, 'exists in both matchLabelKeys and labelSelector'));
  });
  return errs;
}

/** validateSchedulingGates is validateSchedulingGates: qualified names, no duplicates (both at the entry's path). */
export function validateSchedulingGates(gates: { name?: string }[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (gates ?? []).forEach((g, i) => {
    const name = g.name ?? '';
    errs.push(...isQualifiedName(name).map((msg) => invalidValue(index(path, i), name, msg)));
    if (seen.has(name)) errs.push(duplicate(index(path, i), name));
    seen.add(name);
  });
  return errs;
}

/** validateReadinessGates is validateReadinessGates: each conditionType a qualified name. */
export function validateReadinessGates(gates: { conditionType?: string }[] | undefined, path: string): FieldError[] {
  return (gates ?? []).flatMap((g, i) => isQualifiedName(g.conditionType ?? '').map((msg) => invalidValue(child(index(path, i), 'conditionType'), g.conditionType ?? '', msg)));
}
