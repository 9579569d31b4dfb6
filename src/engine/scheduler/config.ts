// KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1): decoded strictly, defaulted and validated as kube-scheduler
// does when it starts, then turned into the profiles the component runs; a bad one is an InputError at its line.
// See pkg/scheduler/apis/config/v1 (defaults.go, default_plugins.go), apis/config/validation, cmd/kube-scheduler/app/options.
import { appendFieldPath } from '../api/fieldpath';
import { aggregate, goQuote, invalid, notSupported } from '../api/labels-validation';
import { isObject } from '../api/types';
import { Checker, type Fields } from '../cluster/checker';
import { InputError, type SourceDocument } from '../cluster/inputs';
import { Framework, FrameworkError, type Registry } from './framework/framework';
import { ExtensionPoint } from './framework/interfaces';
import { DEFAULT_MULTI_POINT, DEFAULT_SCHEDULER_NAME, type PluginConfig, type PluginSet, type Profile, type ProfilePlugin } from './framework/profile';
import { IN_TREE_REGISTRY } from './plugins/registry';
import { DEFAULT_POD_INITIAL_BACKOFF_SECONDS, DEFAULT_POD_MAX_BACKOFF_SECONDS } from './queue/backoff';

/** GROUP_VERSION is the one version of KubeSchedulerConfiguration 1.36 reads. */
export const GROUP_VERSION = 'kubescheduler.config.k8s.io/v1';

/** SchedulerConfiguration is the decoded, defaulted and validated configuration, as the component uses it. */
export interface SchedulerConfiguration {
  profiles: Profile[];
  /** percentageOfNodesToScore is the global setting; 0 is adaptive. */
  percentageOfNodesToScore: number;
  podInitialBackoffSeconds: number;
  podMaxBackoffSeconds: number;
  /** clientConnection is the scheduler's client's rate limit (qps 50 and burst 100 by default). */
  clientConnection: { qps: number; burst: number };
  /** parallelism is how many goroutines the scheduler's Parallelizer runs at once (16 by default). */
  parallelism: number;
  /** source is the file the configuration came from; absent for the built-in default. */
  source?: string;
}

/** Schema describes a field to decode: a Go scalar, a list or a struct, with the Go type name its errors print. */
type Schema = 'string' | 'bool' | 'int32' | 'int64' | 'float64' | 'duration' | 'object' | { list: Schema; go: string } | { fields: Record<string, Schema>; go: string };

