// HorizontalPodAutoscalers (autoscaling/v2): their scheme defaulting. See pkg/apis/autoscaling/v2/defaults.go
// (SetDefaults_HorizontalPodAutoscaler, SetDefaults_HorizontalPodAutoscalerBehavior, GenerateHPAScaleUpRules,
// GenerateHPAScaleDownRules, copyHPAScalingRules) and pkg/apis/autoscaling (DefaultCPUUtilization), kubernetes v1.36.3.
import type { Defaulted } from './defaults';
import { deepClone, type KubeObject } from './types';

/** DEFAULT_CPU_UTILIZATION is autoscaling.DefaultCPUUtilization: the metric of an autoscaler that names none. */
export const DEFAULT_CPU_UTILIZATION = 80;

interface ScalingRules {
  stabilizationWindowSeconds?: number;
  selectPolicy?: string;
  policies?: { type: string; value: number; periodSeconds: number }[];
  tolerance?: unknown;
}

/** defaultScaleUp is defaultHPAScaleUpRules: no window, the larger of 4 pods or 100% every 15 s. */
const defaultScaleUp = (): ScalingRules => ({
  stabilizationWindowSeconds: 0, selectPolicy: 'Max',
  policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }],
});

/** defaultScaleDown is defaultHPAScaleDownRules: the window left to the controller's flag, 100% every 15 s. */
const defaultScaleDown = (): ScalingRules => ({ selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] });

/** copyRules is copyHPAScalingRules: every field the user set replaces the default's. */
function copyRules(from: ScalingRules | undefined | null, to: ScalingRules): ScalingRules {
  if (!from) return to;
  const out: ScalingRules = {};
  const window = from.stabilizationWindowSeconds ?? to.stabilizationWindowSeconds;
  if (window !== undefined && window !== null) out.stabilizationWindowSeconds = window;
  out.selectPolicy = from.selectPolicy ?? to.selectPolicy!;
  out.policies = from.policies ?? to.policies!;
  if (from.tolerance !== undefined && from.tolerance !== null) out.tolerance = from.tolerance;
  return out;
}

/**
 * defaultHorizontalPodAutoscaler applies SetDefaults_HorizontalPodAutoscaler: minReplicas 1, a CPU utilization metric
 * of 80% when none is given, and, when a behavior is given, each of its scaling rules completed from the defaults.
 */
export function defaultHorizontalPodAutoscaler(hpa: KubeObject): Defaulted<KubeObject> {
  const object = deepClone(hpa) as KubeObject & { spec?: { minReplicas?: number; metrics?: unknown[]; behavior?: { scaleUp?: ScalingRules; scaleDown?: ScalingRules } | null } };
  const changes: string[] = [];
  const spec = (object.spec ??= {});
  if (spec.minReplicas === undefined || spec.minReplicas === null) {
    spec.minReplicas = 1;
    changes.push('spec.minReplicas');
  }
  if (!spec.metrics || spec.metrics.length === 0) {
    spec.metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: DEFAULT_CPU_UTILIZATION } } }];
    changes.push('spec.metrics');
  }
  if (spec.behavior) {
    spec.behavior = { scaleUp: copyRules(spec.behavior.scaleUp, defaultScaleUp()), scaleDown: copyRules(spec.behavior.scaleDown, defaultScaleDown()) };
    changes.push('spec.behavior');
  }
  return { object, changes };
}
