// NodeInfo: a node with the pods on it and their precomputed requests and affinity terms, as the scheduler cache keeps it.
// See pkg/scheduler/framework/types.go (NodeInfo, PodInfo.CalculateResource, AffinityTerm).
import type { PodAffinityTerm, WeightedPodAffinityTerm } from 'kubernetes-types/core/v1';
import { labelSelectorAsSelector, selectorMatches, SelectorError, type Labels, type Selector } from '../../api/labels';
import type { Node, Pod } from '../../api/types';
import { getHostPorts, HostPortInfo } from './host-ports';
import { isPodLevelRequestsSet, NON_ZERO_DEFAULTS, podRequests, resourceListOf } from './pod-resources';
import { addList, addResource, newResource, ResourceName, valueOf, type Resource, type ResourceList } from './resource';

/** ImageStateSummary is an image on a node: its size and how many nodes of the cluster have it. */
export interface ImageStateSummary {
  size: number;
  numNodes: number;
}

/** PodInfo is a pod with what the scheduler computes once for it: requests, non-zero requests, host ports, priority. */
export class PodInfo {
  /** pod is the pod as last seen; a newer version that changes nothing the PodInfo reads replaces it (NodeInfo.updatePod). */
  pod: Pod;
  /** requested is the pod's effective requests (podRequests). */
  readonly requested: Resource;
  /** non0CPU is the milli-CPU the pod counts for when scoring: 100m per container that sets no cpu request. */
  readonly non0CPU: number;
  /** non0Mem is the memory the pod counts for when scoring: 200Mi per container that sets no memory request. */
  readonly non0Mem: number;

  constructor(pod: Pod) {
    this.pod = pod;
    const requests = podRequests(pod);
    this.requested = newResource();
    addList(this.requested, requests);
    const non0 = nonZeroRequests(pod, requests);
    this.non0CPU = non0.get(ResourceName.CPU) ?? 0;
    this.non0Mem = valueOf(ResourceName.Memory, non0.get(ResourceName.Memory) ?? 0);
  }

  /** priority is spec.priority, 0 when unset (corev1helpers.PodPriority). */
  get priority(): number {
    return this.pod.spec?.priority ?? 0;
  }

  private parsedAffinity: PodAffinityTerms | undefined;

  /**
   * affinity is the pod's inter-pod (anti-)affinity terms, parsed once; a list with a parse error is left empty, as
   * PodInfo.Update does. Pods with the same affinity in the same namespace (a workload's replicas) share the parsed terms.
   */
  get affinity(): PodAffinityTerms {
    return (this.parsedAffinity ??= internedAffinityTerms(this.pod));
  }
}

/** AffinityTerm is a pod (anti-)affinity term with its selectors parsed (framework.AffinityTerm). */
export interface AffinityTerm {
  /** namespaces are the namespaces named by the term, or the pod's own when it names none and has no namespaceSelector. */
  readonly namespaces: ReadonlySet<string>;
  readonly selector: Selector;
  readonly topologyKey: string;
  /** namespaceSelector is NOTHING when the term has none. */
  readonly namespaceSelector: Selector;
}

/** WeightedAffinityTerm is a preferred term with its weight. */
export interface WeightedAffinityTerm extends AffinityTerm {
  readonly weight: number;
}

/** PodAffinityTerms are a pod's four lists of inter-pod terms and the errors met parsing them. */
export interface PodAffinityTerms {
  readonly requiredAffinityTerms: readonly AffinityTerm[];
  readonly requiredAntiAffinityTerms: readonly AffinityTerm[];
  readonly preferredAffinityTerms: readonly WeightedAffinityTerm[];
  readonly preferredAntiAffinityTerms: readonly WeightedAffinityTerm[];
  /** parseErrors are "requiredAffinityTerms: <error>" and the like, one per list that failed. */
  readonly parseErrors: readonly string[];
}

/** affinityTermMatches is AffinityTerm.Matches: the pod's namespace is named (or its labels match the namespaceSelector) and its labels match the selector. */
export function affinityTermMatches(term: AffinityTerm, pod: Pod, nsLabels: Labels): boolean {
  if (term.namespaces.has(pod.metadata?.namespace ?? '') || selectorMatches(term.namespaceSelector, nsLabels)) {
    return selectorMatches(term.selector, pod.metadata?.labels);
  }
  return false;
}

