// HorizontalPodAutoscaler metrics validation: each metric's source type, the one source field it populates, and its
// target (type, positive values, the values each source needs). Why: validateMetrics, validateMetricSpec,
// validateObjectSource, validateExternalSource, validatePodsSource, validateContainerResourceSource,
// validateResourceSource, validateMetricTarget, validateMetricIdentifier, ValidateCrossVersionObjectReference and
// ValidateAPIVersion in pkg/apis/autoscaling/validation/validation.go (v1.36.3), with the options
// validationOptionsForHorizontalPodAutoscaler gives on create (pkg/registry/autoscaling/horizontalpodautoscaler/
// strategy.go, v1.36.3), IsPathSegmentName from staging/src/k8s.io/apimachinery/pkg/api/validate/content/path.go and
// ParseGroupVersion from staging/src/k8s.io/apimachinery/pkg/runtime/schema/group_version.go (v0.36.3).
import { appendFieldPath } from '../../api/fieldpath';
import { parseQuantity } from '../../api/quantity';
import { asJSON, type FieldError, forbidden, invalidValue, notSupported, required } from './field-errors';
import { isDNS1123Label, isQualifiedName } from './names';
import { isExtendedResourceName, isNative, isStandardResourceName } from './pod-resources';

type Quantity = string | number;
interface MetricTarget { type?: string; value?: Quantity; averageValue?: Quantity; averageUtilization?: number }
interface MetricIdentifier { name?: string }
interface MetricSpec {
  type?: string;
  object?: { describedObject?: { kind?: string; name?: string; apiVersion?: string }; metric?: MetricIdentifier; target?: MetricTarget };
  pods?: { metric?: MetricIdentifier; target?: MetricTarget };
  resource?: { name?: string; target?: MetricTarget };
  containerResource?: { name?: string; container?: string; target?: MetricTarget };
  external?: { metric?: MetricIdentifier; target?: MetricTarget };
}

/** METRIC_SOURCE_TYPES are validMetricSourceTypes, sorted as sets.List sorts them. */
const METRIC_SOURCE_TYPES = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'];
/** The source fields in the order validateMetricSpec looks at them, with their metric type. */
const SOURCES = [['object', 'Object'], ['external', 'External'], ['pods', 'Pods'], ['resource', 'Resource'], ['containerResource', 'ContainerResource']] as const;

const present = (v: unknown): boolean => v !== undefined && v !== null;

/** isValidPathSegmentName is content.IsPathSegmentName: not `.` or `..`, else no `/` or `%`. */
export function isValidPathSegmentName(name: string): string[] {
  if (name === '.' || name === '..') return [`may not be '${name}'`];
  return ['/', '%'].filter((c) => name.includes(c)).map((c) => `may not contain '${c}'`);
}

/** CrossVersionObjectReferenceValidationOptions: whether the apiVersion may be left unchecked, or name no group. */
export interface RefOptions { allowInvalidAPIVersion?: boolean; allowEmptyAPIGroup?: boolean }

/** validateAPIVersion is ValidateAPIVersion: schema.ParseGroupVersion's error, or a group required unless allowed. */
function validateAPIVersion(apiVersion: string, opts: RefOptions): string | undefined {
  if (opts.allowInvalidAPIVersion) return undefined;
  if (apiVersion === '' || apiVersion === '/') return opts.allowEmptyAPIGroup ? undefined : 'apiVersion must specify API group';
  const slashes = apiVersion.split('/').length - 1;
  if (slashes > 1) return `unexpected GroupVersion string: ${apiVersion}`;
  const group = slashes === 0 ? '' : apiVersion.slice(0, apiVersion.indexOf('/'));
  return !opts.allowEmptyAPIGroup && group === '' ? 'apiVersion must specify API group' : undefined;
}

/**
 * validateCrossVersionObjectReference is ValidateCrossVersionObjectReference: kind and name required, each a path
 * segment, then the apiVersion (ValidateAPIVersion with the options given).
 */
