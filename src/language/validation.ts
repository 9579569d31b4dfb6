// The server's side of validation: each document's text goes to the diagnostics workers (worker threads, one per CPU
// up to two, which split the file's checks on the cluster between them), and only the diagnostics of the newest
// request of each document come back out. The workers start with the first document and stop a little while after
// the last one closes, which gives all they held back to the system. Where no worker can start (the bundle is
// missing), the same Validator runs on the server's thread, a slice at a time.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { collectNow } from '../host/collect';
import { readInputFile } from '../host/read-file';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Diagnostic } from 'vscode-languageserver-types';
import { type Checked, flatten, mergeParts } from './diagnostics/parts';
import type { FromWorker, ToWorker, ValidatorState } from './diagnostics/protocol';
import { Validator } from './diagnostics/validator';
import type { Settings } from './settings';

/** WORKER_FILES are where the worker's script is: beside the server's bundle in dist/, or compiled beside this file. */
const WORKER_FILES = [join(__dirname, 'diagnosticsWorker.js'), join(__dirname, 'diagnostics', 'worker.js')];

/**
 * IDLE_STOP_MS is how long the worker waits, once the last document has closed, before it stops and gives back all
 * its memory: a document opened again soon after finds its code compiled and the cluster read (about twice as fast).
 */
const IDLE_STOP_MS = 10_000;

/** MAX_RESTARTS is how many times a worker that died is started again before the server validates on its own. */
const MAX_RESTARTS = 3;

/** Published is one set of diagnostics for the client: the early ones of a version, or its complete set. */
export interface Published {
  readonly uri: string;
  readonly version: number;
  readonly diagnostics: Diagnostic[];
  readonly complete: boolean;
}

/** HostState is where validation runs (the worker thread, the server's own, or nowhere) and what it holds. */
export interface HostState extends ValidatorState {
  readonly runsIn: 'worker' | 'server' | 'none';
}

/**
 * MAX_WORKERS is how many diagnostics workers a file's checks on the cluster are split across, at most one per CPU:
 * each worker parses the file and runs its share of the workloads (DiagnosticsService.validateParts).
 */
const MAX_WORKERS = 2;

/** workerCount is how many workers this machine gets: one per CPU up to MAX_WORKERS. */
function workerCount(): number {
  return Math.max(1, Math.min(MAX_WORKERS, availableParallelism()));
}

/** ValidationHost sends documents to be validated and hands the newest diagnostics of each to `publish`. */
export class ValidationHost {
  private workers: Worker[] = [];
  private inProcess: Validator | undefined;
  /** parts gathers, by request, the shares' parts of a validation split across the workers. */
  private readonly parts = new Map<number, Checked[]>();
  private restarts = 0;
  private settings: Settings | undefined;
  private nextId = 1;
  /** latest is the newest request of each open document: older answers are dropped. */
  private readonly latest = new Map<string, number>();

  /**
   * publish gets the diagnostics to send; `lost` is called when a worker died with work under way, for the server
   * to send its open documents again.
   */
  constructor(private readonly publish: (published: Published) => void, private readonly log: (message: string) => void, private readonly lost: () => void) {}

  /** configure passes settings on (the server validates every open document again after). */
  configure(settings: Settings): void {
    this.settings = settings;
    if (this.workers.length > 0 || this.inProcess) this.send({ type: 'configure', settings });
  }

  /** validate sends one version of a document; it supersedes any request of the same document still under way. */
  validate(uri: string, version: number, text: string): void {
    clearTimeout(this.idle);
    const id = this.nextId++;
    const previous = this.latest.get(uri);
    if (previous) this.parts.delete(previous);
    this.latest.set(uri, id);
    if (!this.started) this.start();
    if (this.workers.length < 2) {
      this.send({ type: 'validate', id, uri, version, text });
      return;
    }
    this.parts.set(id, []);
    this.workers.forEach((worker, index) => worker.postMessage({ type: 'validate', id, uri, version, text, share: { index, of: this.workers.length } } satisfies ToWorker));
  }

  private get started(): boolean {
    return this.workers.length > 0 || this.inProcess !== undefined;
  }

  /** cancel stops the work under way on a document whose text changed, before its new version is sent. */
  cancel(uri: string): void {
    const id = this.latest.get(uri);
    if (id === undefined) return;
    this.parts.delete(id);
    this.latest.set(uri, 0);
    this.send({ type: 'cancel', uri });
  }

