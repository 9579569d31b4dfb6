// Step-in targets: the sub-steps ahead in the current phase — each plugin, node or container — and, in the
// scheduler's filter, each node a plugin will filter out; learned from the run's own trace, run ahead.
import type { TraceEntry } from '../engine/runtime/recorder';

/** StepTarget is one place "step into" can go: a label for the menu and the seq of the entry it stops on. */
export interface StepTarget {
  label: string;
  seq: number;
}

/** stepTargets lists the sub-steps after `current` that belong to the same run of its phase for its object. */
export function stepTargets(trace: readonly TraceEntry[], current: TraceEntry): StepTarget[] {
  const targets: StepTarget[] = [];
  const seen = new Set<string>();
  const filteredOut = new Set<string>();
  for (let seq = current.seq + 1; seq < trace.length; seq++) {
    const e = trace[seq]!;
    if (e.phase !== current.phase || e.object !== current.object) break;
    if (!e.step) continue;
    const key = `${e.step.kind} ${e.step.name}`;
    if (!seen.has(key)) {
      seen.add(key);
      targets.push({ label: key, seq });
    }
    if (e.phase === 'scheduler.filter') {
      for (const [node, status] of Object.entries(nodeTable(e))) {
        if (filteredOut.has(node) || status === 'Success' || status === 'NotRun' || status === 'Skip') continue;
        filteredOut.add(node);
        targets.push({ label: `node ${node} (filtered out by ${e.step.name})`, seq });
      }
    }
  }
  return targets;
}

function nodeTable(entry: TraceEntry): Record<string, string> {
  const nodes = entry.detail.nodes;
  if (!nodes || typeof nodes !== 'object' || Array.isArray(nodes)) return {};
  const out: Record<string, string> = {};
  for (const [node, result] of Object.entries(nodes as Record<string, unknown>)) {
    const code = result && typeof result === 'object' ? (result as { code?: unknown }).code : undefined;
    if (typeof code === 'string') out[node] = code;
  }
  return out;
}
