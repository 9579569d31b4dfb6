// The three kinds of request PodSecurity validates: namespaces (their labels), pods (enforced) and pod controllers
// (their templates, warned and audited). See staging/src/k8s.io/pod-security-admission/admission/admission.go.
import type { KubeObject, Namespace, ObjectMeta, Pod, PodSpec, PodTemplateSpec } from '../../../api/types';
import { isObject } from '../../../api/types';
import type { EngineContext } from '../../../context';
import { invalid } from '../../request';
import { type FieldError, toCauses } from '../../validation/field-errors';
import type { AdmissionAttributes } from '../plugin';
import type { PodSecurityConfiguration } from './config';
import {
  allowedResponse, evaluatePodPolicy, exemptResponse, internalError, type NamespacePolicy, type PodSecurityResponse, policyStrings,
} from './evaluate';
import {
  compareLevels, equivalentPolicy, fullyPrivileged, LEVEL_LABELS, type LevelVersion, levelVersionString, MODES,
  type Policy, podSecurityLabels, policyToEvaluate, sameLevelVersion, sameVersion, VERSION_LABELS,
} from './levels';
import { aggregateCheckResults, evaluatePod, forbiddenReason } from './registry';

/** POD_SPEC_RESOURCES are the resources whose objects hold a pod spec, by API group (admission.go defaultPodSpecResources). */
const POD_SPEC_RESOURCES: Readonly<Record<string, readonly string[]>> = {
  '': ['pods', 'replicationcontrollers', 'podtemplates'],
  apps: ['replicasets', 'deployments', 'statefulsets', 'daemonsets'],
  batch: ['jobs', 'cronjobs'],
};

/** hasPodSpec tells whether a resource may hold a pod spec (DefaultPodSpecExtractor.HasPodSpec). */
export function hasPodSpec(group: string, resource: string): boolean {
  return POD_SPEC_RESOURCES[group]?.includes(resource) ?? false;
}

/** IGNORED_POD_SUBRESOURCES are pod subresources that cannot change the pod spec; any other is evaluated (ignoredPodSubresources). */
const IGNORED_POD_SUBRESOURCES = new Set(['exec', 'attach', 'binding', 'eviction', 'log', 'portforward', 'proxy', 'status']);

/** NO_SPEC is the zero PodSpec a missing spec reads as. */
const NO_SPEC = { containers: [] } as PodSpec;

/** labelsOf reads an object's labels. */
function labelsOf(obj: { readonly metadata?: ObjectMeta } | undefined): Record<string, string> | undefined {
  return obj?.metadata?.labels;
}

/** resolvePolicy resolves a namespace's labels over the configured defaults (Admission.PolicyToEvaluate). */
function resolvePolicy(config: PodSecurityConfiguration, labels: Record<string, string> | undefined): NamespacePolicy {
  const { policy, errors } = policyToEvaluate(labels, config.defaults);
  return { policy, errors };
}

/** baseTrace is what every trace of the plugin starts with: the request kind, the namespace and the configuration. */
function baseTrace(request: string, a: AdmissionAttributes, config: PodSecurityConfiguration): Record<string, unknown> {
  return { request, namespace: a.namespace, user: a.user.name, configuration: config.source ?? 'built-in default (privileged:latest in every mode)' };
}

/** nsTrace adds a namespace's labels, resolved policy and label errors to a trace. */
function nsTrace(trace: Record<string, unknown>, labels: Record<string, string> | undefined, ns: NamespacePolicy): Record<string, unknown> {
  return {
    ...trace, labels: podSecurityLabels(labels), policy: policyStrings(ns.policy),
    ...(ns.errors.length ? { policyErrors: ns.errors.map((e) => `${e.field}: ${e.body}`) } : {}),
  };
}

/** exemptNamespace looks a namespace up in the exemptions; the empty namespace is never exempt. */
function exemptNamespace(config: PodSecurityConfiguration, namespace: string): boolean {
  return namespace !== '' && config.exemptions.namespaces.includes(namespace);
}

/** exemptUser looks a user name up in the exemptions; the empty name is never exempt. */
function exemptUser(config: PodSecurityConfiguration, username: string): boolean {
  return username !== '' && config.exemptions.usernames.includes(username);
}

/** sameErrors compares two lists of label errors, as reflect.DeepEqual compares field.ErrorLists. */
function sameErrors(a: readonly FieldError[], b: readonly FieldError[]): boolean {
  return a.length === b.length && a.every((e, i) => e.field === b[i]!.field && e.body === b[i]!.body);
}

