// The run's report as JSON, written piece by piece: valid at any size, never one string of the whole run. The detail
// option bounds what a big run writes: `summary` cuts the long lists and maps of a step's detail and leaves out the
// per-node tables of a scheduling cycle on a cluster of over 100 nodes, `full` writes everything, `none` no trace.
import { lazySize, readTransiently } from '../scheduler/framework/lazy';
import { cutList, isCut, tableLeftOut } from '../scheduler/framework/trace';
import type { TraceEntry } from '../runtime/recorder';
import { TraceCut, type TraceLeftOut } from './trace-cut';
import type { SimulationResult } from '../simulation';

/** TraceDetail is how much of the trace --json writes. */
export type TraceDetail = 'full' | 'summary' | 'none';

/** TRACE_DETAILS are the values of --trace. */
export const TRACE_DETAILS: readonly TraceDetail[] = ['full', 'summary', 'none'];

/** SUMMARY_LIMIT is how many items of a list, or keys of a map, a step's detail keeps in `summary`. */
export const SUMMARY_LIMIT = 100;

/** FLUSH_BYTES is how much text is gathered before it is handed to the writer. */
const FLUSH_BYTES = 1 << 16;

/**
 * SpilledTrace is a trace laid out by layOutTrace as the run went, kept outside memory: it copies itself to `emit` as
 * text, or to `write` as the UTF-8 bytes it holds, which spares decoding and encoding it again.
 */
export interface SpilledTrace {
  readonly entries: number;
  /** leftOut is what the summary left out of the trace (TraceCut). */
  readonly leftOut?: TraceLeftOut;
  copy(emit: (text: string) => void): void;
  copyBytes(write: (bytes: Uint8Array) => void): void;
}

/**
 * writeResultJson writes the report as `JSON.stringify(result, null, 2)` would lay it out (with the trace cut as
 * `detail` says), in chunks of about 64 KiB handed to `write`, and returns how many characters it wrote. A run whose
 * trace went to a sink passes it as `spilled`: laid out already, it is copied in place of the result's.
 */
export function writeResultJson(
  result: SimulationResult, detail: TraceDetail, write: (chunk: string) => void, spilled?: SpilledTrace, writeBytes?: (bytes: Uint8Array) => void,
): number {
  let buffer = '';
  let total = 0;
  const emit = (text: string) => {
    buffer += text;
    if (buffer.length >= FLUSH_BYTES) flush();
  };
  const flush = () => {
    if (!buffer) return;
    total += buffer.length;
    write(buffer);
    buffer = '';
  };
  const fields: [string, unknown][] = [['outcome', result.outcome]];
  if (result.rejection) fields.push(['rejection', result.rejection]);
  fields.push(['kubectl', result.kubectl]);
  // kubectl's -v=N log: its stderr lines, kept apart from what it printed.
  if (result.kubectlLog) fields.push(['kubectlLog', result.kubectlLog]);
  if (result.commands) fields.push(['commands', result.commands]);
  if (result.workloads) fields.push(['workloads', result.workloads]);
  if (result.stopped) fields.push(['stopped', result.stopped]);
  emit('{');
  fields.forEach(([key, value], i) => emit(`${i ? ',' : ''}\n  ${JSON.stringify(key)}: ${indent(JSON.stringify(value, null, 2))}`));
  const lists: [string, readonly unknown[], (item: unknown) => unknown][] = [
    ['objects', result.objects, (o) => o],
    ['events', result.events, (e) => e],
  ];
  // The summary keeps the steps of each workload's first pods (TraceCut); what it leaves out is counted after the trace.
  const cut = detail === 'summary' && !spilled ? new TraceCut() : undefined;
  if (detail !== 'none' && !spilled) lists.push(['trace', cut ? result.trace.filter((e) => cut.keeps(e)) : result.trace, (e) => plain(e, detail === 'summary' ? SUMMARY_LIMIT : Infinity)]);
  for (const [key, items, view] of lists) {
    emit(`,\n  ${JSON.stringify(key)}: [`);
    // Lazy tables are laid out for the writer and not kept: memory stays what the run holds.
    readTransiently(() => {
      for (let from = 0; from < items.length; from += BATCH) emit((from ? ',' : '') + layOutItems(items.slice(from, from + BATCH).map(view)));
    });
    emit(items.length ? '\n  ]' : ']');
  }
  if (detail !== 'none' && spilled) {
    emit(',\n  "trace": [');
    if (writeBytes) {
      flush();
      spilled.copyBytes(writeBytes);
    } else {
      spilled.copy(emit);
    }
    emit(spilled.entries ? '\n  ]' : ']');
  }
  const leftOut = spilled ? spilled.leftOut : cut?.leftOut;
  if (detail !== 'none' && leftOut) emit(`,\n  "traceLeftOut": ${indent(JSON.stringify(leftOut, null, 2))}`);
  emit('\n}\n');
  flush();
  return total;
}

/**
 * layOutTrace lays out trace entries as the report's trace holds them (`\n    entry,\n    entry`, cut as `detail`
 * says), for a sink that writes the trace as the run goes; a later batch follows an earlier one after a comma.
 */
export function layOutTrace(entries: readonly TraceEntry[], detail: TraceDetail): string {
  const limit = detail === 'summary' ? SUMMARY_LIMIT : Infinity;
  let text = '';
  readTransiently(() => {
    for (let from = 0; from < entries.length; from += BATCH) text += (from ? ',' : '') + layOutItems(entries.slice(from, from + BATCH).map((e) => plain(e, limit)));
  });
  return text;
}

/** BATCH is how many items of a list are laid out at once. */
const BATCH = 256;

/** Laying out `{"k": items}` puts each item where the report has it: two levels in, after a line break. */
const BATCH_OPEN = '{\n  "k": [';
const BATCH_CLOSE = '\n  ]\n}';

/** layOutItems lays out items as the report's lists hold them, by one native stringify: `\n    item,\n    item`. */
function layOutItems(items: readonly unknown[]): string {
  const text = JSON.stringify({ k: items }, null, 2);
  return text.slice(BATCH_OPEN.length, text.length - BATCH_CLOSE.length);
}

function indent(json: string): string {
  return json.replace(/\n/g, '\n  ');
}

/**
 * plain copies a value for JSON, cutting lists and maps longer than `limit` to their first `limit` items, followed by a
 * note of how many more there were, and leaving out per-node tables of more than `limit` nodes.
 */
function plain(value: unknown, limit: number): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return value;
  if (Array.isArray(value)) return isCut(value) ? value : cutList(value, limit).map((v) => plain(v, limit));
  const out: Record<string, unknown> = {};
  const keys = Object.keys(value);
  for (const key of keys.slice(0, limit)) {
    // A scheduling cycle's per-node table on a cluster of more nodes than that is left out unread: it says its size.
    const size = lazySize(value, key);
    out[key] = size !== undefined && size > limit ? tableLeftOut(size) : plain((value as Record<string, unknown>)[key], limit);
  }
  if (keys.length > limit) out['…'] = `${keys.length - limit} more (--trace full)`;
  return out;
}
