// `kubectl cordon NODE`, `kubectl uncordon NODE` and `kubectl drain NODE [flags]` as the console reads them, with
// kubectl's own flag rules and usage errors (staging/src/k8s.io/kubectl/pkg/cmd/drain/drain.go, NewCmdDrain and
// Complete, v0.36.3). The console changes nothing itself: the debugger answers the command by replaying the run with
// it at the current virtual time.
import { BOOLEAN_DRAIN_FLAGS, DEFAULT_DRAIN_FLAGS, type NodeCommand, setDrainFlag, VALUE_DRAIN_FLAGS } from '../kubectl/node-command';
import { FlagError, parseFlags } from './args';

/** NODE_COMMAND_USAGE is the form of the commands the console runs. */
export const NODE_COMMAND_USAGE = 'kubectl cordon NODE | kubectl uncordon NODE | kubectl drain NODE [--ignore-daemonsets] [--delete-emptydir-data] [--force] [--disable-eviction] [--grace-period=N] [--timeout=DURATION] [--skip-wait-for-delete-timeout=N] [--pod-selector=SELECTOR]';

/** isNodeCommand tells whether a console line is a `kubectl cordon`, `uncordon` or `drain`. */
export function isNodeCommand(line: string): boolean {
  return /^\s*kubectl\s+(cordon|uncordon|drain)(\s|$)/.test(line);
}

/**
 * parseNodeCommand reads the words after `kubectl`: the verb, one node, and (for drain) drain's flags as pflag parses
 * them. Errors are kubectl's, with `error: `: an unknown flag, a value of the wrong form, no node (Complete's
 * `USAGE: drain NODE [flags]`).
 */
export function parseNodeCommand(words: readonly string[]): NodeCommand | { error: string } {
  const [verb, ...rest] = words;
  if (verb !== 'cordon' && verb !== 'uncordon' && verb !== 'drain') return { error: `the console runs "${NODE_COMMAND_USAGE}"` };
  let p;
  try {
    p = verb === 'drain' ? parseFlags(rest, { values: VALUE_DRAIN_FLAGS, booleans: BOOLEAN_DRAIN_FLAGS, short: {} }) : parseFlags(rest, { values: [], booleans: [], short: {} });
  } catch (e) {
    if (e instanceof FlagError) return { error: `error: ${e.message}\nSee 'kubectl ${verb} --help' for usage.` };
    throw e;
  }
  const flags = { ...DEFAULT_DRAIN_FLAGS };
  for (const [name, values] of p.flags) {
    for (const value of values) {
      const problem = setDrainFlag(flags, name, value);
      if (problem) return { error: `error: ${problem}\nSee 'kubectl ${verb} --help' for usage.` };
    }
  }
  if (p.args.length === 0) return { error: `error: USAGE: ${verb} NODE [flags]\nSee 'kubectl ${verb} -h' for help and examples` };
  if (p.args.length > 1) return { error: `the console ${verb}s one node at a time: "kubectl ${verb} NODE"` };
  const node = p.args[0]!;
  return verb === 'drain' ? { verb, node, flags } : { verb, node };
}
