// The horizontal pod autoscaler's map of selectors (hpaSelectors): each autoscaler known to the controller with the
// selector of its target's scale as it last read it, so that a sync can tell whether its pods are also another
// autoscaler's. An autoscaler enters with labels.Nothing() when it is enqueued and leaves when it is deleted. See
// pkg/controller/podautoscaler/horizontal.go (enqueueHPA, deleteHPA, hpasControllingPodsUnderSelector) and
// pkg/controller/util/selectors/bimultimap.go at k8s.io/kubernetes v1.36.3.
import { NOTHING, type Selector, selectorMatches } from '../api/labels';
import type { Pod } from '../api/types';

/** HpaSelectors is the selectors.BiMultimap of autoscaler keys (`namespace/name`) to selectors, as the controller uses it. */
export class HpaSelectors {
  private readonly selectors = new Map<string, { namespace: string; selector: Selector }>();

  /** register is enqueueHPA's: an autoscaler not yet known enters with the Nothing selector, which selects no pod. */
  register(namespace: string, name: string): void {
    const key = `${namespace}/${name}`;
    if (!this.selectors.has(key)) this.selectors.set(key, { namespace, selector: NOTHING });
  }

  /** remove is deleteHPA's DeleteSelector. */
  remove(namespace: string, name: string): void {
    this.selectors.delete(`${namespace}/${name}`);
  }

  /** put is validateAndParseSelector's PutSelector: only an autoscaler registered by enqueueHPA takes its selector. */
  put(namespace: string, name: string, selector: Selector): void {
    const key = `${namespace}/${name}`;
    if (this.selectors.has(key)) this.selectors.set(key, { namespace, selector });
  }

  /**
   * controlling is hpasControllingPodsUnderSelector: the autoscalers of the pods' namespace whose selector matches one
   * of the pods, as `namespace/name` (selectors.Key's String). Go gathers them in a map, so their order varies from
   * sync to sync; here they are sorted. Each distinct label set is tested once, as the BiMultimap caches by labels.
   */
  controlling(pods: readonly Pod[]): string[] {
    const seen = new Set<string>();
    const out = new Set<string>();
    for (const pod of pods) {
      const labels = (pod.metadata?.labels ?? {}) as Record<string, string>;
      const namespace = pod.metadata?.namespace ?? 'default';
      const id = `${namespace}\u0000${JSON.stringify(Object.entries(labels).sort())}`;
      if (seen.has(id)) continue;
      seen.add(id);
      for (const [key, entry] of this.selectors) {
        if (entry.namespace === namespace && selectorMatches(entry.selector, labels)) out.add(key);
      }
    }
    return [...out].sort();
  }
}
