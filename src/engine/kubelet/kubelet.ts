// The kubelet of one node: it takes the pods bound to its node, runs them through its pod worker and reports their status.
import { isDeepStrictEqual } from 'node:util';
import type { Node, Pod, PodStatus } from '../api/types';
import type { EngineContext } from '../context';
import { refOf } from '../api/types';
import type { Steps } from '../runtime/step';
import { admitPod } from './admit';
import type { NodeImages } from './containers';
import { HostLocalIpam } from './ipam';
import { newPodRuntimeState, normalizeImage, type PodRuntimeState } from './pod-state';
import { requestSync } from './pod-worker';
import { podColumns } from '../kubectl/printer';
import { triggerReadiness } from './probes';
import { buildPodStatus, setCondition } from './status';
import { syncPod } from './sync';
import { killPod } from './terminate';
import { podRemovedWhileTerminating, podUpdatedWhileTerminating } from './terminating-updates';
import { replaceStatus, STATUS_MANAGERS } from '../apiserver/status-write';
import { deletePodAsKubelet } from '../apiserver/delete';
import { StatusManager, type StatusSender } from './status-manager';
import { podPath } from '../cluster/storage-keys';
import { quietEntry } from '../runtime/recorder';

/** KUBELET_SOURCE is the source component of the kubelet's events. */
export const KUBELET_SOURCE = 'kubelet';

/** Kubelet simulates one node's kubelet and container runtime. */
export class Kubelet implements StatusSender {
  readonly pods = new Map<string, PodRuntimeState>();
  /**
   * finished holds the uids of pods the pod worker is done with: an update of one (a pod its finalizers keep) does not
   * start it again. See pkg/kubelet/pod_workers.go UpdatePod: "once a pod is terminated by UID, it cannot reenter the
   * pod worker (until the UID is purged by housekeeping)"; housekeeping purges only pods gone from the API server.
   */
  private readonly finished = new Set<string>();
  readonly ipam: HostLocalIpam;
  readonly images: NodeImages;
  readonly hostIP: string;
  /** statusManager sends the pods' statuses and final deletes through the kubelet's client. */
  private readonly statusManager: StatusManager;

  constructor(private readonly ctx: EngineContext, readonly node: Node) {
    this.statusManager = new StatusManager(ctx, node.metadata?.name ?? '', this);
    this.ipam = new HostLocalIpam(node.spec?.podCIDR ?? '10.244.0.0/24');
    this.images = { present: new Set((node.status?.images ?? []).flatMap((i) => (i.names ?? []).map(normalizeImage))), pullerFreeAt: 0 };
    this.hostIP = node.status?.addresses?.find((a) => a.type === 'InternalIP')?.address ?? '';
  }

  get name(): string {
    return this.node.metadata?.name ?? '';
  }

  /** down tells whether the Behavior stopped this node's kubelet (from the start, or after downAfterSeconds). */
  get down(): boolean {
    const node = this.ctx.behavior.nodes[this.name];
    return node?.kubelet === 'down' && this.ctx.clock.now >= (node.downAfterSeconds ?? 0) * 1000;
  }

  /** onPodChange reacts to a watch event of a pod bound to this node. */
  onPodChange(pod: Pod): void {
    if (this.down) return;
    const uid = pod.metadata?.uid ?? '';
    const known = this.pods.get(uid);
    if (!known && this.finished.has(uid)) return;
    if (!known) {
      const state = newPodRuntimeState(pod, refOf(pod));
      this.pods.set(uid, state);
      this.ctx.schedule(0, `kubelet ${this.name}: sync ${state.ref}`, () => syncPod(this.ctx, this, state));
      return;
    }
    known.pod = pod;
    if (pod.metadata?.deletionTimestamp && !known.terminating) this.terminate(known);
    // A later delete may shorten the grace period of a pod being killed. See terminating-updates.ts.
    else if (known.terminating) podUpdatedWhileTerminating(this.ctx, this, known, pod);
  }

