// The registry of simulated kubectl commands and the walk from a command line to one of them, as cobra finds a command
// (kubectl's persistent flags may come anywhere), then its flags, required flags, and build. See
// github.com/spf13/cobra v1.10.2 command.go (Find, stripFlags, execute, ValidateRequiredFlags) and
// staging/src/k8s.io/cli-runtime/pkg/genericclioptions/config_flags.go (v0.36.3) for the persistent flags.
import { bool, type CommandPath, type KubectlCommand, KubectlFailure, type KubectlWarning, NotSimulated, flagError, plainError, str } from './common';
import { CREATE_DEPLOYMENT } from './create-deployment';
import { CREATE_JOB } from './create-job';
import { FlagError, type FlagSpec, FlagSet, type FlagValue, HelpRequested } from './flags';
import { MAX_VERBOSITY } from '../request-log';
import { APPLY_FROM_FILE, CREATE_FROM_FILE } from './from-file';
import type { BuildContext, CommandDefinition } from './registry-types';
import { RUN } from './run';

/** GLOBAL_FLAGS are kubectl's persistent flags in 1.36 (`kubectl options`). */
const GLOBAL_FLAGS: readonly FlagSpec[] = [
  str('as'), { name: 'as-group', type: 'stringArray', def: '[]' }, str('as-uid'), { name: 'as-user-extra', type: 'stringArray', def: '[]' },
  str('cache-dir'), str('certificate-authority'), str('client-certificate'), str('client-key'), str('cluster'), str('context'),
  bool('disable-compression'), bool('insecure-skip-tls-verify'), str('kubeconfig'), str('kuberc'),
  { name: 'log-flush-frequency', type: 'duration', def: '5s' }, bool('match-server-version'), str('namespace', '', 'n'), str('password'),
  str('profile', 'none'), str('profile-output', 'profile.pprof'), str('request-timeout', '0'), str('server', '', 's'), str('tls-server-name'),
  str('token'), str('user'), str('username'), { name: 'v', shorthand: 'v', type: 'int32', def: '0' }, str('vmodule'), bool('warnings-as-errors'),
  // cobra's own help flag: -h and --help show the help, which is not simulated.
  bool('help', 'h'),
];

/** GLOBALS_NOT_SIMULATED are persistent flags that choose another cluster, user or client setting: the run's own options do that. */
const GLOBALS_NOT_SIMULATED = [
  'as', 'as-group', 'as-uid', 'as-user-extra', 'certificate-authority', 'client-certificate', 'client-key', 'cluster', 'context',
  'insecure-skip-tls-verify', 'kubeconfig', 'kuberc', 'password', 'server', 'tls-server-name', 'token', 'user', 'username', 'match-server-version',
  'profile', 'profile-output', 'warnings-as-errors',
];

/** COMMANDS is the registry: each simulated command by its path. */
const COMMANDS: ReadonlyMap<CommandPath, CommandDefinition> = new Map([RUN, CREATE_DEPLOYMENT, CREATE_JOB, CREATE_FROM_FILE, APPLY_FROM_FILE].map((c) => [c.path, c]));

/** CREATE_SUBCOMMANDS are `kubectl create`'s subcommands and aliases in 1.36, by the path they lead to (undefined: not simulated). */
const CREATE_SUBCOMMANDS: Readonly<Record<string, CommandPath | undefined>> = {
  deployment: 'create deployment', deploy: 'create deployment', job: 'create job',
  namespace: undefined, ns: undefined, quota: undefined, resourcequota: undefined, secret: undefined, configmap: undefined, cm: undefined,
  serviceaccount: undefined, sa: undefined, service: undefined, svc: undefined, clusterrole: undefined, clusterrolebinding: undefined,
  role: undefined, rolebinding: undefined, poddisruptionbudget: undefined, pdb: undefined, priorityclass: undefined, pc: undefined,
  cronjob: undefined, cj: undefined, ingress: undefined, ing: undefined, token: undefined,
};

