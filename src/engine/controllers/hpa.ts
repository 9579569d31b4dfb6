// The horizontal pod autoscaler (autoscaling/v2): every 15 s it reads its target's scale (a Deployment, ReplicaSet or
// StatefulSet: spec.replicas, status.replicas and spec.selector), asks each metric for a replica count (Resource,
// ContainerResource, Pods, Object and External metrics, from the metrics the Behavior gives: see hpa-sources.ts),
// takes the largest, stabilizes it and limits it by spec.behavior and min/max replicas, writes the scale and its
// status with the AbleToScale, ScalingActive and ScalingLimited conditions. See
// pkg/controller/podautoscaler/horizontal.go (reconcileAutoscaler, computeReplicasForMetrics,
// normalizeDesiredReplicasWithBehaviors, setCondition) at k8s.io/kubernetes v1.36.3. Phase controllers.hpa.
import type { ScaleObject } from '../api/scale';
import { deepClone, type KubeObject, type Pod } from '../api/types';
import type { ApiOutcome, ApiServer } from '../apiserver/server';
import { parseSelector, type Selector, SelectorError, selectorMatches } from '../api/labels';
import type { EngineContext } from '../context';
import type { Millis } from '../runtime/clock';
import type { Steps } from '../runtime/step';
import { parseQuantity } from '../api/quantity';
import { DEFAULT_TOLERANCES, defaultRules, type HpaMemory, rateLimit, type ScalingRules, stabilize, storeScaleEvent, type Tolerances } from './hpa-calc';
import { getScale, type Scale } from './hpa-scale';
import type { HpaSelectors } from './hpa-selectors';
import { computeMetric, type MetricFailure, type MetricInput, type MetricSpec } from './hpa-sources';
import { STATUS_MANAGERS, updateStatus } from '../apiserver/status-write';

/** HPA_CONTROLLER is the source of its events. */
export const HPA_CONTROLLER = 'horizontal-pod-autoscaler';
/** HPA_SYNC_PERIOD_MS is --horizontal-pod-autoscaler-sync-period's default, 15 s (every enqueue waits that long). */
export const HPA_SYNC_PERIOD_MS: Millis = 15_000;
/** HPA_SERVICE_ACCOUNT is the controller's service account in kube-system (bootstrappolicy's horizontal-pod-autoscaler). */
const HPA_SERVICE_ACCOUNT = 'horizontal-pod-autoscaler';

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
  currentMetrics?: unknown[] | null;
  conditions?: Condition[];
}
type Hpa = KubeObject & { spec?: HpaSpec; status?: HpaStatus };

interface Sync { ctx: EngineContext; hpa: Hpa; status: HpaStatus; ref: string; now: number; selectors: HpaSelectors }

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
 * validateAndParseSelector: the scale's selector must be there and parse (labels.Parse), and the pods it selects must
 * be this autoscaler's alone; the autoscaler's entry in the selector map takes the selector first. Each refusal is a
 * Warning event and ScalingActive False, and no replica count. See horizontal.go (validateAndParseSelector) at
 * k8s.io/kubernetes v1.36.3.
 */
function validateAndParseSelector(s: Sync, selector: string): { pods: Pod[] } | { error: string } {
  const namespace = s.hpa.metadata?.namespace ?? 'default';
  if (selector === '') {
    event(s, 'Warning', 'SelectorRequired', 'selector is required');
    setCondition(s, 'ScalingActive', 'False', 'InvalidSelector', 'the HPA target\'s scale is missing a selector');
    return { error: 'selector is required' };
  }
  let parsed: Selector;
  try {
    parsed = parseSelector(selector);
  } catch (err) {
    if (!(err instanceof SelectorError)) throw err;
    const message = `couldn't convert selector into a corresponding internal selector object: ${err.message}`;
    event(s, 'Warning', 'InvalidSelector', message);
    setCondition(s, 'ScalingActive', 'False', 'InvalidSelector', message);
    return { error: message };
  }
  s.selectors.put(namespace, s.hpa.metadata?.name ?? '', parsed);
  // podLister.Pods(namespace).List(parsedSelector): every pod the selector matches, terminating ones included.
  const pods = s.ctx.store.list<Pod>('Pod', namespace).filter((p) => selectorMatches(parsed, (p.metadata?.labels ?? {}) as Record<string, string>));
  const hpas = s.selectors.controlling(pods);
  if (hpas.length > 1) {
    // fmt's %v of the selector string and of the []selectors.Key: `[default/a default/b]`.
    const message = `pods by selector ${selector} are controlled by multiple HPAs: [${hpas.join(' ')}]`;
    event(s, 'Warning', 'AmbiguousSelector', message);
    setCondition(s, 'ScalingActive', 'False', 'AmbiguousSelector', message);
    return { error: message };
  }
  return { pods };
}

