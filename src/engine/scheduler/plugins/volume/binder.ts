// The scheduler's volume binder: sorts a pod's claims, finds per node the PVs to bind or the claims to provision, and
// assumes the choice until PreBind. See pkg/scheduler/framework/plugins/volumebinding/binder.go and assume_cache.go.
import type { CSIDriver, CSIStorageCapacity, StorageClass } from 'kubernetes-types/storage/v1';
import { labelSelectorAsSelector, selectorMatches, SelectorError } from '../../../api/labels';
import { parseQuantity } from '../../../api/quantity';
import { deepClone, type Node, type PersistentVolume, type PersistentVolumeClaim, type Pod } from '../../../api/types';
import type { Listers } from '../../framework/listers';
import {
  Ann, claimClass, claimKey, claimVolumes, isDelayBindingMode, isFullyBound, Kind, NOT_SUPPORTED_PROVISIONER, storageRequest, volumeClass,
  volumeIsForPod,
} from './claims';
import { bindVolumeToClaim, checkNodeAffinity, findMatchingVolume, matchTopologySelectorTerms } from './pv-match';

/** ConflictReason lists why a node cannot satisfy the pod's claims, in the order FindPodVolumes reports them. */
export const ConflictReason = {
  NodeConflict: 'node(s) had volume node affinity conflict',
  BindConflict: "node(s) didn't find available persistent volumes to bind",
  NotEnoughSpace: 'node(s) did not have enough free storage',
  PVNotExist: 'node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)',
} as const;

/** PodVolumeClaims is the pod's claims sorted by binding state, with the PVs of the delayed claims' classes (GetPodVolumeClaims). */
export interface PodVolumeClaims {
  boundClaims: PersistentVolumeClaim[];
  unboundClaimsDelayBinding: PersistentVolumeClaim[];
  unboundClaimsImmediate: PersistentVolumeClaim[];
  unboundVolumesDelayBinding: Map<string, PersistentVolume[]>;
}

/** BindingInfo is a claim and the pre-provisioned PV chosen for it. */
export interface BindingInfo {
  pvc: PersistentVolumeClaim;
  pv: PersistentVolume;
}

/** PodVolumes is what a node needs done for the pod: static bindings to existing PVs and claims to provision. */
export interface PodVolumes {
  staticBindings: BindingInfo[];
  dynamicProvisions: PersistentVolumeClaim[];
}

/** VolumeBindingError is an error of the binder; the plugin turns it into an Error status. */
export class VolumeBindingError extends Error {}

const rv = (o: { metadata?: { resourceVersion?: string } } | undefined): number => Number(o?.metadata?.resourceVersion ?? 0) || 0;

/**
 * AssumeCache overlays assumed objects on the lister's, as assumecache.AssumeCache does: an assumed object is shown until
 * restored or until the API object is newer than the one it was assumed from.
 */
class AssumeCache<T extends { metadata?: { resourceVersion?: string } }> {
  private readonly assumed = new Map<string, T>();

  /** latest returns the assumed object for a key, or the API one (which it also is when the API moved on). */
  latest(key: string, api: T | undefined): T | undefined {
    const a = this.assumed.get(key);
    if (a === undefined) return api;
    if (api === undefined || rv(api) > rv(a)) {
      this.assumed.delete(key);
      return api;
    }
    return a;
  }

  assume(key: string, obj: T): void {
    this.assumed.set(key, obj);
  }

  restore(key: string): void {
    this.assumed.delete(key);
  }
}

/** VolumeBinder finds, assumes and binds a pod's volumes; it reads the cluster through the framework's listers. */
export class VolumeBinder {
  private readonly pvCache = new AssumeCache<PersistentVolume>();
  private readonly pvcCache = new AssumeCache<PersistentVolumeClaim>();

  constructor(private readonly listers: () => Listers) {}

  /** getPVC is the PVC assume cache's view of a claim. */
  getPVC(namespace: string, name: string): PersistentVolumeClaim | undefined {
    return this.pvcCache.latest(claimKey(namespace, name), this.listers().get<PersistentVolumeClaim>(Kind.PersistentVolumeClaim, namespace, name));
  }

  /** getPV is the PV assume cache's view of a volume. */
  getPV(name: string): PersistentVolume | undefined {
    return this.pvCache.latest(name, this.listers().get<PersistentVolume>(Kind.PersistentVolume, undefined, name));
  }

  /** listPVs lists the PVs of a class, assumed ones included (PVAssumeCache.ListPVs). */
  listPVs(className: string): PersistentVolume[] {
    return this.listers().list<PersistentVolume>(Kind.PersistentVolume)
      .map((pv) => this.pvCache.latest(pv.metadata?.name ?? '', pv)!)
      .filter((pv) => volumeClass(pv) === className);
  }

