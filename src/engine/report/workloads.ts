// What became of each workload, as every front prints it under the outcome: one line each, with why for one the
// engine did not run. The result holds them only when they say more than the outcome (Simulation.result).
import type { SimulationResult } from '../simulation-options';

/** workloadLines are the lines under the outcome: `  Pod/default/web: Running`, or none. */
export function workloadLines(result: Pick<SimulationResult, 'workloads'>): string[] {
  return (result.workloads ?? []).map((w) => `  ${w.object}: ${w.outcome}${w.note ? ` (${w.note})` : ''}`);
}
