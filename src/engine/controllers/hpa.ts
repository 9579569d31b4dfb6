// The horizontal pod autoscaler (autoscaling/v2): every 15 s it reads its target's scale (a Deployment, ReplicaSet or
// StatefulSet: spec.replicas and spec.selector), the selected pods' CPU and memory usage from the metrics the Behavior
// gives, proposes a replica count per metric, stabilizes it and limits it by spec.behavior and min/max replicas, writes
// the scale and its status with the AbleToScale, ScalingActive and ScalingLimited conditions. See
// pkg/controller/podautoscaler/horizontal.go (reconcileAutoscaler, computeReplicasForMetrics,
// computeStatusForResourceMetricGeneric, normalizeDesiredReplicasWithBehaviors, setCondition) at k8s.io/kubernetes
// v1.36.3. Phase controllers.hpa.
import { fromMilli, parseQuantity } from '../api/quantity';
import { deepClone, type KubeObject, type LabelSelector, type Pod } from '../api/types';
import { formatLabelSelector, matchesLabelSelector } from '../api/labels';
import type { EngineContext } from '../context';
import type { Millis } from '../runtime/clock';
import type { Steps } from '../runtime/step';
import { type CalcPod, defaultRules, type HpaMemory, rateLimit, resourceReplicas, type ScalingRules, stabilize, storeScaleEvent } from './hpa-calc';
import { usageAt } from './hpa-metrics';
import { timeOf } from './pods';

/** HPA_CONTROLLER is the source of its events. */
export const HPA_CONTROLLER = 'horizontal-pod-autoscaler';
/** HPA_SYNC_PERIOD_MS is --horizontal-pod-autoscaler-sync-period's default, 15 s (every enqueue waits that long). */
export const HPA_SYNC_PERIOD_MS: Millis = 15_000;

