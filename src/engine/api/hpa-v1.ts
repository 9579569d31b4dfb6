// autoscaling/v1 HorizontalPodAutoscalers over the stored autoscaling/v2 ones: v1 defaulting and the conversions both
// ways, keeping in annotations what v1 cannot express (its other metrics, current metrics, behavior and conditions).
// See pkg/apis/autoscaling/v1/conversion.go, pkg/apis/autoscaling/v1/defaults.go, pkg/apis/autoscaling/annotations.go
// and pkg/apis/autoscaling/helpers.go (DropRoundTripHorizontalPodAutoscalerAnnotations) at kubernetes v1.36.3.
import { DEFAULT_CPU_UTILIZATION } from './hpa-defaults';
import { parseQuantity, QuantityError } from './quantity';
import { isObject, type KubeObject } from './types';

type Json = Record<string, unknown>;

/** ANNOTATIONS are autoscaling's round-trip annotations (pkg/apis/autoscaling/annotations.go, v1.36.3). */
export const ANNOTATIONS = {
  metrics: 'autoscaling.alpha.kubernetes.io/metrics',
  currentMetrics: 'autoscaling.alpha.kubernetes.io/current-metrics',
  conditions: 'autoscaling.alpha.kubernetes.io/conditions',
  behavior: 'autoscaling.alpha.kubernetes.io/behavior',
  // Only dropped: no conversion of v1.36 writes or reads them.
  scaleDownTolerance: 'autoscaling.alpha.kubernetes.io/scale-down-tolerance',
  scaleUpTolerance: 'autoscaling.alpha.kubernetes.io/scale-up-tolerance',
} as const;


