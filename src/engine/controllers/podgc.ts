// The pod garbage collector's orphan rule: a pod bound to a node that no longer exists is marked Failed with the
// DisruptionTarget condition DeletionByPodGC, then force-deleted (grace period 0). A node missing from the informer's
// cache is first quarantined for 40 s in the controller's nodeQueue, then looked up live; only then are its pods
// orphans. See pkg/controller/podgc/gc_controller.go (gcCheckPeriod 20 s, quarantineTime 40 s, gc, gcOrphaned,
// discoverDeletedNodes, checkIfNodeExists, markFailedAndDeletePodWithCondition) and pkg/util/pod/pod.go
// (PatchPodStatus) at kubernetes v1.36.3. The other passes of gc (gcTerminated above --terminated-pod-gc-threshold,
// gcTerminating on out-of-service nodes, gcUnscheduledTerminating) are not simulated.
import type { KubeObject, Pod, PodCondition } from '../api/types';
import { deepClone, refOf } from '../api/types';
import { canonicalJSON } from '../api/naming';
import { createThreeWayMergePatch, type JsonMap } from '../api/strategic-merge';
import { mappingFor, requestPath, type ApiServer } from '../apiserver/server';
import type { WatchEventType } from '../cluster/store';
import type { EngineContext } from '../context';
import type { Millis } from '../runtime/clock';
import type { Steps } from '../runtime/step';

/** POD_GC_CONTROLLER is the controller's service account (kube-system/pod-garbage-collector). */
export const POD_GC_CONTROLLER = 'pod-garbage-collector';
/** GC_CHECK_PERIOD_MS is gcCheckPeriod: how often gc runs. */
export const GC_CHECK_PERIOD_MS = 20_000;
/** QUARANTINE_MS is quarantineTime: how long a node must stay missing before its pods are orphans. */
export const QUARANTINE_MS = 40_000;

/**
 * PodGC runs gc every 20 s while some pod is bound to a missing node or a missing node waits in the nodeQueue; the
 * loop's phase is fixed at multiples of 20 s of the simulation's clock (kube-controller-manager's is its own).
 */
export class PodGC {
  /** nodeQueue: each missing node and when it is ready (AddAfter keeps the sooner time of a node already waiting). */
  private readonly nodeQueue = new Map<string, Millis>();
  private ticking = false;

  constructor(private readonly ctx: EngineContext, private readonly api: ApiServer) {}

  /** onChange is the pod and node informers' handler: a pod bound to a missing node, or a node gone, starts the loop. */
  onChange(type: WatchEventType, obj: KubeObject): void {
    if (obj.kind === 'Pod' && type !== 'DELETED') {
      const node = (obj as Pod).spec?.nodeName;
      if (node && !this.ctx.store.get('Node', undefined, node)) this.tick();
    }
    if (obj.kind === 'Node' && type === 'DELETED') this.tick();
  }

  /** tick schedules the next run of gc on the 20 s grid, unless one is already scheduled. */
  private tick(): void {
    if (this.ticking) return;
    this.ticking = true;
    const now = this.ctx.clock.now;
    const next = (Math.floor(now / GC_CHECK_PERIOD_MS) + 1) * GC_CHECK_PERIOD_MS;
    this.ctx.schedule(next - now, 'pod-garbage-collector: gc', () => this.gc());
  }

