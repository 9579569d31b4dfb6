// PLACEHOLDER — NodeVolumeLimits is being written; this stand-in implements no extension point yet.
// See pkg/scheduler/framework/plugins/nodevolumelimits/csi.go.
import type { Plugin, PluginFactory } from '../framework/interfaces';
import { Names } from './names';

/** Name is the plugin's name in profiles. */
export const Name = Names.NodeVolumeLimits;

/** New builds the plugin. */
export const New: PluginFactory = (): Plugin => ({ name: Name });