const obj = (v: unknown): Json | undefined => (isObject(v) ? v : undefined);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
/** q is a resource.Quantity as Go marshals it: its canonical string; "0" for a zero (absent) value one; text that does not parse as written. */
function q(v: unknown): string {
  if (v === undefined || v === null || v === '') return '0';
  try {
    return parseQuantity(v as string | number).toString();
  } catch (err) {
    if (err instanceof QuantityError) return String(v);
    throw err;
  }
}
/** qp is a *resource.Quantity: absent when nil. */
const qp = (v: unknown): string | undefined => (v === undefined || v === null ? undefined : q(v));
/** compact drops the undefined fields (omitempty), keeping the order written. */
function compact(o: Json): Json {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

/** goJson is json.Marshal's text of a value: map keys sorted, and <, >, & and the line separators escaped. */
export function goJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** selector is a *metav1.LabelSelector as encoded: matchLabels (keys sorted), matchExpressions. */
function selector(v: unknown): Json | undefined {
  const s = obj(v);
  if (!s) return undefined;
  const labels = obj(s.matchLabels);
  return compact({
    matchLabels: labels && Object.keys(labels).length > 0 ? Object.fromEntries(Object.keys(labels).sort().map((k) => [k, labels[k]])) : undefined,
    matchExpressions: Array.isArray(s.matchExpressions) && s.matchExpressions.length > 0
      ? s.matchExpressions.map((e) => { const x = obj(e) ?? {}; return compact({ key: x.key ?? '', operator: x.operator ?? '', values: Array.isArray(x.values) && x.values.length > 0 ? x.values : undefined }); })
      : undefined,
  });
}

/** objectRef is a CrossVersionObjectReference: kind, name, apiVersion (omitempty). */
function objectRef(v: unknown): Json {
  const r = obj(v) ?? {};
  return compact({ kind: r.kind ?? '', name: r.name ?? '', apiVersion: r.apiVersion || undefined });
}

/** isCPUUtilization is the metric v1 carries as targetCPUUtilizationPercentage. */
function isCPUUtilization(m: Json): boolean {
  const resource = obj(m.resource);
  return m.type === 'Resource' && resource !== undefined && resource.name === 'cpu' && obj(resource.target)?.averageUtilization !== undefined;
}

/** metricSpecToV1 is Convert_autoscaling_MetricSpec_To_v1_MetricSpec, fields in v1's order. */
function metricSpecToV1(m: Json): Json {
  const o = obj(m.object); const p = obj(m.pods); const r = obj(m.resource); const c = obj(m.containerResource); const e = obj(m.external);
  const target = (x: Json | undefined) => obj(x?.target) ?? {};
  const metric = (x: Json | undefined) => obj(x?.metric) ?? {};
  return compact({
    type: m.type ?? '',
    object: o && compact({ target: objectRef(o.describedObject), metricName: metric(o).name ?? '', targetValue: q(target(o).value), selector: selector(metric(o).selector), averageValue: qp(target(o).averageValue) }),
    pods: p && compact({ metricName: metric(p).name ?? '', targetAverageValue: q(target(p).averageValue), selector: selector(metric(p).selector) }),
    resource: r && compact({ name: r.name ?? '', targetAverageUtilization: target(r).averageUtilization, targetAverageValue: qp(target(r).averageValue) }),
    containerResource: c && compact({ name: c.name ?? '', targetAverageUtilization: target(c).averageUtilization, targetAverageValue: qp(target(c).averageValue), container: c.container ?? '' }),
    external: e && compact({ metricName: metric(e).name ?? '', metricSelector: selector(metric(e).selector), targetValue: qp(target(e).value), targetAverageValue: qp(target(e).averageValue) }),
  });
}

/** metricSpecFromV1 is Convert_v1_MetricSpec_To_autoscaling_MetricSpec. */
function metricSpecFromV1(m: Json): Json {
  const o = obj(m.object); const p = obj(m.pods); const r = obj(m.resource); const c = obj(m.containerResource); const e = obj(m.external);
  const resourceTarget = (x: Json) => compact({ type: x.targetAverageUtilization === undefined || x.targetAverageUtilization === null ? 'AverageValue' : 'Utilization', averageValue: qp(x.targetAverageValue), averageUtilization: x.targetAverageUtilization ?? undefined });
  const metric = (name: unknown, sel: unknown) => compact({ name: name ?? '', selector: selector(sel) });
  return compact({
    type: m.type ?? '',
    object: o && {
      describedObject: objectRef(o.target), metric: metric(o.metricName, o.selector),
      // Only a non-zero targetValue is kept for an AverageValue metric: v1 cannot omit it.
      target: o.averageValue === undefined || o.averageValue === null
        ? { type: 'Value', value: q(o.targetValue) }
        : compact({ type: 'AverageValue', value: q(o.targetValue) !== '0' ? q(o.targetValue) : undefined, averageValue: q(o.averageValue) }),
    },
    pods: p && { metric: metric(p.metricName, p.selector), target: { type: 'AverageValue', averageValue: q(p.targetAverageValue) } },
    resource: r && { name: r.name ?? '', target: resourceTarget(r) },
    containerResource: c && { name: c.name ?? '', target: resourceTarget(c), container: c.container ?? '' },
    external: e && { metric: metric(e.metricName, e.metricSelector), target: compact({ type: e.targetValue === undefined || e.targetValue === null ? 'AverageValue' : 'Value', value: qp(e.targetValue), averageValue: qp(e.targetAverageValue) }) },
  });
}

/** metricStatusToV1 is Convert_autoscaling_MetricStatus_To_v1_MetricStatus, fields in v1's order. */
function metricStatusToV1(m: Json): Json {
  const o = obj(m.object); const p = obj(m.pods); const r = obj(m.resource); const c = obj(m.containerResource); const e = obj(m.external);
  const current = (x: Json | undefined) => obj(x?.current) ?? {};
  const metric = (x: Json | undefined) => obj(x?.metric) ?? {};
  return compact({
    type: m.type ?? '',
    object: o && compact({ target: objectRef(o.describedObject), metricName: metric(o).name ?? '', currentValue: q(current(o).value), selector: selector(metric(o).selector), averageValue: qp(current(o).averageValue) }),
    pods: p && compact({ metricName: metric(p).name ?? '', currentAverageValue: q(current(p).averageValue), selector: selector(metric(p).selector) }),
    resource: r && compact({ name: r.name ?? '', currentAverageUtilization: current(r).averageUtilization, currentAverageValue: q(current(r).averageValue) }),
    containerResource: c && compact({ name: c.name ?? '', currentAverageUtilization: current(c).averageUtilization, currentAverageValue: q(current(c).averageValue), container: c.container ?? '' }),
    external: e && compact({ metricName: metric(e).name ?? '', metricSelector: selector(metric(e).selector), currentValue: q(current(e).value), currentAverageValue: qp(current(e).averageValue) }),
  });
}

/** metricStatusFromV1 is Convert_v1_MetricStatus_To_autoscaling_MetricStatus. */
function metricStatusFromV1(m: Json): Json {
  const o = obj(m.object); const p = obj(m.pods); const r = obj(m.resource); const c = obj(m.containerResource); const e = obj(m.external);
  const metric = (name: unknown, sel: unknown) => compact({ name: name ?? '', selector: selector(sel) });
  const resourceCurrent = (x: Json) => compact({ averageValue: q(x.currentAverageValue), averageUtilization: x.currentAverageUtilization ?? undefined });
  return compact({
    type: m.type ?? '',
    object: o && { metric: metric(o.metricName, o.selector), current: compact({ value: q(o.currentValue), averageValue: qp(o.averageValue) }), describedObject: objectRef(o.target) },
    pods: p && { metric: metric(p.metricName, p.selector), current: { averageValue: q(p.currentAverageValue) } },
    resource: r && { name: r.name ?? '', current: resourceCurrent(r) },
    containerResource: c && { name: c.name ?? '', current: resourceCurrent(c), container: c.container ?? '' },
    external: e && { metric: metric(e.metricName, e.metricSelector), current: compact({ value: q(e.currentValue), averageValue: qp(e.currentAverageValue) }) },
  });
}

/** conditionToV1 is a HorizontalPodAutoscalerCondition in v1's field order; a zero lastTransitionTime is null. */
function conditionToV1(c: Json): Json {
  return compact({ type: c.type ?? '', status: c.status ?? '', lastTransitionTime: c.lastTransitionTime ?? null, reason: c.reason || undefined, message: c.message || undefined });
}

/** behaviorAnnotation is json.Marshal of the internal HorizontalPodAutoscalerBehavior: Go field names, nil as null. */
function behaviorAnnotation(b: Json): string {
  const rules = (v: unknown) => {
    const r = obj(v);
    if (!r) return null;
    const policies = Array.isArray(r.policies) ? r.policies.map((p) => { const x = obj(p) ?? {}; return { Type: x.type ?? '', Value: x.value ?? 0, PeriodSeconds: x.periodSeconds ?? 0 }; }) : null;
    return { StabilizationWindowSeconds: r.stabilizationWindowSeconds ?? null, SelectPolicy: r.selectPolicy ?? null, Policies: policies, Tolerance: qp(r.tolerance) ?? null };
  };
  return goJson({ ScaleUp: rules(b.scaleUp), ScaleDown: rules(b.scaleDown) });
}

/** field reads a key as encoding/json matches struct fields: exactly, else case-insensitively. */
function field(o: Json, name: string): unknown {
  if (name in o) return o[name];
  const key = Object.keys(o).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : o[key];
}

/** behaviorFromAnnotation unmarshals the behavior annotation; undefined when it does not decode or is empty. */
function behaviorFromAnnotation(text: string): Json | undefined {
  let parsed: unknown;
  try { parsed = JSON.parse(text); } catch { return undefined; }
  const b = obj(parsed);
  if (!b) return undefined;
  const rules = (v: unknown): Json | undefined => {
    const r = obj(v);
    if (!r) return undefined;
    const policies = field(r, 'Policies');
    return compact({
      stabilizationWindowSeconds: field(r, 'StabilizationWindowSeconds') ?? undefined,
      selectPolicy: field(r, 'SelectPolicy') ?? undefined,
      // v1 defaulting leaves the annotation's rules as written, so rules without Policies reach validateScalingRules
      // empty ("must specify at least one Policy"); an empty list keeps autoscaling/v2 defaulting from filling them.
      // See pkg/apis/autoscaling/v1/defaults.go and pkg/apis/autoscaling/validation/validation.go (v1.36.3).
      policies: Array.isArray(policies) ? policies.map((p) => { const x = obj(p) ?? {}; return { type: field(x, 'Type') ?? '', value: field(x, 'Value') ?? 0, periodSeconds: field(x, 'PeriodSeconds') ?? 0 }; }) : [],
      tolerance: qp(field(r, 'Tolerance')),
    });
  };
  const scaleUp = rules(field(b, 'ScaleUp'));
  const scaleDown = rules(field(b, 'ScaleDown'));
  return scaleUp || scaleDown ? compact({ scaleUp, scaleDown }) : undefined;
}

/** decodeList unmarshals an annotation holding a JSON list; undefined when it does not decode (the error is ignored). */
function decodeList(text: string | undefined): Json[] | undefined {
  if (text === undefined) return undefined;
  try {
    const v = JSON.parse(text) as unknown;
    return v === null ? [] : Array.isArray(v) && v.every(isObject) ? v : undefined;
  } catch { return undefined; }
}

/** withoutRoundTrip is DropRoundTripHorizontalPodAutoscalerAnnotations. */
function withoutRoundTrip(annotations: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!annotations) return undefined;
  const dropped = new Set<string>(Object.values(ANNOTATIONS));
  return Object.fromEntries(Object.entries(annotations).filter(([k]) => !dropped.has(k)));
}

