// A debug session that serves its cluster (launch attribute `serve`): the live cluster the session steps, the HTTPS
// API the user's kubectl talks to, and the wait between tasks while nothing is due. A request wakes the session; a
// stop holds the cluster's time, so a kubectl request waits at a breakpoint as long as the user looks at it (or at
// the cluster's past, served-history.ts).
import type { SimulationInputs } from '../engine/cluster/inputs';
import type { SimulationOptions } from '../engine/simulation';
import { ServeJournal } from '../serve/journal';
import { LiveCluster, liveOptions } from '../serve/live-cluster';
import type { ServePki } from '../serve/pki';
import { type Served, serveCluster, trustServePki } from '../serve/serving';
import type { LaunchPlan } from './launch';
import type { ConsoleLine } from './output';
import type { LifecycleRun } from './run';
import { ServedHistory } from './served-history';

/** servedOptions prepares a served session's inputs (the CA the cluster trusts) and its live simulation's options. */
export function servedOptions(inputs: SimulationInputs, plan: LaunchPlan): { pki: ServePki; options: SimulationOptions } {
  return { pki: trustServePki(inputs), options: { ...plan.options, ...liveOptions(plan.options.seed), snapshots: false } };
}

/** ServedSession is the served side of a session: the cluster, its listener, and the session's wait for work. */
export class ServedSession {
  private timer: NodeJS.Timeout | undefined;
  private waiting: (() => void) | undefined;
  private served: Served | undefined;
  readonly cluster: LiveCluster;
  /** history replays the cluster's past from the journal of what drove it (stepping back), the live run held meanwhile. */
  readonly history: ServedHistory;

  constructor(run: LifecycleRun, speed: number) {
    const journal = new ServeJournal();
    // A request or a task come due wakes the session if it waits; a running session picks it up on its own.
    this.cluster = new LiveCluster(run.sim, { speed, drive: () => this.wake(), journal });
    // The session steps the live run through the cluster, which journals each step.
    run.driver = this.cluster;
    this.history = new ServedHistory(run, journal);
  }

  /** listen starts the HTTPS API and returns the lines that tell the user how to reach it. */
  async listen(pki: ServePki, serve: NonNullable<LaunchPlan['serve']>): Promise<ConsoleLine[]> {
    this.served = await serveCluster(this.cluster, pki, { port: serve.port, ...(serve.kubeconfigOut !== undefined ? { kubeconfigOut: serve.kubeconfigOut } : {}) });
    return [
      { text: `Serving the simulated cluster (Kubernetes v1.36) on ${this.served.url}${serve.speed !== 1 ? ` at ${serve.speed}× speed` : ''}\n`, category: 'console' },
      { text: `export KUBECONFIG=${this.served.kubeconfigFile}\n`, category: 'console' },
      { text: 'Run kubectl in a terminal with that KUBECONFIG: the session stops on its requests at the breakpoints set.\n', category: 'console' },
    ];
  }

  /** idle waits until a task is due or a request comes, then calls `resume`. */
  idle(resume: () => void): void {
    this.cancel();
    this.waiting = resume;
    const wait = this.cluster.wait();
    if (wait !== undefined) this.timer = setTimeout(() => this.wake(), wait);
  }

  /** idleNow tells whether the session waits for work. */
  get idleNow(): boolean {
    return this.waiting !== undefined;
  }

  /** cancel stops waiting (a pause while nothing runs). */
  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.waiting = undefined;
  }

  private wake(): void {
    const resume = this.waiting;
    this.cancel();
    resume?.();
  }

  /** close stops serving. */
  async close(): Promise<void> {
    this.cancel();
    this.cluster.close();
    await this.served?.close();
  }
}
