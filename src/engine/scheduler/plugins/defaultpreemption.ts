// DefaultPreemption: when no node fits, finds the node where evicting the fewest, least important lower-priority pods
// makes room, and proposes it with its victims. Evicting them and nominating the node is kube-scheduler's job.
// See pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go and pkg/scheduler/framework/preemption.
import type { Pod } from '../../api/types';
import { aggregate } from '../../api/labels-validation';
import type { CycleState } from '../framework/cycle-state';
import { newDiagnosis, NodeToStatus, type FitError } from '../framework/diagnosis';
import type { Handle, NodeInfo, Plugin, PostFilterOutput, PostFilterPlugin } from '../framework/interfaces';
import { Code, newStatus, Status } from '../framework/status';
import { fitErrorMessage } from '../messages';
import { Names } from './names';
import { dryRunPreemption, nodesForStatusCode, selectCandidate, type Candidate, type DryRun } from './preemption/candidates';
import { listPodDisruptionBudgets } from './preemption/pdb';
import { isPreemptionAllowed, NO_VICTIMS, type PreemptionHandle } from './preemption/victims';
import { podPriority } from './queuesort';

/** Name is the plugin's name in profiles. */
export const Name = Names.DefaultPreemption;

/** Reason lists DefaultPreemption's words. */
export const Reason = {
  NotHelpful: 'Preemption is not helpful for scheduling',
  NoVictims: NO_VICTIMS,
  PolicyNever: 'not eligible due to preemptionPolicy=Never.',
  TerminatingOnNominated: 'not eligible due to a terminating pod on the nominated node.',
  NoCandidate: 'no candidate node for preemption',
} as const;

/** MESSAGE_PREFIX starts every DefaultPreemption message. */
export const MESSAGE_PREFIX = 'preemption: ';
/** PREEMPT_NEVER is the preemptionPolicy that forbids a pod to preempt. */
export const PREEMPT_NEVER = 'Never';
/** MIN_CANDIDATE_NODES_PERCENTAGE is DefaultPreemptionArgs' default share of nodes to try as candidates. */
export const MIN_CANDIDATE_NODES_PERCENTAGE = 10;
/** MIN_CANDIDATE_NODES_ABSOLUTE is DefaultPreemptionArgs' default fewest candidate nodes. */
export const MIN_CANDIDATE_NODES_ABSOLUTE = 100;

/** PREEMPTED_REASON and PREEMPTING_ACTION are the reason and action of the Normal event recorded on each victim. */
export const PREEMPTED_REASON = 'Preempted';
export const PREEMPTING_ACTION = 'Preempting';
/** DISRUPTION_TARGET and PREEMPTION_BY_SCHEDULER are the condition a victim gets before its deletion, and its reason. */
export const DISRUPTION_TARGET = 'DisruptionTarget';
export const PREEMPTION_BY_SCHEDULER = 'PreemptionByScheduler';
/** WAITING_FOR_PREEMPTION is the PreEnqueue message that holds a preemptor while its victims are being deleted (async preemption). */
export const WAITING_FOR_PREEMPTION = 'waiting for the preemption for this pod to be finished';

/** preemptedMessage is the Preempted event's message on a victim: `Preempted by pod <uid> on node <node>` (preemption/executor.go). */
export function preemptedMessage(preemptorUid: string, node: string): string {
  return `Preempted by pod ${preemptorUid} on node ${node}`;
}

/** disruptionTargetMessage is the message of the victim's DisruptionTarget condition, e.g. `default-scheduler: preempting ...`. */
export function disruptionTargetMessage(schedulerName: string): string {
  return `${schedulerName}: preempting to accommodate a higher priority pod`;
}

/** DefaultPreemptionArgs is the plugin's pluginConfig args (kubescheduler.config.k8s.io/v1 DefaultPreemptionArgs). */
export interface DefaultPreemptionArgs {
  minCandidateNodesPercentage?: number;
  minCandidateNodesAbsolute?: number;
}

/** VictimRef names a victim for the component that evicts it, and for the trace. */
export interface VictimRef {
  namespace: string;
  name: string;
  uid: string;
  priority: number;
}

/** CandidateView is a candidate as the trace shows it. */
export interface CandidateView {
  node: string;
  victims: VictimRef[];
  numPDBViolations: number;
}

