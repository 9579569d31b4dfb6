// The metrics APIs as the horizontal pod autoscaler reads them, from the Behavior, at a virtual time: metrics.k8s.io
// (a pod's and its containers' CPU and memory, from `metrics` by pod name or a pattern where `*` stands for any run of
// characters), custom.metrics.k8s.io (a pod's custom metric from `metrics.*.pods`, a described object's from
// `customMetrics`) and external.metrics.k8s.io (`externalMetrics`). A custom or external metric is one or more series;
// the metric selector (sent as metricLabelSelector) picks the series whose labels it matches, and each picked series
// with a sample is one item of the API's answer. Errors are the metrics client's own words: see
// pkg/controller/podautoscaler/metrics/client.go (GetResourceMetric, getContainerMetrics, getPodMetrics, GetRawMetric,
// GetObjectMetric, GetExternalMetric) at k8s.io/kubernetes v1.36.3.
import { matchesLabelSelector } from '../api/labels';
import type { LabelSelector } from '../api/types';
import type { Behavior, MetricSample, MetricSeries, PodMetrics } from '../cluster/inputs';
import { RESOURCES } from '../cluster/store';

const patterns = new Map<string, RegExp>();

function matches(pattern: string, name: string): boolean {
  if (!pattern.includes('*')) return pattern === name;
  let re = patterns.get(pattern);
  if (!re) {
    re = new RegExp(`^${pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
    patterns.set(pattern, re);
  }
  return re.test(name);
}

/** metricsOf is the pod's entry: its exact name first, else the first pattern that matches it. */
function metricsOf(behavior: Behavior, pod: string): PodMetrics | undefined {
  const exact = behavior.metrics[pod];
  if (exact) return exact;
  for (const [pattern, m] of Object.entries(behavior.metrics)) if (matches(pattern, pod)) return m;
  return undefined;
}

/** sampleAt is the last sample at or before `now` ms; none before the first. */
export function sampleAt(samples: readonly MetricSample[] | undefined, now: number): number | undefined {
  let value: number | undefined;
  for (const s of samples ?? []) {
    if (s.at * 1000 > now) break;
    value = s.value;
  }
  return value;
}

/** MetricsPod is what the metrics APIs know of a pod: its name and the containers metrics-server would report. */
export interface MetricsPod { name: string; namespace: string; containers: readonly string[] }

type Resource = 'cpu' | 'memory';

/** containerUsage is one container's usage: its own samples, or the pod's when it is the pod's only container. */
function containerUsage(entry: PodMetrics, pod: MetricsPod, container: string, resource: Resource, now: number): number | undefined {
  const own = entry.containers?.[container];
  if (own) return sampleAt(own[resource], now);
  return pod.containers.length === 1 ? sampleAt(entry[resource], now) : undefined;
}

/** reported says whether metrics-server has the pod at all: a Behavior entry with some sample by `now`. */
function reported(entry: PodMetrics | undefined, now: number): entry is PodMetrics {
  if (!entry) return false;
  const any = (r: { cpu?: MetricSample[]; memory?: MetricSample[] }) => sampleAt(r.cpu, now) !== undefined || sampleAt(r.memory, now) !== undefined;
  return any(entry) || Object.values(entry.containers ?? {}).some(any);
}

/**
 * podUsage is getPodMetrics for one pod: the pod's usage of the resource (milli-units) — its own samples, else the
 * sum over its containers, none when a container has no sample.
 */
export function podUsage(behavior: Behavior, pod: MetricsPod, resource: string, now: number): number | undefined {
  if (resource !== 'cpu' && resource !== 'memory') return undefined;
  const entry = metricsOf(behavior, pod.name);
  if (!reported(entry, now)) return undefined;
  const own = sampleAt(entry[resource], now);
  if (own !== undefined || !entry.containers) return own;
  let sum = 0;
  for (const c of pod.containers) {
    const v = sampleAt(entry.containers[c]?.[resource], now);
    if (v === undefined) return undefined;
    sum += v;
  }
  return pod.containers.length > 0 ? sum : undefined;
}

/**
 * METRICS_API_NOT_FOUND is GetResourceMetric's error when no metrics-server serves metrics.k8s.io (Behavior
 * `metricsServer: false`): the PodMetricses list is answered 404 without a Status body, which client-go words as
 * NewGenericServerResponse does. See pkg/controller/podautoscaler/metrics/client.go (GetResourceMetric) and
 * staging/src/k8s.io/apimachinery/pkg/api/errors/errors.go (NewGenericServerResponse) at v1.36.3.
 */
export const METRICS_API_NOT_FOUND = 'unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)';

/**
 * resourceMetricsListed is whether metrics-server's PodMetricses list for the pods has any item: without one,
 * GetResourceMetric fails with `no metrics returned from resource metrics API`. See metrics/client.go (v1.36.3).
 */
export function resourceMetricsListed(behavior: Behavior, pods: readonly MetricsPod[], now: number): boolean {
  return pods.some((p) => reported(metricsOf(behavior, p.name), now));
}

/**
 * containerMetrics is GetResourceMetric with a container (getContainerMetrics): each reported pod's usage of the
 * resource in that container. A pod without the container, or without a sample of the resource, is left out (the
 * 1.36 client only logs "Missing container metric"); an error only when metrics-server lists no pod at all.
 * See pkg/controller/podautoscaler/metrics/client.go (GetResourceMetric, getContainerMetrics) at v1.36.3.
 */
export function containerMetrics(behavior: Behavior, pods: readonly MetricsPod[], container: string, resource: string, now: number): Map<string, number> | { error: string } {
  if (behavior.metricsServer === false) return { error: METRICS_API_NOT_FOUND };
  const out = new Map<string, number>();
  const listed = pods.map((p) => ({ pod: p, entry: metricsOf(behavior, p.name) })).filter((x) => reported(x.entry, now));
  if (listed.length === 0) return { error: 'no metrics returned from resource metrics API' };
  for (const { pod, entry } of listed) {
    if (!pod.containers.includes(container)) continue;
    const v = resource === 'cpu' || resource === 'memory' ? containerUsage(entry!, pod, container, resource, now) : undefined;
    if (v !== undefined) out.set(pod.name, v);
  }
  return out;
}

/**
 * selectedValues are the values at `now` of the series the metric selector matches, in the order given. The selector
 * goes to the API as a string: a nil one (labels.Nothing) is the empty string, which matches all.
 */
function selectedValues(series: readonly MetricSeries[] | undefined, selector: LabelSelector | undefined, now: number): number[] {
  const values: number[] = [];
  for (const s of series ?? []) {
    if (selector && !matchesLabelSelector(selector, s.labels)) continue;
    const v = sampleAt(s.samples, now);
    if (v !== undefined) values.push(v);
  }
  return values;
}

/**
 * podCustomMetric is a pod's value of a custom metric, in milli-units: GetRawMetric keeps one value a pod
 * (`res[m.DescribedObject.Name] = ...`), so of several series the selector matches the last one listed wins.
 */
export function podCustomMetric(behavior: Behavior, pod: string, metric: string, selector: LabelSelector | undefined, now: number): number | undefined {
  return selectedValues(metricsOf(behavior, pod)?.pods?.[metric], selector, now).pop();
}

/** groupResource is the described object's resource as the custom metrics API names it: `ingresses.networking.k8s.io`. */
function groupResource(kind: string): string {
  const r = RESOURCES[kind];
  // An Ingress, the usual described object, is not a kind the simulation stores; others are lowercased and made plural.
  if (kind === 'Ingress') return 'ingresses.networking.k8s.io';
  if (!r) return `${kind.toLowerCase()}s`;
  return r.group ? `${r.resource}.${r.group}` : r.resource;
}

/**
 * objectMetric is GetObjectMetric: the value of the metric for the described object (`Kind/name`; a Namespace is
 * the autoscaler's own namespace), from the series the metric selector matches. None is the adapter's NotFound, as
 * sigs.k8s.io/custom-metrics-apiserver (pkg/provider/errors.go NewMetricNotFoundForError) words it; more than one is
 * the custom metrics client's refusal (GetForObject in staging/src/k8s.io/metrics/pkg/client/custom_metrics/
 * versioned_client.go, v0.36.3: `the custom metrics API server returned %v results when we asked for exactly one`).
 */
export function objectMetric(behavior: Behavior, metric: string, kind: string, name: string, namespace: string, selector: LabelSelector | undefined, now: number): { value: number } | { error: string } {
  const objectName = kind === 'Namespace' ? namespace : name;
  const values = selectedValues(behavior.customMetrics[metric]?.[`${kind}/${objectName}`], selector, now);
  const prefix = 'unable to fetch metrics from custom metrics API: ';
  if (values.length === 0) return { error: `${prefix}the server could not find the metric ${metric} for ${groupResource(kind)} ${objectName}` };
  if (values.length > 1) return { error: `${prefix}the custom metrics API server returned ${values.length} results when we asked for exactly one` };
  return { value: values[0]! };
}

/** externalMetric is GetExternalMetric: the values of the series the selector matches, in milli-units; an error when none. */
export function externalMetric(behavior: Behavior, metric: string, selector: LabelSelector | undefined, now: number): number[] | { error: string } {
  const values = selectedValues(behavior.externalMetrics[metric], selector, now);
  if (values.length === 0) return { error: 'no metrics returned from external metrics API' };
  return values;
}
