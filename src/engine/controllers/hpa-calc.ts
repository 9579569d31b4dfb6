// The horizontal pod autoscaler's arithmetic: the replica count a resource metric proposes (GetResourceReplicas and
// GetRawResourceReplicas with groupPods, the tolerance, missing and unready pods), the stabilization window and the
// scale-rate policies of spec.behavior. Pure functions of their inputs. See pkg/controller/podautoscaler/
// replica_calculator.go and horizontal.go (stabilizeRecommendationWithBehaviors, convertDesiredReplicasWithBehaviorRate,
// calculateScaleUpLimitWithScalingRules, calculateScaleDownLimitWithBehaviors) at k8s.io/kubernetes v1.36.3.

/** TOLERANCE is --horizontal-pod-autoscaler-tolerance's default, 0.1 (cmd/kube-controller-manager/app/options/hpacontroller.go, v1.36.3). */
export const TOLERANCE = 0.1;
/** CPU_INITIALIZATION_PERIOD_MS is --horizontal-pod-autoscaler-cpu-initialization-period's default, 5 minutes. */
export const CPU_INITIALIZATION_PERIOD_MS = 5 * 60_000;
/** INITIAL_READINESS_DELAY_MS is --horizontal-pod-autoscaler-initial-readiness-delay's default, 30 seconds. */
export const INITIAL_READINESS_DELAY_MS = 30_000;
/** DOWNSCALE_STABILIZATION_SECONDS is --horizontal-pod-autoscaler-downscale-stabilization's default, 5 minutes. */
export const DOWNSCALE_STABILIZATION_SECONDS = 300;
/** METRIC_WINDOW_MS is the window metrics-server reports for a pod sample (its default --metric-resolution, 15 s). */
export const METRIC_WINDOW_MS = 15_000;

/** CalcPod is what groupPods reads of a pod: its phase, deletion, Ready condition, start time, request and sample. */
export interface CalcPod {
  name: string;
  phase: string;
  deleting: boolean;
  /** ready is the Ready condition: its status and last transition (virtual ms); undefined without one. */
  ready?: { status: string; lastTransition: number };
  startTime?: number;
  /** request is the sum of the containers' requests of the resource (milli-units). */
  request: number;
  /** noRequestIn names the first container without a request of the resource. */
  noRequestIn?: string;
  /** requestError is calculateRequests' error for the pod other than a container's missing request: the named container is not in the pod, or PodRequests has no such request. */
  requestError?: string;
  /** usage is the metric sample (milli-units), undefined when the metrics API has none for the pod. */
  usage?: number;
}

/** ResourceProposal is what one resource metric proposes; `error` is the replica calculator's error text. */
export type ResourceProposal =
  | { replicas: number; utilization?: number; rawAverage: number }
  | { error: string };

/** groupPods sorts the pods as replica_calculator.go groupPods does. */
function groupPods(pods: readonly CalcPod[], cpu: boolean, now: number, sampledAt: number) {
  let readyPodCount = 0;
  const unready = new Set<string>();
  const missing = new Set<string>();
  const ignored = new Set<string>();
  for (const p of pods) {
    if (p.deleting || p.phase === 'Failed') { ignored.add(p.name); continue; }
    if (p.phase === 'Pending') { unready.add(p.name); continue; }
    if (p.usage === undefined) { missing.add(p.name); continue; }
    if (cpu) {
      let isUnready: boolean;
      if (!p.ready || p.startTime === undefined) isUnready = true;
      else if (p.startTime + CPU_INITIALIZATION_PERIOD_MS > now) {
        // Within the initialization period: unready, or a sample taken before it turned ready (metric.Window).
        isUnready = p.ready.status === 'False' || sampledAt < p.ready.lastTransition + METRIC_WINDOW_MS;
      } else {
        isUnready = p.ready.status === 'False' && p.startTime + INITIAL_READINESS_DELAY_MS > p.ready.lastTransition;
      }
      if (isUnready) { unready.add(p.name); continue; }
    }
    readyPodCount++;
  }
  return { readyPodCount, unready, missing, ignored };
}

/**
 * Tolerances are the scale-down and scale-up tolerances on a metric's usage ratio: --horizontal-pod-autoscaler-tolerance,
 * or spec.behavior.scaleDown/scaleUp.tolerance (HPAConfigurableTolerance, beta and on by default since 1.35). See
 * replica_calculator.go (Tolerances) and horizontal.go (tolerancesForHpa) at k8s.io/kubernetes v1.36.3.
 */
export interface Tolerances { scaleDown: number; scaleUp: number }

