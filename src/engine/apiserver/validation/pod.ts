// Pod validation on create: ValidatePodCreate and ValidatePodSpec of pkg/apis/core/validation/validation.go, in the
// order Kubernetes appends the errors. The rules of each part live in the pod-*.ts files beside this one.
import type { ObjectMeta, Pod, PodSpec, PodTemplateSpec } from '../../api/types';
import { asJSON, child, type FieldError, forbidden, index, invalidValue, notSupported, required } from './field-errors';
import { validateObjectMeta } from './metadata';
import { inclusiveRangeError, isDNS1123Label, nameIsDNSSubdomain } from './names';
import { type ContainerContext, validateContainerOnlyForPod, validateContainers, validateEphemeralContainers, validateInitContainers } from './pod-containers';
import { validateDNSPolicy, validateHostAliases, validatePodDNSConfig, validatePodHostName } from './pod-dns';
import { validateFileKeyRefVolumes } from './pod-env';
import { validateLabels } from './pod-label-selectors';
import { validateOverhead, gatherPodResourceClaimNames, validatePodResourceClaims, validatePodResources } from './pod-resources';
import { validateAffinity, validateReadinessGates, validateSchedulingGates, validateTolerations, validateTopologySpreadConstraints } from './pod-scheduling';
import { validateHostUsers, validatePodSecurityContext } from './pod-security-context';
import { validatePodAnnotations, validateSeccompAndAppArmorMatch, validateTemplateLabelsAndAnnotations } from './pod-annotations';
import type { Container136, PodResourceClaim136, PodSpec136, PodValidationOptions, Volume136 } from './pod-types';
import { validateVolumes } from './pod-volumes';
import { validateOS, validateWindowsHostProcessPod } from './pod-windows';

const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];
const PREEMPTION_POLICIES = ['PreemptLowerPriority', 'Never'];
const MAX_INT32 = 2147483647;

/**
 * validatePod checks a Pod on create: ValidatePodCreate with the options the pod strategy passes (ResourceIsPod).
 * See pkg/registry/core/pod/strategy.go (Validate) and validation.go (ValidatePodCreate, validatePodMetadataAndSpec).
 */
export function validatePod(pod: Pod): FieldError[] {
  const meta = pod.metadata ?? {};
  const spec = (pod.spec ?? {}) as PodSpec136;
  const opts: PodValidationOptions = { resourceIsPod: true, podMeta: meta };
  const errs = [...validateObjectMeta(pod, true), ...validatePodAnnotations(meta.annotations, spec, child('metadata', 'annotations'))];
  errs.push(...validatePodSpec(spec, 'spec', opts));
  // Why: only pods (not templates) get these, to keep old templates valid (validatePodMetadataAndSpec).
  if (!(spec.serviceAccountName || spec.serviceAccount)) errs.push(...projectedTokensWithoutServiceAccount(spec.volumes as Volume136[] | undefined));
  (spec.containers ?? []).forEach((c, i) => errs.push(...validateContainerOnlyForPod(c as Container136, index('spec.containers', i))));
  (spec.initContainers ?? []).forEach((c, i) => errs.push(...validateContainerOnlyForPod(c as Container136, index('spec.initContainers', i))));
  // ValidatePodCreate's own checks.
  if ((spec.ephemeralContainers ?? []).length > 0) errs.push(forbidden('spec.ephemeralContainers', 'cannot be set on create'));
  if (spec.nodeName && (spec.schedulingGates ?? []).length > 0) errs.push(forbidden('spec.nodeName', 'cannot be set until all schedulingGates have been cleared'));
  errs.push(...validateSeccompAndAppArmorMatch(meta, spec, 'spec'));
  return errs;
}

/**
 * validatePodTemplateSpec is ValidatePodTemplateSpec, for the template of a workload at `path` (`spec.template`):
 * labels, annotations, the spec, the seccomp and AppArmor annotations, and no ephemeral containers.
 */
