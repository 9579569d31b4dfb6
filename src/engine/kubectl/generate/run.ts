// `kubectl run NAME --image=IMAGE [flags] [-- ARGS...]`: kubectl's checks in their order and the Pod its run-pod/v1
// generator (BasicPod) makes, field for field. See staging/src/k8s.io/kubectl/pkg/cmd/run/run.go (Complete, Run,
// getRestartPolicy, verifyImagePullPolicy, createGeneratedObject) and pkg/generate/versioned/run.go (BasicPod.Generate,
// getLabels, getEnvs, parseEnvs, updatePodContainers, updatePodPorts), v0.36.3.
import type { KubeObject } from '../../api/types';
import { goQuote } from '../../apiserver/authz/forbidden';
import type { FlagSpec, ParsedFlags } from './flags';
import {
  bool, boolOf, cascadeWarnings, DRY_RUN_FLAG, dryRunStrategy, fieldManagerFlag, flagRecord, type BuiltCommand, NotSimulated, outputFormat, plainError,
  PRINT_FLAGS, str, stringOf, usageError,
} from './common';
import { ERR_REFERENCE_INVALID_FORMAT, isValidReference } from './image-reference';
import { goAtoi, goParseBool, int32Of } from './strconv';
import { envVarNameProblems, parseLabels, parsePairs, sortedMap, withMetaNamespace, withTypedLastApplied } from './params';
import type { BuildContext, CommandDefinition } from './registry-types';

/** RUN_FLAGS are `kubectl run`'s own flags in 1.36 (kubectl run --help). */
const RUN_FLAGS: readonly FlagSpec[] = [
  ...PRINT_FLAGS, DRY_RUN_FLAG,
  { name: 'annotations', type: 'stringArray', def: '[]' }, bool('attach'), { name: 'cascade', type: 'string', def: 'background', noOptDefVal: 'background' },
  bool('command'), str('detach-keys', 'ctrl-p,ctrl-q'), { name: 'env', type: 'stringArray', def: '[]' }, bool('expose'), fieldManagerFlag('kubectl-run'),
  { name: 'filename', shorthand: 'f', type: 'stringSlice', def: '[]' }, bool('force'), { name: 'grace-period', type: 'int', def: '-1' },
  { ...str('image'), required: true }, str('image-pull-policy'), str('kustomize', '', 'k'), str('labels', '', 'l'), bool('leave-stdin-open'),
  str('override-type', 'merge'), str('overrides'), { name: 'pod-running-timeout', type: 'duration', def: '1m0s' }, str('port'), bool('privileged'),
  bool('quiet', 'q'), bool('recursive', 'R'), str('restart', 'Always'), bool('rm'), bool('save-config'), bool('stdin', 'i'),
  { name: 'timeout', type: 'duration', def: '0s' }, bool('tty', 't'), bool('wait'),
];

/** RESTART_POLICIES are the values getRestartPolicy accepts. */
const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];

/** PULL_POLICIES are the values verifyImagePullPolicy accepts (and the empty default). */
const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never', ''];

/** RUN is the `kubectl run` command. */
export const RUN: CommandDefinition = {
  path: 'run',
  flags: RUN_FLAGS,
  build: buildRun,
};

