// Where `run` puts the trace as the run goes, so that memory holds the cluster and not every decision about it: for
// --json, the entries laid out as the report will hold them, in a temporary file copied into the report at the end;
// for the timeline, only the phase-level entries, without their detail; for --trace none, nothing.
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { layOutTrace, type SpilledTrace, type TraceDetail } from '../engine/report/json';
import { TraceCut, type TraceLeftOut } from '../engine/report/trace-cut';
import type { ObjectRef } from '../engine/api/types';
import type { TraceEntry, TraceInput, TraceSink } from '../engine/runtime/recorder';

/** READ_BYTES is how much of the spilled trace is read back at once. */
const READ_BYTES = 1 << 20;

/** FileSpill writes the laid-out trace to a file of its own in the temporary directory, removed by close. */
export class FileSpill implements TraceSink, SpilledTrace {
  entries = 0;
  private readonly dir: string;
  private readonly fd: number;
  private size = 0;
  /** cut is what the summary keeps of the trace. */
  private readonly cut: TraceCut | undefined;

  constructor(private readonly detail: TraceDetail) {
    this.cut = detail === 'summary' ? new TraceCut() : undefined;
    this.dir = mkdtempSync(join(tmpdir(), 'pod-lifecycle-trace-'));
    try {
      this.fd = openSync(join(this.dir, 'trace.json'), 'w+', 0o600);
    } catch (e) {
      rmSync(this.dir, { recursive: true, force: true });
      throw e;
    }
  }

  /** leaves leaves out what the summary does not keep; the cut is made here, in the order of the trace. */
  leaves(entry: TraceInput): boolean {
    return this.cut !== undefined && !this.cut.keeps(entry);
  }

  isQuiet(object: ObjectRef): boolean {
    return this.cut?.isCut(object) === true;
  }

  accept(entries: readonly TraceEntry[]): void {
    if (entries.length === 0) return;
    const text = Buffer.from((this.entries ? ',' : '') + layOutTrace(entries, this.detail));
    for (let done = 0; done < text.length;) done += writeSync(this.fd, text, done, text.length - done, this.size + done);
    this.size += text.length;
    this.entries += entries.length;
  }

  get leftOut(): TraceLeftOut | undefined {
    return this.cut?.leftOut;
  }

  copy(emit: (text: string) => void): void {
    const decoder = new StringDecoder('utf8');
    this.copyBytes((bytes) => emit(decoder.write(bytes)));
    emit(decoder.end());
  }

  copyBytes(write: (bytes: Uint8Array) => void): void {
    const buffer = Buffer.alloc(Math.min(READ_BYTES, Math.max(1, this.size)));
    for (let at = 0; at < this.size;) {
      const n = readSync(this.fd, buffer, 0, Math.min(buffer.length, this.size - at), at);
      if (n === 0) throw new Error(`the spilled trace ended after ${at} of ${this.size} bytes`);
      write(buffer.subarray(0, n));
      at += n;
    }
  }

  close(): void {
    closeSync(this.fd);
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** EMPTY_DETAIL is the one detail of every entry PhaseKeeper keeps: the timeline never reads it. */
const EMPTY_DETAIL: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

/** PhaseKeeper keeps what the timeline prints: the phase-level entries, without their detail. */
export class PhaseKeeper implements TraceSink {
  readonly phases: TraceEntry[] = [];
  /** cut is what the summary timeline keeps (the first pods of each workload), as the --json summary does. */
  private readonly cut: TraceCut | undefined;

  constructor(private readonly detail: TraceDetail = 'full') {
    this.cut = detail === 'summary' ? new TraceCut() : undefined;
  }

  /** leaves leaves out every step (the timeline prints phases), and the phases the summary does not keep. */
  leaves(entry: TraceInput): boolean {
    return this.detail === 'none' || entry.step !== undefined || (this.cut !== undefined && !this.cut.keeps(entry));
  }

  isQuiet(object: ObjectRef): boolean {
    return this.detail === 'none' || this.cut?.isCut(object) === true;
  }

  accept(entries: readonly TraceEntry[]): void {
    for (const e of entries) {
      const kept: TraceEntry = { seq: e.seq, phase: e.phase, at: e.at, result: e.result, detail: EMPTY_DETAIL };
      if (e.object !== undefined) kept.object = e.object;
      if (e.outcome !== undefined) kept.outcome = e.outcome;
      this.phases.push(kept);
    }
  }

  /** leftOut is what the summary timeline left out (its lines), or undefined when it left out nothing. */
  get leftOut(): TraceLeftOut | undefined {
    return this.cut?.leftOut;
  }
}

/** DISCARD takes the trace of a report that leaves it out (--trace none). */
export const DISCARD: TraceSink = { accept: () => undefined, leaves: () => true, isQuiet: () => true };
