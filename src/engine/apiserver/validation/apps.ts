// Deployment and ReplicaSet validation on create: ValidateDeployment and ValidateReplicaSet of
// pkg/apis/apps/validation/validation.go, with the pod template checked by pod.ts's validatePodTemplateSpec.
import { labelSelectorAsSelector, SelectorError, selectorMatches, type Selector } from '../../api/labels';
import type {
  Deployment, DeploymentSpec, LabelSelector, LabelSelectorRequirement, PodSpec, PodTemplateSpec, ReplicaSet, ReplicaSetSpec,
} from '../../api/types';
import { asJSON, type FieldError, forbidden, goJSONMarshal, invalidValue, notSupported, required } from './field-errors';
import { goJSONMap, invalidShown, nameIsDNSSubdomain, nonNegative, validateObjectMeta } from './metadata';
import { regexError } from './names';
import { validatePodTemplateSpec } from './pod';
import { validateLabelSelector } from './pod-label-selectors';

/**
 * IntOrString is intstr.IntOrString as JSON carries it: a number (Type Int) or a string (Type String). A bad one
 * prints as its MarshalJSON writes it: the int bare, the string JSON-quoted.
 */
export type IntOrString = number | string;

/** validateDeployment is ValidateDeployment: the metadata (name a DNS subdomain, ValidateDeploymentName), then the spec. */
export function validateDeployment(deployment: Deployment): FieldError[] {
  return [...validateObjectMeta(deployment, true, nameIsDNSSubdomain), ...validateDeploymentSpec(deployment.spec, 'spec')];
}

/** validateReplicaSet is ValidateReplicaSet: the metadata (ValidateReplicaSetName, a DNS subdomain), then the spec. */
export function validateReplicaSet(replicaSet: ReplicaSet): FieldError[] {
  return [...validateObjectMeta(replicaSet, true, nameIsDNSSubdomain), ...validateReplicaSetSpec(replicaSet.spec, 'spec')];
}

/**
 * validateDeploymentSpec is ValidateDeploymentSpec, in its order: replicas, selector, template, strategy,
 * minReadySeconds, revisionHistoryLimit, progressDeadlineSeconds. Fields are read as after defaulting (replicas,
 * strategy, revisionHistoryLimit and progressDeadlineSeconds are set by SetDefaults_Deployment).
 */
export function validateDeploymentSpec(spec: Partial<DeploymentSpec> | undefined, path: string): FieldError[] {
  const s = spec ?? {};
  const minReadySeconds = s.minReadySeconds ?? 0;
  const errs = [
    ...nonNegative(s.replicas ?? 0, `${path}.replicas`),
    ...validateSelectorAndTemplate(s.selector, s.template, path),
    ...validateDeploymentStrategy(s.strategy ?? {}, `${path}.strategy`),
    ...nonNegative(minReadySeconds, `${path}.minReadySeconds`),
  ];
  // Zero is a valid revisionHistoryLimit.
  if (s.revisionHistoryLimit !== undefined && s.revisionHistoryLimit !== null) {
    errs.push(...nonNegative(s.revisionHistoryLimit, `${path}.revisionHistoryLimit`));
  }
  if (s.progressDeadlineSeconds !== undefined && s.progressDeadlineSeconds !== null) {
    errs.push(...nonNegative(s.progressDeadlineSeconds, `${path}.progressDeadlineSeconds`));
    if (s.progressDeadlineSeconds <= minReadySeconds) {
      errs.push(invalidValue(`${path}.progressDeadlineSeconds`, s.progressDeadlineSeconds, 'must be greater than minReadySeconds'));
    }
  }
  return errs;
}

/** validateReplicaSetSpec is ValidateReplicaSetSpec: replicas, minReadySeconds, then the selector and template. */
export function validateReplicaSetSpec(spec: Partial<ReplicaSetSpec> | undefined, path: string): FieldError[] {
  const s = spec ?? {};
  return [
    ...nonNegative(s.replicas ?? 0, `${path}.replicas`),
    ...nonNegative(s.minReadySeconds ?? 0, `${path}.minReadySeconds`),
    ...validateSelectorAndTemplate(s.selector, s.template, path),
  ];
}

/**
 * validateSelectorAndTemplate is the part ValidateDeploymentSpec and ValidateReplicaSetSpec share: a required,
 * strictly valid, non-empty selector (both kinds say "for deployment"), then the template against the selector —
 * skipped when the selector does not parse. A missing selector parses as labels.Nothing(), which matches no
 * template, so it is reported twice, as by the API server.
 */
