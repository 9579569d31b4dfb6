// The owner references a StatefulSet's persistentVolumeClaimRetentionPolicy puts on its claims, so the garbage
// collector deletes them: whenDeleted Delete makes the set the claim's controller, whenScaled Delete makes a condemned
// pod (one outside the set's ordinals) its controller. See pkg/controller/statefulset/stateful_set_utils.go
// (isClaimOwnerUpToDate, updateClaimOwnerRefForSetAndPod, hasUnexpectedController, hasNonControllerOwner,
// hasStaleOwnerRef, addControllerRef) and stateful_pod_control.go (ClaimsMatchRetentionPolicy,
// UpdatePodClaimForRetentionPolicy, PodClaimIsStale) at k8s.io/kubernetes v1.36.3.
import type { KubeObject, OwnerReference, Pod } from '../api/types';
import type { EngineContext } from '../context';
import type { Steps } from '../runtime/step';
import type { ControllerClient } from './client';
import { inOrdinalRange, ordinalOf, type StatefulSet, statefulClaims } from './statefulset-identity';

/** SOURCE is the controller's event source (STATEFULSET_CONTROLLER of statefulset-pods.ts, which calls in here). */
const SOURCE = 'statefulset-controller';
const setRef = (set: StatefulSet): string => `StatefulSet/${set.metadata?.namespace}/${set.metadata?.name}`;

const SET_KIND = { apiVersion: 'apps/v1', kind: 'StatefulSet' };
const POD_KIND = { apiVersion: 'v1', kind: 'Pod' };

interface Owner { apiVersion: string; kind: string; name: string; uid: string }

const setOwner = (set: StatefulSet): Owner => ({ ...SET_KIND, name: set.metadata?.name ?? '', uid: set.metadata?.uid ?? '' });
const podOwner = (pod: Pod): Owner => ({ ...POD_KIND, name: pod.metadata?.name ?? '', uid: pod.metadata?.uid ?? '' });

/** matchesRef: the reference names the owner's kind, apiVersion and name (whatever its uid). */
const matchesRef = (r: OwnerReference, o: Owner): boolean => r.apiVersion === o.apiVersion && r.kind === o.kind && r.name === o.name;
const refsOf = (claim: KubeObject): OwnerReference[] => claim.metadata?.ownerReferences ?? [];
const hasOwnerRef = (claim: KubeObject, o: Owner): boolean => refsOf(claim).some((r) => r.uid === o.uid);
/** hasStaleOwnerRef: a reference to the owner's name with another uid (a deleted set or pod of the same name). */
const hasStaleOwnerRef = (claim: KubeObject, o: Owner): boolean => { const r = refsOf(claim).find((x) => matchesRef(x, o)); return !!r && r.uid !== o.uid; };

/** policyOf is getPersistentVolumeClaimRetentionPolicy: Retain for either when unset. */
function policyOf(set: StatefulSet): { whenDeleted: string; whenScaled: string } {
  const p = (set.spec as { persistentVolumeClaimRetentionPolicy?: { whenDeleted?: string; whenScaled?: string } } | undefined)?.persistentVolumeClaimRetentionPolicy;
  return { whenDeleted: p?.whenDeleted || 'Retain', whenScaled: p?.whenScaled || 'Retain' };
}

/** hasUnexpectedController: with a Delete policy, another controller of the claim, or a reference to the set or pod by an old uid. */
function hasUnexpectedController(claim: KubeObject, set: Owner, pod: Owner, policy: { whenDeleted: string; whenScaled: string }): boolean {
  if (policy.whenScaled === 'Retain' && policy.whenDeleted === 'Retain') return false;
  for (const r of refsOf(claim)) {
    if (matchesRef(r, set)) { if (r.uid !== set.uid) return true; continue; }
    if (matchesRef(r, pod)) { if (r.uid !== pod.uid) return true; continue; }
    if (r.controller) return true;
  }
  return false;
}

/** isClaimOwnerUpToDate: the claim's references to the set and the pod are what the policy asks for. */
function isClaimOwnerUpToDate(claim: KubeObject, set: StatefulSet, pod: Pod): boolean {
  const s = setOwner(set);
  const p = podOwner(pod);
  const policy = policyOf(set);
  if (hasStaleOwnerRef(claim, s) || hasStaleOwnerRef(claim, p)) return true;
  if (hasUnexpectedController(claim, s, p, policy)) return !(hasOwnerRef(claim, s) || hasOwnerRef(claim, p));
  if (refsOf(claim).some((r) => (r.uid === s.uid || r.uid === p.uid) && !r.controller)) return false;
  const scaledDown = !inOrdinalRange(pod, set);
  const wantSet = policy.whenDeleted === 'Delete' && (policy.whenScaled !== 'Delete' || !scaledDown);
  const wantPod = policy.whenScaled === 'Delete' && scaledDown;
  return hasOwnerRef(claim, s) === wantSet && hasOwnerRef(claim, p) === wantPod;
}

