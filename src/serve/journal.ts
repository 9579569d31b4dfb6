// The journal of what drove a live cluster: each client request it ran and each advance of its virtual time, in the
// order the live Simulation took them, each placed by how many trace entries the Simulation had made then. The
// engine is deterministic for given inputs and options (the seed among them), so a fresh Simulation fed the same
// journal at the same places makes the same trace, entry by entry: what a served debug session replays to go back.
// The journal lives in memory only; a request's body (a Secret's data among them) is never printed from it.
import type { Millis } from '../engine/runtime/clock';
import type { TraceEntry } from '../engine/runtime/recorder';
import type { Steps } from '../engine/runtime/step';
import type { Simulation } from '../engine/simulation';

/**
 * ServedTask is a request's work in a Simulation, made from the request's own data (its identity, verb, path and
 * query, the headers that matter, its body) and the Simulation it runs in: never from the live one it first ran in.
 */
export type ServedTask<T, D> = (sim: Simulation, data: D) => Steps<T>;

/**
 * JournalOp is one thing the live Simulation took: an advance of its virtual time, a step that found nothing due
 * (an idle step, after which the clock stands at the time allowed), or a request queued at virtual time `at`. `after`
 * is how many trace entries the Simulation had made when it took it.
 */
export type JournalOp =
  | { kind: 'advance'; after: number; to: Millis }
  | { kind: 'idle'; after: number }
  | { kind: 'request'; after: number; at: Millis; label: string; data: unknown; task: ServedTask<unknown, unknown> };

/** ServeJournal records what drove one live Simulation; its cost grows with the requests and time's advances, not the steps. */
export class ServeJournal {
  private readonly ops: JournalOp[] = [];
  /** entries is how many trace entries the live Simulation has made. */
  private entries = 0;
  /** horizon is the furthest time allowed so far: an advance short of it changes nothing and is not kept. */
  private horizon = -Infinity;

  /** length is how many operations the journal holds. */
  get length(): number {
    return this.ops.length;
  }

  /**
   * advance records that virtual time may run to `to`. One right after another merges with it, and one short of the
   * furthest changes nothing (advanceTo keeps the larger), so neither is kept.
   */
  advance(to: Millis): void {
    if (to <= this.horizon) return;
    this.horizon = to;
    const last = this.ops.at(-1);
    if (last?.kind === 'advance' && last.after === this.entries) last.to = Math.max(last.to, to);
    else this.ops.push({ kind: 'advance', after: this.entries, to });
  }

  /**
   * request records a request queued at virtual time `at`. Its data is copied here, and again for each replay, so
   * that what one run of the task changes in it is not what another sees.
   */
  request<T, D>(at: Millis, label: string, data: D, task: ServedTask<T, D>): void {
    this.ops.push({ kind: 'request', after: this.entries, at, label, data: structuredClone(data), task: task as ServedTask<unknown, unknown> });
  }

  /** stepped records a step of the live Simulation: an entry made, or an idle step (two in a row are one). */
  stepped(entry: TraceEntry | undefined): void {
    if (entry) {
      this.entries++;
      return;
    }
    const last = this.ops.at(-1);
    if (last?.kind === 'idle' && last.after === this.entries) return;
    this.ops.push({ kind: 'idle', after: this.entries });
  }

  /** replay returns a stepper that feeds `sim` (a fresh Simulation of the same inputs and options) this journal. */
  replay(sim: Simulation): JournalReplay {
    return new JournalReplay(sim, this.ops);
  }
}

/** JournalDivergence is thrown when a replay goes another way than the live Simulation went: the engine was not deterministic. */
export class JournalDivergence extends Error {}

/**
 * JournalReplay steps a fresh Simulation through a journal: before each step it applies what the live Simulation
 * took at that place (time allowed to run, an idle step, a request queued), then steps. Once the journal is used up
 * its step finds what the live one found: nothing due.
 */
export class JournalReplay {
  private next = 0;
  /** entries is how many trace entries the replay has made. */
  private entries = 0;

  constructor(readonly sim: Simulation, private readonly ops: readonly JournalOp[]) {}

  /** step applies the operations due at this place, then runs to the next trace entry; undefined at the live cluster's frontier. */
  step(): TraceEntry | undefined {
    for (let op = this.ops[this.next]; op && op.after === this.entries; op = this.ops[++this.next]) this.apply(op);
    const entry = this.sim.step();
    if (entry) this.entries++;
    else if (this.next < this.ops.length) throw new JournalDivergence(`the replay of the served cluster found nothing due after ${this.entries} step(s), where the cluster went on`);
    return entry;
  }

  private apply(op: JournalOp): void {
    switch (op.kind) {
      case 'advance':
        this.sim.advanceTo(op.to);
        return;
      case 'idle': {
        const entry = this.sim.step();
        if (entry) throw new JournalDivergence(`the replay of the served cluster made step ${entry.seq} (${entry.phase}) where the cluster found nothing due`);
        return;
      }
      case 'request': {
        const sim = this.sim;
        if (sim.virtualNow !== op.at) throw new JournalDivergence(`the replay of the served cluster stood at ${sim.virtualNow} ms where ${op.label} came at ${op.at} ms`);
        const { data, task } = op;
        sim.submit(op.label, function* () {
          // As in the live cluster, a request that fails answers its client with the error and the run goes on.
          try {
            yield* task(sim, structuredClone(data));
          } catch {
            return;
          }
        });
      }
    }
  }
}
