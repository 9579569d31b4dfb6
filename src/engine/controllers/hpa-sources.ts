// One autoscaling/v2 metric's replica proposal, by its source: Resource and ContainerResource (metrics.k8s.io), Pods
// and Object (custom.metrics.k8s.io), External (external.metrics.k8s.io); with its status.currentMetrics entry, or the
// failure the controller reports (event reason, condition message, the error it returns). See
// pkg/controller/podautoscaler/horizontal.go (computeReplicasForMetric, computeStatusForObjectMetric,
// computeStatusForPodsMetric, computeStatusForResourceMetricGeneric, computeStatusForResourceMetric,
// computeStatusForContainerResourceMetric, computeStatusForExternalMetric, getUnableComputeReplicaCountCondition) and
// replica_calculator.go at k8s.io/kubernetes v1.36.3.
import { goLabelSelectorString } from '../api/label-selector-string';
import { labelSelectorAsSelector, SelectorError } from '../api/labels';
import { fromMilli, parseQuantity } from '../api/quantity';
import type { LabelSelector, Pod } from '../api/types';
import type { EngineContext } from '../context';
import { type CalcPod, perPodReplicas, resourceReplicas, type Tolerances, usageRatioReplicas } from './hpa-calc';
import { containerMetrics, externalMetric, METRICS_API_NOT_FOUND, type MetricsPod, objectMetric, podCustomMetric, podUsage, resourceMetricsListed } from './hpa-metrics';
import { isPodLevelRequestsSet, podRequests } from '../scheduler/framework/pod-resources';
import { timeOf } from './pods';

interface MetricTarget { type?: string; value?: string | number; averageValue?: string | number; averageUtilization?: number }
interface MetricIdentifier { name?: string; selector?: LabelSelector }
interface ObjectReference { kind?: string; name?: string; apiVersion?: string }

/** MetricSpec is one entry of an autoscaling/v2 HorizontalPodAutoscaler's spec.metrics. */
export interface MetricSpec {
  type?: string;
  resource?: { name?: string; target?: MetricTarget };
  containerResource?: { name?: string; container?: string; target?: MetricTarget };
  pods?: { metric?: MetricIdentifier; target?: MetricTarget };
  object?: { describedObject?: ObjectReference; metric?: MetricIdentifier; target?: MetricTarget };
  external?: { metric?: MetricIdentifier; target?: MetricTarget };
}

/**
 * MetricInput is what a sync knows when it reads a metric: the target's spec and status replicas, its pods, and the
 * autoscaler's tolerances (tolerancesForHpa).
 */
export interface MetricInput { ctx: EngineContext; namespace: string; now: number; specReplicas: number; statusReplicas: number; pods: readonly Pod[]; tolerances: Tolerances }

/** MetricFailure is getUnableComputeReplicaCountCondition's reason and message, and the error computeReplicasForMetric returns. */
export interface MetricFailure { reason: string; message: string; error: string }

/** MetricResult is one metric's proposal, its status entry, or its failure. */
export type MetricResult = { replicas: number; name: string; status: unknown } | { failure: MetricFailure };

const milli = (q: string | number): number => parseQuantity(q).milliValue();
const quantity = (m: number | bigint): string => fromMilli(m).toString();
const fail = (reason: string, message: string, error: string): MetricResult => ({ failure: { reason, message, error } });
/** identifier is a MetricIdentifier as the status repeats it: the name, and the selector when there is one. */
const identifier = (m: MetricIdentifier | undefined) => ({ name: m?.name ?? '', ...(m?.selector ? { selector: m.selector } : {}) });

type PodSpecLike = { containers?: { name: string; resources?: { requests?: Record<string, string | number> } }[]; initContainers?: { name: string; restartPolicy?: string; resources?: { requests?: Record<string, string | number> } }[] };

/** containersOf are the containers calculatePodRequestsFromContainers reads: the containers and the restartable (sidecar) init containers. */
function containersOf(pod: Pod) {
  const spec = (pod.spec ?? {}) as PodSpecLike;
  return [...(spec.containers ?? []), ...(spec.initContainers ?? []).filter((c) => c.restartPolicy === 'Always')];
}

