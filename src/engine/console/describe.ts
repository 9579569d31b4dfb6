// `kubectl describe`: a pod or a node by name, through the same access checks as the API server.
import { notFound, StatusError } from '../apiserver/request';
import type { Node, Pod } from '../api/types';
import { checkErr } from '../kubectl/errors';
import type { Simulation } from '../simulation';
import { FlagError, lastFlag, parseFlags } from './args';
import { checkAccess, credentialsOf, requestUser } from './auth';
import { describeNode } from './describe-node';
import { describePod } from './describe-pod';
import { eventsFor } from './events';
import { type CommandResult, nowMs } from './get';
import { resolveResource } from './resources';

/** kubectlDescribe runs `kubectl describe (pod|node) NAME [-n NS]`. */
export function kubectlDescribe(sim: Simulation, words: readonly string[]): CommandResult {
  let parsed;
  try {
    parsed = parseFlags(words, { values: ['namespace'], booleans: ['show-events'], short: { n: 'namespace' } });
  } catch (e) {
    if (e instanceof FlagError) return { error: `error: ${e.message}` };
    throw e;
  }
  const [resourceArg, ...names] = parsed.args;
  if (!resourceArg) return { error: 'error: You must specify the type of resource to describe. Use "kubectl api-resources" for a complete list of supported resources.' };
  const slash = resourceArg.indexOf('/');
  const r = resolveResource(slash < 0 ? resourceArg : resourceArg.slice(0, slash));
  if (slash >= 0) names.unshift(resourceArg.slice(slash + 1));
  if (!r) return { error: `error: the server doesn't have a resource type "${resourceArg}"` };
  if (r.kind !== 'Pod' && r.kind !== 'Node') return { error: `error: the console describes pods and nodes; use "kubectl get ${r.resource} -o yaml" for ${r.resource}` };
  const namespace = r.namespaced ? lastFlag(parsed, 'namespace') ?? 'default' : undefined;
  const user = requestUser(sim, credentialsOf(sim));
  if (user instanceof StatusError) return { error: checkErr(user) };
  const targets = names.length > 0 ? names : sim.store.list(r.kind, namespace).map((o) => o.metadata?.name ?? '');
  const out: string[] = [];
  const errors: string[] = [];
  for (const name of targets) {
    const denied = checkAccess(sim, user, 'get', r, namespace ?? '', name);
    if (denied) {
      errors.push(checkErr(denied));
      continue;
    }
    const obj = sim.store.get(r.kind, namespace, name);
    if (!obj) {
      errors.push(checkErr(notFound(r.resource, r.group, name)));
      continue;
    }
    const events = eventsFor(sim, r.kind, namespace, name);
    out.push(r.kind === 'Pod' ? describePod(obj as Pod, events, nowMs(sim)) : describeNode(sim, obj as Node, events, nowMs(sim)));
  }
  // Several objects are separated by a blank line, as kubectl's describe command prints them.
  const text = out.map((s) => s.replace(/\n$/, '')).join('\n\n\n');
  if (out.length === 0) return { error: errors.join('\n') || `No resources found in ${namespace ?? 'default'} namespace.` };
  return { output: [text, ...errors].join('\n') };
}
