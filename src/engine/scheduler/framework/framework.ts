// The framework of one profile: builds its plugins from the registry and runs them extension point by extension point.
// See pkg/scheduler/framework/runtime/framework.go (NewFramework, RunPreFilterPlugins, RunFilterPlugins, ...).
import type { Pod } from '../../api/types';
import type { Random } from '../../runtime/random';
import { EMPTY_LISTERS, type Listers } from './listers';
import type { CycleState } from './cycle-state';
import type { NodeToStatus } from './diagnosis';
import {
  isBindPlugin, isFilterPlugin, isPermitPlugin, isPostBindPlugin, isPostFilterPlugin, isPreBindPlugin, isPreEnqueuePlugin,
  isPreFilterPlugin, isPreScorePlugin, isQueueSortPlugin, isReservePlugin, isScorePlugin,
  type BindPlugin, type FilterPlugin, type Handle, type PermitPlugin, type Plugin, type PluginFactory, type PostBindPlugin,
  type PostFilterOutput, type PostFilterPlugin, type PreBindPlugin, type PreEnqueuePlugin, type PreFilterOutput,
  type PreFilterPlugin, type PreFilterResult, type PreScorePlugin, type QueueSortPlugin, type ReservePlugin, type ScorePlugin,
} from './interfaces';
import type { NodeInfo } from './node-info';
import { DEFAULT_SCORE_WEIGHT, type Profile } from './profile';
import type { Snapshot } from './snapshot';
import { Code, isRejected, isSkip, isSuccess, newStatus, Status, type PluginStatus } from './status';

/** Registry maps a plugin name to the factory that builds it. */
export type Registry = ReadonlyMap<string, PluginFactory>;

/** PreFilterRun is the outcome of the PreFilter extension point. */
export interface PreFilterRun {
  /** result is the merged node narrowing; null nodeNames means all nodes. */
  result: PreFilterResult;
  /** status is null on success, the first UnschedulableAndUnresolvable, the last Unschedulable, or an Error. */
  status: PluginStatus;
  /** pluginsWithNodes are the plugins that narrowed the nodes. */
  pluginsWithNodes: string[];
  /** perPlugin is each plugin's own output, in order; plugins after an early stop are absent. */
  perPlugin: Map<string, PreFilterOutput>;
}

/** PostFilterRun is the outcome of the PostFilter extension point. */
export interface PostFilterRun extends PostFilterOutput {
  perPlugin: Map<string, PostFilterOutput>;
}

/** intersect is the nodes in both sets; null stands for all nodes. */
function intersect(a: ReadonlySet<string> | null, b: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  for (const n of b) if (a === null || a.has(n)) out.add(n);
  return out;
}

/** Framework holds one profile's plugins per extension point and runs them. */
export class Framework implements Handle {
  readonly profile: Profile;
  /** missing lists the profile's plugins the registry cannot build (not simulated yet). */
  readonly missing: string[] = [];
  readonly plugins = new Map<string, Plugin>();
  readonly preEnqueuePlugins: PreEnqueuePlugin[] = [];
  readonly queueSortPlugins: QueueSortPlugin[] = [];
  readonly preFilterPlugins: PreFilterPlugin[] = [];
  readonly filterPlugins: FilterPlugin[] = [];
  readonly postFilterPlugins: PostFilterPlugin[] = [];
  readonly preScorePlugins: PreScorePlugin[] = [];
  readonly scorePlugins: ScorePlugin[] = [];
  readonly reservePlugins: ReservePlugin[] = [];
  readonly permitPlugins: PermitPlugin[] = [];
  readonly preBindPlugins: PreBindPlugin[] = [];
  readonly bindPlugins: BindPlugin[] = [];
  readonly postBindPlugins: PostBindPlugin[] = [];
  readonly scoreWeights = new Map<string, number>();
  private currentSnapshot: Snapshot | undefined;
  private currentRandom: Random | undefined;
  private currentListers: Listers = EMPTY_LISTERS;

  constructor(registry: Registry, profile: Profile) {
    this.profile = profile;
    for (const { name, weight } of profile.multiPoint) {
      const factory = registry.get(name);
      if (!factory) {
        this.missing.push(name);
        continue;
      }
      const plugin = factory(this);
      this.plugins.set(name, plugin);
      this.expand(plugin, weight ?? DEFAULT_SCORE_WEIGHT);
    }
  }

  /** expand files a MultiPoint plugin under every extension point it implements, as expandMultiPointPlugins does. */
  private expand(p: Plugin, weight: number): void {
    if (isPreEnqueuePlugin(p)) this.preEnqueuePlugins.push(p);
    if (isQueueSortPlugin(p)) this.queueSortPlugins.push(p);
    if (isPreFilterPlugin(p)) this.preFilterPlugins.push(p);
    if (isFilterPlugin(p)) this.filterPlugins.push(p);
    if (isPostFilterPlugin(p)) this.postFilterPlugins.push(p);
    if (isPreScorePlugin(p)) this.preScorePlugins.push(p);
    if (isScorePlugin(p)) {
      this.scorePlugins.push(p);
      this.scoreWeights.set(p.name, weight);
    }
    if (isReservePlugin(p)) this.reservePlugins.push(p);
    if (isPermitPlugin(p)) this.permitPlugins.push(p);
    if (isPreBindPlugin(p)) this.preBindPlugins.push(p);
    if (isBindPlugin(p)) this.bindPlugins.push(p);
    if (isPostBindPlugin(p)) this.postBindPlugins.push(p);
  }