function validateSelectorAndTemplate(selector: LabelSelector | null | undefined, template: PodTemplateSpec | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (selector === undefined || selector === null) {
    errs.push(required(`${path}.selector`));
  } else {
    errs.push(...validateLabelSelector(selector, `${path}.selector`));
    if (Object.keys(selector.matchLabels ?? {}).length + (selector.matchExpressions ?? []).length === 0) {
      errs.push(invalidShown(`${path}.selector`, labelSelectorJSON(selector), 'empty selector is invalid for deployment'));
    }
  }
  let parsed: Selector;
  try {
    parsed = labelSelectorAsSelector(selector);
  } catch (err) {
    if (!(err instanceof SelectorError)) throw err;
    errs.push(invalidShown(`${path}.selector`, labelSelectorJSON(selector!), 'invalid label selector'));
    return errs;
  }
  return [...errs, ...validatePodTemplateSpecForReplicaSet(template ?? {}, parsed, `${path}.template`)];
}

/**
 * validatePodTemplateSpecForReplicaSet is ValidatePodTemplateSpecForReplicaSet: the selector must match the
 * template's labels, the template must pass ValidatePodTemplateSpec (its labels and annotations at
 * `spec.template.labels` and `spec.template.annotations`, as in Go), restartPolicy must be Always and
 * activeDeadlineSeconds unset (the message names ReplicaSet for a Deployment too).
 */
export function validatePodTemplateSpecForReplicaSet(template: PodTemplateSpec, selector: Selector, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const labels = template.metadata?.labels;
  const selectorIsEmpty = !selector.nothing && selector.requirements.length === 0;
  if (!selectorIsEmpty && !selectorMatches(selector, labels ?? {})) {
    errs.push(invalidShown(`${path}.metadata.labels`, goJSONMap(labels), '`selector` does not match template `labels`'));
  }
  return [...errs, ...validateReplicaTemplate(template, path, 'ReplicaSet')];
}

/**
 * validateReplicaTemplate is the part ValidatePodTemplateSpecForReplicaSet and ValidatePodTemplateSpecForRC share after
 * the selector check: ValidatePodTemplateSpec, restartPolicy Always, no activeDeadlineSeconds ("... in ReplicaSet is
 * not Supported", "... in ReplicationController is not Supported"). See pkg/apis/apps/validation/validation.go and
 * pkg/apis/core/validation/validation.go, v1.36.3.
 */
export function validateReplicaTemplate(template: PodTemplateSpec, path: string, kind: 'ReplicaSet' | 'ReplicationController'): FieldError[] {
  const errs = validatePodTemplateSpec(template, path);
  const spec: Partial<PodSpec> = template.spec ?? {};
  // restartPolicy has been first-order validated by the pod spec rules already; a RestartPolicy prints as JSON.
  if (spec.restartPolicy !== 'Always') errs.push(notSupported(`${path}.spec.restartPolicy`, asJSON(spec.restartPolicy ?? ''), ['Always']));
  if (spec.activeDeadlineSeconds !== undefined && spec.activeDeadlineSeconds !== null) {
    errs.push(forbidden(`${path}.spec.activeDeadlineSeconds`, `activeDeadlineSeconds in ${kind} is not Supported`));
  }
  return errs;
}

/** labelSelectorJSON is json.Marshal of a metav1.LabelSelector: empty matchLabels and matchExpressions omitted. */
export function labelSelectorJSON(selector: LabelSelector): string {
  const fields: string[] = [];
  if (Object.keys(selector.matchLabels ?? {}).length > 0) fields.push(`"matchLabels":${goJSONMap(selector.matchLabels)}`);
  const expressions = selector.matchExpressions ?? [];
  if (expressions.length > 0) fields.push(`"matchExpressions":[${expressions.map(requirementJSON).join(',')}]`);
  return `{${fields.join(',')}}`;
}

function requirementJSON(sr: LabelSelectorRequirement): string {
  const values = sr.values && sr.values.length > 0 ? `,"values":${goJSONMarshal(sr.values)}` : '';
  return `{"key":${goJSONMarshal(sr.key ?? '')},"operator":${goJSONMarshal(sr.operator ?? '')}${values}}`;
}

// ---- The strategy: ValidateDeploymentStrategy, ValidateRollingUpdateDeployment and their int-or-percent helpers. ----

