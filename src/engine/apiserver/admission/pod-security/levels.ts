// Pod Security levels and policy versions, and the namespace labels that choose them, with the real parsing and errors.
// See staging/src/k8s.io/pod-security-admission/api/constants.go and api/helpers.go.
import { type FieldError, invalidValue } from '../../validation/field-errors';

/** Level is a Pod Security Standards level (api.Level). */
export type Level = 'privileged' | 'baseline' | 'restricted';

/** VALID_LEVELS are the levels in the order their error message lists them (validLevels). */
export const VALID_LEVELS: readonly Level[] = ['privileged', 'baseline', 'restricted'];

/** Version is a policy version: `latest`, or `v1.N` (api.Version). */
export interface Version {
  readonly major: number;
  readonly minor: number;
  readonly latest: boolean;
}

/** LevelVersion pairs a level with the policy version it is evaluated at (api.LevelVersion). */
export interface LevelVersion {
  readonly level: Level;
  readonly version: Version;
}

/** Policy is the level and version of each mode of a namespace (api.Policy). */
export interface Policy {
  readonly enforce: LevelVersion;
  readonly audit: LevelVersion;
  readonly warn: LevelVersion;
}

/** Mode is one of the three ways a policy applies. */
export type Mode = keyof Policy;

/** MODES are the modes in the order PolicyToEvaluate reads their labels. */
export const MODES: readonly Mode[] = ['enforce', 'audit', 'warn'];

const LABEL_PREFIX = 'pod-security.kubernetes.io/';

/** LEVEL_LABELS are the namespace labels that set each mode's level (EnforceLevelLabel, AuditLevelLabel, WarnLevelLabel). */
export const LEVEL_LABELS: Readonly<Record<Mode, string>> = {
  enforce: `${LABEL_PREFIX}enforce`, audit: `${LABEL_PREFIX}audit`, warn: `${LABEL_PREFIX}warn`,
};
/** VERSION_LABELS are the namespace labels that set each mode's policy version (EnforceVersionLabel, ...). */
export const VERSION_LABELS: Readonly<Record<Mode, string>> = {
  enforce: `${LABEL_PREFIX}enforce-version`, audit: `${LABEL_PREFIX}audit-version`, warn: `${LABEL_PREFIX}warn-version`,
};

/** AUDIT_ANNOTATION_PREFIX prefixes the plugin's audit annotations (api.AuditAnnotationPrefix). */
export const AUDIT_ANNOTATION_PREFIX = LABEL_PREFIX;

/** LATEST is the `latest` version, newer than every numbered one (api.LatestVersion). */
export const LATEST: Version = { major: 0, minor: 0, latest: true };

/** majorMinor builds `v<major>.<minor>` (api.MajorMinorVersion). */
export function majorMinor(major: number, minor: number): Version {
  return { major, minor, latest: false };
}

/** versionString prints a version as the labels and messages do: `latest` or `v1.35`. */
export function versionString(v: Version): string {
  return v.latest ? 'latest' : `v${v.major}.${v.minor}`;
}

/** levelVersionString prints `restricted:latest`, as LevelVersion.String does. */
export function levelVersionString(lv: LevelVersion): string {
  return `${lv.level}:${versionString(lv.version)}`;
}

/** older tells whether a is older than b; `latest` is newer than everything, even future versions (Version.Older). */
export function older(a: Version, b: Version): boolean {
  if (a.latest) return false;
  if (b.latest) return true;
  return a.major !== b.major ? a.major < b.major : a.minor < b.minor;
}

/** sameVersion compares two versions as Go compares the Version struct. */
export function sameVersion(a: Version, b: Version): boolean {
  return a.latest === b.latest && a.major === b.major && a.minor === b.minor;
}

/** sameLevelVersion compares two level-versions as Go's == on LevelVersion. */
export function sameLevelVersion(a: LevelVersion, b: LevelVersion): boolean {
  return a.level === b.level && sameVersion(a.version, b.version);
}

/** ParseResult is a parsed value, and the error message when the input was not valid. */
export interface ParseResult<T> {
  value: T;
  error?: string;
}

/** parseLevel reads a level; anything else is `restricted` with an error (api.ParseLevel). */
export function parseLevel(level: string): ParseResult<Level> {
  if ((VALID_LEVELS as readonly string[]).includes(level)) return { value: level as Level };
  return { value: 'restricted', error: `must be one of ${VALID_LEVELS.join(', ')}` };
}

const VERSION_RE = /^v1\.([0-9]|[1-9][0-9]*)$/;

/** parseVersion reads `latest` or `v1.x`; anything else is latest with an error (api.ParseVersion). */
export function parseVersion(version: string): ParseResult<Version> {
  if (version === 'latest') return { value: LATEST };
  const match = VERSION_RE.exec(version);
  const minor = match ? Number(match[1]) : NaN;
  if (!Number.isSafeInteger(minor)) return { value: LATEST, error: 'must be "latest" or "v1.x"' };
  return { value: majorMinor(1, minor) };
}

