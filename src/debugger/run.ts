// One launched lifecycle as the session drives it: the engine's Simulation, its threads and source map, what has
// been printed, and the recorded history it can rewind through. The engine is deterministic for given inputs and
// seed, so going back to step N is re-creating the Simulation and replaying to N.
import type { ObjectRef } from '../engine/api/types';
import type { RunFiles } from '../engine/cluster/files';
import type { SimulationInputs } from '../engine/cluster/inputs';
import type { KubeEvent, TraceEntry } from '../engine/runtime/recorder';
import { type KubectlCommandRun, Simulation, type SimulationOptions } from '../engine/simulation';
import type { ExceptionStop } from './exceptions';
import { refOfDocument, SourceMapper } from './frames';
import type { Located } from './lines';
import { type ThreadInfo, Threads } from './threads';

/** Probe is the whole trace of the run's inputs, run ahead once: what line breakpoints and step-in targets look at. */
export interface Probe {
  trace: readonly TraceEntry[];
  locate: (ref: ObjectRef | undefined) => Located;
  /** bound maps each pod to the node it was bound to last, and outcome is the run's outcome. */
  bound: ReadonlyMap<ObjectRef, string>;
  outcome: string;
  /** removed maps each pod removed from the API server to the virtual second it went (the last time, for a name reused). */
  removed: ReadonlyMap<ObjectRef, number>;
  /** further is what each further delete of the options printed, by its place in `thenDelete`. */
  further: readonly (string | undefined)[];
  /** commands are the later kubectl commands (cordon, uncordon, drain) with what each printed. */
  commands: readonly KubectlCommandRun[];
}

/** KubectlPiece is one piece of what kubectl printed, and the command that printed it. */
export interface KubectlPiece {
  command: 'apply' | 'delete';
  printed: string;
}

/** ThreadChanges are the threads that appeared and went away in a move through the history. */
export interface ThreadChanges {
  started: ThreadInfo[];
  exited: ThreadInfo[];
}

/** LifecycleRun is a Simulation with the session's bookkeeping. */
export class LifecycleRun {
  sim: Simulation;
  sources: SourceMapper;
  threads = new Threads();
  /** current is the entry the run is paused on; undefined before the first phase. */
  current: TraceEntry | undefined;
  state: 'stopped' | 'running' | 'ended' = 'stopped';
  /** exceptions remembers, by seq, the exceptions met going forward, so running backwards stops on them too. */
  readonly exceptions = new Map<number, ExceptionStop>();
  /** entryThread is the thread shown before the first phase: the manifest's pod, or the control plane. */
  entryThread: number;
  private seenCounts: number[] = [];
  private podStatus = new Map<ObjectRef, string>();
  private probed: Probe | undefined;
  /** stored remembers the pods seen in the store, whose threads end when they are gone. */
  private stored = new Set<ObjectRef>();
  /** podsWritten and podsRemoved say whether a pod was written, or removed, since statusChanges and goneThreads last looked. */
  private podsWritten = true;
  private podsRemoved = false;
  /** eventCursor is where newEvents goes on reading the recorder's changes. */
  private eventCursor = 0;
  /** kubectlCursor is how many pieces of kubectl's output newKubectl has returned. */
  private kubectlCursor = 0;
  /** kubectlLogCursor is how many lines of kubectl's -v=N log newKubectlLog has returned. */
  private kubectlLogCursor = 0;
  /** deleteAnnounced is set once the console printed the run's `kubectl delete` command line. */
  deleteAnnounced = false;
  /** driver steps the Simulation when something else must see each step: a served cluster's journal, or its replay. */
  driver: { step(): TraceEntry | undefined } | undefined;

  constructor(public inputs: SimulationInputs, public options: SimulationOptions, readonly files: RunFiles) {
    this.sim = new Simulation(inputs, options);
    this.watchPods();
    this.sources = new SourceMapper(this.sim);
    const firstDoc = inputs.manifest[0];
    this.entryThread = this.threads.threadOf(firstDoc ? refOfDocument(firstDoc) : undefined).thread.id;
  }

