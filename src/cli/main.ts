// The pod-lifecycle command: runs a manifest through the simulated cluster and prints the timeline or the JSON report
// (`run`), or the explanation of each pod built from the engine's trace (`explain`).
import { HeapWatch, tightenHeap } from '../host/heap';
import { readInputFile } from '../host/read-file';
import { runServe } from './serve';
import { InputError } from '../engine/cluster/inputs';
import { loadRunFiles, readInput } from '../engine/cluster/files';
import { KubectlNotSimulated, kubectlLines, loadKubectlRun } from '../engine/kubectl/generate/load';
import { parseDocuments } from '../engine/cluster/loader';
import { explainRun, runForExplanation } from '../engine/explain/report';
import { budgetReached, DEFAULT_BUDGET, Simulation, type BudgetStop, type SimulationResult } from '../engine/simulation';
import { SUMMARY_LIMIT, writeResultJson } from '../engine/report/json';
import { parseArgs, type LiveArgs, type RunArgs, USAGE, UsageError } from './args';
import { kubectlProcess, LiveSourceError, readLiveState } from './live-source';
import { explainLive } from '../engine/explain/live';
import { renderLive } from '../engine/report/live-text';
import { renderExplain } from '../engine/report/explain-text';
import { renderHuman, style, type Style } from '../engine/report/human';
import { useColor } from './color';
import { StdoutClosed, writeAll } from './stdout';
import { DISCARD, FileSpill, PhaseKeeper } from './trace-spill';
import type { TraceSink } from '../engine/runtime/recorder';

/** EXIT codes of the CLI contract: completed, stopped short, unusable input. */
export const EXIT = { completed: 0, stoppedShort: 1, badInput: 2 } as const;

/** exitCodeOf maps an outcome to the exit status: 0 when the lifecycle completed, 1 when it stopped short. */
export function exitCodeOf(result: SimulationResult, deleting: boolean): number {
  // A dry run does all a dry run does: kubectl printed the object and exited 0.
  const done = result.outcome === 'DryRun' || (deleting ? result.outcome === 'Deleted' : result.outcome === 'Running' || result.outcome === 'Succeeded');
  return done && !result.stopped ? EXIT.completed : EXIT.stoppedShort;
}

/** BUDGET_FLAGS name the flag that raises each budget. */
const BUDGET_FLAGS = { steps: '--max-steps N', objects: '--max-objects N', time: '--for DURATION' } as const;

/** budgetNote says that the run stopped at its budget, and how to raise it. */
function budgetNote(stop: BudgetStop): string {
  return `stopped: ${budgetReached(stop)}; ${stop.budget === 'time' ? 'give it longer' : 'raise it'} with ${BUDGET_FLAGS[stop.budget]}\n`;
}

/**
 * runCli runs the command line and returns the exit status; output goes to the given writers. `outBytes`, when given,
 * takes UTF-8 bytes for standard output where the CLI has them already (a spilled trace), in order with `out`.
 */
export function runCli(argv: string[], out: (s: string) => void, err: (s: string) => void, env: NodeJS.ProcessEnv, isTTY: boolean, outBytes?: (b: Uint8Array) => void): number {
  let args: RunArgs;
  try {
    const parsed = parseArgs(argv);
    if (parsed === 'help') {
      out(`${USAGE}\n`);
      return EXIT.completed;
    }
    if (parsed.command === 'explain-live') return explainLivePod(parsed, out, err, env, isTTY);
    args = parsed;
  } catch (e) {
    if (e instanceof UsageError) {
      err(`error: ${e.message}\n${USAGE}\n`);
      return EXIT.badInput;
    }
    throw e;
  }
  const sink = args.command === 'run' ? openSink(args) : undefined;
  try {
    return runWith(args, sink, { out, ...(outBytes ? { outBytes } : {}) }, err, env, isTTY);
  } finally {
    if (sink instanceof FileSpill) sink.close();
  }
}

/**
 * openSink picks where `run` puts its trace as it goes: the phases the timeline prints, the laid-out --json trace in a
 * temporary file, or nowhere for --trace none. Without a temporary directory to write to, the trace stays in memory.
 */
function openSink(args: RunArgs): TraceSink | undefined {
  if (!args.json) return new PhaseKeeper(args.trace);
  if (args.trace === 'none') return DISCARD;
  try {
    return new FileSpill(args.trace);
  } catch {
    return undefined;
  }
}

