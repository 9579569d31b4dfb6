// The eviction subresource, `POST /api/v1/namespaces/NS/pods/NAME/eviction`: admission of the Eviction, then the
// pod's PodDisruptionBudget — a pod not running yet, terminal or already being deleted goes without it; two budgets are
// a 500; an unready pod goes when the budget is healthy or its unhealthyPodEvictionPolicy is AlwaysAllow; otherwise
// one disruption is taken (the pod recorded in disruptedPods) or the request is refused with 429 — and then the pod
// gets the DisruptionTarget condition and is deleted with the Eviction's DeleteOptions.
// See pkg/registry/core/pod/storage/eviction.go (Create, checkAndDecrement, canIgnorePDB, addConditionAndDeletePod,
// createTooManyRequestsError, getPodDisruptionBudgets) at v1.36.3. Phase apiserver.evict.
import {
  ALWAYS_ALLOW, budgetsOfPod, DISRUPTION_ALLOWED_CONDITION, DISRUPTION_BUDGET_CAUSE, type Eviction, isPodReady, orderedStatus,
  type PodDisruptionBudget, SYNC_FAILED_REASON, updateDisruptionAllowedCondition,
} from '../api/pod-disruption-budget';
import { deepClone, type Pod, type PodCondition } from '../api/types';
import type { EngineContext } from '../context';
import type { Steps } from '../runtime/step';
import { runAdmission } from './admission';
import type { AdmissionAttributes } from './admission/plugin';
import { deleteObject, type DeleteOptions } from './delete';
import { type ApiRequest, badRequest, forbidden, invalid, notFound, type Status, StatusError, type UserInfo } from './request';
import type { ApiOutcome } from './server';
import { podPath } from '../cluster/storage-keys';

/** MAX_DISRUPTED_POD_SIZE is MaxDisruptedPodSize: a budget with more unconfirmed evictions refuses more. */
export const MAX_DISRUPTED_POD_SIZE = 2000;

/** EVICTION_REFUSED is the 429's message, whatever the budget says in its cause. */
export const EVICTION_REFUSED = "Cannot evict pod as it would violate the pod's disruption budget.";

/** MULTIPLE_BUDGETS is the message of the Status a pod with two budgets gets (code 500, no reason). */
export const MULTIPLE_BUDGETS = 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.';

/** EVICTION_SUCCESS is the Status a successful eviction answers with (the create handler gives it code 201). */
const EVICTION_SUCCESS = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 };

/** tooManyRequests is errors.NewTooManyRequests with a DisruptionBudget cause; retryAfterSeconds 0 is omitted. */
function tooManyRequests(cause: string, retryAfterSeconds = 0): StatusError {
  return new StatusError({
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: EVICTION_REFUSED, reason: 'TooManyRequests',
    details: { causes: [{ reason: DISRUPTION_BUDGET_CAUSE, message: cause }], ...(retryAfterSeconds ? { retryAfterSeconds } : {}) }, code: 429,
  });
}

/** conflict is errors.NewConflict for the pod's preconditions, which name the resource `Pod` (GroupResource{Resource: "Pod"}). */
function conflict(name: string, why: string): StatusError {
  return new StatusError({
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `Operation cannot be fulfilled on Pod ${JSON.stringify(name)}: ${why}`,
    reason: 'Conflict', details: { name, kind: 'Pod' }, code: 409,
  });
}

/** Evicting is one eviction as the handler works on it. */
interface Evicting {
  ctx: EngineContext;
  ref: string;
  namespace: string;
  name: string;
  eviction: Eviction;
  dryRun: boolean;
}

const fail = (error: StatusError): ApiOutcome => ({ ok: false, error, phase: 'apiserver.evict' });