const metricsPod = (pod: Pod): MetricsPod => ({ name: pod.metadata?.name ?? '', namespace: pod.metadata?.namespace ?? 'default', containers: containersOf(pod).map((c) => c.name) });

/**
 * calcPod reads one pod for the replica calculator: its request of the resource and the sample given. The request is
 * calculateRequests': with pod-level requests set (PodLevelResources, on by default in 1.36) and no container named,
 * calculatePodLevelRequests (PodRequests with no options: the pod-level value, else the containers' aggregate, plus
 * the overhead); otherwise calculatePodRequestsFromContainers (the named container, or every container and sidecar).
 * See replica_calculator.go (v1.36.3) and staging/src/k8s.io/component-helpers/resource/helpers.go (v0.36.3).
 */
function calcPod(ctx: EngineContext, pod: Pod, resource: string, usage: number | undefined, container?: string): CalcPod {
  let request = 0;
  let noRequestIn: string | undefined;
  let requestError: string | undefined;
  const name = pod.metadata?.name ?? '';
  if (container === undefined && resource !== '' && isPodLevelRequestsSet(pod)) {
    const podLevel = podRequests(pod).get(resource);
    if (podLevel === undefined) requestError = `missing pod-level request for ${resource} in Pod ${name}`;
    else request = podLevel;
  } else {
    const containers = containersOf(pod).filter((c) => container === undefined || c.name === container);
    if (container !== undefined && containers.length === 0) requestError = `container ${container} not found in Pod ${name}`;
    for (const c of containers) {
      const q = c.resources?.requests?.[resource];
      if (q === undefined) { noRequestIn ??= c.name; continue; }
      request += parseQuantity(q).milliValue();
    }
  }
  const ready = pod.status?.conditions?.find((c) => c.type === 'Ready');
  const start = timeOf(ctx.clock, pod.status?.startTime);
  return {
    name, phase: pod.status?.phase ?? 'Pending', deleting: Boolean(pod.metadata?.deletionTimestamp), request,
    ...(noRequestIn !== undefined ? { noRequestIn } : {}), ...(requestError !== undefined ? { requestError } : {}),
    ...(usage !== undefined ? { usage } : {}), ...(start !== undefined ? { startTime: start } : {}),
    ...(ready ? { ready: { status: ready.status, lastTransition: timeOf(ctx.clock, ready.lastTransitionTime) ?? 0 } } : {}),
  };
}

const running = (p: Pod) => p.status?.phase === 'Running';

/**
 * metricSelectorError is metav1.LabelSelectorAsSelector's error for a metric's selector, which validation does not
 * check (staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/helpers.go, v0.36.3); undefined when it converts.
 */
function metricSelectorError(selector: LabelSelector | undefined): string | undefined {
  try {
    labelSelectorAsSelector(selector);
    return undefined;
  } catch (err) {
    if (err instanceof SelectorError) return err.message;
    throw err;
  }
}

/**
 * resourceGeneric is computeStatusForResourceMetricGeneric with GetResourceReplicas / GetRawResourceReplicas: a Resource
 * metric, or a ContainerResource one (`container` set). metrics-server reports Running pods only.
 */
