// NodeResourcesFit: the node must have the pod's requests free (cpu, memory, ephemeral storage, extended resources, a pod
// slot); among those that do, the scoring strategy (LeastAllocated by default, MostAllocated or RequestedToCapacityRatio)
// ranks them. See pkg/scheduler/framework/plugins/noderesources/fit.go and pkg/scheduler/apis/config/v1/defaults.go.
import type { Pod } from '../../api/types';
import { aggregate, child, goQuote, index, invalid, isLabelKey, notSupported, type Path } from '../../api/labels-validation';
import { stateKey, type CycleState } from '../framework/cycle-state';
import type { FilterPlugin, Handle, NodeInfo, Plugin, PreFilterOutput, PreFilterPlugin, PreScorePlugin, ScorePlugin } from '../framework/interfaces';
import { isPodLevelRequestsSet, podRequests } from '../framework/pod-resources';
import { isExtendedResourceName, newResource, ResourceName, setMaxList, type Resource } from '../framework/resource';
import { Code, newStatus, type PluginStatus } from '../framework/status';
import { leastResourceScorer } from './least-allocated';
import { mostResourceScorer } from './most-allocated';
import { Names } from './names';
import { MAX_CUSTOM_PRIORITY_SCORE, MAX_UTILIZATION, requestedToCapacityRatioScorer, type FunctionShapePoint } from './requested-to-capacity-ratio';
import { DEFAULT_RESOURCES, podResourceRequestList, scoreNode, type ResourceSpec, type Scorer } from './resource-allocation';

/** Name is the plugin's name in profiles. */
export const Name = Names.NodeResourcesFit;

/** Reason lists the fixed Filter reasons; an extended resource reads `Insufficient <name>`. */
export const Reason = {
  TooManyPods: 'Too many pods',
  InsufficientCPU: 'Insufficient cpu',
  InsufficientMemory: 'Insufficient memory',
  InsufficientEphemeralStorage: 'Insufficient ephemeral-storage',
} as const;

/** ScoringStrategyType lists the strategies of NodeResourcesFitArgs.scoringStrategy.type (kubescheduler.config.k8s.io/v1). */
export const ScoringStrategyType = {
  LeastAllocated: 'LeastAllocated',
  MostAllocated: 'MostAllocated',
  RequestedToCapacityRatio: 'RequestedToCapacityRatio',
} as const;

/** ScoringStrategyType is one of the ScoringStrategyType values. */
export type ScoringStrategyType = (typeof ScoringStrategyType)[keyof typeof ScoringStrategyType];

/** NodeResourcesFitArgs is the plugin's pluginConfig args, shaped as kubescheduler.config.k8s.io/v1 NodeResourcesFitArgs. */
export interface NodeResourcesFitArgs {
  /** ignoredResources are extended resources the Filter does not check. */
  ignoredResources?: string[];
  /** ignoredResourceGroups are extended-resource prefixes (`example.com` for `example.com/aaa`) the Filter does not check. */
  ignoredResourceGroups?: string[];
  scoringStrategy?: {
    /** type is the strategy; a string so that unknown values reach validation. */
    type?: string;
    /** resources are the scored resources with their weights (0 or unset means 1); none means cpu and memory. */
    resources?: { name: string; weight?: number }[];
    requestedToCapacityRatio?: { shape?: FunctionShapePoint[] };
  };
}

/** FitConfig is NodeResourcesFitArgs defaulted and validated, as the plugin uses it. */
export interface FitConfig {
  ignoredResources: ReadonlySet<string>;
  ignoredResourceGroups: ReadonlySet<string>;
  strategy: ScoringStrategyType;
  resources: readonly ResourceSpec[];
  /** shape is the RequestedToCapacityRatio shape (scores 0-10), empty for the other strategies. */
  shape: readonly FunctionShapePoint[];
}

/** DEFAULT_FIT_CONFIG is the configuration of default args: LeastAllocated over cpu and memory, weight 1 each. */
export const DEFAULT_FIT_CONFIG: FitConfig = {
  ignoredResources: new Set(), ignoredResourceGroups: new Set(), strategy: ScoringStrategyType.LeastAllocated, resources: DEFAULT_RESOURCES, shape: [],
};

/**
 * defaultNodeResourcesFitArgs is SetDefaults_NodeResourcesFitArgs on a copy: no strategy means LeastAllocated over cpu and
 * memory, no resources means cpu and memory, a weight of 0 or none means 1. Applying it twice changes nothing.
 */
export function defaultNodeResourcesFitArgs(args: NodeResourcesFitArgs = {}): NodeResourcesFitArgs {
  const strategy = args.scoringStrategy ? { ...args.scoringStrategy } : { type: ScoringStrategyType.LeastAllocated as string };
  const resources = strategy.resources && strategy.resources.length > 0 ? strategy.resources : DEFAULT_RESOURCES;
  strategy.resources = resources.map((r) => ({ name: r.name, weight: r.weight === undefined || r.weight === 0 ? 1 : r.weight }));
  return { ...args, scoringStrategy: strategy };
}

