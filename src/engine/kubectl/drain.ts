// `kubectl drain NODE [flags]`: cordon the node, choose its pods (drain-filters.ts), print the filters' warnings, then
// evict them (or delete them with --disable-eviction) and wait until they are gone (drain-evict.ts): `node/NAME
// drained`. A refusal prints `error: unable to drain node "NAME" due to error: ..., continuing command...`, the pending
// node and, as kubectl's CheckErr does for the aggregate, each error on its own line. See
// staging/src/k8s.io/kubectl/pkg/cmd/drain/drain.go (RunDrain, deleteOrEvictPodsSimple), pkg/drain/drain.go
// (DeleteOrEvictPods, CheckEvictionSupport) and pkg/cmd/util/helpers.go (checkErr, MultipleErrors) at v0.36.3.
import type { Steps } from '../runtime/step';
import { cordon } from './cordon';
import { type DrainError, deletePods, evictPods } from './drain-evict';
import { getPodsForDeletion } from './drain-filters';
import { standardErrorMessage } from './errors';
import { discover, type KubectlRun, say } from './node-client';
import type { DrainFlags, NodeCommand } from './node-command';

/** runNodeCommand runs one kubectl command on a node, printing what kubectl prints. */
export function* runNodeCommand(k: KubectlRun, command: NodeCommand): Steps<void> {
  if (command.verb === 'drain') return yield* drain(k, command.node, command.flags);
  yield* cordon(k, command.node, command.verb === 'cordon');
}

/** aggregateText is an aggregate's Error(): one error as it is, several deduplicated inside brackets. */
function aggregateText(errors: readonly string[]): string {
  const seen = [...new Set(errors)];
  return seen.length === 1 ? seen[0]! : `[${seen.join(', ')}]`;
}

/** errorText is the error as `%s` prints it. */
function errorText(e: DrainError): string {
  if ('aggregate' in e) return aggregateText(e.aggregate.map((x) => (typeof x === 'string' ? x : x.message)));
  return typeof e.single === 'string' ? e.single : e.single.message;
}

/** finalLines is what cmdutil.CheckErr prints for RunDrain's error: an aggregate error by error, one error as usual. */
function finalLines(e: DrainError): string[] {
  if ('aggregate' in e) return e.aggregate.map((x) => (typeof x === 'string' ? x : standardErrorMessage(x) ?? x.message));
  const s = e.single;
  return [typeof s === 'string' ? `error: ${s}` : standardErrorMessage(s) ?? `error: ${s.message}`];
}

/** drain is RunDrain for one node. */
function* drain(k: KubectlRun, nodeName: string, flags: DrainFlags): Steps<void> {
  const ref = `Node/${nodeName}`;
  const cordoned = yield* cordon(k, nodeName, true);
  // Complete could not read the node: the command ends there, the error printed.
  if (!cordoned.found) return;
  const failed = yield* deleteOrEvictPodsSimple(k, nodeName, flags);
  if (!failed) {
    yield* say(k, ref, `node/${nodeName} drained`);
    return;
  }
  // One step of the refusal is marked failed (a debugger stops once on it), the lines after it are its sequel.
  yield* say(k, ref, `error: unable to drain node ${JSON.stringify(nodeName)} due to error: ${errorText(failed)}, continuing command...`, 'failed');
  yield* say(k, ref, 'There are pending nodes to be drained:');
  yield* say(k, ref, ` ${nodeName}`);
  for (const line of finalLines(failed)) yield* say(k, ref, line);
}

/** deleteOrEvictPodsSimple chooses the pods, warns, and evicts or deletes them; on an error it lists the pods still there. */
function* deleteOrEvictPodsSimple(k: KubectlRun, nodeName: string, flags: DrainFlags): Steps<DrainError | undefined> {
  const ref = `Node/${nodeName}`;
  const chosen = yield* getPodsForDeletion(k, nodeName, flags);
  if ('error' in chosen) return { aggregate: [chosen.error] };
  const errors = chosen.list.errors();
  if (errors.length > 0) return { aggregate: errors };
  const warnings = chosen.list.warnings();
  if (warnings) yield* say(k, ref, `Warning: ${warnings}`, undefined, { warnings });
  const pods = chosen.list.pods();
  yield {
    phase: 'kubectl.drain', object: ref,
    result: pods.length ? `${pods.length} pod(s) to ${flags.disableEviction ? 'delete' : 'evict'}: ${pods.map((p) => `${p.metadata?.namespace}/${p.metadata?.name}`).join(', ')}` : 'no pod to evict',
    detail: { pods: chosen.list.items.map((i) => ({ pod: `${i.pod.metadata?.namespace}/${i.pod.metadata?.name}`, delete: i.status.delete, reason: i.status.reason, ...(i.status.message ? { message: i.status.message } : {}) })) },
  };
  if (pods.length === 0) return undefined;
  let failed: DrainError | undefined;
  if (!flags.disableEviction) {
    // CheckEvictionSupport: the core group's resource list must name pods/eviction (kind Eviction, group policy).
    const refused = yield* discover(k, '/api/v1', ref);
    failed = refused ? { single: refused } : yield* evictPods(k, pods, flags);
  } else {
    failed = yield* deletePods(k, pods, flags);
  }
  if (!failed) return undefined;
  const pending = yield* getPodsForDeletion(k, nodeName, flags);
  if ('list' in pending && pending.list.pods().length > 0) {
    yield* say(k, ref, `There are pending pods in node ${JSON.stringify(nodeName)} when an error occurred: ${errorText(failed)}`);
    for (const pod of pending.list.pods()) yield* say(k, ref, `pod/${pod.metadata?.name}`);
  }
  const newErrors = 'error' in pending ? [pending.error.message] : pending.list.errors();
  if (newErrors.length > 0) {
    yield* say(k, ref, 'Following errors occurred while getting the list of pods to delete:');
    yield* say(k, ref, aggregateText(newErrors));
  }
  return failed;
}