const POINT_KEYS: Readonly<Record<string, ExtensionPoint>> = {
  preEnqueue: ExtensionPoint.PreEnqueue, queueSort: ExtensionPoint.QueueSort, preFilter: ExtensionPoint.PreFilter, filter: ExtensionPoint.Filter,
  postFilter: ExtensionPoint.PostFilter, preScore: ExtensionPoint.PreScore, score: ExtensionPoint.Score, reserve: ExtensionPoint.Reserve,
  permit: ExtensionPoint.Permit, preBind: ExtensionPoint.PreBind, bind: ExtensionPoint.Bind, postBind: ExtensionPoint.PostBind,
};
const PLUGIN: Schema = { fields: { name: 'string', weight: 'int32' }, go: 'v1.Plugin' };
const PLUGIN_SET: Schema = { fields: { enabled: { list: PLUGIN, go: '[]v1.Plugin' }, disabled: { list: PLUGIN, go: '[]v1.Plugin' } }, go: 'v1.PluginSet' };
const PLUGINS: Schema = { fields: Object.fromEntries(['multiPoint', ...Object.keys(POINT_KEYS)].map((k) => [k, PLUGIN_SET])), go: 'v1.Plugins' };
const PROFILE: Schema = {
  fields: { schedulerName: 'string', percentageOfNodesToScore: 'int32', plugins: PLUGINS, pluginConfig: { list: { fields: { name: 'string', args: 'object' }, go: 'v1.PluginConfig' }, go: '[]v1.PluginConfig' } },
  go: 'v1.KubeSchedulerProfile',
};
const CONFIG: Schema = {
  fields: {
    apiVersion: 'string', kind: 'string', parallelism: 'int32', percentageOfNodesToScore: 'int32', podInitialBackoffSeconds: 'int64',
    podMaxBackoffSeconds: 'int64', enableProfiling: 'bool', enableContentionProfiling: 'bool', delayCacheUntilActive: 'bool',
    profiles: { list: PROFILE, go: '[]v1.KubeSchedulerProfile' }, extenders: { list: 'object', go: '[]v1.Extender' },
    leaderElection: { fields: { leaderElect: 'bool', leaseDuration: 'duration', renewDeadline: 'duration', retryPeriod: 'duration', resourceLock: 'string', resourceName: 'string', resourceNamespace: 'string' }, go: 'v1.LeaderElectionConfiguration' },
    clientConnection: { fields: { kubeconfig: 'string', acceptContentTypes: 'string', contentType: 'string', qps: 'float64', burst: 'int32' }, go: 'v1.ClientConnectionConfiguration' },
  },
  go: 'KubeSchedulerConfiguration',
};
const RESOURCES: Schema = { list: { fields: { name: 'string', weight: 'int64' }, go: 'v1.ResourceSpec' }, go: '[]v1.ResourceSpec' };
const SHAPE: Schema = { list: { fields: { utilization: 'int32', score: 'int32' }, go: 'v1.UtilizationShapePoint' }, go: '[]v1.UtilizationShapePoint' };
const META = { apiVersion: 'string', kind: 'string' } as const;
/** ARGS are the args kinds of the in-tree plugins (types_pluginargs.go), by plugin name. */
const ARGS: Readonly<Record<string, Schema>> = {
  DefaultPreemption: { fields: { ...META, minCandidateNodesPercentage: 'int32', minCandidateNodesAbsolute: 'int32' }, go: 'DefaultPreemptionArgs' },
  DynamicResources: { fields: { ...META, filterTimeout: 'duration', bindingTimeout: 'duration' }, go: 'DynamicResourcesArgs' },
  InterPodAffinity: { fields: { ...META, hardPodAffinityWeight: 'int32', ignorePreferredTermsOfExistingPods: 'bool' }, go: 'InterPodAffinityArgs' },
  NodeAffinity: { fields: { ...META, addedAffinity: 'object' }, go: 'NodeAffinityArgs' },
  NodeResourcesBalancedAllocation: { fields: { ...META, resources: RESOURCES }, go: 'NodeResourcesBalancedAllocationArgs' },
  NodeResourcesFit: {
    fields: {
      ...META, ignoredResources: { list: 'string', go: '[]string' }, ignoredResourceGroups: { list: 'string', go: '[]string' },
      scoringStrategy: { fields: { type: 'string', resources: RESOURCES, requestedToCapacityRatio: { fields: { shape: SHAPE }, go: 'v1.RequestedToCapacityRatioParam' } }, go: 'v1.ScoringStrategy' },
    },
    go: 'NodeResourcesFitArgs',
  },
  PodTopologySpread: { fields: { ...META, defaultConstraints: { list: 'object', go: '[]v1.TopologySpreadConstraint' }, defaultingType: 'string' }, go: 'PodTopologySpreadArgs' },
  VolumeBinding: { fields: { ...META, bindTimeoutSeconds: 'int64', shape: SHAPE }, go: 'VolumeBindingArgs' },
};
const CPU_MEMORY = [{ name: 'cpu', weight: 1 }, { name: 'memory', weight: 1 }];
/** INVALID_PLUGINS were removed before v1 (invalidPluginsByVersion). */
const INVALID_PLUGINS = ['AzureDiskLimits', 'CinderLimits', 'EBSLimits', 'GCEPDLimits'];

/** DecodeFailure is a decoding error and the field it is about. */
class DecodeFailure extends Error {
  constructor(message: string, readonly path: string, readonly at: 'key' | 'value' = 'value') {
    super(message);
  }
}

/** defaultSchedulerConfiguration is what kube-scheduler runs with no --config: one default profile, defaulted args. */
export function defaultSchedulerConfiguration(): SchedulerConfiguration {
  return loadSchedulerConfiguration([]);
}

