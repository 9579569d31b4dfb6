// The pod-lifecycle command line: `run MANIFEST [flags]`, `run [flags] -- kubectl ARGS...` and `explain` with the same,
// parsed strictly; a bad flag is a usage error (exit 2). What follows `--` is kubectl's, read by the engine.
import type { IdentitySpec } from '../engine/cluster/files';
import { parseDuration } from '../engine/runtime/durations';
import { FORCE_WITH_GRACE_ERROR, NOW_WITH_GRACE_ERROR } from '../engine/kubectl/apply';
import type { FurtherDelete, LaterKubectl } from '../engine/simulation';
import { DEFAULT_DRAIN_FLAGS, type NodeCommand, setDrainFlag } from '../engine/kubectl/node-command';
import { TRACE_DETAILS, type TraceDetail } from '../engine/report/json';

/** Command is what the program was asked to do with the manifest. */
export type Command = 'run' | 'explain';

/** COMMANDS are the commands that run a manifest; they take the same flags. */
export const COMMANDS: readonly Command[] = ['run', 'explain'];

/** RunArgs are the parsed flags of `pod-lifecycle run` (and `explain`, which takes the same). */
export interface RunArgs {
  command: Command;
  /** manifest is the MANIFEST file; empty when the run starts from a kubectl command line. */
  manifest: string;
  /** kubectl is the command line after `--` (`kubectl run web --image=nginx:1.27`), instead of a MANIFEST. */
  kubectl?: string[];
  clusters: string[];
  behavior?: string;
  identity: IdentitySpec;
  forMs?: number;
  delete?: { gracePeriodSeconds?: number; force?: boolean; propagationPolicy?: 'Background' | 'Foreground' | 'Orphan' };
  /** thenDelete are the --then-delete flags: `kubectl delete -f MANIFEST` again, that long after the first. */
  thenDelete?: FurtherDelete[];
  /** thenApply are the --then-apply flags: `kubectl apply -f FILE`, that long after the first apply. */
  thenApply?: { afterSeconds: number; file: string }[];
  /** thenKubectl are the --then-drain, --then-cordon and --then-uncordon flags, in the order given. */
  thenKubectl?: LaterKubectl[];
  seed?: number;
  /** budget is --max-steps and --max-objects, where given. */
  budget?: { steps?: number; objects?: number };
  json: boolean;
  /** allowUnsimulated is --allow-unsimulated: judge the run by what the engine runs, past a kind whose controller it does not run (none is left). */
  allowUnsimulated?: boolean;
  /** watches is --watches: the run records the `watch` phase (the informers' requests and who is told of each change). */
  watches?: boolean;
  /**
   * trace is how much of the trace run prints (its timeline) or --json writes: summary (the default) keeps the first
   * pods of each workload and cuts long per-node tables, full keeps everything, none leaves it out.
   */
  trace: TraceDetail;
}

/** LiveArgs are the parsed flags of `pod-lifecycle explain --live pod/NAME`: the pod of a real cluster, read through kubectl. */
export interface LiveArgs {
  command: 'explain-live';
  /** name is the pod's name (from `pod/NAME`). */
  name: string;
  namespace?: string;
  context?: string;
  kubeconfig?: string;
  json: boolean;
}

/** UsageError is a command line the program cannot run: its message is printed after `error: `. */
export class UsageError extends Error {}

