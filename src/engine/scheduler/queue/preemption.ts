// The preemption executor: once DefaultPreemption has chosen victims, the pods of lower priority nominated to the node
// lose their nomination, then each victim gets the DisruptionTarget condition, is deleted gracefully through the API
// server and gets a Preempted event — all but the last at once (the Parallelizer's goroutines), then the last — each
// request waiting for the scheduler's client; the preemptor is held out of the queue meanwhile. See
// pkg/scheduler/framework/preemption/executor.go (prepareCandidateAsync, PreemptPod, clearNominatedNodeName,
// getLowerPriorityNominatedPods, IsPodRunningPreemption), v1.36.3.
import type { Pod, PodCondition } from '../../api/types';
import { DEFAULT_CREDENTIALS } from '../../apiserver/authn/x509';
import { podPath } from '../../cluster/storage-keys';
import type { ApiServer } from '../../apiserver/server';
import type { EngineContext } from '../../context';
import { parallelizeUntil } from '../../runtime/parallel';
import type { Steps } from '../../runtime/step';
import type { Framework } from '../framework/framework';
import { Names } from '../plugins/names';

/** Victim names a pod DefaultPreemption chose to evict (PostFilterResult.detail.victims). */
export interface Victim {
  namespace: string;
  name: string;
}

/** SCHEDULER_USER is the user kube-scheduler's kubeconfig names (its client certificate's CN, kubeadm's scheduler.conf). */
export const SCHEDULER_USER = 'system:kube-scheduler';
/** WAITING_FOR_PREEMPTION is DefaultPreemption's PreEnqueue message while the preemptor's victims are being deleted. */
export const WAITING_FOR_PREEMPTION = 'waiting for the preemption for this pod to be finished';

/** PreemptionClient is what the executor needs of kube-scheduler: its client's wait, its nominator, its Parallelizer. */
export interface PreemptionClient {
  /** send waits for the scheduler's client before a request (its rate limiter). */
  send(verb: string, path: string, ref: string): Steps<void>;
  /** nominatedPods lists the pods nominated to a node (the queue's nominator). */
  nominatedPods(nodeName: string): readonly Pod[];
  /** parallelism is the configuration's parallelism (16 by default). */
  parallelism: number;
}

/** PreemptionExecutor deletes victims asynchronously and tells the queue which preemptors must still wait. */
export class PreemptionExecutor {
  /** running maps a preemptor (namespace/name) to the last victim once its deletion is under way. */
  private readonly running = new Map<string, Victim | undefined>();

  constructor(private readonly ctx: EngineContext, private readonly api: ApiServer, private readonly client: PreemptionClient) {}

  /**
   * gate is DefaultPreemption's PreEnqueue (IsPodRunningPreemption): the preemptor waits while its preemption runs, until
   * the last victim is gone or has started terminating.
   */
  gate(pod: Pod, fw: Framework | undefined): { plugin: string; message: string } | undefined {
    const key = `${pod.metadata?.namespace}/${pod.metadata?.name}`;
    if (!fw?.plugins.has(Names.DefaultPreemption) || !this.running.has(key)) return undefined;
    const last = this.running.get(key);
    if (last) {
      const victim = this.ctx.store.get<Pod>('Pod', last.namespace, last.name);
      if (!victim || victim.metadata?.deletionTimestamp) return undefined;
    }
    return { plugin: Names.DefaultPreemption, message: WAITING_FOR_PREEMPTION };
  }

  /**
   * start runs prepareCandidateAsync: a task of its own clears the nominations of lower priority on the node, evicts
   * the victims but the last at once, then the last.
   */
  start(fw: Framework, preemptor: Pod, node: string, victims: readonly Victim[], ref: string): void {
    const live = victims.filter((v) => !this.ctx.store.get<Pod>('Pod', v.namespace, v.name)?.metadata?.deletionTimestamp);
    if (live.length === 0) return;
    const key = `${preemptor.metadata?.namespace}/${preemptor.metadata?.name}`;
    this.running.set(key, undefined);
    const self = this;
    const now = (): number => this.ctx.clock.now;
    this.ctx.schedule(0, `kube-scheduler: preempt for ${ref}`, function* () {
      yield* self.clearNominatedNodeName(preemptor, node, ref);
      const others = live.slice(0, -1);
      yield* parallelizeUntil(others.length, self.client.parallelism, (i) => self.preemptPod(fw, preemptor, node, others[i]!, ref), now);
      const last = live[live.length - 1]!;
      self.running.set(key, last);
      yield* self.preemptPod(fw, preemptor, node, last, ref);
      self.running.delete(key);
    });
  }