/** loadSchedulerConfiguration reads the cluster's KubeSchedulerConfiguration (at most one), or the default. */
export function loadSchedulerConfiguration(docs: readonly SourceDocument[], registry: Registry = IN_TREE_REGISTRY): SchedulerConfiguration {
  const found = docs.filter((d) => d.object.kind === 'KubeSchedulerConfiguration');
  if (found.length > 1) new Checker(found[1]!).raise('kind', 'a second KubeSchedulerConfiguration: kube-scheduler reads one --config file');
  const doc = found[0];
  const c = doc ? new Checker(doc) : undefined;
  const raw = (doc?.object ?? { apiVersion: GROUP_VERSION, kind: 'KubeSchedulerConfiguration' }) as Fields;
  try {
    decode(raw, CONFIG, '', 'KubeSchedulerConfiguration', '', []);
    decodeArgs(raw);
  } catch (e) {
    if (e instanceof DecodeFailure && c) throw new InputError(c.doc.file, c.line(e.path, e.at), e.message);
    throw e;
  }
  if (c && (raw['extenders'] as unknown[] | undefined)?.length) c.raise('extenders', 'extenders: scheduler extenders (HTTP webhooks) are not simulated');
  const config = withDefaults(raw);
  const errors = validate(config, raw);
  if (errors.length > 0 && c) c.raise(errors[0]!.path, aggregate(errors.map((e) => e.message)));
  config.profiles.forEach((profile, i) => {
    try {
      new Framework(registry, profile);
    } catch (e) {
      if (!(e instanceof FrameworkError) || !c) throw e;
      c.raise(`profiles[${i}]`, `initializing profiles: creating profile for scheduler name ${profile.schedulerName}: ${e.message}`);
    }
  });
  return doc ? { ...config, source: doc.file } : config;
}

/** goType names a JSON value as encoding/json's errors do. */
function jsonType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return `number ${v}`;
  return typeof v === 'boolean' ? 'bool' : typeof v;
}

/** decode checks a value against its schema: a type mismatch is json's error, unknown fields the strict decoder's. */
function decode(v: unknown, s: Schema, path: string, top: string, goPath: string, unknown: string[], root = true): void {
  if (v === null || v === undefined) return;
  const mismatch = (goType: string): never => {
    throw new DecodeFailure(`json: cannot unmarshal ${jsonType(v)} into Go struct field ${top}.${goPath} of type ${goType}`, path);
  };
  if (typeof s === 'string') {
    if (s === 'string' && typeof v !== 'string') mismatch('string');
    if (s === 'bool' && typeof v !== 'boolean') mismatch('bool');
    if ((s === 'int32' || s === 'int64') && (typeof v !== 'number' || !Number.isInteger(v) || (s === 'int32' && Math.abs(v) > 2 ** 31))) mismatch(s);
    if (s === 'float64' && typeof v !== 'number') mismatch('float64');
    if (s === 'object' && !isObject(v) && !Array.isArray(v)) mismatch('runtime.RawExtension');
    if (s === 'duration') {
      if (typeof v !== 'string') mismatch('v1.Duration');
      if (!/^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$|^0$/.test(v as string)) throw new DecodeFailure(`time: invalid duration ${goQuote(v as string)}`, path);
    }
    return;
  }
  if ('list' in s) {
    if (!Array.isArray(v)) return mismatch(s.go);
    v.forEach((item: unknown, i) => decode(item, s.list, appendFieldPath(path, i), top, goPath, unknown, false));
    return;
  }
  if (!isObject(v)) return mismatch(s.go);
  for (const [key, value] of Object.entries(v)) {
    const field = s.fields[key];
    const p = appendFieldPath(path, key);
    if (!field) unknown.push(p);
    else decode(value, field, p, top, goPath ? `${goPath}.${key}` : key, unknown, false);
  }
  if (root && unknown.length > 0) throw new DecodeFailure(`strict decoding error: ${unknown.map((u) => `unknown field ${goQuote(u)}`).join(', ')}`, unknown[0]!, 'key');
}

