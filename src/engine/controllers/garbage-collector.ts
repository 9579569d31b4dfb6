// The garbage collector: dependents of a deleted owner are deleted (Background), deleted before it (Foreground,
// the owner holding the foregroundDeletion finalizer until its blocking dependents are gone) or released (Orphan,
// the orphan finalizer). An object stored with owner references that name no live owner (absent, or present under
// another uid) is collected too. See pkg/controller/garbagecollector/garbagecollector.go (attemptToDeleteItem,
// classifyReferences, processDeletingDependentsItem, orphanDependents), graph_builder.go (addDependentToOwners) and
// staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go (deletionFinalizersForGarbageCollection).
import { deepClone, type KubeObject, type OwnerReference, refOf } from '../api/types';
import { type ApiServer, mappingFor } from '../apiserver/server';
import type { EngineContext } from '../context';
import type { Steps } from '../runtime/step';
import { FINALIZER_FOREGROUND, FINALIZER_ORPHAN, type PropagationPolicy } from '../apiserver/gc-finalizers';
import { ControllerClient } from './client';
import { ownedBy } from './owner';

/** GARBAGE_COLLECTOR is the service account the collector acts as. */
export const GARBAGE_COLLECTOR = 'generic-garbage-collector';

const ref = (o: KubeObject) => refOf(o);

function dependentsOf(ctx: EngineContext, owner: KubeObject): KubeObject[] {
  // The store's owner index: the owner's dependents, not every object.
  return ctx.store.byIndex('owner', owner.metadata?.uid ?? '').filter((o) => ownedBy(o, owner.metadata?.uid));
}

/** waitingOwnersOf lists the owners of an object that wait, in foreground deletion, for their dependents. */
export function waitingOwnersOf(ctx: EngineContext, obj: KubeObject): KubeObject[] {
  const out: KubeObject[] = [];
  for (const r of obj.metadata?.ownerReferences ?? []) {
    const owner = ctx.store.get(r.kind, r.kind === 'Node' || r.kind === 'Namespace' ? undefined : obj.metadata?.namespace, r.name);
    if (owner && owner.metadata?.uid === r.uid && owner.metadata?.deletionTimestamp && (owner.metadata.finalizers ?? []).includes(FINALIZER_FOREGROUND)) out.push(owner);
  }
  return out;
}

/**
 * collectDependents handles an owner that is gone: each dependent with no owner left is deleted, with the policy its
 * own finalizers ask for (Background otherwise); one with other owners still there only loses the dangling reference.
 */
export function* collectDependents(ctx: EngineContext, api: ApiServer, owner: KubeObject): Steps<void> {
  const client = new ControllerClient(api, GARBAGE_COLLECTOR, 'controllers.garbagecollector');
  for (const dep of dependentsOf(ctx, owner)) {
    const live = ctx.store.get(String(dep.kind), dep.metadata?.namespace, dep.metadata?.name ?? '');
    if (!live || live.metadata?.deletionTimestamp) continue;
    const solid = (live.metadata?.ownerReferences ?? []).filter((r) => r.uid !== owner.metadata?.uid && ctx.store.byIndex('uid', r.uid).length > 0);
    if (solid.length > 0) {
      yield { phase: 'controllers.garbagecollector', object: ref(live), field: 'metadata.ownerReferences', result: `owner ${ref(owner)} is gone but ${solid.map((s) => `${s.kind}/${s.name}`).join(', ')} still owns it: removing the dangling reference`, detail: { owner: ref(owner) } };
      yield* client.patch(live, { metadata: { ownerReferences: [{ $patch: 'delete', uid: owner.metadata?.uid }], uid: live.metadata?.uid } });
      continue;
    }
    const finalizers = live.metadata?.finalizers ?? [];
    const policy: PropagationPolicy = finalizers.includes(FINALIZER_ORPHAN) ? 'Orphan' : finalizers.includes(FINALIZER_FOREGROUND) ? 'Foreground' : 'Background';
    yield { phase: 'controllers.garbagecollector', object: ref(live), field: 'metadata.ownerReferences', result: `its owner ${ref(owner)} is gone: deleting it (propagationPolicy ${policy})`, detail: { owner: ref(owner), propagationPolicy: policy } };
    yield* client.delete(live, { propagationPolicy: policy });
  }
}

/**
 * ownerOf looks up the object an owner reference names, in the dependent's namespace when the owner's kind is
 * namespaced; undefined when the kind is not one the API server serves (the real collector cannot map it and retries).
 */