export function validateCrossVersionObjectReference(ref: { kind?: string; name?: string; apiVersion?: string } | undefined, path: string, opts: RefOptions): FieldError[] {
  const errs: FieldError[] = [];
  for (const key of ['kind', 'name'] as const) {
    const value = ref?.[key] ?? '';
    if (!value) errs.push(required(`${path}.${key}`));
    else for (const msg of isValidPathSegmentName(value)) errs.push(invalidValue(`${path}.${key}`, value, msg));
  }
  const apiVersion = ref?.apiVersion ?? '';
  const err = validateAPIVersion(apiVersion, opts);
  if (err !== undefined) errs.push(invalidValue(`${path}.apiVersion`, apiVersion, err));
  return errs;
}

/** OBJECT_METRICS_OPTIONS are ObjectMetricsValidationOptions on create: a described object may name no group. */
const OBJECT_METRICS_OPTIONS: RefOptions = { allowInvalidAPIVersion: false, allowEmptyAPIGroup: true };

/**
 * validateMetrics is validateMetrics: every metric spec, and with minReplicas 0 (which validateHorizontalPodAutoscalerSpec
 * also refuses while HPAScaleToZero is off) at least one Object or External metric.
 */
export function validateMetrics(metrics: readonly MetricSpec[] | undefined, path: string, minReplicas?: number): FieldError[] {
  const errs = (metrics ?? []).flatMap((m, i) => validateMetricSpec(m ?? {}, appendFieldPath(path, i)));
  const scalesToZero = (metrics ?? []).some((m) => m?.type === 'Object' || m?.type === 'External');
  if (minReplicas === 0 && !scalesToZero) errs.push(forbidden(path, 'must specify at least one Object or External metric to support scaling to zero replicas'));
  return errs;
}

function validateMetricSpec(spec: MetricSpec, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const type = spec.type ?? '';
  if (!type) errs.push(required(`${path}.type`, 'must specify a metric source type'));
  if (!METRIC_SOURCE_TYPES.includes(type)) errs.push(notSupported(`${path}.type`, asJSON(type), METRIC_SOURCE_TYPES));
  // Only the first source field present is validated; the others are forbidden below.
  const given = SOURCES.filter(([field]) => present(spec[field]));
  const first = given[0];
  if (first) errs.push(...validateSource(first[0], spec, `${path}.${first[0]}`));
  const expected = SOURCES.find(([, t]) => t === type)?.[0];
  if (expected && !present(spec[expected])) errs.push(required(`${path}.${expected}`, 'must populate information for the given metric source'));
  if (!expected) errs.push(notSupported(`${path}.type`, asJSON(type), METRIC_SOURCE_TYPES));
  if (given.length !== 1) {
    for (const [field] of given) if (field !== expected) errs.push(forbidden(`${path}.${field}`, 'must populate the given metric source only'));
  }
  return errs;
}

function validateSource(field: typeof SOURCES[number][0], spec: MetricSpec, path: string): FieldError[] {
  const target = `${path}.target`;
  switch (field) {
    case 'object': {
      const src = spec.object!;
      const t = src.target ?? {};
      return [
        ...validateCrossVersionObjectReference(src.describedObject, `${path}.describedObject`, OBJECT_METRICS_OPTIONS),
        ...validateMetricIdentifier(src.metric, `${path}.metric`), ...validateMetricTarget(t, target),
        ...(!present(t.value) && !present(t.averageValue) ? [required(`${target}.averageValue`, 'must set either a target value or averageValue')] : []),
      ];
    }
    case 'external': {
      const src = spec.external!;
      const t = src.target ?? {};
      return [
        ...validateMetricIdentifier(src.metric, `${path}.metric`), ...validateMetricTarget(t, target),
        ...(!present(t.value) && !present(t.averageValue) ? [required(`${target}.averageValue`, 'must set either a target value for metric or a per-pod target')] : []),
        ...(present(t.value) && present(t.averageValue) ? [forbidden(`${target}.value`, 'may not set both a target value for metric and a per-pod target')] : []),
      ];
    }
    case 'pods': {
      const src = spec.pods!;
      const t = src.target ?? {};
      return [
        ...validateMetricIdentifier(src.metric, `${path}.metric`), ...validateMetricTarget(t, target),
        ...(!present(t.averageValue) ? [required(`${target}.averageValue`, 'must specify a positive target averageValue')] : []),
      ];
    }
    case 'resource': {
      const src = spec.resource!;
      return [...(!src.name ? [required(`${path}.name`, 'must specify a resource name')] : []), ...validateResourceTarget(src.target ?? {}, target)];
    }
    case 'containerResource': {
      const src = spec.containerResource!;
      const errs: FieldError[] = [];
      if (!src.name) errs.push(required(`${path}.name`, 'must specify a resource name'));
      else errs.push(...validateContainerResourceName(src.name, `${path}.name`));
      if (!src.container) errs.push(required(`${path}.container`, 'must specify a container'));
      else for (const msg of isDNS1123Label(src.container)) errs.push(invalidValue(`${path}.container`, src.container, msg));
      return [...errs, ...validateResourceTarget(src.target ?? {}, target)];
    }
  }
}