function resourceGeneric(input: MetricInput, target: MetricTarget | undefined, resource: string, container?: string): { replicas: number; name: string; current: Record<string, unknown> } | { error: string } {
  const reported = input.pods.filter(running).map(metricsPod);
  let usage = new Map<string, number>();
  let fetchError: string | undefined;
  if (container === undefined) {
    // GetResourceMetric: an empty PodMetricses list is an error; a listed pod without the resource is a missing pod.
    // Without metrics-server the list itself fails (NotFound); with it, an empty list is an error too.
    if (input.ctx.behavior.metricsServer === false) fetchError = `unable to get metrics for resource ${resource}: ${METRICS_API_NOT_FOUND}`;
    else if (!resourceMetricsListed(input.ctx.behavior, reported, input.now)) fetchError = `unable to get metrics for resource ${resource}: no metrics returned from resource metrics API`;
    for (const p of reported) {
      const u = podUsage(input.ctx.behavior, p, resource, input.now);
      if (u !== undefined) usage.set(p.name, u);
    }
  } else {
    const m = containerMetrics(input.ctx.behavior, reported, container, resource, input.now);
    if (m instanceof Map) usage = m;
    else fetchError = `unable to get metrics for resource ${resource}: ${m.error}`;
  }
  const calc = input.pods.map((p) => calcPod(input.ctx, p, resource, usage.get(p.metadata?.name ?? ''), container));
  // An AverageValue target first (GetRawResourceReplicas, errors "failed to get %s usage: %v", named "%s resource"),
  // then AverageUtilization (GetResourceReplicas, "failed to get %s utilization: %v", "%s resource utilization
  // (percentage of request)" or "%s container resource utilization (percentage of request)").
  if (target?.averageValue !== undefined && target.averageValue !== null) {
    if (fetchError) return { error: `failed to get ${resource} usage: ${fetchError}` };
    const r = resourceReplicas(input.specReplicas, calc, resource, { averageMilli: milli(target.averageValue) }, input.now, input.now, input.tolerances);
    if ('error' in r) return { error: `failed to get ${resource} usage: ${r.error}` };
    return { replicas: r.replicas, name: `${resource} resource`, current: { averageValue: quantity(r.rawAverage) } };
  }
  if (typeof target?.averageUtilization !== 'number') return { error: 'invalid resource metric source: neither an average utilization target nor an average value (usage) target was set' };
  if (fetchError) return { error: `failed to get ${resource} utilization: ${fetchError}` };
  const r = resourceReplicas(input.specReplicas, calc, resource, { utilization: target.averageUtilization }, input.now, input.now, input.tolerances);
  if ('error' in r) return { error: `failed to get ${resource} utilization: ${r.error}` };
  return {
    replicas: r.replicas, name: `${resource}${container === undefined ? '' : ' container'} resource utilization (percentage of request)`,
    current: { averageValue: quantity(r.rawAverage), averageUtilization: r.utilization },
  };
}

/**
 * resourceMetric is computeStatusForResourceMetric (FailedGetResourceMetric) and computeReplicasForMetric's wrapping,
 * "failed to get %s resource metric value: %v" with the resource name. See horizontal.go (v1.36.3).
 */
function resourceMetric(input: MetricInput, m: MetricSpec): MetricResult {
  const resource = m.resource?.name ?? '';
  const r = resourceGeneric(input, m.resource?.target, resource);
  if ('error' in r) return fail('FailedGetResourceMetric', r.error, `failed to get ${resource} resource metric value: ${r.error}`);
  return { replicas: r.replicas, name: r.name, status: { type: 'Resource', resource: { name: resource, current: r.current } } };
}

/**
 * containerResourceMetric is computeStatusForContainerResourceMetric (FailedGetContainerResourceMetric) and
 * computeReplicasForMetric's wrapping, "failed to get %s container metric value: %v" with the container's name (not the
 * resource's). See horizontal.go (v1.36.3).
 */
function containerResourceMetric(input: MetricInput, m: MetricSpec): MetricResult {
  const { name: resource = '', container = '' } = m.containerResource ?? {};
  const r = resourceGeneric(input, m.containerResource?.target, resource, container);
  if ('error' in r) return fail('FailedGetContainerResourceMetric', r.error, `failed to get ${container} container metric value: ${r.error}`);
  return { replicas: r.replicas, name: r.name, status: { type: 'ContainerResource', containerResource: { name: resource, current: r.current, container } } };
}

/**
 * podsMetric is computeReplicasForMetric's Pods case (the metric selector converted first, "failed to get pods metric
 * value: %v") with computeStatusForPodsMetric and GetMetricReplicas ("unable to get metric %s: %v" around GetRawMetric's
 * error; calcPlainMetricReplicas' errors bare): the pods' average of a custom metric against the target. See
 * horizontal.go and replica_calculator.go (v1.36.3).
 */