  /** getPodVolumeClaims sorts the pod's claims: bound, unbound WaitForFirstConsumer, unbound immediate (pre-bound ones too). */
  getPodVolumeClaims(pod: Pod): PodVolumeClaims {
    const out: PodVolumeClaims = { boundClaims: [], unboundClaimsDelayBinding: [], unboundClaimsImmediate: [], unboundVolumesDelayBinding: new Map() };
    const ns = pod.metadata?.namespace ?? '';
    for (const cv of claimVolumes(pod)) {
      const pvc = this.getPVC(ns, cv.claimName);
      // Why: assumecache.NotFoundError reads `could not find <type> "<key>"`; PreFilter looked the claim up already.
      const key = claimKey(ns, cv.claimName);
      if (!pvc) throw new VolumeBindingError(`error getting PVC "${key}": could not find v1.PersistentVolumeClaim "${key}"`);
      if (cv.ephemeral) {
        const err = volumeIsForPod(pod, pvc);
        if (err) throw new VolumeBindingError(err);
      }
      if (isFullyBound(pvc)) out.boundClaims.push(pvc);
      else if (isDelayBindingMode(pvc, this.listers()) && (pvc.spec?.volumeName ?? '') === '') out.unboundClaimsDelayBinding.push(pvc);
      else out.unboundClaimsImmediate.push(pvc);
    }
    for (const pvc of out.unboundClaimsDelayBinding) {
      const className = claimClass(pvc);
      out.unboundVolumesDelayBinding.set(className, this.listPVs(className));
    }
    return out;
  }

  /** findPodVolumes checks the pod's claims against one node and returns what binding them there takes, or why it cannot. */
  findPodVolumes(claims: PodVolumeClaims, node: Node): { podVolumes: PodVolumes; reasons: string[] } {
    const podVolumes: PodVolumes = { staticBindings: [], dynamicProvisions: [] };
    let boundSatisfied = true;
    let boundPVsFound = true;
    let unboundSatisfied = true;
    let sufficientStorage = true;
    const reasons = (): string[] => {
      const r: string[] = [];
      if (!boundSatisfied) r.push(ConflictReason.NodeConflict);
      if (!unboundSatisfied) r.push(ConflictReason.BindConflict);
      if (!sufficientStorage) r.push(ConflictReason.NotEnoughSpace);
      if (!boundPVsFound) r.push(ConflictReason.PVNotExist);
      return r;
    };
    if (claims.boundClaims.length > 0) ({ boundSatisfied, boundPVsFound } = this.checkBoundClaims(claims.boundClaims, node));
    if (claims.unboundClaimsDelayBinding.length === 0) return { podVolumes, reasons: reasons() };
    const toMatch: PersistentVolumeClaim[] = [];
    const toProvision: PersistentVolumeClaim[] = [];
    for (const pvc of claims.unboundClaimsDelayBinding) {
      const selected = pvc.metadata?.annotations?.[Ann.SelectedNode];
      if (selected === undefined) toMatch.push(pvc);
      else if (selected !== node.metadata?.name) {
        // A claim already being provisioned for another node: fast path.
        unboundSatisfied = false;
        return { podVolumes, reasons: reasons() };
      } else toProvision.push(pvc);
    }
    if (toMatch.length > 0) {
      const found = this.findMatchingVolumes(toMatch, claims.unboundVolumesDelayBinding, node);
      unboundSatisfied = found.foundMatches;
      podVolumes.staticBindings = found.bindings;
      toProvision.push(...found.unbound);
    }
    if (toProvision.length > 0) {
      const prov = this.checkVolumeProvisions(toProvision, node);
      unboundSatisfied = prov.satisfied;
      sufficientStorage = prov.sufficientStorage;
      podVolumes.dynamicProvisions = prov.provisions;
    }
    return { podVolumes, reasons: reasons() };
  }

  /** checkBoundClaims checks the bound PVs' node affinity; the first missing PV or mismatch ends the check. */
  private checkBoundClaims(claims: readonly PersistentVolumeClaim[], node: Node): { boundSatisfied: boolean; boundPVsFound: boolean } {
    for (const pvc of claims) {
      const pv = this.getPV(pvc.spec?.volumeName ?? '');
      if (!pv) return { boundSatisfied: true, boundPVsFound: false };
      // Why: in-tree PVs migrated to CSI (tryTranslatePVToCSI) would get the CSI driver's topology; not simulated.
      if (!checkNodeAffinity(pv, node.metadata?.labels)) return { boundSatisfied: false, boundPVsFound: true };
    }
    return { boundSatisfied: true, boundPVsFound: true };
  }

  /** findMatchingVolumes gives each claim, smallest request first, the smallest fitting PV not chosen yet. */
  private findMatchingVolumes(claims: readonly PersistentVolumeClaim[], pvsByClass: ReadonlyMap<string, PersistentVolume[]>, node: Node):
    { foundMatches: boolean; bindings: BindingInfo[]; unbound: PersistentVolumeClaim[] } {
    // Why: sort.Sort(byPVCSize) is an insertion sort for so few claims, hence stable.
    const sorted = [...claims].sort((a, b) => storageRequest(a).cmp(storageRequest(b)));
    const chosen = new Set<string>();
    const bindings: BindingInfo[] = [];
    const unbound: PersistentVolumeClaim[] = [];
    for (const pvc of sorted) {
      const pv = findMatchingVolume(pvc, pvsByClass.get(claimClass(pvc)) ?? [], node, chosen);
      if (!pv) {
        unbound.push(pvc);
        continue;
      }
      chosen.add(pv.metadata?.name ?? '');
      bindings.push({ pv, pvc });
    }
    return { foundMatches: unbound.length === 0, bindings, unbound };
  }