/** PreemptionDetail is PostFilterResult.detail when preemption succeeds: the chosen node's victims and every candidate. */
export interface PreemptionDetail extends Record<string, unknown> {
  node: string;
  victims: VictimRef[];
  numPDBViolations: number;
  /** decidedBy is the criterion of pickOneNodeForPreemption that set the chosen candidate apart. */
  decidedBy: string;
  candidates: CandidateView[];
}

/** victimRef names a victim pod. */
export function victimRef(pod: Pod): VictimRef {
  const m = pod.metadata;
  return { namespace: m?.namespace ?? '', name: m?.name ?? '', uid: m?.uid ?? '', priority: podPriority(pod) };
}

function candidateView(c: Candidate): CandidateView {
  return { node: c.name, victims: c.victims.map(victimRef), numPDBViolations: c.numPDBViolations };
}

/** DefaultPreemption is the PostFilter plugin that decides preemption. */
export class DefaultPreemption implements PostFilterPlugin {
  readonly name = Name;
  private readonly handle: PreemptionHandle;
  private readonly args: Required<DefaultPreemptionArgs>;

  constructor(handle: Handle, args: DefaultPreemptionArgs = {}) {
    this.handle = handle;
    this.args = {
      minCandidateNodesPercentage: args.minCandidateNodesPercentage ?? MIN_CANDIDATE_NODES_PERCENTAGE,
      minCandidateNodesAbsolute: args.minCandidateNodesAbsolute ?? MIN_CANDIDATE_NODES_ABSOLUTE,
    };
  }

  /** postFilter runs Evaluator.Preempt and prefixes its message with "preemption: ". */
  postFilter(state: CycleState, pod: Pod, m: NodeToStatus): PostFilterOutput {
    const out = this.preempt(state, pod, m);
    const msg = out.status?.message() ?? '';
    if (msg === '') return out;
    return { ...out, status: new Status(out.status!.code, [MESSAGE_PREFIX + msg]) };
  }

  /** preempt checks eligibility, dry-runs the candidates and picks one; no candidate yields the preemption FitError. */
  private preempt(state: CycleState, pod: Pod, m: NodeToStatus): PostFilterOutput {
    const ineligible = this.podEligibleToPreemptOthers(pod, m.get(pod.status?.nominatedNodeName ?? ''));
    if (ineligible) return { status: newStatus(Code.Unschedulable, ineligible) };
    const snapshot = this.handle.snapshot();
    const allNodes = snapshot.nodeInfoList;
    if (allNodes.length === 0) return { status: newStatus(Code.Error, 'no nodes available') };
    const potential = nodesForStatusCode(m, snapshot, Code.Unschedulable);
    // Why: with no potential node, findCandidates returns an empty NodeToStatus; every node is then "not helpful".
    let run: DryRun = { candidates: [], nodeStatuses: new NodeToStatus(), errors: [] };
    let search: Record<string, unknown> = { potentialNodes: 0 };
    if (potential.length > 0) {
      const pdbs = listPodDisruptionBudgets(this.handle.listers());
      const offset = this.handle.random().intn(potential.length);
      const numCandidates = this.calculateNumCandidates(potential.length);
      run = dryRunPreemption(this.handle, state, pod, potential, pdbs, offset, numCandidates);
      search = { potentialNodes: potential.length, offset, numCandidates, pdbs: pdbs.length };
    }
    if (run.errors.length > 0 && run.candidates.length === 0) return { status: newStatus(Code.Error, aggregate(run.errors)) };
    if (run.candidates.length === 0) {
      run.nodeStatuses.setAbsentNodesStatus(newStatus(Code.UnschedulableAndUnresolvable, Reason.NotHelpful));
      const fitError: FitError = { pod, numAllNodes: allNodes.length, diagnosis: { ...newDiagnosis(), nodeToStatus: run.nodeStatuses } };
      const nodes = Object.fromEntries([...run.nodeStatuses.entries()].map(([n, s]) => [n, { code: s.code, reasons: [...s.reasons] }]));
      // Why: a nominatedNodeName of '' clears the pod's nomination, since preemption cannot help anywhere.
      return { result: { nominatedNodeName: '', detail: { ...search, nodes } }, status: newStatus(Code.Unschedulable, fitErrorMessage(fitError)) };
    }
    const chosen = selectCandidate(run.candidates);
    if (!chosen) return { status: newStatus(Code.Unschedulable, Reason.NoCandidate) };
    const detail: PreemptionDetail = {
      node: chosen.candidate.name,
      victims: chosen.candidate.victims.map(victimRef),
      numPDBViolations: chosen.candidate.numPDBViolations,
      decidedBy: chosen.decidedBy,
      candidates: run.candidates.map(candidateView),
      ...search,
    };
    return { result: { nominatedNodeName: chosen.candidate.name, detail }, status: null };
  }

