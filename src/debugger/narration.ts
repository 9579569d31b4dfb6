// What the Debug Console says as a debugged run moves: kubectl's command lines and what kubectl prints, where kubectl
// prints them (before the reactions they cause), then the events and pod status changes of each step; and, when the
// run goes back to an earlier step, a line that says so, after which the world's lines are printed again as they
// happen again. The console narrates the run at the step it stands on, never events from that step's future.
import { basename } from 'node:path';
import { kubectlLines as commandOf, type KubectlLines } from '../engine/kubectl/generate/load';
import type { KubeEvent, TraceEntry } from '../engine/runtime/recorder';
import type { ConsoleLine } from './output';
import { eventLine, statusLine } from './output';
import type { LifecycleRun } from './run';

/** applyCommand is the command line the run stands for: `$ kubectl apply -f pod.yaml`, or the kubectl command it started from. */
export function applyCommand(manifest: string, command?: KubectlLines): ConsoleLine {
  return { text: `$ ${command ? command.line : `kubectl apply -f ${basename(manifest)}`}\n`, category: 'stdout' };
}

/** deleteCommand is the run's `kubectl delete` with the flags it was given, as a person would have typed them. */
export function deleteCommand(manifest: string, flags: { gracePeriodSeconds?: number; force?: boolean; propagationPolicy?: string }, command?: KubectlLines): ConsoleLine {
  const parts = [`$ ${command?.deleteLine ?? `kubectl delete -f ${basename(manifest)}`}`];
  if (flags.gracePeriodSeconds !== undefined) parts.push(`--grace-period=${flags.gracePeriodSeconds}`);
  if (flags.force) parts.push('--force');
  if (flags.propagationPolicy) parts.push(`--cascade=${flags.propagationPolicy.toLowerCase()}`);
  return { text: `${parts.join(' ')}\n`, category: 'stdout' };
}

/** kubectlLines prints a piece of kubectl's output: its errors (kubectl writes them to stderr) apart from the rest. */
export function kubectlLines(printed: string): ConsoleLine[] {
  const lines = printed.replace(/\n+$/, '').split('\n').filter((l) => l !== '');
  // kubectl's errors are the lines its checkErr writes to stderr: `error: ...`, `Error from server (...)`, `The Pod "x" is invalid`.
  return lines.map((l) => ({ text: `${l}\n`, category: /^(error|Error|The )/.test(l) ? 'stderr' : 'stdout' }));
}

/**
 * stepLines are the lines one step of the run adds, in the order a person at a terminal would see them: what kubectl
 * printed (with its delete command line when the delete began), then the events, then the pods' status changes.
 */
export function stepLines(run: LifecycleRun, entry: TraceEntry): { lines: ConsoleLine[]; events: KubeEvent[] } {
  const lines: ConsoleLine[] = [];
  // kubectl -v=N logs each request to its stderr before it prints the outcome.
  for (const line of run.newKubectlLog()) lines.push({ text: `${line}\n`, category: 'stderr' });
  for (const piece of run.newKubectl()) {
    if (piece.command === 'delete' && !run.deleteAnnounced) {
      run.deleteAnnounced = true;
      lines.push(deleteCommand(run.files.manifest, run.options.delete ?? {}, commandOf(run.inputs)));
    }
    lines.push(...kubectlLines(piece.printed));
  }
  const events = run.newEvents();
  lines.push(...events.map(eventLine));
  lines.push(...run.statusChanges().map((c) => statusLine(entry.at, c.ref, c.before, c.after)));
  return { lines, events };
}

/**
 * rewindLine says that the run went back to an earlier step: what the console printed after it has not happened in
 * the run as it now stands, and is printed again when it happens again.
 */
export function rewindLine(entry: TraceEntry | undefined): ConsoleLine {
  const phase = entry ? (entry.step ? `${entry.phase} › ${entry.step.kind} ${entry.step.name}` : entry.phase) : '';
  const where = entry ? `${entry.at.toFixed(3)}s ${phase}${entry.object ? ` ${entry.object}` : ''}` : '0.000s, before kubectl apply';
  return { text: `\u21b6 Back to ${where}: what followed it above has not happened yet, and prints again when it does.\n`, category: 'console' };
}
