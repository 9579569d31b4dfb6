// The PodSecurity plugin's configuration: a PodSecurityConfiguration given alone or inside an AdmissionConfiguration,
// decoded strictly, defaulted and validated as kube-apiserver does when it starts, and kept per simulated cluster.
// See staging/src/k8s.io/pod-security-admission/admission/api (types, defaults, load, validation) and admission.go.
import { appendFieldPath } from '../../../api/fieldpath';
import { isObject } from '../../../api/types';
import { Checker, type Fields } from '../../../cluster/checker';
import { InputError, type SourceDocument } from '../../../cluster/inputs';
import type { EngineContext } from '../../../context';
import { isDNS1123Label, isDNS1123Subdomain } from '../../validation/names';
import { aggregateString, type Level, LATEST, type Mode, MODES, parseLevel, parseVersion, type Policy } from './levels';

/** PodSecurityExemptions are the users, namespaces and runtime classes the plugin never checks. */
export interface PodSecurityExemptions {
  usernames: string[];
  namespaces: string[];
  runtimeClasses: string[];
}

/** PodSecurityConfiguration is the decoded, defaulted and validated configuration (admission/api PodSecurityConfiguration). */
export interface PodSecurityConfiguration {
  defaults: Policy;
  exemptions: PodSecurityExemptions;
  /** source says where the configuration came from, for the trace; absent for the built-in default. */
  source?: string;
}

const PRIVILEGED_LATEST = { level: 'privileged' as Level, version: LATEST };

/** DEFAULT_CONFIGURATION is what kube-apiserver uses with no configuration: privileged at latest in every mode (load.LoadFromData(nil)). */
export const DEFAULT_CONFIGURATION: PodSecurityConfiguration = {
  defaults: { enforce: PRIVILEGED_LATEST, audit: PRIVILEGED_LATEST, warn: PRIVILEGED_LATEST },
  exemptions: { usernames: [], namespaces: [], runtimeClasses: [] },
};

const GROUP = 'pod-security.admission.config.k8s.io';
/** VERSIONS are the versions of PodSecurityConfiguration the decoder knows (admission/api/scheme). */
const VERSIONS = ['v1', 'v1beta1', 'v1alpha1'];
const ADMISSION_GROUP = 'apiserver.config.k8s.io';
const PLUGIN_NAME = 'PodSecurity';
const DEFAULT_KEYS: Record<Mode, { level: string; version: string }> = {
  enforce: { level: 'enforce', version: 'enforce-version' },
  audit: { level: 'audit', version: 'audit-version' },
  warn: { level: 'warn', version: 'warn-version' },
};

/** Found is one PodSecurityConfiguration in the cluster's config documents: the document and the path of the object in it. */
interface Found {
  doc: SourceDocument;
  path: string;
  object: Fields;
}

/** findConfigurations lists the PodSecurityConfigurations given alone and those under an AdmissionConfiguration's PodSecurity entry. */
function findConfigurations(docs: readonly SourceDocument[]): Found[] {
  const found: Found[] = [];
  for (const doc of docs) {
    const [group] = String(doc.object.apiVersion ?? '').split('/');
    if (doc.object.kind === 'PodSecurityConfiguration' && group === GROUP) found.push({ doc, path: '', object: doc.object as Fields });
    if (doc.object.kind !== 'AdmissionConfiguration' || group !== ADMISSION_GROUP) continue;
    const plugins = (doc.object as Fields)['plugins'];
    if (!Array.isArray(plugins)) continue;
    // Why: kube-apiserver takes the first entry that names the plugin (apiserver/pkg/admission/config.go GetAdmissionPluginConfigurationFor).
    const index = plugins.findIndex((p: unknown) => isObject(p) && p['name'] === PLUGIN_NAME);
    if (index < 0) continue;
    const entry = plugins[index] as Fields;
    const path = appendFieldPath(appendFieldPath('plugins', index), 'configuration');
    const c = new Checker(doc);
    if (entry['configuration'] == null) {
      // The simulation reads no files but the ones given: a configuration kept in another file cannot be followed.
      if (entry['path'] != null) c.fail(appendFieldPath(appendFieldPath('plugins', index), 'path'), 'the simulation does not read files an AdmissionConfiguration names: put the PodSecurityConfiguration under configuration');
      continue;
    }
    found.push({ doc, path, object: c.mapping(path, entry['configuration']) ?? {} });
  }
  return found;
}