/** DEFAULT_TOLERANCES are the flag's 0.1 both ways. */
export const DEFAULT_TOLERANCES: Tolerances = { scaleDown: TOLERANCE, scaleUp: TOLERANCE };

/** isWithin is Tolerances.isWithin: a ratio this close to 1 changes nothing (both bounds included). */
export const isWithin = (t: Tolerances, ratio: number): boolean => 1 - t.scaleDown <= ratio && ratio <= 1 + t.scaleUp;

/**
 * resourceReplicas is GetResourceReplicas (targetUtilization given) or calcPlainMetricReplicas (targetAverage, in
 * milli-units: GetRawResourceReplicas, and GetMetricReplicas for a Pods metric with resource ''), once the metrics API
 * has answered (its own errors are the caller's). `resource` is cpu, memory or ''; `sampledAt` is when the samples were
 * taken. See replica_calculator.go (v1.36.3).
 */
export function resourceReplicas(
  currentReplicas: number, pods: readonly CalcPod[], resource: string, target: { utilization: number } | { averageMilli: number }, now: number, sampledAt: number,
  tolerances: Tolerances = DEFAULT_TOLERANCES,
): ResourceProposal {
  const within = (ratio: number) => isWithin(tolerances, ratio);
  if (pods.length === 0) return { error: 'no pods returned by selector while calculating replica count' };
  const g = groupPods(pods, resource === 'cpu', now, sampledAt);
  const metrics = new Map<string, number>();
  for (const p of pods) if (p.usage !== undefined && !g.ignored.has(p.name) && !g.unready.has(p.name)) metrics.set(p.name, p.usage);
  if (metrics.size === 0) return { error: 'did not receive metrics for targeted pods (pods might be unready)' };
  const requests = new Map<string, number>();
  if ('utilization' in target) {
    // calculateRequests: every pod's request of the resource.
    for (const p of pods) {
      if (p.requestError !== undefined) return { error: p.requestError };
      if (p.noRequestIn !== undefined) return { error: `missing request for ${resource} in container ${p.noRequestIn} of Pod ${p.name}` };
      requests.set(p.name, p.request);
    }
  }
  // GetResourceUtilizationRatio / GetMetricUsageRatio.
  const ratioOf = (m: Map<string, number>) => {
    if ('utilization' in target) {
      let used = 0;
      let requested = 0;
      for (const [name, v] of m) {
        const r = requests.get(name);
        if (r === undefined) continue;
        used += v;
        requested += r;
      }
      if (requested === 0) return { error: `no metrics returned matched known pods` };
      const utilization = Math.trunc((used * 100) / requested);
      return { ratio: utilization / target.utilization, utilization, raw: Math.trunc(used / m.size) };
    }
    let total = 0;
    for (const v of m.values()) total += v;
    const raw = Math.trunc(total / m.size);
    return { ratio: raw / target.averageMilli, utilization: undefined, raw };
  };
  const first = ratioOf(metrics);
  if ('error' in first) return { error: first.error as string };
  const usageRatio = first.ratio;
  const base = { ...(first.utilization !== undefined ? { utilization: first.utilization } : {}), rawAverage: first.raw };
  const scaleUpWithUnready = g.unready.size > 0 && usageRatio > 1.0;
  if (!scaleUpWithUnready && g.missing.size === 0) {
    if (within(usageRatio)) return { replicas: currentReplicas, ...base };
    return { replicas: Math.ceil(usageRatio * g.readyPodCount), ...base };
  }
  if (g.missing.size > 0) {
    for (const name of g.missing) {
      if (usageRatio < 1.0) {
        // A scale-down counts a missing pod at 100% of its request (or at the target when above 100%).
        metrics.set(name, 'utilization' in target ? Math.trunc((requests.get(name) ?? 0) * Math.max(100, target.utilization) / 100) : target.averageMilli);
      } else if (usageRatio > 1.0) metrics.set(name, 0);
    }
  }
  if (scaleUpWithUnready) for (const name of g.unready) metrics.set(name, 0);
  const second = ratioOf(metrics);
  if ('error' in second) return { error: second.error as string };
  const n = second.ratio;
  if (within(n) || (usageRatio < 1.0 && n > 1.0) || (usageRatio > 1.0 && n < 1.0)) return { replicas: currentReplicas, ...base };
  const proposed = Math.ceil(n * metrics.size);
  if ((n < 1.0 && proposed > currentReplicas) || (n > 1.0 && proposed < currentReplicas)) return { replicas: currentReplicas, ...base };
  return { replicas: proposed, ...base };
}

/**
 * usageRatioReplicas is getUsageRatioReplicaCount (an Object or External metric's Value target): the current count
 * within the tolerance, else ceil(ratio × the Running and Ready pods). See replica_calculator.go (v1.36.3).
 */
