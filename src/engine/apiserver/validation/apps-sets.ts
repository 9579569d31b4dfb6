// StatefulSet and DaemonSet validation on create: ValidateStatefulSet and ValidateDaemonSet of
// pkg/apis/apps/validation/validation.go (k8s.io/kubernetes v1.36.3), on the object as defaulting left it. Bad values
// print as field.ErrorBody's json.Marshal of the internal Go types, whose fields have no JSON tags
// (`{"Type":"Blue","RollingUpdate":null}`).
import { labelSelectorAsSelector, type Selector, SelectorError, selectorMatches } from '../../api/labels';
import type { KubeObject, LabelSelector, PodSpec, PodTemplateSpec } from '../../api/types';
import { type IntOrString, intOrPercentValue, isNotMoreThan100Percent, labelSelectorJSON, validatePositiveIntOrPercent } from './apps';
import { asJSON, child, type FieldError, forbidden, index, invalidValue, notSupported, required } from './field-errors';
import { goJSONMap, invalidShown, nameIsDNSLabel, nameIsDNSSubdomain, nonNegative, validateAnnotations, validateLabels, validateObjectMeta } from './metadata';
import { isDNS1123Label } from './names';
import { validatePodTemplateSpec } from './pod';
import { validatePodAnnotations } from './pod-annotations';
import { validateLabelSelector } from './pod-label-selectors';
import { validateClaimTemplateSpec } from './pod-pvc-template';

type Rec = Record<string, unknown>;
interface SetSpec {
  replicas?: number; minReadySeconds?: number; serviceName?: string; podManagementPolicy?: string; revisionHistoryLimit?: number;
  selector?: LabelSelector | null; template?: PodTemplateSpec; ordinals?: { start?: number } | null;
  updateStrategy?: { type?: string; rollingUpdate?: { partition?: number; maxUnavailable?: IntOrString; maxSurge?: IntOrString } | null };
  persistentVolumeClaimRetentionPolicy?: { whenDeleted?: string; whenScaled?: string } | null;
  volumeClaimTemplates?: { metadata?: { name?: string }; spec?: Rec }[];
}

const specOf = (obj: KubeObject): SetSpec => (obj['spec'] ?? {}) as SetSpec;

/** validateStatefulSet is ValidateStatefulSet: the metadata (ValidateStatefulSetName, a DNS label), then the spec. */
export function validateStatefulSet(set: KubeObject): FieldError[] {
  return [...validateObjectMeta(set, true, nameIsDNSLabel), ...validateStatefulSetSpec(specOf(set), 'spec')];
}

/** validateDaemonSet is ValidateDaemonSet: the metadata (ValidateDaemonSetName, a DNS subdomain), then the spec. */
export function validateDaemonSet(set: KubeObject): FieldError[] {
  return [...validateObjectMeta(set, true, nameIsDNSSubdomain), ...validateDaemonSetSpec(specOf(set), 'spec')];
}

/**
 * validateStatefulSetSpec is ValidateStatefulSetSpec with the create options (serviceName checked, volume claim
 * templates and pod template validated), in its order.
 */
function validateStatefulSetSpec(s: SetSpec, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const policy = s.podManagementPolicy ?? '';
  if (policy === '') errs.push(required(child(path, 'podManagementPolicy')));
  else if (policy !== 'OrderedReady' && policy !== 'Parallel') errs.push(invalidValue(child(path, 'podManagementPolicy'), policy, "must be 'OrderedReady' or 'Parallel'"));
  errs.push(...validateStatefulSetStrategy(s.updateStrategy ?? {}, child(path, 'updateStrategy')));
  const retention = s.persistentVolumeClaimRetentionPolicy;
  if (retention) {
    for (const field of ['whenDeleted', 'whenScaled'] as const) {
      const value = retention[field] ?? '';
      if (value !== 'Retain' && value !== 'Delete') errs.push(notSupported(child(child(path, 'persistentVolumeClaimRetentionPolicy'), field), asJSON(value), ['Retain', 'Delete']));
    }
  }
  (s.volumeClaimTemplates ?? []).forEach((claim, i) => errs.push(...validateClaimTemplateSpec(claim.spec ?? {}, child(index(child(path, 'volumeClaimTemplates'), i), 'spec'))));
  errs.push(...nonNegative(s.replicas ?? 0, child(path, 'replicas')), ...nonNegative(s.minReadySeconds ?? 0, child(path, 'minReadySeconds')));
  if (s.ordinals) errs.push(...nonNegative(s.ordinals.start ?? 0, child(path, 'ordinals.start')));
  if (s.serviceName) errs.push(...isDNS1123Label(s.serviceName).map((msg) => invalidValue(child(path, 'serviceName'), s.serviceName, msg)));
  errs.push(...validateRequiredSelector(s.selector, child(path, 'selector'), 'statefulset'));
  const selector = parse(s.selector);
  const template = s.template ?? {};
  if (selector instanceof SelectorError) errs.push(invalidShown(child(path, 'selector'), labelSelectorJSON(s.selector!), ''));
  else errs.push(...validatePodTemplateSpecForStatefulSet(templateToValidate(s), selector, child(path, 'template')));
  errs.push(...validateTemplateRestart(template, child(path, 'template'), 'StatefulSet'));
  return errs;
}