  /** checkVolumeProvisions tells whether every remaining claim's class can provision on the node, capacity included. */
  private checkVolumeProvisions(claims: readonly PersistentVolumeClaim[], node: Node):
    { satisfied: boolean; sufficientStorage: boolean; provisions: PersistentVolumeClaim[] } {
    const provisions: PersistentVolumeClaim[] = [];
    for (const pvc of claims) {
      const className = claimClass(pvc);
      const key = claimKey(pvc.metadata?.namespace ?? '', pvc.metadata?.name ?? '');
      if (className === '') throw new VolumeBindingError(`no class for claim "${key}"`);
      const sc = this.listers().get<StorageClass>(Kind.StorageClass, undefined, className);
      if (!sc) throw new VolumeBindingError(`failed to find storage class "${className}"`);
      if (!sc.provisioner || sc.provisioner === NOT_SUPPORTED_PROVISIONER) return { satisfied: false, sufficientStorage: true, provisions: [] };
      if (!matchTopologySelectorTerms(sc.allowedTopologies, node.metadata?.labels)) return { satisfied: false, sufficientStorage: true, provisions: [] };
      if (!this.hasEnoughCapacity(sc, pvc, node)) return { satisfied: true, sufficientStorage: false, provisions: [] };
      provisions.push(pvc);
    }
    return { satisfied: true, sufficientStorage: true, provisions };
  }

  /** hasEnoughCapacity checks CSIStorageCapacity for drivers that opted in (CSIDriver spec.storageCapacity). */
  private hasEnoughCapacity(sc: StorageClass, pvc: PersistentVolumeClaim, node: Node): boolean {
    if (pvc.spec?.resources?.requests?.['storage'] === undefined) return true;
    const driver = this.listers().get<CSIDriver>(Kind.CSIDriver, undefined, sc.provisioner);
    if (!driver || driver.spec?.storageCapacity !== true) return true;
    const size = storageRequest(pvc);
    return this.listers().list<CSIStorageCapacity>(Kind.CSIStorageCapacity).some((cap) => {
      const limit = cap.maximumVolumeSize ?? cap.capacity;
      if (cap.storageClassName !== sc.metadata?.name || limit === undefined || parseQuantity(limit).cmp(size) < 0) return false;
      if (!cap.nodeTopology) return false;
      try {
        return selectorMatches(labelSelectorAsSelector(cap.nodeTopology), node.metadata?.labels);
      } catch (err) {
        if (err instanceof SelectorError) return false;
        throw err;
      }
    });
  }

  /** arePodVolumesBound tells whether every claim of the pod is fully bound already. */
  arePodVolumesBound(pod: Pod): boolean {
    const ns = pod.metadata?.namespace ?? '';
    return claimVolumes(pod).every((cv) => {
      const pvc = this.getPVC(ns, cv.claimName);
      return pvc !== undefined && isFullyBound(pvc) && (!cv.ephemeral || volumeIsForPod(pod, pvc) === undefined);
    });
  }

  /** assumePodVolumes assumes the PVs bound to their claims and the claims to provision annotated with the node; true when all are bound. */
  assumePodVolumes(pod: Pod, nodeName: string, podVolumes: PodVolumes): boolean {
    if (this.arePodVolumesBound(pod)) return true;
    podVolumes.staticBindings = podVolumes.staticBindings.map((b) => {
      const { pv, dirty } = bindVolumeToClaim(b.pv, b.pvc);
      if (dirty) this.pvCache.assume(pv.metadata?.name ?? '', pv);
      return { pv, pvc: b.pvc };
    });
    podVolumes.dynamicProvisions = podVolumes.dynamicProvisions.map((pvc) => {
      const clone = deepClone(pvc);
      clone.metadata = { ...clone.metadata, annotations: { ...clone.metadata?.annotations, [Ann.SelectedNode]: nodeName } };
      this.pvcCache.assume(claimKey(clone.metadata.namespace ?? '', clone.metadata.name ?? ''), clone);
      return clone;
    });
    return false;
  }

  /** revertAssumedPodVolumes forgets what assumePodVolumes assumed. */
  revertAssumedPodVolumes(podVolumes: PodVolumes): void {
    for (const b of podVolumes.staticBindings) this.pvCache.restore(b.pv.metadata?.name ?? '');
    for (const pvc of podVolumes.dynamicProvisions) this.pvcCache.restore(claimKey(pvc.metadata?.namespace ?? '', pvc.metadata?.name ?? ''));
  }
}
