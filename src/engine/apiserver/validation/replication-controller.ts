// ReplicationController validation on create: ValidateReplicationController and ValidateReplicationControllerSpec of
// pkg/apis/core/validation/validation.go (kubernetes v1.36.3). The strategy passes no declarative-enforcement option
// (pkg/registry/core/replicationcontroller/strategy.go), so these hand-written errors are the ones returned.
import type { ReplicationController } from '../../api/replication-controller';
import type { KubeObject, PodTemplateSpec } from '../../api/types';
import { validateReplicaTemplate } from './apps';
import { type FieldError, required } from './field-errors';
import { goJSONMap, invalidShown, nonNegative, validateObjectMetaWithOpts } from './metadata';
import { nameIsDNSSubdomain } from './names';

type RCSpec = NonNullable<ReplicationController['spec']>;

/**
 * validateReplicationController is ValidateReplicationController: the metadata by ValidateObjectMetaWithOpts with
 * validate.LongName (a DNS subdomain; generateName itself unchecked), then the spec.
 */
export function validateReplicationController(rc: KubeObject): FieldError[] {
  return [...validateObjectMetaWithOpts(rc, true, nameIsDNSSubdomain), ...validateReplicationControllerSpec(rc['spec'] as RCSpec | undefined, 'spec')];
}

/**
 * validateReplicationControllerSpec is ValidateReplicationControllerSpec, in its order: minReadySeconds, a non-empty
 * selector (ValidateNonEmptySelector: `Required value`), replicas (required, not negative), then the template.
 */
export function validateReplicationControllerSpec(spec: RCSpec | undefined, path: string): FieldError[] {
  const s: Partial<RCSpec> = spec ?? {};
  const selector = s.selector ?? {};
  const errs = [...nonNegative(s.minReadySeconds ?? 0, `${path}.minReadySeconds`)];
  if (Object.keys(selector).length === 0) errs.push(required(`${path}.selector`));
  if (s.replicas === undefined || s.replicas === null) errs.push(required(`${path}.replicas`));
  else errs.push(...nonNegative(s.replicas, `${path}.replicas`));
  return [...errs, ...validatePodTemplateSpecForRC(s.template, selector, `${path}.template`)];
}

/**
 * validatePodTemplateSpecForRC is ValidatePodTemplateSpecForRC: a template is required; a non-empty selector
 * (labels.Set(selector).AsSelector(): every key equal to its value) must match the template's labels, shown as the
 * JSON of the labels map; then the template rules every replicated template has.
 */
function validatePodTemplateSpecForRC(template: PodTemplateSpec | null | undefined, selector: Readonly<Record<string, string>>, path: string): FieldError[] {
  if (template === undefined || template === null) return [required(path)];
  const errs: FieldError[] = [];
  const labels = template.metadata?.labels;
  const entries = Object.entries(selector);
  if (entries.length > 0 && !entries.every(([k, v]) => labels !== undefined && labels !== null && Object.hasOwn(labels, k) && labels[k] === v)) {
    errs.push(invalidShown(`${path}.metadata.labels`, goJSONMap(labels), '`selector` does not match template `labels`'));
  }
  return [...errs, ...validateReplicaTemplate(template, path, 'ReplicationController')];
}
