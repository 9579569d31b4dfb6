// Finding the feasible nodes: PreFilter once, then Filter node by node from a rotating start, until enough nodes fit.
// See pkg/scheduler/schedule_one.go (findNodesThatFitPod, evaluateNominatedNode, findNodesThatPassFilters, numFeasibleNodesToFind).
import type { Pod } from '../../api/types';
import type { CycleState } from './cycle-state';
import type { CountedNominated } from './nominated';
import { addPluginStatus, newDiagnosis, type Diagnosis } from './diagnosis';
import type { Framework, PreFilterRun } from './framework';
import type { NodeInfo } from './node-info';
import type { Snapshot } from './snapshot';
import { Code, isRejected, newStatus, Status, type PluginStatus } from './status';

/** MIN_FEASIBLE_NODES_TO_FIND is the fewest nodes a cycle looks for before it stops filtering. */
export const MIN_FEASIBLE_NODES_TO_FIND = 100;
/** MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND is the floor of the adaptive percentage of nodes to find. */
export const MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND = 5;
/** ADAPTIVE_BASE_PERCENTAGE is where the adaptive rule starts: 50% of the nodes (pkg/scheduler/schedule_one.go). */
export const ADAPTIVE_BASE_PERCENTAGE = 50;
/** ADAPTIVE_NODES_PER_PERCENT is how many nodes take one percent off the adaptive percentage. */
export const ADAPTIVE_NODES_PER_PERCENT = 125;

/**
 * numFeasibleNodesToFind is how many feasible nodes end the search: every node below 100 nodes, otherwise the configured
 * percentage or, when it is 0, 50% minus 1% per 125 nodes with a 5% floor; never fewer than 100.
 */
export function numFeasibleNodesToFind(percentageOfNodesToScore: number, numAllNodes: number): number {
  if (numAllNodes < MIN_FEASIBLE_NODES_TO_FIND) return numAllNodes;
  let percentage = percentageOfNodesToScore;
  if (percentage === 0) {
    percentage = ADAPTIVE_BASE_PERCENTAGE - Math.trunc(numAllNodes / ADAPTIVE_NODES_PER_PERCENT);
    if (percentage < MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND) percentage = MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND;
  }
  const numNodes = Math.trunc((numAllNodes * percentage) / 100);
  return numNodes < MIN_FEASIBLE_NODES_TO_FIND ? MIN_FEASIBLE_NODES_TO_FIND : numNodes;
}

/** FilterPass is what the filtering found. */
export interface FilterPass {
  preFilter: PreFilterRun;
  feasible: NodeInfo[];
  diagnosis: Diagnosis;
  /** verdicts holds each evaluated node's Filter outcome: null when it fits, else the rejecting plugin's status. */
  verdicts: Verdicts;
  /** nominatedNode is set when the pod's nominated node was tried first and fits. */
  nominatedNode?: string;
  nextStartNodeIndex: number;
  /** error is set when a plugin failed (Error status): the cycle ends with a scheduler error. */
  error?: Status;
  /** nominated lists, by node, the nominated pods a node was filtered with (namespace/name), when there were any. */
  nominated?: Map<string, string[]>;
  /** countNominated fills `nominated` (made once a pass, as the filters run on every node). */
  countNominated?: CountedNominated;
}

/**
 * Verdicts are the Filter outcomes of the evaluated nodes, read like a map from node name to outcome (null when the node
 * fits, else the rejecting plugin's status) in the order the nodes were first checked. It keeps the names in an array
 * and only the rejections in a map: most nodes fit, and a map entry per node checked cost a few percent of a cycle.
 */
export class Verdicts {
  /** evaluated are the nodes checked, in the order first checked. */
  readonly evaluated: string[] = [];
  /** rejected maps each rejected node to the rejecting plugin's status. */
  readonly rejected = new Map<string, Status>();
  /** nominated is the node checked before the search, which the search may check again. */
  private nominated: string | undefined;
  /** seen tracks every node checked when names may repeat in the snapshot; unique names need only `nominated`. */
  private readonly seen: Set<string> | undefined;

  constructor(uniqueNames: boolean) {
    this.seen = uniqueNames ? undefined : new Set();
  }

  /** record notes a node's outcome; a node checked again keeps its place and takes the new outcome. */
  record(name: string, status: PluginStatus, nominated = false): void {
    const again = this.seen ? this.seen.has(name) : name === this.nominated;
    if (nominated) this.nominated = name;
    if (!again) {
      this.evaluated.push(name);
      this.seen?.add(name);
    }
    if (status) this.rejected.set(name, status);
    else if (again) this.rejected.delete(name);
  }

  /** get is a node's outcome, or undefined when it was not checked. */
  get(name: string): PluginStatus | undefined {
    const status = this.rejected.get(name);
    return status ?? (this.has(name) ? null : undefined);
  }

