// What kubectl's create-like commands share: the printing, dry-run and validation flags, how CheckErr prints a command's
// error, and the command this package hands the engine. See staging/src/k8s.io/kubectl/pkg/cmd/util/helpers.go (v0.36.3:
// CheckErr, UsageErrorf, AddDryRunFlag, GetDryRunStrategy, AddValidateFlags, GetValidationDirective) and
// staging/src/k8s.io/cli-runtime/pkg/genericclioptions/print_flags.go (v0.36.3).
import type { KubeObject } from '../../api/types';
import type { FlagSpec, FlagValue, ParsedFlags } from './flags';
import { goQuote } from '../../apiserver/authz/forbidden';

/** GENERATED_FILE names the objects a kubectl command generated: they have no file; the debugger shows them by reference. */
export const GENERATED_FILE = 'kubectl (generated)';

/** DryRunStrategy is cmdutil.DryRunStrategy: nothing sent (client), sent with dryRun=All (server), or none. */
export type DryRunStrategy = 'none' | 'client' | 'server';

/** OutputFormat is the `-o` kubectl prints with here: the `kind/name created` line (''), `name`, `yaml` or `json`. */
export type OutputFormat = '' | 'name' | 'yaml' | 'json';

/** FieldValidation is the directive kubectl sends as fieldValidation. */
export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

/**
 * KubectlWarning is a warning kubectl writes to stderr before it acts: a plain line, or one it logs with klog.Warning
 * (then printed with klog's header, which names its source line).
 */
export interface KubectlWarning {
  message: string;
  klog?: { file: string; line: number };
}

/** CommandPath names the commands simulated: `kubectl run`, `kubectl create deployment|job`, `kubectl create -f`, `kubectl apply -f`. */
export type CommandPath = 'run' | 'create deployment' | 'create job' | 'create' | 'apply';

/** KubectlCommand is a kubectl command line kubectl accepted: what it will send, how, and how it prints the result. */
export interface KubectlCommand {
  /** argv is the command line after `kubectl`. */
  argv: string[];
  /** line is the command line as a shell would show it: `kubectl run web --image=nginx:1.27`. */
  line: string;
  path: CommandPath;
  namespace: string;
  /** enforceNamespace: -n was given, so kubectl sets the namespace on what it prints or sends. */
  enforceNamespace: boolean;
  dryRun: DryRunStrategy;
  output: OutputFormat;
  /** fieldManager is the fieldManager query kubectl sends (kubectl-run, kubectl-create, kubectl-client-side-apply). */
  fieldManager: string;
  /** fieldValidation is sent by the commands that send it (create deployment|job, create -f, apply -f); run does not. */
  fieldValidation?: FieldValidation;
  /** objects are what run and create deployment|job generated, as kubectl sends them (Go struct order). */
  objects: KubeObject[];
  /** files are the -f files of create and apply. */
  files: string[];
  /** saveConfig is `create -f --save-config`: the last-applied-configuration annotation on each object sent. */
  saveConfig?: boolean;
  /** wire is how the body goes: JSON (run's REST client, the dynamic client of -f), or protobuf (the typed clients of create deployment|job). */
  wire: 'json' | 'protobuf';
  /** discovery: kubectl maps the kind through the server's discovery before sending (run, -f). */
  discovery: boolean;
  /** flags are the flags given, by name, and args the positional arguments, for the trace. */
  flags: Record<string, FlagValue>;
  args: string[];
  warnings: KubectlWarning[];
  /** verbosity is -v: from 6 kubectl logs its requests to stderr (round_trippers.go), 0 when not given. */
  verbosity: number;
}

/** BuiltCommand is what a command's build makes; the parse adds what every command shares (the log's -v). */
export type BuiltCommand = Omit<KubectlCommand, 'verbosity'>;

/** KubectlInvocation is what a run's kubectl did with its command line: a command accepted, or kubectl's own refusal. */
export type KubectlInvocation =
  | { command: KubectlCommand; /** generated is the YAML of the generated objects (run, create deployment|job). */ generated?: string }
  | { refused: { printed: string; reason: FailureReason; path: string; line: string; warnings: KubectlWarning[] } };

/** FailureReason names the kind of refusal, as the run's rejection reason. */
export type FailureReason = 'FlagError' | 'UsageError' | 'InvalidArgument';