/** USAGE is the synopsis printed with --help and after usage errors. */
export const USAGE = `Usage: pod-lifecycle run (MANIFEST | [options] -- kubectl ARGS...) [--cluster FILE]... [--behavior FILE]
         [--kubeconfig FILE [--context NAME] | --token T | --anonymous | --as USER [--as-group G]...]
         [--then-apply AFTER,FILE]... [--then-cordon AFTER,NODE]... [--then-uncordon AFTER,NODE]...
         [--then-drain AFTER,NODE[,ignore-daemonsets][,delete-emptydir-data][,force][,disable-eviction]
                      [,grace-period=N][,timeout=DURATION][,skip-wait-for-delete-timeout=N][,pod-selector=SELECTOR]]...
         [--for DURATION] [--delete [--grace-period N] [--force] [--cascade background|foreground|orphan]
                   [--then-delete AFTER[,grace-period=N][,force][,now]]...] [--seed N]
         [--max-steps N] [--max-objects N] [--allow-unsimulated] [--watches] [--json] [--trace summary|full|none]
       pod-lifecycle explain (MANIFEST | [options] -- kubectl ARGS...) [the flags of run]
       pod-lifecycle serve [--cluster FILE]... [--behavior FILE] [--port N] [--speed X] [--kubeconfig-out FILE] [--seed N]
                           [--event-ttl DURATION]
       pod-lifecycle explain --live pod/NAME [-n NAMESPACE] [--context NAME] [--kubeconfig FILE] [--json]
kubectl ARGS: run NAME --image=IMAGE [flags] [-- ARGS...] | create deployment NAME --image=IMAGE [flags] [-- COMMAND...]
              | create job NAME --image=IMAGE [flags] [-- COMMAND...] | create -f FILE [flags] | apply -f FILE [flags]`;

const VALUE_FLAGS = new Set(['--cluster', '--behavior', '--kubeconfig', '--context', '--token', '--as', '--as-group', '--for', '--grace-period', '--seed', '--cascade', '--then-delete', '--then-apply', '--then-drain', '--then-cordon', '--then-uncordon', '--trace', '--max-steps', '--max-objects']);
const BOOL_FLAGS = new Set(['--anonymous', '--delete', '--force', '--json', '--allow-unsimulated', '--watches']);

const LIVE_VALUE_FLAGS = new Set(['--live', '-n', '--namespace', '--context', '--kubeconfig']);

/** parseLiveArgs reads the flags of `explain --live pod/NAME` (after the command): kubectl's connection flags and --json. */
export function parseLiveArgs(rest: readonly string[]): LiveArgs {
  const values = new Map<string, string>();
  let json = false;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    if (flag === '--json' && eq < 0) {
      json = true;
      continue;
    }
    if (!LIVE_VALUE_FLAGS.has(flag)) throw new UsageError(arg.startsWith('-') ? `flag ${flag} does not go with --live` : `explain --live takes no MANIFEST: ${arg}`);
    const value = eq > 0 ? arg.slice(eq + 1) : rest[++i];
    if (value === undefined || value === '') throw new UsageError(`flag needs an argument: ${flag}`);
    const key = flag === '--namespace' ? '-n' : flag;
    if (values.has(key)) throw new UsageError(`flag ${flag} given more than once`);
    values.set(key, value);
  }
  const target = values.get('--live')!;
  const slash = target.indexOf('/');
  const kind = slash < 0 ? 'pod' : target.slice(0, slash).toLowerCase();
  const name = slash < 0 ? target : target.slice(slash + 1);
  if (!['pod', 'pods', 'po'].includes(kind) || !name || name.includes('/')) throw new UsageError(`--live takes pod/NAME, got "${target}"`);
  const out: LiveArgs = { command: 'explain-live', name, json };
  for (const [flag, key] of [['-n', 'namespace'], ['--context', 'context'], ['--kubeconfig', 'kubeconfig']] as const) {
    const v = values.get(flag);
    if (v !== undefined) out[key] = v;
  }
  return out;
}