/** decodeArgs decodes each in-tree plugin's args as its kind (PluginConfig.decodeNestedObjects); others stay as written. */
function decodeArgs(raw: Fields): void {
  ((raw['profiles'] as Fields[] | undefined) ?? []).forEach((prof, i) => {
    ((prof?.['pluginConfig'] as Fields[] | undefined) ?? []).forEach((pc, j) => {
      const name = String(pc?.['name'] ?? '');
      const schema = ARGS[name];
      const args = pc?.['args'];
      if (!schema || typeof schema === 'string' || !('fields' in schema) || !isObject(args)) return;
      const base = `profiles[${i}].pluginConfig[${j}].args`;
      const kind = args['kind'];
      if (kind !== undefined && kind !== schema.go) throw new DecodeFailure(`decoding .profiles[${i}].pluginConfig[${j}]: args for plugin ${name} were not of type ${schema.go}.kubescheduler.config.k8s.io, got ${String(kind)}.kubescheduler.config.k8s.io`, `${base}.kind`);
      try {
        decode(args, schema, base, schema.go, '', []);
      } catch (e) {
        if (!(e instanceof DecodeFailure)) throw e;
        const strict = e.message.startsWith('strict decoding error: ');
        const inner = `decoding args for plugin ${name}: ${strict ? e.message.replace(new RegExp(`${base.replace(/[.[\]]/g, '\\$&')}\\.`, 'g'), '') : e.message}`;
        throw new DecodeFailure(strict ? `strict decoding error: decoding .profiles[${i}].pluginConfig[${j}]: strict decoding error: ${inner}` : `decoding .profiles[${i}].pluginConfig[${j}]: ${inner}`, e.path, e.at);
      }
    });
  });
}

/** pluginList reads a decoded []Plugin. */
function pluginList(v: unknown): ProfilePlugin[] {
  return ((v as Fields[] | undefined) ?? []).map((p) => (p['weight'] !== undefined ? { name: String(p['name'] ?? ''), weight: Number(p['weight']) } : { name: String(p['name'] ?? '') }));
}

/** mergePluginSet is default_plugins.go's: disabled defaults go ("*" all), re-enabled ones keep their place, the rest follow. */
export function mergePluginSet(defaults: readonly ProfilePlugin[], custom: PluginSet): PluginSet {
  const disabled = new Set(custom.disabled);
  const replaced = new Set<number>();
  const enabled: ProfilePlugin[] = [];
  if (!disabled.has('*')) {
    for (const d of defaults) {
      if (disabled.has(d.name)) continue;
      const i = custom.enabled.findIndex((p) => p.name === d.name);
      if (i >= 0) replaced.add(i);
      enabled.push(i >= 0 ? custom.enabled[i]! : d);
    }
  }
  custom.enabled.forEach((p, i) => {
    if (!replaced.has(i)) enabled.push(p);
  });
  return { enabled, disabled: [...custom.disabled] };
}

/** DEFAULT_PARALLELISM is SetDefaults_KubeSchedulerConfiguration's parallelism (pkg/scheduler/apis/config/v1/defaults.go, v1.36.3). */
const DEFAULT_PARALLELISM = 16;

/** withDefaults applies SetDefaults_KubeSchedulerConfiguration and the profile and args defaults. */
function withDefaults(raw: Fields): SchedulerConfiguration {
  let profiles = (raw['profiles'] as Fields[] | undefined) ?? [];
  if (profiles.length === 0) profiles = [{}];
  return {
    percentageOfNodesToScore: Number(raw['percentageOfNodesToScore'] ?? 0),
    podInitialBackoffSeconds: Number(raw['podInitialBackoffSeconds'] ?? DEFAULT_POD_INITIAL_BACKOFF_SECONDS),
    podMaxBackoffSeconds: Number(raw['podMaxBackoffSeconds'] ?? DEFAULT_POD_MAX_BACKOFF_SECONDS),
    clientConnection: clientConnectionWithDefaults((raw['clientConnection'] as Fields | undefined) ?? {}),
    parallelism: Number(raw['parallelism'] ?? DEFAULT_PARALLELISM),
    profiles: profiles.map((p) => profileWithDefaults(p ?? {}, profiles.length === 1)),
  };
}

/**
 * clientConnectionWithDefaults is the scheduler's own opinion of its client's rate limit: a QPS of 0 is 50 and a burst
 * of 0 is 100 (not client-go's 5 and 10). Why: pkg/scheduler/apis/config/v1/defaults.go (SetDefaults_KubeSchedulerConfiguration), v1.36.3.
 */
function clientConnectionWithDefaults(c: Fields): { qps: number; burst: number } {
  return { qps: Number(c['qps'] ?? 0) || DEFAULT_CLIENT_QPS, burst: Number(c['burst'] ?? 0) || DEFAULT_CLIENT_BURST };
}