/**
 * exemptNamespaceWarning warns that an exempt namespace's non-privileged labels are ignored, naming the modes its
 * labels set (admission.go exemptNamespaceWarning).
 */
function exemptNamespaceWarning(config: PodSecurityConfiguration, name: string, policy: Policy, labels: Record<string, string>): string {
  if (fullyPrivileged(policy) || equivalentPolicy(policy, config.defaults)) return '';
  const parts = MODES.filter((m) => policy[m].level !== 'privileged' && (LEVEL_LABELS[m] in labels || VERSION_LABELS[m] in labels))
    .map((m) => `${m}=${levelVersionString(policy[m])}`);
  return `namespace "${name}" is exempt from Pod Security, and the policy (${parts.join(', ')}) will be ignored`;
}

/**
 * validateNamespace requires valid labels on create (and on an update that changes them), and on an update that
 * tightens enforce, warns of the existing pods that would break it (Admission.ValidateNamespace).
 */
export function validateNamespace(ctx: EngineContext, config: PodSecurityConfiguration, a: AdmissionAttributes): PodSecurityResponse {
  const trace = baseTrace('namespace', a, config);
  if (a.subresource !== '') return allowedResponse(`subresource "${a.subresource}" is not checked`, trace);
  const labels = labelsOf(a.object) ?? {};
  const next = resolvePolicy(config, labels);
  const withPolicy = nsTrace(trace, labels, next);
  const refuse = (): PodSecurityResponse => ({
    allowed: false, error: invalid('Namespace', '', a.name || a.object.metadata?.name || '', toCauses(next.errors)), warnings: [], auditAnnotations: {},
    trace: withPolicy, note: 'the pod-security labels are invalid',
  });
  const exemptWarning = (): PodSecurityResponse | undefined => {
    if (!exemptNamespace(config, a.namespace)) return undefined;
    const warning = exemptNamespaceWarning(config, a.object.metadata?.name ?? '', next.policy, labels);
    return { ...allowedResponse('the namespace is exempt', { ...withPolicy, exempt: 'namespace' }), warnings: warning ? [warning] : [] };
  };
  if (a.operation === 'CREATE') {
    if (next.errors.length) return refuse();
    return exemptWarning() ?? allowedResponse(`labels valid: enforce=${levelVersionString(next.policy.enforce)}`, withPolicy);
  }
  if (a.operation !== 'UPDATE') return allowedResponse('only creates and updates are checked', withPolicy);
  const previous = resolvePolicy(config, labelsOf(a.oldObject));
  if (next.errors.length && (!previous.errors.length || !sameErrors(next.errors, previous.errors))) return refuse();
  const before = previous.policy.enforce;
  const after = next.policy.enforce;
  if (sameLevelVersion(after, before)) return allowedResponse('the enforce policy is unchanged', withPolicy);
  if (after.level === 'privileged') return allowedResponse('the new enforce policy is privileged', withPolicy);
  if (sameVersion(after.version, before.version) && compareLevels(after.level, before.level) < 1) return allowedResponse('the enforce level was relaxed', withPolicy);
  const exempt = exemptWarning();
  if (exempt) return exempt;
  const warnings = evaluatePodsInNamespace(ctx, config, a.object.metadata?.name ?? a.name, after);
  return { ...allowedResponse(`checked the namespace's pods against ${levelVersionString(after)}`, withPolicy), warnings };
}

/** MAX_PODS_TO_CHECK bounds the pods a namespace update dry-runs (defaultNamespaceMaxPodsToCheck). */
const MAX_PODS_TO_CHECK = 3000;

/**
 * evaluatePodsInNamespace dry-runs a new enforce level on a namespace's pods, one pod per controller first, and
 * groups identical violations under the lexically first pod name (Admission.EvaluatePodsInNamespace).
 */