function podsMetric(input: MetricInput, m: MetricSpec): MetricResult {
  const name = m.pods?.metric?.name ?? '';
  const wrap = (err: string) => fail('FailedGetPodsMetric', err, `failed to get pods metric value: ${err}`);
  const selectorError = metricSelectorError(m.pods?.metric?.selector);
  if (selectorError !== undefined) return wrap(selectorError);
  // metrics/client.go GetRawMetric: an empty answer of the custom metrics API.
  const values = input.pods.map((p) => (running(p) ? podCustomMetric(input.ctx.behavior, p.metadata?.name ?? '', name, m.pods?.metric?.selector, input.now) : undefined));
  if (values.every((v) => v === undefined)) return wrap(`unable to get metric ${name}: no metrics returned from custom metrics API`);
  // calcPlainMetricReplicas: groupPods without a resource (no CPU readiness rule), missing pods at the target or 0.
  const calc = input.pods.map((p, i) => calcPod(input.ctx, p, '', values[i]));
  const r = resourceReplicas(input.specReplicas, calc, '', { averageMilli: milli(m.pods?.target?.averageValue ?? 0) }, input.now, input.now, input.tolerances);
  if ('error' in r) return wrap(r.error);
  return { replicas: r.replicas, name: `pods metric ${name}`, status: { type: 'Pods', pods: { metric: identifier(m.pods?.metric), current: { averageValue: quantity(r.rawAverage) } } } };
}

/**
 * objectMetricReplicas is computeReplicasForMetric's Object case (the metric selector converted first; every error
 * wrapped "failed to get object metric value: %v") with computeStatusForObjectMetric: a described object's metric, as
 * a Value (GetObjectMetricReplicas, getUsageRatioReplicaCount) or per pod (GetObjectPerPodMetricReplicas, its error
 * wrapped "failed to get %s object metric: %v"). See horizontal.go and replica_calculator.go (v1.36.3).
 */
function objectMetricReplicas(input: MetricInput, m: MetricSpec): MetricResult {
  const { describedObject: ref = {}, metric, target } = m.object ?? {};
  const name = metric?.name ?? '';
  const outer = (err: string) => `failed to get object metric value: ${err}`;
  const selectorError = metricSelectorError(metric?.selector);
  if (selectorError !== undefined) return fail('FailedGetObjectMetric', selectorError, outer(selectorError));
  // CrossVersionObjectReference as autoscaling/v2 serializes it: kind, name, then apiVersion when set.
  const described = { kind: ref.kind ?? '', name: ref.name ?? '', ...(ref.apiVersion ? { apiVersion: ref.apiVersion } : {}) };
  const fetched = objectMetric(input.ctx.behavior, name, ref.kind ?? '', ref.name ?? '', input.namespace, metric?.selector, input.now);
  // GetObjectMetricReplicas' and GetObjectPerPodMetricReplicas' own format, "unable to get metric %s: %v on %s %s/%s",
  // with its arguments in their order: metric name, kind, namespace, object name, error.
  const fetchError = 'error' in fetched ? `unable to get metric ${name}: ${ref.kind ?? ''} on ${input.namespace} ${ref.name ?? ''}/${fetched.error}` : undefined;
  if (target?.type === 'Value' && target.value !== undefined && target.value !== null) {
    if (fetchError) return fail('FailedGetObjectMetric', fetchError, outer(fetchError));
    const usage = (fetched as { value: number }).value;
    const r = usageRatioReplicas(input.specReplicas, usage / milli(target.value), input.pods.map((p) => calcPod(input.ctx, p, '', undefined)), input.tolerances);
    if ('error' in r) return fail('FailedGetObjectMetric', r.error, outer(r.error));
    return { replicas: r.replicas, name: `${ref.kind ?? ''} metric ${name}`, status: { type: 'Object', object: { metric: identifier(metric), current: { value: quantity(usage) }, describedObject: described } } };
  }
  if (target?.type === 'AverageValue' && target.averageValue !== undefined && target.averageValue !== null) {
    if (fetchError) return fail('FailedGetObjectMetric', fetchError, outer(`failed to get ${name} object metric: ${fetchError}`));
    const r = perPodReplicas(input.statusReplicas, (fetched as { value: number }).value, milli(target.averageValue), input.tolerances);
    // The status keeps describedObject (metricStatus is built with it before the target type is looked at), but the
    // metric is named as an external one: fmt.Sprintf("external metric %s(%+v)", ...) in computeStatusForObjectMetric.
    return {
      replicas: r.replicas, name: `external metric ${name}(${goLabelSelectorString(metric?.selector)})`,
      status: { type: 'Object', object: { metric: identifier(metric), current: { averageValue: quantity(r.usage) }, describedObject: described } },
    };
  }
  const err = 'invalid object metric source: neither a value target nor an average value target was set';
  return fail('FailedGetObjectMetric', err, outer(err));
}

