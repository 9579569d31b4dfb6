// The plugin interfaces, one per extension point, and the handle plugins get to the framework.
// See staging/src/k8s.io/kube-scheduler/framework/interface.go.
import type { KubeObject, Pod } from '../../api/types';
import type { Random } from '../../runtime/random';
import type { CycleState } from './cycle-state';
import type { NodeToStatus } from './diagnosis';
import type { NodeInfo } from './node-info';
import type { Snapshot } from './snapshot';
import type { Listers } from './listers';
import type { PluginStatus } from './status';
import type { ClusterEvent } from '../queue/events';

export { NodeInfo, PodInfo } from './node-info';

/** ExtensionPoint names a point of the scheduling framework where plugins run. */
export const ExtensionPoint = {
  PreEnqueue: 'PreEnqueue',
  QueueSort: 'QueueSort',
  PreFilter: 'PreFilter',
  Filter: 'Filter',
  PostFilter: 'PostFilter',
  PreScore: 'PreScore',
  Score: 'Score',
  Reserve: 'Reserve',
  Permit: 'Permit',
  PreBind: 'PreBind',
  Bind: 'Bind',
  PostBind: 'PostBind',
} as const;

/** ExtensionPoint is one of the ExtensionPoint values. */
export type ExtensionPoint = (typeof ExtensionPoint)[keyof typeof ExtensionPoint];

/** Plugin is what every plugin is: a name, and the pod field it reads (for the trace and the editor). */
export interface Plugin {
  readonly name: string;
  /** fieldPath names the manifest field the plugin reads at an extension point for this pod, e.g. `spec.tolerations`. */
  fieldPath?(pod: Pod, point: ExtensionPoint): string | undefined;
  /**
   * rejectionFieldPath names, when the plugin's Filter turned nodes away, the field the reasons (its one-line result)
   * are about, when that is narrower than fieldPath: `Insufficient cpu` is about the `cpu:` request.
   */
  rejectionFieldPath?(pod: Pod, result: string): string | undefined;
}

/** QueuedPodInfo is a pod in the scheduling queue with the time it was added (virtual ms). */
export interface QueuedPodInfo {
  pod: Pod;
  timestamp: number;
}

/** PreEnqueuePlugin decides whether a pod may enter the active queue at all. */
export interface PreEnqueuePlugin extends Plugin {
  preEnqueue(pod: Pod): PluginStatus;
}

/** QueueSortPlugin orders the active queue. */
export interface QueueSortPlugin extends Plugin {
  less(a: QueuedPodInfo, b: QueuedPodInfo): boolean;
}

/** PreFilterResult narrows the nodes to evaluate; nodeNames null means all nodes. */
export interface PreFilterResult {
  nodeNames: ReadonlySet<string> | null;
}

/** PreFilterOutput is what PreFilter returns: an optional node narrowing and a status. */
export interface PreFilterOutput {
  result?: PreFilterResult;
  status: PluginStatus;
}

/** PreFilterPlugin checks the pod once per cycle and precomputes data for its Filter. */
export interface PreFilterPlugin extends Plugin {
  preFilter(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): PreFilterOutput;
}

/** FilterPlugin decides whether the pod can run on one node. */
export interface FilterPlugin extends Plugin {
  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): PluginStatus;
}

/** PostFilterResult is what a PostFilter plugin proposes: a node to nominate, and what it found. */
export interface PostFilterResult {
  nominatedNodeName?: string;
  /** detail carries the plugin's findings for the trace (per-node verdicts, candidates). */
  detail?: Record<string, unknown>;
}

/** PostFilterOutput is what PostFilter returns. */
export interface PostFilterOutput {
  result?: PostFilterResult;
  status: PluginStatus;
}

/** PostFilterPlugin runs when no node fits, to make the pod schedulable later (preemption). */
export interface PostFilterPlugin extends Plugin {
  postFilter(state: CycleState, pod: Pod, filteredNodeStatus: NodeToStatus): PostFilterOutput;
}

/** PreScorePlugin precomputes data for its Score once per cycle; Skip skips its Score. */
export interface PreScorePlugin extends Plugin {
  preScore(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): PluginStatus;
}

/** NodeScore is one node's score from one plugin. */
export interface NodeScore {
  name: string;
  score: number;
}

/** ScorePlugin ranks a feasible node; normalizeScore (Kubernetes' ScoreExtensions) rescales all nodes' scores to [0, 100]. */
export interface ScorePlugin extends Plugin {
  score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): number | PluginStatus;
  normalizeScore?(state: CycleState, pod: Pod, scores: NodeScore[]): PluginStatus;
}

/** ReservePlugin reserves (and unreserves) resources for the pod on the chosen node. */
export interface ReservePlugin extends Plugin {
  reserve(state: CycleState, pod: Pod, nodeName: string): PluginStatus;
  unreserve(state: CycleState, pod: Pod, nodeName: string): void;
}

/** PermitPlugin approves, rejects or holds (Wait) the pod before binding. */
export interface PermitPlugin extends Plugin {
  permit(state: CycleState, pod: Pod, nodeName: string): { status: PluginStatus; timeoutSeconds: number };
}

/** ObjectWrite is one API write a PreBind plugin asks for, and the component that makes it in Kubernetes. */
export interface ObjectWrite {
  verb: 'create' | 'update';
  /** subresource is 'status' for a status update (UpdateStatus). */
  subresource?: 'status';
  object: KubeObject;
  /** by is who writes: kube-scheduler itself, or the controller its PreBind waits for (persistentvolume-controller...). */
  by: string;
}