  /** close drops a document everywhere; with no document left for IDLE_STOP_MS, the workers stop. */
  close(uri: string): void {
    const id = this.latest.get(uri);
    if (id === undefined) return;
    this.parts.delete(id);
    this.latest.delete(uri);
    this.send({ type: 'close', uri });
    if (this.latest.size > 0) return;
    clearTimeout(this.idle);
    this.idle = setTimeout(() => this.stopIdle(), IDLE_STOP_MS).unref();
  }

  /** idle is the stop planned once the last document closed; a document sent before it cancels it. */
  private idle: NodeJS.Timeout | undefined;

  /**
   * stopIdle stops the workers once no document is open, then collects this thread's garbage: what the closed
   * documents held here (their sections, parsed for hover) would otherwise stay until some later allocation.
   */
  private stopIdle(): void {
    this.stop();
    collectNow(true);
  }

  /** stop ends the worker (or the in-process validator) and all its work. */
  stop(): void {
    clearTimeout(this.idle);
    const workers = this.workers;
    this.workers = [];
    this.inProcess?.stop();
    this.inProcess = undefined;
    for (const worker of workers) void worker.terminate();
    this.parts.clear();
    for (const asked of this.states.values()) asked.resolve({ documents: 0, validating: 0 });
    this.states.clear();
  }

  /** send hands a message to every worker (or the validator in this thread). */
  private send(message: ToWorker): void {
    if (!this.started) this.start();
    for (const worker of this.workers) worker.postMessage(message);
    this.inProcess?.handle(message);
  }

  /** start runs the workers, configured; or the validator in this thread when no worker can run. */
  private start(): void {
    const file = this.restarts < MAX_RESTARTS ? WORKER_FILES.find((f) => existsSync(f)) : undefined;
    if (!file) {
      this.inProcess = new Validator((path) => readInputFile(path), (m) => this.receive(m), this.log);
      if (this.settings) this.inProcess.handle({ type: 'configure', settings: this.settings });
      return;
    }
    const workers = Array.from({ length: workerCount() }, () => new Worker(file));
    for (const worker of workers) {
      worker.on('message', (m: FromWorker) => this.receive(m));
      worker.on('error', (error) => this.log(`pod-lifecycle: the diagnostics worker failed: ${error.stack ?? error.message}`));
      worker.on('exit', () => {
        if (!this.workers.includes(worker)) return;
        // Not stopped by us: the others stop too, and the documents under way are sent again to new workers.
        this.restarts++;
        this.stop();
        if (this.latest.size > 0) this.lost();
      });
      // A worker must not keep the server alive once the connection has closed.
      worker.unref();
      if (this.settings) worker.postMessage({ type: 'configure', settings: this.settings } satisfies ToWorker);
    }
    this.workers = workers;
  }

  /** state tells where validation runs and what it holds: `none` once the last document has closed. */
  async state(): Promise<HostState> {
    if (!this.started) return { runsIn: 'none', documents: 0, validating: 0 };
    const runsIn = this.workers.length > 0 ? 'worker' : 'server';
    const id = this.nextId++;
    // Every worker answers; each holds every open document, so the state is the largest of theirs.
    const answer = new Promise<ValidatorState>((resolve) => this.states.set(id, { answers: [], count: Math.max(1, this.workers.length), resolve }));
    this.send({ type: 'state', id });
    return { runsIn, ...(await answer) };
  }

  /** states are the state requests under way: the answers so far, how many are awaited, and the caller's resolve. */
  private readonly states = new Map<number, { answers: ValidatorState[]; count: number; resolve: (state: ValidatorState) => void }>();

  private receive(message: FromWorker): void {
    if (message.type === 'state') {
      const asked = this.states.get(message.id);
      if (!asked) return;
      asked.answers.push(message.state);
      if (asked.answers.length < asked.count) return;
      this.states.delete(message.id);
      asked.resolve({ documents: Math.max(...asked.answers.map((a) => a.documents)), validating: Math.max(...asked.answers.map((a) => a.validating)) });
      return;
    }
    if (this.latest.get(message.uri) !== message.id) return;
    if (message.type === 'diagnostics') {
      this.publish({ uri: message.uri, version: message.version, diagnostics: message.diagnostics, complete: message.complete });
      return;
    }
    // A share's parts: once every worker's are in, the file's diagnostics are theirs put together.
    const parts = this.parts.get(message.id);
    if (!parts) return;
    parts.push(message.checked);
    if (parts.length < this.workers.length) return;
    this.parts.delete(message.id);
    const merged = mergeParts(parts);
    if (merged) this.publish({ uri: message.uri, version: message.version, diagnostics: flatten(merged), complete: true });
  }
}
