// The admission chain: kube-apiserver's ordered plugin list, the profile's enable/disable, mutating before validating.
import type { EngineContext } from '../../context';
import type { PhaseName } from '../../runtime/phases';
import { quietEntry, type TraceInput } from '../../runtime/recorder';
import { sleep, type Steps } from '../../runtime/step';
import type { StatusError } from '../request';
import { alwaysAdmit, alwaysDeny } from './always';
import { alwaysPullImages } from './always-pull-images';
import { defaultStorageClass } from './default-storage-class';
import { defaultTolerationSeconds } from './default-toleration-seconds';
import { disableServiceLinks } from './disable-service-links';
import { extendedResourceToleration } from './extended-resource-toleration';
import { limitPodHardAntiAffinityTopology } from './limit-pod-hard-anti-affinity';
import { limitRanger } from './limit-ranger';
import { mutatingAdmissionWebhook } from './mutating-webhook';
import { namespaceAutoProvision } from './namespace-autoprovision';
import { namespaceExists } from './namespace-exists';
import { namespaceLifecycle } from './namespace-lifecycle';
import { nodeRestriction } from './node-restriction';
import { ownerReferencesPermissionEnforcement } from './owner-references-permission';
import type { AdmissionAttributes, AdmissionPlugin, AdmissionResult } from './plugin';
import { podNodeSelector } from './pod-node-selector';
import { podSecurity } from './pod-security';
import { podTolerationRestriction } from './pod-toleration-restriction';
import { priority } from './priority';
import { resourceQuota } from './resource-quota';
import { runtimeClass } from './runtime-class';
import { serviceAccount } from './service-account';
import { storageObjectInUseProtection } from './storage-object-in-use-protection';
import { taintNodesByCondition } from './taint-nodes-by-condition';
import { validatingAdmissionPolicy } from './validating-admission-policy';
import { validatingAdmissionWebhook } from './validating-webhook';

/**
 * ORDERED_PLUGINS is every plugin in the order kube-apiserver runs them (AllOrderedPlugins). Names
 * with no plugin here act only on objects the simulation does not serve (certificates, events,
 * ingresses, services' external IPs, PVC resize, image policy webhooks).
 * See pkg/kubeapiserver/options/plugins.go.
 */
export const ORDERED_PLUGIN_NAMES = [
  'AlwaysAdmit', 'NamespaceAutoProvision', 'NamespaceLifecycle', 'NamespaceExists', 'LimitPodHardAntiAffinityTopology', 'LimitRanger',
  'ServiceAccount', 'NodeRestriction', 'TaintNodesByCondition', 'AlwaysPullImages', 'ImagePolicyWebhook', 'PodSecurity', 'PodNodeSelector',
  'Priority', 'DefaultTolerationSeconds', 'PodTolerationRestriction', 'EventRateLimit', 'ExtendedResourceToleration', 'DefaultStorageClass',
  'StorageObjectInUseProtection', 'OwnerReferencesPermissionEnforcement', 'PersistentVolumeClaimResize', 'RuntimeClass', 'CertificateApproval',
  'CertificateSigning', 'ClusterTrustBundleAttest', 'CertificateSubjectRestriction', 'DefaultIngressClass', 'DenyServiceExternalIPs',
  'DisableServiceLinks', 'MutatingAdmissionWebhook', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionWebhook', 'ResourceQuota', 'AlwaysDeny',
] as const;

/** DEFAULT_ON_PLUGINS are on unless disabled (plugins.go DefaultOffAdmissionPlugins is their complement). */
export const DEFAULT_ON_PLUGINS: ReadonlySet<string> = new Set([
  'NamespaceLifecycle', 'LimitRanger', 'ServiceAccount', 'DefaultStorageClass', 'PersistentVolumeClaimResize', 'DefaultTolerationSeconds',
  'MutatingAdmissionWebhook', 'ValidatingAdmissionWebhook', 'ResourceQuota', 'StorageObjectInUseProtection', 'Priority', 'TaintNodesByCondition',
  'RuntimeClass', 'CertificateApproval', 'CertificateSigning', 'ClusterTrustBundleAttest', 'CertificateSubjectRestriction', 'DefaultIngressClass',
  'PodSecurity', 'ValidatingAdmissionPolicy',
]);

/** KUBEADM_ENABLED are the plugins kubeadm's kube-apiserver manifest adds (--enable-admission-plugins=NodeRestriction). */
export const KUBEADM_ENABLED: readonly string[] = ['NodeRestriction'];

/** PLUGINS maps each simulated plugin's name to it: one file a plugin. */
export const PLUGINS: ReadonlyMap<string, AdmissionPlugin> = new Map([
  alwaysAdmit, namespaceAutoProvision, namespaceLifecycle, namespaceExists, limitPodHardAntiAffinityTopology, limitRanger, serviceAccount,
  nodeRestriction, taintNodesByCondition, alwaysPullImages, podSecurity, podNodeSelector, priority, defaultTolerationSeconds,
  podTolerationRestriction, extendedResourceToleration, defaultStorageClass, storageObjectInUseProtection, ownerReferencesPermissionEnforcement,
  runtimeClass, disableServiceLinks, mutatingAdmissionWebhook, validatingAdmissionPolicy, validatingAdmissionWebhook, resourceQuota, alwaysDeny,
].map((p) => [p.name, p]));

/**
 * ENABLED keeps the plugins on in each admission configuration, in order (the defaults and kubeadm's, plus enable,
 * minus disable), worked out once: every request of a run reads them.
 */
