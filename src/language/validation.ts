// The server's side of validation: each document's text goes to the diagnostics worker (a worker thread), and only
// the diagnostics of the newest request of each document come back out. The worker starts with the first document
// and stops a little while after the last one closes, which gives all it held back to the system. Where no worker
// can start (the bundle is missing), the same Validator runs on the server's thread, a slice at a time.
import { existsSync } from 'node:fs';
import { readInputFile } from '../host/read-file';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Diagnostic } from 'vscode-languageserver-types';
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

/** ValidationHost sends documents to be validated and hands the newest diagnostics of each to `publish`. */
export class ValidationHost {
  private worker: Worker | undefined;
  private inProcess: Validator | undefined;
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
    if (this.worker || this.inProcess) this.send({ type: 'configure', settings });
  }

  /** validate sends one version of a document; it supersedes any request of the same document still under way. */
  validate(uri: string, version: number, text: string): void {
    clearTimeout(this.idle);
    const id = this.nextId++;
    this.latest.set(uri, id);
    this.send({ type: 'validate', id, uri, version, text });
  }

  /** cancel stops the work under way on a document whose text changed, before its new version is sent. */
  cancel(uri: string): void {
    if (!this.latest.has(uri)) return;
    this.latest.set(uri, 0);
    this.send({ type: 'cancel', uri });
  }

  /** close drops a document everywhere; with no document left for IDLE_STOP_MS, the worker stops. */
  close(uri: string): void {
    if (!this.latest.delete(uri)) return;
    this.send({ type: 'close', uri });
    if (this.latest.size > 0) return;
    clearTimeout(this.idle);
    this.idle = setTimeout(() => this.stop(), IDLE_STOP_MS).unref();
  }

  /** idle is the stop planned once the last document closed; a document sent before it cancels it. */
  private idle: NodeJS.Timeout | undefined;

  /** stop ends the worker (or the in-process validator) and all its work. */
  stop(): void {
    clearTimeout(this.idle);
    const worker = this.worker;
    this.worker = undefined;
    this.inProcess?.stop();
    this.inProcess = undefined;
    void worker?.terminate();
    for (const answer of this.states.values()) answer({ documents: 0, validating: 0 });
    this.states.clear();
  }

  private send(message: ToWorker): void {
    if (!this.worker && !this.inProcess) this.start();
    if (this.worker) this.worker.postMessage(message);
    else this.inProcess?.handle(message);
  }

  /** start runs the worker, configured; or the validator in this thread when the worker cannot run. */
  private start(): void {
    const file = this.restarts < MAX_RESTARTS ? WORKER_FILES.find((f) => existsSync(f)) : undefined;
    if (!file) {
      this.inProcess = new Validator((path) => readInputFile(path), (m) => this.receive(m), this.log);
      if (this.settings) this.inProcess.handle({ type: 'configure', settings: this.settings });
      return;
    }
    const worker = new Worker(file);
    worker.on('message', (m: FromWorker) => this.receive(m));
    worker.on('error', (error) => this.log(`pod-lifecycle: the diagnostics worker failed: ${error.stack ?? error.message}`));
    worker.on('exit', () => {
      if (this.worker !== worker) return;
      // Not stopped by us: the documents under way are sent again to a new worker.
      this.worker = undefined;
      this.restarts++;
      for (const answer of this.states.values()) answer({ documents: 0, validating: 0 });
      this.states.clear();
      if (this.latest.size > 0) this.lost();
    });
    // The worker must not keep the server alive once the connection has closed.
    worker.unref();
    this.worker = worker;
    if (this.settings) worker.postMessage({ type: 'configure', settings: this.settings } satisfies ToWorker);
  }

  /** state tells where validation runs and what it holds: `none` once the last document has closed. */
  async state(): Promise<HostState> {
    if (!this.worker && !this.inProcess) return { runsIn: 'none', documents: 0, validating: 0 };
    const runsIn = this.worker ? 'worker' : 'server';
    const id = this.nextId++;
    const answer = new Promise<ValidatorState>((resolve) => this.states.set(id, resolve));
    this.send({ type: 'state', id });
    return { runsIn, ...(await answer) };
  }

  private readonly states = new Map<number, (state: ValidatorState) => void>();

  private receive(message: FromWorker): void {
    if (message.type === 'state') {
      this.states.get(message.id)?.(message.state);
      this.states.delete(message.id);
      return;
    }
    if (this.latest.get(message.uri) !== message.id) return;
    this.publish({ uri: message.uri, version: message.version, diagnostics: message.diagnostics, complete: message.complete });
  }
}
