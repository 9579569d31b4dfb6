// The simulated cluster behind serve: a live Simulation whose virtual time follows the wall clock times a speed, to
// which each client request is handed as a task and answered when its task ends.
import type { SimulationInputs } from '../engine/cluster/inputs';
import type { Millis } from '../engine/runtime/clock';
import type { TraceEntry, TraceSink } from '../engine/runtime/recorder';
import type { Steps } from '../engine/runtime/step';
import { Simulation } from '../engine/simulation';

/** STEPS_PER_TURN bounds the steps run before the event loop gets a turn (other requests, other connections). */
const STEPS_PER_TURN = 2000;

/** LiveClusterOptions: the speed of virtual time against the wall clock, the seed, and who hears each trace entry. */
export interface LiveClusterOptions {
  speed?: number;
  seed?: number;
  /** onTrace hears the trace entries as they are handed on (in batches, a little behind). */
  onTrace?: (entries: readonly TraceEntry[]) => void;
}

/** LiveCluster runs a live Simulation against the wall clock. */
export class LiveCluster {
  readonly sim: Simulation;
  readonly speed: number;
  private readonly wallStart: number;
  private readonly virtualStart: Millis;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private held = false;
  private readonly advanced = new Set<() => void>();

  constructor(inputs: SimulationInputs, options: LiveClusterOptions = {}) {
    this.speed = options.speed && options.speed > 0 ? options.speed : 1;
    const sink: TraceSink = { accept: (entries) => options.onTrace?.(entries) };
    // Virtual time 0 is now (to the second), so kubectl's AGE of a new object reads as on a real cluster.
    const epoch = new Date(Math.floor(Date.now() / 1000) * 1000);
    this.sim = new Simulation(inputs, { live: true, epoch, traceSink: sink, ...(options.seed !== undefined ? { seed: options.seed } : {}) });
    this.wallStart = epoch.getTime();
    this.virtualStart = this.sim.virtualNow;
    this.pump();
  }

  /** now is the virtual time the wall clock stands at. */
  private target(): Millis {
    return this.virtualStart + (Date.now() - this.wallStart) * this.speed;
  }

  /** request runs a task in the cluster and resolves with what it returns, once it has run. */
  request<T>(label: string, run: () => Steps<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.sim.submit(label, function* () {
        try {
          resolve(yield* run());
        } catch (e) {
          reject(e);
        }
      });
      this.pump();
    });
  }

  /** hold stops virtual time (a debugger pause); release lets it go on from where the wall clock is. */
  hold(held: boolean): void {
    this.held = held;
    if (!held) this.pump();
  }

  /** onAdvance calls `listener` after each run of steps (what the store does not hold, as events, may have changed); it returns the unsubscribe. */
  onAdvance(listener: () => void): () => void {
    this.advanced.add(listener);
    return () => this.advanced.delete(listener);
  }

  /** pump runs every task due by now, then sleeps until the next one is due. */
  pump(): void {
    if (this.closed || this.held) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.sim.advanceTo(this.target());
    for (let n = 0; this.sim.step(); n++) {
      if (n >= STEPS_PER_TURN) {
        this.notify();
        this.timer = setTimeout(() => this.pump(), 0);
        return;
      }
    }
    this.notify();
    const next = this.sim.nextDue;
    if (next === undefined) return;
    const wait = Math.max(0, (next - this.target()) / this.speed);
    this.timer = setTimeout(() => this.pump(), Math.min(wait, 2_000_000_000));
  }

  private notify(): void {
    for (const listener of this.advanced) listener();
  }

  /** close stops the clock: nothing more runs. */
  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
  }
}