  /** startCycle gives the plugins the cycle's snapshot, random source and listers (Handle.SnapshotSharedLister, informers). */
  startCycle(snapshot: Snapshot, random: Random, listers: Listers = EMPTY_LISTERS): void {
    this.currentSnapshot = snapshot;
    this.currentRandom = random;
    this.currentListers = listers;
  }

  /** listers returns the cluster objects the plugins may read in the current cycle. */
  listers(): Listers {
    return this.currentListers;
  }

  /** snapshot returns the snapshot of the current cycle. */
  snapshot(): Snapshot {
    if (!this.currentSnapshot) throw new Error('no scheduling cycle is running');
    return this.currentSnapshot;
  }

  /** random returns the seeded random source of the current cycle. */
  random(): Random {
    if (!this.currentRandom) throw new Error('no scheduling cycle is running');
    return this.currentRandom;
  }

  /** runPreFilterPlugins runs PreFilter: Skip skips the plugin's Filter, UnschedulableAndUnresolvable stops at once. */
  runPreFilterPlugins(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): PreFilterRun {
    const skip = new Set<string>();
    const perPlugin = new Map<string, PreFilterOutput>();
    const pluginsWithNodes: string[] = [];
    let nodeNames: Set<string> | null = null;
    let returnStatus: PluginStatus = null;
    const done = (status: PluginStatus): PreFilterRun => {
      state.skipFilterPlugins = skip;
      return { result: { nodeNames }, status, pluginsWithNodes: [...pluginsWithNodes].sort(), perPlugin };
    };
    for (const pl of this.preFilterPlugins) {
      const out = pl.preFilter(state, pod, nodes);
      perPlugin.set(pl.name, out);
      const s = out.status;
      if (isSkip(s)) {
        skip.add(pl.name);
        continue;
      }
      if (s !== null && !isSuccess(s)) {
        s.withPlugin(pl.name);
        if (s.code === Code.UnschedulableAndUnresolvable) return done(s);
        if (s.code === Code.Unschedulable) {
          returnStatus = s;
          continue;
        }
        return done(newStatus(Code.Error, `running PreFilter plugin "${pl.name}": ${s.message()}`).withPlugin(pl.name));
      }
      const names = out.result?.nodeNames ?? null;
      if (names === null) continue;
      pluginsWithNodes.push(pl.name);
      nodeNames = intersect(nodeNames, names);
      if (nodeNames.size === 0) {
        const plugins = [...pluginsWithNodes].sort();
        const msg = plugins.length === 1
          ? `node(s) didn't satisfy plugin ${plugins[0]}`
          : `node(s) didn't satisfy plugin(s) [${plugins.join(' ')}] simultaneously`;
        return done(newStatus(Code.UnschedulableAndUnresolvable, msg));
      }
    }
    return done(returnStatus);
  }

  /** runFilterPlugins runs the Filter plugins on one node until the first that rejects it. */
  runFilterPlugins(state: CycleState, pod: Pod, nodeInfo: NodeInfo): PluginStatus {
    for (const pl of this.filterPlugins) {
      if (state.skipFilterPlugins.has(pl.name)) continue;
      let status = pl.filter(state, pod, nodeInfo);
      if (status === null || isSuccess(status)) continue;
      if (!isRejected(status)) status = newStatus(Code.Error, `running "${pl.name}" filter plugin: ${status.message()}`);
      return status.withPlugin(pl.name);
    }
    return null;
  }

  /** runPostFilterPlugins runs PostFilter until a Success, Error or UnschedulableAndUnresolvable; otherwise joins the reasons. */
  runPostFilterPlugins(state: CycleState, pod: Pod, nodeToStatus: NodeToStatus): PostFilterRun {
    const perPlugin = new Map<string, PostFilterOutput>();
    const reasons: string[] = [];
    let rejector = '';
    let result: PostFilterOutput['result'];
    for (const pl of this.postFilterPlugins) {
      const out = pl.postFilter(state, pod, nodeToStatus);
      perPlugin.set(pl.name, out);
      const s = out.status;
      if (s === null || isSuccess(s)) return { result: out.result, status: null, perPlugin };
      if (s.code === Code.UnschedulableAndUnresolvable) return { result: out.result, status: s.withPlugin(pl.name), perPlugin };
      if (!isRejected(s)) return { status: new Status(Code.Error, s.reasons, pl.name), perPlugin };
      if (out.result?.nominatedNodeName !== undefined) result = out.result;
      reasons.push(...s.reasons);
      if (!rejector) rejector = pl.name;
    }
    return { result, status: new Status(Code.Unschedulable, reasons, rejector), perPlugin };
  }

  /** runPreScorePlugins runs PreScore; Skip skips the plugin's Score, anything else but success fails the cycle. */
  runPreScorePlugins(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): { status: PluginStatus; perPlugin: Map<string, PluginStatus> } {
    const skip = new Set<string>();
    const perPlugin = new Map<string, PluginStatus>();
    let status: PluginStatus = null;
    for (const pl of this.preScorePlugins) {
      const s = pl.preScore(state, pod, nodes);
      perPlugin.set(pl.name, s);
      if (isSkip(s)) skip.add(pl.name);
      else if (!isSuccess(s)) {
        status = newStatus(Code.Error, `running PreScore plugin "${pl.name}": ${s!.message()}`);
        break;
      }
    }
    state.skipScorePlugins = skip;
    return { status, perPlugin };
  }
}