/** DEFAULT_CLIENT_QPS and DEFAULT_CLIENT_BURST are kube-scheduler's clientConnection defaults. */
const DEFAULT_CLIENT_QPS = 50;
const DEFAULT_CLIENT_BURST = 100;

function profileWithDefaults(p: Fields, only: boolean): Profile {
  const plugins = (p['plugins'] as Fields | undefined) ?? {};
  const set = (key: string): PluginSet => {
    const s = (plugins[key] as Fields | undefined) ?? {};
    return { enabled: pluginList(s['enabled']), disabled: pluginList(s['disabled']).map((d) => d.name) };
  };
  const multiPoint = mergePluginSet(DEFAULT_MULTI_POINT, set('multiPoint')).enabled;
  const extensionPoints: Partial<Record<ExtensionPoint, PluginSet>> = {};
  for (const [key, point] of Object.entries(POINT_KEYS)) {
    const s = set(key);
    if (s.enabled.length > 0 || s.disabled.length > 0) extensionPoints[point] = s;
  }
  const name = p['schedulerName'] ?? (only ? DEFAULT_SCHEDULER_NAME : '');
  const profile: Profile = { schedulerName: String(name), multiPoint, extensionPoints, pluginConfig: pluginConfigWithDefaults(p, multiPoint, extensionPoints) };
  if (p['percentageOfNodesToScore'] !== undefined) profile.percentageOfNodesToScore = Number(p['percentageOfNodesToScore']);
  return profile;
}

/** pluginConfigWithDefaults defaults the given args, then adds default args for every enabled plugin that has an args kind. */
function pluginConfigWithDefaults(p: Fields, multiPoint: readonly ProfilePlugin[], points: Partial<Record<ExtensionPoint, PluginSet>>): PluginConfig[] {
  const given = ((p['pluginConfig'] as Fields[] | undefined) ?? []).map((c) => ({ name: String(c['name'] ?? ''), args: (isObject(c['args']) ? c['args'] : {}) as Fields }));
  const out: PluginConfig[] = given.map((c) => ({ name: c.name, args: ARGS[c.name] ? defaultArgs(c.name, c.args) : c.args }));
  const enabled = new Set([...multiPoint, ...Object.values(points).flatMap((s) => s?.enabled ?? [])].map((e) => e.name));
  for (const name of [...enabled].sort()) {
    if (ARGS[name] && !out.some((c) => c.name === name)) out.push({ name, args: defaultArgs(name, {}) });
  }
  return out;
}

/** defaultArgs is the SetDefaults_*Args of a plugin's args (apiVersion and kind dropped). */
function defaultArgs(name: string, given: Fields): Fields {
  const { apiVersion: _a, kind: _k, ...a } = given;
  const weighted = (list: unknown): Fields[] => ((list as Fields[] | undefined)?.length ? (list as Fields[]) : CPU_MEMORY).map((r) => ({ ...r, weight: Number(r['weight'] ?? 0) || 1 }));
  switch (name) {
    case 'DefaultPreemption': return { minCandidateNodesPercentage: 10, minCandidateNodesAbsolute: 100, ...a };
    case 'InterPodAffinity': return { hardPodAffinityWeight: 1, ...a };
    case 'NodeResourcesBalancedAllocation': return { ...a, resources: weighted(a['resources']) };
    case 'NodeResourcesFit': {
      const s = (a['scoringStrategy'] as Fields | undefined) ?? { type: 'LeastAllocated' };
      return { ...a, scoringStrategy: { ...s, resources: weighted(s['resources']) } };
    }
    case 'PodTopologySpread': return { ...a, defaultingType: a['defaultingType'] || 'System' };
    case 'VolumeBinding': return { bindTimeoutSeconds: 600, ...a };
    case 'DynamicResources': return { filterTimeout: '10s', ...a };
    default: return a;
  }
}

interface FieldError {
  path: string;
  message: string;
}

