// The ControllerRefManager: a controller claims the objects its selector matches — it adopts orphans and releases
// what it owns but no longer matches — each by a strategic merge patch of metadata.ownerReferences carrying the
// object's uid as a precondition. Kubernetes records no event for either; the trace gets one step per patch.
// See pkg/controller/controller_ref_manager.go (ClaimObject, ClaimPods, ClaimReplicaSets, AdoptPod, ReleasePod,
// AdoptReplicaSet, ReleaseReplicaSet, RecheckDeletionTimestamp, ownerRefControllerPatch,
// GenerateDeleteOwnerRefStrategicMergeBytes), controller_utils.go (RealPodControl.PatchPod) and
// deployment/util/replicaset_util.go (RealRSControl.PatchReplicaSet): both PATCH with types.StrategicMergePatchType.
import { matchesLabelSelector } from '../api/labels';
import type { KubeObject, LabelSelector } from '../api/types';
import type { EngineContext } from '../context';
import type { Steps } from '../runtime/step';
import type { ControllerClient } from './client';
import { controllerOf } from './owner';

/** STRATEGIC_MERGE_PATCH is the content type of the claim patches (types.StrategicMergePatchType). */
export const STRATEGIC_MERGE_PATCH = 'application/strategic-merge-patch+json';

/** ClaimContext is one ControllerRefManager: the controller (as its sync read it), its kind and selector. */
export interface ClaimContext {
  ctx: EngineContext;
  client: ControllerClient;
  /** controller is the ReplicaSet, Deployment or StatefulSet claiming. */
  controller: KubeObject;
  /** selector is the controller's spec.selector. */
  selector: LabelSelector | undefined;
  phase: 'controllers.replicaset' | 'controllers.deployment' | 'controllers.statefulset' | 'controllers.daemonset';
  /** ref is the controller's trace reference, `Kind/namespace/name`. */
  ref: string;
}

/** adoptPatch is ownerRefControllerPatch's body: the controller reference (controller and blockOwnerDeletion true) and the uid. */
export function adoptPatch(controller: KubeObject, uid: string): Record<string, unknown> {
  return {
    metadata: {
      ownerReferences: [{
        apiVersion: String(controller.apiVersion), kind: String(controller.kind), name: controller.metadata?.name ?? '',
        uid: controller.metadata?.uid ?? '', controller: true, blockOwnerDeletion: true,
      }],
      uid,
    },
  };
}

/** releasePatch is GenerateDeleteOwnerRefStrategicMergeBytes' body: `$patch: delete` of the controller's reference, and the uid. */
export function releasePatch(controllerUid: string, uid: string): Record<string, unknown> {
  return { metadata: { uid, ownerReferences: [{ $patch: 'delete', uid: controllerUid }] } };
}

/** ClaimDecision is what ClaimObject does with one object. */
export type ClaimDecision = 'owned' | 'adopt' | 'release' | 'ignore';

/**
 * claimDecision is ClaimObject's rule: another controller's object is ignored; ours is kept while it matches, else
 * released unless we are being deleted; an orphan is adopted if we are not being deleted, it matches, it is not being
 * deleted and it is in our namespace.
 */
export function claimDecision(controller: KubeObject, obj: KubeObject, matches: boolean): ClaimDecision {
  const ref = controllerOf(obj);
  const deleting = !!controller.metadata?.deletionTimestamp;
  if (ref) {
    if (ref.uid !== controller.metadata?.uid) return 'ignore';
    if (matches) return 'owned';
    return deleting ? 'ignore' : 'release';
  }
  if (deleting || !matches || obj.metadata?.deletionTimestamp) return 'ignore';
  if (controller.metadata?.namespace && controller.metadata.namespace !== obj.metadata?.namespace) return 'ignore';
  return 'adopt';
}

/**
 * claimObjects is ClaimPods / ClaimReplicaSets: the objects this controller now owns, after adopting and releasing.
 * `filter` narrows what matches beyond the selector (ClaimPods' filters). A failed adoption is left for the next sync.
 */
export function* claimObjects<T extends KubeObject>(c: ClaimContext, objects: readonly T[], filter: (o: T) => boolean = () => true): Steps<T[]> {
  const claimed: T[] = [];
  let canAdopt: string | undefined | null = null;
  for (const obj of objects) {
    const matches = matchesLabelSelector(c.selector, obj.metadata?.labels) && filter(obj);
    const decision = claimDecision(c.controller, obj, matches);
    if (decision === 'owned') claimed.push(obj);
    if (decision === 'adopt') {
      // RecheckDeletionTimestamp: once per claim, a live read of the controller before the first adoption.
      if (canAdopt === null) canAdopt = recheckDeletionTimestamp(c);
      const adopted = yield* adopt(c, obj, canAdopt);
      if (adopted) claimed.push(adopted);
    }
    if (decision === 'release') yield* release(c, obj);
  }
  return claimed;
}

/** RESOURCE_NAMES are the qualified resources of the claiming kinds, as a NotFound names them. */
const RESOURCE_NAMES: Readonly<Record<string, string>> = {
  Deployment: 'deployments.apps', ReplicaSet: 'replicasets.apps', StatefulSet: 'statefulsets.apps', ReplicationController: 'replicationcontrollers',
};

