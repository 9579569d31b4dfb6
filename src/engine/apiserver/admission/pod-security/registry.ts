// The check registry: which revision of which check runs for a level and version, in what order, and how results join.
// See staging/src/k8s.io/pod-security-admission/policy/registry.go and checks.go.
import type { ObjectMeta, PodSpec } from '../../../api/types';
import { BASELINE_HOST_CHECKS } from './checks-baseline-host';
import { BASELINE_PROFILE_CHECKS } from './checks-baseline-profiles';
import { RESTRICTED_CHECKS } from './checks-restricted';
import type { Check, CheckResult, VersionedCheck } from './checks';
import { type LevelVersion, type Version, older, versionString } from './levels';

/** byId orders check IDs bytewise, as registry.go sorts them "to maintain consistent error messages". */
const byId = (a: Check, b: Check): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** BASELINE_CHECKS and the restricted ones, each list sorted by ID: baseline checks run first, then restricted ones. */
export const BASELINE_CHECKS: readonly Check[] = [...BASELINE_HOST_CHECKS, ...BASELINE_PROFILE_CHECKS].sort(byId);
export const ORDERED_RESTRICTED_CHECKS: readonly Check[] = [...RESTRICTED_CHECKS].sort(byId);

/** MAX_VERSION is the newest minimum version of any check revision: what `latest` and newer versions evaluate as. */
export const MAX_VERSION: Version = [...BASELINE_CHECKS, ...ORDERED_RESTRICTED_CHECKS]
  .map((c) => c.versions[c.versions.length - 1]!.minimumVersion)
  .reduce((max, v) => (older(max, v) ? v : max));

/** revisionAt picks a check's revision in force at a version: the newest whose minimum is not newer. */
function revisionAt(check: Check, version: Version): VersionedCheck | undefined {
  return [...check.versions].reverse().find((v) => !older(version, v.minimumVersion));
}

/** ScheduledCheck is one check revision an evaluation runs. */
export interface ScheduledCheck {
  check: Check;
  revision: VersionedCheck;
}

/** PlannedEvaluation is the resolved version and the check revisions a level-version runs, in order. */
export interface PlannedEvaluation {
  /** version is the policy version evaluated: the asked one, clamped to MAX_VERSION. */
  version: Version;
  checks: ScheduledCheck[];
  /** overridden are baseline checks a restricted revision replaced. */
  overridden: string[];
}

/**
 * planEvaluation lists the checks of a level-version: none for privileged; the baseline checks for baseline; for
 * restricted, the baseline checks no restricted revision overrides, then the restricted ones (checkRegistry.populate).
 */
export function planEvaluation(lv: LevelVersion): PlannedEvaluation {
  // Why: privileged runs nothing and returns before the version is clamped (checkRegistry.EvaluatePod).
  if (lv.level === 'privileged') return { version: lv.version, checks: [], overridden: [] };
  const version = older(MAX_VERSION, lv.version) ? MAX_VERSION : lv.version;
  const at = (checks: readonly Check[]): ScheduledCheck[] => checks.flatMap((check) => {
    const revision = revisionAt(check, version);
    return revision ? [{ check, revision }] : [];
  });
  const baseline = at(BASELINE_CHECKS);
  if (lv.level === 'baseline') return { version, checks: baseline, overridden: [] };
  const restricted = at(ORDERED_RESTRICTED_CHECKS);
  const overrides = new Set(restricted.flatMap((s) => s.revision.overrideCheckIDs ?? []));
  return {
    version,
    checks: [...baseline.filter((s) => !overrides.has(s.check.id)), ...restricted],
    overridden: baseline.filter((s) => overrides.has(s.check.id)).map((s) => s.check.id),
  };
}

/** CheckOutcome is what one check revision said of a pod, for the aggregate and the trace. */
export interface CheckOutcome {
  id: string;
  level: 'baseline' | 'restricted';
  /** revision is the minimum version of the revision that ran (`v1.25`). */
  revision: string;
  source: string;
  result: CheckResult;
}

/** evaluatePod runs every check of a level-version on a pod (checkRegistry.EvaluatePod). */
export function evaluatePod(lv: LevelVersion, podMetadata: ObjectMeta, podSpec: PodSpec): { version: Version; outcomes: CheckOutcome[]; overridden: string[] } {
  const plan = planEvaluation(lv);
  const outcomes = plan.checks.map(({ check, revision }) => ({
    id: check.id, level: check.level, revision: versionString(revision.minimumVersion), source: check.source,
    result: revision.checkPod(podMetadata, podSpec),
  }));
  return { version: plan.version, outcomes, overridden: plan.overridden };
}

/** UNKNOWN_FORBIDDEN_REASON stands in for a check that forbids without saying why (policy.UnknownForbiddenReason). */
const UNKNOWN_FORBIDDEN_REASON = 'unknown forbidden reason';

/** AggregateCheckResult is the forbidden reasons and details of every failing check, in check order. */
export interface AggregateCheckResult {
  allowed: boolean;
  forbiddenReasons: string[];
  forbiddenDetails: string[];
}

/** aggregateCheckResults gathers the failing checks' reasons and details (policy.AggregateCheckResults). */
export function aggregateCheckResults(results: readonly CheckResult[]): AggregateCheckResult {
  const failed = results.filter((r) => !r.allowed);
  return {
    allowed: failed.length === 0,
    forbiddenReasons: failed.map((r) => r.forbiddenReason || UNKNOWN_FORBIDDEN_REASON),
    forbiddenDetails: failed.map((r) => r.forbiddenDetail ?? ''),
  };
}

/** forbiddenReason is the reasons comma-joined: `host ports, privileged` (AggregateCheckResult.ForbiddenReason). */
export function forbiddenReason(a: AggregateCheckResult): string {
  return a.forbiddenReasons.join(', ');
}

/**
 * forbiddenDetail is each reason followed by its detail in parentheses, comma-joined:
 * `host ports (8080, 9090), privileged (container "a" must not ...)` (AggregateCheckResult.ForbiddenDetail).
 */
export function forbiddenDetail(a: AggregateCheckResult): string {
  return a.forbiddenReasons.map((reason, i) => (a.forbiddenDetails[i] ? `${reason} (${a.forbiddenDetails[i]})` : reason)).join(', ');
}
