// Why a HorizontalPodAutoscaler has the replica count it has: its metrics against their targets, the scalings it made,
// its conditions (the controller's own words), and one sentence on why it did not scale further. Read from the
// autoscaler's status and its controllers.hpa steps. See pkg/controller/podautoscaler/horizontal.go (v1.36.3).
import { parseQuantity } from '../api/quantity';
import type { KubeObject } from '../api/types';
import type { TraceEntry } from '../runtime/recorder';
import { NO_SCALE_ROUTE } from '../controllers/hpa-scale';

/** BOUNDS_REASON begins the rescale reasons of a target outside min/max replicas (horizontal.go reconcileAutoscaler, v1.36.3). */
const BOUNDS_REASON = 'Current number of replicas ';

/** HPA_TOLERANCE is --horizontal-pod-autoscaler-tolerance: a ratio within 0.1 of 1 changes nothing. */
const HPA_TOLERANCE = 0.1;

/**
 * tolerancesOf is tolerancesForHpa: the flag's tolerance, or spec.behavior.scaleDown/scaleUp.tolerance when set
 * (HPAConfigurableTolerance, on by default). See pkg/controller/podautoscaler/horizontal.go (v1.36.3).
 */
function tolerancesOf(hpa: Hpa): { down: number; up: number } {
  const read = (q: Quantity | undefined): number => {
    if (q === undefined || q === null) return HPA_TOLERANCE;
    try {
      return Number(parseQuantity(q).scaledValue(-9)) / 1e9;
    } catch {
      return HPA_TOLERANCE;
    }
  };
  return { down: read(hpa.spec?.behavior?.scaleDown?.tolerance), up: read(hpa.spec?.behavior?.scaleUp?.tolerance) };
}

/** AutoscalerReport explains one autoscaler at the end of the run. */
export interface AutoscalerReport {
  /** hpa is `namespace/name`; target is `Kind/name` of its scaleTargetRef. */
  hpa: string;
  target: string;
  replicas: { current: number; desired: number; min: number; max: number };
  /** metrics are its metrics as it last read them, each against its target. */
  metrics: { name: string; current: string; target: string; ratio?: number }[];
  /** scaled are the scalings it made, in order (virtual seconds). */
  scaled: { at: number; from: number; to: number; reason: string }[];
  conditions: { type: string; status: string; reason: string; message: string }[];
  /** why says why it stands where it does. */
  why: string;
}

type Quantity = string | number;
interface MetricTarget { type?: string; value?: Quantity; averageValue?: Quantity; averageUtilization?: number }
interface MetricValue { value?: Quantity; averageValue?: Quantity; averageUtilization?: number }
interface Identifier { name?: string; selector?: { matchLabels?: Record<string, string> } }

interface MetricSpec {
  type?: string;
  resource?: { name?: string; target?: MetricTarget };
  containerResource?: { name?: string; container?: string; target?: MetricTarget };
  pods?: { metric?: Identifier; target?: MetricTarget };
  object?: { describedObject?: { kind?: string; name?: string }; metric?: Identifier; target?: MetricTarget };
  external?: { metric?: Identifier; target?: MetricTarget };
}

interface MetricStatus {
  type?: string;
  resource?: { current?: MetricValue };
  containerResource?: { current?: MetricValue };
  pods?: { current?: MetricValue };
  object?: { current?: MetricValue };
  external?: { current?: MetricValue };
}

interface Hpa extends KubeObject {
  spec?: {
    minReplicas?: number; maxReplicas?: number; scaleTargetRef?: { kind?: string; name?: string }; metrics?: MetricSpec[];
    behavior?: { scaleUp?: { tolerance?: Quantity }; scaleDown?: { tolerance?: Quantity } };
  };
  status?: { currentReplicas?: number; desiredReplicas?: number; currentMetrics?: MetricStatus[]; conditions?: { type: string; status: string; reason?: string; message?: string }[] };
}

/** explainAutoscalers explains every autoscaler stored at the end of the run. */
export function explainAutoscalers(objects: readonly KubeObject[], trace: readonly TraceEntry[]): AutoscalerReport[] {
  return objects.filter((o) => o.kind === 'HorizontalPodAutoscaler').map((o) => explainAutoscaler(o as Hpa, trace));
}

