// kube-scheduler as a component: it takes new unassigned pods, runs a scheduling cycle and binds or reports the failure.
// See pkg/scheduler/schedule_one.go (ScheduleOne, handleSchedulingFailure, bind). The queues and retries grow here.
import type { KubeObject, Node, Pod, PodCondition } from '../api/types';
import { refOf } from '../api/types';
import type { SourceDocument } from '../cluster/inputs';
import type { WatchEventType } from '../cluster/store';
import type { EngineContext } from '../context';
import type { Steps } from '../runtime/step';
import { scheduleCycle, ScheduleOutcome } from './framework/runner';
import { Snapshot } from './framework/snapshot';
import { SCHEDULER_COMPONENT } from './messages';

/** DEFAULT_SCHEDULER_NAME is the schedulerName the default profile answers to. */
export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';

/** KubeScheduler watches pods and schedules those that are its own. */
export class KubeScheduler {
  private nextStartNodeIndex = 0;

  constructor(private readonly ctx: EngineContext, readonly config: SourceDocument[]) {}

  /** onChange enqueues a new pod that names this scheduler, has no node and no scheduling gates. */
  onChange(type: WatchEventType, obj: KubeObject): void {
    if (obj.kind !== 'Pod' || type !== 'ADDED') return;
    const pod = obj as unknown as Pod;
    if (pod.spec?.nodeName || (pod.spec?.schedulerName ?? DEFAULT_SCHEDULER_NAME) !== DEFAULT_SCHEDULER_NAME) return;
    const ref = refOf(pod);
    this.ctx.schedule(0, `kube-scheduler: schedule ${ref}`, () => this.scheduleOne(pod.metadata?.namespace ?? 'default', pod.metadata?.name ?? '', ref));
  }

  private *scheduleOne(namespace: string, name: string, ref: string): Steps<void> {
    const ctx = this.ctx;
    const pod = ctx.store.get<Pod>('Pod', namespace, name);
    if (!pod || pod.spec?.nodeName || pod.metadata?.deletionTimestamp) return;
    const gates = pod.spec?.schedulingGates ?? [];
    yield {
      phase: 'scheduler.queue', object: ref, field: gates.length ? 'spec.schedulingGates' : 'spec.priority',
      result: gates.length ? `held by scheduling gates: ${gates.map((g) => g.name).join(', ')}` : `popped from the active queue (priority ${pod.spec?.priority ?? 0})`,
      detail: { priority: pod.spec?.priority ?? 0, schedulerName: pod.spec?.schedulerName ?? DEFAULT_SCHEDULER_NAME, schedulingGates: gates.map((g) => g.name) },
      outcome: gates.length ? 'waiting' : 'ok',
    };
    if (gates.length) return;
    const nodes = ctx.store.list<Node>('Node');
    const assigned = ctx.store.list<Pod>('Pod').filter((p) => p.spec?.nodeName);
    const snapshot = Snapshot.build(nodes, assigned);
    const result = yield* scheduleCycle({ pod, snapshot, random: ctx.rng, nextStartNodeIndex: this.nextStartNodeIndex, listers: ctx.store });
    this.nextStartNodeIndex = result.nextStartNodeIndex;
    if (result.outcome === ScheduleOutcome.Scheduled && result.suggestedHost) {
      yield* this.bind(pod, ref, result.suggestedHost);
      return;
    }
    const message = result.message ?? '';
    ctx.recorder.event({ type: 'Warning', reason: 'FailedScheduling', object: ref, source: SCHEDULER_COMPONENT, message });
    ctx.store.update<Pod>('Pod', namespace, name, (p) => {
      p.status = { ...p.status, conditions: upsertCondition(p.status?.conditions ?? [], {
        type: 'PodScheduled', status: 'False', lastProbeTime: null as unknown as string, lastTransitionTime: ctx.clock.timestamp(),
        reason: result.reason ?? 'Unschedulable', message,
      }) } as typeof p.status;
    });
  }

  /** bind assumes the pod on the node and posts the binding, as DefaultBinder does, then records Scheduled. */
  private *bind(pod: Pod, ref: string, nodeName: string): Steps<void> {
    const ctx = this.ctx;
    const ns = pod.metadata?.namespace ?? 'default';
    ctx.store.update<Pod>('Pod', ns, pod.metadata?.name ?? '', (p) => {
      p.spec = { ...p.spec!, nodeName };
      p.status = { ...p.status, conditions: upsertCondition(p.status?.conditions ?? [], {
        type: 'PodScheduled', status: 'True', lastProbeTime: null as unknown as string, lastTransitionTime: ctx.clock.timestamp(),
      }) } as typeof p.status;
    });
    // See schedule_one.go (finishBinding): "Successfully assigned %v/%v to %v".
    ctx.recorder.event({ type: 'Normal', reason: 'Scheduled', object: ref, source: SCHEDULER_COMPONENT, message: `Successfully assigned ${ns}/${pod.metadata?.name} to ${nodeName}` });
    yield {
      phase: 'scheduler.bind', object: ref, field: 'spec.nodeName',
      result: `DefaultBinder: POST pods/${pod.metadata?.name}/binding to ${nodeName}`,
      detail: { node: nodeName, binding: { apiVersion: 'v1', kind: 'Binding', metadata: { name: pod.metadata?.name, namespace: ns }, target: { apiVersion: 'v1', kind: 'Node', name: nodeName } } },
    };
  }
}

function upsertCondition(conditions: readonly PodCondition[], condition: PodCondition): PodCondition[] {
  const rest = conditions.filter((c) => c.type !== condition.type);
  return [...rest, condition];
}
