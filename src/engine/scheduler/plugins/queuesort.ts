// PrioritySort: the queue order, higher priority first, then the pod that entered the queue first.
// See pkg/scheduler/framework/plugins/queuesort/priority_sort.go.
import type { Pod } from '../../api/types';
import type { Plugin, QueuedPodInfo, QueueSortPlugin } from '../framework/interfaces';
import { Names } from './names';

/** Name is the plugin's name in profiles. */
export const Name = Names.PrioritySort;

/** podPriority is spec.priority, 0 when unset (corev1helpers.PodPriority). */
export function podPriority(pod: Pod): number {
  return pod.spec?.priority ?? 0;
}

/** PrioritySort orders the active queue by priority, then by queue time. */
export class PrioritySort implements QueueSortPlugin {
  readonly name = Name;

  /** less tells whether a comes before b. */
  less(a: QueuedPodInfo, b: QueuedPodInfo): boolean {
    const p1 = podPriority(a.pod);
    const p2 = podPriority(b.pod);
    return p1 > p2 || (p1 === p2 && a.timestamp < b.timestamp);
  }

  fieldPath(): string {
    return 'spec.priority';
  }
}

/** New builds the plugin. */
export function New(): Plugin {
  return new PrioritySort();
}
