// What became of each workload, as every front prints it under the outcome: one line each, with why for one the
// engine did not run. A manifest of one workload that ran says it by the outcome alone.
import type { SimulationResult } from '../simulation-options';

/** workloadLines are the lines under the outcome: `  Pod/default/web: Running`, or none. */
export function workloadLines(result: Pick<SimulationResult, 'workloads'>): string[] {
  const workloads = result.workloads ?? [];
  if (workloads.length <= 1 && !workloads.some((w) => w.note)) return [];
  return workloads.map((w) => `  ${w.object}: ${w.outcome}${w.note ? ` (${w.note})` : ''}`);
}
