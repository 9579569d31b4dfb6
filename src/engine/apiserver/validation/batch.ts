// Job validation on create: ValidateJob of pkg/apis/batch/validation/validation.go — the metadata, the generated
// selector's labels, then ValidateJobSpec (counts, completionMode, selector, the template and its restartPolicy).
import { labelSelectorAsSelector, SelectorError, selectorMatches } from '../../api/labels';
import type { KubeObject, LabelSelector } from '../../api/types';
import { asJSON, type FieldError, invalidValue, notSupported, required } from './field-errors';
import { goJSONMap, invalidShown, nameIsDNSSubdomain, nonNegative, validateObjectMeta } from './metadata';
import { validatePodTemplateSpec } from './pod';
import { validateLabelSelector } from './pod-label-selectors';
import { type JobPolicySpec, validateJobPolicies } from './batch-policies';

interface JobSpec extends JobPolicySpec {
  parallelism?: number;
  completions?: number | null;
  activeDeadlineSeconds?: number;
  backoffLimit?: number;
  ttlSecondsAfterFinished?: number;
  manualSelector?: boolean;
  selector?: LabelSelector;
}

/** validateJob is ValidateJob for a Job after defaulting and PrepareForCreate. */
export function validateJob(job: KubeObject): FieldError[] {
  const spec = (job['spec'] ?? {}) as JobSpec;
  const errs = validateObjectMeta(job, true, nameIsDNSSubdomain);
  errs.push(...validateGeneratedSelector(job, spec));
  errs.push(...validateJobSpec(spec, 'spec'));
  return errs;
}

/** validateGeneratedSelector: without manualSelector, the template must carry the generated labels (ValidateHasLabel). */
function validateGeneratedSelector(job: KubeObject, spec: JobSpec): FieldError[] {
  if (spec.manualSelector || !spec.template?.metadata?.labels) return [];
  const labels = spec.template.metadata.labels;
  const uid = job.metadata?.uid ?? '';
  const name = job.metadata?.name ?? '';
  const errs: FieldError[] = [];
  // ValidateHasLabel (pkg/apis/core/validation); its exact wording was not checked against the source.
  const has = (key: string, want: string) => {
    if (labels[key] === undefined) errs.push(required(`spec.template.metadata.labels[${key}]`, `must be '${want}'`));
    else if (labels[key] !== want) errs.push(invalidValue(`spec.template.metadata.labels[${key}]`, labels[key], `must be '${want}'`));
  };
  has('controller-uid', uid);
  has('job-name', name);
  has('batch.kubernetes.io/controller-uid', uid);
  has('batch.kubernetes.io/job-name', name);
  const matchLabels = spec.selector?.matchLabels ?? {};
  if (matchLabels['batch.kubernetes.io/controller-uid'] !== uid || (spec.selector?.matchExpressions ?? []).length > 0) {
    errs.push(invalidValue('spec.selector', asJSON(spec.selector ?? null), '`selector` not auto-generated'));
  }
  return errs;
}

function validateJobSpec(spec: JobSpec, path: string): FieldError[] {
  const errs = validateJobCounts(spec, path);
  errs.push(...validateJobSelector(spec, path));
  errs.push(...validateJobTemplate(spec, path));
  return errs;
}

/** JobTemplateSpec is a CronJob's spec.jobTemplate. */
export interface JobTemplateSpec {
  spec?: JobSpec;
}

/**
 * validateJobTemplateSpec is ValidateJobTemplateSpec: the Job spec without its selector (validateJobSpec), then no
 * selector and no manualSelector, which the Job made from it gets generated.
 */
export function validateJobTemplateSpec(template: JobTemplateSpec, path: string): FieldError[] {
  const spec = template.spec ?? {};
  const errs = [...validateJobCounts(spec, `${path}.spec`), ...validateJobTemplate(spec, `${path}.spec`)];
  if (spec.selector) errs.push(invalidValue(`${path}.spec.selector`, asJSON(spec.selector), '`selector` will be auto-generated'));
  if (spec.manualSelector) errs.push(notSupported(`${path}.spec.manualSelector`, true, ['nil', 'false']));
  return errs;
}