/** newAffinityTerm parses one term; it throws SelectorError for a bad selector. */
function newAffinityTerm(pod: Pod, term: PodAffinityTerm): AffinityTerm {
  const selector = labelSelectorAsSelector(term.labelSelector);
  // Why: getNamespacesFromPodAffinityTerm — no namespaces and no namespaceSelector means the pod's own namespace.
  const namespaces = new Set<string>(
    (term.namespaces?.length ?? 0) === 0 && term.namespaceSelector == null ? [pod.metadata?.namespace ?? ''] : term.namespaces ?? [],
  );
  const namespaceSelector = labelSelectorAsSelector(term.namespaceSelector);
  return { namespaces, selector, topologyKey: term.topologyKey, namespaceSelector };
}

/** parseList parses a list of terms; the first bad one empties the list and records an error, as GetAffinityTerms does. */
function parseList<T, R>(name: string, terms: readonly T[] | undefined, parse: (t: T) => R, errors: string[]): R[] {
  try {
    return (terms ?? []).map(parse);
  } catch (err) {
    if (!(err instanceof SelectorError)) throw err;
    errors.push(`${name}: ${err.message}`);
    return [];
  }
}

/** parsePodAffinityTerms parses a pod's required and preferred pod affinity and anti-affinity terms (PodInfo.Update). */
export function parsePodAffinityTerms(pod: Pod): PodAffinityTerms {
  const affinity = pod.spec?.affinity;
  const errors: string[] = [];
  const weighted = (t: WeightedPodAffinityTerm): WeightedAffinityTerm => ({ ...newAffinityTerm(pod, t.podAffinityTerm), weight: t.weight });
  const required = (t: PodAffinityTerm): AffinityTerm => newAffinityTerm(pod, t);
  return {
    requiredAffinityTerms: parseList('requiredAffinityTerms', affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution, required, errors),
    requiredAntiAffinityTerms: parseList('requiredAntiAffinityTerms', affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution, required, errors),
    preferredAffinityTerms: parseList('preferredAffinityTerms', affinity?.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution, weighted, errors),
    preferredAntiAffinityTerms: parseList('preferredAntiAffinityTerms', affinity?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution, weighted, errors),
    parseErrors: errors,
  };
}

const NO_TERMS: PodAffinityTerms = Object.freeze({
  requiredAffinityTerms: [], requiredAntiAffinityTerms: [], preferredAffinityTerms: [], preferredAntiAffinityTerms: [], parseErrors: [],
});
/** MAX_INTERNED bounds the cache of parsed terms; it starts over when full. */
const MAX_INTERNED = 4096;
const interned = new Map<string, PodAffinityTerms>();

/** parsedByPod keeps the parsed terms of each (immutable) pod object across snapshots. */
const parsedByPod = new WeakMap<Pod, PodAffinityTerms>();

/** internedAffinityTerms parses a pod's terms, reusing the terms of an earlier pod with the same affinity in the same namespace. */
function internedAffinityTerms(pod: Pod): PodAffinityTerms {
  const a = pod.spec?.affinity;
  if (a?.podAffinity == null && a?.podAntiAffinity == null) return NO_TERMS;
  const cached = parsedByPod.get(pod);
  if (cached) return cached;
  const key = `${pod.metadata?.namespace ?? ''}\u0000${JSON.stringify(a.podAffinity ?? null)}\u0000${JSON.stringify(a.podAntiAffinity ?? null)}`;
  let terms = interned.get(key);
  if (!terms) {
    if (interned.size >= MAX_INTERNED) interned.clear();
    terms = parsePodAffinityTerms(pod);
    interned.set(key, terms);
  }
  parsedByPod.set(pod, terms);
  return terms;
}

/** podWithAffinity tells whether a pod has pod affinity or anti-affinity at all (NodeInfo.PodsWithAffinity). */
export function podWithAffinity(pod: Pod): boolean {
  const a = pod.spec?.affinity;
  return a != null && (a.podAffinity != null || a.podAntiAffinity != null);
}

/** podWithRequiredAntiAffinity tells whether a pod has required anti-affinity terms (NodeInfo.PodsWithRequiredAntiAffinity). */
export function podWithRequiredAntiAffinity(pod: Pod): boolean {
  return (pod.spec?.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.length ?? 0) !== 0;
}

/** nonZeroRequests adds the scoring defaults to a pod's requests; with pod-level requests only where both levels are silent. */
function nonZeroRequests(pod: Pod, requests: ResourceList): ResourceList {
  let nonMissing = NON_ZERO_DEFAULTS;
  if (isPodLevelRequestsSet(pod)) {
    nonMissing = new Map([...NON_ZERO_DEFAULTS].filter(([name]) => !requests.has(name)));
  }
  return nonMissing.size > 0 ? podRequests(pod, { nonMissingContainerRequests: nonMissing }) : requests;
}

