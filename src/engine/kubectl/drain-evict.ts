// `kubectl drain`'s evictions and deletions: one goroutine a pod — `evicting pod NS/NAME`, POST .../eviction, a 429
// printed and retried every 5 s, a 404 taken as done, any other error ending that pod — then a poll of the pod every
// second until it is gone (`pod/NAME evicted`), all within --timeout; or, with --disable-eviction, a DELETE of each pod
// and one poll of them all (`pod/NAME deleted`). See staging/src/k8s.io/kubectl/pkg/drain/drain.go (EvictPod,
// evictPods, deletePods, waitForDelete) and pkg/cmd/drain/drain.go (onPodDeletionOrEvictionFinished) at v0.36.3.
import type { Pod } from '../api/types';
import { podPath } from '../cluster/storage-keys';
import type { StatusError } from '../apiserver/request';
import { NAMESPACE_TERMINATING_CAUSE } from '../apiserver/admission/namespace-lifecycle';
import type { Millis } from '../runtime/clock';
import { goDuration } from '../runtime/durations';
import { isSleep, type Steps } from '../runtime/step';
import { shouldSkipPod } from './drain-filters';
import { ACCEPT } from './http';
import { get, type KubectlRun, PODS, say, sent } from './node-client';
import type { DrainFlags } from './node-command';

/** EVICT_ERROR_RETRY_DELAY_MS is EvictErrorRetryDelay, 5 s in `kubectl drain`. */
export const EVICT_ERROR_RETRY_DELAY_MS = 5000;

/** POLL_INTERVAL_MS is waitForDelete's interval. */
const POLL_INTERVAL_MS = 1000;

/** DrainError is what DeleteOrEvictPods fails with: an aggregate of errors (evictPods), or one error. */
export type DrainError = { aggregate: (StatusError | string)[] } | { single: StatusError | string };

const q = JSON.stringify;
const text = (e: StatusError | string): string => (typeof e === 'string' ? e : e.message);

/**
 * concurrently runs generators side by side on the virtual clock, as goroutines: the one due soonest runs until it
 * sleeps or ends (ties in the order they became due: first in the order given, then in the order they went to sleep,
 * so a zero sleep lets the others due at that instant run first), its steps passed on; the whole waits while none is due.
 */
export function* concurrently(now: () => Millis, routines: readonly Steps<void>[]): Steps<void> {
  const live = routines.map((gen, order) => ({ gen, at: now(), order }));
  let slept = live.length;
  while (live.length > 0) {
    live.sort((a, b) => a.at - b.at || a.order - b.order);
    const next = live[0]!;
    if (next.at > now()) {
      yield { sleep: next.at - now() };
      continue;
    }
    for (;;) {
      const r = next.gen.next();
      if (r.done) {
        live.shift();
        break;
      }
      if (isSleep(r.value)) {
        next.at = now() + r.value.sleep;
        next.order = slept++;
        break;
      }
      yield r.value;
    }
  }
}

/** deleteOptions is makeDeleteOptions: a grace period only when --grace-period is 0 or more. */
function deleteOptions(flags: DrainFlags): { gracePeriodSeconds?: number } {
  return flags.gracePeriodSeconds >= 0 ? { gracePeriodSeconds: flags.gracePeriodSeconds } : {};
}

/**
 * waitForDelete polls the pods at once and then every second until each is gone (404, or another uid under its name),
 * printing `pod/NAME evicted` (or `deleted`) for each; it ends with the poll's error (a refused GET), or with `context
 * deadline exceeded` at the deadline (undefined: none). A pod deleted longer ago than --skip-wait-for-delete-timeout is
 * let go with kubectl's `pod "NAME" has DeletionTimestamp older than N seconds, skipping`.
 */
function* waitForDelete(k: KubectlRun, pods: Pod[], usingEviction: boolean, deadline: Millis | undefined, skipSeconds: number): Steps<StatusError | string | undefined> {
  const start = k.ctx.clock.now;
  let pending = pods;
  for (let tick = 1; ; tick++) {
    const still: Pod[] = [];
    for (const pod of pending) {
      const ns = pod.metadata?.namespace ?? '';
      const name = pod.metadata?.name ?? '';
      const ref = `Pod/${ns}/${name}`;
      const got = yield* get<Pod>(k, PODS, ns, name, ref);
      if (('error' in got && got.error.reason === 'NotFound') || ('object' in got && got.object.metadata?.uid !== pod.metadata?.uid)) {
        yield* say(k, ref, `pod/${name} ${usingEviction ? 'evicted' : 'deleted'}`);
        continue;
      }
      if ('error' in got) {
        yield* say(k, ref, `pod/${name} ${usingEviction ? 'eviction failed' : 'deletion failed'}`, 'failed', { status: got.error.status });
        return got.error;
      }
      if (shouldSkipPod(got.object, skipSeconds, k.ctx.clock.epoch.getTime() + k.ctx.clock.now)) {
        yield* say(k, ref, `pod ${q(name)} has DeletionTimestamp older than ${skipSeconds} seconds, skipping`);
        continue;
      }
      still.push(pod);
    }
    pending = still;
    if (pending.length === 0) return undefined;
    // The next tick, unless the deadline comes first (at a tie the context wins: loopConditionUntilContext checks it).
    const nextTick = start + tick * POLL_INTERVAL_MS;
    if (deadline !== undefined && deadline <= nextTick) {
      if (deadline > k.ctx.clock.now) yield { sleep: deadline - k.ctx.clock.now };
      return 'context deadline exceeded';
    }
    yield { sleep: nextTick - k.ctx.clock.now };
  }
}