function buildRun(flags: ParsedFlags, ctx: BuildContext): BuiltCommand {
  // Complete: the dry-run strategy, then the printer.
  const { strategy: dryRun, warnings } = dryRunStrategy(flags);
  ctx.warnings.push(...warnings);
  const interactive = boolOf(flags, 'stdin');
  const attach = flags.changed.includes('attach') ? boolOf(flags, 'attach') : interactive;
  const output = outputFormat(flags);
  // The delete flags only serve --rm, but their --cascade is read (and may be refused) all the same.
  ctx.warnings.push(...cascadeWarnings(stringOf(flags, { name: 'cascade', type: 'string', def: 'background' })));
  // Run: `kubectl run` follows the rules for `--` (kubernetes/kubernetes#13004): NAME comes before it.
  if (flags.args.length === 0 || flags.argsLenAtDash === 0) throw usageError('run', 'NAME is required for run');
  const timeout = flags.values.get('pod-running-timeout');
  if (typeof timeout === 'number' && timeout <= 0) throw usageError('run', '--pod-running-timeout must be higher than zero');
  const image = stringOf(flags, { name: 'image', type: 'string' });
  if (image === '') throw plainError('--image is required');
  if (!isValidReference(image)) throw plainError(`Invalid image name ${goQuote(image)}: ${ERR_REFERENCE_INVALID_FORMAT}`);
  const tty = boolOf(flags, 'tty');
  if (tty && !interactive) throw usageError('run', '-i/--stdin is required for containers with -t/--tty=true');
  const expose = boolOf(flags, 'expose');
  const port = stringOf(flags, { name: 'port', type: 'string' });
  if (expose && port.length === 0) throw usageError('run', '--port must be set when exposing a service');
  const restart = stringOf(flags, { name: 'restart', type: 'string', def: 'Always' });
  if (restart !== '' && !RESTART_POLICIES.includes(restart)) throw usageError('run', `invalid restart policy: ${restart}`);
  if (!attach && boolOf(flags, 'rm')) throw usageError('run', '--rm should only be used for attached containers');
  if (attach && dryRun !== 'none') throw usageError('run', "--dry-run=[server|client] can't be used with attached containers options (--attach, --stdin, or --tty)");
  const pullPolicy = stringOf(flags, { name: 'image-pull-policy', type: 'string' });
  if (!PULL_POLICIES.includes(pullPolicy)) throw usageError('run', `invalid image pull policy: ${pullPolicy}`);
  // generate.ValidateParams: the generator's required parameters must not be empty.
  const name = flags.args[0]!;
  if (name === '') throw plainError('Parameter: name is required');
  const pod = basicPod(flags, name, image, restart, pullPolicy, port);
  // What follows in kubectl needs a terminal, or makes more than the pod: the engine does not pretend to run it.
  if (attach) throw new NotSimulated('kubectl run attaches to the pod (--attach, or -i/--stdin without --attach=false): attaching is not simulated');
  if (expose) throw new NotSimulated('--expose creates a Service beside the pod: it is not simulated; create the Service in a manifest');
  if (stringOf(flags, { name: 'overrides', type: 'string' }) !== '') throw new NotSimulated('--overrides is not simulated: write the Pod in a manifest and run it with kubectl apply -f');
  // createGeneratedObject: --save-config's annotation only on what is sent; the namespace only on what a client dry run prints.
  const object = dryRun === 'client'
    ? (ctx.enforceNamespace ? withMetaNamespace(pod, ctx.namespace) : pod)
    : boolOf(flags, 'save-config') ? withTypedLastApplied(pod) : pod;
  return {
    argv: ctx.argv, line: ctx.line, path: 'run', namespace: ctx.namespace, enforceNamespace: ctx.enforceNamespace, dryRun, output,
    fieldManager: stringOf(flags, fieldManagerFlag('kubectl-run')), objects: [object], files: [], wire: 'json', discovery: true,
    flags: flagRecord(flags), args: flags.args, warnings: ctx.warnings,
  };
}

/** basicPod is BasicPod.Generate: the Pod's fields in the order a Go v1.Pod writes them. */
function basicPod(flags: ParsedFlags, name: string, image: string, restart: string, pullPolicy: string, port: string): KubeObject {
  const args = flags.args.slice(1);
  const envs = parseEnvs(getStringArray(flags, 'env'));
  const annotations = parsePairs(getStringArray(flags, 'annotations'), 'annotations');
  const labelSpec = stringOf(flags, { name: 'labels', type: 'string' });
  const labels = labelSpec.length > 0 ? parseLabels(labelSpec) : { run: name };
  // MakeParams hands the generator each flag's text; GetBool reads it back.
  const command = goParseBool(String(boolOf(flags, 'command')));
  const stdin = boolOf(flags, 'stdin');
  const privileged = boolOf(flags, 'privileged');
  const container: Record<string, unknown> = { name, image };
  if (args.length > 0) container[command ? 'command' : 'args'] = args;
  // updatePodPorts: strconv.Atoi, then an int32 conversion of whatever it read.
  let containerPort: number | undefined;
  if (port.length > 0) {
    try {
      containerPort = int32Of(goAtoi(port));
    } catch (err) {
      throw plainError((err as Error).message);
    }
  }
  if (containerPort !== undefined) container['ports'] = [{ containerPort }];
  if (envs.length > 0) container['env'] = envs;
  container['resources'] = {};
  if (pullPolicy) container['imagePullPolicy'] = pullPolicy;
  if (privileged) container['securityContext'] = { privileged: true };
  if (stdin) container['stdin'] = true;
  if (stdin && !boolOf(flags, 'leave-stdin-open')) container['stdinOnce'] = true;
  if (boolOf(flags, 'tty')) container['tty'] = true;
  return {
    kind: 'Pod', apiVersion: 'v1',
    metadata: { name, labels: sortedMap(labels), ...(Object.keys(annotations).length ? { annotations: sortedMap(annotations) } : {}) },
    spec: { containers: [container], restartPolicy: restart || 'Always', dnsPolicy: 'ClusterFirst' },
    status: {},
  } as KubeObject;
}

/**
 * getStringArray is pflag's GetStringArray, which reads the flag back from its String() (the values written as one CSV
 * line in brackets): a lone empty value comes back as no value at all.
 */
function getStringArray(flags: ParsedFlags, name: string): string[] {
  const values = (flags.values.get(name) as string[] | undefined) ?? [];
  return values.length === 1 && values[0] === '' ? [] : values;
}

/** parseEnvs is the generator's parseEnvs: NAME=VALUE, the name an environment variable name (IsEnvVarName). */
function parseEnvs(envs: string[]): { name: string; value?: string }[] {
  return envs.map((env) => {
    const pos = env.indexOf('=');
    if (pos === -1) throw plainError(`invalid env: ${env}`);
    const name = env.slice(0, pos);
    const value = env.slice(pos + 1);
    if (name.length === 0 || envVarNameProblems(name).length > 0) throw plainError(`invalid env: ${env}`);
    // EnvVar.Value has omitempty: an empty value is not written.
    return value === '' ? { name } : { name, value };
  });
}
