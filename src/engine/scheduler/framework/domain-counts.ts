// DomainCounts: the pods of a namespace a selector matches, summed per value of a node label over the whole cluster and
// kept up to date pod by pod. PodTopologySpread's PreScore sums exactly this over every node of the snapshot each cycle
// (pkg/scheduler/framework/plugins/podtopologyspread/scoring.go, PreScore's processAllNode); the scheduler here keeps
// the sums instead, so a cycle costs the domains it reads, not the cluster's nodes. The numbers are the same.
import { selectorMatches, type Labels, type Selector } from '../../api/labels';
import type { Pod } from '../../api/types';
import type { NodeInfo } from './node-info';

/** MAX_COUNTERS bounds the sums kept: the least recently read go first (each is rebuilt from the nodes when read again). */
const MAX_COUNTERS = 64;

/** Counter is one kept sum: per domain (the node label's value, "" without it), the matching pods. */
interface Counter {
  readonly topologyKey: string;
  /** requiredKeys are the labels a node must all have to count at all (PreScore's requireAllTopologies). */
  readonly requiredKeys: readonly string[];
  readonly selector: Selector;
  readonly namespace: string;
  readonly perDomain: Map<string, number>;
}

/** DomainCounts keeps Counters by key; the snapshot tells it of every pod it accounts or forgets. */
export class DomainCounts {
  private readonly counters = new Map<string, Counter>();

  /**
   * sums returns, per domain of `topologyKey`, the non-terminating pods of `namespace` matching `selector` on the nodes
   * that have every label of `requiredKeys`. `key` names the selector and namespace (the caller's count key).
   */
  sums(nodes: readonly NodeInfo[], key: string, topologyKey: string, requiredKeys: readonly string[], selector: Selector, namespace: string): ReadonlyMap<string, number> {
    const full = `${topologyKey}\u0000${requiredKeys.join('\u0000')}\u0000\u0000${key}`;
    let counter = this.counters.get(full);
    if (counter) {
      // Map order is insertion order: re-inserting marks it most recently read.
      this.counters.delete(full);
    } else {
      counter = { topologyKey, requiredKeys, selector, namespace, perDomain: new Map() };
      for (const ni of nodes) for (const pi of ni.pods) count(counter, ni, pi.pod, 1);
      if (this.counters.size >= MAX_COUNTERS) this.counters.delete(this.counters.keys().next().value!);
    }
    this.counters.set(full, counter);
    return counter.perDomain;
  }

  /** podAdded counts a pod the snapshot put on a node. */
  podAdded(ni: NodeInfo, pod: Pod): void {
    for (const counter of this.counters.values()) count(counter, ni, pod, 1);
  }

  /** podRemoved counts out a pod the snapshot took off a node. */
  podRemoved(ni: NodeInfo, pod: Pod): void {
    for (const counter of this.counters.values()) count(counter, ni, pod, -1);
  }
}

function count(counter: Counter, ni: NodeInfo, pod: Pod, delta: 1 | -1): void {
  const meta = pod.metadata;
  // Terminating pods do not count (#87621), as countPodsMatchSelector leaves them out.
  if (meta?.deletionTimestamp || (meta?.namespace ?? '') !== counter.namespace) return;
  const labels: Labels = ni.node.metadata?.labels;
  for (const k of counter.requiredKeys) if (labels == null || !Object.hasOwn(labels, k)) return;
  if (!selectorMatches(counter.selector, meta?.labels)) return;
  const value = labels != null && Object.hasOwn(labels, counter.topologyKey) ? labels[counter.topologyKey]! : '';
  counter.perDomain.set(value, (counter.perDomain.get(value) ?? 0) + delta);
}
