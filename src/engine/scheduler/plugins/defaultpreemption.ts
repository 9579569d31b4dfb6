// DefaultPreemption (first cut): decides whether evicting lower-priority pods could make room, and says why not when it cannot.
// See pkg/scheduler/framework/preemption/preemption.go (Preempt, findCandidates, nodesWherePreemptionMightHelp) and
// pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go (PodEligibleToPreemptOthers, SelectVictimsOnNode).
import type { Pod } from '../../api/types';
import type { CycleState } from '../framework/cycle-state';
import { newDiagnosis, type FitError, type NodeToStatus } from '../framework/diagnosis';
import type { Handle, NodeInfo, Plugin, PostFilterOutput, PostFilterPlugin } from '../framework/interfaces';
import { Code, newStatus, Status, type PluginStatus } from '../framework/status';
import { fitErrorMessage } from '../messages';
import { Names } from './names';
import { podPriority } from './queuesort';

/** Name is the plugin's name in profiles. */
export const Name = Names.DefaultPreemption;

/** Reason lists DefaultPreemption's words. */
export const Reason = {
  NotHelpful: 'Preemption is not helpful for scheduling',
  NoVictims: 'No preemption victims found for incoming pod',
  PolicyNever: 'not eligible due to preemptionPolicy=Never.',
  TerminatingOnNominated: 'not eligible due to a terminating pod on the nominated node.',
} as const;

/** MESSAGE_PREFIX starts every DefaultPreemption message. */
export const MESSAGE_PREFIX = 'preemption: ';
/** PREEMPT_NEVER is the preemptionPolicy that forbids a pod to preempt. */
export const PREEMPT_NEVER = 'Never';
/** MIN_CANDIDATE_NODES_PERCENTAGE is DefaultPreemptionArgs' default share of nodes to try as candidates. */
export const MIN_CANDIDATE_NODES_PERCENTAGE = 10;
/** MIN_CANDIDATE_NODES_ABSOLUTE is DefaultPreemptionArgs' default fewest candidate nodes. */
export const MIN_CANDIDATE_NODES_ABSOLUTE = 100;

const DISRUPTION_TARGET = 'DisruptionTarget';
const PREEMPTION_BY_SCHEDULER = 'PreemptionByScheduler';

/** Candidate is a node where evicting lower-priority pods makes the pod fit, with those pods (not yet minimized). */
export interface Candidate {
  node: string;
  potentialVictims: string[];
}

/** DefaultPreemption finds out whether preemption can help. Choosing and evicting victims is not simulated yet. */
export class DefaultPreemption implements PostFilterPlugin {
  readonly name = Name;
  private readonly handle: Handle;

  constructor(handle: Handle) {
    this.handle = handle;
  }

  postFilter(state: CycleState, pod: Pod, m: NodeToStatus): PostFilterOutput {
    const ineligible = this.ineligibility(pod, m);
    if (ineligible) return { status: newStatus(Code.Unschedulable, MESSAGE_PREFIX + ineligible) };
    const allNodes = this.handle.snapshot().nodeInfoList;
    const { candidates, statuses } = this.findCandidates(state, pod, allNodes, m);
    if (candidates.length > 0) {
      // Kubernetes would pick one candidate, nominate it and evict its victims; the PostFilter then succeeds.
      return { result: { detail: { candidates } }, status: null };
    }
    statuses.setAbsentNodesStatus(newStatus(Code.UnschedulableAndUnresolvable, Reason.NotHelpful));
    const fitError: FitError = { pod, numAllNodes: allNodes.length, diagnosis: { ...newDiagnosis(), nodeToStatus: statuses } };
    return { result: { nominatedNodeName: '' }, status: newStatus(Code.Unschedulable, MESSAGE_PREFIX + fitErrorMessage(fitError)) };
  }

  /** ineligibility is PodEligibleToPreemptOthers' reason to refuse, or '' when the pod may preempt. */
  private ineligibility(pod: Pod, m: NodeToStatus): string {
    if (pod.spec?.preemptionPolicy === PREEMPT_NEVER) return Reason.PolicyNever;
    const nominated = pod.status?.nominatedNodeName ?? '';
    if (nominated === '' || m.get(nominated).code === Code.UnschedulableAndUnresolvable) return '';
    const ni = this.handle.snapshot().get(nominated);
    const priority = podPriority(pod);
    const terminating = ni?.pods.some((p) => p.priority < priority && terminatingByPreemption(p.pod)) ?? false;
    return terminating ? Reason.TerminatingOnNominated : '';
  }

  /** findCandidates dry-runs preemption on the nodes where it might help, from a random offset, until enough candidates. */
  private findCandidates(state: CycleState, pod: Pod, allNodes: readonly NodeInfo[], m: NodeToStatus): { candidates: Candidate[]; statuses: NodeToStatus } {
    const statuses = newDiagnosis().nodeToStatus;
    const potential: NodeInfo[] = [];
    for (const ni of allNodes) {
      if (m.get(ni.name).code === Code.UnschedulableAndUnresolvable) statuses.set(ni.name, newStatus(Code.UnschedulableAndUnresolvable, Reason.NotHelpful));
      else potential.push(ni);
    }
    const candidates: Candidate[] = [];
    if (potential.length === 0) return { candidates, statuses };
    const offset = this.handle.random().intn(potential.length);
    const wanted = numCandidates(potential.length);
    for (let i = 0; i < potential.length && candidates.length < wanted; i++) {
      const ni = potential[(offset + i) % potential.length]!;
      const { victims, status } = this.selectVictimsOnNode(state, pod, ni);
      if (status === null) candidates.push({ node: ni.name, potentialVictims: victims });
      else statuses.set(ni.name, status);
    }
    return { candidates, statuses };
  }

  /** selectVictimsOnNode removes the lower-priority pods and runs the filters again; no such pod means no victim. */
  private selectVictimsOnNode(state: CycleState, pod: Pod, ni: NodeInfo): { victims: string[]; status: PluginStatus } {
    const priority = podPriority(pod);
    const lower = ni.pods.filter((p) => p.priority < priority);
    if (lower.length === 0) return { victims: [], status: newStatus(Code.UnschedulableAndUnresolvable, Reason.NoVictims) };
    const reduced = ni.without((p) => p.priority < priority);
    const status = this.handle.runFilterPlugins(state.clone(), pod, reduced);
    if (status !== null && status.code !== Code.Success) return { victims: [], status: new Status(status.code, status.reasons, status.plugin) };
    return { victims: lower.map((p) => `${p.pod.metadata?.namespace ?? ''}/${p.pod.metadata?.name ?? ''}`), status: null };
  }

  fieldPath(pod: Pod): string {
    return pod.spec?.preemptionPolicy ? 'spec.preemptionPolicy' : 'spec.priority';
  }
}

/** numCandidates is how many candidates the dry run looks for: 10% of the nodes, at least 100, at most all. */
export function numCandidates(numNodes: number): number {
  const n = Math.max(Math.trunc((numNodes * MIN_CANDIDATE_NODES_PERCENTAGE) / 100), MIN_CANDIDATE_NODES_ABSOLUTE);
  return Math.min(n, numNodes);
}

/** terminatingByPreemption tells a pod being deleted because the scheduler preempted it. */
function terminatingByPreemption(pod: Pod): boolean {
  if (!pod.metadata?.deletionTimestamp) return false;
  return (pod.status?.conditions ?? []).some((c) => c.type === DISRUPTION_TARGET && c.reason === PREEMPTION_BY_SCHEDULER && c.status === 'True');
}

/** New builds the plugin. */
export function New(handle: Handle): Plugin {
  return new DefaultPreemption(handle);
}
