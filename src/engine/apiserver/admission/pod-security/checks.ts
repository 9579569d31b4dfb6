// The shape of a Pod Security check and the helpers every check shares: visiting containers, pluralizing, quoting.
// See staging/src/k8s.io/pod-security-admission/policy/checks.go, helpers.go and visitor.go.
import type { Container, ObjectMeta, PodSpec } from '../../../api/types';
import type { EphemeralContainer } from 'kubernetes-types/core/v1';
import type { Version } from './levels';

/** CheckResult says whether a check allowed the pod and, if not, why (policy.CheckResult). */
export interface CheckResult {
  allowed: boolean;
  /** forbiddenReason is short and always printed: `host ports`, `privileged`. */
  forbiddenReason?: string;
  /** forbiddenDetail names what was wrong, printed in parentheses after the reason. */
  forbiddenDetail?: string;
}

/** CheckPodFn checks a pod's metadata and spec (policy.CheckPodFn). */
export type CheckPodFn = (podMetadata: ObjectMeta, podSpec: PodSpec) => CheckResult;

/** VersionedCheck is one revision of a check, in force from its minimum policy version (policy.VersionedCheck). */
export interface VersionedCheck {
  minimumVersion: Version;
  checkPod: CheckPodFn;
  /** overrideCheckIDs are baseline checks this restricted revision replaces at the restricted level. */
  overrideCheckIDs?: readonly string[];
}

/** Check is one control of the Pod Security Standards, with its revisions in increasing version order (policy.Check). */
export interface Check {
  id: string;
  level: 'baseline' | 'restricted';
  /** source is the upstream file the check follows. */
  source: string;
  versions: readonly VersionedCheck[];
}

/** ALLOWED is the result of a check the pod passes. */
export const ALLOWED: CheckResult = { allowed: true };

/** forbid builds a failing result. */
export function forbid(forbiddenReason: string, forbiddenDetail: string): CheckResult {
  return { allowed: false, forbiddenReason, forbiddenDetail };
}

/** AnyContainer is a container, an init container or an ephemeral container, as the checks see them. */
export type AnyContainer = Container | EphemeralContainer;

/** visitContainers calls the visitor with every init container, then every container, then every ephemeral container. */
export function visitContainers(podSpec: PodSpec, visitor: (container: AnyContainer) => void): void {
  for (const c of podSpec.initContainers ?? []) visitor(c);
  for (const c of podSpec.containers ?? []) visitor(c);
  for (const c of podSpec.ephemeralContainers ?? []) visitor(c);
}

/** joinQuote quotes and comma-joins names: `"a", "b"` (helpers.go joinQuote). */
export function joinQuote(items: readonly string[]): string {
  return items.length === 0 ? '' : `"${items.join('", "')}"`;
}

/** pluralize picks the singular form for exactly one (helpers.go pluralize). */
export function pluralize(singular: string, plural: string, count: number): string {
  return count === 1 ? singular : plural;
}

/** sortedSet lists distinct strings sorted bytewise, as sets.String.List() does. */
export function sortedSet(items: Iterable<string>): string[] {
  return [...new Set(items)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** containerNames is `container "a"` or `containers "a", "b"`. */
export function containerNames(names: readonly string[]): string {
  return `${pluralize('container', 'containers', names.length)} ${joinQuote(names)}`;
}

/** isWindowsPod tells whether spec.os.name is windows, which exempts a pod from Linux-only checks from 1.25. */
export function isWindowsPod(podSpec: PodSpec): boolean {
  return podSpec.os?.name === 'windows';
}

/**
 * relaxPolicyForUserNamespacePod tells whether the pod runs in a user namespace (`hostUsers: false`), which relaxes
 * runAsNonRoot, runAsUser and the baseline procMount check from policy 1.35 (helpers.go).
 */
export function relaxPolicyForUserNamespacePod(podSpec: PodSpec): boolean {
  return podSpec.hostUsers === false;
}

/**
 * goQuote quotes a string as Go's %q (strconv.Quote) does: backslash escapes for quotes, backslashes and
 * control characters, printable characters kept as they are.
 */
export function goQuote(s: string): string {
  const named: Record<string, string> = { '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v', '"': '\\"', '\\': '\\\\' };
  let out = '"';
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    if (named[ch]) out += named[ch];
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}