/**
 * templateToValidate is the template as ValidateStatefulSetSpec checks it: without hostname and subdomain (the
 * controller sets them), and with a volume for each claim template, named by it, ahead of the template's other
 * volumes (the template's own volume of that name is replaced), so a mount of a claim template is found.
 */
function templateToValidate(s: SetSpec): PodTemplateSpec {
  const template = s.template ?? {};
  const claims = s.volumeClaimTemplates ?? [];
  const spec = { ...(template.spec ?? {}) } as PodSpec & Rec;
  if (!spec['subdomain'] && !spec['hostname'] && claims.length === 0) return template;
  delete spec['subdomain'];
  delete spec['hostname'];
  if (claims.length > 0) {
    const names = claims.map((c) => c.metadata?.name ?? '');
    const added = [...new Set(names)].map((name) => ({ name, persistentVolumeClaim: { claimName: name } }));
    spec.volumes = [...added, ...(spec.volumes ?? []).filter((v) => !names.includes(v.name))] as PodSpec['volumes'];
  }
  return { ...template, spec };
}

/**
 * validatePodTemplateSpecForStatefulSet is ValidatePodTemplateSpecForStatefulSet: the selector (unless empty) must
 * match the template's labels; then ValidatePodTemplateSpec and, again, the template's labels, annotations and
 * pod-specific annotations (the list keeps both, the message says each once).
 */
function validatePodTemplateSpecForStatefulSet(template: PodTemplateSpec, selector: Selector, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const labels = template.metadata?.labels;
  const empty = !selector.nothing && selector.requirements.length === 0;
  if (!empty && !selectorMatches(selector, labels ?? {})) errs.push(invalidShown(child(child(path, 'metadata'), 'labels'), goJSONMap(labels), '`selector` does not match template `labels`'));
  errs.push(...validatePodTemplateSpec(template, path));
  errs.push(...validateLabels(labels, child(path, 'labels')), ...validateAnnotations(template.metadata?.annotations, child(path, 'annotations')));
  errs.push(...validatePodAnnotations(template.metadata?.annotations, (template.spec ?? {}) as PodSpec, child(path, 'annotations')));
  return errs;
}

/**
 * validateStatefulSetStrategy is ValidateStatefulSetSpec's updateStrategy switch and validateRollingUpdateStatefulSet
 * (maxUnavailable is dropped on create while MaxUnavailableStatefulSet is off, so only the partition is left).
 */
function validateStatefulSetStrategy(strategy: NonNullable<SetSpec['updateStrategy']>, path: string): FieldError[] {
  const ru = strategy.rollingUpdate;
  const shown = (r: typeof ru) => (r ? { Partition: r.partition ?? 0, MaxUnavailable: r.maxUnavailable ?? null } : null);
  switch (strategy.type ?? '') {
    case '':
      return [required(path)];
    case 'OnDelete':
      return ru ? [invalidValue(child(path, 'rollingUpdate'), asJSON(shown(ru)), "only allowed for updateStrategy 'RollingUpdate'")] : [];
    case 'RollingUpdate': {
      if (!ru) return [];
      const at = child(path, 'rollingUpdate');
      const errs = nonNegative(ru.partition ?? 0, child(at, 'partition'));
      if (ru.maxUnavailable !== undefined && ru.maxUnavailable !== null) {
        errs.push(...validatePositiveIntOrPercent(ru.maxUnavailable, child(at, 'maxUnavailable')));
        if (intOrPercentValue(ru.maxUnavailable) === 0) errs.push(invalidValue(child(at, 'maxUnavailable'), asJSON(ru.maxUnavailable), 'cannot be 0'));
        errs.push(...isNotMoreThan100Percent(ru.maxUnavailable, child(at, 'maxUnavailable')));
      }
      return errs;
    }
    default:
      return [invalidValue(path, asJSON({ Type: strategy.type, RollingUpdate: shown(ru) }), "must be 'RollingUpdate' or 'OnDelete'")];
  }
}

/**
 * validateDaemonSetSpec is ValidateDaemonSetSpec, in its order: the selector (a nil one is not required here, but it
 * matches no template), the template, restartPolicy, activeDeadlineSeconds, minReadySeconds, the update strategy and
 * revisionHistoryLimit.
 */
