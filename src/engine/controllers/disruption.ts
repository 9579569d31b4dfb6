// The disruption controller's sync of one PodDisruptionBudget: the pods it selects, how many it expects and wants
// healthy, how many are healthy (Ready, not being deleted, not just evicted), disruptionsAllowed, the disruptedPods the
// eviction subresource recorded (dropped once the pod is being deleted, or DeletionTimeout after the eviction with a
// NotDeleted event), observedGeneration and the DisruptionAllowed condition; a failed sync writes disruptionsAllowed 0
// with SyncFailed (failSafe). See pkg/controller/disruption/disruption.go (sync, trySync, getPodsForPdb,
// buildDisruptedPodMap, countHealthyPods, updatePdbStatus, failSafe) at v1.36.3. Phase controllers.disruption.
import { labelSelectorAsSelector, SelectorError, selectorMatches } from '../api/labels';
import {
  conditionsAreUpToDate, DISRUPTION_ALLOWED_CONDITION, isPodReady, labelSelectorString, orderedStatus, type PodDisruptionBudget,
  type PodDisruptionBudgetStatus, setStatusCondition, SYNC_FAILED_REASON, updateDisruptionAllowedCondition,
} from '../api/pod-disruption-budget';
import { deepClone, type Pod, refOf } from '../api/types';
import type { EngineContext } from '../context';
import type { Millis } from '../runtime/clock';
import type { Steps } from '../runtime/step';
import { type ExpectedCount, getExpectedPodCount } from './disruption-scale';
import { STATUS_MANAGERS, updateStatus } from '../apiserver/status-write';

/**
 * DISRUPTION_SOURCE is the component of the controller's events: its recorder is made with
 * v1.EventSource{Component: "controllermanager"} (NewDisruptionControllerInternal), not a controller name.
 */
export const DISRUPTION_SOURCE = 'controllermanager';

/**
 * DELETION_TIMEOUT_MS is DeletionTimeout (2 minutes): how long after an eviction the controller expects to see the pod
 * being deleted before it counts it again.
 */
export const DELETION_TIMEOUT_MS = 2 * 60 * 1000;

/** DisruptionSyncResult asks the queue for a recheck once the earliest recorded disruption times out. */
export interface DisruptionSyncResult {
  recheckAfter?: Millis;
}

/** Sync is one sync's working state. */
interface Sync {
  ctx: EngineContext;
  pdb: PodDisruptionBudget;
  ref: string;
  /** now is the wall-clock time in ms, comparable with Date.parse of a stored timestamp. */
  now: number;
}

function event(s: Sync, object: string, type: 'Normal' | 'Warning', reason: string, message: string): void {
  s.ctx.recorder.event({ type, reason, object, source: DISRUPTION_SOURCE, message });
}

/** syncPodDisruptionBudget is DisruptionController.sync for the budget `namespace/name`; a budget gone needs nothing. */
export function* syncPodDisruptionBudget(ctx: EngineContext, namespace: string, name: string): Steps<DisruptionSyncResult> {
  const pdb = ctx.store.get<PodDisruptionBudget>('PodDisruptionBudget', namespace, name);
  if (!pdb) return {};
  const s: Sync = { ctx, pdb, ref: refOf(pdb), now: ctx.clock.epoch.getTime() + ctx.clock.now };
  const r = yield* trySync(s);
  if ('error' in r) {
    yield* failSafe(s, r.error);
    return {};
  }
  return r;
}

/** getPodsForPdb lists the namespace's pods the selector matches (a nil selector matches none, an empty one all). */
function getPodsForPdb(s: Sync): Pod[] | { error: string } {
  let selector;
  try {
    selector = labelSelectorAsSelector(s.pdb.spec?.selector);
  } catch (err) {
    if (err instanceof SelectorError) return { error: err.message };
    throw err;
  }
  return s.ctx.store.list<Pod>('Pod', s.pdb.metadata?.namespace ?? '').filter((p) => selectorMatches(selector, p.metadata?.labels ?? {}));
}

