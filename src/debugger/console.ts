// The Debug Console's language, as the adapter calls it: evaluateConsole answers a line, completeConsole offers
// what may follow. Both hand the line to the engine's console; this file only adapts the shapes.
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { ObjectRef } from '../engine/api/types';
import type { Pod } from '../engine/api/types';
import { renderDiagnosis, renderPod } from '../engine/report/explain-text';
import { explainPod } from '../engine/explain/report';
import { style } from '../engine/report/human';
import { completeConsole as engineComplete, evaluateConsole as engineEvaluate } from '../engine/console/index';
import { diagnose } from '../engine/explain/diagnosis';
import type { Simulation, SimulationResult } from '../engine/simulation';

/** ConsoleFocus is what the console's names refer to: the pod of the selected stack frame (or the workload's first). */
export interface ConsoleFocus {
  pod?: ObjectRef;
}

/** ConsoleAnswer is the answer to one console line: text to show, and the structured value when there is one (expandable). */
export interface ConsoleAnswer {
  text: string;
  value?: unknown;
}

/** ConsoleCompletion is one completion: `text` replaces `length` characters from `start` (0-based) of the line. */
export interface ConsoleCompletion {
  label: string;
  text?: string;
  start?: number;
  length?: number;
  type?: DebugProtocol.CompletionItemType;
}

/** ConsoleError is a line the console cannot answer; its message is shown to the user as it is. */
export class ConsoleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConsoleError';
  }
}

/**
 * evaluateConsole answers one Debug Console line over the simulation as it stands (a paused run's store is the
 * state at the current step): field paths and JSONPath on the focused pod, `kubectl get|describe|auth can-i`,
 * `etcdctl get` and `help`, all answered by the engine's console (src/engine/console). It throws ConsoleError
 * with the console's own message for a line it cannot answer.
 */
export function evaluateConsole(sim: Simulation, text: string, focus: ConsoleFocus): ConsoleAnswer {
  if (text.trim() === '') throw new ConsoleError('Type a field path such as pod.status.phase, or help.');
  if (/^explain(\s|$)/.test(text.trim())) return explain(sim, text.trim(), focus);
  const answer = engineEvaluate(sim, text, focus.pod ? { podRef: focus.pod } : {});
  if (answer.error) throw new ConsoleError(answer.message);
  return { text: answer.output, ...structured(answer.output) };
}

/**
 * explain answers `explain [POD]`: why the pod (the focused one by default) is stuck Terminating, not Ready,
 * restarting or Failed, as `pod-lifecycle explain` says it, from the run as it stands at this step.
 */
function explain(sim: Simulation, line: string, focus: ConsoleFocus): ConsoleAnswer {
  const name = line.split(/\s+/)[1];
  const first = sim.pods()[0];
  const fallback = focus.pod ?? (first ? `Pod/${first.metadata?.namespace ?? 'default'}/${first.metadata?.name ?? ''}` : undefined);
  const ref = name ? `Pod/${name.includes('/') ? name : `${fallback?.split('/')[1] ?? 'default'}/${name}`}` : fallback;
  if (!ref) throw new ConsoleError('There is no pod yet: kubectl has not created it.');
  const result = sim.result();
  const [diagnosis] = diagnose(result, [ref]);
  if (!diagnosis) throw new ConsoleError(`Error from server (NotFound): pods "${ref.split('/')[2]}" not found`);
  if (diagnosis.question === 'unscheduled') return { text: schedulingSoFar(sim, result, ref) };
  const lines = renderDiagnosis(diagnosis, style(false));
  return { text: lines.length ? lines.join('\n').trim() : `${diagnosis.pod}: nothing to explain: ${diagnosis.summary || 'it is Running and Ready'}.` };
}

/**
 * schedulingSoFar is what kube-scheduler has decided for a pod not yet bound, up to this step: the steps of its
 * current attempt, and once an attempt is over (bound, or no node fits) `pod-lifecycle explain`'s scheduling section
 * for it — the filter and score tables, the node it picks and why not the others, or what would make one fit.
 */
function schedulingSoFar(sim: Simulation, result: SimulationResult, ref: ObjectRef): string {
  const [, namespace, name = ''] = ref.split('/');
  const pod = sim.store.get('Pod', namespace, name) as Pod | undefined;
  if (!pod) throw new ConsoleError(`Error from server (NotFound): pods "${name}" not found`);
  const mine = sim.trace.filter((e) => e.object === ref && !e.step && e.phase.startsWith('scheduler.'));
  let start = -1;
  for (let i = mine.length - 1; i >= 0 && start < 0; i--) if (mine[i]!.phase === 'scheduler.queue' && /^popped /.test(mine[i]!.result)) start = i;
  const attempt = start < 0 ? [] : mine.slice(start);
  const last = sim.trace.at(-1);
  const inCycle = attempt.length > 0 && last?.object === ref && last.phase.startsWith('scheduler.') && !attempt.some((e) => e.phase === 'scheduler.bind' || e.phase === 'scheduler.postFilter');
  const out = [attempt.length > 0 ? `kube-scheduler's decisions for ${namespace}/${name} so far, in its current attempt:` : `kube-scheduler has not tried ${namespace}/${name} yet.`];
  for (const e of attempt) out.push(`  ${e.at.toFixed(3)}s  ${e.phase}  ${e.result}`);
  if (inCycle) {
    out.push('', 'The cycle goes on: step into its plugins, or step over to its next phase; the filter and score tables come once it ends.');
    return out.join('\n');
  }
  out.push(...renderPod(explainPod(sim, result, pod), style(false)));
  return out.join('\n');
}

/** structured gives an answer printed as a JSON object or array its value, so the console can expand it. */
function structured(output: string): { value?: unknown } {
  if (!/^[[{]/.test(output)) return {};
  try {
    return { value: JSON.parse(output) as unknown };
  } catch {
    return {};
  }
}

/** completeConsole offers what may complete the line at `column` (0-based): commands, flags, names and field names. */
export function completeConsole(sim: Simulation, text: string, column: number, focus: ConsoleFocus): ConsoleCompletion[] {
  // The engine's console counts columns from 1, as DAP does by default.
  return engineComplete(sim, text, column + 1, focus.pod ? { podRef: focus.pod } : {}).map((c) => ({
    label: c.label,
    ...(c.text !== undefined ? { text: c.text } : {}),
    ...(c.start !== undefined ? { start: c.start - 1 } : {}),
    ...(c.length !== undefined ? { length: c.length } : {}),
    ...(c.type ? { type: c.type as DebugProtocol.CompletionItemType } : {}),
  }));
}
