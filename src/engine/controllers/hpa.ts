// The horizontal pod autoscaler (autoscaling/v2): every 15 s it reads its target's scale (a Deployment, ReplicaSet or
// StatefulSet: spec.replicas, status.replicas and spec.selector), asks each metric for a replica count (Resource,
// ContainerResource, Pods, Object and External metrics, from the metrics the Behavior gives: see hpa-sources.ts),
// takes the largest, stabilizes it and limits it by spec.behavior and min/max replicas, writes the scale and its
// status with the AbleToScale, ScalingActive and ScalingLimited conditions. See
// pkg/controller/podautoscaler/horizontal.go (reconcileAutoscaler, computeReplicasForMetrics,
// normalizeDesiredReplicasWithBehaviors, setCondition) at k8s.io/kubernetes v1.36.3. Phase controllers.hpa.
import { deepClone, type KubeObject, type LabelSelector, type Pod } from '../api/types';
import { formatLabelSelector, matchesLabelSelector } from '../api/labels';
import type { EngineContext } from '../context';
import type { Millis } from '../runtime/clock';
import type { Steps } from '../runtime/step';
import { parseQuantity } from '../api/quantity';
import { DEFAULT_TOLERANCES, defaultRules, type HpaMemory, rateLimit, type ScalingRules, stabilize, storeScaleEvent, type Tolerances } from './hpa-calc';
import { computeMetric, type MetricFailure, type MetricInput, type MetricSpec } from './hpa-sources';

/** HPA_CONTROLLER is the source of its events. */
export const HPA_CONTROLLER = 'horizontal-pod-autoscaler';
/** HPA_SYNC_PERIOD_MS is --horizontal-pod-autoscaler-sync-period's default, 15 s (every enqueue waits that long). */
export const HPA_SYNC_PERIOD_MS: Millis = 15_000;

interface Condition { type: string; status: string; reason: string; message: string; lastTransitionTime?: string }
interface HpaSpec {
  scaleTargetRef?: { kind?: string; name?: string; apiVersion?: string };
  minReplicas?: number;
  maxReplicas?: number;
  metrics?: MetricSpec[];
  behavior?: { scaleUp?: Partial<ScalingRules> & { tolerance?: string | number }; scaleDown?: Partial<ScalingRules> & { tolerance?: string | number } };
}
interface HpaStatus {
  observedGeneration?: number;
  lastScaleTime?: string;
  currentReplicas?: number;
  desiredReplicas?: number;
  currentMetrics?: unknown[];
  conditions?: Condition[];
}
type Hpa = KubeObject & { spec?: HpaSpec; status?: HpaStatus };

/** SCALE_KINDS are the targets whose scale subresource the simulation serves, with their group. */
const SCALE_KINDS: Readonly<Record<string, string>> = { Deployment: 'deployments.apps', ReplicaSet: 'replicasets.apps', StatefulSet: 'statefulsets.apps' };

interface Sync { ctx: EngineContext; hpa: Hpa; status: HpaStatus; ref: string; now: number }

function event(s: Sync, type: 'Normal' | 'Warning', reason: string, message: string): void {
  s.ctx.recorder.event({ type, reason, object: s.ref, source: HPA_CONTROLLER, message });
}

/** setCondition is horizontal.go setCondition: the transition time moves only when the status changes. */
function setCondition(s: Sync, type: string, status: string, reason: string, message: string): void {
  const list = (s.status.conditions ??= []);
  const existing = list.find((c) => c.type === type);
  const stamp = s.ctx.clock.timestamp();
  if (!existing) { list.push({ type, status, lastTransitionTime: stamp, reason, message }); return; }
  if (existing.status !== status) existing.lastTransitionTime = stamp;
  existing.status = status;
  existing.reason = reason;
  existing.message = message;
}