/** recheckDeletionTimestamp is the canAdopt function: why adoption is refused, or undefined. */
function recheckDeletionTimestamp(c: ClaimContext): string | undefined {
  const { namespace, name, uid } = c.controller.metadata ?? {};
  const fresh = c.ctx.store.get(String(c.controller.kind), namespace, name ?? '');
  // replica_set.go claimPods / deployment_controller.go getReplicaSetsForDeployment: the live GET.
  if (!fresh) return `can't recheck DeletionTimestamp: ${RESOURCE_NAMES[String(c.controller.kind)] ?? 'replicasets.apps'} "${name}" not found`;
  if (fresh.metadata?.uid !== uid) return `can't recheck DeletionTimestamp: original ${c.controller.kind} ${namespace}/${name} is gone: got uid ${fresh.metadata?.uid}, wanted ${uid}`;
  if (fresh.metadata?.deletionTimestamp) return `${namespace}/${name} has just been deleted at ${fresh.metadata.deletionTimestamp}`;
  return undefined;
}

function objectLabel(obj: KubeObject): string {
  return `${obj.kind} ${obj.metadata?.name}`;
}

/** adopt is AdoptPod / AdoptReplicaSet: the patch that makes this controller the object's controller. */
function* adopt<T extends KubeObject>(c: ClaimContext, obj: T, canAdopt: string | undefined): Steps<T | undefined> {
  const { namespace, name, uid } = obj.metadata ?? {};
  const field = 'metadata.ownerReferences';
  if (canAdopt) {
    // controller_ref_manager.go: "can't adopt Pod %v/%v (%v): %v" — returned as the sync's error, no event.
    const message = `can't adopt ${obj.kind} ${namespace}/${name} (${uid}): ${canAdopt}`;
    yield { phase: c.phase, object: c.ref, field, step: { kind: 'object', name: name ?? '' }, result: message, detail: { [String(obj.kind).toLowerCase()]: name }, outcome: 'failed' };
    return undefined;
  }
  const patch = adoptPatch(c.controller, uid ?? '');
  yield {
    phase: c.phase, object: c.ref, field, step: { kind: 'object', name: name ?? '' },
    result: `adopting orphan ${objectLabel(obj)}: its labels match the selector and it has no controller; PATCH (strategic merge) sets this ${c.controller.kind} as its controller`,
    detail: { [String(obj.kind).toLowerCase()]: name, patch, body: JSON.stringify(patch), contentType: STRATEGIC_MERGE_PATCH },
  };
  const out = yield* c.client.patch(obj, patch, c.ref);
  if (!out.ok) {
    // An object gone meanwhile is not claimed; any other error waits for the next sync (ClaimObject).
    yield { phase: c.phase, object: c.ref, field, step: { kind: 'object', name: name ?? '' }, result: `adoption of ${objectLabel(obj)} failed: ${out.error.message}`, detail: { status: out.error.status }, outcome: 'failed' };
    return undefined;
  }
  return (out.object ?? obj) as T;
}

/** release is ReleasePod / ReleaseReplicaSet: the patch that removes this controller's reference; 404 and 422 are ignored. */
function* release(c: ClaimContext, obj: KubeObject): Steps<void> {
  const { name, uid } = obj.metadata ?? {};
  const patch = releasePatch(c.controller.metadata?.uid ?? '', uid ?? '');
  yield {
    phase: c.phase, object: c.ref, field: 'metadata.ownerReferences', step: { kind: 'object', name: name ?? '' },
    result: `releasing ${objectLabel(obj)}: this ${c.controller.kind} controls it but its labels no longer match the selector; PATCH (strategic merge) removes the owner reference`,
    detail: { [String(obj.kind).toLowerCase()]: name, patch, body: JSON.stringify(patch), contentType: STRATEGIC_MERGE_PATCH },
  };
  const out = yield* c.client.patch(obj, patch, c.ref);
  if (!out.ok && out.error.status.code !== 404 && out.error.status.code !== 422) {
    yield { phase: c.phase, object: c.ref, field: 'metadata.ownerReferences', result: `release of ${objectLabel(obj)} failed: ${out.error.message}`, detail: { status: out.error.status }, outcome: 'failed' };
  }
}

/** selectingControllers lists the controllers of a kind in the object's namespace whose non-empty selector matches its labels (getPodReplicaSets, getDeploymentsForReplicaSet). */
export function selectingControllers(ctx: EngineContext, kind: 'ReplicaSet' | 'Deployment' | 'StatefulSet' | 'DaemonSet', obj: KubeObject): KubeObject[] {
  return ctx.store.list<KubeObject>(kind, obj.metadata?.namespace).filter((c) => {
    const selector = (c['spec'] as { selector?: LabelSelector } | undefined)?.selector;
    const empty = !selector || (!Object.keys(selector.matchLabels ?? {}).length && !(selector.matchExpressions ?? []).length);
    return !empty && matchesLabelSelector(selector, obj.metadata?.labels);
  });
}