function ownerOf(ctx: EngineContext, dep: KubeObject, r: OwnerReference): { found?: KubeObject } | undefined {
  const mapping = mappingFor(r.apiVersion, r.kind);
  if (!mapping) return undefined;
  return { found: ctx.store.get(r.kind, mapping.namespaced ? dep.metadata?.namespace : undefined, r.name) };
}

/**
 * missingOwners are the owner references an object just stored, or whose references changed, adds that name a uid no
 * stored object has (of kinds the API server serves). graph_builder.go processGraphChanges / addDependentToOwners:
 * each such owner becomes a virtual node of the graph, queued to attemptToDelete.
 */
export function missingOwners(ctx: EngineContext, obj: KubeObject, old: KubeObject | undefined): OwnerReference[] {
  const before = new Set((old?.metadata?.ownerReferences ?? []).map((r) => r.uid));
  return (obj.metadata?.ownerReferences ?? []).filter((r) => !before.has(r.uid) && mappingFor(r.apiVersion, r.kind) && ctx.store.byIndex('uid', r.uid).length === 0);
}

/**
 * verifyVirtualOwner is attemptToDeleteItem for a virtual owner node: the collector GETs the owner by name, and when
 * there is none, or one with another uid, it enqueues a virtual delete event, whose processing queues the owner's
 * dependents to attemptToDelete (true). An owner found with its uid after all is a real node (false).
 */
export function* verifyVirtualOwner(ctx: EngineContext, dep: KubeObject, r: OwnerReference): Steps<boolean> {
  const found = ownerOf(ctx, dep, r)?.found;
  if (found?.metadata?.uid === r.uid) return false;
  const ns = mappingFor(r.apiVersion, r.kind)?.namespaced ? dep.metadata?.namespace : undefined;
  yield {
    phase: 'controllers.garbagecollector', object: ref(dep), field: 'metadata.ownerReferences',
    result: `owner ${r.kind}/${r.name} (uid ${r.uid}) is not in the graph: ${found ? `the ${r.kind} of that name has uid ${found.metadata?.uid}` : `no ${r.kind} "${r.name}"${ns ? ` in ${ns}` : ''}`}; a virtual delete event queues its dependents`,
    detail: { owner: { apiVersion: r.apiVersion, kind: r.kind, name: r.name, uid: r.uid } },
  };
  return true;
}

/**
 * attemptToDeleteDependent is attemptToDeleteItem for a dependent whose owner was found missing (verifyVirtualOwner). classifyReferences: an
 * owner is dangling when no object of its kind has its name (in the dependent's namespace if namespaced) or that object
 * has another uid; waiting when it is being deleted in the foreground and the reference blocks; solid otherwise. With a
 * solid owner, the dangling references are patched away; with none (and none waiting, which the foreground pass
 * handles), the object is deleted, with the propagation its own finalizers ask for (Background otherwise).
 */
export function* attemptToDeleteDependent(ctx: EngineContext, api: ApiServer, stale: KubeObject): Steps<void> {
  const live = ctx.store.get(String(stale.kind), stale.metadata?.namespace, stale.metadata?.name ?? '');
  if (!live || live.metadata?.uid !== stale.metadata?.uid || live.metadata?.deletionTimestamp) return;
  const refs = live.metadata?.ownerReferences ?? [];
  const solid: OwnerReference[] = [], dangling: OwnerReference[] = [], waiting: OwnerReference[] = [];
  const why: string[] = [];
  for (const r of refs) {
    const owner = ownerOf(ctx, live, r);
    // A kind the collector cannot map: isDangling fails, and the item is retried, never deleted.
    if (!owner) return;
    const o = owner.found;
    if (!o || o.metadata?.uid !== r.uid) {
      dangling.push(r);
      why.push(o ? `${r.kind}/${r.name} has uid ${o.metadata?.uid}, not ${r.uid}` : `${r.kind}/${r.name} does not exist`);
    }
    else if (o.metadata?.deletionTimestamp && (o.metadata.finalizers ?? []).includes(FINALIZER_FOREGROUND) && r.blockOwnerDeletion) waiting.push(r);
    else solid.push(r);
  }
  if (dangling.length === 0) return;
  const client = new ControllerClient(api, GARBAGE_COLLECTOR, 'controllers.garbagecollector');
  const detail = { dangling: dangling.map((r) => ({ kind: r.kind, name: r.name, uid: r.uid })), solid: solid.map((r) => `${r.kind}/${r.name}`) };
  if (solid.length > 0) {
    // GenerateDeleteOwnerRefStrategicMergeBytes: the dangling and waiting references go, by uid.
    const uids = [...dangling, ...waiting].map((r) => r.uid);
    yield { phase: 'controllers.garbagecollector', object: ref(live), field: 'metadata.ownerReferences', result: `${why.join('; ')}, but ${solid.map((r) => `${r.kind}/${r.name}`).join(', ')} still owns it: removing the dangling reference`, detail };
    yield* client.patch(live, { metadata: { ownerReferences: uids.map((uid) => ({ $patch: 'delete', uid })), uid: live.metadata?.uid } });
    return;
  }
  if (waiting.length > 0) return;
  const finalizers = live.metadata?.finalizers ?? [];
  const policy: PropagationPolicy = finalizers.includes(FINALIZER_ORPHAN) ? 'Orphan' : finalizers.includes(FINALIZER_FOREGROUND) ? 'Foreground' : 'Background';
  yield { phase: 'controllers.garbagecollector', object: ref(live), field: 'metadata.ownerReferences', result: `no owner of it exists (${why.join('; ')}): deleting it (propagationPolicy ${policy})`, detail: { ...detail, propagationPolicy: policy } };
  yield* client.delete(live, { propagationPolicy: policy });
}

