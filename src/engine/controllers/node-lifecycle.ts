// The node lifecycle controller: a node whose kubelet stopped renewing its lease turns Unknown after the node
// monitor grace period; its pods lose Ready and it gets the unreachable NoSchedule and NoExecute taints.
// See pkg/controller/nodelifecycle/node_lifecycle_controller.go (monitorNodeHealth, tryUpdateNodeHealth,
// doNoScheduleTaintingPass, doNoExecuteTaintingPass) and pkg/controller/util/node/controller_utils.go
// (MarkPodsNotReady, RecordNodeStatusChange).
import type { Node, NodeStatus, Pod, PodCondition, Taint } from '../api/types';
import { refOf } from '../api/types';
import type { EngineContext } from '../context';
import type { Millis } from '../runtime/clock';
import type { Steps } from '../runtime/step';

/** NODE_CONTROLLER is the event source (and service account) of the node lifecycle controller. */
export const NODE_CONTROLLER = 'node-controller';

/**
 * NODE_MONITOR_GRACE_PERIOD_SECONDS is --node-monitor-grace-period: 50 s since Kubernetes 1.32 (it was 40 s), set in
 * pkg/controller/nodelifecycle/config/v1alpha1/defaults.go (RecommendedDefaultNodeLifecycleControllerConfiguration)
 * by kubernetes/kubernetes#126287; #127352, which asked for more, was closed without a change.
 */
export const NODE_MONITOR_GRACE_PERIOD_SECONDS = 50;

/**
 * NODE_MONITOR_PERIOD_SECONDS is --node-monitor-period: how often monitorNodeHealth runs (5 s). See
 * SetDefaults_KubeCloudSharedConfiguration (staging/src/k8s.io/cloud-provider/config/v1alpha1/defaults.go).
 */
export const NODE_MONITOR_PERIOD_SECONDS = 5;

/**
 * LEASE_RENEW_INTERVAL_SECONDS is how often a kubelet renews its node Lease: a quarter of the 40 s lease duration.
 * See pkg/kubelet/kubelet.go (nodeLeaseRenewIntervalFraction 0.25) and the kubelet's nodeLeaseDurationSeconds.
 */
export const LEASE_RENEW_INTERVAL_SECONDS = 10;

/** UNREACHABLE_TAINT_KEY is v1.TaintNodeUnreachable, put on a node whose Ready condition is Unknown. */
export const UNREACHABLE_TAINT_KEY = 'node.kubernetes.io/unreachable';

/** The conditions the controller turns Unknown; NetworkUnavailable is left alone ("managed on a control plane level"). */
const UNKNOWN_CONDITIONS = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'];

/**
 * lastHeartbeatAt is the last lease renewal of a kubelet that stops at downAt: renewals every 10 s while it runs;
 * a kubelet down from the start was last heard at the start (when the controller first saw the node).
 */
export function lastHeartbeatAt(downAt: Millis): Millis {
  const interval = LEASE_RENEW_INTERVAL_SECONDS * 1000;
  return downAt <= 0 ? 0 : (Math.ceil(downAt / interval) - 1) * interval;
}

/** unknownAt is the first monitor pass strictly after the last heartbeat plus the grace period (tryUpdateNodeHealth: now.After(probeTimestamp + grace)). */
export function unknownAt(lastHeartbeat: Millis): Millis {
  const period = NODE_MONITOR_PERIOD_SECONDS * 1000;
  return (Math.floor((lastHeartbeat + NODE_MONITOR_GRACE_PERIOD_SECONDS * 1000) / period) + 1) * period;
}

/** watchNode plans the controller's reaction to one node whose kubelet the Behavior stops. */
export function watchNode(ctx: EngineContext, nodeName: string, onTainted: (node: Node) => void): void {
  const behavior = ctx.behavior.nodes[nodeName];
  if (behavior?.kubelet !== 'down') return;
  const downAt = (behavior.downAfterSeconds ?? 0) * 1000;
  const heartbeat = lastHeartbeatAt(downAt);
  ctx.schedule(downAt, `node ${nodeName}: the kubelet stops`, () => kubeletStops(ctx, nodeName, downAt, heartbeat));
  ctx.schedule(unknownAt(heartbeat), `node-lifecycle-controller: monitor ${nodeName}`, () => markUnknown(ctx, nodeName, heartbeat, onTainted));
}

function* kubeletStops(ctx: EngineContext, nodeName: string, downAt: Millis, heartbeat: Millis): Steps<void> {
  yield {
    phase: 'kubelet.status', object: `Node/${nodeName}`,
    result: `the kubelet of ${nodeName} is down${downAt > 0 ? '' : ' from the start'}: no more lease renewals or status updates (last lease renewal at ${heartbeat / 1000}s)`,
    detail: { node: nodeName, lastHeartbeatSeconds: heartbeat / 1000, leaseRenewIntervalSeconds: LEASE_RENEW_INTERVAL_SECONDS },
  };
}