function validateDaemonSetSpec(s: SetSpec, path: string): FieldError[] {
  const errs = validateLabelSelector(s.selector, child(path, 'selector'));
  const template = s.template ?? {};
  const selector = parse(s.selector);
  if (!(selector instanceof SelectorError) && !selectorMatches(selector, template.metadata?.labels ?? {})) {
    errs.push(invalidShown(`${path}.template.metadata.labels`, goJSONMap(template.metadata?.labels), '`selector` does not match template `labels`'));
  }
  if (s.selector && Object.keys(s.selector.matchLabels ?? {}).length + (s.selector.matchExpressions ?? []).length === 0) {
    errs.push(invalidShown(child(path, 'selector'), labelSelectorJSON(s.selector), 'empty selector is invalid for daemonset'));
  }
  errs.push(...validatePodTemplateSpec(template, child(path, 'template')), ...validateTemplateRestart(template, child(path, 'template'), 'DaemonSet'));
  errs.push(...nonNegative(s.minReadySeconds ?? 0, child(path, 'minReadySeconds')));
  errs.push(...validateDaemonSetStrategy(s.updateStrategy ?? {}, child(path, 'updateStrategy')));
  // Zero is a valid revisionHistoryLimit.
  if (s.revisionHistoryLimit !== undefined && s.revisionHistoryLimit !== null) errs.push(...nonNegative(s.revisionHistoryLimit, child(path, 'revisionHistoryLimit')));
  return errs;
}

/** validateDaemonSetStrategy is ValidateDaemonSetUpdateStrategy and ValidateRollingUpdateDaemonSet. */
function validateDaemonSetStrategy(strategy: NonNullable<SetSpec['updateStrategy']>, path: string): FieldError[] {
  const ru = strategy.rollingUpdate;
  switch (strategy.type) {
    case 'OnDelete':
      return [];
    case 'RollingUpdate': {
      if (!ru) return [required(child(path, 'rollingUpdate'))];
      const at = child(path, 'rollingUpdate');
      const maxUnavailable = ru.maxUnavailable ?? 0;
      const maxSurge = ru.maxSurge ?? 0;
      const errs = [
        ...validatePositiveIntOrPercent(maxUnavailable, child(at, 'maxUnavailable')), ...validatePositiveIntOrPercent(maxSurge, child(at, 'maxSurge')),
        ...isNotMoreThan100Percent(maxUnavailable, child(at, 'maxUnavailable')), ...isNotMoreThan100Percent(maxSurge, child(at, 'maxSurge')),
      ];
      const hasUnavailable = intOrPercentValue(maxUnavailable) !== 0;
      const hasSurge = intOrPercentValue(maxSurge) !== 0;
      if (hasUnavailable && hasSurge) errs.push(invalidValue(child(at, 'maxSurge'), asJSON(maxSurge), 'may not be set when maxUnavailable is non-zero'));
      if (!hasUnavailable && !hasSurge) errs.push(required(child(at, 'maxUnavailable'), 'cannot be 0 when maxSurge is 0'));
      return errs;
    }
    default: {
      const shown = { Type: strategy.type ?? '', RollingUpdate: ru ? { MaxUnavailable: ru.maxUnavailable ?? 0, MaxSurge: ru.maxSurge ?? 0 } : null };
      return [notSupported(path, asJSON(shown), ['RollingUpdate', 'OnDelete'])];
    }
  }
}

/** validateRequiredSelector: a required, strictly valid, non-empty selector (`empty selector is invalid for <kind>`). */
function validateRequiredSelector(selector: LabelSelector | null | undefined, path: string, kind: string): FieldError[] {
  if (!selector) return [required(path)];
  const errs = validateLabelSelector(selector, path);
  if (Object.keys(selector.matchLabels ?? {}).length + (selector.matchExpressions ?? []).length === 0) {
    errs.push(invalidShown(path, labelSelectorJSON(selector), `empty selector is invalid for ${kind}`));
  }
  return errs;
}

/** parse is metav1.LabelSelectorAsSelector, its error returned: nil is Nothing. */
function parse(selector: LabelSelector | null | undefined): Selector | SelectorError {
  try {
    return labelSelectorAsSelector(selector);
  } catch (err) {
    if (err instanceof SelectorError) return err;
    throw err;
  }
}

/** validateTemplateRestart: restartPolicy Always (a RestartPolicy prints as JSON) and no activeDeadlineSeconds. */
function validateTemplateRestart(template: PodTemplateSpec, path: string, kind: string): FieldError[] {
  const spec: Partial<PodSpec> = template.spec ?? {};
  const errs: FieldError[] = [];
  if (spec.restartPolicy !== 'Always') errs.push(notSupported(`${path}.spec.restartPolicy`, asJSON(spec.restartPolicy ?? ''), ['Always']));
  if (spec.activeDeadlineSeconds !== undefined && spec.activeDeadlineSeconds !== null) {
    errs.push(forbidden(`${path}.spec.activeDeadlineSeconds`, `activeDeadlineSeconds in ${kind} is not Supported`));
  }
  return errs;
}