/** evictPod serves a create of pods/eviction whose user is authenticated and authorized. */
export function* evictPod(ctx: EngineContext, req: ApiRequest, ref: string): Steps<ApiOutcome> {
  const eviction = deepClone((req.object ?? {}) as Eviction);
  const namespace = req.namespace ?? '';
  const name = req.name ?? '';
  const attrs: AdmissionAttributes = {
    operation: 'CREATE', kind: 'Eviction', group: '', resource: 'pods', subresource: 'eviction', namespace, name,
    object: eviction as AdmissionAttributes['object'], user: req.user as UserInfo,
  };
  const mutating = yield* runAdmission(ctx, attrs, 'mutating', ref);
  if (mutating.error) return { ok: false, error: mutating.error, phase: 'apiserver.admit.mutating' };
  const e: Evicting = { ctx, ref, namespace, name, eviction, dryRun: (eviction.deleteOptions?.dryRun ?? []).includes('All') };
  // EvictionREST.Create: the name in the URL is the Eviction's, and one DeleteOptions field is refused outright.
  if (name !== (eviction.metadata?.name ?? '')) return yield* refuse(e, badRequest('name in URL does not match name in Eviction object'));
  if ((eviction.deleteOptions as { ignoreStoreReadErrorWithClusterBreakingPotential?: boolean } | undefined)?.ignoreStoreReadErrorWithClusterBreakingPotential) {
    return yield* refuse(e, invalid('Eviction', 'policy', name, [{ reason: 'FieldValueInvalid', message: 'Invalid value: true: can not be set for pod eviction, try after removing the option', field: 'deleteOptions.ignoreStoreReadErrorWithClusterBreakingPotential' }]));
  }
  const validating = yield* runAdmission(ctx, attrs, 'validating', ref);
  if (validating.error) return { ok: false, error: validating.error, phase: 'apiserver.admit.validating' };
  const pod = ctx.store.get<Pod>('Pod', namespace, name);
  if (!pod) return yield* refuse(e, notFound('pods', '', name));
  // canIgnorePDB: "Evicting a terminal pod should result in direct deletion of pod as it already caused disruption".
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || pod.metadata?.deletionTimestamp) {
    const why = pod.metadata?.deletionTimestamp ? 'already being deleted' : `${phase}`;
    yield { phase: 'apiserver.evict', object: ref, field: 'status.phase', result: `the pod is ${why}: evicted without looking at any disruption budget`, detail: { phase: phase ?? null } };
    return yield* addConditionAndDelete(e, pod);
  }
  const pdbs = budgetsOfPod(ctx.store, pod);
  if (pdbs.length > 1) {
    // A Status returned, not an error: kube-apiserver writes it with its own code, 500, and no reason.
    const status: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: MULTIPLE_BUDGETS, code: 500 };
    return yield* refuse(e, new StatusError(status), { budgets: pdbs.map((p) => p.metadata?.name ?? '') });
  }
  const pdb = pdbs[0];
  if (!pdb) {
    yield { phase: 'apiserver.evict', object: ref, field: 'metadata.labels', result: 'no PodDisruptionBudget selects the pod: it is evicted', detail: { budgets: [] } };
    return yield* addConditionAndDelete(e, pod);
  }
  const budget = `PodDisruptionBudget ${pdb.metadata?.name}`;
  if (!isPodReady(pod)) {
    const policy = pdb.spec?.unhealthyPodEvictionPolicy;
    const s = pdb.status;
    // "Delete the unhealthy pod, it doesn't count towards currentHealthy and desiredHealthy".
    if (policy === ALWAYS_ALLOW || ((s?.currentHealthy ?? 0) >= (s?.desiredHealthy ?? 0) && (s?.desiredHealthy ?? 0) > 0)) {
      const why = policy === ALWAYS_ALLOW ? 'its unhealthyPodEvictionPolicy is AlwaysAllow' : `it is healthy (currentHealthy ${s?.currentHealthy} >= desiredHealthy ${s?.desiredHealthy})`;
      yield { phase: 'apiserver.evict', object: ref, field: 'status.conditions', result: `the pod is not Ready and ${budget} lets it go (${why}): evicted without taking a disruption`, detail: { budget: pdb.metadata?.name, unhealthyPodEvictionPolicy: policy ?? null } };
      return yield* addConditionAndDelete(e, pod);
    }
  }
  const refused = checkAndDecrement(e, pdb);
  if (refused) return yield* refuse(e, refused, { budget: pdb.metadata?.name, status: pdb.status ?? null });
  const after = ctx.store.get<PodDisruptionBudget>('PodDisruptionBudget', namespace, pdb.metadata?.name ?? '')?.status;
  yield {
    phase: 'apiserver.evict', object: ref, field: 'metadata.labels',
    result: `${budget} allows ${pdb.status?.disruptionsAllowed} disruption(s): disruptionsAllowed ${pdb.status?.disruptionsAllowed} → ${(pdb.status?.disruptionsAllowed ?? 1) - 1}${e.dryRun ? ' (dry run: not written)' : `, disruptedPods[${name}] recorded`}`,
    detail: { budget: pdb.metadata?.name, status: e.dryRun ? null : after ?? null },
  };
  return yield* addConditionAndDelete(e, pod);
}