export function evaluatePodsInNamespace(ctx: EngineContext, config: PodSecurityConfiguration, namespace: string, enforce: LevelVersion): string[] {
  const exempt = (p: Pod): boolean => !!p.spec?.runtimeClassName && config.exemptions.runtimeClasses.includes(p.spec.runtimeClassName);
  // Why: prioritizePods checks one pod of each controller before the other replicas.
  const seen = new Set<string>();
  const first: Pod[] = [];
  const duplicates: Pod[] = [];
  for (const pod of ctx.store.list<Pod>('Pod', namespace)) {
    if (exempt(pod)) continue;
    const owner = pod.metadata?.ownerReferences?.find((r) => r.controller)?.uid;
    if (owner === undefined) first.push(pod);
    else if (seen.has(owner)) duplicates.push(pod);
    else {
      seen.add(owner);
      first.push(pod);
    }
  }
  const all = [...first, ...duplicates];
  const pods = all.slice(0, MAX_PODS_TO_CHECK);
  const counts = new Map<string, { podName: string; podCount: number }>();
  for (const pod of pods) {
    const r = aggregateCheckResults(evaluatePod(enforce, pod.metadata ?? {}, pod.spec ?? NO_SPEC).outcomes.map((o) => o.result));
    if (r.allowed) continue;
    const warning = forbiddenReason(r);
    const name = pod.metadata?.name ?? '';
    const c = counts.get(warning);
    if (!c) counts.set(warning, { podName: name, podCount: 1 });
    else counts.set(warning, { podName: name < c.podName ? name : c.podName, podCount: c.podCount + 1 });
  }
  const warnings: string[] = [];
  if (pods.length < all.length) warnings.push(`new PodSecurity enforce level only checked against the first ${pods.length} of ${all.length} existing pods`);
  if (counts.size) warnings.push(`existing pods in namespace "${namespace}" violate the new PodSecurity enforce level "${levelVersionString(enforce)}"`);
  const decorated = [...counts].map(([warning, c]) => {
    if (c.podCount === 1) return `${c.podName}: ${warning}`;
    if (c.podCount === 2) return `${c.podName} (and 1 other pod): ${warning}`;
    return `${c.podName} (and ${c.podCount - 1} other pods): ${warning}`;
  });
  return [...warnings, ...decorated.sort((x, y) => (x < y ? -1 : x > y ? 1 : 0))];
}

/** lookupNamespace finds the request's namespace, or the 500 kube-apiserver answers when it cannot. */
function lookupNamespace(ctx: EngineContext, namespace: string): Namespace | undefined {
  return ctx.store.get<Namespace>('Namespace', undefined, namespace);
}

/**
 * validatePod evaluates a pod create, or an update that changes images or containers, against its namespace's
 * policy; exempt namespaces and users pass first (Admission.ValidatePod).
 */
export function validatePod(ctx: EngineContext, config: PodSecurityConfiguration, a: AdmissionAttributes): PodSecurityResponse {
  const trace = baseTrace('pod', a, config);
  if (IGNORED_POD_SUBRESOURCES.has(a.subresource)) return allowedResponse(`subresource "${a.subresource}" cannot change the pod spec`, trace);
  if (exemptNamespace(config, a.namespace)) return exemptResponse('namespace', `namespace "${a.namespace}" is exempt`, trace);
  if (exemptUser(config, a.user.name)) return exemptResponse('user', `user "${a.user.name}" is exempt`, trace);
  const namespace = lookupNamespace(ctx, a.namespace);
  if (!namespace) {
    const message = `failed to lookup namespace "${a.namespace}"`;
    return { allowed: false, error: internalError(message), warnings: [], auditAnnotations: { error: `Internal error occurred: ${message}` }, trace, note: message };
  }
  const ns = resolvePolicy(config, labelsOf(namespace));
  const withPolicy = nsTrace(trace, labelsOf(namespace), ns);
  if (!ns.errors.length && fullyPrivileged(ns.policy)) {
    const annotations = { 'enforce-policy': 'privileged:latest' };
    return allowedResponse(`namespace "${a.namespace}" is privileged in every mode`, withPolicy, annotations);
  }
  const pod = a.object as Pod;
  if (a.operation === 'UPDATE' && a.oldObject && !isSignificantPodUpdate(pod, a.oldObject as Pod)) {
    return allowedResponse('the update changes no image or container', withPolicy);
  }
  return evaluatePodPolicy(config, ns, { podMetadata: pod.metadata ?? {}, podSpec: pod.spec ?? NO_SPEC, resource: a.resource, group: a.group, name: podName(a) }, true, withPolicy);
}

/** podName is the request's name, or the object's (a generated name is set by then; rest.AdmissionToValidateObjectFunc). */
function podName(a: AdmissionAttributes): string {
  return a.name || a.object.metadata?.name || '';
}