export function validatePodTemplateSpec(template: PodTemplateSpec, path: string): FieldError[] {
  const meta: ObjectMeta = template.metadata ?? {};
  const spec = (template.spec ?? {}) as PodSpec136;
  const errs = validateTemplateLabelsAndAnnotations(meta, spec, path);
  errs.push(...validatePodSpec(spec, child(path, 'spec')));
  errs.push(...validateSeccompAndAppArmorMatch(meta, spec, child(path, 'spec')));
  if ((spec.ephemeralContainers ?? []).length > 0) errs.push(forbidden(child(path, 'spec', 'ephemeralContainers'), 'ephemeral containers not allowed in pod template'));
  return errs;
}

/**
 * validatePodSpec is ValidatePodSpec for a pod spec at a field path (`spec`, or `spec.template.spec` in a workload,
 * where the options default to a template's).
 */
export function validatePodSpec(spec: PodSpec, path: string, opts: PodValidationOptions = { resourceIsPod: false }): FieldError[] {
  const s = spec as PodSpec136;
  const errs: FieldError[] = [];
  const gracePeriod = s.terminationGracePeriodSeconds ?? undefined;
  if (gracePeriod === undefined) errs.push(required(child(path, 'terminationGracePeriodSeconds')));
  const { volumes, errors } = validateVolumes(s.volumes as Volume136[] | undefined, opts.podMeta, child(path, 'volumes'), opts);
  errs.push(...errors);
  const claims = s.resourceClaims as PodResourceClaim136[] | undefined;
  const ctx: ContainerContext = {
    volumes, podClaimNames: gatherPodResourceClaimNames(claims), gracePeriod, podRestartPolicy: s.restartPolicy ?? '', hostUsers: s.hostUsers !== false,
  };
  errs.push(...validatePodResourceClaims(claims, child(path, 'resourceClaims')));
  const containers = s.containers as Container136[] | undefined;
  const inits = s.initContainers as Container136[] | undefined;
  errs.push(...validateContainers(containers, ctx, child(path, 'containers')));
  errs.push(...validateInitContainers(inits, containers, ctx, child(path, 'initContainers')));
  errs.push(...validateEphemeralContainers(s.ephemeralContainers, containers, inits, ctx, child(path, 'ephemeralContainers')));
  errs.push(...validatePodResources(s, ctx.podClaimNames, child(path, 'resources')));
  errs.push(...validateHostNetworkDeps(s, path, opts));
  errs.push(...validateRestartPolicy(s.restartPolicy, child(path, 'restartPolicy')));
  errs.push(...validateDNSPolicy(s.dnsPolicy, child(path, 'dnsPolicy')));
  errs.push(...validateLabels(s.nodeSelector, child(path, 'nodeSelector')));
  errs.push(...validatePodSecurityContext(s, child(path, 'securityContext')));
  errs.push(...validateAffinity(s.affinity, child(path, 'affinity')));
  errs.push(...validatePodDNSConfig(s.dnsConfig, s.dnsPolicy, child(path, 'dnsConfig')));
  errs.push(...validateReadinessGates(s.readinessGates, child(path, 'readinessGates')));
  errs.push(...validateSchedulingGates(s.schedulingGates, child(path, 'schedulingGates')));
  errs.push(...validateTopologySpreadConstraints(s.topologySpreadConstraints, child(path, 'topologySpreadConstraints')));
  errs.push(...validateWindowsHostProcessPod(s, path));
  errs.push(...validateHostUsers(s, path));
  errs.push(...validatePodHostName(s as Parameters<typeof validatePodHostName>[0], path));
  errs.push(...validateNames(s, path));
  if (s.activeDeadlineSeconds !== undefined && s.activeDeadlineSeconds !== null && (s.activeDeadlineSeconds < 1 || s.activeDeadlineSeconds > MAX_INT32)) {
    errs.push(invalidValue(child(path, 'activeDeadlineSeconds'), s.activeDeadlineSeconds, inclusiveRangeError(1, MAX_INT32)));
  }
  for (const field of ['hostname', 'subdomain'] as const) {
    const v = s[field];
    if (v) errs.push(...isDNS1123Label(v).map((msg) => invalidValue(child(path, field), v, msg)));
  }
  errs.push(...validateTolerations(s.tolerations, child(path, 'tolerations')));
  errs.push(...validateHostAliases(s.hostAliases, child(path, 'hostAliases')));
  errs.push(...validateClassNamesAndPolicies(s, path));
  if (s.overhead) errs.push(...validateOverhead(s.overhead as Record<string, unknown>, child(path, 'overhead')));
  errs.push(...validateOS(s, path));
  errs.push(...validateFileKeyRefVolumes(s as unknown as Parameters<typeof validateFileKeyRefVolumes>[0], path));
  return errs;
}

