// A container's env and envFrom: names, exactly one valueFrom source, downward API field and resource selectors,
// ConfigMap, Secret and file key selectors, the volume a fileKeyRef reads. See pkg/apis/core/validation/validation.go (ValidateEnv, ValidateEnvFrom) and
// pkg/api/pod's ConvertDownwardAPIFieldLabel (pkg/apis/core/pods/helpers.go).
import type { EnvFromSource, EnvVar, ObjectFieldSelector, ResourceFieldSelector } from 'kubernetes-types/core/v1';
import { parseQuantity } from '../../api/quantity';
import { child, type FieldError, index, invalidValue, notFound, notSupported, required } from './field-errors';
import { isConfigMapKey, isDNS1123Label, isQualifiedName, isRelaxedEnvVarName, nameIsDNSSubdomain } from './names';
import type { EnvVarSource136, FileKeySelector } from './pod-types';

/** ENV_FIELD_PATHS is validEnvDownwardAPIFieldPathExpressions, sorted as sets.List prints it. */
const ENV_FIELD_PATHS = [
  'metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName', 'spec.serviceAccountName', 'status.hostIP',
  'status.hostIPs', 'status.podIP', 'status.podIPs',
];

/** VOLUME_FIELD_PATHS is validVolumeDownwardAPIFieldPathExpressions, sorted. */
export const VOLUME_FIELD_PATHS = ['metadata.annotations', 'metadata.labels', 'metadata.name', 'metadata.namespace', 'metadata.uid'];

/** RESOURCE_FIELD_PATHS is validContainerResourceFieldPathExpressions, sorted. */
const RESOURCE_FIELD_PATHS = ['limits.cpu', 'limits.ephemeral-storage', 'limits.memory', 'requests.cpu', 'requests.ephemeral-storage', 'requests.memory'];
const HUGEPAGES_FIELD_PREFIXES = ['limits.hugepages-', 'requests.hugepages-'];

// Why: ConvertDownwardAPIFieldLabel in pkg/apis/core/pods/helpers.go (spec.host is the old name of spec.nodeName).
const CONVERTIBLE_FIELD_LABELS = new Set([
  'metadata.annotations', 'metadata.labels', 'metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName',
  'spec.restartPolicy', 'spec.serviceAccountName', 'spec.schedulerName', 'status.phase', 'status.hostIP', 'status.hostIPs',
  'status.podIP', 'status.podIPs',
]);

const CPU_DIVISORS = new Set(['1m', '1']);
const BYTE_DIVISORS = new Set(['1', '1k', '1M', '1G', '1T', '1P', '1E', '1Ki', '1Mi', '1Gi', '1Ti', '1Pi', '1Ei']);
const BYTE_DIVISOR_LIST = "1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei";

