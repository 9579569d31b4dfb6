// The human report's timeline and events for a terminal of a given width (80 columns, say): each step under the
// object it concerns, its result wrapped beneath it, so the run reads as a story from top to bottom instead of as
// lines of several hundred columns.
import type { KubeEvent, TraceEntry } from '../runtime/recorder';
import type { Style } from './style';

/** MIN_WIDTH is the narrowest terminal the layout wraps for; narrower ones get it at this width. */
const MIN_WIDTH = 40;
/** RESULT_INDENT is where a step's wrapped result starts: under its phase. */
const RESULT_INDENT = 10;

/**
 * wrap breaks a text at spaces into lines of at most `width` characters, each after `indent` spaces; a word longer
 * than the room (a URL) stands alone on its line, whole.
 */
export function wrap(text: string, width: number, indent: number): string[] {
  const room = Math.max(MIN_WIDTH, width) - indent;
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > room) {
      lines.push(line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  if (line !== '' || lines.length === 0) lines.push(line);
  return lines.map((l) => `${' '.repeat(indent)}${l}`);
}

/** narrowTimeline prints the phase-level steps grouped by object: `Pod/default/web`, then each step and its result. */
export function narrowTimeline(phases: readonly TraceEntry[], st: Style, width: number): string[] {
  const out: string[] = [];
  let object: string | undefined;
  for (const e of phases) {
    const of = e.object ?? 'the cluster';
    if (of !== object) {
      object = of;
      out.push(st.bold(of));
    }
    const color = e.outcome === 'rejected' || e.outcome === 'failed' ? st.bad : e.outcome === 'waiting' ? st.warn : (s: string) => s;
    out.push(`  ${st.dim(`${e.at.toFixed(3)}s`.padEnd(8))}${st.phase(e.phase)}`);
    out.push(...wrap(e.result, width, RESULT_INDENT).map((l) => color(l)));
  }
  return out;
}

/** narrowEvents prints each event as a line of when, type, reason, object and source, its message wrapped beneath. */
export function narrowEvents(events: readonly (Omit<KubeEvent, 'count' | 'host'> & { count?: number })[], st: Style, width: number): string[] {
  const out: string[] = [];
  for (const e of events) {
    const object = e.object.replace(/^([A-Za-z]+)\/(?:[^/]+\/)?/, (_m, k: string) => `${k.toLowerCase()}/`);
    const type = e.type === 'Warning' ? st.warn(e.type) : e.type;
    out.push(`${st.dim(`${e.at.toFixed(3)}s`.padEnd(8))}${type}  ${e.reason}  ${object}  ${st.dim(`(${e.source})`)}`);
    out.push(...wrap(`${e.message}${e.count && e.count > 1 ? ` (x${e.count})` : ''}`, width, 8));
  }
  return out;
}
