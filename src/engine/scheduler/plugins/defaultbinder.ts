// DefaultBinder: binds the pod to the chosen node through the pods/binding subresource; the simulation's caller does it.
// See pkg/scheduler/framework/plugins/defaultbinder/default_binder.go.
import type { BindPlugin, Plugin } from '../framework/interfaces';
import type { PluginStatus } from '../framework/status';
import { Names } from './names';

/** Name is the plugin's name in profiles. */
export const Name = Names.DefaultBinder;

/** DefaultBinder stands for the binding; the caller creates the Binding and records the Scheduled event. */
export class DefaultBinder implements BindPlugin {
  readonly name = Name;

  bind(): PluginStatus {
    return null;
  }
}

/** New builds the plugin. */
export function New(): Plugin {
  return new DefaultBinder();
}