const SUPPORTED_TYPES: readonly string[] = Object.values(ScoringStrategyType);

/**
 * validateNodeResourcesFitArgs is ValidateNodeResourcesFitArgs with a nil path: each problem as field.Error prints it, e.g.
 * `scoringStrategy.resources[0].weight: Invalid value: 0: resource weight of cpu not in valid range (0, 100]`.
 */
export function validateNodeResourcesFitArgs(args: NodeResourcesFitArgs): string[] {
  const errs: string[] = [];
  (args.ignoredResources ?? []).forEach((res, i) => {
    for (const msg of isLabelKey(res)) errs.push(invalid(index('ignoredResources', i), goQuote(res), msg));
  });
  (args.ignoredResourceGroups ?? []).forEach((group, i) => {
    const path = index('ignoredResourceGroups', i);
    if (group.includes('/')) errs.push(invalid(path, goQuote(group), "resource group name can't contain '/'"));
    for (const msg of isLabelKey(group)) errs.push(invalid(path, goQuote(group), msg));
  });
  const strategyPath = 'scoringStrategy';
  const s = args.scoringStrategy;
  if (!s) return [...errs, `${strategyPath}: Required value: ScoringStrategy field is required`];
  const type = s.type ?? '';
  if (!SUPPORTED_TYPES.includes(type)) errs.push(notSupported(child(strategyPath, 'type'), type, [...SUPPORTED_TYPES].sort()));
  (s.resources ?? []).forEach((r, i) => {
    const weight = r.weight ?? 0;
    if (weight <= 0 || weight > 100) {
      errs.push(invalid(child(index(child(strategyPath, 'resources'), i), 'weight'), String(weight), `resource weight of ${r.name} not in valid range (0, 100]`));
    }
  });
  const ratioPath = child(strategyPath, 'requestedToCapacityRatio');
  if (type === ScoringStrategyType.RequestedToCapacityRatio) {
    if (!s.requestedToCapacityRatio) errs.push(`${ratioPath}: Required value: must be specified when type is RequestedToCapacityRatio`);
    else errs.push(...validateFunctionShape(s.requestedToCapacityRatio.shape ?? [], child(ratioPath, 'shape')));
  } else if (s.requestedToCapacityRatio) {
    errs.push(`${ratioPath}: Forbidden: must be nil when type is not RequestedToCapacityRatio`);
  }
  return errs;
}

/** validateFunctionShape checks the shape points: at least one, utilizations increasing within [0, 100], scores within [0, 10]. */
function validateFunctionShape(shape: readonly FunctionShapePoint[], path: Path): string[] {
  if (shape.length === 0) return [`${path}: Required value: at least one point must be specified`];
  const errs: string[] = [];
  for (let i = 1; i < shape.length; i++) {
    if (shape[i - 1]!.utilization >= shape[i]!.utilization) {
      errs.push(invalid(child(index(path, i), 'utilization'), String(shape[i]!.utilization), 'values must be sorted in increasing order'));
      break;
    }
  }
  shape.forEach((point, i) => {
    if (point.utilization < 0 || point.utilization > MAX_UTILIZATION) {
      errs.push(invalid(child(index(path, i), 'utilization'), String(point.utilization), `not in valid range [0, ${MAX_UTILIZATION}]`));
    }
    if (point.score < 0 || point.score > MAX_CUSTOM_PRIORITY_SCORE) {
      errs.push(invalid(child(index(path, i), 'score'), String(point.score), `not in valid range [0, ${MAX_CUSTOM_PRIORITY_SCORE}]`));
    }
  });
  return errs;
}

/** fitConfigOf turns defaulted, valid args into the plugin's configuration. */
function fitConfigOf(args: NodeResourcesFitArgs): FitConfig {
  const s = args.scoringStrategy!;
  return {
    ignoredResources: new Set(args.ignoredResources ?? []),
    ignoredResourceGroups: new Set(args.ignoredResourceGroups ?? []),
    strategy: s.type as ScoringStrategyType,
    resources: (s.resources ?? []).map((r) => ({ name: r.name, weight: r.weight ?? 1 })),
    shape: s.type === ScoringStrategyType.RequestedToCapacityRatio ? s.requestedToCapacityRatio?.shape ?? [] : [],
  };
}

/** scorerOf builds the strategy's scorer, as nodeResourceStrategyTypeMap does. */
export function scorerOf(config: FitConfig): Scorer {
  switch (config.strategy) {
    case ScoringStrategyType.MostAllocated: return mostResourceScorer(config.resources);
    case ScoringStrategyType.RequestedToCapacityRatio: return requestedToCapacityRatioScorer(config.resources, config.shape);
    default: return leastResourceScorer(config.resources);
  }
}

