// What the session prints to the Debug Console: Kubernetes events as they happen, and at the end what kubectl
// printed and the outcome; a run without debugging prints the CLI's whole human report instead.
import type { KubeEvent } from '../engine/runtime/recorder';
import type { SimulationResult } from '../engine/simulation';
import { renderHuman, style } from '../cli/render';

/** ConsoleLine is one piece of Debug Console output and its OutputEvent category. */
export interface ConsoleLine {
  text: string;
  category: 'console' | 'stdout' | 'stderr';
}

/** eventLine prints a Kubernetes event as `kubectl get events` lists it; Warnings go to stderr. */
export function eventLine(event: KubeEvent): ConsoleLine {
  const object = event.object.replace(/^([A-Za-z]+)\/(?:[^/]+\/)?/, (_m, kind: string) => `${kind.toLowerCase()}/`);
  const text = `${event.at.toFixed(3)}s  ${event.type}  ${event.reason}  ${object}  (${event.source})  ${event.message}\n`;
  return { text, category: event.type === 'Warning' ? 'stderr' : 'console' };
}

/** endLines prints what kubectl printed and the outcome, as the run ends; a refused request goes to stderr. */
export function endLines(result: SimulationResult, manifest: string, deleting: boolean): ConsoleLine[] {
  const lines: ConsoleLine[] = [{ text: `$ kubectl apply -f ${manifest}${deleting ? ` && kubectl delete -f ${manifest}` : ''}\n`, category: 'stdout' }];
  const printed = result.kubectl.replace(/\n+$/, '');
  if (printed) lines.push({ text: `${printed}\n`, category: result.rejection ? 'stderr' : 'stdout' });
  const rejection = result.rejection ? ` in ${result.rejection.phase} (${result.rejection.code ? `${result.rejection.code} ` : ''}${result.rejection.reason})` : '';
  lines.push({ text: `Outcome: ${result.outcome}${rejection}\n`, category: completed(result, deleting) ? 'stdout' : 'stderr' });
  return lines;
}

/** reportLines is the CLI's human report (kubectl lines, timeline, events, outcome), for a run without debugging. */
export function reportLines(result: SimulationResult, manifest: string, deleting: boolean): ConsoleLine[] {
  const lines: ConsoleLine[] = [{ text: `${renderHuman(result, manifest, style(false))}\n`, category: 'stdout' }];
  if (!completed(result, deleting) && result.rejection) lines.push({ text: `${result.rejection.message}\n`, category: 'stderr' });
  return lines;
}

/** exitCode follows the CLI's contract: 0 when the lifecycle completed (Running, Succeeded; Deleted after delete), else 1. */
export function exitCode(result: SimulationResult, deleting: boolean): number {
  return completed(result, deleting) ? 0 : 1;
}

function completed(result: SimulationResult, deleting: boolean): boolean {
  return deleting ? result.outcome === 'Deleted' : result.outcome === 'Running' || result.outcome === 'Succeeded';
}