/** ParsedKubectl is a kubectl command line read: the command, kubectl's own refusal, or something not simulated. */
export type ParsedKubectl =
  | { ok: true; command: KubectlCommand }
  | { ok: false; refused: KubectlFailure; path: string; line: string; argv: string[] }
  | { ok: false; notSimulated: string };

/** ParseContext is what the parse needs besides the words: the default namespace and the random source. */
export interface ParseContext {
  defaultNamespace: string;
  randomString(n: number): string;
}

/**
 * parseKubectl reads `kubectl ARGS...` (argv[0] is `kubectl`) as kubectl 1.36 reads it: find the command, parse its
 * flags (pflag's errors, with kubectl's `See '... --help' for usage.`), check the required flags, then run the
 * command's checks and generator.
 */
export function parseKubectl(argv: readonly string[], context: ParseContext): ParsedKubectl {
  if (argv[0] !== 'kubectl') return { ok: false, notSimulated: `the command line after -- must be a kubectl command (kubectl run, kubectl create deployment|job, kubectl create -f, kubectl apply -f), not ${JSON.stringify(argv[0] ?? '')}` };
  const words = argv.slice(1);
  const line = quoteCommandLine(['kubectl', ...words]);
  const found = findCommand(words);
  if ('notSimulated' in found) return { ok: false, notSimulated: found.notSimulated };
  const { definition, rest } = found;
  const path = `kubectl ${definition.path}`;
  const flagSet = new FlagSet([...definition.flags, ...GLOBAL_FLAGS]);
  const warnings: KubectlWarning[] = [];
  const refused = (f: KubectlFailure) => ({ ok: false as const, refused: new KubectlFailure(f.printed, f.reason, [...warnings, ...f.warnings]), path, line, argv: words });
  try {
    let flags;
    try {
      flags = flagSet.parse(rest);
    } catch (err) {
      if (err instanceof HelpRequested) throw new NotSimulated(`${path} --help is not simulated: see the kubectl reference`);
      if (err instanceof FlagError) throw flagError(path, err.message);
      throw err;
    }
    if (flags.values.get('help') === true) throw new NotSimulated(`${path} --help is not simulated: see the kubectl reference`);
    // cobra's ValidateRequiredFlags, after parsing and before the command runs.
    const missing = definition.flags.filter((f) => f.required && !flags.changed.includes(f.name)).map((f) => f.name);
    if (missing.length > 0) throw plainError(`required flag(s) "${missing.join('", "')}" not set`);
    const notSimulated = GLOBALS_NOT_SIMULATED.filter((n) => flags.changed.includes(n));
    if (notSimulated.length > 0) {
      throw new NotSimulated(`kubectl's ${notSimulated.map((n) => `--${n}`).join(', ')}: the identity and cluster are the run's own options, given before -- (--kubeconfig, --context, --token, --as, --as-group, --cluster)`);
    }
    const verbosity = verbosityOf(flags.values.get('v'), flags.values.get('vmodule'), definition.path);
    const given = flags.values.get('namespace');
    const namespace = typeof given === 'string' && given !== '' ? given : context.defaultNamespace;
    const ctx: BuildContext = { argv: words, line, namespace, enforceNamespace: typeof given === 'string' && given !== '', randomString: context.randomString, warnings };
    return { ok: true, command: { ...definition.build(flags, ctx), verbosity } };
  } catch (err) {
    if (err instanceof KubectlFailure) return refused(err);
    if (err instanceof NotSimulated) return { ok: false, notSimulated: err.message };
    throw err;
  }
}

/**
 * verbosityOf reads -v (klog's level, an int32 pflag parses): 6 logs each response, 7 each request with its headers,
 * 8 the bodies (cut at 1024 bytes) and the response headers, 9 curl commands and the connection's timings (bodies cut
 * at 10240 bytes), 10 the bodies whole; nothing logs above V(10), so a higher level logs as 10 does. --vmodule sets
 * levels by Go source file. The typed clients of create deployment|job send protobuf, whose bodies -v=8 dumps in hex:
 * not simulated. See staging/src/k8s.io/client-go/transport/round_trippers.go (levelsV6..levelsV9) and rest/request.go
 * (truncateBody) at v0.36.3.
 */