  /**
   * podEligibleToPreemptOthers is '' when the pod may preempt, else why not: its preemptionPolicy is Never, or it is
   * nominated to a node (that its filters did not rule out for good) where a lower-priority victim is still terminating.
   */
  podEligibleToPreemptOthers(pod: Pod, nominatedNodeStatus: Status): string {
    if (pod.spec?.preemptionPolicy === PREEMPT_NEVER) return Reason.PolicyNever;
    const nominated = pod.status?.nominatedNodeName ?? '';
    if (nominated === '' || nominatedNodeStatus.code === Code.UnschedulableAndUnresolvable) return '';
    const ni: NodeInfo | undefined = this.handle.snapshot().get(nominated);
    const terminating = ni?.pods.some((pi) => isPreemptionAllowed(pi, pod) && terminatingByPreemption(pi.pod)) ?? false;
    return terminating ? Reason.TerminatingOnNominated : '';
  }

  /** calculateNumCandidates is how many candidates the dry run looks for: the percentage of the nodes, at least the absolute, at most all. */
  calculateNumCandidates(numNodes: number): number {
    const n = Math.max(Math.trunc((numNodes * this.args.minCandidateNodesPercentage) / 100), this.args.minCandidateNodesAbsolute);
    return Math.min(n, numNodes);
  }

  fieldPath(pod: Pod): string {
    return pod.spec?.preemptionPolicy ? 'spec.preemptionPolicy' : 'spec.priority';
  }
}

/** numCandidates is calculateNumCandidates with the default args: 10% of the nodes, at least 100, at most all. */
export function numCandidates(numNodes: number): number {
  return Math.min(Math.max(Math.trunc((numNodes * MIN_CANDIDATE_NODES_PERCENTAGE) / 100), MIN_CANDIDATE_NODES_ABSOLUTE), numNodes);
}

/** terminatingByPreemption tells a pod being deleted because the scheduler preempted it (its first DisruptionTarget condition says so). */
export function terminatingByPreemption(pod: Pod): boolean {
  if (!pod.metadata?.deletionTimestamp) return false;
  const condition = (pod.status?.conditions ?? []).find((c) => c.type === DISRUPTION_TARGET);
  return condition !== undefined && condition.status === 'True' && condition.reason === PREEMPTION_BY_SCHEDULER;
}

/** validateDefaultPreemptionArgs is ValidateDefaultPreemptionArgs with a nil path, each error as field.Error prints it. */
export function validateDefaultPreemptionArgs(args: DefaultPreemptionArgs): string[] {
  const pct = args.minCandidateNodesPercentage ?? MIN_CANDIDATE_NODES_PERCENTAGE;
  const abs = args.minCandidateNodesAbsolute ?? MIN_CANDIDATE_NODES_ABSOLUTE;
  const errs: string[] = [];
  if (pct < 0 || pct > 100) errs.push(`minCandidateNodesPercentage: Invalid value: ${pct}: not in valid range [0, 100]`);
  if (abs < 0) errs.push(`minCandidateNodesAbsolute: Invalid value: ${abs}: not in valid range [0, inf)`);
  if (pct === 0 && abs === 0) {
    errs.push('minCandidateNodesPercentage: Invalid value: 0: cannot be zero at the same time as minCandidateNodesAbsolute');
    errs.push('minCandidateNodesAbsolute: Invalid value: 0: cannot be zero at the same time as minCandidateNodesPercentage');
  }
  return errs;
}

/** newDefaultPreemption returns the factory of the plugin with pluginConfig args; invalid args throw their aggregate message. */
export function newDefaultPreemption(args: DefaultPreemptionArgs = {}): (handle: Handle) => DefaultPreemption {
  const errs = validateDefaultPreemptionArgs(args);
  if (errs.length > 0) throw new Error(aggregate(errs));
  return (handle) => new DefaultPreemption(handle, args);
}

/** New builds the plugin with the profile's args (pluginConfig), or the defaults. */
export function New(handle: Handle, args?: Readonly<Record<string, unknown>>): Plugin {
  return args ? newDefaultPreemption(args as DefaultPreemptionArgs)(handle) : new DefaultPreemption(handle);
}