/** evictPods evicts every pod in its own goroutine and gathers their errors in the order they end (none: undefined). */
export function* evictPods(k: KubectlRun, pods: readonly Pod[], flags: DrainFlags): Steps<DrainError | undefined> {
  const deadline = flags.timeoutMs !== 0 ? k.ctx.clock.now + flags.timeoutMs : undefined;
  const errors: string[] = [];
  yield* concurrently(() => k.ctx.clock.now, pods.map((pod) => evictOne(k, pod, flags, deadline, errors)));
  return errors.length > 0 ? { aggregate: errors } : undefined;
}

/** evictOne is one goroutine of evictPods. */
function* evictOne(k: KubectlRun, pod: Pod, flags: DrainFlags, deadline: Millis | undefined, errors: string[]): Steps<void> {
  const ns = pod.metadata?.namespace ?? '';
  const name = pod.metadata?.name ?? '';
  const ref = `Pod/${ns}/${name}`;
  const path = podPath(ns, name, 'eviction');
  const eviction = { kind: 'Eviction', apiVersion: 'policy/v1', metadata: { name, namespace: ns }, deleteOptions: deleteOptions(flags) };
  let active = pod;
  for (;;) {
    yield* say(k, ref, `evicting pod ${ns}/${name}`);
    if (deadline !== undefined && k.ctx.clock.now >= deadline) {
      errors.push(`error when evicting pods/${q(name)} -n ${q(ns)}: global timeout reached: ${goDuration(flags.timeoutMs)}`);
      return;
    }
    yield* sent(k, ref, { verb: 'POST', path, accept: ACCEPT.json, body: JSON.stringify(eviction) }, 'the Eviction API (policy/v1 Eviction)');
    // The request is on the wire: the other goroutines print their `evicting pod` lines before the answers come back,
    // as kubectl's goroutines do (its pods' lines of one round come first, then their answers). See
    // staging/src/k8s.io/kubectl/pkg/drain/drain.go (evictPods: one goroutine a pod, v0.36.3).
    yield { sleep: 0 };
    const out = yield* k.api.serve(
      { verb: 'create', method: 'POST', path, apiVersion: 'policy/v1', kind: 'Eviction', group: '', resource: 'pods', subresource: 'eviction', namespace: ns, name, object: eviction, credentials: k.credentials },
      ref,
    );
    if (out.ok) break;
    const err = out.error;
    const terminating = err.code === 403 && (err.status.details?.causes ?? []).some((c) => c.reason === NAMESPACE_TERMINATING_CAUSE);
    if (err.code === 404) return;
    if (err.code === 429) {
      yield* say(k, ref, `error when evicting pods/${q(name)} -n ${q(ns)} (will retry after ${goDuration(EVICT_ERROR_RETRY_DELAY_MS)}): ${err.message}`, 'waiting', { status: err.status });
      yield { sleep: EVICT_ERROR_RETRY_DELAY_MS };
    } else if (terminating && active.metadata?.deletionTimestamp) {
      // "if the pod is already marked deleted, we can ignore this error, an eviction request will never succeed".
      break;
    } else if (terminating) {
      yield* say(k, ref, `error when evicting pod ${q(name)} from terminating namespace ${q(ns)} (will retry after ${goDuration(EVICT_ERROR_RETRY_DELAY_MS)}): ${err.message}`, 'waiting', { status: err.status });
      yield { sleep: EVICT_ERROR_RETRY_DELAY_MS };
    } else {
      errors.push(`error when evicting pods/${q(name)} -n ${q(ns)}: ${err.message}`);
      return;
    }
    // "we ignore errors and let eviction sort it out with the original pod."
    const fresh = yield* get<Pod>(k, PODS, ns, name, ref);
    if ('object' in fresh) active = fresh.object;
  }
  const waited = yield* waitForDelete(k, [active], true, deadline, flags.skipWaitForDeleteTimeoutSeconds);
  if (waited !== undefined) errors.push(`error when waiting for pod ${q(pod.metadata?.name ?? '')} in namespace ${q(ns)} to terminate: ${text(waited)}`);
}

/** deletePods is --disable-eviction: a DELETE of each pod in turn (a refusal other than 404 ends it), then one wait for all. */
export function* deletePods(k: KubectlRun, pods: readonly Pod[], flags: DrainFlags): Steps<DrainError | undefined> {
  const options = deleteOptions(flags);
  for (const pod of pods) {
    const ns = pod.metadata?.namespace ?? '';
    const name = pod.metadata?.name ?? '';
    const ref = `Pod/${ns}/${name}`;
    const path = podPath(ns, name);
    yield* sent(k, ref, { verb: 'DELETE', path, accept: ACCEPT.json, body: JSON.stringify({ kind: 'DeleteOptions', apiVersion: 'v1', ...options }) }, 'delete the pod (--disable-eviction: no disruption budget is asked)');
    const out = yield* k.api.serve({ verb: 'delete', method: 'DELETE', path, apiVersion: 'v1', kind: 'Pod', group: '', resource: 'pods', namespace: ns, name, credentials: k.credentials }, ref, options);
    if (!out.ok && out.error.code !== 404) return { single: out.error };
  }
  const deadline = flags.timeoutMs !== 0 ? k.ctx.clock.now + flags.timeoutMs : undefined;
  const waited = yield* waitForDelete(k, [...pods], false, deadline, flags.skipWaitForDeleteTimeoutSeconds);
  return waited === undefined ? undefined : { single: waited };
}
