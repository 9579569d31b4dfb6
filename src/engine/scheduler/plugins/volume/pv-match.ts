// Matching claims to volumes and nodes: PV node affinity, the smallest available PV that fits a claim, binding a PV to a
// claim, and StorageClass allowedTopologies. See component-helpers/storage/volume/pv_helpers.go and helpers.go,
// and pkg/apis/core/v1/helper/helpers.go (MatchTopologySelectorTerms).
import type { TopologySelectorTerm } from 'kubernetes-types/core/v1';
import {
  labelSelectorAsSelector, newRequirement, requirementMatches, SelectorError, selectorMatches, type Labels, type Selector,
} from '../../../api/labels';
import { matchesNodeSelectorTerms } from '../../../api/node-selector';
import { deepClone, type Node, type PersistentVolume, type PersistentVolumeClaim } from '../../../api/types';
import { Ann, claimClass, storageCapacity, storageRequest, volumeClass } from './claims';

/** PHASE_AVAILABLE is the phase of a PV that is free to bind (v1.VolumeAvailable). */
export const PHASE_AVAILABLE = 'Available';
const FILESYSTEM = 'Filesystem';

/** checkNodeAffinity tells whether node labels satisfy the PV's required node affinity (CheckNodeAffinity); no affinity fits all. */
export function checkNodeAffinity(pv: PersistentVolume, nodeLabels: Labels): boolean {
  const required = pv.spec?.nodeAffinity?.required;
  if (!required) return true;
  // Why: CheckNodeAffinity matches a Node that has only the labels, so matchFields on metadata.name never apply.
  const node: Node = { metadata: { labels: { ...(nodeLabels ?? {}) } } };
  return matchesNodeSelectorTerms(node, required.nodeSelectorTerms);
}

/** isVolumeBoundToClaim tells whether the PV's claimRef names the claim (and its uid, when the ref has one). */
export function isVolumeBoundToClaim(pv: PersistentVolume, pvc: PersistentVolumeClaim): boolean {
  const ref = pv.spec?.claimRef;
  if (!ref) return false;
  if (ref.name !== pvc.metadata?.name || ref.namespace !== pvc.metadata?.namespace) return false;
  return !ref.uid || ref.uid === pvc.metadata?.uid;
}

/** checkAccessModes tells whether the PV offers every access mode the claim asks for. */
export function checkAccessModes(pvc: PersistentVolumeClaim, pv: PersistentVolume): boolean {
  const offered = new Set(pv.spec?.accessModes ?? []);
  return (pvc.spec?.accessModes ?? []).every((m) => offered.has(m));
}

/** volumeModeMismatch tells whether claim and PV disagree on volumeMode (both default to Filesystem). */
export function volumeModeMismatch(pvc: PersistentVolumeClaim, pv: PersistentVolume): boolean {
  return (pvc.spec?.volumeMode ?? FILESYSTEM) !== (pv.spec?.volumeMode ?? FILESYSTEM);
}

/**
 * findMatchingVolume is FindMatchingVolume on the scheduler path (a node, delayed binding, VolumeAttributesClass on as it is
 * GA): a PV pre-bound to the claim wins if the node fits it; otherwise the smallest Available PV of the claim's class that is
 * big enough, matches the claim's selector, volume mode, attributes class, access modes and the node's labels. A claim
 * selector that does not parse throws, as FindMatchingVolume returns an error.
 */
