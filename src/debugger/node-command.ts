// `kubectl cordon NODE`, `kubectl uncordon NODE` and `kubectl drain NODE [flags]` typed in the Debug Console: a console
// command cannot move the virtual clock on by itself, so the run is replayed from the start with the command at the
// current virtual time (a later kubectl command of the engine's options, as the CLI's --then-drain is), as a what-if
// edit replays it with a changed input. It pauses on the command's first step, and the console prints what kubectl
// prints over the rest of the run (the retries of a drain a disruption budget holds back, `node/NAME drained`).
import type { ObjectRef } from '../engine/api/types';
import { splitWords } from '../engine/console/args';
import { parseNodeCommand } from '../engine/console/node-command';
import { commandLine } from '../engine/kubectl/node-command';
import type { LaterKubectl } from '../engine/simulation';
import type { TraceEntry } from '../engine/runtime/recorder';
import type { Redelete } from './redelete';
import type { LifecycleRun } from './run';
import { decisionChanges } from './whatif';

/** runNodeCommand answers a cordon, uncordon or drain console line: kubectl's refusals as kubectl prints them, or the run replayed with it. */
export function runNodeCommand(run: LifecycleRun, line: string): Redelete | string {
  const words = splitWords(line.trim()).map((w) => w.text).slice(1);
  const command = parseNodeCommand(words);
  if ('error' in command) return command.error;
  if (!run.current) return 'The run has not started yet: step to its first phase, then type the command again.';
  const at = run.sim.now;
  const later: LaterKubectl = { afterSeconds: at, command };
  const options = { ...run.options, thenKubectl: [...(run.options.thenKubectl ?? []), later] };
  const ref: ObjectRef = `Node/${command.node}`;
  const before = run.probe();
  // The command is queued at this instant as the run's other later commands are, when the run begins: it comes before
  // the tasks that arise at this instant later on, so it may come before the step the run was paused on. Its first
  // step is kubectl's GET of the node.
  const isIt = (e: TraceEntry) => e.at >= at && e.phase === 'kubectl.drain' && e.object === ref && e.result.startsWith(`kubectl sends GET /api/v1/nodes/${command.node}`);
  const replayed = run.replayTo(isIt, run.inputs, options);
  const after = run.probe();
  const text = commandLine(command);
  const lines = [`${text} at ${seconds(at)}: the lifecycle was run again from the start with it${replayed.reached ? ', and is paused on it' : ''}. kubectl prints, over the rest of the run:`];
  const printed = after.commands.filter((c) => c.command === text && c.at === at).at(-1)?.output;
  lines.push(...(printed ? printed.split('\n') : ['(nothing: the run ended before the command)']).map((l) => `  ${l}`));
  lines.push(...decisionChanges(before, after).map((l) => `  ${l}`));
  if (!replayed.reached) lines.push('  The run ended before that time: it is paused on its last step.');
  return { lines, changes: replayed.changes };
}

function seconds(s: number): string {
  return `${Math.round(s * 1000) / 1000}s`;
}
