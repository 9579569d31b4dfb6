// The Job's podFailurePolicy: a failed pod matched against the rules in order (FailJob, FailIndex, Ignore, Count), and
// which pods count as failed and may be replaced. See pkg/controller/job/pod_failure_policy.go and job_controller.go
// (isPodFailed, onlyReplaceFailedPods, getFailJobMessage).
import type { Pod } from '../api/types';
import type { Job } from './job-types';

/** PodFailurePolicyRule is one rule of spec.podFailurePolicy (batch/v1 PodFailurePolicyRule). */
export interface PodFailurePolicyRule {
  action: 'FailJob' | 'FailIndex' | 'Ignore' | 'Count' | string;
  onExitCodes?: { containerName?: string; operator: 'In' | 'NotIn' | string; values: number[] } | null;
  onPodConditions?: { type: string; status: string }[] | null;
}

/** PodFailurePolicy is spec.podFailurePolicy. */
export interface PodFailurePolicy {
  rules?: PodFailurePolicyRule[];
}

/**
 * PodFailurePolicyMatch is what matchPodFailurePolicy returns: the Job's failure message when a FailJob rule matched,
 * whether the failure counts against backoffLimit (not when an Ignore rule matched), and the matched action.
 */
export interface PodFailurePolicyMatch {
  failJobMessage?: string;
  countFailed: boolean;
  action?: string;
  /** ruleIndex is the index of the matched rule, for the trace. */
  ruleIndex?: number;
}

type ContainerStatus = NonNullable<NonNullable<Pod['status']>['containerStatuses']>[number];

/**
 * matchPodFailurePolicy is matchPodFailurePolicy of pod_failure_policy.go: the first rule that matches decides.
 * onExitCodes looks at the containers, then the init containers, for a terminated one with a non-zero exit code
 * (of containerName if set) that is In / NotIn the values; onPodConditions looks for a pod condition of that type and
 * status. Messages (pod_failure_policy.go):
 * "Container %s for pod %s/%s failed with exit code %v matching %v rule at index %d" and
 * "Pod %s/%s has condition %v matching %v rule at index %d".
 */
export function matchPodFailurePolicy(policy: PodFailurePolicy | undefined | null, pod: Pod): PodFailurePolicyMatch {
  if (!policy) return { countFailed: true };
  const ns = pod.metadata?.namespace ?? '';
  const name = pod.metadata?.name ?? '';
  const rules = policy.rules ?? [];
  for (let index = 0; index < rules.length; index++) {
    const rule = rules[index]!;
    if (rule.onExitCodes) {
      const status = matchOnExitCodes(pod, rule.onExitCodes);
      if (status) {
        const code = status.state?.terminated?.exitCode;
        return decide(rule.action, index, `Container ${status.name} for pod ${ns}/${name} failed with exit code ${code} matching ${rule.action} rule at index ${index}`);
      }
    } else if (rule.onPodConditions) {
      const patterns = rule.onPodConditions;
      const condition = (pod.status?.conditions ?? []).find((c) => patterns.some((p) => p.type === c.type && p.status === c.status));
      if (condition) return decide(rule.action, index, `Pod ${ns}/${name} has condition ${condition.type} matching ${rule.action} rule at index ${index}`);
    }
  }
  return { countFailed: true };
}

/** decide turns a matched rule's action into the match: Ignore does not count; FailJob carries the message. */
function decide(action: string, ruleIndex: number, message: string): PodFailurePolicyMatch {
  switch (action) {
    case 'Ignore': return { countFailed: false, action, ruleIndex };
    case 'Count': return { countFailed: true, action, ruleIndex };
    case 'FailJob': return { failJobMessage: message, countFailed: true, action, ruleIndex };
    // FailIndex: the switch of matchPodFailurePolicy has no case for it and returns it as the action
    // (job_controller.go / indexed_job_utils.go isIndexFailed act on it).
    default: return { countFailed: true, action, ruleIndex };
  }
}

/** matchOnExitCodes is matchOnExitCodes: the containers first, then the init containers. */
function matchOnExitCodes(pod: Pod, req: NonNullable<PodFailurePolicyRule['onExitCodes']>): ContainerStatus | undefined {
  return matchingContainer(pod.status?.containerStatuses ?? [], req) ?? matchingContainer(pod.status?.initContainerStatuses ?? [], req);
}

/** matchingContainer is getMatchingContainerFromList: a terminated container with a non-zero exit code that matches. */
function matchingContainer(statuses: readonly ContainerStatus[], req: NonNullable<PodFailurePolicyRule['onExitCodes']>): ContainerStatus | undefined {
  return statuses.find((s) => {
    const code = s.state?.terminated?.exitCode;
    if (code === undefined || code === null || code === 0) return false;
    if (req.containerName && req.containerName !== s.name) return false;
    if (req.operator === 'In') return req.values.includes(code);
    if (req.operator === 'NotIn') return !req.values.includes(code);
    return false;
  });
}

/**
 * onlyReplaceFailedPods: podReplacementPolicy Failed, or any podFailurePolicy (job_controller.go onlyReplaceFailedPods):
 * a replacement pod only once the old one is terminal, and a terminating pod is not yet counted as failed.
 */
export function onlyReplaceFailedPods(job: Job): boolean {
  return job.spec?.podReplacementPolicy === 'Failed' || !!job.spec?.podFailurePolicy;
}

/**
 * isPodFailed is job_controller.go isPodFailed: phase Failed; or, unless only failed pods are replaced, deleted and not
 * Succeeded ("Count deleted Pods as failures to account for orphan Pods that never have a chance to reach the Failed
 * phase").
 */
export function isPodFailed(pod: Pod, job: Job): boolean {
  if (pod.status?.phase === 'Failed') return true;
  if (onlyReplaceFailedPods(job)) return false;
  return !!pod.metadata?.deletionTimestamp && pod.status?.phase !== 'Succeeded';
}

/** failJobMessage is getFailJobMessage: the message of the first failed pod that matches a FailJob rule. */
export function failJobMessage(job: Job, pods: readonly Pod[]): string | undefined {
  const policy = job.spec?.podFailurePolicy;
  if (!policy) return undefined;
  for (const pod of pods) {
    if (!isPodFailed(pod, job)) continue;
    const m = matchPodFailurePolicy(policy, pod);
    if (m.failJobMessage) return m.failJobMessage;
  }
  return undefined;
}