/** validateEnv is ValidateEnv: each name (relaxed: printable ASCII but '='), then its valueFrom. */
export function validateEnv(vars: EnvVar[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  (vars ?? []).forEach((ev, i) => {
    const at = index(path, i);
    const name = ev.name ?? '';
    if (!name) errs.push(required(child(at, 'name')));
    else errs.push(...isRelaxedEnvVarName(name).map((msg) => invalidValue(child(at, 'name'), name, msg)));
    errs.push(...validateEnvVarValueFrom(ev, child(at, 'valueFrom')));
  });
  return errs;
}

/** validateEnvVarValueFrom is validateEnvVarValueFrom: one source, never beside a value. */
function validateEnvVarValueFrom(ev: EnvVar, path: string): FieldError[] {
  const from = ev.valueFrom as EnvVarSource136 | undefined;
  if (!from) return [];
  const errs: FieldError[] = [];
  let sources = 0;
  if (from.fieldRef) {
    sources++;
    errs.push(...validateObjectFieldSelector(from.fieldRef, ENV_FIELD_PATHS, child(path, 'fieldRef')));
  }
  if (from.resourceFieldRef) {
    sources++;
    errs.push(...validateResourceFieldSelector(from.resourceFieldRef, false, child(path, 'resourceFieldRef')));
  }
  if (from.configMapKeyRef) {
    sources++;
    errs.push(...validateKeySelector(from.configMapKeyRef.name, from.configMapKeyRef.key, child(path, 'configMapKeyRef')));
  }
  if (from.secretKeyRef) {
    sources++;
    errs.push(...validateKeySelector(from.secretKeyRef.name, from.secretKeyRef.key, child(path, 'secretKeyRef')));
  }
  if (from.fileKeyRef) {
    sources++;
    errs.push(...validateFileKeySelector(from.fileKeyRef, child(path, 'fileKeyRef')));
  }
  if (sources === 0) {
    // AllowEnvFilesValidation: EnvFiles is on (pkg/api/pod/util.go GetValidationOptionsFromPodSpecAndMeta, v1.36.3).
    errs.push(invalidValue(path, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef`, `secretKeyRef` or `fileKeyRef`'));
  } else if (ev.value) {
    errs.push(invalidValue(path, '', 'may not be specified when `value` is not empty'));
  } else if (sources > 1) {
    errs.push(invalidValue(path, '', 'may not have more than one field specified at a time'));
  }
  return errs;
}

/**
 * validateObjectFieldSelector is validateObjectFieldSelector: apiVersion and fieldPath set, a field label v1 converts,
 * a qualified key in a labels/annotations subscript, otherwise one of the allowed paths.
 */
export function validateObjectFieldSelector(fs: ObjectFieldSelector, allowed: readonly string[], path: string): FieldError[] {
  if (!fs.apiVersion) return [required(child(path, 'apiVersion'))];
  const fieldPath = fs.fieldPath ?? '';
  if (!fieldPath) return [required(child(path, 'fieldPath'))];
  const conversionError = convertDownwardAPIFieldLabel(fs.apiVersion, fieldPath);
  if (conversionError) return [invalidValue(child(path, 'fieldPath'), fieldPath, `error converting fieldPath: ${conversionError}`)];
  const internal = fieldPath === 'spec.host' ? 'spec.nodeName' : fieldPath;
  const split = splitMaybeSubscriptedPath(internal);
  if (split) {
    if (split.path === 'metadata.annotations') return isQualifiedName(split.subscript.toLowerCase()).map((msg) => invalidValue(path, split.subscript.toLowerCase(), msg));
    if (split.path === 'metadata.labels') return isQualifiedName(split.subscript).map((msg) => invalidValue(path, split.subscript, msg));
    return [invalidValue(path, split.path, 'does not support subscript')];
  }
  if (!allowed.includes(internal)) return [notSupported(child(path, 'fieldPath'), internal, allowed)];
  return [];
}

/** convertDownwardAPIFieldLabel returns ConvertDownwardAPIFieldLabel's error for a v1 field label, if any. */
function convertDownwardAPIFieldLabel(version: string, label: string): string | undefined {
  if (version !== 'v1') return `unsupported pod version: ${version}`;
  const split = splitMaybeSubscriptedPath(label);
  if (split) return split.path === 'metadata.annotations' || split.path === 'metadata.labels' ? undefined : `field label does not support subscript: ${label}`;
  return CONVERTIBLE_FIELD_LABELS.has(label) || label === 'spec.host' ? undefined : `field label not supported: ${label}`;
}

/** splitMaybeSubscriptedPath is fieldpath.SplitMaybeSubscriptedPath: `metadata.labels['app']` → path and subscript. */
function splitMaybeSubscriptedPath(fieldPath: string): { path: string; subscript: string } | undefined {
  if (!fieldPath.endsWith("']")) return undefined;
  const s = fieldPath.slice(0, -2);
  const at = s.indexOf("['");
  if (at <= 0) return undefined;
  return { path: s.slice(0, at), subscript: s.slice(at + 2) };
}

/** validateResourceFieldSelector is validateContainerResourceFieldSelector, then the divisor check. */
export function validateResourceFieldSelector(fs: ResourceFieldSelector, volume: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const resource = fs.resource ?? '';
  if (volume && !fs.containerName) errs.push(required(child(path, 'containerName')));
  else if (!resource) errs.push(required(child(path, 'resource')));
  else if (!RESOURCE_FIELD_PATHS.includes(resource) && !HUGEPAGES_FIELD_PREFIXES.some((p) => resource.startsWith(p))) {
    errs.push(notSupported(child(path, 'resource'), resource, RESOURCE_FIELD_PATHS));
  }
  errs.push(...validateDivisor(resource, fs.divisor, path));
  return errs;
}

/** validateDivisor is validateContainerResourceDivisor: the divisors each resource supports, unset allowed. */
function validateDivisor(resource: string, divisor: string | number | undefined, path: string): FieldError[] {
  if (divisor === undefined || divisor === null) return [];
  let text: string;
  try {
    const q = parseQuantity(divisor);
    if (q.isZero()) return [];
    text = q.toString();
  } catch {
    return [];
  }
  const at = child(path, 'divisor');
  if (resource === 'limits.cpu' || resource === 'requests.cpu') {
    return CPU_DIVISORS.has(text) ? [] : [invalidValue(at, resource, "only divisor's values 1m and 1 are supported with the cpu resource")];
  }
  const kind = resource === 'limits.memory' || resource === 'requests.memory' ? 'memory'
    : resource === 'limits.ephemeral-storage' || resource === 'requests.ephemeral-storage' ? 'local ephemeral storage'
      : HUGEPAGES_FIELD_PREFIXES.some((p) => resource.startsWith(p)) ? 'hugepages' : undefined;
  if (!kind || BYTE_DIVISORS.has(text)) return [];
  return [invalidValue(at, resource, `only divisor's values ${BYTE_DIVISOR_LIST} are supported with the ${kind} resource`)];
}

/** validateKeySelector is validateConfigMapKeySelector / validateSecretKeySelector: a subdomain name and a config key. */
function validateKeySelector(name: string | undefined, keyName: string | undefined, path: string): FieldError[] {
  const errs = nameIsDNSSubdomain(name ?? '', false).map((msg) => invalidValue(child(path, 'name'), name ?? '', msg));
  if (!keyName) errs.push(required(child(path, 'key')));
  else errs.push(...isConfigMapKey(keyName).map((msg) => invalidValue(child(path, 'key'), keyName, msg)));
  return errs;
}

/**
 * validateFileKeySelector is validateFileKeySelector (EnvFiles, beta and on since 1.35): an env var key, a volume name
 * (DNS label), a path without `..` (validatePathNoBacksteps). That the volume exists and is an emptyDir is checked
 * with the pod spec (validateFileKeyRefVolumes). See pkg/apis/core/validation/validation.go, v1.36.3.
 */
function validateFileKeySelector(s: FileKeySelector, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!s.key) errs.push(required(child(path, 'key')));
  else errs.push(...isRelaxedEnvVarName(s.key).map((msg) => invalidValue(child(path, 'key'), s.key, msg)));
  if (!s.volumeName) errs.push(required(child(path, 'volumeName')));
  else errs.push(...isDNS1123Label(s.volumeName).map((msg) => invalidValue(child(path, 'volumeName'), s.volumeName, msg)));
  if (!s.path) errs.push(required(child(path, 'path')));
  else if (s.path.split('/').includes('..')) errs.push(invalidValue(child(path, 'path'), s.path, "must not contain '..'"));
  return errs;
}

/** validateEnvFrom is ValidateEnvFrom: the prefix, one of configMapRef and secretRef (errors at the list's path). */
export function validateEnvFrom(sources: EnvFromSource[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  (sources ?? []).forEach((ev, i) => {
    const at = index(path, i);
    if (ev.prefix) errs.push(...isRelaxedEnvVarName(ev.prefix).map((msg) => invalidValue(child(at, 'prefix'), ev.prefix, msg)));
    let count = 0;
    if (ev.configMapRef) {
      count++;
      errs.push(...validateEnvSourceName(ev.configMapRef.name, child(at, 'configMapRef')));
    }
    if (ev.secretRef) {
      count++;
      errs.push(...validateEnvSourceName(ev.secretRef.name, child(at, 'secretRef')));
    }
    // Why: these two errors use fldPath, the list's path, not the entry's (ValidateEnvFrom).
    if (count === 0) errs.push(invalidValue(path, '', 'must specify one of: `configMapRef` or `secretRef`'));
    else if (count > 1) errs.push(invalidValue(path, '', 'may not have more than one field specified at a time'));
  });
  return errs;
}

/** validateEnvSourceName is validateConfigMapEnvSource / validateSecretEnvSource: required, a subdomain as a prefix. */
function validateEnvSourceName(name: string | undefined, path: string): FieldError[] {
  if (!name) return [required(child(path, 'name'))];
  return nameIsDNSSubdomain(name, true).map((msg) => invalidValue(child(path, 'name'), name, msg));
}

/**
 * validateFileKeyRefVolumes is validateFileKeyRefVolumes: the volume a fileKeyRef names exists in the pod spec and is an
 * emptyDir, for every container (init, regular, ephemeral). See pkg/apis/core/validation/validation.go, v1.36.3.
 */
export function validateFileKeyRefVolumes(spec: { volumes?: { name?: string; emptyDir?: unknown }[] | null } & Record<string, unknown>, path: string): FieldError[] {
  const volumes = new Map((spec.volumes ?? []).map((v) => [v.name ?? '', v]));
  const errs: FieldError[] = [];
  for (const list of ['initContainers', 'containers', 'ephemeralContainers']) {
    const containers = Array.isArray(spec[list]) ? spec[list] as { env?: EnvVar[] }[] : [];
    containers.forEach((c, i) => (c.env ?? []).forEach((ev, j) => {
      const ref = (ev.valueFrom as EnvVarSource136 | undefined)?.fileKeyRef;
      if (!ref) return;
      const name = ref.volumeName ?? '';
      const at = `${path}.${list}[${i}].env[${j}].valueFrom.fileKeyRef.volumeName`;
      const volume = volumes.get(name);
      if (!volume) errs.push(notFound(at, name));
      else if (volume.emptyDir === undefined || volume.emptyDir === null) errs.push(invalidValue(at, name, 'referenced volume must be of type emptyDir'));
    }));
  }
  return errs;
}