/** parseArgs reads argv (without node and the script). `help` is returned for -h/--help. */
export function parseArgs(argv: string[]): RunArgs | LiveArgs | 'help' {
  // Everything after the first `--` is kubectl's command line, flags and all: it is not read here.
  const dash = argv.indexOf('--');
  const own = dash < 0 ? argv : argv.slice(0, dash);
  const kubectl = dash < 0 ? undefined : argv.slice(dash + 1);
  if (own.includes('-h') || own.includes('--help') || own[0] === 'help') return 'help';
  const [command, ...rest] = own;
  if (!COMMANDS.includes(command as Command)) throw new UsageError(command === undefined ? 'no command given' : `unknown command "${command}"`);
  if (command === 'explain' && rest.some((a) => a === '--live' || a.startsWith('--live='))) {
    if (kubectl !== undefined) throw new UsageError('explain --live reads a pod of a cluster: it takes no kubectl command line after --');
    return parseLiveArgs(rest);
  }
  const values = new Map<string, string[]>();
  const bools = new Set<string>();
  const positional: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (!arg.startsWith('-') || arg === '-') {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    if (BOOL_FLAGS.has(flag)) {
      if (eq > 0) throw new UsageError(`flag ${flag} takes no value`);
      bools.add(flag);
    } else if (VALUE_FLAGS.has(flag)) {
      const value = eq > 0 ? arg.slice(eq + 1) : rest[++i];
      if (value === undefined) throw new UsageError(`flag needs an argument: ${flag}`);
      values.set(flag, [...(values.get(flag) ?? []), value]);
    } else {
      throw new UsageError(`unknown flag: ${flag}`);
    }
  }
  if (kubectl !== undefined) {
    if (positional.length > 0) throw new UsageError(`${command} takes a MANIFEST or a kubectl command line after --, not both: ${positional.join(' ')}`);
    if (kubectl.length === 0) throw new UsageError(`${command} needs a kubectl command line after --, e.g. -- kubectl run web --image=nginx:1.27`);
  } else {
    if (positional.length === 0) throw new UsageError(`${command} needs a MANIFEST file, or a kubectl command line after --`);
    if (positional.length > 1) throw new UsageError(`${command} takes one MANIFEST, got ${positional.length}: ${positional.join(' ')}`);
  }
  const one = (flag: string): string | undefined => {
    const v = values.get(flag);
    if (v && v.length > 1) throw new UsageError(`flag ${flag} given more than once`);
    return v?.[0];
  };
  const args: RunArgs = { command: command as Command, manifest: positional[0] ?? '', ...(kubectl ? { kubectl } : {}), clusters: values.get('--cluster') ?? [], identity: identityOf(one, values, bools), json: bools.has('--json'), trace: 'summary' };
  if (bools.has('--allow-unsimulated')) args.allowUnsimulated = true;
  if (bools.has('--watches')) args.watches = true;
  const behavior = one('--behavior');
  if (behavior !== undefined) args.behavior = behavior;
  const forText = one('--for');
  if (forText !== undefined) {
    const ms = parseDuration(forText);
    if (ms === undefined || ms <= 0) throw new UsageError(`invalid duration for --for: "${forText}" (use e.g. 90s, 5m, 1h30m)`);
    args.forMs = ms;
  }
  const seed = one('--seed');
  if (seed !== undefined) {
    if (!/^\d+$/.test(seed) || !Number.isSafeInteger(Number(seed))) throw new UsageError(`invalid value for --seed: "${seed}" (a non-negative integer up to ${Number.MAX_SAFE_INTEGER})`);
    args.seed = Number(seed);
  }
  for (const [flag, key] of [['--max-steps', 'steps'], ['--max-objects', 'objects']] as const) {
    const text = one(flag);
    if (text === undefined) continue;
    if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text)) || Number(text) === 0) throw new UsageError(`invalid value for ${flag}: "${text}" (a positive integer)`);
    args.budget = { ...args.budget, [key]: Number(text) };
  }
  const trace = one('--trace');
  if (trace !== undefined) {
    if (!TRACE_DETAILS.includes(trace as TraceDetail)) throw new UsageError(`invalid value for --trace: "${trace}" (summary, full or none)`);
    // run's timeline is cut as its --json trace is; explain reads the whole trace and prints no timeline.
    if (!bools.has('--json') && args.command !== 'run') throw new UsageError('--trace goes with run or --json');
    args.trace = trace as TraceDetail;
  }
  const grace = one('--grace-period');
  const cascade = one('--cascade');
  if ((grace !== undefined || bools.has('--force')) && !bools.has('--delete')) throw new UsageError('--grace-period and --force go with --delete');
  if (cascade !== undefined && !bools.has('--delete')) throw new UsageError('--cascade goes with --delete');
  if (values.has('--then-delete') && !bools.has('--delete')) throw new UsageError('--then-delete goes with --delete: it is a further kubectl delete after the first');
  const later = values.get('--then-apply');
  if (later) args.thenApply = later.map(laterApply);
  const nodeCommands = nodeCommandFlags(rest);
  if (nodeCommands.length) args.thenKubectl = nodeCommands;
  if (bools.has('--delete')) {
    args.delete = {};
    if (grace !== undefined) {
      if (!/^-?\d+$/.test(grace)) throw new UsageError(`invalid value for --grace-period: "${grace}" (an integer number of seconds)`);
      args.delete.gracePeriodSeconds = Number(grace);
    }
    if (bools.has('--force')) args.delete.force = true;
    // kubectl delete refuses this pair before sending anything. See staging/src/k8s.io/kubectl/pkg/cmd/delete/delete.go (Validate).
    if (args.delete.force && (args.delete.gracePeriodSeconds ?? -1) > 0) throw new UsageError(FORCE_WITH_GRACE_ERROR);
    if (cascade !== undefined) args.delete.propagationPolicy = cascadingStrategy(cascade);
    const further = values.get('--then-delete');
    if (further) args.thenDelete = further.map(furtherDelete);
  }
  return args;
}