export function findMatchingVolume(
  pvc: PersistentVolumeClaim,
  volumes: readonly PersistentVolume[],
  node: Node,
  excluded: ReadonlySet<string>,
): PersistentVolume | undefined {
  const requested = storageRequest(pvc);
  const requestedClass = claimClass(pvc);
  let selector: Selector | null = null;
  if (pvc.spec?.selector) {
    try {
      selector = labelSelectorAsSelector(pvc.spec.selector);
    } catch (err) {
      if (!(err instanceof SelectorError)) throw err;
      throw new Error(`error creating internal label selector for claim: ${pvc.metadata?.namespace ?? ''}/${pvc.metadata?.name ?? ''}: ${err.message}`);
    }
  }
  let smallest: PersistentVolume | undefined;
  for (const pv of volumes) {
    if (excluded.has(pv.metadata?.name ?? '')) continue;
    if (pv.spec?.claimRef && !isVolumeBoundToClaim(pv, pvc)) continue;
    const capacity = storageCapacity(pv);
    if (capacity.cmp(requested) < 0) continue;
    if (volumeModeMismatch(pvc, pv)) continue;
    if ((pvc.spec?.volumeAttributesClassName ?? '') !== (pv.spec?.volumeAttributesClassName ?? '')) continue;
    if (pv.metadata?.deletionTimestamp) continue;
    const nodeAffinityValid = checkNodeAffinity(pv, node.metadata?.labels);
    // A PV pre-bound to this claim is the answer, or none is when the node does not fit it.
    if (isVolumeBoundToClaim(pv, pvc)) return nodeAffinityValid ? pv : undefined;
    if (pv.status?.phase !== PHASE_AVAILABLE) continue;
    if (selector !== null && !selectorMatches(selector, pv.metadata?.labels)) continue;
    if (volumeClass(pv) !== requestedClass) continue;
    if (!nodeAffinityValid) continue;
    if (!checkAccessModes(pvc, pv)) continue;
    if (smallest === undefined || storageCapacity(smallest).cmp(capacity) > 0) smallest = pv;
  }
  return smallest;
}

/**
 * bindVolumeToClaim is GetBindVolumeToClaim: a copy of the PV with claimRef pointing at the claim and, when the controller
 * (not the user) made the binding, the bound-by-controller annotation; dirty tells whether anything changed.
 */
export function bindVolumeToClaim(pv: PersistentVolume, pvc: PersistentVolumeClaim): { pv: PersistentVolume; dirty: boolean } {
  const byController = !isVolumeBoundToClaim(pv, pvc);
  const clone = deepClone(pv);
  let dirty = false;
  const ref = pv.spec?.claimRef;
  const meta = pvc.metadata ?? {};
  if (!ref || ref.name !== meta.name || ref.namespace !== meta.namespace || (ref.uid ?? '') !== (meta.uid ?? '')) {
    clone.spec = { ...clone.spec, claimRef: claimReference(pvc) };
    dirty = true;
  }
  if (byController && clone.metadata?.annotations?.[Ann.BoundByController] === undefined) {
    clone.metadata = { ...clone.metadata, annotations: { ...clone.metadata?.annotations, [Ann.BoundByController]: 'yes' } };
    dirty = true;
  }
  return { pv: clone, dirty };
}

/** claimReference is reference.GetReference of a claim: kind, namespace, name, uid, apiVersion and resourceVersion. */
export function claimReference(pvc: PersistentVolumeClaim): NonNullable<NonNullable<PersistentVolume['spec']>['claimRef']> {
  const meta = pvc.metadata ?? {};
  const ref: NonNullable<NonNullable<PersistentVolume['spec']>['claimRef']> = { kind: 'PersistentVolumeClaim', namespace: meta.namespace ?? '', name: meta.name ?? '' };
  if (meta.uid) ref.uid = meta.uid;
  ref.apiVersion = 'v1';
  if (meta.resourceVersion) ref.resourceVersion = meta.resourceVersion;
  return ref;
}

/**
 * matchTopologySelectorTerms is MatchTopologySelectorTerms: no terms match every node; a term (its expressions ANDed, each
 * key In values) matches when the labels satisfy it; an empty or invalid term matches nothing.
 */
export function matchTopologySelectorTerms(terms: readonly TopologySelectorTerm[] | undefined, labels: Labels): boolean {
  if (!terms || terms.length === 0) return true;
  for (const term of terms) {
    const exprs = term.matchLabelExpressions ?? [];
    if (exprs.length === 0) continue;
    try {
      if (exprs.map((e) => newRequirement(e.key, 'in', e.values ?? [])).every((r) => requirementMatches(r, labels))) return true;
    } catch (err) {
      if (!(err instanceof SelectorError)) throw err;
    }
  }
  return false;
}