/** PreBindPlugin prepares the binding (volumes, claims). */
export interface PreBindPlugin extends Plugin {
  preBind(state: CycleState, pod: Pod, nodeName: string): PluginStatus;
  /**
   * preBindPreFlight tells before PreBind whether it has work for this pod: Skip when not (its PreBind is then skipped),
   * success when it has (the pod then gets status.nominatedNodeName before PreBind: NominatedNodeNameForExpectation, on
   * in 1.36). Absent: PreBind runs, without the nomination. See runtime/framework.go (RunPreBindPreFlights).
   */
  preBindPreFlight?(state: CycleState, pod: Pod, nodeName: string): PluginStatus;
  /** preBindWrites lists, after a successful preBind, the API writes it stands for, in order; absent means none. */
  preBindWrites?(state: CycleState, pod: Pod, nodeName: string): ObjectWrite[];
}

/** BindPlugin binds the pod to the node; Skip lets the next bind plugin do it. */
export interface BindPlugin extends Plugin {
  bind(state: CycleState, pod: Pod, nodeName: string): PluginStatus;
}

/** PostBindPlugin is told the pod was bound. */
export interface PostBindPlugin extends Plugin {
  postBind(state: CycleState, pod: Pod, nodeName: string): void;
}

/** Handle is what plugins may use of the framework: the cycle's snapshot, the filters, the seeded random source. */
export interface Handle {
  snapshot(): Snapshot;
  /** listers reads the cluster's other objects (PVCs, PDBs, Services, Namespaces...). */
  listers(): Listers;
  runFilterPlugins(state: CycleState, pod: Pod, nodeInfo: NodeInfo): PluginStatus;
  random(): Random;
}

/**
 * PluginFactory builds a plugin for a framework; `args` are the plugin's pluginConfig args from the profile, defaulted as
 * the v1 configuration defaults them (absent for a plugin with no args kind). A factory that rejects its args throws an
 * Error with the validation message, as a plugin's New returns one.
 */
export type PluginFactory = (handle: Handle, args?: Readonly<Record<string, unknown>>) => Plugin;

/** QueueingHint says whether a cluster event may make a pod a plugin rejected schedulable (fwk.QueueingHint). */
export type QueueingHint = 'Queue' | 'QueueSkip';

/** QueueingHintFn looks at one event's objects (either may be absent) for one rejected pod. */
export type QueueingHintFn = (pod: Pod, oldObj: KubeObject | undefined, newObj: KubeObject | undefined) => QueueingHint;

/** ClusterEventWithHint is an event a plugin wants to hear of, with its hint; no hint means Queue. */
export interface ClusterEventWithHint {
  event: ClusterEvent;
  hint?: QueueingHintFn;
}

/**
 * EnqueueExtensions is what a PreEnqueue, PreFilter, Filter, Reserve or Permit plugin implements to say which cluster
 * events may make the pods it rejected schedulable. A plugin without it is retried on every event, as in Kubernetes.
 * See staging/src/k8s.io/kube-scheduler/framework/interface.go (EnqueueExtensions).
 */
export interface EnqueueExtensions {
  eventsToRegister(): ClusterEventWithHint[];
}

/** hasEnqueueExtensions tells whether a plugin registers its own events. */
export function hasEnqueueExtensions(p: Plugin): p is Plugin & EnqueueExtensions {
  return 'eventsToRegister' in p;
}

/** isPreEnqueuePlugin tells whether a plugin implements PreEnqueue. */
export function isPreEnqueuePlugin(p: Plugin): p is PreEnqueuePlugin {
  return 'preEnqueue' in p;
}
/** isQueueSortPlugin tells whether a plugin implements QueueSort. */
export function isQueueSortPlugin(p: Plugin): p is QueueSortPlugin {
  return 'less' in p;
}
/** isPreFilterPlugin tells whether a plugin implements PreFilter. */
export function isPreFilterPlugin(p: Plugin): p is PreFilterPlugin {
  return 'preFilter' in p;
}
/** isFilterPlugin tells whether a plugin implements Filter. */
export function isFilterPlugin(p: Plugin): p is FilterPlugin {
  return 'filter' in p;
}
/** isPostFilterPlugin tells whether a plugin implements PostFilter. */
export function isPostFilterPlugin(p: Plugin): p is PostFilterPlugin {
  return 'postFilter' in p;
}
/** isPreScorePlugin tells whether a plugin implements PreScore. */
export function isPreScorePlugin(p: Plugin): p is PreScorePlugin {
  return 'preScore' in p;
}
/** isScorePlugin tells whether a plugin implements Score. */
export function isScorePlugin(p: Plugin): p is ScorePlugin {
  return 'score' in p;
}
/** isReservePlugin tells whether a plugin implements Reserve. */
export function isReservePlugin(p: Plugin): p is ReservePlugin {
  return 'reserve' in p;
}
/** isPermitPlugin tells whether a plugin implements Permit. */
export function isPermitPlugin(p: Plugin): p is PermitPlugin {
  return 'permit' in p;
}
/** isPreBindPlugin tells whether a plugin implements PreBind. */
export function isPreBindPlugin(p: Plugin): p is PreBindPlugin {
  return 'preBind' in p;
}
/** isBindPlugin tells whether a plugin implements Bind. */
export function isBindPlugin(p: Plugin): p is BindPlugin {
  return 'bind' in p;
}
/** isPostBindPlugin tells whether a plugin implements PostBind. */
export function isPostBindPlugin(p: Plugin): p is PostBindPlugin {
  return 'postBind' in p;
}
