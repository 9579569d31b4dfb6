// The simulated cluster behind serve: a live Simulation whose virtual time follows the wall clock times a speed, to
// which each client request is handed as a task and answered when its task ends. It runs itself (the CLI), or a
// driver runs it (the debugger, which steps it and stops on breakpoints: a pause holds its time).
import type { SimulationInputs } from '../engine/cluster/inputs';
import type { Millis } from '../engine/runtime/clock';
import type { TraceEntry, TraceSink } from '../engine/runtime/recorder';
import { Simulation, type SimulationOptions } from '../engine/simulation';
import type { ServeJournal, ServedTask } from './journal';

/** STEPS_PER_TURN bounds the steps run before the event loop gets a turn (other requests, other connections). */
const STEPS_PER_TURN = 2000;

/** LiveClusterOptions: the speed of virtual time against the wall clock, and the driver that steps it, if not itself. */
export interface LiveClusterOptions {
  speed?: number;
  /** drive is called when there is something to run (a request, a task come due); without it the cluster steps itself. */
  drive?: () => void;
  /** journal, when given, records every request and advance of time the cluster takes, for a replay (a debugger going back). */
  journal?: ServeJournal;
}

/** DEFAULT_EVENT_TTL_SECONDS is kube-apiserver's --event-ttl default, 1h (pkg/controlplane/apiserver/options/options.go NewOptions, v1.36.3). */
export const DEFAULT_EVENT_TTL_SECONDS = 3600;

/**
 * liveOptions are the options of a live Simulation: virtual time 0 is now (to the second), the trace to `onTrace` if
 * given, Events kept for `eventTtlSeconds` after their last write (1h).
 */
export function liveOptions(seed?: number, onTrace?: (entries: readonly TraceEntry[]) => void, eventTtlSeconds = DEFAULT_EVENT_TTL_SECONDS): SimulationOptions {
  const sink: TraceSink = { accept: (entries) => onTrace?.(entries) };
  return { live: true, epoch: new Date(Math.floor(Date.now() / 1000) * 1000), eventTtlSeconds, ...(seed !== undefined ? { seed } : {}), ...(onTrace !== undefined ? { traceSink: sink } : {}) };
}

/** LiveCluster runs a live Simulation against the wall clock. */
export class LiveCluster {
  readonly speed: number;
  private readonly wallStart: number;
  private readonly virtualStart: Millis;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  /** heldSince is when a hold began; heldFor is how long the holds that ended lasted (wall milliseconds). */
  private heldSince: number | undefined;
  private heldFor = 0;
  private readonly advanced = new Set<() => void>();

  constructor(readonly sim: Simulation, private readonly options: LiveClusterOptions = {}) {
    this.speed = options.speed && options.speed > 0 ? options.speed : 1;
    this.wallStart = sim.clock.epoch.getTime();
    this.virtualStart = sim.virtualNow;
  }

  /** start makes a live cluster of the inputs that runs itself, its trace handed on and dropped. */
  static start(inputs: SimulationInputs, options: { speed?: number; seed?: number; eventTtlSeconds?: number } = {}): LiveCluster {
    const cluster = new LiveCluster(new Simulation(inputs, liveOptions(options.seed, () => undefined, options.eventTtlSeconds)), { ...(options.speed !== undefined ? { speed: options.speed } : {}) });
    cluster.pump();
    return cluster;
  }

  /** target is the virtual time the wall clock stands at, less the time held. */
  private target(): Millis {
    const now = Date.now();
    const held = this.heldFor + (this.heldSince !== undefined ? now - this.heldSince : 0);
    return this.virtualStart + (now - this.wallStart - held) * this.speed;
  }

  /** tick lets the simulation's time run up to the wall clock's. */
  tick(): void {
    const to = this.target();
    this.options.journal?.advance(to);
    this.sim.advanceTo(to);
  }

  /** step runs the simulation to its next trace entry (undefined: nothing due by the time allowed), journaled. */
  step(): TraceEntry | undefined {
    const entry = this.sim.step();
    this.options.journal?.stepped(entry);
    return entry;
  }

  /** wait is how long (wall milliseconds) until the next task is due; undefined when none is queued. */
  wait(): number | undefined {
    const next = this.sim.nextDue;
    return next === undefined ? undefined : Math.min(Math.max(0, (next - this.target()) / this.speed), 2_000_000_000);
  }

  /**
   * request runs a task in the cluster and resolves with what it returns, once it has run. The task is made of the
   * request's data and the Simulation it is given, so that a replay runs the same request in another one.
   */
  request<T, D>(label: string, data: D, run: ServedTask<T, D>): Promise<T> {
    const sim = this.sim;
    this.options.journal?.request(sim.virtualNow, label, data, run);
    return new Promise<T>((resolve, reject) => {
      sim.submit(label, function* () {
        try {
          resolve(yield* run(sim, data));
        } catch (e) {
          reject(e);
        }
      });
      this.wake();
    });
  }

  /** hold stops virtual time (a debugger pause); release lets it go on from where it stood. */
  hold(held: boolean): void {
    if (held && this.heldSince === undefined) this.heldSince = Date.now();
    if (!held && this.heldSince !== undefined) {
      this.heldFor += Date.now() - this.heldSince;
      this.heldSince = undefined;
    }
  }

  /** onAdvance calls `listener` after each run of steps (what the store does not hold, as events, may have changed); it returns the unsubscribe. */
  onAdvance(listener: () => void): () => void {
    this.advanced.add(listener);
    return () => this.advanced.delete(listener);
  }

  /** notify tells the listeners that steps have run (the driver calls it after each of its runs). */
  notify(): void {
    for (const listener of this.advanced) listener();
  }

  /** wake runs what is due: the driver's turn, or the cluster's own pump. */
  private wake(): void {
    if (this.closed) return;
    if (this.options.drive) this.options.drive();
    else this.pump();
  }

  /** pump runs every task due by now, then sleeps until the next one is due (a cluster without a driver). */
  private pump(): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.tick();
    for (let n = 0; this.step(); n++) {
      if (n >= STEPS_PER_TURN) {
        this.notify();
        this.timer = setTimeout(() => this.pump(), 0);
        return;
      }
    }
    this.notify();
    const wait = this.wait();
    if (wait !== undefined) this.timer = setTimeout(() => this.pump(), wait);
  }

  /** close stops the clock: nothing more runs. */
  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
  }
}