  /** watchPods follows the pods the store writes and removes, for statusChanges and goneThreads. */
  private watchPods(): void {
    for (const pod of this.sim.store.list('Pod')) this.stored.add(podRef(pod));
    this.follow(this.sim);
  }

  private follow(sim: Simulation): void {
    sim.store.watch((type, obj) => {
      if (obj.kind !== 'Pod' || this.sim !== sim) return;
      this.podsWritten = true;
      if (type === 'DELETED') this.podsRemoved = true;
      else this.stored.add(podRef(obj));
    });
  }

  /** step runs to the next entry and files it under its thread; undefined once the run has ended. */
  step(): { entry: TraceEntry; thread: ThreadInfo; created: boolean } | undefined {
    const entry = this.driver ? this.driver.step() : this.sim.step();
    if (!entry) return undefined;
    this.current = entry;
    return { entry, ...this.threads.observe(entry) };
  }

  /** goneThreads removes and returns the threads of pods that were stored and are no more, except `keep` (the current one). */
  goneThreads(keep: number | undefined): ThreadInfo[] {
    // Only a pod removed since the last look (or one kept back then) can end a thread.
    if (!this.podsRemoved) return [];
    const gone: ThreadInfo[] = [];
    let kept = false;
    for (const thread of this.threads.list()) {
      if (!thread.ref || !this.stored.has(thread.ref)) continue;
      const [, ns, name] = thread.ref.split('/');
      if (this.sim.store.get('Pod', ns, name ?? '')) continue;
      if (thread.id === keep) kept = true;
      else gone.push(this.threads.remove(thread.id)!);
    }
    this.podsRemoved = kept;
    return gone;
  }

  /** newEvents returns the events recorded, or repeated, since the last call. */
  newEvents(): KubeEvent[] {
    const { changed, cursor } = this.sim.recorder.changedSince(this.eventCursor);
    this.eventCursor = cursor;
    const out: KubeEvent[] = [];
    for (const { no, event } of changed) {
      if ((this.seenCounts[no] ?? 0) < event.count) out.push(event);
      this.seenCounts[no] = event.count;
    }
    return out;
  }

  /** newKubectl returns what kubectl printed since the last call, each piece with the command that printed it. */
  newKubectl(): KubectlPiece[] {
    const printed = this.sim.kubectlOutput;
    const out: KubectlPiece[] = [];
    // Everything kubectl prints once the first delete has begun is the delete's (the debugger runs one apply).
    const command = this.sim.firstDeleteAt === undefined ? 'apply' : 'delete';
    for (; this.kubectlCursor < printed.length; this.kubectlCursor++) out.push({ command, printed: printed[this.kubectlCursor]! });
    return out;
  }

  /** newKubectlLog returns the lines kubectl logged at -v=N (its stderr) since the last call. */
  newKubectlLog(): string[] {
    const log = this.sim.kubectlLog;
    const out = log.slice(this.kubectlLogCursor);
    this.kubectlLogCursor = log.length;
    return out;
  }

  /** statusChanges returns the pods whose phase or readiness changed since the last call, as `before → after`. */
  statusChanges(): { ref: ObjectRef; before: string | undefined; after: string }[] {
    // Only a step that wrote a pod can change one's status.
    if (!this.podsWritten) return [];
    this.podsWritten = false;
    const out: { ref: ObjectRef; before: string | undefined; after: string }[] = [];
    for (const pod of this.sim.pods()) {
      const ref = podRef(pod);
      const ready = pod.status?.conditions?.find((c) => c.type === 'Ready')?.status;
      const now = `${pod.status?.phase ?? 'Pending'}${ready ? `, Ready ${ready}` : ''}${pod.metadata?.deletionTimestamp ? ', Terminating' : ''}`;
      const before = this.podStatus.get(ref);
      if (before !== now) out.push({ ref, before, after: now });
      this.podStatus.set(ref, now);
    }
    return out;
  }