  /** gc is gcOrphaned: quarantine the missing nodes, look up those whose quarantine is over, and delete their pods. */
  private *gc(): Steps<void> {
    this.ticking = false;
    const now = this.ctx.clock.now;
    const nodes = new Set(this.ctx.store.list('Node').map((n) => n.metadata?.name ?? ''));
    const orphanable = this.ctx.store.list<Pod>('Pod').filter((p) => p.spec?.nodeName && !nodes.has(p.spec.nodeName));
    // "Add newly found unknown nodes to quarantine."
    for (const pod of orphanable) {
      const node = pod.spec?.nodeName ?? '';
      if (this.nodeQueue.has(node)) continue;
      this.nodeQueue.set(node, now + QUARANTINE_MS);
      yield {
        phase: 'controllers.podgc', object: refOf(pod), field: 'spec.nodeName',
        result: `node "${node}" is not in the informer's cache: quarantined in the nodeQueue for ${QUARANTINE_MS / 1000}s before it is looked up`,
        detail: { node, quarantineSeconds: QUARANTINE_MS / 1000, readyAt: this.ctx.clock.timestamp(now + QUARANTINE_MS) },
      };
    }
    // discoverDeletedNodes: every node whose quarantine is over is taken off the queue and, if still missing, looked up.
    const deleted = new Set<string>();
    for (const [node, readyAt] of [...this.nodeQueue]) {
      if (readyAt > now) continue;
      this.nodeQueue.delete(node);
      if (!nodes.has(node) && !this.ctx.store.get('Node', undefined, node)) deleted.add(node);
    }
    for (const pod of orphanable) {
      if (deleted.has(pod.spec?.nodeName ?? '')) yield* this.markFailedAndDelete(pod);
    }
    const left = this.ctx.store.list<Pod>('Pod').some((p) => p.spec?.nodeName && !this.ctx.store.get('Node', undefined, p.spec.nodeName));
    if (left || this.nodeQueue.size > 0) this.tick();
  }

  /**
   * markFailedAndDelete is markFailedAndDeletePodWithCondition: a status patch (the pod's uid as precondition) to
   * phase Failed with the DisruptionTarget condition, unless the pod is already Succeeded or Failed, then a delete
   * with a grace period of 0 (metav1.NewDeleteOptions(0)).
   */
  private *markFailedAndDelete(pod: Pod): Steps<void> {
    const meta = pod.metadata ?? {};
    const ref = refOf(pod);
    const node = pod.spec?.nodeName ?? '';
    const phase = pod.status?.phase;
    if (phase !== 'Succeeded' && phase !== 'Failed') {
      // PodObservedGenerationTracking is GA (locked on) since 1.35: both observedGenerations are the pod's generation.
      const generation = meta.generation;
      const condition: PodCondition = {
        type: 'DisruptionTarget', status: 'True', lastProbeTime: null as unknown as string, lastTransitionTime: this.ctx.clock.timestamp(),
        reason: 'DeletionByPodGC', message: 'PodGC: node no longer exists',
        ...(generation !== undefined ? { observedGeneration: generation } : {}),
      } as PodCondition;
      const oldStatus = deepClone(pod.status ?? {});
      // UpdatePodCondition: a new condition is appended, an existing one of its type replaced.
      const conditions = [...(oldStatus.conditions ?? [])];
      const at = conditions.findIndex((c) => c.type === 'DisruptionTarget');
      if (at >= 0) conditions[at] = condition;
      else conditions.push(condition);
      const newStatus = { ...oldStatus, phase: 'Failed', ...(generation !== undefined ? { observedGeneration: generation } : {}), conditions };
      const patch = createThreeWayMergePatch({ status: oldStatus } as JsonMap, { metadata: { uid: meta.uid ?? '' }, status: newStatus } as JsonMap, { status: oldStatus } as JsonMap);
      this.ctx.store.update<Pod>('Pod', meta.namespace, meta.name ?? '', (p) => {
        p.status = newStatus as Pod['status'];
      });
      yield {
        phase: 'controllers.podgc', object: ref, field: 'spec.nodeName',
        result: `node "${node}" no longer exists (not found after ${QUARANTINE_MS / 1000}s in quarantine): PATCH pods/status to phase Failed with DisruptionTarget (DeletionByPodGC: PodGC: node no longer exists)`,
        detail: { node, patch: canonicalJSON(patch) },
      };
    }
    yield {
      phase: 'controllers.podgc', object: ref, field: 'spec.nodeName',
      result: `force-deleting the orphaned pod: DELETE with gracePeriodSeconds 0`, detail: { node, gracePeriodSeconds: 0 },
    };
    const mapping = mappingFor('v1', 'Pod')!;
    yield* this.api.serve({
      verb: 'delete', method: 'DELETE', path: requestPath(mapping, 'v1', meta.namespace, meta.name), apiVersion: 'v1', kind: 'Pod',
      group: '', resource: 'pods', ...(meta.namespace ? { namespace: meta.namespace } : {}), name: meta.name ?? '',
      credentials: { serviceAccount: `kube-system/${POD_GC_CONTROLLER}` },
    }, ref, { gracePeriodSeconds: 0 });
  }
}