const ENABLED = new WeakMap<EngineContext['profile']['admission'], { names: readonly string[]; plugins: readonly AdmissionPlugin[] }>();

function enabledIn(admission: EngineContext['profile']['admission']): { names: readonly string[]; plugins: readonly AdmissionPlugin[] } {
  let known = ENABLED.get(admission);
  if (!known) {
    const { enable, disable } = admission;
    const names = Object.freeze(ORDERED_PLUGIN_NAMES.filter((n) => (DEFAULT_ON_PLUGINS.has(n) || KUBEADM_ENABLED.includes(n) || enable.includes(n)) && !disable.includes(n)));
    known = { names, plugins: names.map((n) => PLUGINS.get(n)).filter((p): p is AdmissionPlugin => p !== undefined) };
    ENABLED.set(admission, known);
  }
  return known;
}

/** AdmissionPass is the outcome of one pass: the error that ended it, or none, and the warnings gathered. */
export interface AdmissionPass {
  error?: StatusError;
  warnings: string[];
}

/**
 * runAdmission runs one pass of the chain (mutating or validating) and records a sub-step per plugin
 * that handles the request; the first error ends it.
 * See staging/src/k8s.io/apiserver/pkg/admission/chain.go.
 */
export function* runAdmission(ctx: EngineContext, attrs: AdmissionAttributes, pass: 'mutating' | 'validating', ref: string): Steps<AdmissionPass> {
  const phase = pass === 'mutating' ? 'apiserver.admit.mutating' : 'apiserver.admit.validating';
  const { names: enabled, plugins: all } = enabledIn(ctx.profile.admission);
  const plugins = all.filter((p) => !!(pass === 'mutating' ? p.admit : p.validate) && p.handles(attrs));
  // A request about an object the trace keeps nothing more of makes its steps without their results and details, and
  // hands them on together (a Batch) up to a plugin that waits or writes, or the end of the pass.
  if (ctx.recorder.isQuiet(ref)) return yield* quietPass(ctx, attrs, pass, plugins, phase, ref);
  yield {
    phase, object: ref,
    result: plugins.length ? `${pass} admission: ${plugins.map((p) => p.name).join(', ')}` : `no ${pass} admission plugin handles this request`,
    detail: { plugins: plugins.map((p) => p.name), enabled },
  };
  const warnings: string[] = [];
  for (const plugin of plugins) {
    const result = callPlugin(plugin, pass, attrs, ctx);
    // A webhook's answer takes the time it takes: the request waits for it.
    const delay = delayOf(result);
    if (delay > 0) yield* sleep(delay);
    if (result.warnings) warnings.push(...result.warnings);
    yield {
      phase, object: ref, step: { kind: 'plugin', name: plugin.name }, field: result.changes?.[0],
      result: result.error ? `refused: ${result.error.message}` : `${result.changes?.length ? `changed ${result.changes.join(', ')}` : 'admitted'}${result.note ? ` (${result.note})` : ''}`,
      detail: { plugin: plugin.name, source: plugin.source, changes: result.changes ?? [], ...(result.warnings?.length ? { warnings: result.warnings } : {}), ...(result.detail ?? {}), ...(result.error ? { status: result.error.status } : {}) },
      outcome: result.error ? 'rejected' : 'ok',
    };
    if (result.error) return { error: result.error, warnings };
  }
  return { warnings };
}

/** callPlugin runs a plugin's half of the pass: Admit in the mutating pass, Validate in the validating one. */
function callPlugin(plugin: AdmissionPlugin, pass: 'mutating' | 'validating', attrs: AdmissionAttributes, ctx: EngineContext): AdmissionResult {
  return pass === 'mutating' ? plugin.admit!(attrs, ctx) : plugin.validate!(attrs, ctx);
}

/** delayOf is how long a plugin's answer took in milliseconds (a webhook's delaySeconds), 0 for an immediate one. */
function delayOf(result: AdmissionResult): number {
  const delaySeconds = result.detail?.['delaySeconds'];
  return typeof delaySeconds === 'number' ? delaySeconds * 1000 : 0;
}

/**
 * quietPass is runAdmission's pass for a quiet object: the same plugins run in the same order and make as many entries,
 * empty, recorded in the same order among the other tasks' and the watches' entries. They are handed on as a Batch
 * before a plugin that writes runs, before a wait, and at the end; a plugin that throws has those before it recorded.
 */
function* quietPass(
  ctx: EngineContext, attrs: AdmissionAttributes, pass: 'mutating' | 'validating', plugins: readonly AdmissionPlugin[], phase: PhaseName, ref: string,
): Steps<AdmissionPass> {
  let batch: TraceInput[] = [quietEntry(phase, ref)];
  const warnings: string[] = [];
  for (const plugin of plugins) {
    if (plugin.writes && batch.length > 0) {
      yield batch;
      batch = [];
    }
    let result: AdmissionResult;
    try {
      result = callPlugin(plugin, pass, attrs, ctx);
    } catch (err) {
      if (batch.length > 0) yield batch;
      throw err;
    }
    const delay = delayOf(result);
    if (delay > 0) {
      if (batch.length > 0) yield batch;
      batch = [];
      yield* sleep(delay);
    }
    if (result.warnings) warnings.push(...result.warnings);
    batch.push(quietEntry(phase, ref, { kind: 'plugin', name: plugin.name }));
    if (result.error) {
      yield batch;
      return { error: result.error, warnings };
    }
  }
  if (batch.length > 0) yield batch;
  return { warnings };
}