/** updateClaimOwnerRefForSetAndPod: the references to the set and pod scrubbed, then added as controllers as the policy asks. */
function updatedRefs(claim: KubeObject, set: StatefulSet, pod: Pod): OwnerReference[] {
  const s = setOwner(set);
  const p = podOwner(pod);
  const policy = policyOf(set);
  const unexpected = hasUnexpectedController(claim, s, p, policy);
  let refs = refsOf(claim).filter((r) => !matchesRef(r, s) && !matchesRef(r, p));
  if (unexpected) return refs;
  const scaledDown = !inOrdinalRange(pod, set);
  // metav1.NewControllerRef: controller and blockOwnerDeletion true.
  const add = (o: Owner) => { if (!refs.some((r) => r.uid === o.uid)) refs = [...refs, { ...o, controller: true, blockOwnerDeletion: true }]; };
  if (policy.whenScaled === 'Delete' && scaledDown) add(p);
  if (policy.whenDeleted === 'Delete' && !(policy.whenScaled === 'Delete' && scaledDown)) add(s);
  return refs;
}

/** claimsOf are the pod's claims that exist (a missing one is picked up at a later sync). */
function claimsOf(ctx: EngineContext, set: StatefulSet, pod: Pod): KubeObject[] {
  return statefulClaims(set, ordinalOf(pod)).flatMap(({ claim }): KubeObject[] => {
    const found = ctx.store.get<KubeObject>('PersistentVolumeClaim', set.metadata?.namespace, claim.metadata?.name ?? '');
    return found ? [found] : [];
  });
}

/** claimsMatchRetentionPolicy is ClaimsMatchRetentionPolicy. */
export function claimsMatchRetentionPolicy(ctx: EngineContext, set: StatefulSet, pod: Pod): boolean {
  return claimsOf(ctx, set, pod).every((c) => isClaimOwnerUpToDate(c, set, pod));
}

/**
 * updatePodClaimForRetentionPolicy is UpdatePodClaimForRetentionPolicy: each claim of the pod whose references are
 * not what the policy asks for is updated (a PUT as the controller's service account); a claim another controller owns
 * is a Warning ConflictingController event. Returns the error, if any.
 */
export function* updatePodClaimForRetentionPolicy(ctx: EngineContext, client: ControllerClient, set: StatefulSet, pod: Pod): Steps<string | undefined> {
  const s = setOwner(set);
  const p = podOwner(pod);
  for (const claim of claimsOf(ctx, set, pod)) {
    const name = claim.metadata?.name ?? '';
    if (hasUnexpectedController(claim, s, p, policyOf(set))) {
      ctx.recorder.event({
        type: 'Warning', reason: 'ConflictingController', object: setRef(set), source: SOURCE,
        message: `PersistentVolumeClaim ${name} has a conflicting OwnerReference that acts as a manging controller, the retention policy is ignored for this claim`,
      });
    }
    if (isClaimOwnerUpToDate(claim, set, pod)) continue;
    const refs = updatedRefs(claim, set, pod);
    const next: KubeObject = { ...claim, metadata: { ...claim.metadata, ownerReferences: refs } };
    if (refs.length === 0) delete (next.metadata as { ownerReferences?: unknown }).ownerReferences;
    const out = yield* client.update(next, setRef(set));
    const owners = refs.filter((r) => r.uid === s.uid || r.uid === p.uid).map((r) => `${r.kind} ${r.name}`);
    yield {
      phase: 'controllers.statefulset', object: setRef(set), field: 'spec.persistentVolumeClaimRetentionPolicy', step: { kind: 'object', name },
      result: out.ok ? `claim ${name} now ${owners.length ? `has ${owners.join(' and ')} as its controller: the garbage collector deletes it with ${owners.length > 1 ? 'them' : 'it'}` : 'has no owner from the set: it is kept'}`
        : `could not update claim ${name} for delete policy ownerRefs: ${out.error.message}`,
      detail: { claim: name, ownerReferences: refs }, ...(out.ok ? {} : { outcome: 'failed' as const }),
    };
    if (!out.ok) return `could not update claim ${name} for delete policy ownerRefs: ${out.error.message}`;
  }
  return undefined;
}

/**
 * podClaimIsStale is PodClaimIsStale: with whenScaled Delete, a claim of the pod that still refers to an earlier pod
 * of the same name (another uid; the new pod has none yet) blocks the pod's creation until it is gone.
 */
export function podClaimIsStale(ctx: EngineContext, set: StatefulSet, pod: Pod): boolean {
  if (policyOf(set).whenScaled === 'Retain') return false;
  return claimsOf(ctx, set, pod).some((c) => hasStaleOwnerRef(c, podOwner(pod)));
}