/** specOf is the HPA's spec as autoscaling/v2 defaulting leaves it: minReplicas 1, CPU at 80% when no metric is given. */
function specOf(hpa: Hpa): { min: number; max: number; metrics: MetricSpec[]; up: ScalingRules; down: ScalingRules } {
  const spec = hpa.spec ?? {};
  // pkg/apis/autoscaling/v2/defaults.go SetDefaults_HorizontalPodAutoscaler (v1.36.3).
  const metrics = spec.metrics && spec.metrics.length > 0 ? spec.metrics : [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }];
  const int = (n: unknown, d: number) => (typeof n === 'number' && Number.isInteger(n) ? n : d);
  return { min: int(spec.minReplicas, 1), max: int(spec.maxReplicas, 0), metrics, up: defaultRules('up', spec.behavior?.scaleUp), down: defaultRules('down', spec.behavior?.scaleDown) };
}

/**
 * tolerancesForHpa: the flag's 0.1 both ways, each direction replaced by spec.behavior's tolerance when set
 * (HPAConfigurableTolerance, on by default in 1.36), read as Quantity.AsApproximateFloat64 does. See horizontal.go
 * (tolerancesForHpa) at k8s.io/kubernetes v1.36.3.
 */
function tolerancesForHpa(hpa: Hpa): Tolerances {
  const read = (q: string | number | undefined, fallback: number): number => {
    if (q === undefined || q === null) return fallback;
    try {
      return Number(parseQuantity(q).scaledValue(-9)) / 1e9;
    } catch {
      return fallback;
    }
  };
  const b = hpa.spec?.behavior;
  return { scaleDown: read(b?.scaleDown?.tolerance, DEFAULT_TOLERANCES.scaleDown), scaleUp: read(b?.scaleUp?.tolerance, DEFAULT_TOLERANCES.scaleUp) };
}

/**
 * computeReplicasForMetrics: the largest proposal. Each failing metric records its event; when every metric fails, or
 * one fails and the others would scale down, the first failure's condition stands and nothing is proposed (-1).
 */
function computeReplicasForMetrics(s: Sync, metrics: readonly MetricSpec[], input: MetricInput): { replicas: number; name: string; statuses: unknown[]; error?: string } {
  let replicas = 0;
  let name = '';
  let invalid = 0;
  let first: MetricFailure | undefined;
  const statuses: unknown[] = [];
  for (const m of metrics) {
    const r = computeMetric(input, m);
    if ('failure' in r) {
      // getUnableComputeReplicaCountCondition: the event, and the condition kept for the first failing metric.
      event(s, 'Warning', r.failure.reason, r.failure.message);
      if (invalid === 0) first = r.failure;
      invalid++;
      statuses.push({ type: '' });
      continue;
    }
    statuses.push(r.status);
    if (replicas === 0 || r.replicas > replicas) { replicas = r.replicas; name = r.name; }
  }
  const error = first ? `invalid metrics (${invalid} invalid out of ${metrics.length}), first error is: ${first.error}` : undefined;
  if (first && (invalid >= metrics.length || replicas < input.specReplicas)) {
    setCondition(s, 'ScalingActive', 'False', first.reason, `the HPA was unable to compute the replica count: ${first.message}`);
    return { replicas: -1, name: '', statuses, ...(error ? { error } : {}) };
  }
  setCondition(s, 'ScalingActive', 'True', 'ValidMetricFound', `the HPA was able to successfully calculate a replica count from ${name}`);
  return { replicas, name, statuses, ...(error ? { error } : {}) };
}

/**
 * ordered is the status as autoscaling/v2 serializes it: the fields in HorizontalPodAutoscalerStatus order,
 * currentReplicas and currentMetrics omitted when empty, desiredReplicas always. The controller never sets
 * observedGeneration (setStatus rebuilds the status without it).
 */
