// The annotations a pod's validation reads: mirror pods, tolerations, deletion cost, the deprecated seccomp and
// AppArmor annotations and their agreement with the fields. See pkg/apis/core/validation/validation.go
// (ValidatePodSpecificAnnotations, validateSeccompAnnotationsAndFields, validateAppArmorAnnotationsAndFieldsMatchOnCreate).
import type { PodSpec, Toleration } from 'kubernetes-types/core/v1';
import type { ObjectMeta } from 'kubernetes-types/meta/v1';
import { goQuote } from '../decode-go';
import { child, type FieldError, forbidden, invalidValue, key } from './field-errors';
import { validateAnnotations, validateLabels } from './metadata';
import { validateLocalDescendingPath } from './pod-paths';
import { validateTolerations } from './pod-scheduling';
import { visitContainersWithPath } from './pod-windows';

const MIRROR_POD = 'kubernetes.io/config.mirror';
const TOLERATIONS = 'scheduler.alpha.kubernetes.io/tolerations';
const DELETION_COST = 'controller.kubernetes.io/pod-deletion-cost';
const SECCOMP_POD = 'seccomp.security.alpha.kubernetes.io/pod';
const SECCOMP_CONTAINER_PREFIX = 'container.seccomp.security.alpha.kubernetes.io/';
const APPARMOR_CONTAINER_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';
const LOCALHOST_PREFIX = 'localhost/';
const RUNTIME_DEFAULT = 'runtime/default';
const DOCKER_DEFAULT = 'docker/default';
const UNCONFINED = 'unconfined';
const MIN_INT32 = -2147483648;
const MAX_INT32 = 2147483647;

type Annotations = Readonly<Record<string, string>> | undefined;

/** isDeletionCost is GetDeletionCostFromPodAnnotations succeeding: no '+', no leading zero, a 32-bit integer. */
function isDeletionCost(value: string): boolean {
  if (!/^(-[0-9]+|0|[1-9][0-9]*)$/.test(value)) return false;
  const n = Number(value);
  return Number.isInteger(n) && n >= MIN_INT32 && n <= MAX_INT32;
}

/** validateSeccompAnnotation is ValidateSeccompProfile of an annotation value. */
function validateSeccompAnnotation(profile: string, path: string): FieldError[] {
  if (profile === RUNTIME_DEFAULT || profile === DOCKER_DEFAULT || profile === UNCONFINED) return [];
  if (profile.startsWith(LOCALHOST_PREFIX)) return validateLocalDescendingPath(profile.slice(LOCALHOST_PREFIX.length), path);
  return [invalidValue(path, profile, 'must be a valid seccomp profile')];
}

function hasContainer(spec: PodSpec, name: string): boolean {
  let found = false;
  visitContainersWithPath(spec, 'spec', (c) => {
    if (c.name === name) found = true;
  });
  return found;
}

/**
 * validatePodAnnotations is ValidatePodSpecificAnnotations. Go walks the annotations in random order; this walks
 * them in the order written. A tolerations annotation that is not JSON is not reported here.
 */
export function validatePodAnnotations(annotations: Annotations, spec: PodSpec, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const a = annotations ?? {};
  if (Object.hasOwn(a, MIRROR_POD) && !spec.nodeName) errs.push(invalidValue(key(path, MIRROR_POD), a[MIRROR_POD], 'must set spec.nodeName if mirror pod annotation is set'));
  if (a[TOLERATIONS]) {
    try {
      const parsed: unknown = JSON.parse(a[TOLERATIONS]);
      if (Array.isArray(parsed)) errs.push(...validateTolerations(parsed as Toleration[], child(path, TOLERATIONS)));
    } catch {
      // Go reports encoding/json's own message, which is not modelled.
    }
  }
  if (Object.hasOwn(a, DELETION_COST) && !isDeletionCost(a[DELETION_COST]!)) {
    errs.push(invalidValue(key(path, DELETION_COST), a[DELETION_COST], 'must be a 32bit integer'));
  }
  if (Object.hasOwn(a, SECCOMP_POD)) errs.push(...validateSeccompAnnotation(a[SECCOMP_POD]!, child(path, SECCOMP_POD)));
  for (const [k, v] of Object.entries(a)) if (k.startsWith(SECCOMP_CONTAINER_PREFIX)) errs.push(...validateSeccompAnnotation(v, child(path, k)));
  for (const [k, v] of Object.entries(a)) {
    if (!k.startsWith(APPARMOR_CONTAINER_PREFIX)) continue;
    const containerName = k.slice(APPARMOR_CONTAINER_PREFIX.length);
    if (!hasContainer(spec, containerName)) errs.push(invalidValue(key(path, k), containerName, 'container not found'));
    if (v !== '' && v !== RUNTIME_DEFAULT && v !== UNCONFINED && !v.startsWith(LOCALHOST_PREFIX)) {
      errs.push(invalidValue(key(path, k), v, `invalid AppArmor profile name: ${goQuote(v)}`));
    }
  }
  return errs;
}

