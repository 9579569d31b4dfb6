// ResourceQuota: an object is admitted only if every quota of its namespace that tracks it has room, and the
// quotas' status.used is charged before the object is stored.
import type { KubeObject, ResourceQuota } from '../../api/types';
import type { EngineContext } from '../../context';
import { forbidden, type StatusError } from '../request';
import type { AdmissionAttributes, AdmissionPlugin, AdmissionResult } from './plugin';
import { evaluatorFor, type QuotaEvaluator } from './quota/evaluators';
import {
  add, equals, isNegative, lessThanOrEqual, mask, prettyPrint, prettyPrintResourceNames, removeZeros, resourceNames,
  type ResourceList, subtractNonNegative, toRecord,
} from './quota/resources';
import { matchesAllScopes, type ObservedQuota, observeQuota } from './quota/status';

/** QuotaEvaluation is what the plugin found for one quota, for the Decision view. */
interface QuotaEvaluation {
  name: string;
  scopes: ObservedQuota['selectors'];
  statusComputed: boolean;
  hard: Record<string, string>;
  usedBefore: Record<string, string>;
  matches: boolean;
  why?: string;
  requested?: Record<string, string>;
  usedAfter?: Record<string, string>;
}

/** CheckResult is checkRequest's outcome: the refusal, or the new usage of each quota the request charges. */
interface CheckResult {
  error?: string;
  charged: Map<string, ResourceList>;
  usage?: ResourceList;
  evaluations: QuotaEvaluation[];
}

/** resourceName is the name admission.NewForbidden puts in the message: the object's name, else its generateName. */
function resourceName(obj: KubeObject): string {
  return obj.metadata?.name || obj.metadata?.generateName || 'Unknown';
}

/**
 * matches is generic.Matches: the quota tracks at least one resource of this kind (by status.hard) and the
 * object falls in every one of its scopes.
 */
function matches(evaluator: QuotaEvaluator, quota: ObservedQuota, obj: KubeObject): { ok: boolean; why?: string } {
  if (evaluator.matchingResources(resourceNames(quota.hard)).length === 0) return { ok: false, why: `tracks no resource of ${evaluator.resource}` };
  if (!matchesAllScopes(evaluator, quota.selectors, obj)) return { ok: false, why: 'the object is outside its scopes' };
  return { ok: true };
}

/**
 * checkRequest is CheckRequest: find the quotas that match, enforce their constraints and usage stats, measure the
 * object, and refuse at the first quota the new usage would exceed. Limited resources (an AdmissionConfiguration
 * for ResourceQuota) are not modelled: the default configuration has none.
 * See staging/src/k8s.io/apiserver/pkg/admission/plugin/resourcequota/controller.go.
 */
function checkRequest(quotas: ObservedQuota[], a: AdmissionAttributes, evaluator: QuotaEvaluator, now: number): CheckResult {
  const evaluations: QuotaEvaluation[] = [];
  const charged = new Map<string, ResourceList>();
  const interesting: ObservedQuota[] = [];
  for (const quota of quotas) {
    const evaluation: QuotaEvaluation = {
      name: quota.name, scopes: quota.selectors, statusComputed: quota.computed, hard: toRecord(quota.hard), usedBefore: toRecord(quota.used), matches: false,
    };
    evaluations.push(evaluation);
    const match = matches(evaluator, quota, a.object);
    if (!match.ok) {
      evaluation.why = match.why;
      continue;
    }
    evaluation.matches = true;
    const restricted = evaluator.matchingResources(resourceNames(quota.hard));
    const missing = evaluator.constraints(restricted, a.object);
    if (missing) return { error: `failed quota: ${quota.name}: ${missing}`, charged, evaluations };
    // hasUsageStats: every tracked hard resource needs a used figure.
    if (resourceNames(quota.hard).some((n) => restricted.includes(n) && !quota.used.has(n))) {
      return { error: `status unknown for quota: ${quota.name}, resources: ${prettyPrintResourceNames(restricted)}`, charged, evaluations };
    }
    interesting.push(quota);
  }

  const usage = evaluator.usage(a.object, now);
  const negative = isNegative(usage);
  if (negative.length) return { error: `quota usage is negative for resource(s): ${prettyPrintResourceNames(negative)}`, charged, usage, evaluations };

  // On update only the growth is charged, to the quotas that already counted the old object.
  const deltas = new Map<string, ResourceList>();
  const old = a.operation === 'UPDATE' && a.oldObject?.metadata?.resourceVersion ? a.oldObject : undefined;
  for (const quota of interesting) {
    const delta = old && matches(evaluator, quota, old).ok ? subtractNonNegative(usage, evaluator.usage(old, now)) : usage;
    const nonZero = removeZeros(delta);
    if (nonZero.size) deltas.set(quota.name, nonZero);
  }

  for (const quota of interesting) {
    const evaluation = evaluations.find((e) => e.name === quota.name)!;
    const delta = deltas.get(quota.name);
    if (!delta) continue;
    const requested = mask(delta, resourceNames(quota.hard));
    const newUsage = add(quota.used, requested);
    evaluation.requested = toRecord(requested);
    const { allowed, exceeded } = lessThanOrEqual(mask(newUsage, resourceNames(requested)), quota.hard);
    if (!allowed) {
      const error = `exceeded quota: ${quota.name}, requested: ${prettyPrint(mask(requested, exceeded))}, `
        + `used: ${prettyPrint(mask(quota.used, exceeded))}, limited: ${prettyPrint(mask(quota.hard, exceeded))}`;
      return { error, charged, usage, evaluations };
    }
    evaluation.usedAfter = toRecord(newUsage);
    charged.set(quota.name, newUsage);
  }
  return { charged, usage, evaluations };
}

