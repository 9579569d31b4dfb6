// The launch attributes of a `pod-lifecycle` debug configuration: checked one by one and turned into the
// engine's RunFiles and SimulationOptions, with errors a person can act on and a stable id for each kind.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { readInputFile } from '../host/read-file';
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { IdentitySpec, RunFiles } from '../engine/cluster/files';
import { loadClusterFiles, loadRunFiles } from '../engine/cluster/files';
import { InputError, type SimulationInputs } from '../engine/cluster/inputs';
import { parseDuration } from '../engine/runtime/durations';
import { GENERATED_FILE, KubectlNotSimulated, loadKubectlRun } from '../engine/kubectl/generate/load';
import { splitCommandLine } from '../engine/kubectl/generate/argv';
import { DEFAULT_BUDGET, type SimulationOptions } from '../engine/simulation';

/** ErrorId lists the stable ids of the errors the adapter answers with; a client may key on them. */
export const ErrorId = {
  /** invalidLaunchAttribute: a launch attribute has the wrong type or an impossible value. */
  invalidLaunchAttribute: 3001,
  /** unreadableManifest: the manifest file cannot be read or parsed. */
  unreadableManifest: 3002,
  /** unreadableCluster: a cluster file cannot be read or parsed. */
  unreadableCluster: 3003,
  /** unreadableBehavior: the behavior file cannot be read or parsed. */
  unreadableBehavior: 3004,
  /** unreadableKubeconfig: the kubeconfig cannot be read, or has no usable context or user. */
  unreadableKubeconfig: 3005,
  /** alreadyLaunched: a second launch in the same session. */
  alreadyLaunched: 3006,
  /** notLaunched: a request that needs a running lifecycle came before launch. */
  notLaunched: 3010,
  /** notStopped: a request that needs a paused lifecycle came while it was not paused (or had ended). */
  notStopped: 3011,
  /** unknownReference: a thread, frame, variables or source reference the adapter did not hand out. */
  unknownReference: 3012,
  /** unsupported: a request the adapter does not implement. */
  unsupported: 3013,
  /** badExpression: an evaluate or condition expression that cannot be read or answered. */
  badExpression: 3014,
  /** readOnlyVariable: setVariable on a value no input writes (a decision, an event, a pod's status). */
  readOnlyVariable: 3015,
  /** notAnInput: a breakpoint request for a file that is not YAML, so cannot be an input of the lifecycle. */
  notAnInput: 3016,
  /** unknownTarget: a step-in target or data breakpoint the adapter did not offer. */
  unknownTarget: 3017,
  /** badArguments: a request's arguments do not have the protocol's shape (null, a wrong type, a required one missing). */
  badArguments: 3018,
  /** engineFailure: the simulation threw; a bug, reported rather than crashing the session. */
  engineFailure: 3020,
} as const;

/** LaunchError is a launch the adapter refuses: `id` is one of ErrorId, `message` is shown to the user as it is. */
export class LaunchError extends Error {
  constructor(readonly id: number, message: string) {
    super(message);
    this.name = 'LaunchError';
  }
}

/** LaunchArguments are the attributes of package.json's `configurationAttributes.launch`, as they arrive (unchecked). */
export interface LaunchArguments extends DebugProtocol.LaunchRequestArguments {
  manifest?: unknown;
  /** kubectl is the kubectl command line the run starts from instead of a manifest: a string, or its words. */
  kubectl?: unknown;
  cluster?: unknown;
  behavior?: unknown;
  kubeconfig?: unknown;
  context?: unknown;
  token?: unknown;
  anonymous?: unknown;
  as?: unknown;
  asGroups?: unknown;
  stopOnEntry?: unknown;
  seed?: unknown;
  for?: unknown;
  /** maxSteps and maxObjects are the run's budget (--max-steps, --max-objects). */
  maxSteps?: unknown;
  /** allowUnsimulated judges the run by the workloads the engine runs (the CLI's --allow-unsimulated). */
  allowUnsimulated?: unknown;
  /** watches records the `watch` phase (the CLI's --watches). */
  watches?: unknown;
  maxObjects?: unknown;
  /** delete is true, or `{gracePeriod, force}` as kubectl delete's flags. */
  delete?: unknown;
  gracePeriod?: unknown;
  force?: unknown;
  /** trace logs the Debug Adapter Protocol traffic to the Debug Console (as mock-debug's `trace`). */
  trace?: unknown;
  /** serve runs no manifest: the cluster is served on 127.0.0.1 for the user's own kubectl (`pod-lifecycle serve`). */
  serve?: unknown;
  /** port, speed and kubeconfigOut are serve's --port, --speed and --kubeconfig-out. */
  port?: unknown;
  speed?: unknown;
  kubeconfigOut?: unknown;
}