  /** has tells whether a node was checked. */
  has(name: string): boolean {
    return this.rejected.has(name) || (this.seen ? this.seen.has(name) : this.evaluated.includes(name));
  }

  /** size is the number of nodes checked. */
  get size(): number {
    return this.evaluated.length;
  }

  /** keys lists the nodes checked, in the order first checked. */
  keys(): IterableIterator<string> {
    return this.evaluated.values();
  }
}

/** FilterOptions are the inputs of findNodesThatFitPod besides the pod. */
export interface FilterOptions {
  snapshot: Snapshot;
  nextStartNodeIndex: number;
  percentageOfNodesToScore: number;
}

/** findNodesThatFitPod runs PreFilter, tries the nominated node, then filters nodes from nextStartNodeIndex. */
export function findNodesThatFitPod(fw: Framework, state: CycleState, pod: Pod, opts: FilterOptions): FilterPass {
  const diagnosis = newDiagnosis();
  const allNodes = opts.snapshot.nodeInfoList;
  const preFilter = fw.runPreFilterPlugins(state, pod, allNodes);
  for (const p of preFilter.pluginsWithNodes) diagnosis.unschedulablePlugins.add(p);
  const verdicts = new Verdicts(opts.snapshot.plainNodeNames);
  const pass: FilterPass = { preFilter, feasible: [], diagnosis, verdicts, nextStartNodeIndex: opts.nextStartNodeIndex };
  pass.countNominated = (node, pods) => void (pass.nominated ??= new Map()).set(node, pods.map((p) => `${p.metadata?.namespace ?? ''}/${p.metadata?.name ?? ''}`));
  const s = preFilter.status;
  if (s !== null && s.code !== Code.Success) {
    if (!isRejected(s)) return { ...pass, error: s };
    diagnosis.nodeToStatus.setAbsentNodesStatus(s);
    diagnosis.preFilterMsg = s.message();
    addPluginStatus(diagnosis, s);
    return pass;
  }
  const nominated = pod.status?.nominatedNodeName;
  if (nominated) {
    const ni = opts.snapshot.get(nominated);
    if (ni) {
      const verdict = checkNode(fw, state, pod, ni, pass, true);
      if (pass.error) return pass;
      if (verdict === null) return { ...pass, feasible: [ni], nominatedNode: nominated };
    }
  }
  let nodes = allNodes;
  const names = preFilter.result.nodeNames;
  if (names !== null) {
    nodes = allNodes.filter((ni) => names.has(ni.name));
    const plugins = preFilter.pluginsWithNodes;
    diagnosis.nodeToStatus.setAbsentNodesStatus(newStatus(Code.UnschedulableAndUnresolvable, `node(s) didn't satisfy plugin(s) [${plugins.join(' ')}]`));
  }
  passFilters(fw, state, pod, nodes, opts, pass);
  const processed = pass.feasible.length + diagnosis.nodeToStatus.size;
  pass.nextStartNodeIndex = allNodes.length === 0 ? 0 : (opts.nextStartNodeIndex + processed) % allNodes.length;
  return pass;
}

/**
 * passFilters checks nodes in turn from the start index. Once enough fit it keeps going only until the next node that
 * fits (which cancels the search and is dropped), as the parallel search does when run one node at a time.
 */
function passFilters(fw: Framework, state: CycleState, pod: Pod, nodes: readonly NodeInfo[], opts: FilterOptions, pass: FilterPass): void {
  const n = nodes.length;
  if (n === 0) return;
  const toFind = numFeasibleNodesToFind(opts.percentageOfNodesToScore, n);
  for (let i = 0; i < n; i++) {
    const ni = nodes[(opts.nextStartNodeIndex + i) % n]!;
    if (fw.filterPlugins.length > 0 && checkNode(fw, state, pod, ni, pass) !== null) {
      if (pass.error) return;
      continue;
    }
    if (pass.feasible.length >= toFind) return;
    pass.verdicts.record(ni.name, null);
    pass.feasible.push(ni);
  }
}

/** checkNode runs the filters on one node and records a rejection in the diagnosis, or the error in the pass. */
function checkNode(fw: Framework, state: CycleState, pod: Pod, ni: NodeInfo, pass: FilterPass, nominated = false): PluginStatus {
  const status = fw.runFilterPluginsWithNominatedPods(state, pod, ni, pass.countNominated);
  if (status === null) return null;
  if (status.code === Code.Error) {
    pass.error = status;
    return status;
  }
  pass.verdicts.record(ni.name, status, nominated);
  pass.diagnosis.nodeToStatus.set(ni.name, status);
  addPluginStatus(pass.diagnosis, status);
  return status;
}
