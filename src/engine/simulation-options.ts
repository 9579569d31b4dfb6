// What a run is given and what it reports: the simulation's options and the shape of its result (the CLI's --json).
import type { KubeObject } from './api/types';
import type { BootstrapImage } from './cluster/bootstrap';
import type { SourceDocument } from './cluster/inputs';
import type { FurtherDelete } from './further-deletes';
import type { NodeCommand } from './kubectl/node-command';
import type { Outcome, Rejection, WorkloadOutcome } from './outcome';
import type { Millis } from './runtime/clock';
import type { KubeEvent, TraceEntry, TraceSink } from './runtime/recorder';

/** LaterApply is one more `kubectl apply -f FILE` in the run: its documents, that many virtual seconds after the first. */
export interface LaterApply {
  afterSeconds: number;
  manifest: SourceDocument[];
  /** file names the file, which may hold no document at all. */
  file?: string;
}

/** LaterKubectl is one more kubectl command in the run (`kubectl drain NODE`, `cordon`, `uncordon`), that many virtual seconds after the first apply. */
export interface LaterKubectl {
  afterSeconds: number;
  command: NodeCommand;
}

/** KubectlCommandRun is what one later kubectl command printed: the command line, when it began (virtual seconds), its lines. */
export interface KubectlCommandRun {
  at: number;
  command: string;
  output: string;
}

/** SimulationOptions say how long to run and what to do once the workload settles. */
export interface SimulationOptions {
  seed?: number;
  /** forMs is virtual time to run; without it the run goes until the workload settles, at most maxMs. */
  forMs?: Millis;
  maxMs?: Millis;
  /** delete runs `kubectl delete` once the workload has settled, and the deletion to its end. */
  delete?: { gracePeriodSeconds?: number; force?: boolean; propagationPolicy?: 'Background' | 'Foreground' | 'Orphan' };
  /** thenDelete are further `kubectl delete`s after the first (with `delete` only), at their times after it began. */
  thenDelete?: FurtherDelete[];
  /** thenApply are further `kubectl apply -f FILE`s, at their times after the first apply (within the create stage). */
  thenApply?: LaterApply[];
  /**
   * thenKubectl are further kubectl commands on nodes (cordon, uncordon, drain), at their times after the first apply,
   * within the create stage: the run does not settle before a command has ended (a drain, once its pods are gone).
   */
  thenKubectl?: LaterKubectl[];
  /** snapshots keeps the store's content after every trace entry, for stepping back. */
  snapshots?: boolean;
  /**
   * tableLimit is the most nodes a scheduling cycle keeps its per-node decision tables for (all by default): on a larger
   * cluster its trace entries say the table's size instead, so a run whose tables no one reads costs R + N, not R × N.
   */
  tableLimit?: number;
  /**
   * traceSink takes the trace as the run goes instead of the run keeping it: the result's trace is then empty. The CLI
   * spills a big run's trace to a file this way, so memory holds the cluster, not every decision about it.
   */
  traceSink?: TraceSink;
  /**
   * allowUnsimulated judges the run by the workloads the engine runs, when the manifest also holds objects whose
   * controller it does not run (none is left since ReplicationControllers run): without it the outcome is NotSimulated.
   */
  allowUnsimulated?: boolean;
  /**
   * bootstrapped is the cluster as an earlier run stored it (bootstrapImage of these inputs' cluster and this seed):
   * the run starts from it instead of storing every object again. An image of another cluster or seed is ignored.
   */
  bootstrapped?: BootstrapImage;
  /**
   * live keeps the cluster running for its clients (serve): nothing is applied, the run never ends, and time passes as
   * far as advanceTo lets it. Its trace should go to a sink.
   */
  live?: boolean;
  /**
   * eventTtlSeconds makes a live cluster's Events expire that long after their last write, as kube-apiserver's
   * --event-ttl (whole seconds; 0, or none, keeps them); their writes take revisions as the objects' do. A run that
   * is not live keeps its Events and numbers them apart.
   */
  eventTtlSeconds?: number;
  /**
   * pastInvalid lets an object the API server finds invalid go on as if it were valid (its validation step still
   * says what is wrong): the language server's checks report the validation errors themselves, and with this see what
   * admission and the scheduler would say of the rest at once, not only once the errors are fixed. Never for a run.
   */
  pastInvalid?: boolean;
  /** epoch is the wall-clock instant virtual time 0 stands for (a live cluster's start); 2026-01-01 by default. */
  epoch?: Date;
  /** kubeconfig is the file the run's kubectl loads its configuration from, as its -v=6 log names it (`~/.kube/config` by default). */
  kubeconfig?: string;
  /** home is the HOME the run's kubectl runs with: its -v=10 log names the disk cache's files under it (`~` by default). */
  home?: string;
  /**
   * watches records the `watch` phase: each program's informers opening their watches, then every stored change with
   * the programs told of it (the event each sees through its selectors, its request, when it is delivered). Off by default.
   */
  watches?: boolean;
  /** budget bounds the run: it stops, saying so, after that many trace entries or once the store holds that many objects. */
  budget?: RunBudget;
}