function explainAutoscaler(hpa: Hpa, trace: readonly TraceEntry[]): AutoscalerReport {
  const ref = `HorizontalPodAutoscaler/${hpa.metadata?.namespace ?? 'default'}/${hpa.metadata?.name ?? ''}`;
  const spec = hpa.spec ?? {};
  const status = hpa.status ?? {};
  const replicas = { current: status.currentReplicas ?? 0, desired: status.desiredReplicas ?? 0, min: spec.minReplicas ?? 1, max: spec.maxReplicas ?? 0 };
  const metrics = (spec.metrics ?? []).map((m, i) => metricLine(m, status.currentMetrics?.[i]));
  const scaled: AutoscalerReport['scaled'] = [];
  let last: { proposed: number; stabilized: number; desired: number; currentReplicas: number } | undefined;
  for (const e of trace) {
    if (e.object !== ref || e.phase !== 'controllers.hpa') continue;
    const d = e.detail as { from?: number; to?: number; reason?: string; proposed?: number; stabilized?: number; desired?: number; currentReplicas?: number };
    if (typeof d.from === 'number' && typeof d.to === 'number' && !(d as { refused?: boolean }).refused) {
      scaled.push({ at: e.at, from: d.from, to: d.to, reason: d.reason ?? '' });
      // A rescale to the bounds reads no metric: it is the last word until a sync reads them again.
      if ((d.reason ?? '').startsWith(BOUNDS_REASON)) last = undefined;
    }
    if (typeof d.proposed === 'number' && typeof d.stabilized === 'number' && typeof d.desired === 'number') last = { proposed: d.proposed, stabilized: d.stabilized, desired: d.desired, currentReplicas: d.currentReplicas ?? 0 };
  }
  const bounded = last === undefined && scaled.at(-1)?.reason.startsWith(BOUNDS_REASON) ? scaled.at(-1) : undefined;
  const conditions = (status.conditions ?? []).map((c) => ({ type: c.type, status: c.status, reason: c.reason ?? '', message: c.message ?? '' }));
  return { hpa: `${hpa.metadata?.namespace ?? 'default'}/${hpa.metadata?.name ?? ''}`, target: `${spec.scaleTargetRef?.kind ?? ''}/${spec.scaleTargetRef?.name ?? ''}`, replicas, metrics, scaled, conditions, why: bounded && !conditions.some((c) => c.status === 'False' && c.type !== 'ScalingLimited')
    ? `it scaled its target from ${bounded.from} to ${bounded.to} without reading its metrics: ${bounded.reason}`
    : whyOf(replicas, metrics, conditions, last, tolerancesOf(hpa)) };
}