const preFilterStateKey = stateKey<Resource>(`PreFilter${Name}`);
const preScoreStateKey = stateKey<number[]>(`PreScore${Name}`);

/** InsufficientResource is one resource the node lacks; unresolvable when the request exceeds the node's allocatable. */
export interface InsufficientResource {
  resourceName: string;
  reason: string;
  requested: number;
  used: number;
  capacity: number;
  unresolvable: boolean;
}

/** IgnoredResources are the extended resources, by name or by prefix, the Filter leaves unchecked. */
export interface IgnoredResources {
  resources: ReadonlySet<string>;
  groups: ReadonlySet<string>;
}

const NOTHING_IGNORED: IgnoredResources = { resources: new Set(), groups: new Set() };

/** computePodResourceRequest is the pod's effective request as one Resource (the peak of each dimension). */
export function computePodResourceRequest(pod: Pod): Resource {
  const r = newResource();
  setMaxList(r, podRequests(pod));
  return r;
}

/** FITS is what a node that fits lacks: nothing (one list for all, never changed). */
const FITS: readonly InsufficientResource[] = Object.freeze([]);

/** fitsRequest lists what the node lacks for the request, in Kubernetes' order: pods, cpu, memory, ephemeral storage, scalars. */
export function fitsRequest(req: Resource, nodeInfo: NodeInfo, ignored: IgnoredResources = NOTHING_IGNORED): readonly InsufficientResource[] {
  // Filter runs this on every node checked and most nodes fit: answer those without building anything.
  if (fitsPlainly(req, nodeInfo)) return FITS;
  const out: InsufficientResource[] = [];
  const alloc = nodeInfo.allocatable;
  const used = nodeInfo.requested;
  if (nodeInfo.pods.length + 1 > alloc.allowedPodNumber) {
    out.push({ resourceName: ResourceName.Pods, reason: Reason.TooManyPods, requested: 1, used: nodeInfo.pods.length, capacity: alloc.allowedPodNumber, unresolvable: false });
  }
  if (req.milliCPU === 0 && req.memory === 0 && req.ephemeralStorage === 0 && req.scalar.size === 0) return out;
  const check = (name: string, reason: string, want: number, inUse: number, capacity: number): void => {
    if (want > 0 && want > capacity - inUse) {
      out.push({ resourceName: name, reason, requested: want, used: inUse, capacity, unresolvable: want > capacity });
    }
  };
  check(ResourceName.CPU, Reason.InsufficientCPU, req.milliCPU, used.milliCPU, alloc.milliCPU);
  check(ResourceName.Memory, Reason.InsufficientMemory, req.memory, used.memory, alloc.memory);
  check(ResourceName.EphemeralStorage, Reason.InsufficientEphemeralStorage, req.ephemeralStorage, used.ephemeralStorage, alloc.ephemeralStorage);
  for (const [name, want] of req.scalar) {
    if (want === 0) continue;
    if (isExtendedResourceName(name) && (ignored.resources.has(name) || ignored.groups.has(name.split('/')[0]!))) continue;
    const capacity = alloc.scalar.get(name) ?? 0;
    const inUse = used.scalar.get(name) ?? 0;
    if (want > capacity - inUse) {
      out.push({ resourceName: name, reason: `Insufficient ${name}`, requested: want, used: inUse, capacity, unresolvable: want > capacity });
    }
  }
  return out;
}

/** fitsPlainly tells a node with a pod slot and room for every cpu, memory and ephemeral-storage request, when the pod asks no scalar. */
function fitsPlainly(req: Resource, nodeInfo: NodeInfo): boolean {
  const alloc = nodeInfo.allocatable;
  const used = nodeInfo.requested;
  return nodeInfo.pods.length + 1 <= alloc.allowedPodNumber && req.scalar.size === 0
    && (req.milliCPU <= 0 || req.milliCPU <= alloc.milliCPU - used.milliCPU)
    && (req.memory <= 0 || req.memory <= alloc.memory - used.memory)
    && (req.ephemeralStorage <= 0 || req.ephemeralStorage <= alloc.ephemeralStorage - used.ephemeralStorage);
}

/** fits lists what a node lacks for a pod; kubelet admission runs the same check. */
export function fits(pod: Pod, nodeInfo: NodeInfo): readonly InsufficientResource[] {
  return fitsRequest(computePodResourceRequest(pod), nodeInfo);
}

/** NodeResourcesFit filters nodes that lack the pod's requests and scores the rest with its scoring strategy. */
export class NodeResourcesFit implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin {
  readonly name = Name;
  readonly config: FitConfig;
  private readonly scorer: Scorer;
  private readonly ignored: IgnoredResources;