/** Output is where standard output goes: text, and bytes where the CLI has them already. */
interface Output {
  out: (s: string) => void;
  outBytes?: (b: Uint8Array) => void;
}

function runWith(args: RunArgs, sink: TraceSink | undefined, output: Output, err: (s: string) => void, env: NodeJS.ProcessEnv, isTTY: boolean): number {
  const { out } = output;
  let sim: Simulation;
  try {
    const files = { clusters: args.clusters, ...(args.behavior ? { behavior: args.behavior } : {}), identity: args.identity };
    const inputs = args.kubectl
      ? loadKubectlRun(args.kubectl, files, (p) => readInputFile(p), args.seed)
      : loadRunFiles({ manifest: args.manifest, ...files }, (p) => readInputFile(p));
    sim = new Simulation(inputs, {
      ...(args.seed !== undefined ? { seed: args.seed } : {}),
      ...(sink ? { traceSink: new HeapWatch(sink) } : {}),
      ...kubeconfigOf(args, env),
      ...(env['HOME'] ? { home: env['HOME'] } : {}),
      ...(args.allowUnsimulated ? { allowUnsimulated: true } : {}),
      ...(args.watches ? { watches: true } : {}),
      ...(args.budget ? { budget: { ...DEFAULT_BUDGET, ...args.budget } } : {}), ...(args.forMs !== undefined ? { forMs: args.forMs } : {}), ...(args.delete ? { delete: args.delete } : {}),
      ...(args.thenDelete ? { thenDelete: args.thenDelete } : {}),
      ...(args.thenKubectl ? { thenKubectl: args.thenKubectl } : {}),
      ...(args.thenApply ? { thenApply: args.thenApply.map((l) => ({ afterSeconds: l.afterSeconds, file: l.file, manifest: parseDocuments(readInput(l.file, (p) => readInputFile(p)).text, l.file) })) } : {}),
      // explain reads the cluster as each scheduling attempt saw it, and its tables.
      ...(args.command === 'explain' ? { snapshots: true } : {}),
      // run prints no per-node table of a large cluster unless asked for the full trace: it need not keep them.
      ...(args.command === 'run' && args.trace !== 'full' ? { tableLimit: SUMMARY_LIMIT } : {}),
    });
  } catch (e) {
    if (e instanceof InputError) {
      err(`error: ${e.message.replace(/\n/g, ' ')}\n`);
      return EXIT.badInput;
    }
    // A kubectl command line the engine does not run is unusable input, like a bad flag of ours.
    if (e instanceof KubectlNotSimulated) {
      err(`error: ${e.message}\n`);
      return EXIT.badInput;
    }
    throw e;
  }
  const st = style(useColor(env, isTTY));
  const result = args.command === 'explain' ? explain(sim, args, out, st) : run(sim, args, sink, output, st, terminalWidth(env));
  // kubectl -v=N logs to its stderr: ours, apart from the report (with --json the log is in the report instead).
  if (!args.json && result.kubectlLog) err(`${result.kubectlLog.join('\n')}\n`);
  if (result.stopped) err(budgetNote(result.stopped));
  if (result.outcome === 'NotSimulated' && !args.allowUnsimulated) err('note: --allow-unsimulated judges the run by the workloads the engine runs\n');
  return exitCodeOf(result, args.delete !== undefined);
}

/**
 * kubeconfigOf is the file the run's kubectl loads, as its -v=6 log names it: --kubeconfig as given, otherwise the
 * default ~/.kube/config under HOME (clientcmd.RecommendedHomeFile).
 */
function kubeconfigOf(args: RunArgs, env: NodeJS.ProcessEnv): { kubeconfig?: string } {
  if (args.identity.kind === 'kubeconfig') return { kubeconfig: args.identity.file };
  const home = env['HOME'];
  return home ? { kubeconfig: `${home.replace(/\/$/, '')}/.kube/config` } : {};
}

/** run runs the simulation and prints its report. */
function run(sim: Simulation, args: RunArgs, sink: TraceSink | undefined, { out, outBytes }: Output, st: Style, width: number | undefined): SimulationResult {
  const result = sim.run();
  // The report is streamed: valid JSON at any size, never one string of the whole run.
  if (args.json) writeResultJson(result, args.trace, out, sink instanceof FileSpill ? sink : undefined, outBytes);
  else if (sink instanceof PhaseKeeper) {
    const cut = args.trace === 'none' ? { none: true } : sink.leftOut ? { leftOut: sink.leftOut } : {};
    out(`${renderHuman({ ...result, trace: sink.phases }, args.manifest, st, kubectlLines(sim.inputs), width, cut)}\n`);
  } else out(`${renderHuman(result, args.manifest, st, kubectlLines(sim.inputs), width)}\n`);
  return result;
}