/** KubectlFailure is a command line kubectl refuses before sending anything: `printed` is what CheckErr prints. */
export class KubectlFailure extends Error {
  constructor(readonly printed: string, readonly reason: FailureReason, readonly warnings: KubectlWarning[] = []) {
    super(printed);
    this.name = 'KubectlFailure';
  }
}

/** NotSimulated is a real kubectl command or option this engine does not run (attach, --expose, templates): no guess is made. */
export class NotSimulated extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotSimulated';
  }
}

/** usageError is cmdutil.UsageErrorf as CheckErr prints it: `error: MSG\nSee 'kubectl run -h' for help and examples`. */
export function usageError(path: CommandPath, message: string): KubectlFailure {
  return new KubectlFailure(`error: ${message}\nSee 'kubectl ${path} -h' for help and examples`, 'UsageError');
}

/** flagError is a pflag error after kubectl's FlagErrorFunc (util/templates/templater.go): `See 'kubectl run --help' for usage.` */
export function flagError(path: string, message: string): KubectlFailure {
  return new KubectlFailure(`error: ${message}\nSee '${path} --help' for usage.`, 'FlagError');
}

/** plainError is any other error through CheckErr: its text, with `error: ` in front unless it has it. */
export function plainError(message: string): KubectlFailure {
  return new KubectlFailure(message.startsWith('error: ') ? message : `error: ${message}`, 'InvalidArgument');
}

/** bool declares a switch (NoOptDefVal "true"). */
export function bool(name: string, shorthand?: string, def = 'false'): FlagSpec {
  return { name, type: 'bool', def, noOptDefVal: 'true', ...(shorthand ? { shorthand } : {}) };
}

/** str declares a text flag. */
export function str(name: string, def = '', shorthand?: string): FlagSpec {
  return { name, type: 'string', def, ...(shorthand ? { shorthand } : {}) };
}

/** PRINT_FLAGS are genericclioptions.PrintFlags' flags (-o, --template, --show-managed-fields, --allow-missing-template-keys). */
export const PRINT_FLAGS: readonly FlagSpec[] = [
  bool('allow-missing-template-keys', undefined, 'true'), str('output', '', 'o'), bool('show-managed-fields'), str('template'),
];

/** DRY_RUN_FLAG is AddDryRunFlag's --dry-run: none by default, `unchanged` when given without a value. */
export const DRY_RUN_FLAG: FlagSpec = { name: 'dry-run', type: 'string', def: 'none', noOptDefVal: 'unchanged' };

/** VALIDATE_FLAG is AddValidateFlags' --validate: strict by default and when given without a value. */
export const VALIDATE_FLAG: FlagSpec = { name: 'validate', type: 'string', def: 'strict', noOptDefVal: 'strict' };

/** fieldManagerFlag is AddFieldManagerFlagVar: --field-manager with the command's default. */
export function fieldManagerFlag(def: string): FlagSpec {
  return str('field-manager', def);
}

/** stringOf reads a text flag, its default when not given. */
export function stringOf(flags: ParsedFlags, spec: FlagSpec): string {
  const v = flags.values.get(spec.name);
  return typeof v === 'string' ? v : spec.def ?? '';
}

/** boolOf reads a switch. */
export function boolOf(flags: ParsedFlags, name: string, def = false): boolean {
  const v = flags.values.get(name);
  return typeof v === 'boolean' ? v : def;
}

/**
 * dryRunStrategy is GetDryRunStrategy: `client`, `server`, `none`; `unchanged` (the flag alone) and the booleans are
 * deprecated and logged by klog; anything else is refused.
 */
export function dryRunStrategy(flags: ParsedFlags): { strategy: DryRunStrategy; warnings: KubectlWarning[] } {
  const value = stringOf(flags, DRY_RUN_FLAG);
  let b: boolean | undefined;
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value)) b = true;
  else if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(value)) b = false;
  if (b === undefined) {
    // helpers.go:719 (v0.36.3) is the klog.Warning of the flag given alone.
    if (value === 'unchanged') return { strategy: 'client', warnings: [{ klog: { file: 'helpers.go', line: 719 }, message: '--dry-run is deprecated and can be replaced with --dry-run=client.' }] };
    if (value === 'client' || value === 'server' || value === 'none') return { strategy: value, warnings: [] };
    throw plainError(`Invalid dry-run value (${value}). Must be "none", "server", or "client".`);
  }
  // helpers.go:733 and :736 (v0.36.3) are the klog.Warningf of a boolean value.
  return b
    ? { strategy: 'client', warnings: [{ klog: { file: 'helpers.go', line: 733 }, message: `--dry-run=${value} is deprecated (boolean value) and can be replaced with --dry-run=client.` }] }
    : { strategy: 'none', warnings: [{ klog: { file: 'helpers.go', line: 736 }, message: `--dry-run=${value} is deprecated (boolean value) and can be replaced with --dry-run=none.` }] };
}