/** validateNames checks the service account name (the deprecated serviceAccount stands in when it is empty) and the node name. */
function validateNames(s: PodSpec136, path: string): FieldError[] {
  const errs: FieldError[] = [];
  // Why: Convert_v1_PodSpec_To_core_PodSpec reads serviceAccount when serviceAccountName is empty.
  const serviceAccountName = s.serviceAccountName || s.serviceAccount || '';
  if (serviceAccountName) errs.push(...nameIsDNSSubdomain(serviceAccountName, false).map((msg) => invalidValue(child(path, 'serviceAccountName'), serviceAccountName, msg)));
  if (s.nodeName) errs.push(...nameIsDNSSubdomain(s.nodeName, false).map((msg) => invalidValue(child(path, 'nodeName'), s.nodeName, msg)));
  return errs;
}

/** validateClassNamesAndPolicies checks priorityClassName, runtimeClassName (both DNS subdomains) and preemptionPolicy. */
function validateClassNamesAndPolicies(s: PodSpec136, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (s.priorityClassName) errs.push(...nameIsDNSSubdomain(s.priorityClassName, false).map((msg) => invalidValue(child(path, 'priorityClassName'), s.priorityClassName, msg)));
  if (s.runtimeClassName !== undefined && s.runtimeClassName !== null) {
    errs.push(...nameIsDNSSubdomain(s.runtimeClassName, false).map((msg) => invalidValue(child(path, 'runtimeClassName'), s.runtimeClassName, msg)));
  }
  const preemption = s.preemptionPolicy;
  if (preemption !== undefined && preemption !== null && !PREEMPTION_POLICIES.includes(preemption)) {
    errs.push(preemption === '' ? required(child(path, 'preemptionPolicy')) : notSupportedJSON(child(path, 'preemptionPolicy'), preemption, PREEMPTION_POLICIES));
  }
  return errs;
}

/** validateRestartPolicy is validateRestartPolicy: Always, OnFailure or Never. */
function validateRestartPolicy(policy: string | undefined, path: string): FieldError[] {
  const p = policy ?? '';
  if (RESTART_POLICIES.includes(p)) return [];
  return p === '' ? [required(path)] : [notSupportedJSON(path, p, RESTART_POLICIES)];
}

/**
 * validateHostNetworkDeps is validatePodHostNetworkDeps: with hostNetwork, a container's hostPort is its containerPort
 * (for a pod; a template may leave it 0 for the pod's defaulting to fill).
 */
function validateHostNetworkDeps(s: PodSpec136, path: string, opts: PodValidationOptions): FieldError[] {
  if (s.hostNetwork !== true) return [];
  const errs: FieldError[] = [];
  (s.containers ?? []).forEach((c, i) => {
    (c.ports ?? []).forEach((port, j) => {
      const hp = port.hostPort ?? 0;
      const cp = port.containerPort ?? 0;
      if ((opts.resourceIsPod || hp !== 0) && hp !== cp) {
        errs.push(invalidValue(child(index(child(index(child(path, 'containers'), i), 'ports'), j), 'hostPort'), hp, 'must match `containerPort` when `hostNetwork` is true'));
      }
    });
  });
  return errs;
}

/** projectedTokensWithoutServiceAccount forbids serviceAccountToken projections in a pod without a service account. */
function projectedTokensWithoutServiceAccount(volumes: Volume136[] | undefined): FieldError[] {
  const errs: FieldError[] = [];
  (volumes ?? []).forEach((v, vi) => {
    (v.projected?.sources ?? []).forEach((source, si) => {
      if (source.serviceAccountToken) {
        errs.push(forbidden(`spec.volumes[${vi}].projected.sources[${si}].serviceAccountToken`, 'must not be specified when serviceAccountName is not set'));
      }
    });
  });
  return errs;
}

/** notSupportedJSON is field.NotSupported of a named string type, printed JSON-quoted. */
function notSupportedJSON(path: string, value: string, allowed: string[]): FieldError {
  return notSupported(path, asJSON(value), allowed);
}
