// Why this node and why not the others: sentences read from one attempt's Decision tables (filters, scores, tie).
// See pkg/scheduler/schedule_one.go (selectHost: the highest total wins, ties are broken at random).
import type { SchedulingAttempt } from './attempt';
import type { SchedulingFacts } from './facts';
import { firstFailure, noteFor } from './scheduling';

/** whyChosen says why the attempt chose its node, or that no node fits. */
export function whyChosen(a: SchedulingAttempt): string {
  const chosen = a.chosen;
  if (!chosen) {
    if (a.nodes.length === 0) return 'no node fits: the cluster has no nodes';
    if (a.feasible.length > 0) return `${a.feasible.length} of ${a.nodes.length} nodes passed the filters, but the cycle ended without a choice`;
    return `no node fits: 0 of ${a.nodes.length} nodes passed the filters`;
  }
  const scored = Object.keys(a.totals).length;
  if (scored === 0) return `${chosen} is the only node that fits: no scoring`;
  const total = a.totals[chosen];
  if (a.tied.length > 1) return `${chosen} chosen at random among ${a.tied.length} nodes tied at ${total}`;
  return `${chosen} has the highest total, ${total}`;
}

/** biggestGap names the score plugin where a node lost the most weighted points to the chosen one. */
function biggestGap(a: SchedulingAttempt, node: string, chosen: string): string | undefined {
  let best: { plugin: string; gap: number } | undefined;
  for (const { name } of a.scorePlugins) {
    const mine = a.scores[node]?.[name]?.weighted ?? 0;
    const theirs = a.scores[chosen]?.[name]?.weighted ?? 0;
    if (theirs - mine > 0 && (!best || theirs - mine > best.gap)) best = { plugin: name, gap: theirs - mine };
  }
  if (!best) return undefined;
  return `${best.plugin} ${a.scores[node]?.[best.plugin]?.weighted ?? 0} against ${a.scores[chosen]?.[best.plugin]?.weighted ?? 0}`;
}

/** whyNotFeasible explains a node that passed every filter but was not chosen. */
function whyNotFeasible(a: SchedulingAttempt, node: string): string {
  const chosen = a.chosen;
  if (!chosen) return 'it fits, but no node was chosen';
  const mine = a.totals[node];
  const theirs = a.totals[chosen];
  if (mine === undefined || theirs === undefined) return `it fits, but ${chosen} was chosen`;
  if (mine === theirs) return `tied at ${mine}: the random tie-break chose ${chosen}`;
  const gap = biggestGap(a, node, chosen);
  return `lower total, ${mine} against ${theirs}${gap ? ` (most of the gap: ${gap})` : ''}`;
}

/** whyNotUnchecked explains a node the filters never ran on: narrowed away at PreFilter, or past the search's end. */
function whyNotUnchecked(a: SchedulingAttempt): string {
  const rejected = a.preFilter.find((r) => r.code !== 'Success' && r.code !== 'Skip');
  if (rejected) return `${rejected.plugin} rejected the pod at PreFilter: ${rejected.reasons.join(', ')}`;
  const narrowed = a.preFilter.find((r) => r.nodeNames);
  if (narrowed) return `${narrowed.plugin}'s PreFilter narrowed the search to ${narrowed.nodeNames!.join(', ') || 'no node'}`;
  return 'not checked: the scheduler stopped once it had found enough feasible nodes';
}

/** whyNotChosen says, for every node but the chosen one, its first failing filter and reason, or its lower total. */
export function whyNotChosen(a: SchedulingAttempt, facts: SchedulingFacts): Record<string, string> {
  const out: Record<string, string> = {};
  for (const node of a.nodes) {
    if (node === a.chosen) continue;
    const failure = firstFailure(a, node);
    if (failure) {
      const reasons = failure.reasons.map((r) => {
        const note = noteFor(r, node, a, facts);
        return note ? `${r} (${note})` : r;
      });
      out[node] = `${failure.plugin}: ${reasons.join(', ') || failure.code}`;
    } else if (a.feasible.includes(node)) {
      out[node] = whyNotFeasible(a, node);
    } else {
      out[node] = whyNotUnchecked(a);
    }
  }
  return out;
}
