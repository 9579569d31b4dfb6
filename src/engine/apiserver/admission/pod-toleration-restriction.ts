// PodTolerationRestriction: a namespace's default tolerations are merged into its new pods, and a pod's tolerations
// must stay within the namespace's whitelist (off by default).
import type { Namespace, Pod, Toleration } from '../../api/types';
import { getPodQOS } from '../../api/qos';
import type { EngineContext } from '../../context';
import { notFound } from '../request';
import { plainError } from './errors';
import type { AdmissionAttributes, AdmissionPlugin, AdmissionResult } from './plugin';
import { goJsonSyntaxError } from '../go-json-syntax';

/** NS_DEFAULT_TOLERATIONS holds, as JSON, the tolerations a namespace's pods get. */
export const NS_DEFAULT_TOLERATIONS = 'scheduler.alpha.kubernetes.io/defaultTolerations';
/** NS_WHITELIST_TOLERATIONS holds, as JSON, the tolerations a namespace's pods may have. */
export const NS_WHITELIST_TOLERATIONS = 'scheduler.alpha.kubernetes.io/tolerationsWhitelist';

/** PodTolerationRestrictionConfig is the plugin's configuration file: the cluster's default and whitelist. */
export interface PodTolerationRestrictionConfig {
  default?: Toleration[];
  whitelist?: Toleration[];
}

const WHITELIST_CONFLICT = 'pod tolerations (possibly merged with namespace default tolerations) conflict with its namespace whitelist';

/** sameToleration is apiequality.Semantic.DeepEqual on two tolerations (unset strings are empty). */
function sameToleration(x: Toleration, y: Toleration): boolean {
  return (x.key ?? '') === (y.key ?? '') && (x.operator ?? '') === (y.operator ?? '') && (x.value ?? '') === (y.value ?? '') &&
    (x.effect ?? '') === (y.effect ?? '') && (x.tolerationSeconds ?? null) === (y.tolerationSeconds ?? null);
}

/** isSuperset tells whether ss tolerates everything t does. See pkg/util/tolerations/tolerations.go. */
export function isSuperset(ss: Toleration, t: Toleration): boolean {
  if (sameToleration(ss, t)) return true;
  // An empty key with Exists matches every key; an empty effect every effect.
  if ((t.key ?? '') !== (ss.key ?? '') && ((ss.key ?? '') !== '' || ss.operator !== 'Exists')) return false;
  if ((t.effect ?? '') !== (ss.effect ?? '') && (ss.effect ?? '') !== '') return false;
  if (ss.effect === 'NoExecute' && ss.tolerationSeconds !== undefined && ss.tolerationSeconds !== null) {
    if (t.tolerationSeconds === undefined || t.tolerationSeconds === null || t.tolerationSeconds > ss.tolerationSeconds) return false;
  }
  switch (ss.operator ?? '') {
    case 'Equal': case '': return t.operator === 'Equal' && (t.value ?? '') === (ss.value ?? '');
    case 'Exists': return true;
    default: return false;
  }
}

/** mergeTolerations is tolerations.MergeTolerations: both sets, dropping any toleration another one covers. */
export function mergeTolerations(first: readonly Toleration[], second: readonly Toleration[]): Toleration[] {
  const all = [...first, ...second];
  const merged: Toleration[] = [];
  all.forEach((t, i) => {
    if (merged.some((m) => isSuperset(m, t))) return;
    // Of two equal tolerations the first is kept.
    if (all.slice(i + 1).some((later) => !sameToleration(t, later) && isSuperset(later, t))) return;
    merged.push(t);
  });
  return merged;
}

/** verifyAgainstWhitelist is tolerations.VerifyAgainstWhitelist: every toleration is covered by one of the whitelist. */
export function verifyAgainstWhitelist(tolerations: readonly Toleration[], whitelist: readonly Toleration[]): boolean {
  if (whitelist.length === 0 || tolerations.length === 0) return true;
  return tolerations.every((t) => whitelist.some((w) => isSuperset(w, t)));
}

/**
 * jsonError is the error json.Unmarshal gives for text that is not a list of tolerations: the first syntax error,
 * in encoding/json's words for the usual mistakes, else the first type mismatch. undefined when it decodes.
 */
export function jsonError(text: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return goJsonSyntaxError(text);
  }
  const kind = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'boolean' ? 'bool' : typeof v === 'object' ? 'object' : typeof v);
  if (parsed === null) return undefined;
  if (!Array.isArray(parsed)) return `json: cannot unmarshal ${kind(parsed)} into Go value of type []v1.Toleration`;
  const fieldTypes: Record<string, string> = { key: 'string', operator: 'v1.TolerationOperator', value: 'string', effect: 'v1.TaintEffect', tolerationSeconds: 'int64' };
  for (const item of parsed) {
    if (item === null) continue;
    if (kind(item) !== 'object') return `json: cannot unmarshal ${kind(item)} into Go value of type v1.Toleration`;
    for (const [field, type] of Object.entries(fieldTypes)) {
      const v = (item as Record<string, unknown>)[field];
      if (v === undefined || v === null) continue;
      const ok = type === 'int64' ? typeof v === 'number' && Number.isInteger(v) : typeof v === 'string';
      const shown = typeof v === 'number' ? `number ${v}` : kind(v);
      if (!ok) return `json: cannot unmarshal ${type === 'int64' && typeof v === 'number' ? shown : kind(v)} into Go struct field Toleration.${field} of type ${type}`;
    }
  }
  return undefined;
}

