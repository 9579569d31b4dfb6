// `kubectl create -f FILE` and `kubectl apply -f FILE`: their flags and checks before the files are read. create POSTs
// each object (an existing one is AlreadyExists); apply GETs and then POSTs or PATCHes. See
// staging/src/k8s.io/kubectl/pkg/cmd/create/create.go (Complete, Validate, RunCreate) and pkg/cmd/apply/apply.go
// (ApplyFlags.AddFlags, ToOptions, Validate), v0.36.3.
import type { FlagSpec, ParsedFlags } from './flags';
import {
  bool, cascadeWarnings, type CommandPath, DRY_RUN_FLAG, dryRunStrategy, type FieldValidation, fieldManagerFlag, flagRecord, type BuiltCommand, type KubectlCommand,
  NotSimulated, outputFormat, plainError, PRINT_FLAGS, requireAbsent, str, stringOf, usageError, VALIDATE_FLAG, validationDirective,
} from './common';
import type { BuildContext, CommandDefinition } from './registry-types';

const FILENAME: FlagSpec = { name: 'filename', shorthand: 'f', type: 'stringSlice', def: '[]' };
const RECORD = bool('record');

/** CREATE_FLAGS are `kubectl create`'s own flags in 1.36 (its subcommands have theirs). */
const CREATE_FLAGS: readonly FlagSpec[] = [
  ...PRINT_FLAGS, DRY_RUN_FLAG, VALIDATE_FLAG, bool('save-config'), fieldManagerFlag('kubectl-create'), bool('edit'), FILENAME,
  str('kustomize', '', 'k'), str('raw'), bool('recursive', 'R'), str('selector', '', 'l'), bool('windows-line-endings'), RECORD,
];

/** APPLY_FLAGS are `kubectl apply`'s flags in 1.36 (the ApplySet alpha off). */
const APPLY_FLAGS: readonly FlagSpec[] = [
  ...PRINT_FLAGS, DRY_RUN_FLAG, VALIDATE_FLAG, fieldManagerFlag('kubectl-client-side-apply'), bool('all'),
  { name: 'cascade', type: 'string', def: 'background', noOptDefVal: 'background' }, FILENAME, bool('force'), bool('force-conflicts'),
  { name: 'grace-period', type: 'int', def: '-1' }, str('kustomize', '', 'k'), bool('openapi-patch', undefined, 'true'), bool('overwrite', undefined, 'true'),
  bool('prune'), { name: 'prune-allowlist', type: 'stringArray', def: '[]' }, bool('recursive', 'R'), str('selector', '', 'l'), bool('server-side'),
  str('subresource'), { name: 'timeout', type: 'duration', def: '0s' }, bool('wait'), RECORD,
];

/** CREATE_FROM_FILE is `kubectl create -f`. */
export const CREATE_FROM_FILE: CommandDefinition = {
  path: 'create',
  flags: CREATE_FLAGS,
  build(flags, ctx) {
    // Complete, then Validate.
    if (flags.args.length !== 0) throw usageError('create', `Unexpected args: [${flags.args.join(' ')}]`);
    const { strategy: dryRun, warnings } = dryRunStrategy(flags);
    ctx.warnings.push(...warnings);
    const fieldValidation = validationDirective(flags);
    const output = outputFormat(flags);
    const files = filesOf(flags);
    if (files.length === 0 && stringOf(flags, { name: 'kustomize', type: 'string' }) === '') throw plainError('must specify one of -f and -k');
    requireAbsent(flags, ['raw', 'edit', 'kustomize', 'selector', 'recursive', 'record'], 'not simulated with kubectl create -f');
    const command = fromFile('create', flags, ctx, { dryRun, output, fieldValidation, files, fieldManager: stringOf(flags, fieldManagerFlag('kubectl-create')) });
    return flags.values.get('save-config') === true ? { ...command, saveConfig: true } : command;
  },
};