/** explain runs the simulation and prints the explanation of each pod the manifest made. */
function explain(sim: Simulation, args: RunArgs, out: (s: string) => void, st: Style): SimulationResult {
  const { result, pods } = runForExplanation(sim);
  const report = explainRun(sim, result, pods);
  if (args.json) out(`${JSON.stringify(report, null, 2)}\n`);
  else out(`${renderExplain(report, result.kubectl, args.manifest, st, kubectlLines(sim.inputs), result.commands)}\n`);
  return result;
}

/**
 * explainLivePod reads a pod of a real cluster through kubectl and prints its explanation. Exit status: 0 when the pod
 * is Running and Ready (or Succeeded) with nothing wrong, 1 when it is not, 2 when kubectl could not read it.
 */
function explainLivePod(args: LiveArgs, out: (s: string) => void, err: (s: string) => void, env: NodeJS.ProcessEnv, isTTY: boolean): number {
  let state;
  try {
    state = readLiveState({ name: args.name, ...(args.namespace ? { namespace: args.namespace } : {}), ...(args.context ? { context: args.context } : {}), ...(args.kubeconfig ? { kubeconfig: args.kubeconfig } : {}) },
      kubectlProcess(env), () => new Date());
  } catch (e) {
    if (!(e instanceof LiveSourceError)) throw e;
    err(`error: ${e.message.replace(/\n/g, ' ')}\n`);
    return EXIT.badInput;
  }
  const report = explainLive(state);
  if (args.json) out(`${JSON.stringify(report, null, 2)}\n`);
  else out(`${renderLive(report, style(useColor(env, isTTY)))}\n`);
  return report.diagnosis?.question === 'none' ? EXIT.completed : EXIT.stoppedShort;
}

/**
 * terminalWidth is the width the human report wraps to: COLUMNS, as the terminal (or whoever runs the command) sets
 * it; none when it is unset, so output to a file or a pipe keeps one line per step.
 */
function terminalWidth(env: NodeJS.ProcessEnv): number | undefined {
  const columns = Number(env['COLUMNS']);
  return Number.isInteger(columns) && columns > 0 ? columns : undefined;
}

function main(): void {
  // A served cluster lives long and explain keeps the cluster as each scheduling attempt saw it: memory first. A run
  // tightens the heap once it is big (HeapWatch).
  if (process.argv[2] === 'serve' || process.argv[2] === 'explain') tightenHeap();
  // serve runs until it is stopped: its own, asynchronous command.
  if (process.argv[2] === 'serve') {
    runServe(process.argv.slice(3), (s) => process.stdout.write(s), (s) => process.stderr.write(s)).then((code) => {
      process.exitCode = code;
    }, (e: unknown) => {
      process.stderr.write(`error: internal error: ${(e as Error)?.message ?? String(e)}\n`);
      process.exitCode = EXIT.badInput;
    });
    return;
  }
  try {
    // On a terminal, its width is the width to fit (a shell does not always export COLUMNS).
    const tty = process.stdout.isTTY === true;
    const env = tty && process.stdout.columns > 0 && process.env['COLUMNS'] === undefined ? { ...process.env, COLUMNS: String(process.stdout.columns) } : process.env;
    process.exitCode = runCli(process.argv.slice(2), (s) => writeAll(1, s), (s) => process.stderr.write(s), env, tty, (b) => writeAll(1, b));
  } catch (e) {
    // The reader of the output went away (`| head`): nothing more to say, as for any command line tool.
    if (e instanceof StdoutClosed) return;
    // A bug of ours: one line, with the stack only when asked for (POD_LIFECYCLE_DEBUG=1), never a wall of frames.
    const detail = process.env['POD_LIFECYCLE_DEBUG'] ? (e as Error).stack ?? String(e) : (e as Error)?.message ?? String(e);
    process.stderr.write(`error: internal error: ${detail.replace(/\n(?!\s+at )/g, ' ')}\n`);
    process.exitCode = EXIT.badInput;
  }
}

if (require.main === module) main();