export function usageRatioReplicas(currentReplicas: number, usageRatio: number, pods: readonly CalcPod[], tolerances: Tolerances = DEFAULT_TOLERANCES): { replicas: number } | { error: string } {
  if (currentReplicas === 0) return { replicas: Math.ceil(usageRatio) };
  if (isWithin(tolerances, usageRatio)) return { replicas: currentReplicas };
  // getReadyPodsCount: the selector's pods, Running with Ready True.
  if (pods.length === 0) return { error: 'unable to calculate ready pods: no pods returned by selector while calculating replica count' };
  const ready = pods.filter((p) => p.phase === 'Running' && p.ready?.status === 'True').length;
  return { replicas: Math.min(Math.ceil(usageRatio * ready), 2 ** 31 - 1) };
}

/**
 * perPodReplicas is GetObjectPerPodMetricReplicas and GetExternalPerPodMetricReplicas (an AverageValue target): the
 * total over the target's status.replicas against the per-pod target; the usage reported is the total per replica.
 */
export function perPodReplicas(statusReplicas: number, usageMilli: number, targetAverageMilli: number, tolerances: Tolerances = DEFAULT_TOLERANCES): { replicas: number; usage: number | bigint } {
  let replicas = statusReplicas;
  if (!isWithin(tolerances, usageMilli / (targetAverageMilli * statusReplicas))) replicas = Math.min(Math.ceil(usageMilli / targetAverageMilli), 2 ** 31 - 1);
  // With status.replicas 0 the Go division gives +Inf or NaN, which int64() turns into math.MinInt64 on amd64.
  const perPod = usageMilli / statusReplicas;
  return { replicas, usage: Number.isFinite(perPod) ? Math.ceil(perPod) : GO_INT64_OF_INF };
}

/** GO_INT64_OF_INF is what int64(x) gives for an infinite or NaN x on amd64: math.MinInt64, a bigint to stay exact. */
const GO_INT64_OF_INF = -(2n ** 63n);

/** ScalingPolicy is one entry of spec.behavior.scaleUp/scaleDown.policies. */
export interface ScalingPolicy {
  type: 'Pods' | 'Percent';
  value: number;
  periodSeconds: number;
}

/** ScalingRules is spec.behavior.scaleUp or scaleDown, defaulted. */
export interface ScalingRules {
  stabilizationWindowSeconds: number;
  selectPolicy: 'Max' | 'Min' | 'Disabled';
  policies: ScalingPolicy[];
}

/**
 * defaultRules is SetDefaults_HorizontalPodAutoscalerBehavior (pkg/apis/autoscaling/v2/defaults.go, v1.36.3): scale up
 * with no window, the larger of 100% and 4 pods per 15 s; scale down 100% per 15 s, the window the controller's
 * --horizontal-pod-autoscaler-downscale-stabilization (300 s) when unset (maybeInitScaleDownStabilizationWindow).
 */
export function defaultRules(direction: 'up' | 'down', given: Partial<ScalingRules> | undefined): ScalingRules {
  const policies: ScalingPolicy[] = direction === 'up'
    ? [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }]
    : [{ type: 'Percent', value: 100, periodSeconds: 15 }];
  return {
    stabilizationWindowSeconds: typeof given?.stabilizationWindowSeconds === 'number' && given.stabilizationWindowSeconds >= 0
      ? given.stabilizationWindowSeconds : (direction === 'up' ? 0 : DOWNSCALE_STABILIZATION_SECONDS),
    selectPolicy: given?.selectPolicy === 'Min' || given?.selectPolicy === 'Disabled' ? given.selectPolicy : 'Max',
    // The API server does not check the policies here: one without a known type or positive numbers is left out.
    policies: wellFormed(given?.policies).length > 0 ? wellFormed(given?.policies) : policies,
  };
}

function wellFormed(policies: readonly ScalingPolicy[] | undefined): ScalingPolicy[] {
  return (Array.isArray(policies) ? policies : []).filter((p) => (p?.type === 'Pods' || p?.type === 'Percent')
    && Number.isInteger(p.value) && p.value > 0 && Number.isInteger(p.periodSeconds) && p.periodSeconds > 0);
}

/** Recommendation and ScaleEvent are the controller's memory of one HPA, kept across syncs (in ms of virtual time). */
export interface Recommendation { replicas: number; at: number }
export interface ScaleEvent { change: number; at: number; outdated: boolean }

/** HpaMemory is one HPA's recommendations and scale events. */
export interface HpaMemory {
  recommendations: Recommendation[];
  up: ScaleEvent[];
  down: ScaleEvent[];
}

