// The Deployment's status after a sync, and its Progressing condition as the progress deadline sees it.
// See pkg/controller/deployment/progress.go and sync.go (syncDeploymentStatus) (v1.36.3).
import type { ReplicaSet } from '../api/types';
import { goQuote } from '../apiserver/decode-go';
import type { Steps } from '../runtime/step';
import { deploymentTimedOut, RESUMED_DEPLOY_REASON } from './deployment-pause';
import { fresh, writeStatus, type Rollout } from './deployment-rollout';
import {
  calculateStatus, deploymentComplete, deploymentProgressing, newCondition, NEW_RS_AVAILABLE_REASON, RS_UPDATED_REASON, setCondition,
  TIMED_OUT_REASON, type DeploymentCondition, type DeploymentStatus,
} from './deployment-util';
import { timeOf } from './pods';

/** syncStatusOnly is syncDeploymentStatus: the status from the ReplicaSets, when it changed. */
export function* syncStatusOnly(r: Rollout, newRS: ReplicaSet | undefined, oldRSs: ReplicaSet[]): Steps<void> {
  const all = [...oldRSs.map((s) => fresh(r, s)), ...(newRS ? [fresh(r, newRS)] : [])];
  yield* writeStatus(r, calculateStatus(r.d, all, newRS && fresh(r, newRS), r.ctx.clock.timestamp()));
}

/**
 * syncRolloutStatus is progress.go's syncRolloutStatus: the status, and the Progressing condition — ReplicaSetUpdated
 * `ReplicaSet "<rs>" is progressing.` while it progresses, NewReplicaSetAvailable `ReplicaSet "<rs>" has successfully
 * progressed.` once complete.
 */
export function* syncRolloutStatus(r: Rollout, newRS: ReplicaSet | undefined, oldRSs: ReplicaSet[]): Steps<void> {
  const all = [...oldRSs.map((s) => fresh(r, s)), ...(newRS ? [fresh(r, newRS)] : [])];
  const now = r.ctx.clock.timestamp();
  const status = calculateStatus(r.d, all, newRS, now);
  const current = ((r.d.status ?? {}) as DeploymentStatus).conditions?.find((c) => c.type === 'Progressing');
  const complete = status.replicas === status.updatedReplicas && current?.reason === NEW_RS_AVAILABLE_REASON;
  let conditions: DeploymentCondition[] = status.conditions ?? [];
  if (!complete && r.d.spec?.progressDeadlineSeconds !== undefined) {
    // progress.go: each message names the new ReplicaSet, or the Deployment when there is none (%q of the name).
    const subject = newRS ? `ReplicaSet ${goQuote(newRS.metadata?.name ?? '')}` : `Deployment ${goQuote(r.d.metadata?.name ?? '')}`;
    if (deploymentComplete(r.d, status)) {
      conditions = setCondition(conditions, newCondition('Progressing', 'True', NEW_RS_AVAILABLE_REASON, `${subject} has successfully progressed.`, now));
    } else if (deploymentProgressing(r.d, status)) {
      let c = newCondition('Progressing', 'True', RS_UPDATED_REASON, `${subject} is progressing.`, now);
      if (current?.status === 'True') c = { ...c, lastTransitionTime: current.lastTransitionTime };
      // progress.go removes the condition first, so lastUpdateTime moves with every bit of progress.
      conditions = [...conditions.filter((x) => x.type !== 'Progressing'), c];
    } else if (deploymentTimedOut(r.d, conditions, r.ctx.clock)) {
      // progress.go: DeploymentTimedOut, then Progressing False ProgressDeadlineExceeded.
      conditions = setCondition(conditions, newCondition('Progressing', 'False', TIMED_OUT_REASON, `${subject} has timed out progressing.`, now));
    }
    // requeueStuckDeployment: sync again once the deadline from the condition's lastUpdateTime has passed.
    const progressing = conditions.find((c) => c.type === 'Progressing');
    // A resumed Deployment's Unknown DeploymentResumed counts too: the deadline runs anew from the resume.
    const counting = progressing?.status === 'True' || progressing?.reason === RESUMED_DEPLOY_REASON;
    if (counting && progressing?.reason !== NEW_RS_AVAILABLE_REASON && !deploymentComplete(r.d, status)) {
      const after = (timeOf(r.ctx.clock, progressing.lastUpdateTime) ?? r.ctx.clock.now) + (r.d.spec?.progressDeadlineSeconds ?? 600) * 1000 - r.ctx.clock.now;
      r.requeueAfter = Math.max(after, 0) + 1000;
    }
  }
  yield* writeStatus(r, { ...status, ...(conditions.length ? { conditions } : {}) });
}