/** LaunchPlan is a checked launch: which files to read, how to run the simulation and how to start the session. */
export interface LaunchPlan {
  /** files names the manifest (for a kubectl command line: its first -f file, or its generated objects) and the rest. */
  files: RunFiles;
  /** kubectl is the kubectl command line's words (`kubectl` first), when the run starts from one. */
  kubectl?: string[];
  options: SimulationOptions;
  stopOnEntry: boolean;
  noDebug: boolean;
  /** serve: the session serves the cluster to the user's kubectl instead of running a manifest. */
  serve?: { port: number; speed: number; kubeconfigOut?: string };
}

/** planLaunch checks the launch attributes and returns the plan; it throws a LaunchError naming the first bad attribute. */
export function planLaunch(args: LaunchArguments): LaunchPlan {
  if (optionalBoolean(args, 'serve') === true) return planServe(args);
  const manifest = optionalString(args, 'manifest');
  const kubectl = kubectlWords(args.kubectl);
  if (manifest !== undefined && kubectl !== undefined) throw invalid('"manifest" and "kubectl" cannot be used together: the run starts from a manifest or from a kubectl command line');
  if (manifest === undefined && kubectl === undefined) throw invalid('"manifest" is required: the path of the Kubernetes manifest (YAML) to run, e.g. "${file}" (or "kubectl": a kubectl command line such as "kubectl run web --image=nginx:1.27")');
  const clusters = clusterList(args.cluster);
  const behavior = optionalString(args, 'behavior');
  const files: RunFiles = { manifest: manifest ?? kubectlManifest(kubectl!), clusters, identity: identityOf(args), ...(behavior !== undefined ? { behavior } : {}) };
  const options: SimulationOptions = { snapshots: true };
  const seed = optionalInteger(args, 'seed');
  if (seed !== undefined) options.seed = seed;
  const forText = optionalString(args, 'for');
  if (forText !== undefined) {
    const ms = parseDuration(forText);
    if (ms === undefined || ms <= 0) throw invalid(`"for" must be a duration such as 90s, 5m or 1h30m, not "${forText}"`);
    options.forMs = ms;
  }
  const deletion = deleteOf(args);
  if (deletion) options.delete = deletion;
  const maxSteps = optionalInteger(args, 'maxSteps');
  const maxObjects = optionalInteger(args, 'maxObjects');
  if (maxSteps === 0 || maxObjects === 0) throw invalid(`"${maxSteps === 0 ? 'maxSteps' : 'maxObjects'}" must be 1 or more`);
  if (maxSteps !== undefined || maxObjects !== undefined) options.budget = { steps: maxSteps ?? DEFAULT_BUDGET.steps, objects: maxObjects ?? DEFAULT_BUDGET.objects };
  if (optionalBoolean(args, 'allowUnsimulated') === true) options.allowUnsimulated = true;
  if (optionalBoolean(args, 'watches') === true) options.watches = true;
  // kubectl -v=6 names the kubeconfig it loaded: the launch's own, else the default under the home directory.
  options.kubeconfig = files.identity.kind === 'kubeconfig' ? files.identity.file : join(homedir(), '.kube', 'config');
  return {
    files,
    ...(kubectl ? { kubectl } : {}),
    options,
    stopOnEntry: optionalBoolean(args, 'stopOnEntry') ?? false,
    noDebug: optionalBoolean(args, 'noDebug') ?? false,
  };
}

/**
 * planServe checks a served session's attributes: the cluster and behavior files, the port, the speed and where the
 * kubeconfig goes. A manifest or a kubectl command line has no place in it: the user's kubectl sends what it sends.
 */
function planServe(args: LaunchArguments): LaunchPlan {
  if (args.manifest !== undefined || args.kubectl !== undefined) throw invalid('"serve" runs no manifest: the user\'s own kubectl sends the requests. Leave out "manifest" and "kubectl"');
  const behavior = optionalString(args, 'behavior');
  const port = optionalInteger(args, 'port') ?? 0;
  if (port < 0 || port > 65535) throw invalid(`"port" must be from 0 (any free port) to 65535, not ${port}`);
  const speed = args.speed === undefined ? 1 : args.speed;
  if (typeof speed !== 'number' || !(speed >= 0.001 && speed <= 1000)) throw invalid(`"speed" must be a number from 0.001 to 1000, not ${describe(speed)}`);
  const kubeconfigOut = optionalString(args, 'kubeconfigOut');
  const seed = optionalInteger(args, 'seed');
  return {
    files: { manifest: '', clusters: clusterList(args.cluster), identity: { kind: 'default' }, ...(behavior !== undefined ? { behavior } : {}) },
    options: { snapshots: false, ...(seed !== undefined ? { seed } : {}) },
    stopOnEntry: optionalBoolean(args, 'stopOnEntry') ?? false,
    noDebug: false,
    serve: { port, speed, ...(kubeconfigOut !== undefined ? { kubeconfigOut } : {}) },
  };
}