/** NodeInfo is one node with the pods on it, their summed requests, the ports they use and the node's allocatable. */
export class NodeInfo {
  readonly node: Node;
  readonly name: string;
  // The fields a scoring cycle reads on each of hundreds of nodes come first, so that they share the node's first
  // cache line: a cycle that visits 500 nodes of 5,000 finds few of them in the cache.
  /** counted keeps counts over the node's pods by what was counted, until a pod comes or goes. */
  private counted: Map<string, number> | undefined;
  private lastCounted = '';
  private lastCount = 0;
  readonly pods: PodInfo[] = [];
  /** podsWithAffinity are the pods with pod affinity or anti-affinity of any kind (InterPodAffinity's scoring reads them). */
  readonly podsWithAffinity: PodInfo[] = [];
  /** podsWithRequiredAntiAffinity are the pods with required anti-affinity terms (InterPodAffinity's filter reads them). */
  readonly podsWithRequiredAntiAffinity: PodInfo[] = [];
  /** requested is the sum of the pods' requests. */
  readonly requested: Resource = newResource();
  /** nonZeroRequested is the sum of the pods' requests with the scoring defaults (cpu and memory only). */
  readonly nonZeroRequested: Resource = newResource();
  /** allocatable is node.status.allocatable. */
  readonly allocatable: Resource;
  readonly usedPorts = new HostPortInfo();
  /** labelIndex finds the node's pods by label, built on first use and kept up to date from then on. */
  private labelIndex: PodLabelIndex | undefined;
  /** imageStates maps an image name of node.status.images to its size and spread. */
  imageStates: ReadonlyMap<string, ImageStateSummary> = new Map();

  constructor(node: Node, allocatable?: Resource) {
    this.node = node;
    this.name = node.metadata?.name ?? '';
    if (allocatable) {
      this.allocatable = allocatable;
    } else {
      this.allocatable = newResource();
      addList(this.allocatable, resourceListOf(node.status?.allocatable));
    }
  }

  /** addPod accounts a pod on the node. */
  addPod(pi: PodInfo): void {
    this.counted = undefined;
    this.pods.push(pi);
    if (podWithAffinity(pi.pod)) this.podsWithAffinity.push(pi);
    if (podWithRequiredAntiAffinity(pi.pod)) this.podsWithRequiredAntiAffinity.push(pi);
    this.labelIndex?.add(pi);
    this.update(pi, 1);
  }

  /** removePod forgets a pod by uid (or namespace/name); it returns the node's PodInfo of it, if it was there. */
  removePod(pod: Pod): PodInfo | undefined {
    const i = this.pods.findIndex((p) => samePod(p.pod, pod));
    if (i < 0) return undefined;
    const [pi] = this.pods.splice(i, 1);
    this.counted = undefined;
    for (const list of [this.podsWithAffinity, this.podsWithRequiredAntiAffinity]) {
      const j = list.indexOf(pi!);
      if (j >= 0) list.splice(j, 1);
    }
    this.labelIndex?.remove(pi!);
    this.update(pi!, -1);
    return pi;
  }

  /**
   * updatePod takes a newer version of a pod on the node in place of the old one when all that the node's accounts read
   * of it is the same: the same spec and labels objects (a status write keeps them, stored objects being frozen), the
   * same namespace and deletion timestamp. Its requests, ports, affinity, label index entries and the counts kept over
   * the node's pods all stay as they are. False when it is not there or changed more (remove it and add it again).
   */
  updatePod(old: Pod, pod: Pod): boolean {
    if (!sameAccounts(old, pod)) return false;
    const pi = this.pods.find((p) => samePod(p.pod, pod));
    if (!pi || !sameAccounts(pi.pod, pod)) return false;
    pi.pod = pod;
    return true;
  }

  /**
   * podsMatching returns the node's pods a selector may match: those with the label value (or values) of its most
   * selective `=`/`in` requirement, or all pods when it has none. Callers still check the whole selector and namespace.
   */
  podsMatching(selector: Selector): readonly PodInfo[] {
    if (selector.nothing) return NO_PODS;
    return (this.labelIndex ??= new PodLabelIndex(this.pods)).candidates(selector) ?? this.pods;
  }