/** laterApply reads one --then-apply: `AFTER,FILE`, AFTER a duration from the first apply (30s, 1m). */
function laterApply(text: string): { afterSeconds: number; file: string } {
  const comma = text.indexOf(',');
  const after = comma < 0 ? text : text.slice(0, comma);
  const file = comma < 0 ? '' : text.slice(comma + 1);
  const ms = parseDuration(after);
  if (ms === undefined || !file) throw new UsageError(`invalid value for --then-apply: "${text}" (AFTER,FILE: a duration after the first apply, e.g. 10s, then a manifest)`);
  return { afterSeconds: ms / 1000, file };
}

/** nodeCommandFlags reads the --then-drain, --then-cordon and --then-uncordon flags in the order they were given. */
function nodeCommandFlags(argv: readonly string[]): LaterKubectl[] {
  const out: LaterKubectl[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const m = /^--then-(drain|cordon|uncordon)(?:=(.*))?$/.exec(arg);
    if (!m) continue;
    out.push(laterNodeCommand(m[1] as NodeCommand['verb'], m[2] ?? argv[++i] ?? ''));
  }
  return out;
}

/**
 * laterNodeCommand reads one --then-drain, --then-cordon or --then-uncordon: `AFTER,NODE`, and for drain kubectl
 * drain's flags after it (`ignore-daemonsets`, `grace-period=10`, `timeout=2m`), checked as kubectl's flag parser
 * checks them. AFTER is a duration from the first apply.
 */
function laterNodeCommand(verb: NodeCommand['verb'], text: string): LaterKubectl {
  const [after = '', node = '', ...flags] = text.split(',');
  const ms = parseDuration(after);
  const form = verb === 'drain' ? 'AFTER,NODE[,flag[=value]]...' : 'AFTER,NODE';
  if (ms === undefined || !node) throw new UsageError(`invalid value for --then-${verb}: "${text}" (${form}: a duration after the first apply, e.g. 30s, then a node name)`);
  if (verb !== 'drain') {
    if (flags.length) throw new UsageError(`invalid value for --then-${verb}: "${text}" (kubectl ${verb} takes a node name alone)`);
    return { afterSeconds: ms / 1000, command: { verb, node } };
  }
  const drainFlags = { ...DEFAULT_DRAIN_FLAGS };
  for (const flag of flags) {
    const eq = flag.indexOf('=');
    const problem = setDrainFlag(drainFlags, eq < 0 ? flag : flag.slice(0, eq), eq < 0 ? undefined : flag.slice(eq + 1));
    if (problem) throw new UsageError(`invalid option for --then-drain: ${problem}`);
  }
  return { afterSeconds: ms / 1000, command: { verb, node, flags: drainFlags } };
}

