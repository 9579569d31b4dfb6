// Preemption candidates: the dry run over the nodes where evicting pods might help, and the choice of one candidate.
// See pkg/scheduler/framework/preemption/preemption.go (findCandidates, DryRunPreemption, SelectCandidate,
// pickOneNodeForPreemption) and framework/types.go (NodeToStatus.NodesForStatusCode).
import type { Pod } from '../../../api/types';
import type { CycleState } from '../../framework/cycle-state';
import { NodeToStatus } from '../../framework/diagnosis';
import type { NodeInfo } from '../../framework/node-info';
import type { Snapshot } from '../../framework/snapshot';
import { asError, Code, isSuccess, type Status } from '../../framework/status';
import { podPriority } from '../queuesort';
import type { PodDisruptionBudget } from './pdb';
import { earliestPodStartTime, selectVictimsOnNode, type PreemptionHandle } from './victims';

/** Candidate is a node where the preemptor fits once its victims are gone. */
export interface Candidate {
  name: string;
  /** victims are the pods to evict, most important first. */
  victims: Pod[];
  numPDBViolations: number;
}

/** DryRun is what the dry run found: the candidates (non-violating first), the failed nodes' statuses, and the errors. */
export interface DryRun {
  candidates: Candidate[];
  nodeStatuses: NodeToStatus;
  errors: string[];
}

/**
 * nodesForStatusCode lists the nodes whose status has the code: those without their own status first (when the absent
 * status has it) in snapshot order, then those with one, in the order they were set (Go iterates a map here).
 */
export function nodesForStatusCode(m: NodeToStatus, snapshot: Snapshot, code: Code): NodeInfo[] {
  const out: NodeInfo[] = [];
  const explicit = new Map(m.entries());
  if (m.absentNodesStatus().code === code) for (const ni of snapshot.nodeInfoList) if (!explicit.has(ni.name)) out.push(ni);
  for (const [name, status] of explicit) {
    const ni = snapshot.get(name);
    if (status.code === code && ni) out.push(ni);
  }
  return out;
}

/**
 * dryRunPreemption checks the potential nodes one by one from the offset, wrapping around. It stops once it holds a
 * candidate that violates no PDB and at least numCandidates in all; it keeps at most numCandidates of each kind, as
 * Kubernetes' fixed-size candidate lists do. A node that yields no candidate keeps its status for the message.
 */
export function dryRunPreemption(
  handle: PreemptionHandle, state: CycleState, pod: Pod, potentialNodes: readonly NodeInfo[],
  pdbs: readonly PodDisruptionBudget[], offset: number, numCandidates: number,
): DryRun {
  const nonViolating: Candidate[] = [];
  const violating: Candidate[] = [];
  const nodeStatuses = new NodeToStatus();
  const errors: string[] = [];
  for (let i = 0; i < potentialNodes.length; i++) {
    const ni = potentialNodes[(offset + i) % potentialNodes.length]!;
    const { victims, numPDBViolations, status } = selectVictimsOnNode(handle, state.clone(), pod, ni, pdbs);
    if (isSuccess(status) && victims.length > 0) {
      const list = numPDBViolations === 0 ? nonViolating : violating;
      if (list.length < numCandidates) list.push({ name: ni.name, victims, numPDBViolations });
      if (nonViolating.length > 0 && nonViolating.length + violating.length >= numCandidates) break;
      continue;
    }
    const failed: Status = isSuccess(status) ? asError(`expected at least one victim pod on node "${ni.name}"`) : status!;
    if (failed.code === Code.Error) errors.push(failed.message());
    nodeStatuses.set(ni.name, failed);
  }
  return { candidates: [...nonViolating, ...violating], nodeStatuses, errors };
}

/** ScoreFunc is one of pickOneNodeForPreemption's criteria: the higher, the better. */
interface ScoreFunc {
  criterion: string;
  score(c: Candidate): number;
}

// Why: priorities are shifted by MaxInt32+1 so that sums of negative priorities still favor fewer pods.
const PRIORITY_SHIFT = 2 ** 31;

/** SCORE_FUNCS are the default criteria, in order of precedence. */
const SCORE_FUNCS: readonly ScoreFunc[] = [
  { criterion: 'fewest PDB violations', score: (c) => -c.numPDBViolations },
  { criterion: 'lowest highest-priority victim', score: (c) => -podPriority(c.victims[0]!) },
  { criterion: 'smallest sum of victim priorities', score: (c) => -c.victims.reduce((sum, p) => sum + podPriority(p) + PRIORITY_SHIFT, 0) },
  { criterion: 'fewest victims', score: (c) => -c.victims.length },
  { criterion: 'latest start of the highest-priority victims', score: (c) => earliestPodStartTime(c.victims) ?? Number.NEGATIVE_INFINITY },
];

/** Selection is the chosen candidate and the criterion that decided ("only candidate", a criterion, or "first of the tied"). */
export interface Selection {
  candidate: Candidate;
  decidedBy: string;
}

/** FIRST_OF_TIED names the last resort of pickOneNodeForPreemption: the first of the candidates still tied. */
export const FIRST_OF_TIED = 'first of the candidates still tied';

/**
 * selectCandidate picks one candidate as pickOneNodeForPreemption does: each criterion keeps the candidates with the best
 * score until one is left; when all criteria tie, the first remaining one wins (Go takes the first of a map's order).
 */
export function selectCandidate(candidates: readonly Candidate[]): Selection | undefined {
  if (candidates.length === 0) return undefined;
  if (candidates.length === 1) return { candidate: candidates[0]!, decidedBy: 'only candidate' };
  let remaining = [...candidates];
  for (const f of SCORE_FUNCS) {
    let best = Number.NEGATIVE_INFINITY;
    let selected: Candidate[] = [];
    for (const c of remaining) {
      const score = f.score(c);
      if (score > best) {
        best = score;
        selected = [];
      }
      if (score === best) selected.push(c);
    }
    if (selected.length === 1) return { candidate: selected[0]!, decidedBy: f.criterion };
    remaining = selected;
  }
  return { candidate: remaining[0]!, decidedBy: FIRST_OF_TIED };
}
