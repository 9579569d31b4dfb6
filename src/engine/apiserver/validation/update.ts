// Validation on update, by kind: the registry strategy's ValidateUpdate, which adds the immutable fields to the
// create rules. See pkg/registry/apps/deployment/strategy.go, pkg/registry/apps/replicaset/strategy.go,
// pkg/apis/apps/validation/validation.go (ValidateStatefulSetUpdate, ValidateDaemonSetSpecUpdate),
// pkg/registry/batch/job/strategy.go and pkg/apis/batch/validation/validation.go (ValidateJobSpecUpdate).
import { jsonEqual } from '../../api/json-equal';
import type { KubeObject, LabelSelector } from '../../api/types';
import { validateValidatingAdmissionPolicyUpdate } from './admission-policy';
import { labelSelectorJSON } from './apps';
import { validateControllerRevisionUpdate } from './controller-revision';
import { validateEndpointSliceUpdate } from './endpoint-slice';
import { asJSON, FIELD_IMMUTABLE, type FieldError, forbidden, invalidValue } from './field-errors';
import { invalidShown } from './metadata';
import { validateObject } from './index';
import { validateBindingUpdate } from './rbac';
import { validateRuntimeClassUpdate } from './runtime-class';
import { validateCSIStorageCapacityForUpdate, validateCSIStorageCapacityUpdate, validateVolumeAttachmentUpdate } from './storage-attachment';
import { validateCSIDriverUpdate, validateCSINodeUpdate } from './storage-csi';
import { validateWebhookConfigurationUpdate } from './webhook-configuration';

/**
 * validateObjectOnUpdate is the part of the strategy's ValidateUpdate that repeats the create rules: validateObject,
 * but for the kinds whose update relaxes them by what the old object holds: the webhook configurations
 * (ValidateValidatingWebhookConfigurationUpdate, ValidateMutatingWebhookConfigurationUpdate), ValidatingAdmissionPolicy
 * (ValidateValidatingAdmissionPolicyUpdate: unchanged match conditions) and CSIStorageCapacity
 * (its old topology's invalid label values). See pkg/apis/admissionregistration/validation/validation.go and
 * pkg/registry/storage/csistoragecapacity/strategy.go (v1.36.3).
 */