/** deleteOf reads `delete` (true, or `{gracePeriod, force}`) with the top-level `gracePeriod` and `force`. */
function deleteOf(args: LaunchArguments): SimulationOptions['delete'] {
  const value = args.delete;
  let nested: LaunchArguments = {};
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    nested = value as LaunchArguments;
    const unknown = Object.keys(nested).filter((k) => k !== 'gracePeriod' && k !== 'force');
    if (unknown.length > 0) throw invalid(`"delete" takes gracePeriod and force, not ${unknown.map((k) => `"${k}"`).join(', ')}`);
  } else if (value !== undefined && value !== null && typeof value !== 'boolean') {
    throw invalid(`"delete" must be true, false or {"gracePeriod": N, "force": true}, not ${describe(value)}`);
  }
  const gracePeriod = optionalInteger(nested, 'gracePeriod') ?? optionalInteger(args, 'gracePeriod');
  const force = optionalBoolean(nested, 'force') ?? optionalBoolean(args, 'force');
  if (value === undefined || value === null || value === false) {
    if (gracePeriod !== undefined || force === true) throw invalid('"gracePeriod" and "force" go with "delete": true, as --grace-period and --force go with kubectl delete');
    return undefined;
  }
  return { ...(gracePeriod !== undefined ? { gracePeriodSeconds: gracePeriod } : {}), ...(force === true ? { force: true } : {}) };
}

/** KNOWN_ATTRIBUTES are the launch attributes of package.json and those VS Code adds itself. */
const KNOWN_ATTRIBUTES = new Set([
  'manifest', 'kubectl', 'cluster', 'behavior', 'kubeconfig', 'context', 'token', 'anonymous', 'as', 'asGroups', 'stopOnEntry', 'seed', 'for',
  'maxSteps', 'maxObjects', 'allowUnsimulated', 'watches', 'delete', 'gracePeriod', 'force', 'trace', 'noDebug', 'serve', 'port', 'speed', 'kubeconfigOut', 'type', 'request', 'name', 'preLaunchTask', 'postDebugTask', 'presentation',
  'internalConsoleOptions', 'debugServer', 'suppressMultipleSessionWarning', 'timeout', 'cwd', 'env',
]);

/** unknownAttributes lists the launch attributes the debugger does not know (a typo such as "clsuter"), to warn about. */
export function unknownAttributes(args: LaunchArguments): string[] {
  return Object.keys(args).filter((k) => !k.startsWith('__') && !KNOWN_ATTRIBUTES.has(k));
}

/** loadLaunch reads the plan's files from disk; an unreadable or malformed file is a LaunchError that names it. */
export function loadLaunch(plan: LaunchPlan): SimulationInputs {
  const read = (path: string) => readInputFile(resolve(path));
  try {
    if (plan.kubectl) {
      const { manifest: _generated, ...files } = plan.files;
      return loadKubectlRun(plan.kubectl, files, read, plan.options.seed);
    }
    if (plan.serve) return loadClusterFiles(plan.files, read);
    return loadRunFiles(plan.files, read);
  } catch (err) {
    if (err instanceof InputError) throw inputProblem(plan.files, err);
    if (err instanceof KubectlNotSimulated) throw invalid(`"kubectl": ${err.message}`);
    throw err;
  }
}

/**
 * kubectlWords reads `kubectl`: a command line (split as a POSIX shell splits words, quotes and backslashes included)
 * or its words; the leading `kubectl` may be left out.
 */
function kubectlWords(value: unknown): string[] | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  let words: string[];
  if (typeof value === 'string') {
    const split = splitCommandLine(value);
    if (typeof split === 'string') throw invalid(`"kubectl" cannot be read as a command line: ${split}`);
    words = split;
  } else if (Array.isArray(value) && value.every((v): v is string => typeof v === 'string')) {
    words = value;
  } else {
    throw invalid(`"kubectl" must be a command line such as "kubectl run web --image=nginx:1.27", or a list of its words, not ${describe(value)}`);
  }
  if (words.length === 0) throw invalid('"kubectl" is empty: give a command line such as "kubectl run web --image=nginx:1.27"');
  return words[0] === 'kubectl' ? words : ['kubectl', ...words];
}