/** validateResourceTarget is the target part of validateResourceSource and validateContainerResourceSource. */
function validateResourceTarget(t: MetricTarget, path: string): FieldError[] {
  return [
    ...validateMetricTarget(t, path),
    ...(!present(t.averageUtilization) && !present(t.averageValue) ? [required(`${path}.averageUtilization`, 'must set either a target raw value or a target utilization')] : []),
    ...(present(t.averageUtilization) && present(t.averageValue) ? [forbidden(`${path}.averageValue`, 'may not set both a target raw value and a target utilization')] : []),
  ];
}

/**
 * validateContainerResourceName is ValidateContainerResourceName of pkg/apis/core/v1/validation/validation.go
 * (v1.36.3): validateResourceName (a qualified name, checked as a plain string; a standard resource when it has no
 * domain), then a standard container resource when it has no domain, else a native or extended resource name.
 */
function validateContainerResourceName(name: string, path: string): FieldError[] {
  const errs = isQualifiedName(name).map((msg) => invalidValue(path, name, msg));
  if (errs.length === 0 && !name.includes('/') && !isStandardResourceName(name)) {
    errs.push(invalidValue(path, asJSON(name), 'must be a standard resource type or fully qualified'));
  }
  if (!name.includes('/')) {
    const container = ['cpu', 'memory', 'ephemeral-storage'].includes(name) || name.startsWith('hugepages-');
    if (!container) errs.push(invalidValue(path, asJSON(name), 'must be a standard resource for containers'));
  } else if (!isNative(name) && !isExtendedResourceName(name)) {
    errs.push(invalidValue(path, asJSON(name), "doesn't follow extended resource name standard"));
  }
  return errs;
}

/** quantity parses a target value; undefined for one no parser reads (decoding refuses those first). */
function quantity(q: Quantity): ReturnType<typeof parseQuantity> | undefined {
  try {
    return parseQuantity(q);
  } catch {
    return undefined;
  }
}

/**
 * notPositive is the `must be positive` error of a *resource.Quantity: Sign() != 1, the value printed by
 * json.Marshal as its canonical string (`"-500m"` for -0.5).
 */
function notPositive(q: Quantity | undefined, path: string): FieldError[] {
  if (!present(q)) return [];
  const parsed = quantity(q!);
  if (parsed && parsed.sign() === 1) return [];
  return [invalidValue(path, asJSON(parsed ? parsed.toString() : String(q)), 'must be positive')];
}

function validateMetricTarget(t: MetricTarget, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const type = t.type ?? '';
  if (!type) errs.push(required(`${path}.type`, 'must specify a metric target type'));
  if (type !== 'Utilization' && type !== 'Value' && type !== 'AverageValue') errs.push(invalidValue(`${path}.type`, asJSON(type), 'must be either Utilization, Value, or AverageValue'));
  errs.push(...notPositive(t.value, `${path}.value`), ...notPositive(t.averageValue, `${path}.averageValue`));
  if (present(t.averageUtilization) && t.averageUtilization! < 1) errs.push(invalidValue(`${path}.averageUtilization`, t.averageUtilization, 'must be greater than 0'));
  return errs;
}

function validateMetricIdentifier(id: MetricIdentifier | undefined, path: string): FieldError[] {
  const name = id?.name ?? '';
  if (!name) return [required(`${path}.name`, 'must specify a metric name')];
  return isValidPathSegmentName(name).map((msg) => invalidValue(`${path}.name`, name, msg));
}