type ProfileField = { type?: string; localhostProfile?: string } | undefined;

/** seccompMismatch is validateSeccompAnnotationsAndFieldsMatch. */
function seccompMismatch(annotation: string, field: ProfileField, path: string): FieldError[] {
  switch (field?.type) {
    case 'Unconfined':
      return annotation === UNCONFINED ? [] : [forbidden(child(path, 'type'), 'seccomp type in annotation and field must match')];
    case 'RuntimeDefault':
      return annotation === RUNTIME_DEFAULT || annotation === DOCKER_DEFAULT ? [] : [forbidden(child(path, 'type'), 'seccomp type in annotation and field must match')];
    case 'Localhost':
      if (!annotation.startsWith(LOCALHOST_PREFIX)) return [forbidden(child(path, 'type'), 'seccomp type in annotation and field must match')];
      return field.localhostProfile === annotation.slice(LOCALHOST_PREFIX.length) ? [] : [forbidden(child(path, 'localhostProfile'), 'seccomp profile in annotation and field must match')];
    default:
      return [];
  }
}

/** appArmorMismatch is the comparison of validateAppArmorAnnotationsAndFieldsMatchOnCreate. */
function appArmorMismatch(annotation: string, profile: NonNullable<ProfileField>, path: string): FieldError[] {
  const typeError = [forbidden(child(path, 'type'), 'apparmor type in annotation and field must match')];
  switch (profile.type) {
    case 'Unconfined':
      return annotation === UNCONFINED ? [] : typeError;
    case 'RuntimeDefault':
      return annotation === RUNTIME_DEFAULT ? [] : typeError;
    case 'Localhost':
      if (!annotation.startsWith(LOCALHOST_PREFIX)) return typeError;
      return profile.localhostProfile === annotation.slice(LOCALHOST_PREFIX.length) ? [] : [forbidden(child(path, 'localhostProfile'), 'apparmor profile in annotation and field must match')];
    default:
      return [];
  }
}

/**
 * validateSeccompAndAppArmorMatch is validateSeccompAnnotationsAndFields then validateAppArmorAnnotationsAndFieldsMatchOnCreate:
 * where both a deprecated annotation and its field are set, they must agree.
 */
export function validateSeccompAndAppArmorMatch(meta: ObjectMeta, spec: PodSpec, specPath: string): FieldError[] {
  const errs: FieldError[] = [];
  const a: Readonly<Record<string, string>> = meta.annotations ?? {};
  const podSeccomp = spec.securityContext?.seccompProfile;
  if (podSeccomp && Object.hasOwn(a, SECCOMP_POD)) errs.push(...seccompMismatch(a[SECCOMP_POD]!, podSeccomp, child(specPath, 'securityContext', 'seccompProfile')));
  visitContainersWithPath(spec, specPath, (c, at) => {
    const field = c.securityContext?.seccompProfile;
    const k = `${SECCOMP_CONTAINER_PREFIX}${c.name ?? ''}`;
    if (field && Object.hasOwn(a, k)) errs.push(...seccompMismatch(a[k]!, field, child(at, 'securityContext', 'seccompProfile')));
  });
  if (spec.os?.name === 'windows') return errs;
  const podProfile = spec.securityContext?.appArmorProfile;
  visitContainersWithPath(spec, specPath, (c, at) => {
    const profile = c.securityContext?.appArmorProfile ?? podProfile;
    const k = `${APPARMOR_CONTAINER_PREFIX}${c.name ?? ''}`;
    if (profile && Object.hasOwn(a, k)) errs.push(...appArmorMismatch(a[k]!, profile, child(at, 'securityContext', 'appArmorProfile')));
  });
  return errs;
}

/**
 * validateTemplateLabelsAndAnnotations is the start of ValidatePodTemplateSpec: labels and annotations at the
 * template's own path (`spec.template.labels`), then the pod-specific annotations.
 */
export function validateTemplateLabelsAndAnnotations(meta: ObjectMeta, spec: PodSpec, path: string): FieldError[] {
  const errs = [...validateLabels(meta.labels, child(path, 'labels')), ...validateAnnotations(meta.annotations, child(path, 'annotations'))];
  errs.push(...validatePodAnnotations(meta.annotations, spec, child(path, 'annotations')));
  return errs;
}