  /**
   * countedFor returns a count over the node's pods kept under `key` (keepCount) since a pod was last added or
   * removed: a scheduling cycle that counts the pods matching a selector on every node of the cluster recounts only
   * the nodes whose pods changed since the last cycle. Undefined when there is none to reuse.
   */
  countedFor(key: string): number | undefined {
    if (this.counted === undefined) return undefined;
    // Most cycles count one selector (one workload's pods): the last count is kept beside the map.
    if (this.lastCounted === key) return this.lastCount;
    const n = this.counted.get(key);
    if (n !== undefined) {
      this.lastCounted = key;
      this.lastCount = n;
    }
    return n;
  }

  /** keepCount keeps a count over the node's pods under `key` until a pod comes or goes, and returns it. */
  keepCount(key: string, n: number): number {
    (this.counted ??= new Map()).set(key, n);
    this.lastCounted = key;
    this.lastCount = n;
    return n;
  }

  /** without returns a NodeInfo of the same node without some pods, sharing the node's fixed data (used by preemption). */
  without(drop: (pi: PodInfo) => boolean): NodeInfo {
    const copy = new NodeInfo(this.node, this.allocatable);
    copy.imageStates = this.imageStates;
    for (const pi of this.pods) if (!drop(pi)) copy.addPod(pi);
    return copy;
  }

  private update(pi: PodInfo, sign: 1 | -1): void {
    addResource(this.requested, pi.requested, sign);
    this.nonZeroRequested.milliCPU += sign * pi.non0CPU;
    this.nonZeroRequested.memory += sign * pi.non0Mem;
    for (const p of getHostPorts(pi.pod)) {
      if (sign > 0) this.usedPorts.add(p.hostIP, p.protocol, p.hostPort);
      else this.usedPorts.remove(p.hostIP, p.protocol, p.hostPort);
    }
  }
}

const NO_PODS: readonly PodInfo[] = Object.freeze([]);

/** PodLabelIndex lists pods by label key and value. */
class PodLabelIndex {
  private readonly byKey = new Map<string, Map<string, PodInfo[]>>();

  constructor(pods: readonly PodInfo[]) {
    for (const pi of pods) this.add(pi);
  }

  add(pi: PodInfo): void {
    const labels = pi.pod.metadata?.labels;
    for (const key in labels) {
      let values = this.byKey.get(key);
      if (!values) this.byKey.set(key, (values = new Map()));
      const value = labels[key]!;
      const list = values.get(value);
      if (list) list.push(pi);
      else values.set(value, [pi]);
    }
  }

  remove(pi: PodInfo): void {
    const labels = pi.pod.metadata?.labels;
    for (const key in labels) {
      const list = this.byKey.get(key)?.get(labels[key]!);
      const i = list ? list.indexOf(pi) : -1;
      if (i >= 0) list!.splice(i, 1);
    }
  }

  /** candidates are the pods of the selector's most selective equality requirement, or undefined when it has none. */
  candidates(selector: Selector): readonly PodInfo[] | undefined {
    let best: readonly PodInfo[] | undefined;
    const requirements = selector.requirements;
    for (let i = 0; i < requirements.length; i++) {
      const r = requirements[i]!;
      if (r.operator !== '=' && r.operator !== '==' && r.operator !== 'in') continue;
      const values = this.byKey.get(r.key);
      let found: readonly PodInfo[];
      if (values === undefined) return NO_PODS;
      else if (r.values.length === 1) found = values.get(r.values[0]!) ?? NO_PODS;
      else found = r.values.flatMap((v) => values.get(v) ?? NO_PODS);
      if (found.length === 0) return NO_PODS;
      if (best === undefined || found.length < best.length) best = found;
    }
    return best;
  }
}

/** sameAccounts tells two versions of a pod whose every field a NodeInfo reads to account it are the same objects. */
function sameAccounts(a: Pod, b: Pod): boolean {
  const ma = a.metadata;
  const mb = b.metadata;
  return a.spec === b.spec && ma?.labels === mb?.labels && ma?.namespace === mb?.namespace && ma?.deletionTimestamp === mb?.deletionTimestamp
    && ma?.uid === mb?.uid && ma?.name === mb?.name;
}

function samePod(a: Pod, b: Pod): boolean {
  if (a.metadata?.uid && b.metadata?.uid) return a.metadata.uid === b.metadata.uid;
  return a.metadata?.namespace === b.metadata?.namespace && a.metadata?.name === b.metadata?.name;
}
