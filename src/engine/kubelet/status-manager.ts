// The kubelet's status manager, as far as its client limits it. Each status the pod worker generates goes to the API
// server as a GET and a PATCH (syncPod in pkg/kubelet/status/status_manager.go, v1.36.3), and the pod's final delete
// as a DELETE, through the kubelet's client: client-go's rate limiter at KubeletConfiguration's kubeAPIQPS 50 and
// kubeAPIBurst 100 (pkg/kubelet/apis/config/v1beta1/defaults.go; a ClusterProfile's `kubelet` sets them). While the
// client has the tokens, a status goes at once. A node that starts many pods at once runs out of them: the statuses
// then wait, each pod's latest replacing the one of it still waiting (the manager keeps only the latest), sent in the
// order they first waited, each after its tokens; a final delete waits behind its pod's status. The kubelet goes on
// with its own view of each status meanwhile (the manager's cache); the API server, and whatever watches it, sees the
// status when it is sent. Node status and lease updates go through the kubelet's heartbeat client, which has no
// limit, and Events through a client of their own: not here.
import type { PodStatus } from '../api/types';
import { KUBELET_DEFAULTS } from '../cluster/inputs';
import { podPath } from '../cluster/storage-keys';
import type { EngineContext } from '../context';
import { ClientLimiter } from '../runtime/client-rate-limit';
import type { Steps } from '../runtime/step';
import type { PodRuntimeState } from './pod-state';

/** Waiting is what the manager holds of one pod: its latest status to send, and whether its final delete follows. */
interface Waiting {
  state: PodRuntimeState;
  status?: { status: PodStatus; why: string };
  deleteAfter?: boolean;
}

/** StatusSender writes a status (the kubelet.status step) and sends the final delete; the manager decides when. */
export interface StatusSender {
  sendStatus(state: PodRuntimeState, status: PodStatus, why: string, late: boolean): Steps<void>;
  sendDelete(state: PodRuntimeState): Steps<void>;
  /** down tells whether the kubelet stopped: a stopped kubelet sends nothing more. */
  readonly down: boolean;
}

/** StatusManager sends a node's pod statuses and final deletes through the kubelet's client. */
export class StatusManager {
  private readonly client: ClientLimiter;
  private readonly waiting = new Map<string, Waiting>();
  private draining = false;
  /** limit is the client's rate limit: the profile's KubeletConfiguration, a burst of 0 being its default of 100. */
  readonly limit: { qps: number; burst: number };

  constructor(private readonly ctx: EngineContext, private readonly node: string, private readonly sender: StatusSender) {
    const flags = ctx.profile.kubelet ?? KUBELET_DEFAULTS;
    this.limit = { qps: flags.kubeAPIQPS, burst: flags.kubeAPIBurst === 0 ? KUBELET_DEFAULTS.kubeAPIBurst : flags.kubeAPIBurst };
    this.client = new ClientLimiter(() => ctx.clock.now, { ...this.limit, flags: 'kubeAPIQPS, kubeAPIBurst' });
  }

  /**
   * sendsNow tells whether `requests` go at once: nothing waits before them and the client has their tokens; it takes
   * the tokens when they do.
   */
  sendsNow(requests: number, path: string): boolean {
    if (this.waiting.size > 0 || !this.client.canSend(requests, path)) return false;
    for (let i = 0; i < requests; i++) this.client.spend(path);
    return true;
  }

  /** ahead is how many pods' statuses or deletes wait to be sent. */
  get ahead(): number {
    return this.waiting.size;
  }

  /** holds tells whether a pod's status or delete waits. */
  holds(state: PodRuntimeState): boolean {
    return this.waiting.has(state.uid);
  }

  /** queueStatus keeps a status to send once the client allows, replacing the pod's earlier one still waiting. */
  queueStatus(state: PodRuntimeState, status: PodStatus, why: string): void {
    const w = this.waiting.get(state.uid) ?? { state };
    w.status = { status, why };
    this.waiting.set(state.uid, w);
    this.drain();
  }

  /** queueDelete sends the pod's final delete after its status still waiting, or once the client allows. */
  queueDelete(state: PodRuntimeState): void {
    const w = this.waiting.get(state.uid) ?? { state };
    w.deleteAfter = true;
    this.waiting.set(state.uid, w);
    this.drain();
  }

  /** drain runs the manager's goroutine until nothing waits. */
  private drain(): void {
    if (this.draining) return;
    this.draining = true;
    const self = this;
    this.ctx.schedule(0, `kubelet ${this.node}: status manager`, function* () {
      try {
        yield* self.run();
      } finally {
        self.draining = false;
      }
    });
  }

  private *run(): Steps<void> {
    for (let next = this.first(); next && !this.sender.down; next = this.first()) {
      const meta = next.state.pod.metadata ?? {};
      const path = podPath(meta.namespace, meta.name ?? '');
      if (next.status) {
        yield* this.client.wait('kubelet', 'kubelet.status', next.state.ref, 'GET', path);
        yield* this.client.wait('kubelet', 'kubelet.status', next.state.ref, 'PATCH', podPath(meta.namespace, meta.name ?? '', 'status'));
        // What was generated while the requests waited goes in this PATCH: the latest status.
        const { status, why } = next.status;
        delete next.status;
        yield* this.sender.sendStatus(next.state, status, why, true);
        if (next.status) continue;
      }
      if (next.deleteAfter) {
        yield* this.client.wait('kubelet', 'kubelet.status', next.state.ref, 'DELETE', path);
        this.waiting.delete(next.state.uid);
        yield* this.sender.sendDelete(next.state);
        continue;
      }
      this.waiting.delete(next.state.uid);
    }
  }

  private first(): Waiting | undefined {
    return this.waiting.values().next().value;
  }
}