  constructor(config: FitConfig = DEFAULT_FIT_CONFIG) {
    this.config = config;
    this.scorer = scorerOf(config);
    this.ignored = { resources: config.ignoredResources, groups: config.ignoredResourceGroups };
  }

  preFilter(state: CycleState, pod: Pod): PreFilterOutput {
    state.write(preFilterStateKey, computePodResourceRequest(pod));
    return { status: null };
  }

  /** filter rejects a node that lacks a resource: Unschedulable, or UnschedulableAndUnresolvable if even an empty node would. */
  filter(state: CycleState, _pod: Pod, nodeInfo: NodeInfo): PluginStatus {
    const req = state.read(preFilterStateKey);
    if (req === undefined) return newStatus(Code.Error, `error reading "${preFilterStateKey.name}" from cycleState: not found`);
    const insufficient = fitsRequest(req, nodeInfo, this.ignored);
    if (insufficient.length === 0) return null;
    const code = insufficient.some((r) => r.unresolvable) ? Code.UnschedulableAndUnresolvable : Code.Unschedulable;
    return newStatus(code, ...insufficient.map((r) => r.reason));
  }

  preScore(state: CycleState, pod: Pod): PluginStatus {
    state.write(preScoreStateKey, podResourceRequestList(pod, this.config.resources, false));
    return null;
  }

  /** score runs the strategy's scorer over the configured resources; with no resources it fails, as resourceAllocationScorer does. */
  score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): number | PluginStatus {
    const resources = this.config.resources;
    if (resources.length === 0) return newStatus(Code.Error, 'resources not found');
    const podRequestList = state.read(preScoreStateKey) ?? podResourceRequestList(pod, resources, false);
    return scoreNode(nodeInfo, podRequestList, resources, false, this.scorer);
  }

  fieldPath(pod: Pod): string {
    return resourcesFieldPath(pod);
  }

  rejectionFieldPath(pod: Pod, result: string): string | undefined {
    return insufficientFieldPath(pod, result);
  }
}

/**
 * insufficientFieldPath points at the request the first `Insufficient <resource>` reason of a Filter result is about:
 * the pod-level request, else the first container (then init container) that requests that resource. The reasons are
 * fitsRequest's (see pkg/scheduler/framework/plugins/noderesources/fit.go, v1.36.3). Undefined when no request names it.
 */
export function insufficientFieldPath(pod: Pod, result: string): string | undefined {
  const resource = /Insufficient ([^\s,;]+)/.exec(result)?.[1];
  if (!resource) return undefined;
  if (isPodLevelRequestsSet(pod)) {
    const podLevel = (pod.spec as { resources?: { requests?: Record<string, unknown> } } | undefined)?.resources?.requests;
    return podLevel?.[resource] !== undefined ? `spec.resources.requests.${resource}` : undefined;
  }
  for (const list of ['containers', 'initContainers'] as const) {
    const i = (pod.spec?.[list] ?? []).findIndex((c) => c.resources?.requests?.[resource] !== undefined);
    if (i >= 0) return `spec.${list}[${i}].resources.requests.${resource}`;
  }
  return undefined;
}

/** resourcesFieldPath points at the requests that make the pod's request: a container's, an init container's or the pod's. */
export function resourcesFieldPath(pod: Pod): string {
  if (isPodLevelRequestsSet(pod)) return 'spec.resources.requests';
  const containers = pod.spec?.containers ?? [];
  const i = containers.findIndex((c) => c.resources?.requests && Object.keys(c.resources.requests).length > 0);
  if (i >= 0) return `spec.containers[${i}].resources.requests`;
  const init = pod.spec?.initContainers ?? [];
  const j = init.findIndex((c) => c.resources?.requests && Object.keys(c.resources.requests).length > 0);
  if (j >= 0) return `spec.initContainers[${j}].resources.requests`;
  return 'spec.containers[0].resources';
}

/**
 * newNodeResourcesFit builds the plugin from pluginConfig args: it defaults them as the v1 config does, validates them as
 * NewFit does, and throws an Error whose message is the aggregate of the field errors when they are invalid.
 */
export function newNodeResourcesFit(args: NodeResourcesFitArgs = {}): NodeResourcesFit {
  const defaulted = defaultNodeResourcesFitArgs(args);
  const errs = validateNodeResourcesFitArgs(defaulted);
  if (errs.length > 0) throw new Error(aggregate(errs));
  return new NodeResourcesFit(fitConfigOf(defaulted));
}

/** New builds the plugin with the profile's args (pluginConfig), or the defaults. */
export function New(_handle?: Handle, args?: Readonly<Record<string, unknown>>): Plugin {
  return args ? newNodeResourcesFit(args as NodeResourcesFitArgs) : new NodeResourcesFit();
}