/** refuse records the refusal and answers with it. */
function* refuse(e: Evicting, error: StatusError, detail: Record<string, unknown> = {}): Steps<ApiOutcome> {
  const causes = error.status.details?.causes?.map((c) => c.message) ?? [];
  yield {
    phase: 'apiserver.evict', object: e.ref, result: `${error.code}${error.reason ? ` ${error.reason}` : ''}: ${error.message}${causes.length ? ` (${causes.join('; ')})` : ''}`,
    detail: { ...detail, status: error.status }, outcome: 'rejected',
  };
  return fail(error);
}

/**
 * checkAndDecrement takes one disruption from the budget, or says why not: the budget's generation not yet observed
 * (429, retry after 10 s), a negative count or too many unconfirmed evictions (403), none allowed (429 with the cause
 * the status explains). The eviction is recorded in disruptedPods (not on a dry run).
 */
function checkAndDecrement(e: Evicting, pdb: PodDisruptionBudget): StatusError | undefined {
  const name = pdb.metadata?.name ?? '';
  const s = pdb.status ?? { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 };
  if ((s.observedGeneration ?? 0) < (pdb.metadata?.generation ?? 0)) return tooManyRequests(`The disruption budget ${name} is still being processed by the server.`, 10);
  if (s.disruptionsAllowed < 0) return forbidden('poddisruptionbudget', 'policy', name, 'pdb disruptions allowed is negative');
  if (Object.keys(s.disruptedPods ?? {}).length > MAX_DISRUPTED_POD_SIZE) {
    return forbidden('poddisruptionbudget', 'policy', name, 'DisruptedPods map too big - too many evictions not confirmed by PDB controller');
  }
  if (s.disruptionsAllowed === 0) {
    const cond = (s.conditions ?? []).find((c) => c.type === DISRUPTION_ALLOWED_CONDITION);
    // "check whether sync is failed first because DesiredHealthy and CurrentHealthy are not trustworthy when the sync is failed"
    const msg = cond && cond.status === 'False' && cond.message && cond.reason === SYNC_FAILED_REASON
      ? `The disruption budget ${name} does not allow evicting pods currently because it failed sync: ${cond.message}`
      : s.currentHealthy <= s.desiredHealthy ? `The disruption budget ${name} needs ${s.desiredHealthy} healthy pods and has ${s.currentHealthy} currently`
        : cond && cond.status === 'False' && cond.message ? `The disruption budget ${name} does not allow evicting pods currently (${cond.reason}): ${cond.message}`
          : `The disruption budget ${name} does not allow evicting pods currently`;
    return tooManyRequests(msg);
  }
  if (e.dryRun) return undefined;
  const status = deepClone(s);
  status.disruptionsAllowed--;
  if (status.disruptionsAllowed === 0) updateDisruptionAllowedCondition(status, e.ctx.clock.timestamp());
  // "Eviction handler needs to inform the PDB controller that it is about to delete a pod".
  status.disruptedPods = { ...(status.disruptedPods ?? {}), [e.name]: e.ctx.clock.timestamp() };
  e.ctx.store.update<PodDisruptionBudget>('PodDisruptionBudget', e.namespace, name, (o) => { o.status = orderedStatus(status); });
  return undefined;
}