/** loadError raises what kube-apiserver says when the plugin cannot be created, at the field it is about. */
function loadError(c: Checker, path: string, problem: string, at: 'key' | 'value' = 'value'): never {
  throw new InputError(c.doc.file, c.line(path, at), `couldn't init admission plugin "${PLUGIN_NAME}": ${problem}`);
}

/** decode checks the object's kind and version and its fields, strictly (admission/api/load.LoadFromData with a strict codec). */
function decode(found: Found): { defaults: Fields; exemptions: Fields } {
  const c = new Checker(found.doc);
  const at = (name: string): string => (found.path === '' ? name : appendFieldPath(found.path, name));
  const { apiVersion, kind } = found.object;
  if (typeof apiVersion !== 'string' || apiVersion === '') loadError(c, at('apiVersion'), `Object 'apiVersion' is missing in '${JSON.stringify(found.object)}'`);
  if (typeof kind !== 'string' || kind === '') loadError(c, at('kind'), `Object 'Kind' is missing in '${JSON.stringify(found.object)}'`);
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  if (group !== GROUP || !VERSIONS.includes(version ?? '') || kind !== 'PodSecurityConfiguration') {
    loadError(c, at('apiVersion'), `no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)} in scheme "k8s.io/pod-security-admission/admission/api/scheme/scheme.go"`);
  }
  // Why: the scheme's codec is strict (admission/api/scheme: serializer.EnableStrict); the field is named from the object's root.
  const strict = (rel: string, value: Fields, allowed: readonly string[]): void => {
    const unknown = Object.keys(value).find((k) => !allowed.includes(k));
    if (unknown === undefined) return;
    loadError(c, appendFieldPath(rel === '' ? found.path : at(rel), unknown), `strict decoding error: unknown field "${rel === '' ? unknown : `${rel}.${unknown}`}"`, 'key');
  };
  strict('', found.object, ['apiVersion', 'kind', 'defaults', 'exemptions']);
  const defaults = c.mapping(at('defaults'), found.object['defaults']) ?? {};
  const exemptions = c.mapping(at('exemptions'), found.object['exemptions']) ?? {};
  strict('defaults', defaults, Object.values(DEFAULT_KEYS).flatMap((k) => [k.level, k.version]));
  strict('exemptions', exemptions, ['usernames', 'namespaces', 'runtimeClasses']);
  return { defaults, exemptions };
}

/**
 * readConfiguration decodes, defaults and validates one configuration; what kube-apiserver would refuse to start with
 * is an InputError at the field (admission.go CompleteConfiguration and ValidateConfiguration).
 */
function readConfiguration(found: Found): PodSecurityConfiguration {
  const c = new Checker(found.doc);
  const at = (...names: string[]): string => names.reduce((p, n) => (p === '' ? n : appendFieldPath(p, n)), found.path);
  const { defaults, exemptions } = decode(found);
  const policy: Partial<Record<Mode, Policy[Mode]>> = {};
  const policyErrors: string[] = [];
  const firstBad: string[] = [];
  for (const mode of MODES) {
    const keys = DEFAULT_KEYS[mode];
    // Why: an empty value takes the default (v1 defaults.go SetDefaults_PodSecurityDefaults).
    const levelText = c.string(at('defaults', keys.level), defaults[keys.level]) || 'privileged';
    const versionText = c.string(at('defaults', keys.version), defaults[keys.version]) || 'latest';
    const level = parseLevel(levelText);
    const version = parseVersion(versionText);
    const field = `${mode[0]!.toUpperCase()}${mode.slice(1)}`;
    if (level.error) {
      policyErrors.push(`${field}.Level: ${level.error}`);
      firstBad.push(at('defaults', keys.level));
    }
    if (version.error) {
      policyErrors.push(`${field}.Version: ${version.error}`);
      firstBad.push(at('defaults', keys.version));
    }
    policy[mode] = { level: level.value, version: version.value };
  }
  // Why: CompleteConfiguration's ToPolicy runs before validation, so a bad default is reported in its words.
  if (policyErrors.length) c.raise(firstBad[0]!, `${PLUGIN_NAME} configuration error: ${aggregateString(policyErrors)}`);
  const lists = {
    usernames: c.strings(at('exemptions', 'usernames'), exemptions['usernames']) ?? [],
    namespaces: c.strings(at('exemptions', 'namespaces'), exemptions['namespaces']) ?? [],
    runtimeClasses: c.strings(at('exemptions', 'runtimeClasses'), exemptions['runtimeClasses']) ?? [],
  };
  const invalid = validateExemptions(lists);
  if (invalid.length) c.raise(appendFieldPath(at('exemptions', invalid[0]!.list), invalid[0]!.index), `${PLUGIN_NAME} invalid: ${aggregateString(invalid.map((e) => e.message))}`);
  const where = found.path === '' ? `${found.doc.file} (PodSecurityConfiguration)` : `${found.doc.file} (AdmissionConfiguration ${found.path})`;
  return { defaults: policy as Policy, exemptions: lists, source: where };
}