/** extractPodSpec finds the pod template of a pod controller (DefaultPodSpecExtractor.ExtractPodSpec); none for an unset optional one. */
export function extractPodSpec(obj: KubeObject): { podMetadata: ObjectMeta; podSpec: PodSpec } | 'none' | 'unexpected' {
  const spec = isObject(obj['spec']) ? obj['spec'] : {};
  const fromTemplate = (template: unknown): { podMetadata: ObjectMeta; podSpec: PodSpec } => {
    const t = (isObject(template) ? template : {}) as PodTemplateSpec;
    return { podMetadata: t.metadata ?? {}, podSpec: t.spec ?? NO_SPEC };
  };
  switch (obj.kind) {
    case 'Pod': return { podMetadata: obj.metadata ?? {}, podSpec: spec as unknown as PodSpec };
    case 'PodTemplate': return fromTemplate(obj['template']);
    // Why: a ReplicationController's template is a pointer and may be nil; the others are embedded structs.
    case 'ReplicationController': return spec['template'] == null ? 'none' : fromTemplate(spec['template']);
    case 'ReplicaSet': case 'Deployment': case 'DaemonSet': case 'StatefulSet': case 'Job': return fromTemplate(spec['template']);
    case 'CronJob': {
      const jobTemplate = isObject(spec['jobTemplate']) ? spec['jobTemplate'] : {};
      return fromTemplate((isObject(jobTemplate['spec']) ? jobTemplate['spec'] : {})['template']);
    }
    default: return 'unexpected';
  }
}

/**
 * validatePodController warns and audits a pod controller's template; it never enforces, since the pods it makes are
 * enforced when they are created (Admission.ValidatePodController).
 */
export function validatePodController(ctx: EngineContext, config: PodSecurityConfiguration, a: AdmissionAttributes): PodSecurityResponse {
  const trace = baseTrace('pod controller', a, config);
  if (a.subresource !== '') return allowedResponse(`subresource "${a.subresource}" is not checked`, trace);
  if (exemptNamespace(config, a.namespace)) return exemptResponse('namespace', `namespace "${a.namespace}" is exempt`, trace);
  if (exemptUser(config, a.user.name)) return exemptResponse('user', `user "${a.user.name}" is exempt`, trace);
  const namespace = lookupNamespace(ctx, a.namespace);
  if (!namespace) {
    const error = `failed to lookup namespace "${a.namespace}": namespaces "${a.namespace}" not found`;
    return allowedResponse(error, trace, { error });
  }
  const ns = resolvePolicy(config, labelsOf(namespace));
  const withPolicy = nsTrace(trace, labelsOf(namespace), ns);
  if (!ns.errors.length && ns.policy.warn.level === 'privileged' && ns.policy.audit.level === 'privileged') {
    return allowedResponse(`namespace "${a.namespace}" warns and audits at privileged`, withPolicy);
  }
  const extracted = extractPodSpec(a.object);
  if (extracted === 'unexpected') return allowedResponse('no pod template to check', withPolicy, { error: `failed to extract pod template: unexpected object type: ${gvk(a.object)}` });
  if (extracted === 'none') return allowedResponse('the controller has no pod template', withPolicy);
  return evaluatePodPolicy(config, ns, { ...extracted, resource: a.resource, group: a.group, name: podName(a) }, false, withPolicy);
}

/** gvk prints an object's GroupVersionKind as schema.GroupVersionKind.String does: `apps/v1, Kind=Deployment`, `/v1, Kind=Pod`. */
function gvk(obj: KubeObject): string {
  const apiVersion = String(obj.apiVersion ?? '');
  return `${apiVersion.includes('/') ? apiVersion : `/${apiVersion}`}, Kind=${String(obj.kind ?? '')}`;
}

/** isSignificantPodUpdate tells whether an update changes what the checks read: container counts, images, seccomp annotations. */
function isSignificantPodUpdate(pod: Pod, oldPod: Pod): boolean {
  const spec = pod.spec ?? NO_SPEC;
  const old = oldPod.spec ?? NO_SPEC;
  const annotations = pod.metadata?.annotations ?? {};
  const oldAnnotations = oldPod.metadata?.annotations ?? {};
  const changed = (c: { name: string; image?: string }, o: { name: string; image?: string }): boolean => {
    const key = `container.seccomp.security.alpha.kubernetes.io/${c.name}`;
    return c.image !== o.image || annotations[key] !== oldAnnotations[key];
  };
  const containers = spec.containers ?? [];
  const oldContainers = old.containers ?? [];
  const inits = spec.initContainers ?? [];
  const oldInits = old.initContainers ?? [];
  if (containers.length !== oldContainers.length || inits.length !== oldInits.length) return true;
  if (containers.some((c, i) => changed(c, oldContainers[i]!)) || inits.some((c, i) => changed(c, oldInits[i]!))) return true;
  return (spec.ephemeralContainers ?? []).some((c) => {
    const o = (old.ephemeralContainers ?? []).find((e) => e.name === c.name);
    return !o || changed(c, o);
  });
}