function* markUnknown(ctx: EngineContext, nodeName: string, heartbeat: Millis, onTainted: (node: Node) => void): Steps<void> {
  const node = ctx.store.get<Node>('Node', undefined, nodeName);
  if (!node) return;
  const ref = `Node/${nodeName}`;
  const now = ctx.clock.timestamp();
  const wasReady = node.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True';
  const updated = ctx.store.update<Node>('Node', undefined, nodeName, (n) => {
    const status: NodeStatus = { ...(n.status ?? {}) };
    const conditions = [...(status.conditions ?? [])];
    for (const type of UNKNOWN_CONDITIONS) {
      const i = conditions.findIndex((c) => c.type === type);
      if (i < 0) {
        conditions.push({ type, status: 'Unknown', reason: 'NodeStatusNeverUpdated', message: 'Kubelet never posted node status.', lastTransitionTime: now });
      } else if (conditions[i]!.status !== 'Unknown') {
        conditions[i] = { ...conditions[i]!, status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.', lastTransitionTime: now };
      }
    }
    n.status = { ...status, conditions };
  })!;
  yield {
    phase: 'controllers.nodeLifecycle', object: ref, field: 'status.conditions',
    result: `no heartbeat from ${nodeName} since ${heartbeat / 1000}s, more than the node monitor grace period of ${NODE_MONITOR_GRACE_PERIOD_SECONDS}s: Ready, MemoryPressure, DiskPressure and PIDPressure are Unknown (NodeStatusUnknown: Kubelet stopped posting node status.)`,
    detail: { lastHeartbeatSeconds: heartbeat / 1000, nodeMonitorGracePeriodSeconds: NODE_MONITOR_GRACE_PERIOD_SECONDS, nodeMonitorPeriodSeconds: NODE_MONITOR_PERIOD_SECONDS, conditions: updated.status?.conditions },
  };
  if (wasReady) {
    // RecordNodeStatusChange: reported once, when Ready leaves True.
    ctx.recorder.event({ type: 'Normal', reason: 'NodeNotReady', object: ref, source: NODE_CONTROLLER, message: `Node ${nodeName} status is now: NodeNotReady` });
    yield* markPodsNotReady(ctx, nodeName);
  }
  const taints = updated.spec?.taints ?? [];
  const add: Taint[] = (['NoSchedule', 'NoExecute'] as const)
    .filter((effect) => !taints.some((t) => t.key === UNREACHABLE_TAINT_KEY && t.effect === effect))
    .map((effect) => ({ key: UNREACHABLE_TAINT_KEY, effect, timeAdded: now }));
  if (add.length === 0) return;
  const tainted = ctx.store.update<Node>('Node', undefined, nodeName, (n) => {
    n.spec = { ...(n.spec ?? {}), taints: [...(n.spec?.taints ?? []), ...add] };
  })!;
  yield {
    phase: 'controllers.nodeLifecycle', object: ref, field: 'spec.taints',
    result: `tainted ${nodeName} ${add.map((t) => `${t.key}:${t.effect}`).join(' and ')} (the NoSchedule pass on the node update, the NoExecute pass within 100ms)`,
    detail: { taints: tainted.spec?.taints },
  };
  onTainted(tainted);
}

/** markPodsNotReady sets Ready False on every pod of the node that has it, with a Warning NodeNotReady event on each. */
function* markPodsNotReady(ctx: EngineContext, nodeName: string): Steps<void> {
  for (const pod of ctx.store.list<Pod>('Pod').filter((p) => p.spec?.nodeName === nodeName)) {
    const ready = pod.status?.conditions?.find((c) => c.type === 'Ready');
    if (!ready || ready.status === 'False') continue;
    const meta = pod.metadata ?? {};
    const now = ctx.clock.timestamp();
    ctx.store.update<Pod>('Pod', meta.namespace, meta.name ?? '', (p) => {
      const conditions = (p.status?.conditions ?? []).map((c): PodCondition => (c.type === 'Ready' ? { ...c, status: 'False', lastTransitionTime: now } : c));
      p.status = { ...(p.status ?? {}), conditions };
    });
    const ref = refOf(pod);
    ctx.recorder.event({ type: 'Warning', reason: 'NodeNotReady', object: ref, source: NODE_CONTROLLER, message: 'Node is not ready' });
    yield {
      phase: 'controllers.nodeLifecycle', object: ref, field: 'status.conditions', step: { kind: 'object', name: `Node/${nodeName}` },
      result: `node ${nodeName} is not ready: the pod's Ready condition is now False (MarkPodsNotReady)`, detail: { node: nodeName },
    };
  }
}