/** ExemptionError is one field error of the exemptions, as validation.ValidatePodSecurityConfiguration words it. */
interface ExemptionError {
  list: keyof PodSecurityExemptions;
  index: number;
  message: string;
}

/** validateExemptions: namespaces are DNS labels, runtime classes DNS subdomains, usernames non-empty; no duplicates. */
function validateExemptions(lists: PodSecurityExemptions): ExemptionError[] {
  const errors: ExemptionError[] = [];
  const check = (list: keyof PodSecurityExemptions, validate: (value: string) => string[]): void => {
    const seen = new Set<string>();
    lists[list].forEach((value, index) => {
      const path = `exemptions.${list}[${index}]`;
      const problems = validate(value);
      if (problems.length) errors.push({ list, index, message: `${path}: Invalid value: ${JSON.stringify(value)}: ${problems.join(', ')}` });
      else if (seen.has(value)) errors.push({ list, index, message: `${path}: Duplicate value: ${JSON.stringify(value)}` });
      else seen.add(value);
    });
  };
  check('namespaces', isDNS1123Label);
  check('runtimeClasses', isDNS1123Subdomain);
  const seen = new Set<string>();
  lists.usernames.forEach((name, index) => {
    const path = `exemptions.usernames[${index}]`;
    if (name === '') errors.push({ list: 'usernames', index, message: `${path}: Required value` });
    else if (seen.has(name)) errors.push({ list: 'usernames', index, message: `${path}: Duplicate value: ${JSON.stringify(name)}` });
    else seen.add(name);
  });
  return errors;
}

/**
 * loadPodSecurityConfiguration finds and reads the cluster's PodSecurity configuration; with none, the default.
 * Two configurations are ambiguous input. It throws an InputError naming the file and line of the problem.
 */
export function loadPodSecurityConfiguration(docs: readonly SourceDocument[]): PodSecurityConfiguration {
  const found = findConfigurations(docs);
  if (found.length === 0) return DEFAULT_CONFIGURATION;
  if (found.length > 1) {
    const second = found[1]!;
    new Checker(second.doc).raise(second.path, `a second PodSecurity configuration; kube-apiserver takes one (the first is in ${found[0]!.doc.file})`);
  }
  return readConfiguration(found[0]!);
}

const configured = new WeakMap<EngineContext, PodSecurityConfiguration>();

/**
 * configurePodSecurity reads the cluster's PodSecurity configuration for a simulation, as kube-apiserver does at
 * start; an invalid one throws an InputError. Call it once, when the simulation is built.
 */
export function configurePodSecurity(ctx: EngineContext, docs: readonly SourceDocument[]): PodSecurityConfiguration {
  const config = loadPodSecurityConfiguration(docs);
  configured.set(ctx, config);
  return config;
}

/** podSecurityConfiguration is the configuration of a simulation: the one configured, else the default. */
export function podSecurityConfiguration(ctx: EngineContext): PodSecurityConfiguration {
  return configured.get(ctx) ?? DEFAULT_CONFIGURATION;
}
