// The admission chain: kube-apiserver's ordered plugin list, the profile's enable/disable, mutating before validating.
import type { EngineContext } from '../../context';
import type { Steps } from '../../runtime/step';
import type { StatusError } from '../request';
import { defaultTolerationSeconds } from './default-toleration-seconds';
import { namespaceLifecycle } from './namespace-lifecycle';
import type { AdmissionAttributes, AdmissionPlugin } from './plugin';
import { priority } from './priority';
import { serviceAccount } from './service-account';

/**
 * ORDERED_PLUGINS is the order kube-apiserver runs its plugins in, those simulated so far.
 * See pkg/kubeapiserver/options/plugins.go (AllOrderedPlugins).
 */
export const ORDERED_PLUGINS: readonly AdmissionPlugin[] = [namespaceLifecycle, serviceAccount, priority, defaultTolerationSeconds];

/** DEFAULT_ON_PLUGINS are on unless disabled (plugins.go DefaultOffAdmissionPlugins is the complement). */
const DEFAULT_ON = new Set(['NamespaceLifecycle', 'LimitRanger', 'ServiceAccount', 'Priority', 'DefaultTolerationSeconds', 'ResourceQuota', 'PodSecurity', 'RuntimeClass']);

/** enabledPlugins lists the plugins the profile leaves on, in order. */
export function enabledPlugins(ctx: EngineContext): AdmissionPlugin[] {
  const { enable, disable } = ctx.profile.admission;
  return ORDERED_PLUGINS.filter((p) => (DEFAULT_ON.has(p.name) || enable.includes(p.name)) && !disable.includes(p.name));
}

/**
 * runAdmission runs one pass of the chain (mutating or validating) and records a sub-step per
 * plugin; the first error ends it. Returns the error, or undefined when every plugin admitted.
 */
export function* runAdmission(ctx: EngineContext, attrs: AdmissionAttributes, pass: 'mutating' | 'validating', ref: string): Steps<StatusError | undefined> {
  const phase = pass === 'mutating' ? 'apiserver.admit.mutating' : 'apiserver.admit.validating';
  const plugins = enabledPlugins(ctx).filter((p) => (pass === 'mutating' ? p.admit : p.validate) && p.handles(attrs));
  yield {
    phase, object: ref,
    result: plugins.length ? `${pass} admission: ${plugins.map((p) => p.name).join(', ')}` : `no ${pass} admission plugin handles this request`,
    detail: { plugins: plugins.map((p) => p.name), enabled: enabledPlugins(ctx).map((p) => p.name) },
  };
  for (const plugin of plugins) {
    const result = pass === 'mutating' ? plugin.admit!(attrs, ctx) : plugin.validate!(attrs, ctx);
    const changes = result.changes ?? [];
    yield {
      phase, object: ref, step: { kind: 'plugin', name: plugin.name }, field: changes[0],
      result: result.error ? `refused: ${result.error.message}` : `${changes.length ? `changed ${changes.join(', ')}` : 'admitted'}${result.note ? ` (${result.note})` : ''}`,
      detail: { plugin: plugin.name, source: plugin.source, changes, ...(result.error ? { status: result.error.status } : {}) },
      outcome: result.error ? 'rejected' : 'ok',
    };
    if (result.error) return result.error;
  }
  return undefined;
}