  /**
   * replayTo re-creates the Simulation and steps it until `stop` accepts an entry (or to the start when `stop` is
   * undefined), keeping what was printed as printed. New inputs (a what-if) or options (one more delete) become the
   * run's. Returns the threads that appeared and went away.
   */
  replayTo(stop: ((entry: TraceEntry) => boolean) | undefined, inputs: SimulationInputs = this.inputs, options: SimulationOptions = this.options): { changes: ThreadChanges; reached: boolean } {
    const before = new Map(this.threads.list().map((t) => [t.ref ?? '', t]));
    const fresh = new LifecycleRun(inputs, options, this.files);
    let reached = stop === undefined;
    if (stop) {
      for (let s = fresh.step(); s; s = fresh.step()) {
        if (stop(s.entry)) {
          reached = true;
          break;
        }
      }
    }
    fresh.goneThreads(fresh.current ? fresh.threads.threadOf(fresh.current.object).thread.id : undefined);
    this.adopt(fresh);
    const after = new Map(this.threads.list().map((t) => [t.ref ?? '', t]));
    return {
      changes: {
        started: [...after].filter(([ref]) => !before.has(ref)).map(([, t]) => t),
        exited: [...before].filter(([ref]) => !after.has(ref)).map(([, t]) => t),
      },
      reached,
    };
  }

  /** probe runs the same inputs to the end, once, and keeps the trace with each entry's source. */
  probe(): Probe {
    if (this.probed) return this.probed;
    const sim = new Simulation(this.inputs, { ...this.options, snapshots: false });
    const sources = new SourceMapper(sim);
    const bound = new Map<ObjectRef, string>();
    const removed = new Map<ObjectRef, number>();
    sim.store.watch((type, obj) => {
      if (type === 'DELETED' && obj.kind === 'Pod') removed.set(podRef(obj), sim.now);
    });
    for (let e = sim.step(); e; e = sim.step()) {
      sources.documentOf(e.object);
      if (e.phase === 'scheduler.bind' && !e.step && e.object && typeof e.detail.node === 'string') bound.set(e.object, e.detail.node);
    }
    this.probed = { trace: sim.trace, locate: (ref) => sources.documentOf(ref), bound, outcome: sim.result().outcome, removed, further: sim.furtherKubectl, commands: sim.commands };
    return this.probed;
  }

  private adopt(fresh: LifecycleRun): void {
    // What the replay printed up to its step is the console's history; what comes after it is printed as it happens
    // (again, after going back: the console speaks of the run as it now stands).
    fresh.newEvents();
    fresh.statusChanges();
    fresh.newKubectl();
    fresh.newKubectlLog();
    fresh.deleteAnnounced = fresh.sim.firstDeleteAt !== undefined;
    for (const [seq, stop] of this.exceptions) if (seq <= (fresh.current?.seq ?? -1)) fresh.exceptions.set(seq, stop);
    this.sim = fresh.sim;
    this.sources = fresh.sources;
    this.threads = fresh.threads;
    this.current = fresh.current;
    this.entryThread = fresh.entryThread;
    const changed = fresh.inputs !== this.inputs || fresh.options !== this.options;
    this.seenCounts = fresh.seenCounts;
    this.kubectlCursor = fresh.kubectlCursor;
    this.kubectlLogCursor = fresh.kubectlLogCursor;
    this.deleteAnnounced = fresh.deleteAnnounced;
    this.podStatus = fresh.podStatus;
    this.stored = fresh.stored;
    this.podsWritten = fresh.podsWritten;
    this.podsRemoved = fresh.podsRemoved;
    this.eventCursor = fresh.eventCursor;
    this.follow(fresh.sim);
    this.exceptions.clear();
    for (const [seq, stop] of fresh.exceptions) this.exceptions.set(seq, stop);
    if (changed) {
      this.inputs = fresh.inputs;
      this.options = fresh.options;
      this.probed = undefined;
    }
  }
}

/** podRef is a pod's thread reference, `Pod/namespace/name` (namespace `default` when it has none). */
function podRef(pod: { metadata?: { namespace?: string; name?: string } }): ObjectRef {
  return `Pod/${pod.metadata?.namespace ?? 'default'}/${pod.metadata?.name ?? ''}`;
}
