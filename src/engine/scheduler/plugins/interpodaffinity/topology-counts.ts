// TopologyCounts: a count per topology pair (label key and value), as InterPodAffinity's topologyToMatchedTermCount.
// See pkg/scheduler/framework/plugins/interpodaffinity/filtering.go.
import type { Labels } from '../../../api/labels';
import type { Node } from '../../../api/types';

/** TopologyCounts maps a topology key, then a value, to a count; a pair whose count drops to 0 is removed. */
export class TopologyCounts {
  private readonly byKey = new Map<string, Map<string, number>>();
  /** size is the number of pairs, as len() of Go's map. */
  size = 0;

  /** get is the count of a pair, 0 when absent. */
  get(key: string, value: string): number {
    return this.byKey.get(key)?.get(value) ?? 0;
  }

  /** add changes a pair's count; a pair that reaches 0 is deleted. */
  add(key: string, value: string, delta: number): void {
    let values = this.byKey.get(key);
    if (!values) this.byKey.set(key, (values = new Map()));
    const before = values.get(value);
    const after = (before ?? 0) + delta;
    if (after === 0) {
      if (before !== undefined) {
        values.delete(value);
        this.size--;
      }
      return;
    }
    if (before === undefined) this.size++;
    values.set(value, after);
  }

  /** update adds to the pair of the node's value of the key, when the node has the key. */
  update(node: Node, key: string, delta: number): void {
    const labels = node.metadata?.labels;
    if (labels && Object.hasOwn(labels, key)) this.add(key, labels[key]!, delta);
  }

  /** anyPositive tells whether any pair the labels hold has a count above 0. */
  anyPositive(labels: Labels): boolean {
    if (!labels) return false;
    for (const [key, values] of this.byKey) {
      if (!Object.hasOwn(labels, key)) continue;
      if ((values.get(labels[key]!) ?? 0) > 0) return true;
    }
    return false;
  }

  /** clone copies the counts. */
  clone(): TopologyCounts {
    const copy = new TopologyCounts();
    for (const [key, values] of this.byKey) copy.byKey.set(key, new Map(values));
    copy.size = this.size;
    return copy;
  }

  /** toJSON lists the pairs as "key=value": count, for the trace. */
  toJSON(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [key, values] of this.byKey) for (const [value, count] of values) out[`${key}=${value}`] = count;
    return out;
  }
}
