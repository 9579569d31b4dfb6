// A small framework for the preemption tests: NodeResourcesFit as the only filter, as default_preemption_test.go registers
// it, a seeded or fixed random source for the candidate offset, and PodDisruptionBudgets through the listers.
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1';
import type { KubeObject, Node, Pod } from '../../../src/engine/api/types';
import { Random } from '../../../src/engine/runtime/random';
import { CycleState } from '../../../src/engine/scheduler/framework/cycle-state';
import { NodeToStatus } from '../../../src/engine/scheduler/framework/diagnosis';
import { Framework } from '../../../src/engine/scheduler/framework/framework';
import { listersOf } from '../../../src/engine/scheduler/framework/listers';
import type { NodeInfo, PodInfo } from '../../../src/engine/scheduler/framework/node-info';
import type { Profile } from '../../../src/engine/scheduler/framework/profile';
import { Snapshot } from '../../../src/engine/scheduler/framework/snapshot';
import { Code, newStatus, type PluginStatus } from '../../../src/engine/scheduler/framework/status';
import { IN_TREE_REGISTRY } from '../../../src/engine/scheduler/plugins/registry';

/** RES are default_preemption_test.go's request sizes. */
export const RES = {
  small: { cpu: '100m', memory: '100' },
  medium: { cpu: '200m', memory: '200' },
  large: { cpu: '300m', memory: '300' },
  veryLarge: { cpu: '500m', memory: '500' },
} as const;

/** PRIORITY are default_preemption_test.go's priorities. */
export const PRIORITY = { neg: -100, low: 0, mid: 100, high: 1000, veryHigh: 10000 } as const;

const FIT_PROFILE: Profile = {
  schedulerName: 'default-scheduler',
  multiPoint: [{ name: 'PrioritySort' }, { name: 'NodeResourcesFit' }, { name: 'DefaultBinder' }],
};

/** FixedRandom hands out the given intn results in turn (the candidate offsets), then 0. */
export class FixedRandom extends Random {
  private readonly values: number[];

  constructor(values: readonly number[]) {
    super(0);
    this.values = [...values];
  }

  override intn(n: number): number {
    return Math.min(this.values.shift() ?? 0, n - 1);
  }
}

/**
 * TestPluginFramework is the framework plus the PreFilter extensions of default_preemption_test.go's TestPlugin: on a
 * node labelled error=true, removing or adding a pod fails.
 */
export class TestPluginFramework extends Framework {
  runPreFilterExtensionRemovePod(_state: CycleState, podToSchedule: Pod, _pi: PodInfo, nodeInfo: NodeInfo): PluginStatus {
    return this.fails(nodeInfo) ? newStatus(Code.Error, `running RemovePod on PreFilter plugin "test-plugin": failed to remove pod: ${podToSchedule.metadata?.name}`) : null;
  }

  runPreFilterExtensionAddPod(_state: CycleState, podToSchedule: Pod, _pi: PodInfo, nodeInfo: NodeInfo): PluginStatus {
    return this.fails(nodeInfo) ? newStatus(Code.Error, `running AddPod on PreFilter plugin "test-plugin": failed to add pod: ${podToSchedule.metadata?.name}`) : null;
  }

  private fails(nodeInfo: NodeInfo): boolean {
    return nodeInfo.node.metadata?.labels?.['error'] === 'true';
  }
}

/** Cycle is a framework with its cycle started and the preemptor's PreFilter run. */
export interface Cycle {
  fw: Framework;
  state: CycleState;
  snapshot: Snapshot;
}

/** startCycle builds the framework on the nodes and pods, starts a cycle and runs the preemptor's PreFilter. */
export function startCycle(
  pod: Pod, nodes: Node[], pods: Pod[], opts: { pdbs?: PodDisruptionBudget[]; offsets?: number[]; testPlugin?: boolean } = {},
): Cycle {
  const fw = opts.testPlugin ? new TestPluginFramework(IN_TREE_REGISTRY, FIT_PROFILE) : new Framework(IN_TREE_REGISTRY, FIT_PROFILE);
  const snapshot = Snapshot.build(nodes, pods);
  fw.startCycle(snapshot, opts.offsets ? new FixedRandom(opts.offsets) : new Random(1), listersOf((opts.pdbs ?? []) as unknown as KubeObject[]));
  const state = new CycleState();
  fw.runPreFilterPlugins(state, pod, snapshot.nodeInfoList);
  return { fw, state, snapshot };
}

/** nodeStatuses builds the filters' verdicts: a code per listed node, UnschedulableAndUnresolvable for the rest. */
export function nodeStatuses(codes: Record<string, Code>, absent: Code = Code.UnschedulableAndUnresolvable): NodeToStatus {
  const m = new NodeToStatus();
  for (const [node, code] of Object.entries(codes)) m.set(node, newStatus(code));
  m.setAbsentNodesStatus(newStatus(absent));
  return m;
}