/** sortedOrAbsent is a map as Go encodes it: keys sorted; an empty one omitted. */
function sortedOrAbsent(m: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!m || Object.keys(m).length === 0) return undefined;
  return Object.fromEntries(Object.keys(m).sort().map((k) => [k, m[k]!]));
}

/** hpaToV1 is the stored (v2) HorizontalPodAutoscaler as autoscaling/v1 serves it (Convert_autoscaling_HorizontalPodAutoscaler_To_v1_HorizontalPodAutoscaler). */
export function hpaToV1(hpa: KubeObject): KubeObject {
  const spec = obj(hpa.spec) ?? {};
  const status = obj(hpa.status) ?? {};
  const metrics = arr(spec.metrics).filter(isObject);
  const currentMetrics = arr(status.currentMetrics).filter(isObject);
  const conditions = arr(status.conditions).filter(isObject);
  const annotations: Record<string, string> = { ...withoutRoundTrip(hpa.metadata?.annotations) };
  const other = metrics.filter((m) => !isCPUUtilization(m)).map(metricSpecToV1);
  if (other.length > 0) annotations[ANNOTATIONS.metrics] = goJson(other);
  if (currentMetrics.length > 0) annotations[ANNOTATIONS.currentMetrics] = goJson(currentMetrics.map(metricStatusToV1));
  if (obj(spec.behavior)) annotations[ANNOTATIONS.behavior] = behaviorAnnotation(obj(spec.behavior)!);
  if (conditions.length > 0) annotations[ANNOTATIONS.conditions] = goJson(conditions.map(conditionToV1));
  const cpu = metrics.find(isCPUUtilization);
  // The last cpu Resource status with a utilization is the current one (the loop does not break).
  const currentCPU = currentMetrics.filter((m) => m.type === 'Resource' && obj(m.resource)?.name === 'cpu' && obj(obj(m.resource)?.current)?.averageUtilization !== undefined).pop();
  const { annotations: _a, ...metadata } = hpa.metadata ?? {};
  const kept = sortedOrAbsent(annotations);
  return {
    kind: 'HorizontalPodAutoscaler', apiVersion: 'autoscaling/v1',
    metadata: { ...metadata, ...(kept ? { annotations: kept } : {}) },
    spec: compact({
      scaleTargetRef: objectRef(spec.scaleTargetRef), minReplicas: spec.minReplicas, maxReplicas: spec.maxReplicas ?? 0,
      targetCPUUtilizationPercentage: cpu ? obj(obj(cpu.resource)?.target)?.averageUtilization : undefined,
    }),
    status: compact({
      observedGeneration: status.observedGeneration, lastScaleTime: status.lastScaleTime, currentReplicas: status.currentReplicas ?? 0, desiredReplicas: status.desiredReplicas ?? 0,
      currentCPUUtilizationPercentage: currentCPU ? obj(obj(currentCPU.resource)?.current)?.averageUtilization : undefined,
    }),
  } as KubeObject;
}