/**
 * validateDeploymentStrategy is ValidateDeploymentStrategy: Recreate takes no rollingUpdate, RollingUpdate needs one
 * (defaulting always gives it), any other type is unsupported. The bad strategy prints as its internal Go struct
 * marshals, field names capitalized: {"Type":"Blue","RollingUpdate":null}.
 */
export function validateDeploymentStrategy(strategy: NonNullable<DeploymentSpec['strategy']>, path: string): FieldError[] {
  const rollingUpdate = strategy.rollingUpdate;
  switch (strategy.type) {
    case 'Recreate':
      return rollingUpdate ? [forbidden(`${path}.rollingUpdate`, "may not be specified when strategy `type` is 'Recreate'")] : [];
    case 'RollingUpdate':
      if (!rollingUpdate) return [required(`${path}.rollingUpdate`, 'this should be defaulted and never be nil')];
      return validateRollingUpdateDeployment(rollingUpdate.maxUnavailable ?? 0, rollingUpdate.maxSurge ?? 0, `${path}.rollingUpdate`);
    default: {
      const ru = rollingUpdate ? { MaxUnavailable: rollingUpdate.maxUnavailable ?? 0, MaxSurge: rollingUpdate.maxSurge ?? 0 } : null;
      return [notSupported(path, asJSON({ Type: strategy.type ?? '', RollingUpdate: ru }), ['Recreate', 'RollingUpdate'])];
    }
  }
}

/**
 * validateRollingUpdateDeployment is ValidateRollingUpdateDeployment: both an int ≥ 0 or a percent, not both zero
 * (reported on maxUnavailable), and maxUnavailable at most 100%.
 */
export function validateRollingUpdateDeployment(maxUnavailable: IntOrString, maxSurge: IntOrString, path: string): FieldError[] {
  const errs = [
    ...validatePositiveIntOrPercent(maxUnavailable, `${path}.maxUnavailable`),
    ...validatePositiveIntOrPercent(maxSurge, `${path}.maxSurge`),
  ];
  if (intOrPercentValue(maxUnavailable) === 0 && intOrPercentValue(maxSurge) === 0) {
    errs.push(invalidValue(`${path}.maxUnavailable`, asJSON(maxUnavailable), 'may not be 0 when `maxSurge` is 0'));
  }
  return [...errs, ...isNotMoreThan100Percent(maxUnavailable, `${path}.maxUnavailable`)];
}

/** isNotMoreThan100Percent is IsNotMoreThan100Percent: a valid percent string above 100% is refused; anything else passes. */
export function isNotMoreThan100Percent(value: IntOrString, path: string): FieldError[] {
  const percent = percentValue(value);
  return percent !== undefined && percent > 100 ? [invalidValue(path, asJSON(value), 'must not be greater than 100%')] : [];
}

const PERCENT_FMT = '[0-9]+%';
const PERCENT_RE = /^[0-9]+%$/;

/** isValidPercent is validation.IsValidPercent. */
function isValidPercent(value: string): string[] {
  return PERCENT_RE.test(value) ? [] : [regexError("a valid percent string must be a numeric string followed by an ending '%'", PERCENT_FMT, '1%', '93%')];
}

/** validatePositiveIntOrPercent is ValidatePositiveIntOrPercent: a string must be a percent, an int not negative. */
export function validatePositiveIntOrPercent(value: IntOrString, path: string): FieldError[] {
  if (typeof value === 'string') return isValidPercent(value).map((msg) => invalidValue(path, asJSON(value), msg));
  return nonNegative(value, path);
}

const MAX_INT64 = 9223372036854775807;

/** goAtoi is strconv.Atoi with its error ignored: 0 for a syntax error, the clamped bound when out of range. */
function goAtoi(s: string): number {
  if (!/^[+-]?[0-9]+$/.test(s)) return 0;
  const n = BigInt(s);
  if (n > BigInt(MAX_INT64)) return MAX_INT64;
  if (n < -BigInt(MAX_INT64) - 1n) return -MAX_INT64 - 1;
  return Number(n);
}

/** percentValue is getPercentValue: the number of a valid percent string, undefined otherwise. */
function percentValue(value: IntOrString): number | undefined {
  if (typeof value !== 'string' || isValidPercent(value).length > 0) return undefined;
  return goAtoi(value.slice(0, -1));
}

/** intOrPercentValue is getIntOrPercentValue: a percent's number, else IntValue() (Atoi of a string). */
export function intOrPercentValue(value: IntOrString): number {
  return percentValue(value) ?? (typeof value === 'string' ? goAtoi(value) : value);
}