/**
 * computeReplicasForMetrics: the selector checked (its error ends the sync with no metric read), then the largest
 * proposal. Each failing metric records its event; when every metric fails, or one fails and the others would scale
 * down, the first failure's condition stands and nothing is proposed (-1).
 */
function computeReplicasForMetrics(s: Sync, metrics: readonly MetricSpec[], scale: Scale, tolerances: Tolerances): { replicas: number; name: string; statuses: unknown[]; error?: string } {
  const selected = validateAndParseSelector(s, scale.selector);
  if ('error' in selected) return { replicas: -1, name: '', statuses: [], error: selected.error };
  const input: MetricInput = {
    ctx: s.ctx, namespace: s.hpa.metadata?.namespace ?? 'default', now: s.now, specReplicas: scale.specReplicas, statusReplicas: scale.statusReplicas, pods: selected.pods, tolerances,
  };
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
 * currentReplicas omitted when 0, desiredReplicas always, currentMetrics (no omitempty) null when the sync read no
 * metric. The controller never sets observedGeneration (setStatus rebuilds the status without it). See
 * staging/src/k8s.io/api/autoscaling/v2/types.go (v0.36.3).
 */
function ordered(st: HpaStatus): HpaStatus {
  return {
    ...(st.lastScaleTime ? { lastScaleTime: st.lastScaleTime } : {}),
    ...(st.currentReplicas ? { currentReplicas: st.currentReplicas } : {}),
    desiredReplicas: st.desiredReplicas ?? 0,
    currentMetrics: st.currentMetrics && st.currentMetrics.length > 0 ? st.currentMetrics : null,
    ...(st.conditions ? { conditions: st.conditions } : {}),
  };
}

/** writeStatus stores the status when it changed (updateStatusIfNeeded). */
function* writeStatus(s: Sync, before: string): Steps<void> {
  const status = ordered(s.status);
  if (JSON.stringify(status) === before) return;
  updateStatus<Hpa>(s.ctx, STATUS_MANAGERS.controllers, 'HorizontalPodAutoscaler', s.hpa.metadata?.namespace, s.hpa.metadata?.name ?? '', (o) => { o['status'] = status; });
  yield { phase: 'controllers.hpa', object: s.ref, field: 'status', result: `status: currentReplicas ${status.currentReplicas ?? 0}, desiredReplicas ${status.desiredReplicas ?? 0}${(status.conditions ?? []).map((c) => `; ${c.type} ${c.status} (${c.reason})`).join('')}`, detail: { status } };
}

/**
 * updateScale is scaleNamespacer.Scales(namespace).Update: PUT .../NAME/scale with the Scale read at this sync and
 * the new spec.replicas, as the controller's service account (kube-controller-manager runs with
 * --use-service-account-credentials).
 */
function* updateScale(api: ApiServer, scale: Scale, namespace: string, replicas: number, ref: string): Steps<ApiOutcome> {
  const apiVersion = scale.group ? `${scale.group}/v1` : 'v1';
  const root = scale.group ? `/apis/${apiVersion}` : '/api/v1';
  const object: ScaleObject = { ...scale.object, spec: replicas !== 0 ? { replicas } : {} };
  return yield* api.serve({
    verb: 'update', method: 'PUT', path: `${root}/namespaces/${namespace}/${scale.resource}/${scale.name}/scale`, apiVersion, kind: scale.kind,
    group: scale.group, resource: scale.resource, subresource: 'scale', namespace, name: scale.name, object,
    credentials: { serviceAccount: `kube-system/${HPA_SERVICE_ACCOUNT}` },
  }, ref);
}

/** syncHpa is reconcileAutoscaler for one HPA; false when it is gone (the key is then forgotten). */
export function* syncHpa(ctx: EngineContext, api: ApiServer, memory: Map<string, HpaMemory>, selectors: HpaSelectors, namespace: string, name: string): Steps<boolean> {
  const key = `${namespace}/${name}`;
  const stored = ctx.store.get<Hpa>('HorizontalPodAutoscaler', namespace, name);
  if (!stored) { memory.delete(key); return false; }
  const hpa = deepClone(stored);
  const before = JSON.stringify(hpa.status ?? {});
  const s: Sync = { ctx, hpa, status: deepClone(hpa.status ?? {}), ref: `HorizontalPodAutoscaler/${key}`, now: ctx.clock.now, selectors };
  const spec = specOf(hpa);
  const targetRef = hpa.spec?.scaleTargetRef ?? {};
  const kind = targetRef.kind ?? '';
  const reference = `${kind}/${namespace}/${targetRef.name ?? ''}`;
  const scale = getScale(ctx.store, namespace, targetRef);
  if ('error' in scale) {
    event(s, 'Warning', 'FailedGetScale', scale.error);
    setCondition(s, 'AbleToScale', 'False', 'FailedGetScale', `the HPA controller was unable to get the target's current scale: ${scale.error}`);
    yield { phase: 'controllers.hpa', object: s.ref, field: 'spec.scaleTargetRef', result: `cannot read the scale of ${reference}: ${scale.error}`, detail: {}, outcome: 'failed' };
    yield* writeStatus(s, before);
    return true;
  }
  setCondition(s, 'AbleToScale', 'True', 'SucceededGetScale', 'the HPA controller was able to get the target\'s current scale');
  const current = scale.specReplicas;
  // recordInitialRecommendation: the first scale read counts as a recommendation of the current size.
  if (!memory.has(key)) memory.set(key, { recommendations: [{ replicas: current, at: s.now }], up: [], down: [] });
  const mem = memory.get(key)!;
  let desired = 0;
  let reason = '';
  let rescale = true;
  let statuses: unknown[] = [];
  let metricPath = false;
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
    const r = computeReplicasForMetrics(s, spec.metrics, scale, tolerancesForHpa(hpa));
    statuses = r.statuses;
    if (r.error !== undefined && r.replicas === -1) {
      s.status = { ...s.status, currentReplicas: current, currentMetrics: statuses };
      yield* writeStatus(s, before);
      event(s, 'Warning', 'FailedComputeMetricsReplicas', r.error);
      yield { phase: 'controllers.hpa', object: s.ref, field: 'spec.metrics', result: `no replica count for ${reference} (selector ${scale.selector || '<none>'}): ${r.error}`, detail: {}, outcome: 'failed' };
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
    metricPath = true;
  }
  if (rescale) {
    // The scale subresource's update, through the API server as the controller's service account.
    const out = yield* updateScale(api, scale, namespace, desired, s.ref);
    if (!out.ok) {
      // Not a conflict (RetryOnConflict gives up at once): FailedRescale, and the status keeps its desiredReplicas.
      const err = out.error.message;
      event(s, 'Warning', 'FailedRescale', `New size: ${desired}; reason: ${reason}; error: ${err}`);
      setCondition(s, 'AbleToScale', 'False', 'FailedUpdateScale', `the HPA controller was unable to update the target scale: ${err}`);
      yield { phase: 'controllers.hpa', object: s.ref, field: 'spec.scaleTargetRef', result: `the API server refused to scale ${reference} from ${current} to ${desired}: ${err}`, detail: { from: current, to: desired, reason, refused: true }, outcome: 'failed' };
      s.status = { ...s.status, currentReplicas: current, currentMetrics: statuses };
      yield* writeStatus(s, before);
      return true;
    }
    if (metricPath) storeScaleEvent(mem, s.now, current, desired, spec.up, spec.down);
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
