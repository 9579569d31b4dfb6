// The taint eviction controller: pods on a node with NoExecute taints are deleted at once when they do not tolerate
// them, or once the shortest tolerationSeconds of their matching tolerations has passed.
// See pkg/controller/tainteviction/taint_eviction.go (processPodOnNode, getMinTolerationTime, deletePodHandler,
// addConditionAndDeletePod, emitPodDeletionEvent, emitCancelPodDeletionEvent).
import type { Node, Pod, PodCondition, Taint, Toleration } from '../api/types';
import { refOf } from '../api/types';
import { mappingFor, requestPath, type ApiServer } from '../apiserver/server';
import type { EngineContext, Task } from '../context';
import type { ScheduledTask } from '../runtime/clock';
import type { Steps } from '../runtime/step';
import { NODE_CONTROLLER } from './node-lifecycle';

/** TAINT_EVICTION_CONTROLLER is the controller's name, the source of its events. */
export const TAINT_EVICTION_CONTROLLER = 'taint-eviction-controller';

/** tolerates tells whether a toleration matches a taint, as v1.Toleration.ToleratesTaint. */
export function tolerates(t: Toleration, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  if (!t.key && t.operator !== 'Exists') return false;
  if ((t.operator ?? 'Equal') === 'Exists') return true;
  return (t.value ?? '') === (taint.value ?? '');
}

/**
 * evictionDelay is processPodOnNode's verdict for a pod under NoExecute taints: 0 when one taint is not tolerated,
 * the shortest tolerationSeconds of the tolerations used (0 or less means at once), or undefined to stay forever.
 */
export function evictionDelay(taints: Taint[], tolerations: Toleration[]): number | undefined {
  const used: Toleration[] = [];
  for (const taint of taints) {
    const match = tolerations.find((t) => tolerates(t, taint));
    if (!match) return 0;
    used.push(match);
  }
  if (used.length === 0) return 0;
  const finite = used.filter((t) => t.tolerationSeconds !== undefined && t.tolerationSeconds !== null).map((t) => t.tolerationSeconds as number);
  if (finite.length === 0) return undefined;
  return Math.max(0, Math.min(...finite));
}

/** TaintEviction holds the controller's timed deletions, by pod. */
export class TaintEviction {
  private readonly scheduled = new Map<string, ScheduledTask<Task>>();

  constructor(private readonly ctx: EngineContext, private readonly api: ApiServer) {}

  /** onNodeTainted processes every pod of a node whose NoExecute taints changed. */
  onNodeTainted(node: Node): void {
    const taints = (node.spec?.taints ?? []).filter((t) => t.effect === 'NoExecute');
    if (taints.length === 0) return;
    for (const pod of this.ctx.store.list<Pod>('Pod').filter((p) => p.spec?.nodeName === node.metadata?.name)) this.processPod(pod, taints);
  }

  /**
   * onPodBound is podUpdated for a pod that just got its node: a node already tainted NoExecute evicts it too,
   * once its tolerationSeconds have passed from now (processPodOnNode).
   */
  onPodBound(pod: Pod): void {
    const node = this.ctx.store.get<Node>('Node', undefined, pod.spec?.nodeName ?? '');
    const taints = (node?.spec?.taints ?? []).filter((t) => t.effect === 'NoExecute');
    if (taints.length && !pod.metadata?.deletionTimestamp) this.processPod(pod, taints);
  }

  /** processPod schedules the pod's eviction after the shortest tolerationSeconds, unless one is scheduled already. */
  private processPod(pod: Pod, taints: Taint[]): void {
    const key = refOf(pod);
    if (this.scheduled.has(key)) return;
    const delay = evictionDelay(taints, pod.spec?.tolerations ?? []);
    if (delay === undefined) return;
    const task = this.ctx.schedule(delay * 1000, `taint-eviction-controller: ${key}`, () => this.evict(pod, taints, delay));
    this.scheduled.set(key, task);
  }

  /** onPodDeleted cancels a pod's pending eviction, with the controller's event. */
  onPodDeleted(pod: Pod): void {
    const key = refOf(pod);
    const task = this.scheduled.get(key);
    if (!task || task.cancelled) return;
    task.cancelled = true;
    this.scheduled.delete(key);
    const ns = pod.metadata?.namespace ?? '';
    this.ctx.recorder.event({ type: 'Normal', reason: 'TaintManagerEviction', object: key, source: TAINT_EVICTION_CONTROLLER, message: `Cancelling deletion of Pod ${ns}/${pod.metadata?.name}` });
  }

  /** evict is deletePodHandler: the event, the DisruptionTarget condition, then a delete with the pod's own grace period. */
  private *evict(pod: Pod, taints: Taint[], delay: number): Steps<void> {
    const key = refOf(pod);
    this.scheduled.delete(key);
    const meta = pod.metadata ?? {};
    this.ctx.recorder.event({ type: 'Normal', reason: 'TaintManagerEviction', object: key, source: TAINT_EVICTION_CONTROLLER, message: `Marking for deletion Pod ${meta.namespace}/${meta.name}` });
    const current = this.ctx.store.get<Pod>('Pod', meta.namespace, meta.name ?? '');
    const taintText = taints.map((t) => `${t.key}:${t.effect}`).join(', ');
    if (!current || current.metadata?.uid !== meta.uid || current.metadata?.deletionTimestamp) {
      yield {
        phase: 'controllers.taintEviction', object: key, field: 'spec.tolerations',
        result: current ? 'the pod is already being deleted: nothing to do' : 'the pod is already gone: nothing to do', detail: { taints: taintText },
      };
      return;
    }
    this.ctx.store.update<Pod>('Pod', meta.namespace, meta.name ?? '', (p) => {
      const conditions = (p.status?.conditions ?? []).filter((c) => c.type !== 'DisruptionTarget');
      const condition: PodCondition = {
        type: 'DisruptionTarget', status: 'True', lastProbeTime: null as unknown as string, lastTransitionTime: this.ctx.clock.timestamp(),
        reason: 'DeletionByTaintManager', message: 'Taint manager: deleting due to NoExecute taint',
        ...(p.metadata?.generation !== undefined ? { observedGeneration: p.metadata.generation } : {}),
      } as PodCondition;
      p.status = { ...(p.status ?? {}), conditions: [...conditions, condition] };
    });
    yield {
      phase: 'controllers.taintEviction', object: key, field: 'spec.tolerations',
      result: `${delay > 0 ? `the tolerations of ${taintText} ran out after ${delay}s` : `the pod does not tolerate ${taintText}`}: DisruptionTarget (DeletionByTaintManager) and a delete with the pod's own grace period; pod GC will not force it away (the node exists and has no node.kubernetes.io/out-of-service taint)`,
      detail: { taints: taintText, tolerationSeconds: delay },
    };
    const mapping = mappingFor('v1', 'Pod')!;
    // The controller runs with the node-controller's credentials ("taint-manager uses existing cluster role from node-controller").
    yield* this.api.serve({
      verb: 'delete', method: 'DELETE', path: requestPath(mapping, 'v1', meta.namespace, meta.name), apiVersion: 'v1', kind: 'Pod',
      group: '', resource: 'pods', ...(meta.namespace ? { namespace: meta.namespace } : {}), name: meta.name ?? '',
      credentials: { serviceAccount: `kube-system/${NODE_CONTROLLER}` },
    }, key, { preconditionUid: meta.uid ?? '' });
  }
}