/** validationDirective is GetValidationDirective: strict (or true), warn, ignore (or false). */
export function validationDirective(flags: ParsedFlags): FieldValidation {
  const value = stringOf(flags, VALIDATE_FLAG);
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value)) return 'Strict';
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(value)) return 'Ignore';
  if (value === 'strict') return 'Strict';
  if (value === 'warn') return 'Warn';
  if (value === 'ignore') return 'Ignore';
  throw plainError(`invalid - validate option ${goQuote(value)}; must be one of: strict (or true), warn, ignore (or false)`);
}

/** ALLOWED_FORMATS are PrintFlags.AllowedFormats in 1.36 (KUBECTL_KYAML unset), sorted as NoCompatiblePrinterError sorts them. */
const ALLOWED_FORMATS = ['go-template', 'go-template-file', 'json', 'jsonpath', 'jsonpath-as-json', 'jsonpath-file', 'kyaml', 'name', 'template', 'templatefile', 'yaml'];

/**
 * outputFormat is PrintFlags.ToPrinter's choice for `-o` (case-insensitive; --template alone means go-template): the
 * formats printed here, a NotSimulated for the template, JSONPath and kyaml printers, and kubectl's error for others.
 */
export function outputFormat(flags: ParsedFlags): OutputFormat {
  const given = stringOf(flags, PRINT_FLAGS[1]!);
  const template = stringOf(flags, PRINT_FLAGS[3]!);
  const format = given === '' && template !== '' ? 'go-template' : given.toLowerCase();
  if (format === '' || format === 'name' || format === 'yaml' || format === 'json') return format;
  // The template printers take their template after `=` (`-o jsonpath={.metadata.name}`).
  const printer = ALLOWED_FORMATS.includes(format) ? format : given.slice(0, given.indexOf('='));
  if (ALLOWED_FORMATS.includes(printer)) throw new NotSimulated(`kubectl's -o ${printer} printer is not simulated: use -o yaml, -o json or -o name`);
  throw plainError(`unable to match a printer suitable for the output format ${goQuote(given)}, allowed formats are: ${ALLOWED_FORMATS.join(',')}`);
}

/** requireAbsent refuses a kubectl option the engine does not run, once kubectl has accepted the command line. */
export function requireAbsent(flags: ParsedFlags, names: readonly string[], why: string): void {
  const given = names.filter((n) => flags.changed.includes(n));
  if (given.length > 0) throw new NotSimulated(`${given.map((n) => `--${n}`).join(', ')}: ${why}`);
}

/**
 * cascadeWarnings is parseCascadingFlag's reading of --cascade (DeleteFlags.ToOptions, which run's Complete calls):
 * background, foreground or orphan; a boolean is deprecated and warned about on stderr; anything else is refused.
 * See staging/src/k8s.io/kubectl/pkg/cmd/delete/delete_flags.go (v0.36.3).
 */
export function cascadeWarnings(value: string): KubectlWarning[] {
  let b: boolean | undefined;
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value)) b = true;
  else if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(value)) b = false;
  if (b !== undefined) return [{ message: `warning: --cascade=${value} is deprecated (boolean value) and can be replaced with --cascade=${b ? 'background' : 'orphan'}.` }];
  if (['orphan', 'foreground', 'background'].includes(value)) return [];
  throw plainError(`invalid cascade value (${value}). Must be "background", "foreground", or "orphan"`);
}

/** flagRecord is the flags given, for the trace. */
export function flagRecord(flags: ParsedFlags): Record<string, FlagValue> {
  return Object.fromEntries(flags.changed.map((n) => [n, flags.values.get(n)!]));
}
