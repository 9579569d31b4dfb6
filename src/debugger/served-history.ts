// Going back on a served session: the live cluster stays where it stands, held (its store, its queue and the request
// kubectl waits on untouched), and the session shows its past instead, a separate Simulation of the same inputs and
// options fed the journal of what drove the live one up to the step asked for. Stepping forward through the past
// replays the journal on; the step the live cluster stands at (the frontier) is the live cluster again.
import type { TraceEntry } from '../engine/runtime/recorder';
import { JournalDivergence, type ServeJournal } from '../serve/journal';
import type { ConsoleLine } from './output';
import { LifecycleRun, type ThreadChanges } from './run';

/** SERVED_NO_WHATIF is why a served session tries no what-if: it would change answers the user's kubectl already has. */
export const SERVED_NO_WHATIF = 'Not on a served cluster: a what-if runs the lifecycle again with another input, and would change the answers your kubectl has already received.';

/**
 * servedConsoleRefusal is why a served session's Debug Console runs no `kubectl delete` or `kubectl drain` of its
 * own (those replay a manifest's run with the command): the user's real kubectl does it against the served cluster.
 */
export function servedConsoleRefusal(what: string): string {
  return `Not on a served cluster: for ${what}, run the real kubectl against the served cluster (the KUBECONFIG the Debug Console names); `
    + 'the Debug Console\'s kubectl commands replay a manifest\'s run.';
}

/** ServedHistory is a served session's way back: its live run, and the journal that replays it. */
export class ServedHistory {
  constructor(readonly live: LifecycleRun, private readonly journal: ServeJournal) {}

  /** frontier is the seq of the entry the live cluster stands at; -1 before its first. */
  get frontier(): number {
    return this.live.current?.seq ?? -1;
  }

  /** isPast tells whether `run` is a replay of the past rather than the live run. */
  isPast(run: LifecycleRun): boolean {
    return run !== this.live;
  }

  /** landed tells whether a replay of the past has come to the frontier, where the live cluster stands. */
  landed(run: LifecycleRun): boolean {
    return this.isPast(run) && (run.current?.seq ?? -1) >= this.frontier;
  }

  /**
   * seen is the run whose history running backwards reads (its trace, the store after each entry, the exceptions
   * met): a replay of the past is that already; the live run, which keeps no store history, is replayed to its frontier.
   */
  seen(run: LifecycleRun): LifecycleRun {
    return this.isPast(run) || this.frontier < 0 ? run : this.replay((e) => e.seq === this.frontier).run;
  }

  /**
   * moveTo is the run to show at the entry `stop` accepts (the start without one): a replay of the past, or the live
   * run once the replay comes to the frontier without an earlier entry accepted.
   */
  moveTo(stop: ((entry: TraceEntry) => boolean) | undefined): { run: LifecycleRun; reached: boolean } {
    if (this.frontier < 0) return { run: this.live, reached: stop === undefined };
    const past = this.replay(stop);
    if (!this.landed(past.run)) return past;
    return { run: this.live, reached: past.reached };
  }

  /**
   * replay is a fresh run of the live one's inputs and options, its store history kept, stepped through the journal
   * until `stop` accepts an entry or the frontier, with what it printed on the way as printed.
   */
  private replay(stop: ((entry: TraceEntry) => boolean) | undefined): { run: LifecycleRun; reached: boolean } {
    const run = new LifecycleRun(this.live.inputs, { ...this.live.options, snapshots: true }, this.live.files);
    run.driver = this.journal.replay(run.sim);
    let reached = stop === undefined;
    if (stop) {
      for (let s = run.step(); s; s = run.step()) {
        if (stop(s.entry)) reached = true;
        if (reached || s.entry.seq >= this.frontier) break;
      }
    }
    const at = run.current?.seq ?? -1;
    if (!reached && at < this.frontier) throw new JournalDivergence(`the replay of the served cluster ended at step ${at}, short of step ${this.frontier} where the cluster stands`);
    run.goneThreads(run.current ? run.threads.threadOf(run.current.object).thread.id : undefined);
    // The console printed all this when the live cluster went through it: a step forward prints only what it adds.
    run.newEvents();
    run.statusChanges();
    run.newKubectl();
    run.newKubectlLog();
    for (const [seq, exception] of this.live.exceptions) if (seq <= (run.current?.seq ?? -1)) run.exceptions.set(seq, exception);
    run.state = 'stopped';
    return { run, reached };
  }
}

/** threadChanges are the threads that appear and go away when the session shows `to` instead of `from`. */
export function threadChanges(from: LifecycleRun, to: LifecycleRun): ThreadChanges {
  const before = new Map(from.threads.list().map((t) => [t.id, t]));
  const after = new Map(to.threads.list().map((t) => [t.id, t]));
  return {
    started: [...after].filter(([id]) => !before.has(id)).map(([, t]) => t),
    exited: [...before].filter(([id]) => !after.has(id)).map(([, t]) => t),
  };
}

/** liveLine says that a step forward through the past came back to where the live cluster stands. */
export function liveLine(entry: TraceEntry | undefined): ConsoleLine {
  const where = entry ? ` at ${entry.at.toFixed(3)}s ${entry.phase}${entry.object ? ` ${entry.object}` : ''}` : '';
  return { text: `\u21b7 Back at the live cluster${where}: from here on the run is live again, and the requests your kubectl sent go on.\n`, category: 'console' };
}