/** metricName names a metric by its source: `cpu`, `cpu of container app`, `packets-per-second (pods)`, ... */
function metricName(spec: MetricSpec): string {
  const selector = (id: Identifier | undefined) => {
    const labels = Object.entries(id?.selector?.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`).join(',');
    return labels ? ` {${labels}}` : '';
  };
  switch (spec.type) {
    case 'Resource': return spec.resource?.name ?? 'resource';
    case 'ContainerResource': return `${spec.containerResource?.name ?? ''} of container ${spec.containerResource?.container ?? ''}`;
    case 'Pods': return `${spec.pods?.metric?.name ?? ''}${selector(spec.pods?.metric)} (pods)`;
    case 'Object': return `${spec.object?.metric?.name ?? ''}${selector(spec.object?.metric)} of ${spec.object?.describedObject?.kind ?? ''}/${spec.object?.describedObject?.name ?? ''}`;
    case 'External': return `${spec.external?.metric?.name ?? ''}${selector(spec.external?.metric)} (external)`;
    default: return spec.type ?? 'metric';
  }
}

/** milli reads a quantity in thousandths, undefined when it is not one. */
function milli(q: Quantity | undefined): number | undefined {
  if (q === undefined) return undefined;
  try {
    return parseQuantity(q).milliValue();
  } catch {
    return undefined;
  }
}

const ratioOf = (have: number | undefined, want: number | undefined) => (have !== undefined && want !== undefined && want > 0 ? { ratio: Math.round((have / want) * 100) / 100 } : {});

/** metricLine shows one metric's current value against its target, with their ratio (what the tolerance is measured on). */
function metricLine(spec: MetricSpec, current: MetricStatus | undefined): AutoscalerReport['metrics'][number] {
  const name = metricName(spec);
  const source = { Resource: 'resource', ContainerResource: 'containerResource', Pods: 'pods', Object: 'object', External: 'external' }[spec.type ?? ''] as keyof MetricSpec & keyof MetricStatus | undefined;
  const target = source ? (spec[source] as { target?: MetricTarget } | undefined)?.target : undefined;
  const now = source && current && current.type === spec.type ? (current[source] as { current?: MetricValue } | undefined)?.current : undefined;
  if (target?.type === 'Utilization' && target.averageUtilization !== undefined) {
    const have = now?.averageUtilization;
    return {
      name, target: `${target.averageUtilization}% of requests`, current: have === undefined ? '<unknown>' : `${have}% of requests${now?.averageValue ? ` (${now.averageValue} a pod)` : ''}`,
      ...ratioOf(have, target.averageUtilization),
    };
  }
  if (target?.type === 'Value' && target.value !== undefined) {
    return { name, target: `${target.value}`, current: now?.value !== undefined ? `${now.value}` : '<unknown>', ...ratioOf(milli(now?.value), milli(target.value)) };
  }
  return {
    name, target: target?.averageValue !== undefined ? `${target.averageValue} a pod` : '<unknown>', current: now?.averageValue !== undefined ? `${now.averageValue} a pod` : '<unknown>',
    ...ratioOf(milli(now?.averageValue), milli(target?.averageValue)),
  };
}

/**
 * HINTS follow the controller's message where it leaves the way out unsaid: the selector map refuses pods that two
 * autoscalers select (validateAndParseSelector in pkg/controller/podautoscaler/horizontal.go, v1.36.3).
 */
const HINTS: Readonly<Record<string, string>> = {
  AmbiguousSelector: '; no autoscaler scales pods another one also selects: keep one autoscaler per workload (one HPA can hold several metrics)',
};
/** NO_SCALE_HINT follows go-restful's 404 for a target whose resource serves no scale subresource. */
const NO_SCALE_HINT = '; its kind has no scale subresource (Deployment, ReplicaSet, StatefulSet and ReplicationController have one)';

/** whyOf says why the autoscaler stands where it does, from the first condition that holds it, else its last sync. */
function whyOf(
  replicas: AutoscalerReport['replicas'], metrics: AutoscalerReport['metrics'], conditions: AutoscalerReport['conditions'],
  last: { proposed: number; stabilized: number; desired: number; currentReplicas: number } | undefined, tolerances: { down: number; up: number },
): string {
  const condition = (type: string) => conditions.find((c) => c.type === type);
  if (conditions.length === 0) return 'it has not synced yet: its first sync comes 15 s after it is created, then every 15 s';
  const active = condition('ScalingActive');
  if (active?.status === 'False') return `it cannot compute a replica count (${active.reason}): ${active.message}${HINTS[active.reason] ?? ''}`;
  const able = condition('AbleToScale');
  if (able?.status === 'False') return `it cannot scale its target (${able.reason}): ${able.message}${able.message.endsWith(NO_SCALE_ROUTE) ? NO_SCALE_HINT : ''}`;
  const limited = condition('ScalingLimited');
  if (limited?.status === 'True') return `${limited.message} (${limited.reason}): it stays at ${replicas.desired}, between minReplicas ${replicas.min} and maxReplicas ${replicas.max}`;
  if (last && last.stabilized !== last.proposed && able) return `its metrics propose ${last.proposed} replicas, but ${able.message} (${able.reason}): it keeps ${last.stabilized}`;
  const within = metrics.filter((m) => m.ratio !== undefined && 1 - tolerances.down <= m.ratio && m.ratio <= 1 + tolerances.up);
  const pct = (t: number) => `${Math.round(t * 10_000) / 100}%`;
  const tolerance = tolerances.down === tolerances.up ? `the ${pct(tolerances.up)} tolerance` : `the tolerances (${pct(tolerances.down)} down, ${pct(tolerances.up)} up)`;
  if (last && last.proposed === last.currentReplicas && within.length > 0) {
    return `its metrics are within ${tolerance} of their targets (${within.map((m) => `${m.name} ${m.current} against ${m.target}, ratio ${m.ratio}`).join('; ')}): it keeps ${replicas.current}`;
  }
  return `its metrics propose ${last?.proposed ?? replicas.desired} replicas: it has ${replicas.current}`;
}
