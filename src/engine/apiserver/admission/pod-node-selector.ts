// PodNodeSelector: a namespace's node selector annotation is merged into its pods' nodeSelector; a pod may not
// contradict it, nor leave the namespace's whitelist (off by default).
import { goQuote, index, invalid, isLabelKey, isLabelValue } from '../../api/labels-validation';
import type { Namespace, Pod } from '../../api/types';
import { forbidden } from '../request';
import { internalError, plainError } from './errors';
import type { EngineContext } from '../../context';
import type { AdmissionAttributes, AdmissionPlugin, AdmissionResult } from './plugin';

/** NAMESPACE_NODE_SELECTOR_ANNOTATION holds a namespace's node selector, `key=value,key=value` (NamespaceNodeSelectors). */
export const NAMESPACE_NODE_SELECTOR_ANNOTATION = 'scheduler.alpha.kubernetes.io/node-selector';

/**
 * PodNodeSelectorConfig is podNodeSelectorPluginConfig of the admission config file: clusterDefaultNodeSelector,
 * used for namespaces without the annotation, and per namespace a whitelist of the labels its pods may select.
 */
export type PodNodeSelectorConfig = Readonly<Record<string, string>>;

type LabelSet = Record<string, string>;

/**
 * convertSelectorToLabelsMap is labels.ConvertSelectorToLabelsMap: `a=b,c=d` into a map, each key and value checked
 * (errors printed with Go's nil field path), or the error text.
 */
export function convertSelectorToLabelsMap(selector: string): LabelSet | string {
  const out: LabelSet = {};
  if (selector === '') return out;
  for (const label of selector.split(',')) {
    const parts = label.split('=');
    // Why: fmt.Errorf("invalid selector: %s", l) prints the []string as [a b].
    if (parts.length !== 2) return `invalid selector: [${parts.join(' ')}]`;
    const key = parts[0]!.trim();
    const keyErrs = isLabelKey(key);
    if (keyErrs.length) return invalid(null, goQuote(key), keyErrs.join('; '));
    const value = parts[1]!.trim();
    const valueErrs = isLabelValue(value);
    if (valueErrs.length) return invalid(index(null, key), goQuote(value), valueErrs.join('; '));
    out[key] = value;
  }
  return out;
}

/** conflicts is labels.Conflicts: a key of one set has another value in the other. */
export function conflicts(a: LabelSet, b: LabelSet): boolean {
  return Object.entries(a).some(([k, v]) => k in b && b[k] !== v);
}

/** namespaceSelector is getNodeSelectorMap: the namespace's annotation, else the cluster default; or the error text. */
function namespaceSelector(ns: Namespace, config: PodNodeSelectorConfig): LabelSet | string {
  const annotation = ns.metadata?.annotations?.[NAMESPACE_NODE_SELECTOR_ANNOTATION];
  if (annotation !== undefined) return convertSelectorToLabelsMap(annotation);
  return convertSelectorToLabelsMap(config['clusterDefaultNodeSelector'] ?? '');
}

/** lookUp finds the namespace's selector, or the refusal the plugin answers with. */
function lookUp(a: AdmissionAttributes, ctx: EngineContext, config: PodNodeSelectorConfig): { selector: LabelSet } | { refusal: AdmissionResult } {
  const ns = ctx.store.get<Namespace>('Namespace', undefined, a.namespace);
  // Why: defaultGetNamespace turns the live lookup's NotFound into a plain error, which then becomes a 500.
  if (!ns) return { refusal: { error: internalError(`namespace ${a.namespace} does not exist`), detail: { namespace: a.namespace, found: false } } };
  const selector = namespaceSelector(ns, config);
  if (typeof selector !== 'string') return { selector };
  return { refusal: { error: plainError(selector), detail: { namespace: a.namespace, annotation: ns.metadata?.annotations?.[NAMESPACE_NODE_SELECTOR_ANNOTATION] ?? null } } };
}

const CONFLICT = 'pod node label selector conflicts with its namespace node label selector';

/** check is Validate: no conflict with the namespace's selector, and only whitelisted labels when there is a whitelist. */
function check(a: AdmissionAttributes, pod: Pod, nsSelector: LabelSet, config: PodNodeSelectorConfig): AdmissionResult {
  const podSelector = pod.spec?.nodeSelector ?? {};
  const refuse = (reason: string): AdmissionResult => ({ error: forbidden(a.resource, a.group, pod.metadata?.name || undefined, reason) });
  if (conflicts(nsSelector, podSelector)) return refuse(CONFLICT);
  const whitelist = convertSelectorToLabelsMap(config[a.namespace] ?? '');
  if (typeof whitelist === 'string') return { error: plainError(whitelist) };
  const subset = Object.keys(whitelist).length === 0 || Object.entries(podSelector).every(([k, v]) => whitelist[k] === v);
  if (!subset) return refuse('pod node label selector labels conflict with its namespace whitelist');
  return {};
}

/** newPodNodeSelector builds the plugin with its configuration (none by default). */
export function newPodNodeSelector(config: PodNodeSelectorConfig = {}): AdmissionPlugin {
  return {
    name: 'PodNodeSelector',
    source: 'plugin/pkg/admission/podnodeselector/admission.go',
    handles: (a) => a.resource === 'pods' && a.group === '' && a.subresource === '' && a.operation === 'CREATE',
    // Admit merges (the pod's own labels win) and then runs Validate.
    admit(a, ctx) {
      const found = lookUp(a, ctx, config);
      if ('refusal' in found) return found.refusal;
      const nsSelector = found.selector;
      const pod = a.object as Pod;
      const podSelector = pod.spec?.nodeSelector ?? {};
      const detail = { namespace: a.namespace, namespaceSelector: nsSelector, nodeSelector: podSelector };
      if (conflicts(nsSelector, podSelector)) return { error: forbidden(a.resource, a.group, pod.metadata?.name || undefined, CONFLICT), detail };
      const merged = { ...nsSelector, ...podSelector };
      const added = Object.keys(merged).filter((k) => !(k in podSelector)).sort();
      const next: Pod = added.length ? { ...pod, spec: { ...pod.spec!, nodeSelector: merged } } : pod;
      const checked = check(a, next, nsSelector, config);
      if (checked.error) return { ...checked, detail };
      a.object = next as typeof a.object;
      return {
        changes: added.map((k) => `spec.nodeSelector[${k}]`),
        note: added.length ? `merged the namespace's node selector (${added.map((k) => `${k}=${merged[k]}`).join(',')})` : 'nothing to merge', detail,
      };
    },
    validate(a, ctx) {
      const found = lookUp(a, ctx, config);
      if ('refusal' in found) return found.refusal;
      const pod = a.object as Pod;
      const detail = { namespace: a.namespace, namespaceSelector: found.selector, nodeSelector: pod.spec?.nodeSelector ?? {}, whitelist: config[a.namespace] ?? null };
      const checked = check(a, pod, found.selector, config);
      return checked.error ? { ...checked, detail } : { note: 'the pod keeps to its namespace node selector', detail };
    },
  };
}

/** podNodeSelector is the PodNodeSelector plugin without an admission config file. */
export const podNodeSelector: AdmissionPlugin = newPodNodeSelector();