  /**
   * onPodRemoved reacts to a pod gone from the API server before the kubelet saw its deletion: the pod worker
   * still kills its containers (HandlePodRemoves, SyncPodKill). See pkg/kubelet/kubelet.go and pod_workers.go.
   */
  onPodRemoved(pod: Pod): void {
    if (this.down) return;
    const known = this.pods.get(pod.metadata?.uid ?? '');
    if (known && !known.terminating) this.terminate(known);
    // A force delete removes a pod the kubelet is already killing: the kill goes on. See terminating-updates.ts.
    else if (known) podRemovedWhileTerminating(this.ctx, this, known, pod);
  }

  /** finish forgets a pod the pod worker is done with (SyncTerminatedPod ended) and keeps its uid as finished. */
  finish(state: PodRuntimeState): void {
    this.pods.delete(state.uid);
    this.finished.add(state.uid);
  }

  private terminate(known: PodRuntimeState): void {
    known.terminating = true;
    this.ctx.schedule(0, `kubelet ${this.name}: kill ${known.ref}`, () => killPod(this.ctx, this, known));
  }

  /** admit runs the kubelet's admission of a pod (phase kubelet.admit). */
  *admit(state: PodRuntimeState): Steps<boolean> {
    const others = [...this.pods.values()].filter((s) => s !== state && s.admittedAt !== undefined && !s.terminated).map((s) => s.pod);
    const verdict = admitPod(this.node, state.pod, others);
    yield {
      phase: 'kubelet.admit', object: state.ref, field: verdict.field,
      result: verdict.admitted ? `admitted on ${this.name}: ${verdict.summary}` : `rejected: ${verdict.reason}: ${verdict.message}`,
      detail: { node: this.name, ...verdict }, outcome: verdict.admitted ? 'ok' : 'rejected',
    };
    if (!verdict.admitted) {
      // The status says why the kubelet rejected the pod. See pkg/kubelet/kubelet.go (rejectPod).
      state.rejected = { reason: verdict.reason ?? '', message: `Pod was rejected: ${verdict.message ?? ''}` };
      this.event(state, 'Warning', verdict.reason ?? 'Rejected', verdict.message ?? '');
    }
    return verdict.admitted;
  }

  /**
   * event records a kubelet event on the pod, or on one of its containers when fieldPath names it (containerRef): the
   * image manager, the runtime manager, the prober and the back-off record theirs on the container's reference.
   */
  event(state: PodRuntimeState, type: 'Normal' | 'Warning', reason: string, message: string, fieldPath?: string): void {
    if (this.down) return;
    this.ctx.recorder.event({ type, reason, object: state.ref, ...(fieldPath ? { fieldPath } : {}), source: KUBELET_SOURCE, host: this.name, message });
  }

  /**
   * writeStatus sends the pod's status to the API server (phase kubelet.status) through the status manager: at once
   * while the kubelet's client has tokens for it, else once it has (status-manager.ts). Each entry carries what
   * `kubectl get pods` would print then (READY, STATUS, RESTARTS). `terminal` says the pod worker has finished the
   * pod: its phase is computed as for a pod whose containers will not run again. `whenChanged` sends nothing when the
   * status is the one stored, as the status manager does (status_manager.go updateStatusInternal,
   * isPodStatusByKubeletEqual; v1.36.3).
   */
  *writeStatus(state: PodRuntimeState, why: string, terminal = false, whenChanged = false): Steps<void> {
    // A stopped kubelet posts nothing more.
    if (this.down) return;
    const meta = state.pod.metadata ?? {};
    const stored = this.ctx.store.get<Pod>('Pod', meta.namespace, meta.name ?? '');
    if (!stored || stored.metadata?.uid !== state.uid) return;
    const status = buildPodStatus(state, stored, this.ctx.clock, { hostIP: this.hostIP, terminal });
    if (whenChanged && isDeepStrictEqual(status, this.statusManager.holds(state) ? state.pod.status : stored.status)) return;
    if (this.statusManager.sendsNow(2, podPath(meta.namespace, meta.name ?? ''))) yield* this.sendStatus(state, status, why, false);
    else {
      const { ahead, limit } = this.statusManager;
      // The kubelet goes on with the status it generated (the manager's cache); the API server gets it later.
      state.pod = { ...stored, status };
      this.statusManager.queueStatus(state, status, why);
      yield {
        phase: 'kubelet.status', object: state.ref, field: 'status',
        result: `${why}: phase ${status.phase}; the status manager sends it once the kubelet's client allows (${limit.qps} requests a second after a burst of ${limit.burst}: kubeAPIQPS, kubeAPIBurst), ${ahead === 0 ? 'first in line' : `behind ${ahead} other pod(s)`}`,
        detail: { phase: status.phase, waiting: { ahead, ...limit } }, outcome: 'waiting',
      };
    }
    // Filling in a status runs the readiness probe of a started container that is not ready yet (UpdatePodStatus).
    if (!terminal) triggerReadiness(this.ctx, this, state);
  }