/**
 * externalMetricReplicas is computeReplicasForMetric's External case ("failed to get %s external metric value: %v") with
 * computeStatusForExternalMetric: the sum of the selected series, per pod (GetExternalPerPodMetricReplicas, its error
 * wrapped "failed to get %s external metric: %v") or as a Value (GetExternalMetricReplicas, "failed to get external
 * metric %s: %v"). Both convert the selector first (its error bare), then wrap the client's error "unable to get
 * external metric %s/%s/%+v: %s" (namespace, name, the *LabelSelector's String()). See horizontal.go and
 * replica_calculator.go (v1.36.3).
 */
function externalMetricReplicas(input: MetricInput, m: MetricSpec): MetricResult {
  const { metric, target } = m.external ?? {};
  const name = metric?.name ?? '';
  const outer = (err: string) => `failed to get ${name} external metric value: ${err}`;
  const selectorError = metricSelectorError(metric?.selector);
  const values = externalMetric(input.ctx.behavior, name, metric?.selector, input.now);
  const fetchError = selectorError ?? ('error' in values ? `unable to get external metric ${input.namespace}/${name}/${goLabelSelectorString(metric?.selector)}: ${values.error}` : undefined);
  const usage = Array.isArray(values) ? values.reduce((a, b) => a + b, 0) : 0;
  const metricName = `external metric ${name}(${goLabelSelectorString(metric?.selector)})`;
  if (target?.averageValue !== undefined && target.averageValue !== null) {
    if (fetchError) return fail('FailedGetExternalMetric', fetchError, outer(`failed to get ${name} external metric: ${fetchError}`));
    const r = perPodReplicas(input.statusReplicas, usage, milli(target.averageValue), input.tolerances);
    return { replicas: r.replicas, name: metricName, status: { type: 'External', external: { metric: identifier(metric), current: { averageValue: quantity(r.usage) } } } };
  }
  if (target?.value !== undefined && target.value !== null) {
    const err = fetchError;
    const r = err === undefined ? usageRatioReplicas(input.specReplicas, usage / milli(target.value), input.pods.map((p) => calcPod(input.ctx, p, '', undefined)), input.tolerances) : { error: err };
    if ('error' in r) return fail('FailedGetExternalMetric', r.error, outer(`failed to get external metric ${name}: ${r.error}`));
    return { replicas: r.replicas, name: metricName, status: { type: 'External', external: { metric: identifier(metric), current: { value: quantity(usage) } } } };
  }
  const err = 'invalid external metric source: neither a value target nor an average value target was set';
  return fail('FailedGetExternalMetric', err, outer(err));
}

const SOURCES: Readonly<Record<string, (input: MetricInput, m: MetricSpec) => MetricResult>> = {
  Object: objectMetricReplicas, Pods: podsMetric, Resource: resourceMetric, ContainerResource: containerResourceMetric, External: externalMetricReplicas,
};

/** computeMetric is computeReplicasForMetric: the proposal of one metric by its source type. */
export function computeMetric(input: MetricInput, m: MetricSpec): MetricResult {
  const source = SOURCES[m.type ?? ''];
  if (source) {
    try {
      return source(input, m);
    } catch (err) {
      // A target the API server let through but no quantity parser reads (a Behavior-loaded object skips validation).
      const message = `invalid metric target: ${err instanceof Error ? err.message : String(err)}`;
      return fail(`FailedGet${m.type}Metric`, message, message);
    }
  }
  // The default case: fmt.Errorf("unknown metric source type %q%w", ..., errSpec), errSpec's text being empty.
  const err = `unknown metric source type ${JSON.stringify(m.type ?? '')}`;
  return fail('InvalidMetricSourceType', err, err);
}