/** kubectlManifest is the file a kubectl command line reads (its first -f), or the generated objects' name. */
function kubectlManifest(words: string[]): string {
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!;
    if (w === '--') break;
    if ((w === '-f' || w === '--filename') && words[i + 1] !== undefined) return words[i + 1]!;
    const inline = /^(?:-f=?|--filename=)(.+)$/.exec(w);
    if (inline) return inline[1]!;
  }
  return GENERATED_FILE;
}

/** inputProblem says which of the inputs an InputError is about: "Cannot read the manifest: pod.yaml:1: ...". */
function inputProblem(files: RunFiles, err: InputError): LaunchError {
  const message = err.message.replace(/\n/g, ' ');
  if (err.file === files.manifest) return new LaunchError(ErrorId.unreadableManifest, `Cannot read the manifest: ${message}`);
  if (files.identity.kind === 'kubeconfig' && err.file === files.identity.file) return new LaunchError(ErrorId.unreadableKubeconfig, `Cannot read the kubeconfig: ${message}`);
  if (err.file === files.behavior) return new LaunchError(ErrorId.unreadableBehavior, `Cannot read the behavior file: ${message}`);
  if (files.clusters.includes(err.file)) return new LaunchError(ErrorId.unreadableCluster, `Cannot read the cluster file: ${message}`);
  // A file named inside another (a kubeconfig's client-certificate, say) or the embedded cluster.
  return new LaunchError(ErrorId.unreadableCluster, `Cannot read the inputs: ${message}`);
}

/** identityOf picks the one identity the attributes ask for, as kubectl's flags would. */
function identityOf(args: LaunchArguments): IdentitySpec {
  const kubeconfig = optionalString(args, 'kubeconfig');
  const context = optionalString(args, 'context');
  const token = optionalString(args, 'token');
  const anonymous = optionalBoolean(args, 'anonymous') === true;
  const as = optionalString(args, 'as');
  const asGroups = stringList(args.asGroups, 'asGroups');
  const chosen = [kubeconfig !== undefined && '"kubeconfig"', token !== undefined && '"token"', anonymous && '"anonymous"', as !== undefined && '"as"'].filter((c): c is string => typeof c === 'string');
  if (chosen.length > 1) throw invalid(`${chosen.join(' and ')} cannot be used together: choose one identity`);
  if (context !== undefined && kubeconfig === undefined) throw invalid('"context" goes with "kubeconfig": it names a context of that file');
  if (asGroups.length > 0 && as === undefined) throw invalid('"asGroups" goes with "as": they are the groups of the impersonated user');
  if (kubeconfig !== undefined) return { kind: 'kubeconfig', file: kubeconfig, ...(context !== undefined ? { context } : {}) };
  if (token !== undefined) return { kind: 'token', token };
  if (anonymous) return { kind: 'anonymous' };
  if (as !== undefined) return { kind: 'impersonate', user: as, groups: asGroups };
  return { kind: 'default' };
}

function invalid(message: string): LaunchError {
  return new LaunchError(ErrorId.invalidLaunchAttribute, `Invalid launch configuration: ${message}.`);
}

type Key = keyof LaunchArguments & string;

/** optionalString reads a string attribute; an empty string counts as absent, as launch.json defaults are empty. */
function optionalString(args: LaunchArguments, key: Key): string | undefined {
  const value = args[key];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw invalid(`"${key}" must be a string, not ${describe(value)}`);
  return value;
}

function optionalBoolean(args: LaunchArguments, key: Key): boolean | undefined {
  const value = args[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw invalid(`"${key}" must be true or false, not ${describe(value)}`);
  return value;
}

function optionalInteger(args: LaunchArguments, key: Key): number | undefined {
  const value = args[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw invalid(`"${key}" must be a whole number of 0 or more, not ${describe(value)}`);
  return value;
}

/** clusterList reads `cluster`: one path or a list of paths. */
function clusterList(value: unknown): string[] {
  if (value === undefined || value === null || value === '') return [];
  if (typeof value === 'string') return [value];
  return stringList(value, 'cluster');
}

function stringList(value: unknown, key: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((v): v is string => typeof v === 'string' && v !== '')) {
    throw invalid(`"${key}" must be ${key === 'cluster' ? 'a path or ' : ''}a list of non-empty strings, not ${describe(value)}`);
  }
  return value;
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'object') return 'an object';
  return String(value);
}