/** validateJobCounts: the counts, completionMode and the failure and success policies. */
function validateJobCounts(spec: JobSpec, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (spec.parallelism !== undefined) errs.push(...nonNegative(spec.parallelism, `${path}.parallelism`));
  if (spec.completions !== undefined && spec.completions !== null) errs.push(...nonNegative(spec.completions, `${path}.completions`));
  if (spec.activeDeadlineSeconds !== undefined && spec.activeDeadlineSeconds !== null) errs.push(...nonNegative(spec.activeDeadlineSeconds, `${path}.activeDeadlineSeconds`));
  if (spec.backoffLimit !== undefined && spec.backoffLimit !== null) errs.push(...nonNegative(spec.backoffLimit, `${path}.backoffLimit`));
  if (spec.ttlSecondsAfterFinished !== undefined && spec.ttlSecondsAfterFinished !== null) errs.push(...nonNegative(spec.ttlSecondsAfterFinished, `${path}.ttlSecondsAfterFinished`));
  if (spec.completionMode !== undefined && spec.completionMode !== 'NonIndexed' && spec.completionMode !== 'Indexed') {
    errs.push(notSupported(`${path}.completionMode`, asJSON(spec.completionMode), ['NonIndexed', 'Indexed']));
  }
  if (spec.completionMode === 'Indexed' && (spec.completions === undefined || spec.completions === null)) {
    errs.push(required(`${path}.completions`, 'when completion mode is Indexed'));
  }
  errs.push(...validateJobPolicies(spec, path));
  return errs;
}

/** validateJobSelector: ValidateJobSpec's selector, required and matching the template's labels. */
function validateJobSelector(spec: JobSpec, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!spec.selector) errs.push(required(`${path}.selector`));
  else errs.push(...validateLabelSelector(spec.selector, `${path}.selector`));
  // Whether manually or automatically generated, the selector must match the pods the Job makes.
  if (spec.selector) {
    try {
      const selector = labelSelectorAsSelector(spec.selector);
      const labels = spec.template?.metadata?.labels ?? {};
      if (!selectorMatches(selector, labels)) errs.push(invalidShown(`${path}.template.metadata.labels`, goJSONMap(labels), '`selector` does not match template `labels`'));
    } catch (err) {
      if (!(err instanceof SelectorError)) throw err;
    }
  }
  return errs;
}

/** validateJobTemplate: the pod template and its restartPolicy (OnFailure or Never; Never with a podFailurePolicy). */
function validateJobTemplate(spec: JobSpec, path: string): FieldError[] {
  const errs: FieldError[] = [];
  errs.push(...validatePodTemplateSpec(spec.template ?? {}, `${path}.template`));
  const restartPolicy = spec.template?.spec?.restartPolicy ?? '';
  // restartPolicy may have been defaulted to Always, so both Always and empty are "Required".
  if (restartPolicy === 'Always' || restartPolicy === '') errs.push(required(`${path}.template.spec.restartPolicy`, 'valid values: "OnFailure", "Never"'));
  else if (restartPolicy !== 'OnFailure' && restartPolicy !== 'Never') errs.push(notSupported(`${path}.template.spec.restartPolicy`, restartPolicy, ['OnFailure', 'Never']));
  else if (spec.podFailurePolicy && restartPolicy !== 'Never') {
    // validation.go validateJobSpec: field.Invalid(..., fmt.Sprintf("only %q is supported when podFailurePolicy is specified", RestartPolicyNever)).
    errs.push(invalidValue(`${path}.template.spec.restartPolicy`, restartPolicy, 'only "Never" is supported when podFailurePolicy is specified'));
  }
  return errs;
}