function ordered(st: HpaStatus): HpaStatus {
  return {
    ...(st.lastScaleTime ? { lastScaleTime: st.lastScaleTime } : {}),
    ...(st.currentReplicas ? { currentReplicas: st.currentReplicas } : {}),
    desiredReplicas: st.desiredReplicas ?? 0,
    ...(st.currentMetrics && st.currentMetrics.length > 0 ? { currentMetrics: st.currentMetrics } : {}),
    ...(st.conditions ? { conditions: st.conditions } : {}),
  };
}

/** writeStatus stores the status when it changed (updateStatusIfNeeded). */
function* writeStatus(s: Sync, before: string): Steps<void> {
  const status = ordered(s.status);
  if (JSON.stringify(status) === before) return;
  s.ctx.store.update<Hpa>('HorizontalPodAutoscaler', s.hpa.metadata?.namespace, s.hpa.metadata?.name ?? '', (o) => { o['status'] = status; });
  yield { phase: 'controllers.hpa', object: s.ref, field: 'status', result: `status: currentReplicas ${status.currentReplicas ?? 0}, desiredReplicas ${status.desiredReplicas ?? 0}${(status.conditions ?? []).map((c) => `; ${c.type} ${c.status} (${c.reason})`).join('')}`, detail: { status } };
}