/** compareLevels orders levels by strictness: -1 when a is less strict than b (api.CompareLevels). */
export function compareLevels(a: Level, b: Level): number {
  if (a === b) return 0;
  if (a === 'privileged') return -1;
  if (a === 'restricted') return 1;
  return b === 'privileged' ? 1 : -1;
}

/** fullyPrivileged tells whether all three modes are privileged (Policy.FullyPrivileged). */
export function fullyPrivileged(p: Policy): boolean {
  return p.enforce.level === 'privileged' && p.audit.level === 'privileged' && p.warn.level === 'privileged';
}

/** equivalentLevelVersion: both privileged, or the same level and version (LevelVersion.Equivalent). */
function equivalentLevelVersion(a: LevelVersion, b: LevelVersion): boolean {
  return (a.level === 'privileged' && b.level === 'privileged') || sameLevelVersion(a, b);
}

/** equivalentPolicy tells whether two policies act the same in every mode (Policy.Equivalent). */
export function equivalentPolicy(a: Policy, b: Policy): boolean {
  return MODES.every((m) => equivalentLevelVersion(a[m], b[m]));
}

/** LABELS_PATH is the field path label errors are reported under. */
const LABELS_PATH = 'metadata.labels';

/** labelPath is `metadata.labels[pod-security.kubernetes.io/enforce]`, as field.Path.Key prints it (no quotes). */
function labelPath(label: string): string {
  return `${LABELS_PATH}[${label}]`;
}

/** PolicyEvaluation is the policy of a namespace and the field errors of its labels. */
export interface PolicyEvaluation {
  policy: Policy;
  errors: FieldError[];
}

/**
 * policyToEvaluate resolves a namespace's labels to its policy over the defaults. A bad enforce level
 * becomes restricted (fail closed), a bad audit or warn level privileged (fail open), a bad version latest;
 * each bad label is one Invalid error. Without a warn label, a valid enforce label stricter than the warn level
 * sets warn to the enforce level (and version, without a warn-version label): a namespace that only enforces
 * restricted warns of a pod template that would break it (api.PolicyToEvaluate in
 * k8s.io/pod-security-admission api/helpers.go, v0.36.3).
 */
export function policyToEvaluate(labels: Readonly<Record<string, string>> | undefined, defaults: Policy): PolicyEvaluation {
  const errors: FieldError[] = [];
  if (!labels || Object.keys(labels).length === 0) return { policy: defaults, errors };
  const modes: Record<Mode, { level: Level; version: Version }> = {
    enforce: { ...defaults.enforce }, audit: { ...defaults.audit }, warn: { ...defaults.warn },
  };
  for (const mode of MODES) {
    const level = labels[LEVEL_LABELS[mode]];
    if (level !== undefined) {
      const parsed = parseLevel(level);
      modes[mode].level = parsed.value;
      if (parsed.error) {
        errors.push(invalidValue(labelPath(LEVEL_LABELS[mode]), level, parsed.error));
        // Why: audit and warn fail open, enforce fails closed (api/helpers.go PolicyToEvaluate).
        if (mode !== 'enforce') modes[mode].level = 'privileged';
      }
    }
    const version = labels[VERSION_LABELS[mode]];
    if (version !== undefined) {
      const parsed = parseVersion(version);
      modes[mode].version = parsed.value;
      if (parsed.error) errors.push(invalidValue(labelPath(VERSION_LABELS[mode]), version, parsed.error));
    }
  }
  // "Default warn to the enforce level when explicitly set to a more restrictive level." (api/helpers.go, v0.36.3)
  const enforceLevel = labels[LEVEL_LABELS.enforce];
  const hasEnforceLevel = enforceLevel !== undefined && !parseLevel(enforceLevel).error;
  if (labels[LEVEL_LABELS.warn] === undefined && hasEnforceLevel && compareLevels(modes.enforce.level, modes.warn.level) > 0) {
    modes.warn.level = modes.enforce.level;
    if (labels[VERSION_LABELS.warn] === undefined) modes.warn.version = modes.enforce.version;
  }
  return { policy: modes, errors };
}

/** fieldErrorString prints a field error as field.Error.Error does: `<field>: <body>`. */
export function fieldErrorString(e: FieldError): string {
  return `${e.field}: ${e.body}`;
}

/** aggregateString prints errors as utilerrors.NewAggregate does: one alone, several as `[a, b]`. */
export function aggregateString(messages: readonly string[]): string {
  return messages.length === 1 ? messages[0]! : `[${messages.join(', ')}]`;
}

/** podSecurityLabels picks the pod-security.kubernetes.io labels of a namespace, for the trace. */
export function podSecurityLabels(labels: Readonly<Record<string, string>> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(labels ?? {}).filter(([k]) => k.startsWith(LABEL_PREFIX)));
}
