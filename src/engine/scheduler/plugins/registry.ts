// The in-tree registry: every plugin the simulator runs, by name. Profiles pick from it.
// See pkg/scheduler/framework/plugins/registry.go (NewInTreeRegistry).
import type { Registry } from '../framework/framework';
import type { PluginFactory } from '../framework/interfaces';
import * as defaultbinder from './defaultbinder';
import * as defaultpreemption from './defaultpreemption';
import * as dynamicresources from './dynamicresources';
import * as imagelocality from './imagelocality';
import * as interpodaffinity from './interpodaffinity';
import * as nodeaffinity from './nodeaffinity';
import * as nodename from './nodename';
import * as nodeports from './nodeports';
import * as balanced from './noderesources-balanced';
import * as fit from './noderesources-fit';
import * as nodeunschedulable from './nodeunschedulable';
import * as nodevolumelimits from './nodevolumelimits';
import * as podtopologyspread from './podtopologyspread';
import * as queuesort from './queuesort';
import * as schedulinggates from './schedulinggates';
import * as tainttoleration from './tainttoleration';
import * as volumebinding from './volumebinding';
import * as volumerestrictions from './volumerestrictions';
import * as volumezone from './volumezone';

/** IN_TREE_REGISTRY maps each simulated plugin's name to its factory. */
export const IN_TREE_REGISTRY: Registry = new Map<string, PluginFactory>([
  [schedulinggates.Name, schedulinggates.New],
  [queuesort.Name, queuesort.New],
  [nodeunschedulable.Name, nodeunschedulable.New],
  [nodename.Name, nodename.New],
  [tainttoleration.Name, tainttoleration.New],
  [nodeaffinity.Name, nodeaffinity.New],
  [nodeports.Name, nodeports.New],
  [fit.Name, fit.New],
  [volumerestrictions.Name, volumerestrictions.New],
  [nodevolumelimits.Name, nodevolumelimits.New],
  [volumebinding.Name, volumebinding.New],
  [volumezone.Name, volumezone.New],
  [podtopologyspread.Name, podtopologyspread.New],
  [interpodaffinity.Name, interpodaffinity.New],
  [dynamicresources.Name, dynamicresources.New],
  [defaultpreemption.Name, defaultpreemption.New],
  [balanced.Name, balanced.New],
  [imagelocality.Name, imagelocality.New],
  [defaultbinder.Name, defaultbinder.New],
]);
