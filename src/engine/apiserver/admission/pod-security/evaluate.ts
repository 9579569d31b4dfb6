// Evaluating a pod (or a pod template) against its namespace's policy: enforce, audit and warn, with the trace of every
// check. See staging/src/k8s.io/pod-security-admission/admission/admission.go (EvaluatePod) and response.go.
import type { ObjectMeta, PodSpec } from '../../../api/types';
import { forbidden, StatusError } from '../../request';
import type { FieldError } from '../../validation/field-errors';
import type { PodSecurityConfiguration } from './config';
import {
  aggregateString, fieldErrorString, type LevelVersion, levelVersionString, type Mode, MODES, type Policy,
  sameLevelVersion, versionString,
} from './levels';
import { type AggregateCheckResult, aggregateCheckResults, evaluatePod, forbiddenDetail } from './registry';

/** AuditAnnotations are the plugin's audit annotations, keys without the `pod-security.kubernetes.io/` prefix. */
export type AuditAnnotations = Record<string, string>;

/** PodSecurityResponse is the plugin's answer (an AdmissionResponse): allowed or the Status, warnings, audit annotations. */
export interface PodSecurityResponse {
  allowed: boolean;
  error?: StatusError;
  warnings: string[];
  auditAnnotations: AuditAnnotations;
  /** trace is what the Decision view shows: the policy, the evaluations and each check's result. */
  trace: Record<string, unknown>;
  /** note says the decision in words. */
  note: string;
}

/** allowedResponse is an allowed answer with its note and trace. */
export function allowedResponse(note: string, trace: Record<string, unknown> = {}, auditAnnotations: AuditAnnotations = {}): PodSecurityResponse {
  return { allowed: true, warnings: [], auditAnnotations, trace, note };
}

/** exemptResponse allows a request for an exemption, recording why in the `exempt` audit annotation (response.go allowedByExemptResponse). */
export function exemptResponse(reason: 'user' | 'namespace' | 'runtimeClass', note: string, trace: Record<string, unknown>): PodSecurityResponse {
  return allowedResponse(note, { ...trace, exempt: reason }, { exempt: reason });
}

/**
 * internalError is NewInternalError's Status: `Internal error occurred: <err>`, code 500, the error as its one cause.
 * See staging/src/k8s.io/apimachinery/pkg/api/errors/errors.go.
 */
export function internalError(message: string): StatusError {
  return new StatusError({
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `Internal error occurred: ${message}`, reason: 'InternalError',
    details: { causes: [{ reason: '', message, field: '' }] }, code: 500,
  });
}

/** NamespacePolicy is a namespace's resolved policy and the errors of its labels. */
export interface NamespacePolicy {
  policy: Policy;
  errors: FieldError[];
}

/** policyStrings prints each mode's level-version, for the trace. */
export function policyStrings(p: Policy): Record<Mode, string> {
  return { enforce: levelVersionString(p.enforce), audit: levelVersionString(p.audit), warn: levelVersionString(p.warn) };
}

/** EvaluationTrace is one level-version evaluated for some modes, with every check it ran. */
interface EvaluationTrace {
  policy: string;
  modes: Mode[];
  evaluatedAs: string;
  allowed: boolean;
  overridden: string[];
  checks: { id: string; level: string; revision: string; allowed: boolean; reason?: string; detail?: string; source: string }[];
}

/** PodToEvaluate is what is checked: the pod's (or template's) metadata and spec, and the request it came in. */
export interface PodToEvaluate {
  podMetadata: ObjectMeta;
  podSpec: PodSpec;
  resource: string;
  group: string;
  name: string;
}

/**
 * evaluatePodPolicy evaluates a pod for each mode, reusing one evaluation for modes at the same level-version. A failing
 * enforce check is a 403 `violates PodSecurity "<level>:<version>": <reasons>`; a failing audit check an audit annotation;
 * a failing warn check, when the request is allowed, the warning `would violate PodSecurity ...`. Only pods are
 * enforced; templates of pod controllers are warned and audited (admission.go EvaluatePod).
 */
