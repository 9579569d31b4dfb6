// SchedulingGates: a pod with scheduling gates does not enter the active queue until they are all removed.
// See pkg/scheduler/framework/plugins/schedulinggates/scheduling_gates.go.
import type { Pod } from '../../api/types';
import type { Plugin, PreEnqueuePlugin } from '../framework/interfaces';
import { Code, newStatus, type PluginStatus } from '../framework/status';
import { Names } from './names';

/** Name is the plugin's name in profiles. */
export const Name = Names.SchedulingGates;

/** SchedulingGates keeps gated pods out of the active queue. */
export class SchedulingGates implements PreEnqueuePlugin {
  readonly name = Name;

  /** preEnqueue rejects a pod that still has gates, naming them as Go prints a []string. */
  preEnqueue(pod: Pod): PluginStatus {
    const gates = pod.spec?.schedulingGates ?? [];
    if (gates.length === 0) return null;
    return newStatus(Code.UnschedulableAndUnresolvable, `waiting for scheduling gates: [${gates.map((g) => g.name).join(' ')}]`);
  }

  fieldPath(): string {
    return 'spec.schedulingGates';
  }
}

/** New builds the plugin. */
export function New(): Plugin {
  return new SchedulingGates();
}