/** Verdict is a decision with the condition reason and message it sets. */
export interface Verdict { replicas: number; reason: string; message: string }

/** stabilize is stabilizeRecommendationWithBehaviors; it records the recommendation. */
export function stabilize(mem: HpaMemory, now: number, current: number, desired: number, up: ScalingRules, down: ScalingRules): Verdict {
  const upCutoff = now - up.stabilizationWindowSeconds * 1000;
  const downCutoff = now - down.stabilizationWindowSeconds * 1000;
  let upRec = desired;
  let downRec = desired;
  let old = -1;
  mem.recommendations.forEach((r, i) => {
    if (r.at > upCutoff) upRec = Math.min(r.replicas, upRec);
    if (r.at > downCutoff) downRec = Math.max(r.replicas, downRec);
    if (r.at < upCutoff && r.at < downCutoff) old = i;
  });
  let replicas = Math.max(current, upRec);
  replicas = Math.min(replicas, downRec);
  const rec = { replicas: desired, at: now };
  if (old >= 0) mem.recommendations[old] = rec;
  else mem.recommendations.push(rec);
  return desired >= current
    ? { replicas, reason: 'ScaleUpStabilized', message: 'recent recommendations were lower than current one, applying the lowest recent recommendation' }
    : { replicas, reason: 'ScaleDownStabilized', message: 'recent recommendations were higher than current one, applying the highest recent recommendation' };
}

const changeIn = (events: readonly ScaleEvent[], periodSeconds: number, now: number) =>
  events.reduce((sum, e) => (e.at > now - periodSeconds * 1000 ? sum + e.change : sum), 0);

function limit(current: number, mem: HpaMemory, rules: ScalingRules, now: number, direction: 'up' | 'down'): number {
  if (rules.selectPolicy === 'Disabled') return current;
  // Up: Max takes the largest proposal, Min the smallest; down the other way round.
  const pickLarger = (rules.selectPolicy === 'Max') === (direction === 'up');
  let result = pickLarger ? -Infinity : Infinity;
  for (const p of rules.policies) {
    const added = changeIn(mem.up, p.periodSeconds, now);
    const deleted = changeIn(mem.down, p.periodSeconds, now);
    const start = current - added + deleted;
    const proposed = direction === 'up'
      ? (p.type === 'Pods' ? start + p.value : Math.ceil(start * (1 + p.value / 100)))
      : (p.type === 'Pods' ? start - p.value : Math.trunc(start * (1 - p.value / 100)));
    result = pickLarger ? Math.max(result, proposed) : Math.min(result, proposed);
  }
  return result;
}

/** rateLimit is convertDesiredReplicasWithBehaviorRate: the policies' limit, then min/max replicas. */
export function rateLimit(mem: HpaMemory, now: number, current: number, desired: number, min: number, max: number, up: ScalingRules, down: ScalingRules): Verdict {
  if (desired > current) {
    const upLimit = Math.max(limit(current, mem, up, now, 'up'), current);
    const allowed = max > upLimit
      ? { replicas: upLimit, reason: 'ScaleUpLimit', message: 'the desired replica count is increasing faster than the maximum scale rate' }
      : { replicas: max, reason: 'TooManyReplicas', message: 'the desired replica count is more than the maximum replica count' };
    if (desired > allowed.replicas) return allowed;
  } else if (desired < current) {
    const downLimit = Math.min(limit(current, mem, down, now, 'down'), current);
    const allowed = min < downLimit
      ? { replicas: downLimit, reason: 'ScaleDownLimit', message: 'the desired replica count is decreasing faster than the maximum scale rate' }
      : { replicas: min, reason: 'TooFewReplicas', message: 'the desired replica count is less than the minimum replica count' };
    if (desired < allowed.replicas) return allowed;
  }
  return { replicas: desired, reason: 'DesiredWithinRange', message: 'the desired count is within the acceptable range' };
}

/** storeScaleEvent records a rescale, reusing a slot older than the longest policy period (storeScaleEvent). */
export function storeScaleEvent(mem: HpaMemory, now: number, prev: number, next: number, up: ScalingRules, down: ScalingRules): void {
  const rising = next > prev;
  const events = rising ? mem.up : mem.down;
  const longest = Math.max(0, ...(rising ? up : down).policies.map((p) => p.periodSeconds));
  let old = -1;
  events.forEach((e, i) => {
    if (e.at < now - longest * 1000) e.outdated = true;
    if (e.outdated) old = i;
  });
  const ev = { change: Math.abs(next - prev), at: now, outdated: false };
  if (old >= 0) events[old] = ev;
  else events.push(ev);
}