/** validate is ValidateKubeSchedulerConfiguration on the defaulted configuration. */
function validate(config: SchedulerConfiguration, raw: Fields): FieldError[] {
  const errs: FieldError[] = [];
  const add = (path: string, message: string): void => void errs.push({ path, message });
  const le = (raw['leaderElection'] as Fields | undefined) ?? {};
  if ((le['leaderElect'] ?? true) && (le['resourceLock'] ?? 'leases') !== 'leases') add('leaderElection.resourceLock', invalid('leaderElection.resourceLock', goQuote(String(le['resourceLock'])), 'resourceLock value must be "leases"'));
  const burst = Number(((raw['clientConnection'] as Fields | undefined) ?? {})['burst'] ?? 100);
  if (burst < 0) add('clientConnection.burst', invalid('clientConnection.burst', String(burst), 'must be non-negative'));
  if (config.parallelism <= 0) add('parallelism', invalid('parallelism', String(config.parallelism), 'should be an integer value greater than zero'));
  const seen = new Map<string, number>();
  config.profiles.forEach((profile, i) => {
    const path = `profiles[${i}]`;
    if (profile.schedulerName === '') add(`${path}.schedulerName`, `${path}.schedulerName: Required value`);
    percentage(`${path}.percentageOfNodesToScore`, profile.percentageOfNodesToScore, add);
    validatePluginConfig(path, profile, add);
    const first = seen.get(profile.schedulerName);
    // Why: field.Duplicate is given the other profile's *field.Path; Go prints that struct, this prints the path it names.
    if (first !== undefined) add(`${path}.schedulerName`, `${path}.schedulerName: Duplicate value: ${goQuote(`profiles[${first}].schedulerName`)}`);
    else seen.set(profile.schedulerName, i);
  });
  const queueSort = (p: Profile): string => JSON.stringify(p.extensionPoints?.[ExtensionPoint.QueueSort] ?? { enabled: [], disabled: [] });
  config.profiles.slice(1).forEach((p, k) => {
    if (queueSort(p) !== queueSort(config.profiles[0]!)) add(`profiles[${k + 1}].plugins.queueSort`, invalid(`profiles[${k + 1}].plugins.queueSort`, queueSort(p), 'must be the same for all profiles'));
  });
  percentage('percentageOfNodesToScore', config.percentageOfNodesToScore, add);
  if (config.podInitialBackoffSeconds <= 0) add('podInitialBackoffSeconds', invalid('podInitialBackoffSeconds', String(config.podInitialBackoffSeconds), 'must be greater than 0'));
  if (config.podMaxBackoffSeconds < config.podInitialBackoffSeconds) {
    add('podMaxBackoffSeconds', invalid('podMaxBackoffSeconds', String(config.podMaxBackoffSeconds), 'must be greater than or equal to PodInitialBackoffSeconds'));
  }
  return errs;
}

function percentage(path: string, value: number | undefined, add: (path: string, message: string) => void): void {
  if (value !== undefined && (value < 0 || value > 100)) add(path, invalid(path, String(value), 'not in valid range [0-100]'));
}

/** validatePluginConfig checks removed plugins, repeated args and the args of the plugins validation knows (validatePluginConfig). */
function validatePluginConfig(path: string, profile: Profile, add: (path: string, message: string) => void): void {
  const version = `"${GROUP_VERSION}" (KubeSchedulerConfiguration is version "${GROUP_VERSION}")`;
  for (const [key, point] of Object.entries(POINT_KEYS)) {
    profile.extensionPoints?.[point]?.enabled.forEach((p, i) => {
      const at = `${path}.plugins.${key}.enabled[${i}]`;
      if (INVALID_PLUGINS.includes(p.name)) add(at, invalid(at, goQuote(p.name), `was invalid in version ${version}`));
    });
  }
  const seen = new Set<string>();
  (profile.pluginConfig ?? []).forEach((c, i) => {
    const at = `${path}.pluginConfig[${i}]`;
    if (seen.has(c.name)) add(at, `${at}: Duplicate value: ${goQuote(c.name)}`);
    seen.add(c.name);
    if (INVALID_PLUGINS.includes(c.name)) add(at, invalid(at, goQuote(c.name), `was invalid in version ${version}`));
    else for (const m of validateArgs(`${at}.args`, c.name, c.args)) add(`${at}.args`, m);
  });
}

