// The framework of one profile: builds its plugins from the registry and runs them extension point by extension point.
// See pkg/scheduler/framework/runtime/framework.go (NewFramework, RunPreFilterPlugins, RunFilterPlugins, ...).
import type { Pod } from '../../api/types';
import type { Random } from '../../runtime/random';
import { EMPTY_LISTERS, type Listers } from './listers';
import type { CycleState } from './cycle-state';
import type { NodeToStatus } from './diagnosis';
import {
  type ExtensionPoint, isBindPlugin, isFilterPlugin, isPermitPlugin, isPostBindPlugin, isPostFilterPlugin, isPreBindPlugin, isPreEnqueuePlugin,
  isPreFilterPlugin, isPreScorePlugin, isQueueSortPlugin, isReservePlugin, isScorePlugin,
  type BindPlugin, type FilterPlugin, type Handle, type PermitPlugin, type Plugin, type PluginFactory, type PostBindPlugin,
  type PostFilterOutput, type PostFilterPlugin, type PreBindPlugin, type PreEnqueuePlugin, type PreFilterOutput,
  type PreFilterPlugin, type PreFilterResult, type PreScorePlugin, type QueueSortPlugin, type ReservePlugin, type ScorePlugin,
} from './interfaces';
import type { NodeInfo } from './node-info';
import { type CountedNominated, filterWithNominatedPods, type NominatedPods } from './nominated';
import { DEFAULT_SCORE_WEIGHT, expandProfile, KUBERNETES_EXTENSION_POINTS, type Implements, type Profile } from './profile';
import type { Snapshot } from './snapshot';
import { Code, isRejected, isSkip, isSuccess, newStatus, Status, type PluginStatus } from './status';

/** FrameworkError is NewFramework's error: the profile's plugins cannot be assembled. */
export class FrameworkError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FrameworkError';
  }
}

/** IMPLEMENTS tells, per extension point, whether a plugin implements it. */
const IMPLEMENTS: Record<ExtensionPoint, (p: Plugin) => boolean> = {
  PreEnqueue: isPreEnqueuePlugin, QueueSort: isQueueSortPlugin, PreFilter: isPreFilterPlugin, Filter: isFilterPlugin,
  PostFilter: isPostFilterPlugin, PreScore: isPreScorePlugin, Score: isScorePlugin, Reserve: isReservePlugin,
  Permit: isPermitPlugin, PreBind: isPreBindPlugin, Bind: isBindPlugin, PostBind: isPostBindPlugin,
};

/** MAX_PERMIT_TIMEOUT_SECONDS caps a Permit plugin's Wait (maxTimeout, 15 minutes). */
export const MAX_PERMIT_TIMEOUT_SECONDS = 15 * 60;

/** PluginRun is the outcome of one extension point of the binding: the status and each plugin's, in order. */
export interface PluginRun {
  status: PluginStatus;
  perPlugin: [string, PluginStatus][];
}

/** failed is a plugin's failure as the framework returns it: a rejection as it is, anything else an Error naming the point. */
function failed(s: Status, plugin: string, point: string): Status {
  if (isRejected(s)) return s.withPlugin(plugin);
  return newStatus(Code.Error, `running ${point} plugin "${plugin}": ${s.message()}`);
}

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

/**
 * EXPANSIONS keep each profile's expansion by registry: what a registry's factories build implements the same points
 * whatever the run, and a frozen configuration's profiles are shared by every run of its cluster (a file's checks).
 */
const EXPANSIONS = new WeakMap<Registry, WeakMap<Profile, ReturnType<typeof expandProfile>>>();