/**
 * furtherDelete reads one --then-delete: `AFTER[,grace-period=N][,force][,now]`, AFTER a duration from the first
 * delete (10s, 1m30s). The flags are kubectl delete's, checked as its Complete and Validate check them.
 */
function furtherDelete(text: string): FurtherDelete {
  const [after = '', ...flags] = text.split(',');
  const ms = parseDuration(after);
  if (ms === undefined) throw new UsageError(`invalid time for --then-delete: "${after}" (a duration after the first delete, e.g. 10s; then grace-period=N, force, now)`);
  const d: FurtherDelete = { afterSeconds: ms / 1000 };
  let now = false;
  for (const flag of flags) {
    const grace = /^grace-period=(-?\d+)$/.exec(flag);
    if (grace) d.gracePeriodSeconds = Number(grace[1]);
    else if (flag === 'force') d.force = true;
    else if (flag === 'now') now = true;
    else throw new UsageError(`invalid option for --then-delete: "${flag}" (grace-period=N, force or now)`);
  }
  // delete.go Complete: --now is --grace-period=1, and may not come with an explicit --grace-period.
  if (now) {
    if ((d.gracePeriodSeconds ?? -1) !== -1) throw new UsageError(NOW_WITH_GRACE_ERROR);
    d.gracePeriodSeconds = 1;
  }
  if (d.force && (d.gracePeriodSeconds ?? -1) > 0) throw new UsageError(FORCE_WITH_GRACE_ERROR);
  return d;
}

/**
 * cascadingStrategy is kubectl delete's GetCascadingStrategy: background, foreground or orphan, and the deprecated
 * booleans (true is background, false orphan). See staging/src/k8s.io/kubectl/pkg/cmd/delete/delete_flags.go.
 */
function cascadingStrategy(value: string): 'Background' | 'Foreground' | 'Orphan' {
  switch (value) {
    case 'background': case 'true': return 'Background';
    case 'foreground': return 'Foreground';
    case 'orphan': case 'false': return 'Orphan';
    default: throw new UsageError(`invalid cascade value (${value}). Must be "background", "foreground", or "orphan"`);
  }
}

function identityOf(one: (flag: string) => string | undefined, values: Map<string, string[]>, bools: Set<string>): IdentitySpec {
  const kubeconfig = one('--kubeconfig');
  const token = one('--token');
  const as = one('--as');
  const chosen = [kubeconfig !== undefined && '--kubeconfig', token !== undefined && '--token', bools.has('--anonymous') && '--anonymous', as !== undefined && '--as'].filter(Boolean);
  if (chosen.length > 1) throw new UsageError(`${chosen.join(' and ')} cannot be used together: choose one identity`);
  const context = one('--context');
  if (context !== undefined && kubeconfig === undefined) throw new UsageError('--context goes with --kubeconfig');
  if (values.has('--as-group') && as === undefined) throw new UsageError('--as-group goes with --as');
  if (kubeconfig !== undefined) return { kind: 'kubeconfig', file: kubeconfig, ...(context !== undefined ? { context } : {}) };
  if (token !== undefined) return { kind: 'token', token };
  if (bools.has('--anonymous')) return { kind: 'anonymous' };
  if (as !== undefined) return { kind: 'impersonate', user: as, groups: values.get('--as-group') ?? [] };
  return { kind: 'default' };
}