/**
 * addConditionAndDelete is addConditionAndDeletePod: the client's preconditions checked against the stored pod
 * (a Conflict otherwise), the DisruptionTarget condition (EvictionByEvictionAPI, "Eviction API: evicting") written by
 * a status update, then the delete with the Eviction's DeleteOptions. A dry run changes nothing.
 */
function* addConditionAndDelete(e: Evicting, pod: Pod): Steps<ApiOutcome> {
  const opts = e.eviction.deleteOptions ?? {};
  const pre = opts.preconditions ?? {};
  if (pre.uid && pre.uid !== pod.metadata?.uid) {
    return yield* refuse(e, conflict(e.name, `the UID in the precondition (${pre.uid}) does not match the UID in record (${pod.metadata?.uid}). The object might have been deleted and then recreated`));
  }
  if (pre.resourceVersion && pre.resourceVersion !== pod.metadata?.resourceVersion) {
    return yield* refuse(e, conflict(e.name, `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${pod.metadata?.resourceVersion}). The object might have been modified`));
  }
  if (e.dryRun) {
    yield { phase: 'apiserver.evict', object: e.ref, result: 'dry run: the pod would get the DisruptionTarget condition and be deleted; nothing is written', detail: { dryRun: ['All'] } };
    return { ok: true, code: 201, object: EVICTION_SUCCESS };
  }
  const now = e.ctx.clock.timestamp();
  e.ctx.store.update<Pod>('Pod', e.namespace, e.name, (p) => {
    const conditions = [...(p.status?.conditions ?? [])];
    const i = conditions.findIndex((c) => c.type === 'DisruptionTarget');
    const old = i >= 0 ? conditions[i] as PodCondition & { observedGeneration?: number } : undefined;
    // podutil.UpdatePodCondition: lastTransitionTime now, or the old one when the status stays True; the status
    // strategy keeps an old condition's observedGeneration (pkg/registry/core/pod/strategy.go preserveOldObservedGeneration).
    const condition = {
      type: 'DisruptionTarget', ...(old?.observedGeneration ? { observedGeneration: old.observedGeneration } : {}),
      status: 'True', lastProbeTime: old?.lastProbeTime ?? null, lastTransitionTime: old?.status === 'True' ? old.lastTransitionTime : now,
      reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting',
    } as unknown as PodCondition;
    if (i >= 0) conditions[i] = condition;
    else conditions.push(condition);
    p.status = { ...p.status, conditions };
  });
  yield {
    phase: 'apiserver.evict', object: e.ref, field: 'status.conditions',
    result: 'DisruptionTarget True (EvictionByEvictionAPI: "Eviction API: evicting") added to the pod\'s status, then the pod is deleted',
    detail: { reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting', deleteOptions: opts },
  };
  const options: DeleteOptions = {
    ...(typeof opts.gracePeriodSeconds === 'number' ? { gracePeriodSeconds: opts.gracePeriodSeconds } : {}),
    ...(opts.propagationPolicy ? { propagationPolicy: opts.propagationPolicy as NonNullable<DeleteOptions['propagationPolicy']> } : {}),
  };
  // The registry deletes through its own storage: no second authorization or admission.
  const req: ApiRequest = { verb: 'delete', method: 'DELETE', path: podPath(e.namespace, e.name), apiVersion: 'v1', kind: 'Pod', group: '', resource: 'pods', namespace: e.namespace, name: e.name, credentials: {} };
  const deleted = yield* deleteObject(e.ctx, req, e.ref, options);
  if (!deleted.ok) return deleted;
  return { ok: true, code: 201, object: EVICTION_SUCCESS };
}
