// The human report of a run, as `pod-lifecycle run` prints it and the debugger's console too: the kubectl lines, a timeline
// of phases, the events table and the outcome. One presentation for every front.
import { narrowEvents, narrowTimeline, wrap } from './narrow';
import type { Style } from './style';
import { workloadLines } from './workloads';
import type { KubectlLines } from '../kubectl/generate/load';
import type { TraceEntry } from '../runtime/recorder';
import type { TraceLeftOut } from './trace-cut';
import type { SimulationResult } from '../simulation';

export { style, type Style } from './style';

function seconds(at: number): string {
  return `${at.toFixed(3)}s`;
}

function pad(s: string, n: number): string {
  return s.length >= n ? s : s + ' '.repeat(n - s.length);
}

/**
 * timelineLine is one line of the timeline: when, the phase (and the sub-step, for one), the object, and what was
 * decided, colored by its outcome; the phase and object columns padded to the widths given.
 */
export function timelineLine(e: TraceEntry, st: Style, phaseWidth = 0, objectWidth = 0): string {
  const color = e.outcome === 'rejected' || e.outcome === 'failed' ? st.bad : e.outcome === 'waiting' ? st.warn : (s: string) => s;
  const phase = e.step ? `${e.phase} › ${e.step.kind} ${e.step.name}` : e.phase;
  return `${st.dim(pad(seconds(e.at), 10))} ${st.phase(pad(phase, phaseWidth))}  ${pad(e.object ?? '', objectWidth)}  ${color(e.result)}`;
}

/** splitKubectl separates what `kubectl apply` printed from what `kubectl delete` printed. */
export function splitKubectl(kubectl: string): { applyLines: string[]; deleteLines: string[] } {
  const kubectlLines = kubectl.split('\n').filter((l) => l !== '');
  // A further delete may find the pod gone: `Error from server (NotFound): error when deleting "pod.yaml": ...`.
  const applyLines = kubectlLines.filter((l) => !/ deleted( from |$)| force deleted|error when deleting /.test(l) && !l.startsWith('Warning: Immediate'));
  return { applyLines, deleteLines: kubectlLines.filter((l) => !applyLines.includes(l)) };
}

/** withoutCommands is kubectl's output less the lines of the later kubectl commands, which print under their own heading. */
export function withoutCommands(kubectl: string, commands: SimulationResult['commands']): string {
  const lines = kubectl.split('\n');
  for (const c of commands ?? []) {
    for (const line of c.output.split('\n')) {
      const i = lines.indexOf(line);
      if (i >= 0) lines.splice(i, 1);
    }
  }
  return lines.join('\n');
}

/** commandLines prints each later kubectl command (a drain, a cordon) under its command line, at the virtual time it began. */
export function commandLines(commands: SimulationResult['commands'], st: Style): string[] {
  const out: string[] = [];
  for (const c of commands ?? []) {
    out.push('', `${st.bold(`$ ${c.command}`)}  ${st.dim(`(at ${seconds(c.at)})`)}`);
    for (const line of c.output.split('\n').filter((l) => l !== '')) out.push(/^(error|Error|cannot |There are pending)/.test(line) ? st.bad(line) : line);
  }
  return out;
}

/**
 * commandHeaders are the shell lines the report shows before kubectl's output: `kubectl apply -f MANIFEST` and
 * `kubectl delete -f MANIFEST`, or the kubectl command line the run started from and a delete of what it created
 * (named as the delete lines name them: `pod "web" deleted ...` is `pod/web`).
 */
export function commandHeaders(manifest: string, command: KubectlLines | undefined, deleteLines: readonly string[]): { apply: string; delete: string } {
  if (command === undefined) return { apply: `kubectl apply -f ${manifest}`, delete: `kubectl delete -f ${manifest}` };
  if (command.deleteLine !== undefined) return { apply: command.line, delete: command.deleteLine };
  const targets = deleteLines.flatMap((l) => {
    const m = /^(\S+) "([^"]+)" (?:force )?deleted/.exec(l);
    return m ? [`${m[1]}/${m[2]}`] : [];
  });
  return { apply: command.line, delete: `kubectl delete ${[...new Set(targets)].join(' ')}`.trimEnd() };
}