/** APPLY_FROM_FILE is `kubectl apply -f`, client-side apply. */
export const APPLY_FROM_FILE: CommandDefinition = {
  path: 'apply',
  flags: APPLY_FLAGS,
  build(flags, ctx) {
    // ToOptions, then Validate.
    if (flags.args.length !== 0) throw usageError('apply', `Unexpected args: [${flags.args.join(' ')}]`);
    const { strategy: dryRun, warnings } = dryRunStrategy(flags);
    ctx.warnings.push(...warnings);
    ctx.warnings.push(...cascadeWarnings(stringOf(flags, { name: 'cascade', type: 'string', def: 'background' })));
    const files = filesOf(flags);
    if (files.length === 0 && stringOf(flags, { name: 'kustomize', type: 'string' }) === '') throw plainError('must specify one of -f and -k');
    const fieldValidation = validationDirective(flags);
    const serverSide = flags.values.get('server-side') === true;
    if (flags.values.get('force-conflicts') === true && !serverSide) throw plainError('--force-conflicts only works with --server-side');
    if (dryRun === 'client' && serverSide) throw plainError("--dry-run=client doesn't work with --server-side (did you mean --dry-run=server instead?)");
    if (serverSide && flags.values.get('force') === true) throw plainError('--force cannot be used with --server-side');
    if (dryRun === 'server' && flags.values.get('force') === true) throw plainError('--dry-run=server cannot be used with --force');
    if (flags.values.get('all') === true && stringOf(flags, { name: 'selector', type: 'string' }) !== '') throw plainError('cannot set --all and --selector at the same time');
    if (flags.values.get('prune') === true) throw new NotSimulated('kubectl apply --prune is not simulated');
    if (stringOf(flags, { name: 'subresource', type: 'string' }) !== '' && !serverSide) throw plainError('--subresource can only be specified for --server-side');
    requireAbsent(flags, ['server-side', 'kustomize', 'selector', 'recursive', 'record', 'force', 'wait', 'all', 'prune-allowlist'], 'not simulated with kubectl apply -f');
    // apply makes its printer only when it prints, after the request: an unknown -o fails then (here: before).
    const output = outputFormat(flags);
    return fromFile('apply', flags, ctx, { dryRun, output, fieldValidation, files, fieldManager: stringOf(flags, fieldManagerFlag('kubectl-client-side-apply')) });
  },
};

/** filesOf is -f's list; kubectl's other sources (stdin, URLs) are not read here. */
function filesOf(flags: ParsedFlags): string[] {
  const files = (flags.values.get('filename') as string[] | undefined) ?? [];
  for (const f of files) {
    if (f === '-') throw new NotSimulated('-f - reads the manifest from standard input: give a file instead');
    if (/^https?:\/\//.test(f)) throw new NotSimulated(`-f ${f}: a URL is not fetched; give a file instead`);
  }
  return files;
}

function fromFile(
  path: CommandPath, flags: ParsedFlags, ctx: BuildContext,
  o: { dryRun: KubectlCommand['dryRun']; output: KubectlCommand['output']; fieldValidation: FieldValidation; files: string[]; fieldManager: string },
): BuiltCommand {
  if (o.fieldValidation !== 'Strict') throw new NotSimulated(`--validate=${stringOf(flags, VALIDATE_FLAG)} is not simulated with -f: kubectl validates strictly by default`);
  if (o.dryRun !== 'none' && path === 'apply') throw new NotSimulated('kubectl apply --dry-run is not simulated: use kubectl create -f --dry-run, or kubectl apply without it');
  if (o.output !== '' && path === 'apply') throw new NotSimulated(`kubectl apply -o ${o.output} is not simulated: apply prints its created, configured or unchanged lines`);
  return {
    argv: ctx.argv, line: ctx.line, path, namespace: ctx.namespace, enforceNamespace: ctx.enforceNamespace, dryRun: o.dryRun, output: o.output,
    fieldManager: o.fieldManager, fieldValidation: o.fieldValidation, objects: [], files: o.files, wire: 'json', discovery: true,
    flags: flagRecord(flags), args: flags.args, warnings: ctx.warnings,
  };
}
