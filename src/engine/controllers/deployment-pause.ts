// The progress deadline and a paused Deployment: the Progressing condition Unknown while paused (so the deadline is
// not counted), and Unknown again on resume, from which it counts anew. While paused the controller only scales
// (sync.go sync): it makes no new ReplicaSet for a changed template.
// See pkg/controller/deployment/sync.go (checkPausedConditions, sync), deployment_controller.go (syncDeployment) and
// util/deployment_util.go (HasProgressDeadline, DeploymentTimedOut).
import type { Deployment } from '../api/types';
import type { VirtualClock } from '../runtime/clock';
import { type DeploymentCondition, type DeploymentStatus, NEW_RS_AVAILABLE_REASON, newCondition, setCondition, TIMED_OUT_REASON } from './deployment-util';
import { timeOf } from './pods';

/** PAUSED_DEPLOY_REASON is PausedDeployReason (deployment_util.go): lack of progress is not estimated while paused. */
export const PAUSED_DEPLOY_REASON = 'DeploymentPaused';
/** RESUMED_DEPLOY_REASON is ResumedDeployReason (deployment_util.go). */
export const RESUMED_DEPLOY_REASON = 'DeploymentResumed';
/** PAUSED_MESSAGE and RESUMED_MESSAGE are checkPausedConditions' messages (sync.go). */
export const PAUSED_MESSAGE = 'Deployment is paused';
export const RESUMED_MESSAGE = 'Deployment is resumed';

/** hasProgressDeadline is HasProgressDeadline: progressDeadlineSeconds set and not math.MaxInt32. */
export function hasProgressDeadline(d: Deployment): boolean {
  const s = d.spec?.progressDeadlineSeconds;
  return s !== undefined && s !== null && s !== 2147483647;
}

/**
 * pausedConditions is checkPausedConditions: the conditions to write with UpdateStatus, or undefined when nothing
 * changes. Nothing without a progress deadline, nothing over ProgressDeadlineExceeded; paused without the
 * DeploymentPaused condition gives Progressing Unknown DeploymentPaused "Deployment is paused"; resumed with it gives
 * Progressing Unknown DeploymentResumed "Deployment is resumed".
 */
export function pausedConditions(d: Deployment, now: string): DeploymentCondition[] | undefined {
  if (!hasProgressDeadline(d)) return undefined;
  const conditions = [...(((d.status ?? {}) as DeploymentStatus).conditions ?? [])];
  const cond = conditions.find((c) => c.type === 'Progressing');
  if (cond?.reason === TIMED_OUT_REASON) return undefined;
  const pausedCondExists = cond?.reason === PAUSED_DEPLOY_REASON;
  if (d.spec?.paused && !pausedCondExists) return setCondition(conditions, newCondition('Progressing', 'Unknown', PAUSED_DEPLOY_REASON, PAUSED_MESSAGE, now));
  if (!d.spec?.paused && pausedCondExists) return setCondition(conditions, newCondition('Progressing', 'Unknown', RESUMED_DEPLOY_REASON, RESUMED_MESSAGE, now));
  return undefined;
}

/** PAUSED_NO_ROLLOUT is the trace's line for a paused sync that finds no ReplicaSet of the current template. */
export const PAUSED_NO_ROLLOUT = 'spec.paused is true: no ReplicaSet has the current template and none is made while paused; the controller only scales and writes the status';

/** deploymentTimedOut is DeploymentTimedOut: the Progressing condition's lastUpdateTime plus progressDeadlineSeconds is before now. */
export function deploymentTimedOut(d: Deployment, conditions: readonly DeploymentCondition[], clock: VirtualClock): boolean {
  const c = conditions.find((x) => x.type === 'Progressing');
  if (!hasProgressDeadline(d) || !c || c.reason === NEW_RS_AVAILABLE_REASON) return false;
  if (c.reason === TIMED_OUT_REASON) return true;
  const from = timeOf(clock, c.lastUpdateTime);
  return from !== undefined && from + (d.spec?.progressDeadlineSeconds ?? 600) * 1000 < clock.now;
}