  /** sendStatus writes a status the manager sends: the kubelet.status step; `late` when it waited for the client. */
  *sendStatus(state: PodRuntimeState, status: PodStatus, why: string, late: boolean): Steps<void> {
    const meta = state.pod.metadata ?? {};
    const stored = this.ctx.store.get<Pod>('Pod', meta.namespace, meta.name ?? '');
    if (!stored || stored.metadata?.uid !== state.uid) return;
    const updated = replaceStatus<Pod>(this.ctx, STATUS_MANAGERS.kubelet, 'Pod', meta.namespace, meta.name ?? '', () => status);
    if (updated) state.pod = updated;
    // A pod the trace keeps nothing more of: the step is made without the columns and the line only it would show.
    if (this.ctx.recorder.isQuiet(state.ref)) {
      yield quietEntry('kubelet.status', state.ref);
      return;
    }
    const kubectl = podColumns(updated ?? { ...stored, status }, this.ctx.clock.epoch.getTime() + this.ctx.clock.now);
    const ready = status.conditions?.find((c) => c.type === 'Ready')?.status;
    yield {
      phase: 'kubelet.status', object: state.ref, field: 'status',
      result: `${late ? `sent once the kubelet's client allowed: ${why}` : why}: phase ${status.phase}, Ready ${ready ?? 'unknown'}${status.podIP ? `, podIP ${status.podIP}` : ''}; kubectl get pods: READY ${kubectl.ready}, STATUS ${kubectl.status}, RESTARTS ${kubectl.restarts}`,
      detail: { phase: status.phase, ...(status.reason ? { reason: status.reason, message: status.message } : {}), conditions: status.conditions, initContainerStatuses: status.initContainerStatuses, containerStatuses: status.containerStatuses, kubectl },
    };
  }

  /**
   * deletePod is the status manager's final delete of a pod whose containers stopped and whose volumes are gone
   * (canBeDeleted): at once while the client allows, else after the pod's status still waiting; the pod worker is
   * done with the pod once it is sent.
   */
  *deletePod(state: PodRuntimeState): Steps<void> {
    const meta = state.pod.metadata ?? {};
    if (!this.statusManager.holds(state) && this.statusManager.sendsNow(1, podPath(meta.namespace, meta.name ?? ''))) {
      yield* this.sendDelete(state);
      return;
    }
    this.statusManager.queueDelete(state);
  }

  /** sendDelete sends the final delete (grace 0, the pod's uid as precondition) and forgets the pod. */
  *sendDelete(state: PodRuntimeState): Steps<void> {
    yield* deletePodAsKubelet(this.ctx, state.pod, state.ref);
    this.finish(state);
  }

  /**
   * requestSync asks the pod worker for a sync of the pod: what a probe result or another change the PLEG reports
   * does. The probe workers reach the pod worker through here, so neither file imports the other.
   */
  requestSync(state: PodRuntimeState, why: string): void {
    requestSync(this.ctx, this, state, why);
  }

  /** markSandboxReady sets PodReadyToStartContainers once the sandbox and its network are up. */
  markSandboxReady(state: PodRuntimeState, ready: boolean): void {
    setCondition(state, 'PodReadyToStartContainers', ready ? 'True' : 'False', this.ctx.clock.now);
  }
}
