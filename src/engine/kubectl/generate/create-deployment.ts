// `kubectl create deployment NAME --image=IMAGE... [--replicas N] [--port P] [-- COMMAND...]`: its checks and the
// Deployment it builds, field for field. See staging/src/k8s.io/kubectl/pkg/cmd/create/create_deployment.go (Complete,
// Validate, Run, createDeployment, buildPodSpec, sanitizeAndUniquify) and create.go (NameFromCommandArgs), v0.36.3.
import type { KubeObject } from '../../api/types';
import type { FlagSpec, ParsedFlags } from './flags';
import {
  bool, boolOf, DRY_RUN_FLAG, dryRunStrategy, fieldManagerFlag, flagRecord, type BuiltCommand, type KubectlCommand, outputFormat, plainError, PRINT_FLAGS,
  stringOf, usageError, VALIDATE_FLAG, validationDirective,
} from './common';
import { withTypedLastApplied } from './params';
import type { BuildContext, CommandDefinition } from './registry-types';

/** CREATE_DEPLOYMENT_FLAGS are `kubectl create deployment`'s own flags in 1.36. */
const CREATE_DEPLOYMENT_FLAGS: readonly FlagSpec[] = [
  ...PRINT_FLAGS, DRY_RUN_FLAG, VALIDATE_FLAG, bool('save-config'), fieldManagerFlag('kubectl-create'),
  { name: 'image', type: 'stringSlice', def: '[]', required: true },
  { name: 'port', type: 'int32', def: '-1' },
  { name: 'replicas', shorthand: 'r', type: 'int32', def: '1' },
];

/** CREATE_DEPLOYMENT is `kubectl create deployment` (alias `deploy`). */
export const CREATE_DEPLOYMENT: CommandDefinition = {
  path: 'create deployment',
  flags: CREATE_DEPLOYMENT_FLAGS,
  build: buildCreateDeployment,
};

/**
 * nameFromCommandArgs is NameFromCommandArgs: exactly one argument before `--` (or in all, without `--`); what
 * follows is the command. Shared by `create deployment` and `create job`.
 */
export function nameFromCommandArgs(flags: ParsedFlags, path: 'create deployment' | 'create job'): { name: string; command: string[] } {
  const argsLen = flags.argsLenAtDash === -1 ? flags.args.length : flags.argsLenAtDash;
  if (argsLen !== 1) throw usageError(path, `exactly one NAME is required, got ${argsLen}`);
  return { name: flags.args[0]!, command: flags.args.slice(1) };
}

function buildCreateDeployment(flags: ParsedFlags, ctx: BuildContext): BuiltCommand {
  const { name, command } = nameFromCommandArgs(flags, 'create deployment');
  const { strategy: dryRun, warnings } = dryRunStrategy(flags);
  ctx.warnings.push(...warnings);
  const output = outputFormat(flags);
  const fieldValidation = validationDirective(flags);
  const images = (flags.values.get('image') as string[] | undefined) ?? [];
  if (images.length > 1 && command.length > 0) throw plainError('cannot specify multiple --image options and command');
  const replicas = (flags.values.get('replicas') as number | undefined) ?? 1;
  const port = (flags.values.get('port') as number | undefined) ?? -1;
  const labels = { app: name };
  // A Container's fields in Go order: name (always written), image (omitempty), command, ports (the first container's,
  // with --port), resources (a struct: `{}`).
  const containers: Record<string, unknown>[] = images.map((image, i) => ({
    name: containerName(image, ctx.randomString), ...(image ? { image } : {}), ...(command.length > 0 ? { command } : {}),
    ...(i === 0 && port >= 0 ? { ports: [{ containerPort: port }] } : {}), resources: {},
  }));
  const deployment: KubeObject = {
    kind: 'Deployment', apiVersion: 'apps/v1',
    metadata: { name, ...(ctx.enforceNamespace ? { namespace: ctx.namespace } : {}), labels: { ...labels } },
    spec: {
      replicas,
      selector: { matchLabels: { ...labels } },
      template: { metadata: { labels: { ...labels } }, spec: { containers } },
      strategy: {},
    },
    status: {},
  } as KubeObject;
  return typedCreate(flags, ctx, 'create deployment', deployment, { dryRun, output, fieldValidation });
}

/**
 * typedCreate is what `kubectl create deployment|job` send: the object (with --save-config's annotation) through the
 * typed client, as protobuf, with kubectl-create as the field manager (create_deployment.go, create_job.go Run).
 */
export function typedCreate(
  flags: ParsedFlags, ctx: BuildContext, path: 'create deployment' | 'create job', built: KubeObject,
  how: Pick<KubectlCommand, 'dryRun' | 'output' | 'fieldValidation'>,
): BuiltCommand {
  const object = boolOf(flags, 'save-config') ? withTypedLastApplied(built) : built;
  return {
    argv: ctx.argv, line: ctx.line, path, namespace: ctx.namespace, enforceNamespace: ctx.enforceNamespace, dryRun: how.dryRun, output: how.output,
    fieldManager: stringOf(flags, fieldManagerFlag('kubectl-create')), fieldValidation: how.fieldValidation, objects: [object], files: [], wire: 'protobuf', discovery: false,
    flags: flagRecord(flags), args: flags.args, warnings: ctx.warnings,
  };
}

/**
 * containerName is buildPodSpec's name for an image's container: the last path segment, without its tag or digest;
 * a name with `_` or `.` gets them turned into `-` and a random five-letter suffix (sanitizeAndUniquify).
 */
export function containerName(image: string, randomString: (n: number) => string): string {
  let name = image.split('/').pop()!;
  if (name.includes(':')) name = name.split(':')[0]!;
  if (name.includes('@')) name = name.split('@')[0]!;
  if (/[_.]/.test(name)) name = `${name.replace(/_/g, '-').replace(/\./g, '-')}-${randomString(5)}`;
  return name;
}