function verbosityOf(v: FlagValue | undefined, vmodule: FlagValue | undefined, path: CommandPath): number {
  if (typeof vmodule === 'string' && vmodule !== '') throw new NotSimulated(`kubectl's --vmodule is not simulated: use -v=N (up to ${MAX_VERBOSITY}) for the whole of kubectl's log`);
  const level = typeof v === 'number' ? v : 0;
  if (level >= 8 && (path === 'create deployment' || path === 'create job')) {
    throw new NotSimulated(`kubectl ${path} -v=${level} is not simulated: its typed client sends protobuf, whose bodies -v=8 logs as hex dumps; use -v=7 or less`);
  }
  return Math.min(MAX_VERBOSITY, Math.max(0, level));
}

/**
 * findCommand is cobra's Find for the commands simulated: the words that are not flags (nor a flag's value) name the
 * command; those words are taken out, the rest is the command's to parse.
 */
function findCommand(words: string[]): { definition: CommandDefinition; rest: string[] } | { notSimulated: string } {
  const rootFlags = new FlagSet(GLOBAL_FLAGS);
  const first = nextCommandWord(words, 0, rootFlags);
  if (first === undefined) return { notSimulated: 'kubectl needs a command: kubectl run, kubectl create deployment|job, kubectl create -f or kubectl apply -f' };
  const name = words[first]!;
  const without = (i: number, list: string[]) => [...list.slice(0, i), ...list.slice(i + 1)];
  if (name === 'run') return { definition: COMMANDS.get('run')!, rest: without(first, words) };
  if (name === 'apply') return { definition: COMMANDS.get('apply')!, rest: without(first, words) };
  if (name !== 'create') return { notSimulated: `kubectl ${name} is not simulated: the run starts from kubectl run, kubectl create deployment|job, kubectl create -f or kubectl apply -f` };
  const afterCreate = without(first, words);
  const createFlags = new FlagSet([...COMMANDS.get('create')!.flags, ...GLOBAL_FLAGS]);
  const second = nextCommandWord(afterCreate, first, createFlags);
  const sub = second === undefined ? undefined : afterCreate[second]!;
  if (sub !== undefined && Object.hasOwn(CREATE_SUBCOMMANDS, sub)) {
    const target = CREATE_SUBCOMMANDS[sub];
    if (!target) return { notSimulated: `kubectl create ${sub} is not simulated: the run starts from kubectl run, kubectl create deployment|job, kubectl create -f or kubectl apply -f` };
    return { definition: COMMANDS.get(target)!, rest: without(second!, afterCreate) };
  }
  return { definition: COMMANDS.get('create')!, rest: afterCreate };
}

/** nextCommandWord is cobra's stripFlags: the index of the first word from `from` that is neither a flag nor the value of one. */
function nextCommandWord(words: string[], from: number, flags: FlagSet): number | undefined {
  for (let i = from; i < words.length; i++) {
    const s = words[i]!;
    if (s === '--') return undefined;
    if (s.startsWith('--') && !s.includes('=')) {
      if (flags.lookup(s.slice(2))?.noOptDefVal === undefined) i++;
      continue;
    }
    if (s.startsWith('-') && !s.includes('=') && s.length === 2) {
      if (flags.lookupShorthand(s[1]!)?.noOptDefVal === undefined) i++;
      continue;
    }
    if (s !== '' && !s.startsWith('-')) return i;
  }
  return undefined;
}

/** quoteCommandLine writes a command line as a POSIX shell would read it back: words with special characters quoted. */
export function quoteCommandLine(argv: readonly string[]): string {
  return argv.map((w) => (w !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(' ');
}
