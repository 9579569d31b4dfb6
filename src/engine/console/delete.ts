// `kubectl delete pod NAME [-n NAMESPACE] [--grace-period=N] [--force] [--now]` as the console reads it, with
// kubectl's own flag rules (staging/src/k8s.io/kubectl/pkg/cmd/delete/delete.go, Complete and Validate). The console
// changes nothing itself: the debugger answers the command by replaying the run with one more delete.
import { FORCE_WITH_GRACE_ERROR, kubectlGracePeriod, NOW_WITH_GRACE_ERROR } from '../kubectl/apply';
import { FlagError, lastFlag, parseFlags } from './args';
import { resolveResource } from './resources';

/** DeleteCommand is a `kubectl delete pod` line as kubectl would send it. */
export interface DeleteCommand {
  pod: { namespace: string; name: string };
  /** gracePeriodSeconds is --grace-period as given (--now makes it 1); kubectl's own conversions come when it is sent. */
  gracePeriodSeconds?: number;
  force?: boolean;
}

/** DELETE_USAGE is the form of the command the console runs. */
export const DELETE_USAGE = 'kubectl delete pod NAME [-n NAMESPACE] [--grace-period=N] [--force] [--now]';

/** isDeleteCommand tells whether a console line is a `kubectl delete`. */
export function isDeleteCommand(line: string): boolean {
  return /^\s*kubectl\s+delete(\s|$)/.test(line);
}

/**
 * parseDeleteCommand reads the words after `kubectl delete`. Flags are parsed as cobra parses them; --now is
 * --grace-period=1 and may not come with --grace-period (Complete); --force may not come with a grace period above 0
 * (Validate, after Complete turned --grace-period=0 without --force into 1).
 */
export function parseDeleteCommand(words: readonly string[]): DeleteCommand | { error: string } {
  let p;
  try {
    p = parseFlags(words, { values: ['namespace', 'grace-period'], booleans: ['force', 'now'], short: { n: 'namespace' } });
  } catch (e) {
    if (e instanceof FlagError) return { error: `error: ${e.message}` };
    throw e;
  }
  const graceText = lastFlag(p, 'grace-period');
  // pflag's int flag: strconv.ParseInt, its error wrapped as "invalid argument %q for %q flag: %v" (flag.go).
  if (graceText !== undefined && !/^[+-]?\d+$/.test(graceText)) {
    return { error: `error: invalid argument "${graceText}" for "--grace-period" flag: strconv.ParseInt: parsing "${graceText}": invalid syntax` };
  }
  const bool = (name: string) => lastFlag(p, name) !== undefined && lastFlag(p, name) !== 'false';
  const force = bool('force');
  let grace = graceText === undefined ? -1 : Number(graceText);
  if (bool('now')) {
    if (grace !== -1) return { error: `error: ${NOW_WITH_GRACE_ERROR}` };
    grace = 1;
  }
  if (force && kubectlGracePeriod(grace, force) > 0) return { error: `error: ${FORCE_WITH_GRACE_ERROR}` };
  const target = podName(p.args);
  if ('error' in target) return target;
  return {
    pod: { namespace: lastFlag(p, 'namespace') ?? 'default', name: target.name },
    ...(grace !== -1 ? { gracePeriodSeconds: grace } : {}), ...(force ? { force: true } : {}),
  };
}

/** podName reads `pod NAME` or `pod/NAME`: one pod, the only kind the console deletes. */
function podName(args: readonly string[]): { name: string } | { error: string } {
  const [first, ...rest] = args;
  if (!first) return { error: `the console runs "${DELETE_USAGE}"` };
  const slash = first.indexOf('/');
  const resource = slash < 0 ? first : first.slice(0, slash);
  const names = slash < 0 ? rest : [first.slice(slash + 1), ...rest];
  if (resolveResource(resource)?.kind !== 'Pod') return { error: `the console deletes pods only: "${DELETE_USAGE}"` };
  if (names.length !== 1 || !names[0]) return { error: `the console deletes one pod at a time: "${DELETE_USAGE}"` };
  return { name: names[0] };
}