/**
 * writeStatus stores what the quota controller and the plugin would have written: status.used charged by this
 * request, and status.hard with it where the status was computed here (UpdateQuotaStatus, before the object is stored).
 */
function writeStatus(ctx: EngineContext, namespace: string, quotas: ObservedQuota[], charged: Map<string, ResourceList>): string[] {
  const written: string[] = [];
  for (const quota of quotas) {
    const used = charged.get(quota.name) ?? quota.used;
    if (!quota.computed && equals(used, quota.used)) continue;
    ctx.store.update<ResourceQuota>('ResourceQuota', namespace, quota.name, (q) => {
      q.status = { hard: toRecord(quota.hard), used: toRecord(used) };
    });
    written.push(quota.name);
  }
  return written;
}

/** resourceQuota enforces the namespace's ResourceQuotas (staging/src/k8s.io/apiserver/pkg/admission/plugin/resourcequota/admission.go). */
export const resourceQuota: AdmissionPlugin = {
  name: 'ResourceQuota',
  source: 'staging/src/k8s.io/apiserver/pkg/admission/plugin/resourcequota/admission.go',
  writes: true,
  // Validate ignores subresources, cluster-scoped objects and namespace creation; Evaluate ignores events and
  // what the resource's evaluator does not handle.
  handles(a) {
    if (a.operation !== 'CREATE' && a.operation !== 'UPDATE') return false;
    if (a.subresource !== '' || a.namespace === '') return false;
    if (a.operation === 'CREATE' && a.kind === 'Namespace' && a.group === '') return false;
    const evaluator = evaluatorFor(a.kind, a.resource, a.group);
    return !!evaluator && evaluator.handles(a);
  },
  validate(a, ctx): AdmissionResult {
    const evaluator = evaluatorFor(a.kind, a.resource, a.group);
    if (!evaluator) return { note: `${a.resource} are not counted by quota` };
    const now = ctx.clock.epoch.getTime() + ctx.clock.now;
    const quotas = ctx.store.list<ResourceQuota>('ResourceQuota', a.namespace).map((q) => observeQuota(q, ctx.store, now));
    if (quotas.length === 0) return { note: `no ResourceQuota in namespace "${a.namespace}"`, detail: { quotas: [] } };
    const result = checkRequest(quotas, a, evaluator, now);
    const detail = { quotas: result.evaluations, ...(result.usage ? { usage: toRecord(result.usage) } : {}) };
    if (result.error) {
      const error: StatusError = forbidden(a.resource, a.group, resourceName(a.object), result.error);
      return { error, detail };
    }
    const written = writeStatus(ctx, a.namespace, quotas, result.charged);
    const note = result.charged.size
      ? `charged ${[...result.charged.keys()].map((n) => `quota ${n}`).join(', ')}`
      : 'no quota of the namespace counts this object';
    return { note, detail: { ...detail, statusWritten: written } };
  },
};