/**
 * processDeletingOwner works on an owner being deleted with a GC finalizer. Orphan: every dependent loses its
 * reference to the owner, then the finalizer goes. Foreground: dependents not yet deleted are deleted (Foreground
 * when they have dependents of their own, else Background); once no dependent with blockOwnerDeletion is left, the
 * finalizer goes and the API server removes the owner.
 */
export function* processDeletingOwner(ctx: EngineContext, api: ApiServer, stale: KubeObject): Steps<void> {
  const owner = ctx.store.get(String(stale.kind), stale.metadata?.namespace, stale.metadata?.name ?? '');
  if (!owner || owner.metadata?.uid !== stale.metadata?.uid || !owner.metadata?.deletionTimestamp) return;
  const client = new ControllerClient(api, GARBAGE_COLLECTOR, 'controllers.garbagecollector');
  const finalizers = owner.metadata.finalizers ?? [];
  const uid = owner.metadata.uid;
  if (finalizers.includes(FINALIZER_ORPHAN)) {
    for (const dep of dependentsOf(ctx, owner)) {
      yield { phase: 'controllers.garbagecollector', object: ref(dep), field: 'metadata.ownerReferences', result: `orphaning: removing the ownerReference to ${ref(owner)}`, detail: { owner: ref(owner) } };
      yield* client.patch(dep, { metadata: { ownerReferences: [{ $patch: 'delete', uid }], uid: dep.metadata?.uid } });
    }
    yield* removeFinalizer(ctx, client, owner, FINALIZER_ORPHAN, 'its dependents are orphaned');
    return;
  }
  if (!finalizers.includes(FINALIZER_FOREGROUND)) return;
  const dependents = dependentsOf(ctx, owner);
  for (const dep of dependents.filter((d) => !d.metadata?.deletionTimestamp)) {
    const policy: PropagationPolicy = dependentsOf(ctx, dep).length > 0 ? 'Foreground' : 'Background';
    yield { phase: 'controllers.garbagecollector', object: ref(dep), field: 'metadata.ownerReferences', result: `its owner ${ref(owner)} is deleted in the foreground: deleting it first (propagationPolicy ${policy})`, detail: { owner: ref(owner), propagationPolicy: policy } };
    yield* client.delete(dep, { propagationPolicy: policy });
  }
  const blocking = dependentsOf(ctx, owner).filter((d) => (d.metadata?.ownerReferences ?? []).some((r) => r.uid === uid && r.blockOwnerDeletion));
  if (blocking.length > 0) {
    yield { phase: 'controllers.garbagecollector', object: ref(owner), field: 'metadata.finalizers', result: `foreground deletion waits for ${blocking.length} dependent(s) with blockOwnerDeletion: ${blocking.map(ref).join(', ')}`, detail: { blocking: blocking.map(ref) }, outcome: 'waiting' };
    return;
  }
  yield* removeFinalizer(ctx, client, owner, FINALIZER_FOREGROUND, 'no blocking dependent is left');
}

function* removeFinalizer(ctx: EngineContext, client: ControllerClient, owner: KubeObject, finalizer: string, why: string): Steps<void> {
  const live = ctx.store.get(String(owner.kind), owner.metadata?.namespace, owner.metadata?.name ?? '');
  if (!live) return;
  yield { phase: 'controllers.garbagecollector', object: ref(live), field: 'metadata.finalizers', result: `removing the ${finalizer} finalizer: ${why}`, detail: { finalizer } };
  const copy = deepClone(live);
  copy.metadata = { ...copy.metadata, finalizers: (copy.metadata?.finalizers ?? []).filter((f) => f !== finalizer) };
  yield* client.update(copy);
}