/** leftOutLines says how much of the trace the summary timeline left out, and how to see it all. */
function leftOutLines(leftOut: TraceLeftOut | undefined, st: Style): string[] {
  if (!leftOut) return [];
  const steps = leftOut.entries.toLocaleString('en-US');
  const pods = leftOut.pods.toLocaleString('en-US');
  return [st.dim(`… ${steps} more steps of ${pods} more pods left out: the timeline keeps ${leftOut.kept}`)];
}

/**
 * TimelineCut is what the timeline leaves out of the run's trace: nothing, the steps of later pods (`--trace summary`,
 * the default: `leftOut` counts them) or all of it (`--trace none`).
 */
export interface TimelineCut {
  leftOut?: TraceLeftOut;
  none?: boolean;
}

/**
 * renderHuman prints the run for a person; `command` is the kubectl command line it started from, if not `apply -f`;
 * with a terminal's width, the timeline and events are wrapped to it; `cut` says what the timeline leaves out.
 */
export function renderHuman(result: SimulationResult, manifest: string, st: Style, command?: KubectlLines, width?: number, cut: TimelineCut = {}): string {
  const out: string[] = [];
  const { applyLines, deleteLines } = splitKubectl(withoutCommands(result.kubectl, result.commands));
  const headers = commandHeaders(manifest, command, deleteLines);
  out.push(st.bold(`$ ${headers.apply}`));
  for (const line of applyLines) out.push(/^(error|Error|The )/.test(line) ? st.bad(line) : line);
  const phases = cut.none ? [] : result.trace.filter((e) => !e.step);
  if (!cut.none) out.push('', st.bold('TIMELINE'));
  if (width !== undefined) {
    // A terminal of known width: each step under its object, its result wrapped (narrow.ts).
    // Line by line, not push(...lines): a long run has more lines than a call takes arguments.
    for (const line of narrowTimeline(phases, st, width)) out.push(line);
    out.push(...leftOutLines(cut.leftOut, st));
    if (result.events.length) {
      out.push('', st.bold('EVENTS'));
      for (const line of narrowEvents(result.events, st, width)) out.push(line);
    }
  } else {
    // Folds, not Math.max(...): a long run has more entries than a call takes arguments.
    const phaseWidth = phases.reduce((w, e) => Math.max(w, e.phase.length), 5);
    const objWidth = phases.reduce((w, e) => Math.max(w, (e.object ?? '').length), 6);
    for (const e of phases) out.push(timelineLine(e, st, phaseWidth, objWidth));
    out.push(...leftOutLines(cut.leftOut, st));
  }
  if (result.events.length && width === undefined) {
    out.push('', st.bold('EVENTS'));
    const rows = result.events.map((e) => [seconds(e.at), e.type, e.reason, e.object.replace(/^([A-Za-z]+)\/(?:[^/]+\/)?/, (_m, k: string) => `${k.toLowerCase()}/`), e.source, `${e.message}${e.count && e.count > 1 ? ` (x${e.count})` : ''}`]);
    const head = ['AT', 'TYPE', 'REASON', 'OBJECT', 'FROM', 'MESSAGE'];
    const widths = head.map((h, i) => rows.reduce((w, r) => Math.max(w, r[i]!.length), h.length));
    out.push(st.dim(head.map((h, i) => (i < head.length - 1 ? pad(h, widths[i]!) : h)).join('   ')));
    for (const r of rows) {
      const type = r[1] === 'Warning' ? st.warn(pad(r[1]!, widths[1]!)) : pad(r[1]!, widths[1]!);
      out.push([pad(r[0]!, widths[0]!), type, pad(r[2]!, widths[2]!), pad(r[3]!, widths[3]!), pad(r[4]!, widths[4]!), r[5]].join('   '));
    }
  }
  out.push(...commandLines(result.commands, st));
  if (deleteLines.length) {
    out.push('', st.bold(`$ ${headers.delete}`));
    out.push(...deleteLines);
  }
  const ok = ['Running', 'Succeeded', 'Deleted', 'DryRun'].includes(result.outcome);
  const outcome = `${st.bold('OUTCOME')} ${ok ? st.good(result.outcome) : st.bad(result.outcome)}`;
  if (width !== undefined && result.rejection) out.push('', outcome, ...wrap(result.rejection.message, width, 2));
  else out.push('', `${outcome}${result.rejection ? `: ${result.rejection.message}` : ''}`);
  // A manifest of several workloads says what became of each, and why one was not run.
  out.push(...workloadLines(result));
  return out.join('\n');
}