function* trySync(s: Sync): Steps<DisruptionSyncResult | { error: string }> {
  const pods = getPodsForPdb(s);
  if (!Array.isArray(pods)) {
    event(s, s.ref, 'Warning', 'NoPods', `Failed to get pods: ${pods.error}`);
    return pods;
  }
  if (pods.length === 0) event(s, s.ref, 'Normal', 'NoPods', 'No matching pods found');
  const expected = getExpectedPodCount(s.ctx.store, s.pdb, pods);
  if (expected.error !== undefined) {
    event(s, s.ref, 'Warning', 'CalculateExpectedPodCountFailed', `Failed to calculate the number of expected pods: ${expected.error}`);
    return { error: expected.error };
  }
  // "We have unmamanged pods, instead of erroring and hotlooping in disruption controller, log and continue."
  if (expected.unmanagedPods.length > 0) {
    event(s, s.ref, 'Warning', 'UnmanagedPods', `Pods selected by this PodDisruptionBudget (selector: ${labelSelectorString(s.pdb.spec?.selector)}) were found `
      + 'to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. '
      + 'To account for these pods please set ".spec.minAvailable" field of the PDB to an integer value.');
  }
  const { disruptedPods, recheckAt } = buildDisruptedPodMap(s, pods);
  const currentHealthy = countHealthyPods(pods, disruptedPods, s.now);
  yield* updatePdbStatus(s, currentHealthy, expected, disruptedPods, pods);
  return recheckAt === undefined ? {} : { recheckAfter: Math.max(0, recheckAt - s.now) };
}

/**
 * buildDisruptedPodMap keeps the recorded disruptions of pods not yet being deleted whose DeletionTimeout has not
 * passed; one past it gets a NotDeleted event (its message names the budget's namespace twice, as the source does:
 * `Pod was expected by PDB %s/%s to be deleted but it wasn't` with pdb.Namespace, pdb.Namespace).
 */
function buildDisruptedPodMap(s: Sync, pods: readonly Pod[]): { disruptedPods: Record<string, string>; recheckAt?: number } {
  const recorded = s.pdb.status?.disruptedPods ?? {};
  const kept: Record<string, string> = {};
  let recheckAt: number | undefined;
  for (const pod of pods) {
    const name = pod.metadata?.name ?? '';
    if (pod.metadata?.deletionTimestamp || !Object.hasOwn(recorded, name)) continue;
    const expectedDeletion = Date.parse(recorded[name]!) + DELETION_TIMEOUT_MS;
    if (expectedDeletion < s.now) {
      const ns = s.pdb.metadata?.namespace ?? '';
      event(s, refOf(pod), 'Warning', 'NotDeleted', `Pod was expected by PDB ${ns}/${ns} to be deleted but it wasn't`);
    } else {
      recheckAt = recheckAt === undefined ? expectedDeletion : Math.min(recheckAt, expectedDeletion);
      kept[name] = recorded[name]!;
    }
  }
  return { disruptedPods: kept, ...(recheckAt !== undefined ? { recheckAt } : {}) };
}

/** countHealthyPods counts the Ready pods that are not being deleted and not recorded as disrupted within DeletionTimeout. */
export function countHealthyPods(pods: readonly Pod[], disruptedPods: Readonly<Record<string, string>>, now: number): number {
  let healthy = 0;
  for (const pod of pods) {
    if (pod.metadata?.deletionTimestamp) continue;
    const at = disruptedPods[pod.metadata?.name ?? ''];
    if (at !== undefined && Date.parse(at) + DELETION_TIMEOUT_MS > now) continue;
    if (isPodReady(pod)) healthy++;
  }
  return healthy;
}

const sameMap = (a: Readonly<Record<string, string>> | undefined, b: Readonly<Record<string, string>>): boolean =>
  JSON.stringify(Object.entries(a ?? {}).sort()) === JSON.stringify(Object.entries(b).sort());

/**
 * updatePdbStatus writes the status when any of its numbers, the disruptions, the observed generation or the condition
 * is out of date. "We require expectedCount to be > 0 so that PDBs which currently match no pods are in a safe state
 * when their first pods appear but this controller has not updated their status yet."
 */