  /**
   * clearNominatedNodeName takes their nomination from the pods of lower priority nominated to the node, which may no
   * longer fit there: a status PATCH each, for those whose status names it (getLowerPriorityNominatedPods).
   */
  private *clearNominatedNodeName(preemptor: Pod, node: string, ref: string): Steps<void> {
    const priority = preemptor.spec?.priority ?? 0;
    const lower = this.client.nominatedPods(node).filter((p) => (p.spec?.priority ?? 0) < priority && p.status?.nominatedNodeName);
    for (const p of lower) {
      const ns = p.metadata?.namespace;
      const name = p.metadata?.name ?? '';
      const podRef = `Pod/${ns ?? ''}/${name}`;
      yield* this.client.send('PATCH', podPath(ns, name, 'status'), ref);
      const cleared = this.ctx.store.update<Pod>('Pod', ns, name, (q) => {
        if (q.status) delete q.status.nominatedNodeName;
      });
      if (!cleared) continue;
      yield {
        phase: 'scheduler.postFilter', object: ref, step: { kind: 'object', name: podRef }, field: 'status.nominatedNodeName',
        result: `${ns ?? ''}/${name} (priority ${p.spec?.priority ?? 0}) is no longer nominated to ${node}: it may not fit there once ${preemptor.metadata?.name ?? ''} runs`,
        detail: { pod: podRef, node, priority: p.spec?.priority ?? 0 },
      };
    }
  }

  /** preemptPod is PreemptPod: the DisruptionTarget condition, a graceful delete, then the Preempted event on the victim. */
  private *preemptPod(fw: Framework, preemptor: Pod, node: string, v: Victim, ref: string): Steps<void> {
    const store = this.ctx.store;
    const schedulerName = fw.profile.schedulerName;
    const victim = store.get<Pod>('Pod', v.namespace, v.name);
    if (!victim) return;
    const victimRef = `Pod/${v.namespace}/${v.name}`;
    yield {
      phase: 'scheduler.postFilter', object: ref, step: { kind: 'object', name: victimRef },
      result: `preempting ${v.namespace}/${v.name} on ${node}: DisruptionTarget condition, then a graceful delete`,
      detail: { victim: victimRef, node, priority: victim.spec?.priority ?? 0 },
    };
    const condition: PodCondition = {
      type: 'DisruptionTarget', status: 'True', reason: 'PreemptionByScheduler', lastTransitionTime: this.ctx.clock.timestamp(),
      message: `${schedulerName}: preempting to accommodate a higher priority pod`,
    };
    yield* this.client.send('PATCH', podPath(v.namespace, v.name, 'status'), ref);
    const patched = store.update<Pod>('Pod', v.namespace, v.name, (p) => {
      p.status = { ...p.status, conditions: [...(p.status?.conditions ?? []).filter((c) => c.type !== 'DisruptionTarget'), condition] };
    });
    if (!patched) return;
    yield* this.client.send('DELETE', podPath(v.namespace, v.name), ref);
    // Why: kube-scheduler deletes as itself; the simulated API server knows it as the admin impersonating system:kube-scheduler.
    const out = yield* this.api.serve({
      verb: 'delete', method: 'DELETE', path: podPath(v.namespace, v.name), apiVersion: 'v1', kind: 'Pod', group: '',
      resource: 'pods', namespace: v.namespace, name: v.name, credentials: { certificatePem: DEFAULT_CREDENTIALS, impersonate: { user: SCHEDULER_USER, groups: [] } },
    }, victimRef);
    if (!out.ok) return;
    this.ctx.recorder.event({ type: 'Normal', reason: 'Preempted', object: victimRef, source: schedulerName, message: `Preempted by pod ${preemptor.metadata?.uid ?? ''} on node ${node}` }, 'events.k8s.io');
  }
}
