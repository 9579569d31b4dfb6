// The Behavior's metrics sections, checked: what metrics-server reports of pods and their containers (`metrics`), the
// custom metrics of pods and of described objects (`metrics.*.pods`, `customMetrics`) and the external metrics'
// series (`externalMetrics`), each a sequence of `{at, value}` samples over virtual time; a custom or external metric
// is either such a sequence (one series without labels) or a sequence of `{labels, samples}` series.
import { appendFieldPath } from '../api/fieldpath';
import { parseQuantity } from '../api/quantity';
import { isObject } from '../api/types';
import type { MetricSample, MetricSeries, PodMetrics, ResourceSamples } from './inputs';
import { type Checker, compact, type Fields } from './checker';

/** POD_METRICS_FIELDS are the fields of one entry of `metrics`. */
export const POD_METRICS_FIELDS = ['cpu', 'memory', 'containers', 'pods'];
/** DESCRIBED_OBJECT is a `customMetrics` key: `Kind/name` of the object the metric describes. */
const DESCRIBED_OBJECT = /^[A-Za-z][A-Za-z0-9]*\/[^/\s]+$/;

/** readSamples checks a sequence of `{at, value}` samples: `at` in seconds and rising, `value` a non-negative quantity (kept in milli-units). */
export function readSamples(c: Checker, path: string, raw: unknown): MetricSample[] | undefined {
  if (raw === null || raw === undefined) return undefined;
  if (!Array.isArray(raw)) return c.expect(path, 'a sequence of {at, value} samples', raw);
  let last = -1;
  return raw.map((item: unknown, i) => {
    const itemPath = appendFieldPath(path, i);
    const sample = c.mapping(itemPath, item) ?? c.expect(itemPath, 'a mapping with at and value', item);
    c.known(itemPath, sample, ['at', 'value']);
    const when = c.seconds(appendFieldPath(itemPath, 'at'), sample['at']) ?? c.fail(appendFieldPath(itemPath, 'at'), 'Required value');
    if (when <= last && i > 0) c.fail(appendFieldPath(itemPath, 'at'), `samples must be in rising order of at (${when} after ${last})`);
    last = when;
    const value = sample['value'];
    if (typeof value !== 'number' && typeof value !== 'string') return c.expect(appendFieldPath(itemPath, 'value'), 'a quantity such as 250m or 128Mi', value);
    let milli: number;
    try {
      milli = parseQuantity(value).milliValue();
    } catch (err) {
      return c.fail(appendFieldPath(itemPath, 'value'), `invalid quantity ${JSON.stringify(String(value))}: ${err instanceof Error ? err.message : String(err)}`);
    }
    return milli >= 0 ? { at: when, value: milli } : c.expect(appendFieldPath(itemPath, 'value'), 'a non-negative quantity', value);
  });
}

function readResources(c: Checker, path: string, e: Fields): ResourceSamples {
  return compact({ cpu: readSamples(c, appendFieldPath(path, 'cpu'), e['cpu']), memory: readSamples(c, appendFieldPath(path, 'memory'), e['memory']) });
}

/** readPodMetrics checks one entry of `metrics`: the pod's cpu and memory, its containers' (by name), its custom metrics (by name). */
export function readPodMetrics(c: Checker, path: string, e: Fields): PodMetrics {
  const containers = c.named(appendFieldPath(path, 'containers'), e['containers'], ['cpu', 'memory'], (p, entry) => readResources(c, p, entry));
  return compact({ ...readResources(c, path, e), containers, pods: readNamedSeries(c, appendFieldPath(path, 'pods'), e['pods']) });
}

/** readNamedSeries checks a mapping of name → samples or series. */
function readNamedSeries(c: Checker, path: string, raw: unknown): Record<string, MetricSeries[]> | undefined {
  const map = c.mapping(path, raw);
  if (!map) return undefined;
  const out: Record<string, MetricSeries[]> = {};
  for (const [name, value] of Object.entries(map)) {
    Object.defineProperty(out, name, { value: readSeriesList(c, appendFieldPath(path, name), value), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** readCustomMetrics checks `customMetrics`: metric name → `Kind/name` of the described object → samples or series. */
export function readCustomMetrics(c: Checker, raw: unknown): Record<string, Record<string, MetricSeries[]>> {
  const map = c.mapping('customMetrics', raw) ?? {};
  const out: Record<string, Record<string, MetricSeries[]>> = {};
  for (const [metric, objects] of Object.entries(map)) {
    const path = appendFieldPath('customMetrics', metric);
    const byObject = readNamedSeries(c, path, objects) ?? c.expect(path, 'a mapping of Kind/name to samples', objects);
    for (const key of Object.keys(byObject)) {
      if (!DESCRIBED_OBJECT.test(key)) c.expect(appendFieldPath(path, key), 'the described object as Kind/name, such as Ingress/main-route', key);
    }
    Object.defineProperty(out, metric, { value: byObject, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** readExternalMetrics checks `externalMetrics`: metric name → samples or series. */
export function readExternalMetrics(c: Checker, raw: unknown): Record<string, MetricSeries[]> {
  const map = c.mapping('externalMetrics', raw) ?? {};
  const out: Record<string, MetricSeries[]> = {};
  for (const [metric, value] of Object.entries(map)) {
    Object.defineProperty(out, metric, { value: readSeriesList(c, appendFieldPath('externalMetrics', metric), value), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/**
 * readSeriesList checks one metric's value: either samples (one series without labels) or a sequence of series
 * `{labels, samples}`, which a metric selector tells apart.
 */
function readSeriesList(c: Checker, path: string, value: unknown): MetricSeries[] {
  if (!Array.isArray(value)) return c.expect(path, 'a sequence of {at, value} samples or of {labels, samples} series', value);
  const seriesForm = value.some((item: unknown) => isObject(item) && ('samples' in item || 'labels' in item));
  return seriesForm
    ? value.map((item: unknown, i) => readSeries(c, appendFieldPath(path, i), item))
    : [{ labels: {}, samples: readSamples(c, path, value) ?? [] }];
}

function readSeries(c: Checker, path: string, item: unknown): MetricSeries {
  const entry = c.mapping(path, item) ?? c.expect(path, 'a mapping with labels and samples', item);
  c.known(path, entry, ['labels', 'samples']);
  const labelsPath = appendFieldPath(path, 'labels');
  const labels = c.mapping(labelsPath, entry['labels']) ?? {};
  for (const [key, v] of Object.entries(labels)) if (typeof v !== 'string') c.expect(appendFieldPath(labelsPath, key), 'a string', v);
  const samples = readSamples(c, appendFieldPath(path, 'samples'), entry['samples']) ?? c.fail(appendFieldPath(path, 'samples'), 'Required value');
  return { labels: labels as Record<string, string>, samples };
}
