// The shape every simulated kubectl command has: its path, its flags, and how it turns a parsed command line into
// what it sends. The registry (commands.ts) lists them.
import type { BuiltCommand, CommandPath, KubectlWarning } from './common';
import type { FlagSpec, ParsedFlags } from './flags';

/** BuildContext is what a command knows besides its flags: the command line, the namespace, a random source. */
export interface BuildContext {
  argv: string[];
  line: string;
  /** namespace is -n's value, or the context's namespace (`default`). */
  namespace: string;
  /** enforceNamespace: -n was given (clientcmd's Namespace() second result). */
  enforceNamespace: boolean;
  /** randomString is utilrand.String(n): kubectl's random suffixes, drawn from the run's seed. */
  randomString(n: number): string;
  /** warnings collects what kubectl writes to stderr on the way, kept even when the command then fails. */
  warnings: KubectlWarning[];
}

/** CommandDefinition is one simulated kubectl command. */
export interface CommandDefinition {
  path: CommandPath;
  /** flags are the command's own flags; the root's persistent flags are added to them. */
  flags: readonly FlagSpec[];
  /** build runs the command's Complete, Validate and generator; it throws KubectlFailure or NotSimulated. */
  build(flags: ParsedFlags, ctx: BuildContext): BuiltCommand;
}
