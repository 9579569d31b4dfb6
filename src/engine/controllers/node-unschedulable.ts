// The node lifecycle controller's NoSchedule tainting pass for a cordoned node: a node with spec.unschedulable gets the
// node.kubernetes.io/unschedulable:NoSchedule taint (timeAdded now), and loses it once uncordoned. The pass also maps
// node conditions to taints; the engine's node lifecycle controller taints an unreachable node itself
// (node-lifecycle.ts), so this pass keeps to the unschedulable taint. See
// pkg/controller/nodelifecycle/node_lifecycle_controller.go (doNoScheduleTaintingPass) and
// pkg/controller/util/node/controller_utils.go (SwapNodeControllerTaint) at v1.36.3.
import type { Node, Taint } from '../api/types';
import type { EngineContext } from '../context';
import type { Steps } from '../runtime/step';

/** TAINT_NODE_UNSCHEDULABLE is v1.TaintNodeUnschedulable. */
export const TAINT_NODE_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';

const hasTaint = (node: Node): boolean => (node.spec?.taints ?? []).some((t) => t.key === TAINT_NODE_UNSCHEDULABLE && t.effect === 'NoSchedule');

/** unschedulableTaintOutOfStep tells whether the node's unschedulable taint disagrees with spec.unschedulable. */
export function unschedulableTaintOutOfStep(node: Node): boolean {
  return (node.spec?.unschedulable === true) !== hasTaint(node);
}

/** syncUnschedulableTaint is the pass for one node: the taint added or removed, as spec.unschedulable says. */
export function* syncUnschedulableTaint(ctx: EngineContext, nodeName: string): Steps<void> {
  const node = ctx.store.get<Node>('Node', undefined, nodeName);
  if (!node || !unschedulableTaintOutOfStep(node)) return;
  const cordoned = node.spec?.unschedulable === true;
  const updated = ctx.store.update<Node>('Node', undefined, nodeName, (n) => {
    const kept = (n.spec?.taints ?? []).filter((t) => !(t.key === TAINT_NODE_UNSCHEDULABLE && t.effect === 'NoSchedule'));
    const taints: Taint[] = cordoned ? [...kept, { key: TAINT_NODE_UNSCHEDULABLE, effect: 'NoSchedule', timeAdded: ctx.clock.timestamp() }] : kept;
    const { taints: _old, ...spec } = n.spec ?? {};
    n.spec = taints.length > 0 ? { ...spec, taints } : spec;
  });
  yield {
    phase: 'controllers.nodeLifecycle', object: `Node/${nodeName}`, field: 'spec.taints',
    result: cordoned ? `${nodeName} is cordoned (spec.unschedulable): tainted ${TAINT_NODE_UNSCHEDULABLE}:NoSchedule` : `${nodeName} is schedulable again: the ${TAINT_NODE_UNSCHEDULABLE}:NoSchedule taint is removed`,
    detail: { taints: updated?.spec?.taints ?? [] },
  };
}