export function validateObjectOnUpdate(next: KubeObject, old: KubeObject): FieldError[] {
  switch (next.kind) {
    case 'ValidatingWebhookConfiguration':
    case 'MutatingWebhookConfiguration':
      return validateWebhookConfigurationUpdate(next, old);
    case 'ValidatingAdmissionPolicy':
      return validateValidatingAdmissionPolicyUpdate(next, old);
    case 'CSIStorageCapacity':
      return validateCSIStorageCapacityForUpdate(next, old);
    default:
      return validateObject(next);
  }
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

type Spec = { selector?: LabelSelector; template?: unknown; completions?: number; completionMode?: string; podFailurePolicy?: unknown };

/**
 * validateUpdate is the update-only part of ValidateUpdate: apps/v1 Deployments, ReplicaSets and DaemonSets may not
 * change their selector (ValidateImmutableField in the strategies' ValidateUpdate), a StatefulSet only the fields
 * STATEFULSET_MUTABLE lists; a Job may change neither its selector,
 * its pod template, its completions (outside the Indexed elastic case) nor its completionMode; a RoleBinding or
 * ClusterRoleBinding may not change its roleRef, a RuntimeClass its handler (rbac.ts, runtime-class.ts), an EndpointSlice its
 * addressType, a ControllerRevision its data (endpoint-slice.ts, controller-revision.ts); a CSIDriver its
 * attachRequired and volumeLifecycleModes, a CSINode its drivers but for their allocatable, a VolumeAttachment its
 * spec, a CSIStorageCapacity its nodeTopology and storageClassName (storage-csi.ts, storage-attachment.ts). Endpoints
 * and core/v1 Events have no update-only rule (ValidateEndpointsUpdate, ValidateEventUpdate at v1).
 */
export function validateUpdate(next: KubeObject, old: KubeObject): FieldError[] {
  const n = (next['spec'] ?? {}) as Spec;
  const o = (old['spec'] ?? {}) as Spec;
  const errs: FieldError[] = [];
  switch (next.kind) {
    case 'Deployment':
    case 'ReplicaSet':
      if (!same(n.selector, o.selector)) errs.push(invalidShown('spec.selector', labelSelectorJSON(n.selector ?? {}), FIELD_IMMUTABLE));
      return errs;
    case 'Job':
      // ValidateJobSpecUpdate: the selector first, then the template, then completions and completionMode.
      if (!same(n.selector, o.selector)) errs.push(invalidShown('spec.selector', labelSelectorJSON(n.selector ?? {}), FIELD_IMMUTABLE));
      if (!same(n.template, o.template)) errs.push(invalidValue('spec.template', asJSON(n.template), FIELD_IMMUTABLE));
      // Elastic Indexed Jobs may change completions together with parallelism (pkg/apis/batch/validation).
      if (!same(n.completions, o.completions) && n.completionMode !== 'Indexed') errs.push(invalidValue('spec.completions', n.completions ?? null, FIELD_IMMUTABLE));
      if (!same(n.completionMode, o.completionMode)) errs.push(invalidValue('spec.completionMode', n.completionMode ?? null, FIELD_IMMUTABLE));
      return errs;
    case 'DaemonSet':
      // ValidateDaemonSetSpecUpdate (pkg/apis/apps/validation/validation.go, v1.36.3): the selector is immutable.
      if (!same(sorted(n.selector), sorted(o.selector))) errs.push(invalidShown('spec.selector', labelSelectorJSON(n.selector ?? {}), FIELD_IMMUTABLE));
      return errs;
    case 'StatefulSet':
      return validateStatefulSetSpecUpdate(next['spec'] as Record<string, unknown> | undefined, old['spec'] as Record<string, unknown> | undefined);
    case 'RoleBinding':
    case 'ClusterRoleBinding':
      return validateBindingUpdate(next, old);
    case 'RuntimeClass':
      return validateRuntimeClassUpdate(next, old);
    case 'EndpointSlice':
      return validateEndpointSliceUpdate(next, old);
    case 'ControllerRevision':
      return validateControllerRevisionUpdate(next, old);
    case 'CSIDriver':
      return validateCSIDriverUpdate(next, old);
    case 'CSINode':
      return validateCSINodeUpdate(next, old);
    case 'VolumeAttachment':
      return validateVolumeAttachmentUpdate(next, old);
    case 'CSIStorageCapacity':
      return validateCSIStorageCapacityUpdate(next, old);
    case 'Pod':
      return validatePodSpecUpdate(next['spec'] as PodSpecLike | undefined, old['spec'] as PodSpecLike | undefined);
    default:
      return errs;
  }
}

/** UNCHANGED_LENIENT are the kinds whose validation forgives a list left as it was: the field and its errors' prefix. */
const UNCHANGED_LENIENT: Readonly<Record<string, string>> = { Endpoints: 'subsets', EndpointSlice: 'endpoints' };

/**
 * withoutUnchangedErrors is the update leniency of ValidateEndpoints and ValidateEndpointSlice (given an old object):
 * when the subsets (an EndpointSlice's endpoints) are semantically as they were, their errors are dropped, "since
 * apparently older versions of Kubernetes considered the data valid". An empty list and none are equal, as
 * apiequality.Semantic has them. See pkg/apis/core/validation/validation.go and pkg/apis/discovery/validation/
 * validation.go (v1.36.3).
 */
export function withoutUnchangedErrors(errors: FieldError[], next: KubeObject, old: KubeObject): FieldError[] {
  const field = UNCHANGED_LENIENT[next.kind ?? ''];
  if (!field || !errors.some((e) => isUnder(e.field, field))) return errors;
  const value = (o: KubeObject): unknown => (Array.isArray(o[field]) && (o[field] as unknown[]).length === 0 ? null : o[field] ?? null);
  return jsonEqual(value(next), value(old)) ? errors.filter((e) => !isUnder(e.field, field)) : errors;
}

const isUnder = (path: string, field: string): boolean => path === field || path.startsWith(`${field}[`) || path.startsWith(`${field}.`);

type ContainerLike = { image?: string };
type PodSpecLike = {
  containers?: ContainerLike[]; initContainers?: ContainerLike[]; activeDeadlineSeconds?: number; tolerations?: unknown[];
  terminationGracePeriodSeconds?: number; schedulingGates?: unknown[];
};

/**
 * POD_UPDATE_FORBIDDEN is the first line of ValidatePodUpdate's error (pkg/apis/core/validation/validation.go). The API
 * server follows it with a cmp.Diff of the internal core.PodSpec, which is not reproduced here.
 */
export const POD_UPDATE_FORBIDDEN = 'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

/**
 * validatePodSpecUpdate is ValidatePodUpdate's spec rule: the new spec with the mutable fields taken back from the old
 * one (images, activeDeadlineSeconds, added tolerations, a negative grace period made 1, removed scheduling gates)
 * must equal the old spec.
 */
function validatePodSpecUpdate(next: PodSpecLike | undefined, old: PodSpecLike | undefined): FieldError[] {
  const n = JSON.parse(JSON.stringify(next ?? {})) as PodSpecLike;
  const o = old ?? {};
  const images = (list: ContainerLike[] | undefined, from: ContainerLike[] | undefined) => {
    if (list && from && list.length === from.length) list.forEach((c, i) => { c.image = from[i]!.image; });
  };
  images(n.containers, o.containers);
  images(n.initContainers, o.initContainers);
  if (o.activeDeadlineSeconds === undefined ? n.activeDeadlineSeconds !== undefined : n.activeDeadlineSeconds !== undefined && n.activeDeadlineSeconds <= o.activeDeadlineSeconds) {
    n.activeDeadlineSeconds = o.activeDeadlineSeconds;
    if (o.activeDeadlineSeconds === undefined) delete n.activeDeadlineSeconds;
  }
  const olds = o.tolerations ?? [];
  if (olds.every((t) => (n.tolerations ?? []).some((x) => same(x, t)))) {
    n.tolerations = o.tolerations;
    if (o.tolerations === undefined) delete n.tolerations;
  }
  if ((o.terminationGracePeriodSeconds ?? 0) < 0 && n.terminationGracePeriodSeconds === 1) n.terminationGracePeriodSeconds = o.terminationGracePeriodSeconds;
  if ((n.schedulingGates ?? []).every((g) => (o.schedulingGates ?? []).some((x) => same(x, g)))) {
    n.schedulingGates = o.schedulingGates;
    if (o.schedulingGates === undefined) delete n.schedulingGates;
  }
  return same(sorted(n), sorted(o)) ? [] : [forbidden('spec', POD_UPDATE_FORBIDDEN)];
}

/** STATEFULSET_MUTABLE are the spec fields ValidateStatefulSetUpdate takes back from the old set before comparing. */
const STATEFULSET_MUTABLE = ['replicas', 'template', 'updateStrategy', 'minReadySeconds', 'ordinals', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy'];

/**
 * validateStatefulSetSpecUpdate is ValidateStatefulSetUpdate's spec rule: the new spec with its mutable fields taken
 * back from the old one must equal the old spec. See pkg/apis/apps/validation/validation.go (v1.36.3).
 */
function validateStatefulSetSpecUpdate(next: Record<string, unknown> | undefined, old: Record<string, unknown> | undefined): FieldError[] {
  const n: Record<string, unknown> = { ...(next ?? {}) };
  const o = old ?? {};
  for (const field of STATEFULSET_MUTABLE) {
    if (field in o) n[field] = o[field];
    else delete n[field];
  }
  return same(sorted(n), sorted(o)) ? [] : [forbidden('spec', STATEFULSET_UPDATE_FORBIDDEN)];
}

/** STATEFULSET_UPDATE_FORBIDDEN is ValidateStatefulSetUpdate's message. */
export const STATEFULSET_UPDATE_FORBIDDEN = "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden";

function sorted(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sorted);
  if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted((v as Record<string, unknown>)[k])]));
  return v;
}