/** RunBudget is how much a run may do: trace entries (steps) and stored objects. */
export interface RunBudget {
  steps: number;
  objects: number;
}

/**
 * DEFAULT_BUDGET bounds a run that would go on without end or past memory (`replicas: 100000`, a crash loop run for
 * years): a million steps is a Deployment of about 13,000 replicas; 20,000 objects holds 10,000 pods on 5,000 nodes.
 * Bigger runs raise it (--max-steps, --max-objects).
 */
export const DEFAULT_BUDGET: Readonly<RunBudget> = { steps: 1_000_000, objects: 20_000 };

/**
 * BudgetStop says which budget stopped the run, and at what limit: steps, stored objects, or time (the limit in seconds
 * of virtual time, 600 without --for) reached while controllers were still at work — `busy` names them, as their
 * work queues are named (`replicaset-controller`: a ReplicaSet of 20,000 replicas takes its client's rate limit about
 * 17 minutes to create).
 */
export type BudgetStop = { budget: 'steps' | 'objects'; limit: number } | { budget: 'time'; limit: number; busy: string[] };

/** budgetReached says, for every front, which budget a run reached: `its budget of 1000 steps (trace entries)`. */
export function budgetReached(stop: BudgetStop): string {
  if (stop.budget === 'time') {
    return `the run reached its time limit of ${durationText(stop.limit)} of virtual time before the workload settled: ${stop.busy.join(', ')} still at work`;
  }
  return `the run reached its budget of ${stop.budget === 'steps' ? `${stop.limit} steps (trace entries)` : `${stop.limit} stored objects`} before the workload settled`;
}

/** durationText writes whole seconds as people say them: `10 minutes`, `90 seconds`, `1 hour`. */
function durationText(seconds: number): string {
  const unit = (n: number, name: string): string => `${n} ${name}${n === 1 ? '' : 's'}`;
  if (seconds % 3600 === 0) return unit(seconds / 3600, 'hour');
  if (seconds % 60 === 0) return unit(seconds / 60, 'minute');
  return unit(seconds, 'second');
}

/**
 * budgetStop tells which budget a run has reached after `steps` trace entries with `objects` stored, if any. A live
 * cluster has none: it runs for as long as it serves, its trace goes to a sink, and what it stores is its clients' doing.
 */
export function budgetStop(options: SimulationOptions, steps: number, objects: number): BudgetStop | undefined {
  if (options.live) return undefined;
  const budget = options.budget ?? DEFAULT_BUDGET;
  if (steps >= budget.steps) return { budget: 'steps', limit: budget.steps };
  if (objects > budget.objects) return { budget: 'objects', limit: budget.objects };
  return undefined;
}

/** DEFAULT_MAX_MS is how long a run may go at most when no --for is given: 10 minutes of virtual time. */
export const DEFAULT_MAX_MS = 10 * 60 * 1000;

/** SimulationResult is the run's report, the shape of the CLI's --json. */
export interface SimulationResult {
  outcome: Outcome;
  rejection?: Rejection;
  kubectl: string;
  /** kubectlLog is what the run's kubectl logged to stderr at -v=N (6 to 8): its requests and answers, klog's lines. */
  kubectlLog?: string[];
  /** commands are the later kubectl commands (thenKubectl) that have begun, each with what it printed so far (also in `kubectl`). */
  commands?: KubectlCommandRun[];
  /** workloads says what became of each workload the manifest applied, and why for one the engine did not run. */
  workloads?: WorkloadOutcome[];
  /**
   * stopped is set when the run ended at its budget (steps, objects), or at its time limit while controllers were still
   * at work; not when the workload settled, nor when a time given (--for) ran out.
   */
  stopped?: BudgetStop;
  objects: KubeObject[];
  events: (Omit<KubeEvent, 'count' | 'host'> & { count?: number })[];
  /** trace is every decision, in order; empty when a traceSink took it. */
  trace: TraceEntry[];
}
