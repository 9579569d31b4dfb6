// The debug console: commands (kubectl get/describe/auth can-i, etcdctl get, dig, help) and expressions over the
// paused simulation, plus their completions. Pure: it reads the simulation and changes nothing.
import type { Simulation } from '../simulation';
import { FlagError, lastFlag, parseFlags, splitWords } from './args';
import { canI } from './auth';
import { kubectlDescribe } from './describe';
import { dig } from './dns';
import { etcdctlGet } from './etcdctl';
import { ConsoleError, evaluateExpression, scopePod } from './expression';
import { type CommandResult, kubectlGet } from './get';
import { HELP_TEXT } from './help';
import { resolveResource } from './resources';

export { completeConsole, type ConsoleCompletion } from './complete';

/** ConsoleResult is what the console prints: the output, or an error message. */
export type ConsoleResult = { output: string; error?: false } | { error: true; message: string };

/** ConsoleScope says which pod the expressions speak of: `Pod/default/web`; the workload's first pod otherwise. */
export interface ConsoleScope {
  podRef?: string;
}

const result = (r: CommandResult): ConsoleResult => ('error' in r ? { error: true, message: r.error } : { output: r.output });

/**
 * evaluateConsole answers one line typed in the debug console: a command, or an expression over the pod of
 * `scope`. It never throws: anything that goes wrong comes back as `{error: true, message}`.
 */
export function evaluateConsole(sim: Simulation, text: string, scope?: ConsoleScope): ConsoleResult {
  const line = text.trim();
  try {
    if (line === '') return { output: '' };
    const words = splitWords(line).map((w) => w.text);
    const [command, sub, ...rest] = words;
    if (command === 'help' || command === '?') return { output: HELP_TEXT };
    if (command === 'kubectl') return result(kubectl(sim, sub, rest));
    if (command === 'dig') return result(dig(sim, scopePod(sim, scope?.podRef), [sub, ...rest].filter((w): w is string => w !== undefined)));
    if (command === 'etcdctl') {
      if (sub !== 'get') return { error: true, message: sub ? `Error: unknown command "${sub}" for "etcdctl"; the console runs "etcdctl get"` : 'Error: the console runs "etcdctl get KEY [--prefix] [--keys-only]"' };
      return result(etcdctlGet(sim, rest));
    }
    if (/^[A-Za-z][\w-]*\s/.test(line)) {
      return { error: true, message: `unknown command "${command}"; type help for what the console understands` };
    }
    return { output: evaluateExpression(sim, scopePod(sim, scope?.podRef), line) };
  } catch (e) {
    // A lone word may have been meant as a command.
    if (e instanceof ConsoleError) return { error: true, message: /^[A-Za-z][\w-]*$/.test(line) ? `${e.message}; type help for the commands` : e.message };
    return { error: true, message: `internal error: ${(e as Error)?.message ?? String(e)}` };
  }
}

function kubectl(sim: Simulation, sub: string | undefined, rest: string[]): CommandResult {
  switch (sub) {
    case 'get': return kubectlGet(sim, rest);
    case 'describe': return kubectlDescribe(sim, rest);
    case 'auth': return kubectlAuth(sim, rest);
    // The debugger answers it (it replays the run); the engine's console only reads the simulation.
    case 'delete': return { error: 'error: kubectl delete is run by the debugger, which replays the run with one more delete; it is not available here' };
    case 'cordon': case 'uncordon': case 'drain':
      return { error: `error: kubectl ${sub} is run by the debugger, which replays the run with the command at the current virtual time; it is not available here` };
    case undefined: return { error: 'error: the console runs "kubectl get", "kubectl describe" and "kubectl auth can-i"; type help' };
    default: return { error: `error: unknown command "${sub}" for "kubectl"; the console runs get, describe and auth can-i (type help)` };
  }
}

/** kubectlAuth runs `kubectl auth can-i VERB RESOURCE[/SUBRESOURCE] [NAME] [-n NS|-A] [--as U] [--as-group G]...`. */
function kubectlAuth(sim: Simulation, words: string[]): CommandResult {
  const [verbWord, ...rest] = words;
  if (verbWord !== 'can-i') return { error: verbWord ? `error: unknown command "${verbWord}" for "kubectl auth"` : 'error: the console runs "kubectl auth can-i"' };
  let p;
  try {
    p = parseFlags(rest, { values: ['namespace', 'as', 'as-group', 'subresource'], booleans: ['all-namespaces', 'quiet'], short: { n: 'namespace', A: 'all-namespaces', q: 'quiet' } });
  } catch (e) {
    if (e instanceof FlagError) return { error: `error: ${e.message}` };
    throw e;
  }
  const [verb, resourceArg, name = ''] = p.args;
  if (!verb || !resourceArg) return { error: 'error: you must specify two arguments: verb resource or verb resourcename.' };
  const slash = resourceArg.indexOf('/');
  const base = slash < 0 ? resourceArg : resourceArg.slice(0, slash);
  const subresource = slash < 0 ? lastFlag(p, 'subresource') ?? '' : resourceArg.slice(slash + 1);
  const r = base === '*' ? { resource: '*', group: '', namespaced: true } : resolveResource(base);
  const warn = r ? [] : [`Warning: the server doesn't have a resource type '${base}'`];
  const as = lastFlag(p, 'as');
  const answer = canI(sim, {
    verb, resource: r?.resource ?? base, group: r?.group ?? '', subresource, name,
    namespace: lastFlag(p, 'all-namespaces') === 'true' ? '' : lastFlag(p, 'namespace') ?? 'default', namespaced: r?.namespaced ?? true,
    ...(as ? { as: { user: as, groups: p.flags.get('as-group') ?? [] } } : {}),
  });
  return 'error' in answer ? { error: [...warn, answer.error].join('\n') } : { output: [...warn, answer.output].join('\n') };
}
