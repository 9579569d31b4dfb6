// What the summary trace keeps of a big run: every step of the first SUMMARY_PODS pods of each workload, and every
// step about any other object. A Deployment of 10,000 replicas goes through the same steps 10,000 times; the report
// keeps the story of its first pods and says how much it left out, which `--trace full` keeps.
import type { ObjectRef } from '../api/types';

/** SUMMARY_PODS is how many pods of each workload the summary trace keeps every step of. */
export const SUMMARY_PODS = 10;

/** TraceLeftOut is what the summary trace left out: the report's `traceLeftOut`. */
export interface TraceLeftOut {
  entries: number;
  pods: number;
  kept: string;
}

/**
 * TraceCut decides, entry by entry in the order of the trace, what the summary keeps. Pods are told apart by workload
 * by their names up to the last dash (`web-7d9f8c6b5-x2x4k` and `db-3` are pods of `web-7d9f8c6b5` and `db`): the
 * first SUMMARY_PODS of each keep every step, later ones none.
 */
export class TraceCut {
  private readonly perWorkload = new Map<string, number>();
  private readonly kept = new Set<string>();
  private readonly cut = new Set<string>();
  private leftOutEntries = 0;

  /** keeps tells whether the summary keeps an entry. */
  keeps(entry: { object?: ObjectRef }): boolean {
    const ref = entry.object;
    if (ref === undefined || !ref.startsWith('Pod/') || this.kept.has(ref)) return true;
    if (!this.cut.has(ref)) {
      // A name without a dash is a pod of its own.
      const dash = ref.lastIndexOf('-');
      const workload = dash > ref.lastIndexOf('/') ? ref.slice(0, dash) : ref;
      const seen = this.perWorkload.get(workload) ?? 0;
      if (seen < SUMMARY_PODS) {
        this.perWorkload.set(workload, seen + 1);
        this.kept.add(ref);
        return true;
      }
      this.cut.add(ref);
    }
    this.leftOutEntries++;
    return false;
  }

  /** isCut tells whether every later entry about an object is left out: a pod past its workload's first ones. */
  isCut(object: ObjectRef): boolean {
    return this.cut.has(object);
  }

  /** leftOut is what was left out so far; undefined when nothing was. */
  get leftOut(): TraceLeftOut | undefined {
    if (this.leftOutEntries === 0) return undefined;
    return {
      entries: this.leftOutEntries, pods: this.cut.size,
      kept: `every step of the first ${SUMMARY_PODS} pods of each workload and of every other object (--trace full keeps all)`,
    };
  }
}