function* updatePdbStatus(s: Sync, currentHealthy: number, e: ExpectedCount, disruptedPods: Record<string, string>, pods: readonly Pod[]): Steps<void> {
  let disruptionsAllowed = currentHealthy - e.desiredHealthy;
  if (e.expectedCount <= 0 || disruptionsAllowed <= 0) disruptionsAllowed = 0;
  const old = s.pdb.status;
  const generation = s.pdb.metadata?.generation ?? 0;
  if (old && old.currentHealthy === currentHealthy && old.desiredHealthy === e.desiredHealthy && old.expectedPods === e.expectedCount
    && old.disruptionsAllowed === disruptionsAllowed && sameMap(old.disruptedPods, disruptedPods) && (old.observedGeneration ?? 0) === generation
    && conditionsAreUpToDate(s.pdb)) return;
  const status: PodDisruptionBudgetStatus = {
    currentHealthy, desiredHealthy: e.desiredHealthy, expectedPods: e.expectedCount, disruptionsAllowed, disruptedPods, observedGeneration: generation,
    conditions: deepClone(old?.conditions ?? []),
  };
  updateDisruptionAllowedCondition(status, s.ctx.clock.timestamp());
  const written = writeStatus(s, status);
  const spec = s.pdb.spec ?? {};
  const rule = spec.maxUnavailable !== undefined ? `maxUnavailable ${String(spec.maxUnavailable)}` : spec.minAvailable !== undefined ? `minAvailable ${String(spec.minAvailable)}` : 'neither minAvailable nor maxUnavailable';
  const allowed = written.conditions?.find((c) => c.type === DISRUPTION_ALLOWED_CONDITION);
  yield {
    phase: 'controllers.disruption', object: s.ref, field: spec.maxUnavailable !== undefined ? 'spec.maxUnavailable' : spec.minAvailable !== undefined ? 'spec.minAvailable' : 'spec.selector',
    result: `${rule}: ${pods.length} pod(s) selected, expectedPods ${e.expectedCount}, desiredHealthy ${e.desiredHealthy}, currentHealthy ${currentHealthy}: disruptionsAllowed ${disruptionsAllowed} (DisruptionAllowed ${allowed?.status} ${allowed?.reason})`,
    detail: { status: written, pods: pods.map((p) => p.metadata?.name ?? ''), ...(e.unmanagedPods.length ? { unmanagedPods: e.unmanagedPods } : {}) },
  };
}

/**
 * failSafe is what a failed sync leaves: disruptionsAllowed 0 and DisruptionAllowed False SyncFailed with the error as
 * its message, so the eviction subresource approves nothing that may be unsafe ("fail open" made safe).
 */
function* failSafe(s: Sync, error: string): Steps<void> {
  const old = s.pdb.status ?? { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 };
  const status: PodDisruptionBudgetStatus = { ...deepClone(old), disruptionsAllowed: 0, conditions: deepClone(old.conditions ?? []) };
  setStatusCondition(status.conditions!, {
    type: DISRUPTION_ALLOWED_CONDITION, status: 'False', reason: SYNC_FAILED_REASON, message: error,
    ...(old.observedGeneration ? { observedGeneration: old.observedGeneration } : {}),
  }, s.ctx.clock.timestamp());
  const written = writeStatus(s, status);
  yield {
    phase: 'controllers.disruption', object: s.ref, field: 'spec.selector',
    result: `sync failed (${error}): disruptionsAllowed 0, DisruptionAllowed False SyncFailed`, detail: { error, status: written }, outcome: 'failed',
  };
}

/**
 * writeStatus is UpdateStatus of the budget, its fields in the API's order. A status equal to the stored one writes
 * nothing (etcd's GuaranteedUpdate skips an unchanged object: no new resourceVersion, no watch event).
 */
function writeStatus(s: Sync, status: PodDisruptionBudgetStatus): PodDisruptionBudgetStatus {
  const ordered = orderedStatus(status);
  if (JSON.stringify(ordered) === JSON.stringify(s.pdb.status)) return ordered;
  updateStatus<PodDisruptionBudget>(s.ctx, STATUS_MANAGERS.controllers, 'PodDisruptionBudget', s.pdb.metadata?.namespace, s.pdb.metadata?.name ?? '', (o) => {
    o.status = ordered;
  });
  return ordered;
}
