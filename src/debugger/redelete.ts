// `kubectl delete pod NAME [--grace-period=N] [--force] [--now]` typed in the Debug Console while the run is paused
// after its first delete: the run is replayed from the start with one more delete at the current virtual time (a
// further delete of the engine's options), as a what-if edit replays it with a changed input. It pauses on that
// delete's first step, and the console says what kubectl printed and what changed.
import type { ObjectRef } from '../engine/api/types';
import { parseDeleteCommand } from '../engine/console/delete';
import { splitWords } from '../engine/console/args';
import type { FurtherDelete } from '../engine/simulation';
import type { TraceEntry } from '../engine/runtime/recorder';
import type { LifecycleRun, Probe, ThreadChanges } from './run';
import { decisionChanges } from './whatif';

/** Redelete is an accepted delete: what the console prints and the threads that appeared and went away. */
export interface Redelete {
  lines: string[];
  changes: ThreadChanges;
}

/**
 * deleteAgain answers a `kubectl delete` console line: kubectl's own refusals (flags) as kubectl prints them; a
 * message before the run's first delete; otherwise the run replayed with the delete added at the current time.
 */
export function deleteAgain(run: LifecycleRun, line: string): Redelete | string {
  const words = splitWords(line.trim()).map((w) => w.text).slice(2);
  const command = parseDeleteCommand(words);
  if ('error' in command) return command.error;
  if (!run.options.delete) {
    return 'This run does not delete the pod: launch it with "delete": true (or {"gracePeriod": N, "force": true}) to go through deletion; a kubectl delete typed here is a further delete, after that first one.';
  }
  const first = run.sim.firstDeleteAt;
  if (first === undefined || !run.current) {
    return 'The run has not deleted the pod yet: its kubectl delete comes once the pod has settled. Stop after it (a function breakpoint on apiserver.delete stops there), then type kubectl delete again.';
  }
  const at = run.sim.now;
  const further: FurtherDelete = {
    afterSeconds: at - first, pod: command.pod,
    ...(command.gracePeriodSeconds !== undefined ? { gracePeriodSeconds: command.gracePeriodSeconds } : {}), ...(command.force ? { force: true } : {}),
  };
  const index = run.options.thenDelete?.length ?? 0;
  const options = { ...run.options, thenDelete: [...(run.options.thenDelete ?? []), further] };
  const ref: ObjectRef = `Pod/${command.pod.namespace}/${command.pod.name}`;
  const before = run.probe();
  const from = run.current.seq;
  // The delete comes after everything else due at this instant: its first step is kubectl's, after the current one.
  const isIt = (e: TraceEntry) => e.seq > from && e.phase === 'kubectl.validate' && e.object === ref && e.result.startsWith('kubectl sends DELETE');
  const replayed = run.replayTo(isIt, run.inputs, options);
  const after = run.probe();
  const lines = [`kubectl delete at ${seconds(at)} (${seconds(at - first)} after the first delete): the lifecycle was run again from the start with it${replayed.reached ? ', and is paused on it' : ''}.`];
  const printed = after.further[index];
  if (printed) lines.push(...printed.split('\n').map((l) => `  ${l}`));
  lines.push(...whatChanged(before, after, ref).map((l) => `  ${l}`), ...decisionChanges(before, after).map((l) => `  ${l}`));
  if (!replayed.reached) lines.push('  The run ended before that time: it is paused on its last step.');
  return { lines, changes: replayed.changes };
}

/** whatChanged says when the pod left the API server and when its containers stopped, before and after the delete. */
function whatChanged(before: Probe, after: Probe, ref: ObjectRef): string[] {
  const label = `Pod ${ref.split('/').slice(1).join('/')}`;
  const was = before.removed.get(ref);
  const now = after.removed.get(ref);
  const lines: string[] = [];
  if (now === undefined) lines.push(`${label} is still in the API server at the end of the run${was === undefined ? ' (unchanged)' : ` (it was removed at ${seconds(was)})`}.`);
  else lines.push(`${label} is removed from the API server at ${seconds(now)}${was === undefined ? ' (it was not removed before)' : was === now ? ' (unchanged)' : ` (was ${seconds(was)})`}.`);
  const stopsWas = containersStopped(before, ref);
  const stopsNow = containersStopped(after, ref);
  if (stopsNow) {
    const same = stopsWas?.at === stopsNow.at && stopsWas.codes === stopsNow.codes;
    const was = same ? ', as before' : stopsWas ? `; before, at ${seconds(stopsWas.at)} (${stopsWas.codes})` : '';
    lines.push(`Its containers stop at ${seconds(stopsNow.at)} (${stopsNow.codes})${was}.`);
  }
  return lines;
}

/** containersStopped is when the kubelet's kill of the pod ended and with which exit codes (kubelet.terminate entries). */
function containersStopped(probe: Probe, ref: ObjectRef): { at: number; codes: string } | undefined {
  const exits = probe.trace.filter((e) => e.phase === 'kubelet.terminate' && e.object === ref && typeof e.detail['exitCode'] === 'number');
  if (exits.length === 0) return undefined;
  return { at: Math.max(...exits.map((e) => e.at)), codes: exits.map((e) => `${e.step?.name ?? 'container'}: exit code ${String(e.detail['exitCode'])}`).join(', ') };
}

function seconds(s: number): string {
  return `${Math.round(s * 1000) / 1000}s`;
}