/** validateArgs is validation_pluginargs.go for the args ValidateKubeSchedulerConfiguration checks (not NodeResourcesFit's: its plugin does). */
function validateArgs(path: string, name: string, a: Readonly<Fields>): string[] {
  const errs: string[] = [];
  const num = (k: string): number => Number(a[k] ?? 0);
  if (name === 'DefaultPreemption') {
    const pct = num('minCandidateNodesPercentage');
    const abs = num('minCandidateNodesAbsolute');
    if (pct < 0 || pct > 100) errs.push(invalid(`${path}.minCandidateNodesPercentage`, String(pct), 'not in valid range [0, 100]'));
    if (abs < 0) errs.push(invalid(`${path}.minCandidateNodesAbsolute`, String(abs), 'not in valid range [0, inf)'));
    if (pct === 0 && abs === 0) {
      errs.push(invalid(`${path}.minCandidateNodesPercentage`, '0', 'cannot be zero at the same time as minCandidateNodesAbsolute'));
      errs.push(invalid(`${path}.minCandidateNodesAbsolute`, '0', 'cannot be zero at the same time as minCandidateNodesPercentage'));
    }
  } else if (name === 'InterPodAffinity') {
    const w = num('hardPodAffinityWeight');
    if (w < 0 || w > 100) errs.push(invalid(`${path}.hardPodAffinityWeight`, String(w), 'not in valid range [0, 100]'));
  } else if (name === 'NodeResourcesBalancedAllocation') {
    const names = new Set<string>();
    ((a['resources'] as Fields[] | undefined) ?? []).forEach((r, i) => {
      const rn = String(r['name'] ?? '');
      if (names.has(rn)) errs.push(`${path}.resources[${i}].name: Duplicate value: ${goQuote(rn)}`);
      names.add(rn);
      if (Number(r['weight']) !== 1) errs.push(invalid(`${path}.resources[${i}].weight`, String(r['weight']), 'must be 1'));
    });
  } else if (name === 'PodTopologySpread') {
    const type = String(a['defaultingType'] ?? '');
    const constraints = (a['defaultConstraints'] as Fields[] | undefined) ?? [];
    if (type !== 'System' && type !== 'List') errs.push(notSupported(`${path}.defaultingType`, type, ['System', 'List']));
    else if (type === 'System' && constraints.length > 0) errs.push(invalid(`${path}.defaultingType`, goQuote(type), 'when .defaultConstraints are not empty'));
    constraints.forEach((c, i) => {
      const at = `${path}.defaultConstraints[${i}]`;
      if (Number(c['maxSkew'] ?? 0) <= 0) errs.push(invalid(`${at}.maxSkew`, String(c['maxSkew'] ?? 0), 'not in valid range (0, inf)'));
      if (!c['topologyKey']) errs.push(`${at}.topologyKey: Required value: can not be empty`);
      const w = String(c['whenUnsatisfiable'] ?? '');
      if (w === '') errs.push(`${at}.whenUnsatisfiable: Required value: can not be empty`);
      else if (w !== 'DoNotSchedule' && w !== 'ScheduleAnyway') errs.push(notSupported(`${at}.whenUnsatisfiable`, w, ['DoNotSchedule', 'ScheduleAnyway']));
      if (c['labelSelector'] !== undefined) errs.push(`${at}.labelSelector: Forbidden: constraint must not define a selector, as they deduced for each pod`);
      const dup = constraints.slice(0, i).some((o) => o['topologyKey'] === c['topologyKey'] && o['whenUnsatisfiable'] === c['whenUnsatisfiable']);
      if (dup) errs.push(`${path}.defaultConstraints[${i}]: Duplicate value: ${goQuote(`{${String(c['topologyKey'])}, ${w}}`)}`);
    });
  } else if (name === 'VolumeBinding') {
    if (num('bindTimeoutSeconds') < 0) errs.push(invalid(`${path}.bindTimeoutSeconds`, String(num('bindTimeoutSeconds')), 'invalid BindTimeoutSeconds, should not be a negative value'));
    // Why: StorageCapacityScoring is off in 1.36, and a shape is refused while it is.
    if (a['shape'] !== undefined) errs.push(`${path}.shape: Invalid value: ${JSON.stringify(a['shape'])}: unexpected field \`shape\`, remove it or turn on the feature gate StorageCapacityScoring`);
  }
  return errs;
}