export function evaluatePodPolicy(config: PodSecurityConfiguration, ns: NamespacePolicy, pod: PodToEvaluate, enforce: boolean, trace: Record<string, unknown>): PodSecurityResponse {
  const runtimeClass = pod.podSpec.runtimeClassName;
  if (runtimeClass && config.exemptions.runtimeClasses.includes(runtimeClass)) {
    return exemptResponse('runtimeClass', `runtime class "${runtimeClass}" is exempt`, { ...trace, runtimeClassName: runtimeClass });
  }
  const auditAnnotations: AuditAnnotations = {};
  if (ns.errors.length) auditAnnotations['error'] = `Failed to parse policy: ${aggregateString(ns.errors.map(fieldErrorString))}`;

  const evaluations: EvaluationTrace[] = [];
  const cached: { lv: LevelVersion; result: AggregateCheckResult }[] = [];
  const evaluate = (mode: Mode): AggregateCheckResult => {
    const lv = ns.policy[mode];
    const hit = cached.find((c) => sameLevelVersion(c.lv, lv));
    if (hit) {
      evaluations.find((e) => e.policy === levelVersionString(lv))!.modes.push(mode);
      return hit.result;
    }
    const { version, outcomes, overridden } = evaluatePod(lv, pod.podMetadata, pod.podSpec);
    const result = aggregateCheckResults(outcomes.map((o) => o.result));
    cached.push({ lv, result });
    evaluations.push({
      policy: levelVersionString(lv), modes: [mode], evaluatedAs: `${lv.level}:${versionString(version)}`, allowed: result.allowed, overridden,
      checks: outcomes.map((o) => ({
        id: o.id, level: o.level, revision: o.revision, allowed: o.result.allowed, source: o.source,
        ...(o.result.allowed ? {} : { reason: o.result.forbiddenReason ?? '', detail: o.result.forbiddenDetail ?? '' }),
      })),
    });
    return result;
  };

  let error: StatusError | undefined;
  if (enforce) {
    auditAnnotations['enforce-policy'] = levelVersionString(ns.policy.enforce);
    const result = evaluate('enforce');
    if (!result.allowed) {
      error = forbidden(pod.resource, pod.group, pod.name || undefined, `violates PodSecurity "${levelVersionString(ns.policy.enforce)}": ${forbiddenDetail(result)}`);
    }
  }
  const audit = evaluate('audit');
  if (!audit.allowed) auditAnnotations['audit-violations'] = `would violate PodSecurity "${levelVersionString(ns.policy.audit)}": ${forbiddenDetail(audit)}`;
  const warnings: string[] = [];
  // Why: no warnings on a request that is refused anyway.
  if (!error) {
    const warn = evaluate('warn');
    if (!warn.allowed) warnings.push(`would violate PodSecurity "${levelVersionString(ns.policy.warn)}": ${forbiddenDetail(warn)}`);
  }
  return {
    allowed: !error, ...(error ? { error } : {}), warnings, auditAnnotations,
    trace: { ...trace, enforced: enforce, evaluations },
    note: describe(ns.policy, evaluations, enforce, !!error, warnings.length > 0, !!auditAnnotations['audit-violations']),
  };
}

/** describe says in words what the evaluation decided: the policy, and which modes found violations. */
function describe(policy: Policy, evaluations: readonly EvaluationTrace[], enforce: boolean, refused: boolean, warned: boolean, audited: boolean): string {
  const failing = (mode: Mode): number => evaluations.find((e) => e.modes.includes(mode))?.checks.filter((c) => !c.allowed).length ?? 0;
  const modes = MODES.filter((m) => enforce || m !== 'enforce').map((m) => `${m}=${levelVersionString(policy[m])}`).join(', ');
  const outcomes: string[] = [];
  if (refused) outcomes.push(`enforce refused ${failing('enforce')} check(s)`);
  if (audited) outcomes.push(`audit recorded ${failing('audit')} violation(s)`);
  if (warned) outcomes.push(`warned of ${failing('warn')} violation(s)`);
  return `${modes}${enforce ? '' : ' (a pod template: not enforced)'}; ${outcomes.length ? outcomes.join('; ') : 'no violations'}`;
}