interface Condition { type: string; status: string; reason: string; message: string; lastTransitionTime?: string }
interface MetricSpec { type?: string; resource?: { name?: string; target?: { type?: string; averageUtilization?: number; averageValue?: string | number } } }
interface HpaSpec {
  scaleTargetRef?: { kind?: string; name?: string; apiVersion?: string };
  minReplicas?: number;
  maxReplicas?: number;
  metrics?: MetricSpec[];
  behavior?: { scaleUp?: Partial<ScalingRules>; scaleDown?: Partial<ScalingRules> };
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

/** calcPod reads one pod for the replica calculator: its requests of the resource and its usage now. */
function calcPod(ctx: EngineContext, pod: Pod, resource: string, now: number): CalcPod {
  const spec = (pod.spec ?? {}) as { containers?: { name: string; resources?: { requests?: Record<string, string | number> } }[]; initContainers?: { name: string; restartPolicy?: string; resources?: { requests?: Record<string, string | number> } }[] };
  // calculatePodRequestsFromContainers: the containers and the restartable (sidecar) init containers.
  const containers = [...(spec.containers ?? []), ...(spec.initContainers ?? []).filter((c) => c.restartPolicy === 'Always')];
  let request = 0;
  let noRequestIn: string | undefined;
  for (const c of containers) {
    const q = c.resources?.requests?.[resource];
    if (q === undefined) { noRequestIn ??= c.name; continue; }
    request += parseQuantity(q).milliValue();
  }
  const ready = pod.status?.conditions?.find((c) => c.type === 'Ready');
  const name = pod.metadata?.name ?? '';
  const usage = pod.status?.phase === 'Running' ? usageAt(ctx.behavior, name, resource, now) : undefined;
  const start = timeOf(ctx.clock, pod.status?.startTime);
  return {
    name, phase: pod.status?.phase ?? 'Pending', deleting: Boolean(pod.metadata?.deletionTimestamp), request,
    ...(noRequestIn !== undefined ? { noRequestIn } : {}), ...(usage !== undefined ? { usage } : {}), ...(start !== undefined ? { startTime: start } : {}),
    ...(ready ? { ready: { status: ready.status, lastTransition: timeOf(ctx.clock, ready.lastTransitionTime) ?? 0 } } : {}),
  };
}

interface MetricResult { replicas: number; name: string; status?: unknown; error?: string; reason?: string }

/** computeMetric is computeReplicasForMetric for one metric: a Resource metric, or a type the simulation has no API for. */
function computeMetric(s: Sync, m: MetricSpec, current: number, pods: readonly Pod[]): MetricResult {
  const resource = m.resource?.name ?? '';
  const target = m.resource?.target;
  if (m.type !== 'Resource' || (resource !== 'cpu' && resource !== 'memory')) {
    return { replicas: 0, name: '', error: `metric type ${m.type ?? ''}${resource ? ` (${resource})` : ''} is not simulated: only Resource cpu and memory metrics have a metrics API here`, reason: `FailedGet${m.type ?? ''}Metric` };
  }
  const calc = pods.map((p) => calcPod(s.ctx, p, resource, s.now));
  if (target?.type === 'AverageValue' && target.averageValue !== undefined) {
    let averageMilli: number;
    try {
      averageMilli = parseQuantity(target.averageValue).milliValue();
    } catch (err) {
      return { replicas: 0, name: '', error: `invalid resource metric source: ${err instanceof Error ? err.message : String(err)}`, reason: 'FailedGetResourceMetric' };
    }
    if (!(averageMilli > 0)) return { replicas: 0, name: '', error: 'invalid resource metric source: the averageValue target is not positive', reason: 'FailedGetResourceMetric' };
    const r = resourceReplicas(current, calc, resource, { averageMilli }, s.now, s.now);
    if ('error' in r) return { replicas: 0, name: '', error: `failed to get ${resource} usage: ${r.error}`, reason: 'FailedGetResourceMetric' };
    return { replicas: r.replicas, name: `${resource} resource`, status: { type: 'Resource', resource: { name: resource, current: { averageValue: fromMilli(r.rawAverage).toString() } } } };
  }
  if (typeof target?.averageUtilization !== 'number' || target.averageUtilization <= 0) {
    return { replicas: 0, name: '', error: 'invalid resource metric source: neither a utilization target nor a value target was set', reason: 'FailedGetResourceMetric' };
  }
  const r = resourceReplicas(current, calc, resource, { utilization: target.averageUtilization }, s.now, s.now);
  if ('error' in r) return { replicas: 0, name: '', error: `failed to get ${resource} utilization: ${r.error}`, reason: 'FailedGetResourceMetric' };
  return {
    replicas: r.replicas, name: `${resource} resource utilization (percentage of request)`,
    status: { type: 'Resource', resource: { name: resource, current: { averageUtilization: r.utilization, averageValue: fromMilli(r.rawAverage).toString() } } },
  };
}

/** computeReplicasForMetrics: the largest proposal; all metrics failing is the first one's condition and error. */
function computeReplicasForMetrics(s: Sync, metrics: readonly MetricSpec[], current: number, pods: readonly Pod[]): { replicas: number; name: string; statuses: unknown[]; error?: string } {
  let replicas = 0;
  let name = '';
  let invalid = 0;
  let first: MetricResult | undefined;
  const statuses: unknown[] = [];
  for (const m of metrics) {
    const r = computeMetric(s, m, current, pods);
    if (r.error !== undefined) {
      // getUnableComputeReplicaCountCondition: the event, and the condition kept for when every metric fails.
      event(s, 'Warning', r.reason ?? 'FailedGetResourceMetric', r.error);
      if (invalid === 0) first = r;
      invalid++;
      statuses.push({ type: '' });
      continue;
    }
    statuses.push(r.status);
    if (replicas === 0 || r.replicas > replicas) { replicas = r.replicas; name = r.name; }
  }
  const error = first ? `invalid metrics (${invalid} invalid out of ${metrics.length}), first error is: ${first.error}` : undefined;
  if (first && invalid >= metrics.length) {
    setCondition(s, 'ScalingActive', 'False', first.reason ?? 'FailedGetResourceMetric', `the HPA was unable to compute the replica count: ${first.error}`);
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
    const r = computeReplicasForMetrics(s, spec.metrics, current, pods);
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