/** syncHpa is reconcileAutoscaler for one HPA; false when it is gone (the key is then forgotten). */
export function* syncHpa(ctx: EngineContext, memory: Map<string, HpaMemory>, namespace: string, name: string): Steps<boolean> {
  const key = `${namespace}/${name}`;
  const stored = ctx.store.get<Hpa>('HorizontalPodAutoscaler', namespace, name);
  if (!stored) { memory.delete(key); return false; }
  const hpa = deepClone(stored);
  const before = JSON.stringify(hpa.status ?? {});
  const s: Sync = { ctx, hpa, status: deepClone(hpa.status ?? {}), ref: `HorizontalPodAutoscaler/${key}`, now: ctx.clock.now };
  const spec = specOf(hpa);
  const targetRef = hpa.spec?.scaleTargetRef ?? {};
  const kind = targetRef.kind ?? '';
  const reference = `${kind}/${namespace}/${targetRef.name ?? ''}`;
  const group = SCALE_KINDS[kind];
  const target = group ? ctx.store.get<KubeObject>(kind, namespace, targetRef.name ?? '') : undefined;
  if (!target) {
    // A kind without a scale the simulation serves is the RESTMapper's NoKindMatchError; a missing target is NotFound.
    const err = group ? `${group} "${targetRef.name ?? ''}" not found` : `no matches for kind "${kind}" in group "${(targetRef.apiVersion ?? '').split('/').slice(0, -1).join('/')}"`;
    event(s, 'Warning', 'FailedGetScale', err);
    setCondition(s, 'AbleToScale', 'False', 'FailedGetScale', `the HPA controller was unable to get the target's current scale: ${err}`);
    yield { phase: 'controllers.hpa', object: s.ref, field: 'spec.scaleTargetRef', result: `cannot read the scale of ${reference}: ${err}`, detail: {}, outcome: 'failed' };
    yield* writeStatus(s, before);
    return true;
  }
  setCondition(s, 'AbleToScale', 'True', 'SucceededGetScale', 'the HPA controller was able to get the target\'s current scale');
  const tspec = (target['spec'] ?? {}) as { replicas?: number; selector?: LabelSelector };
  const statusReplicas = ((target['status'] ?? {}) as { replicas?: number }).replicas ?? 0;
  const current = tspec.replicas ?? 1;
  // recordInitialRecommendation: the first scale read counts as a recommendation of the current size.
  if (!memory.has(key)) memory.set(key, { recommendations: [{ replicas: current, at: s.now }], up: [], down: [] });
  const mem = memory.get(key)!;
  let desired = 0;
  let reason = '';
  let rescale = true;
  let statuses: unknown[] = [];
  if (current === 0 && spec.min !== 0) {
    desired = 0;
    rescale = false;
    setCondition(s, 'ScalingActive', 'False', 'ScalingDisabled', 'scaling is disabled since the replica count of the target is zero');
  } else if (current > spec.max) {
    reason = 'Current number of replicas above Spec.MaxReplicas';
    desired = spec.max;
  } else if (current < spec.min) {
    reason = 'Current number of replicas below Spec.MinReplicas';
    desired = spec.min;
  } else {
    // The scale's selector picks the pods (Pods(namespace).List(selector)).
    const selector = tspec.selector;
    const pods = ctx.store.list<Pod>('Pod', namespace).filter((p) => matchesLabelSelector(selector, (p.metadata?.labels ?? {}) as Record<string, string>));
    const r = computeReplicasForMetrics(s, spec.metrics, { ctx, namespace, now: s.now, specReplicas: current, statusReplicas, pods, tolerances: tolerancesForHpa(hpa) });
    statuses = r.statuses;
    if (r.error !== undefined && r.replicas === -1) {
      s.status = { ...s.status, currentReplicas: current, currentMetrics: statuses };
      yield* writeStatus(s, before);
      event(s, 'Warning', 'FailedComputeMetricsReplicas', r.error);
      yield { phase: 'controllers.hpa', object: s.ref, field: 'spec.metrics', result: `no replica count for ${reference} (selector ${formatLabelSelector(selector)}): ${r.error}`, detail: {}, outcome: 'failed' };
      return true;
    }
    desired = r.replicas;
    if (desired > current) reason = `${r.name} above target`;
    if (desired < current) reason = 'All metrics below target';
    const proposed = desired;
    const st = stabilize(mem, s.now, current, desired, spec.up, spec.down);
    setCondition(s, 'AbleToScale', 'True', st.replicas !== proposed ? st.reason : 'ReadyForNewScale', st.replicas !== proposed ? st.message : 'recommended size matches current size');
    const limited = rateLimit(mem, s.now, current, st.replicas, spec.min, spec.max, spec.up, spec.down);
    setCondition(s, 'ScalingLimited', limited.replicas === st.replicas ? 'False' : 'True', limited.reason, limited.message);
    desired = limited.replicas;
    rescale = desired !== current;
    yield {
      phase: 'controllers.hpa', object: s.ref, field: 'spec.metrics',
      result: `${r.name || 'metrics'}: ${current} → proposed ${proposed}, stabilized ${st.replicas}, limited ${desired} (${limited.reason})`,
      detail: { currentReplicas: current, proposed, stabilized: st.replicas, desired, currentMetrics: statuses },
    };
    if (rescale) storeScaleEvent(mem, s.now, current, desired, spec.up, spec.down);
  }
  if (rescale) {
    // The scale subresource's update: spec.replicas changes, and with it the generation (the target's strategy).
    ctx.store.update<KubeObject>(kind, namespace, targetRef.name ?? '', (o) => {
      (o['spec'] as { replicas?: number }).replicas = desired;
      if (o.metadata) o.metadata.generation = (o.metadata.generation ?? 1) + 1;
    });
    setCondition(s, 'AbleToScale', 'True', 'SucceededRescale', `the HPA controller was able to update the target scale to ${desired}`);
    event(s, 'Normal', 'SuccessfulRescale', `New size: ${desired}; reason: ${reason}`);
    yield { phase: 'controllers.hpa', object: s.ref, field: 'spec.scaleTargetRef', result: `scaled ${reference} from ${current} to ${desired}: ${reason}`, detail: { from: current, to: desired, reason } };
    s.status.lastScaleTime = ctx.clock.timestamp();
  } else {
    desired = current;
  }
  // setStatus: the replica counts and metrics of this sync, the last scale time and the conditions kept.
  s.status = { ...(s.status.lastScaleTime ? { lastScaleTime: s.status.lastScaleTime } : {}), currentReplicas: current, desiredReplicas: desired, currentMetrics: statuses, ...(s.status.conditions ? { conditions: s.status.conditions } : {}) };
  yield* writeStatus(s, before);
  return true;
}