/**
 * hpaFromV1 is an autoscaling/v1 HorizontalPodAutoscaler, defaulted as v1 defaults it (minReplicas 1), as the
 * autoscaling/v2 object it stores (Convert_v1_HorizontalPodAutoscaler_To_autoscaling_HorizontalPodAutoscaler):
 * the other metrics, behavior, current metrics and conditions read back from their annotations, which are dropped,
 * and the CPU at 80% when no metric is left.
 */
export function hpaFromV1(v1: KubeObject): KubeObject {
  const spec = obj(v1.spec) ?? {};
  const status = obj(v1.status) ?? {};
  const annotations = v1.metadata?.annotations ?? {};
  // SetDefaults_HorizontalPodAutoscaler (v1).
  const minReplicas = spec.minReplicas ?? 1;
  const cpuTarget = spec.targetCPUUtilizationPercentage;
  const cpuMetric = (utilization: unknown): Json => ({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: utilization } } });
  let metrics: Json[] = cpuTarget !== undefined && cpuTarget !== null ? [cpuMetric(cpuTarget)] : [];
  const other = decodeList(annotations[ANNOTATIONS.metrics]);
  if (other) metrics = [...other.map(metricSpecFromV1), ...metrics];
  const behavior = annotations[ANNOTATIONS.behavior] !== undefined ? behaviorFromAnnotation(annotations[ANNOTATIONS.behavior]!) : undefined;
  let currentMetrics: Json[] = status.currentCPUUtilizationPercentage !== undefined && status.currentCPUUtilizationPercentage !== null
    ? [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: status.currentCPUUtilizationPercentage } } }] : [];
  const current = decodeList(annotations[ANNOTATIONS.currentMetrics]);
  if (current) currentMetrics = current.map(metricStatusFromV1);
  if (metrics.length === 0) metrics = [cpuMetric(DEFAULT_CPU_UTILIZATION)];
  const conditions = decodeList(annotations[ANNOTATIONS.conditions])?.map((c) => compact({ type: c.type ?? '', status: c.status ?? '', lastTransitionTime: c.lastTransitionTime ?? undefined, reason: c.reason || undefined, message: c.message || undefined }));
  const { annotations: _a, ...metadata } = v1.metadata ?? {};
  const kept = v1.metadata?.annotations ? withoutRoundTrip(v1.metadata.annotations) : undefined;
  return {
    kind: 'HorizontalPodAutoscaler', apiVersion: 'autoscaling/v2',
    metadata: { ...metadata, ...(kept && Object.keys(kept).length > 0 ? { annotations: kept } : {}) },
    spec: compact({ scaleTargetRef: spec.scaleTargetRef, minReplicas, maxReplicas: spec.maxReplicas, metrics, behavior }),
    status: compact({
      observedGeneration: status.observedGeneration, lastScaleTime: status.lastScaleTime, currentReplicas: status.currentReplicas, desiredReplicas: status.desiredReplicas,
      currentMetrics: currentMetrics.length > 0 ? currentMetrics : undefined, conditions,
    }),
  } as KubeObject;
}

/** isHpaV1 tells an object (or a request's apiVersion and kind) of autoscaling/v1's HorizontalPodAutoscaler. */
export function isHpaV1(o: { apiVersion?: unknown; kind?: unknown }): boolean {
  return o.apiVersion === 'autoscaling/v1' && o.kind === 'HorizontalPodAutoscaler';
}