/** expansionOf is a profile's expansion with a registry, expanded the first time (a profile that may change, each time). */
function expansionOf(registry: Registry, profile: Profile, expand: () => ReturnType<typeof expandProfile>): ReturnType<typeof expandProfile> {
  if (!Object.isFrozen(profile)) return expand();
  let byProfile = EXPANSIONS.get(registry);
  if (!byProfile) EXPANSIONS.set(registry, (byProfile = new WeakMap()));
  let expanded = byProfile.get(profile);
  if (!expanded) byProfile.set(profile, (expanded = expand()));
  return expanded;
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
  private runFilters: { skip: ReadonlySet<string>; plugins: FilterPlugin[] } | undefined;
  private currentRandom: Random | undefined;
  private currentListers: Listers = EMPTY_LISTERS;
  /** nominatedPods reads the scheduling queue's nominator (WithPodNominator); a framework without a queue has none. */
  nominatedPods: NominatedPods | undefined;
  private readonly filterRunner = (state: CycleState, pod: Pod, nodeInfo: NodeInfo): PluginStatus => this.runFilterPlugins(state, pod, nodeInfo);

  /**
   * The constructor is NewFramework: it builds the plugins the profile enables (each with its pluginConfig args) and
   * files them under their extension points. A profile that cannot be assembled throws a FrameworkError with
   * Kubernetes' message (`PreFilterPlugin "Foo" does not exist`, `initializing plugin "X": ...`).
   */
  constructor(registry: Registry, profile: Profile) {
    this.profile = profile;
    const args = new Map((profile.pluginConfig ?? []).map((c) => [c.name, c.args]));
    const needed = [...profile.multiPoint.map((p) => p.name), ...Object.values(profile.extensionPoints ?? {}).flatMap((set) => set?.enabled.map((p) => p.name) ?? [])];
    for (const name of new Set(needed)) {
      const factory = registry.get(name);
      if (!factory) {
        if (KUBERNETES_EXTENSION_POINTS[name]) this.missing.push(name);
        continue;
      }
      try {
        this.plugins.set(name, factory(this, args.get(name)));
      } catch (err) {
        throw new FrameworkError(`initializing plugin "${name}": ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    const expanded = expansionOf(registry, profile, () => expandProfile(profile, (name, point) => this.implementsAt(name, point)));
    if (expanded.error) throw new FrameworkError(expanded.error);
    for (const [point, names] of expanded.points) {
      for (const name of names) {
        const plugin = this.plugins.get(name);
        if (plugin && IMPLEMENTS[point](plugin)) this.fileUnder(point, plugin);
      }
    }
    for (const p of this.scorePlugins) this.scoreWeights.set(p.name, expanded.weights.get(p.name) ?? DEFAULT_SCORE_WEIGHT);
    if (this.queueSortPlugins.length !== 1) {
      throw new FrameworkError(`only one queue sort plugin required for profile with scheduler name "${profile.schedulerName}", but got ${this.queueSortPlugins.length}`);
    }
    if (this.bindPlugins.length === 0) throw new FrameworkError(`at least one bind plugin is needed for profile with scheduler name "${profile.schedulerName}"`);
  }

  /** implementsAt tells whether a plugin runs at a point; a plugin Kubernetes runs there that is not simulated there is missing. */
  private implementsAt(name: string, point: ExtensionPoint): Implements {
    const plugin = this.plugins.get(name);
    const kubernetes = KUBERNETES_EXTENSION_POINTS[name];
    if (plugin && IMPLEMENTS[point](plugin)) return 'yes';
    if (kubernetes?.includes(point)) return 'missing';
    return plugin || kubernetes ? 'no' : 'unknown';
  }

  /** fileUnder adds a plugin to one extension point's list. */
  private fileUnder(point: ExtensionPoint, p: Plugin): void {
    const lists: Record<ExtensionPoint, Plugin[]> = {
      PreEnqueue: this.preEnqueuePlugins, QueueSort: this.queueSortPlugins, PreFilter: this.preFilterPlugins, Filter: this.filterPlugins,
      PostFilter: this.postFilterPlugins, PreScore: this.preScorePlugins, Score: this.scorePlugins, Reserve: this.reservePlugins,
      Permit: this.permitPlugins, PreBind: this.preBindPlugins, Bind: this.bindPlugins, PostBind: this.postBindPlugins,
    };
    lists[point].push(p);
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
    const plugins = this.filterPluginsRun(state.skipFilterPlugins);
    for (let i = 0; i < plugins.length; i++) {
      const pl = plugins[i]!;
      let status = pl.filter(state, pod, nodeInfo);
      if (status === null || isSuccess(status)) continue;
      if (!isRejected(status)) status = newStatus(Code.Error, `running "${pl.name}" filter plugin: ${status.message()}`);
      return status.withPlugin(pl.name);
    }
    return null;
  }

  /** runFilterPluginsWithNominatedPods runs the Filter plugins with the node's nominated pods counted, then without. */
  runFilterPluginsWithNominatedPods(state: CycleState, pod: Pod, nodeInfo: NodeInfo, counted?: CountedNominated): PluginStatus {
    return filterWithNominatedPods(this.filterRunner, this.nominatedPods, state, pod, nodeInfo, counted);
  }

  /**
   * filterPluginsRun is the Filter plugins PreFilter did not skip. It is kept per skip set — a cycle's is fixed once
   * PreFilter ran — so that filtering a node does not test every plugin against the set.
   */
  private filterPluginsRun(skip: ReadonlySet<string>): readonly FilterPlugin[] {
    if (this.runFilters?.skip !== skip) this.runFilters = { skip, plugins: this.filterPlugins.filter((pl) => !skip.has(pl.name)) };
    return this.runFilters.plugins;
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

  /** runReservePluginsReserve runs Reserve in order until one fails; a rejection keeps its code, anything else is an Error. */
  runReservePluginsReserve(state: CycleState, pod: Pod, nodeName: string): PluginRun {
    const perPlugin: [string, PluginStatus][] = [];
    for (const pl of this.reservePlugins) {
      const s = pl.reserve(state, pod, nodeName);
      perPlugin.push([pl.name, s]);
      if (!isSuccess(s)) return { status: failed(s!, pl.name, 'Reserve'), perPlugin };
    }
    return { status: null, perPlugin };
  }

  /** runReservePluginsUnreserve runs Unreserve in the reverse order of Reserve and returns the plugins it ran. */
  runReservePluginsUnreserve(state: CycleState, pod: Pod, nodeName: string): string[] {
    const ran: string[] = [];
    for (let i = this.reservePlugins.length - 1; i >= 0; i--) {
      const pl = this.reservePlugins[i]!;
      pl.unreserve(state, pod, nodeName);
      ran.push(pl.name);
    }
    return ran;
  }

  /** runPermitPlugins runs Permit: the first rejection or error ends it; Wait holds the pod for the shortest timeout asked. */
  runPermitPlugins(state: CycleState, pod: Pod, nodeName: string): PluginRun & { waitSeconds?: number; waitPlugin?: string } {
    const perPlugin: [string, PluginStatus][] = [];
    let wait: { seconds: number; plugin: string } | undefined;
    for (const pl of this.permitPlugins) {
      const { status: s, timeoutSeconds } = pl.permit(state, pod, nodeName);
      perPlugin.push([pl.name, s]);
      if (isSuccess(s)) continue;
      if (s!.code === Code.Wait) {
        const seconds = Math.min(timeoutSeconds, MAX_PERMIT_TIMEOUT_SECONDS);
        if (!wait || seconds < wait.seconds) wait = { seconds, plugin: pl.name };
        continue;
      }
      return { status: failed(s!, pl.name, 'Permit').withPlugin(pl.name), perPlugin };
    }
    if (!wait) return { status: null, perPlugin };
    const status = newStatus(Code.Wait, `one or more plugins asked to wait and no plugin rejected pod "${pod.metadata?.name ?? ''}"`);
    return { status, perPlugin, waitSeconds: wait.seconds, waitPlugin: wait.plugin };
  }

  /**
   * runPreBindPreFlights asks each PreBind plugin whether it has work: success when one has, Skip when none has (the
   * skipped ones are returned), an Error stops. A plugin without preBindPreFlight is not asked: its PreBind runs.
   */
  runPreBindPreFlights(state: CycleState, pod: Pod, nodeName: string): PluginRun & { skip: Set<string> } {
    const perPlugin: [string, PluginStatus][] = [];
    const skip = new Set<string>();
    let status: PluginStatus = newStatus(Code.Skip);
    for (const pl of this.preBindPlugins) {
      // Why: a plugin without a preflight still runs its PreBind, but does not count as having work (no nomination).
      if (!pl.preBindPreFlight) continue;
      const s = pl.preBindPreFlight(state, pod, nodeName);
      perPlugin.push([pl.name, s]);
      if (s !== null && s.code === Code.Error) return { status: newStatus(Code.Error, `running PreBindPreFlight "${pl.name}": ${s.message()}`), perPlugin, skip };
      if (isSuccess(s)) status = null;
      else if (isSkip(s)) skip.add(pl.name);
      else return { status: newStatus(Code.Error, `PreBindPreFlight ${pl.name} returned "${s!.code}", which is unsupported. It is supposed to return Success, Skip, or Error status`), perPlugin, skip };
    }
    return { status, perPlugin, skip };
  }

  /** runPreBindPlugins runs PreBind in order, leaving out the skipped ones, until one fails. */
  runPreBindPlugins(state: CycleState, pod: Pod, nodeName: string, skip: ReadonlySet<string> = new Set()): PluginRun {
    const perPlugin: [string, PluginStatus][] = [];
    for (const pl of this.preBindPlugins) {
      if (skip.has(pl.name)) continue;
      const s = pl.preBind(state, pod, nodeName);
      perPlugin.push([pl.name, s]);
      if (!isSuccess(s)) return { status: failed(s!, pl.name, 'PreBind'), perPlugin };
    }
    return { status: null, perPlugin };
  }

  /** runBindPlugins runs Bind until a plugin does not Skip; none at all is Skip. */
  runBindPlugins(state: CycleState, pod: Pod, nodeName: string): PluginRun {
    const perPlugin: [string, PluginStatus][] = [];
    let status: PluginStatus = newStatus(Code.Skip);
    for (const pl of this.bindPlugins) {
      status = pl.bind(state, pod, nodeName);
      perPlugin.push([pl.name, status]);
      if (isSkip(status)) continue;
      if (!isSuccess(status)) return { status: failed(status!, pl.name, 'Bind'), perPlugin };
      return { status, perPlugin };
    }
    return { status, perPlugin };
  }

  /** runPostBindPlugins tells every PostBind plugin and returns their names. */
  runPostBindPlugins(state: CycleState, pod: Pod, nodeName: string): string[] {
    for (const pl of this.postBindPlugins) pl.postBind(state, pod, nodeName);
    return this.postBindPlugins.map((p) => p.name);
  }
}