/** extracted reads one annotation: undefined when absent, [] when empty, else the tolerations or the JSON error. */
function extracted(ns: Namespace, key: string): Toleration[] | undefined | { error: string } {
  const text = ns.metadata?.annotations?.[key];
  if (text === undefined) return undefined;
  if (text === '') return [];
  const error = jsonError(text);
  if (error) return { error };
  return ((JSON.parse(text) as Toleration[] | null) ?? []).map((t) => t ?? {});
}

/** namespaceTolerations reads a namespace's annotation, or the refusal the plugin answers with. */
function namespaceTolerations(a: AdmissionAttributes, ctx: EngineContext, key: string): { tolerations: Toleration[] | undefined } | { refusal: AdmissionResult } {
  const ns = ctx.store.get<Namespace>('Namespace', undefined, a.namespace);
  if (!ns) return { refusal: { error: notFound('namespaces', '', a.namespace), detail: { namespace: a.namespace, found: false } } };
  const got = extracted(ns, key);
  if (got !== undefined && !Array.isArray(got)) return { refusal: { error: plainError(got.error), detail: { namespace: a.namespace, annotation: key } } };
  return { tolerations: got };
}

const MEMORY_PRESSURE: Toleration = { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' };

/** newPodTolerationRestriction builds the plugin with its configuration (none by default). */
export function newPodTolerationRestriction(config: PodTolerationRestrictionConfig = {}): AdmissionPlugin {
  const validate = (a: AdmissionAttributes, ctx: EngineContext): AdmissionResult => {
    const tolerations = (a.object as Pod).spec?.tolerations ?? [];
    if (tolerations.length === 0) return { note: 'no tolerations to check' };
    const got = namespaceTolerations(a, ctx, NS_WHITELIST_TOLERATIONS);
    if ('refusal' in got) return got.refusal;
    const whitelist = got.tolerations ?? config.whitelist ?? [];
    const detail = { whitelist, from: got.tolerations ? NS_WHITELIST_TOLERATIONS : config.whitelist ? 'plugin config' : null };
    // Why: the plugin returns fmt.Errorf, no API status, so the API server answers 500 with its text.
    if (!verifyAgainstWhitelist(tolerations, whitelist)) return { error: plainError(WHITELIST_CONFLICT), detail };
    return { note: whitelist.length ? 'every toleration is whitelisted' : 'no whitelist', detail };
  };
  return {
    name: 'PodTolerationRestriction',
    source: 'plugin/pkg/admission/podtolerationrestriction/admission.go',
    handles: (a) => a.resource === 'pods' && a.group === '' && a.subresource === '' && (a.operation === 'CREATE' || a.operation === 'UPDATE'),
    // Admit merges the namespace's defaults (on create) and the memory-pressure toleration, then runs Validate.
    admit(a, ctx) {
      const pod = a.object as Pod;
      let extra: Toleration[] = [];
      let from: string | null = null;
      if (a.operation === 'CREATE') {
        const got = namespaceTolerations(a, ctx, NS_DEFAULT_TOLERATIONS);
        if ('refusal' in got) return got.refusal;
        from = got.tolerations ? NS_DEFAULT_TOLERATIONS : config.default ? 'plugin config' : null;
        extra = [...(got.tolerations ?? config.default ?? [])];
      }
      const qos = getPodQOS(pod);
      if (qos !== 'BestEffort') extra.push({ ...MEMORY_PRESSURE });
      const before = pod.spec?.tolerations ?? [];
      const tolerations = extra.length ? mergeTolerations(before, extra) : before;
      const changed = JSON.stringify(tolerations) !== JSON.stringify(before);
      const next = changed ? ({ ...pod, spec: { ...pod.spec!, tolerations } } as Pod) : pod;
      const detail = { defaults: extra, defaultsFrom: from, qosClass: qos };
      a.object = next as typeof a.object;
      const checked = validate(a, ctx);
      if (checked.error) {
        a.object = pod as typeof a.object;
        return { ...checked, detail: { ...detail, ...checked.detail } };
      }
      return { changes: changed ? ['spec.tolerations'] : [], note: changed ? `tolerations now ${tolerations.length}` : 'tolerations unchanged', detail };
    },
    validate,
  };
}

/** podTolerationRestriction is the PodTolerationRestriction plugin without a configuration file. */
export const podTolerationRestriction: AdmissionPlugin = newPodTolerationRestriction();
