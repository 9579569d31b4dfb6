// What the session prints to the Debug Console: Kubernetes events and pod status changes as they happen (narration.ts
// orders them with kubectl's lines), and the outcome at the end; a run without debugging prints the CLI's whole human
// report instead.
import type { KubeEvent, TraceEntry } from '../engine/runtime/recorder';
import { budgetReached, type SimulationResult } from '../engine/simulation';
import { renderHuman, style, timelineLine } from '../engine/report/human';
import { workloadLines } from '../engine/report/workloads';
import type { KubectlLines } from '../engine/kubectl/generate/load';

/** ConsoleLine is one piece of Debug Console output and its OutputEvent category. */
export interface ConsoleLine {
  text: string;
  category: 'console' | 'stdout' | 'stderr';
}

const ANSI = { yellow: (s: string) => `\u001b[33m${s}\u001b[39m`, green: (s: string) => `\u001b[32m${s}\u001b[39m`, cyan: (s: string) => `\u001b[36m${s}\u001b[39m` };

/**
 * eventLine prints a Kubernetes event as `kubectl get events` lists it, its type colored (Normal green, Warning
 * yellow); Warnings go to stderr. A repeated event says how many times it has happened (the event's count).
 */
export function eventLine(event: KubeEvent): ConsoleLine {
  const object = event.object.replace(/^([A-Za-z]+)\/(?:[^/]+\/)?/, (_m, kind: string) => `${kind.toLowerCase()}/`);
  const type = event.type === 'Warning' ? ANSI.yellow(event.type) : ANSI.green(event.type);
  const count = event.count > 1 ? ` (x${event.count})` : '';
  const text = `${event.at.toFixed(3)}s  ${type}  ${event.reason}  ${object}  (${event.source})  ${event.message}${count}\n`;
  return { text, category: event.type === 'Warning' ? 'stderr' : 'console' };
}

/** stepLine prints the step a session stops on as the timeline prints it: when, the phase and step, the object, the result. */
export function stepLine(entry: TraceEntry): ConsoleLine {
  return { text: `${timelineLine(entry, style(true))}\n`, category: 'console' };
}

/** statusLine prints a pod's status change: `2.000s  pod/web  Pending → Running, Ready True`. */
export function statusLine(at: number, ref: string, before: string | undefined, after: string): ConsoleLine {
  const pod = ref.replace(/^Pod\/[^/]+\//, 'pod/');
  return { text: `${at.toFixed(3)}s  ${ANSI.cyan('Status')}  ${pod}  ${before ? `${before} → ` : ''}${after}\n`, category: 'console' };
}

/** endLines prints the outcome as the run ends (kubectl's lines came as kubectl printed them); short of it, on stderr. */
export function endLines(result: SimulationResult, deleting: boolean): ConsoleLine[] {
  const lines: ConsoleLine[] = [];
  const rejection = result.rejection ? ` in ${result.rejection.phase} (${result.rejection.code ? `${result.rejection.code} ` : ''}${result.rejection.reason})` : '';
  lines.push({ text: `Outcome: ${result.outcome}${rejection}\n`, category: completed(result, deleting) ? 'stdout' : 'stderr' });
  // A manifest of several workloads says what became of each, and why one was not run.
  for (const line of workloadLines(result)) lines.push({ text: `${line}\n`, category: 'console' });
  if (result.outcome === 'NotSimulated') lines.push({ text: 'Set "allowUnsimulated": true in the launch configuration to judge the run by the workloads the engine runs.\n', category: 'stderr' });
  if (result.stopped) lines.push({ text: budgetLine(result), category: 'stderr' });
  return lines;
}

/** budgetLine says that the run stopped at its budget, and the launch attribute that raises it. */
function budgetLine(result: SimulationResult): string {
  const stop = result.stopped!;
  const reached = budgetReached(stop);
  const how = stop.budget === 'time' ? 'give it longer with "for"' : `raise "${stop.budget === 'steps' ? 'maxSteps' : 'maxObjects'}"`;
  return `${reached[0]!.toUpperCase()}${reached.slice(1)}: ${how} in the launch configuration.\n`;
}

/** reportLines is the CLI's human report (kubectl lines, timeline, events, outcome), for a run without debugging. */
export function reportLines(result: SimulationResult, manifest: string, deleting: boolean, command?: KubectlLines): ConsoleLine[] {
  // kubectl's -v=N log is its stderr, as the CLI prints it apart from the report.
  const lines: ConsoleLine[] = (result.kubectlLog ?? []).map((line) => ({ text: `${line}\n`, category: 'stderr' }));
  lines.push({ text: `${renderHuman(result, manifest, style(false), command)}\n`, category: 'stdout' });
  if (!completed(result, deleting) && result.rejection) lines.push({ text: `${result.rejection.message}\n`, category: 'stderr' });
  // A manifest of several workloads says what became of each, and why one was not run.
  for (const line of workloadLines(result)) lines.push({ text: `${line}\n`, category: 'console' });
  if (result.outcome === 'NotSimulated') lines.push({ text: 'Set "allowUnsimulated": true in the launch configuration to judge the run by the workloads the engine runs.\n', category: 'stderr' });
  if (result.stopped) lines.push({ text: budgetLine(result), category: 'stderr' });
  return lines;
}

/** exitCode follows the CLI's contract: 0 when the lifecycle completed (Running, Succeeded; Deleted after delete), else 1. */
export function exitCode(result: SimulationResult, deleting: boolean): number {
  return completed(result, deleting) ? 0 : 1;
}

function completed(result: SimulationResult, deleting: boolean): boolean {
  if (result.stopped) return false;
  // A dry run does all a dry run does: kubectl printed the object, and nothing was to run.
  if (result.outcome === 'DryRun') return true;
  return deleting ? result.outcome === 'Deleted' : result.outcome === 'Running' || result.outcome === 'Succeeded';
}

/** LONG_WAIT_SECONDS is the virtual wait from which a progress notification is shown (image pulls, grace periods, back-offs). */
const LONG_WAIT_SECONDS = 1;

/**
 * waitBetween describes a long virtual wait between two entries for a progress notification; the entry the wait
 * ends with says what was waited for: a pulled image, a container that exits on SIGTERM, a back-off.
 */
export function waitBetween(previous: TraceEntry, entry: TraceEntry): { title: string; message: string; end: string } | undefined {
  const waited = Math.round((entry.at - previous.at) * 1000) / 1000;
  if (waited < LONG_WAIT_SECONDS) return undefined;
  const what = /back-?off/i.test(`${previous.result} ${entry.result}`) ? 'Back-off'
    : entry.phase === 'kubelet.imagePull' ? 'Pulling the image'
      : entry.phase === 'kubelet.terminate' || entry.phase === 'kubelet.preStop' ? 'Grace period' : 'Waiting';
  return { title: `${what}: ${waited}s of virtual time`, message: `${entry.object ?? 'the cluster'} after: ${previous.result}`, end: `${waited}s later: ${entry.result}` };
}
