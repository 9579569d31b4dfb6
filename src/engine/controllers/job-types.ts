// The Job's shape as the Job controller reads and writes it (batch/v1 Job: spec and status).
import type { KubeObject, Pod } from '../api/types';
import type { PodFailurePolicy } from './job-failure-policy';

/** JobCondition is one of status.conditions (batch/v1 JobCondition). */
export interface JobCondition {
  type: string;
  status: string;
  lastProbeTime: string;
  lastTransitionTime: string;
  reason: string;
  message: string;
}

/** JobStatus is the Job's status as the controller writes it. */
export interface JobStatus {
  active?: number;
  ready?: number;
  terminating?: number;
  succeeded?: number;
  failed?: number;
  completedIndexes?: string;
  failedIndexes?: string;
  startTime?: string;
  completionTime?: string;
  uncountedTerminatedPods?: Record<string, never>;
  conditions?: JobCondition[];
}

/** SuccessPolicyRule is one rule of spec.successPolicy (batch/v1 SuccessPolicyRule). */
export interface SuccessPolicyRule {
  succeededIndexes?: string;
  succeededCount?: number;
}

/** JobSpec is the part of the Job's spec the controller reads. */
export interface JobSpec {
  parallelism?: number;
  completions?: number | null;
  completionMode?: string;
  backoffLimit?: number;
  backoffLimitPerIndex?: number | null;
  maxFailedIndexes?: number | null;
  activeDeadlineSeconds?: number;
  ttlSecondsAfterFinished?: number;
  suspend?: boolean;
  podFailurePolicy?: PodFailurePolicy | null;
  podReplacementPolicy?: string;
  successPolicy?: { rules?: SuccessPolicyRule[] } | null;
  template?: { metadata?: Pod['metadata']; spec?: Pod['spec'] };
}

/** Job is a batch/v1 Job. */
export type Job = KubeObject & { spec?: JobSpec; status?: JobStatus };
