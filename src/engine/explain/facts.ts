// The facts an explanation of a scheduling attempt needs beside its Decision tables: the pod's requests and selectors,
// each node's free resources, untolerated taint and missing labels — all computed by the scheduler's own code.
import type { NodeSelectorRequirement } from 'kubernetes-types/core/v1';
import { requirementMatches, selectorFromSet } from '../api/labels';
import { matchNodeSelectorTerms } from '../api/node-selector';
import { fromMilli, fromValue } from '../api/quantity';
import type { KubeObject, Node, Pod, Taint } from '../api/types';
import { Snapshot } from '../scheduler/framework/snapshot';
import { ResourceName, type Resource } from '../scheduler/framework/resource';
import { doNotScheduleTaint, findMatchingUntoleratedTaint } from '../scheduler/framework/taints';
import { computePodResourceRequest, resourcesFieldPath } from '../scheduler/plugins/noderesources-fit';

/** Amounts maps a resource name to an amount in the scheduler's units: milli-cpu, bytes, pod slots, extended units. */
export type Amounts = Record<string, number>;

/** PodFacts is what the explanation reads from the pod. */
export interface PodFacts {
  /** requests is the pod's effective request, as NodeResourcesFit computes it. */
  requests: Amounts;
  /** requestsField is the manifest field that holds the requests. */
  requestsField: string;
  nodeSelector: Record<string, string>;
  /** requiredAffinity tells whether the pod has required node affinity terms. */
  requiredAffinity: boolean;
  schedulingGates: string[];
  schedulerName: string;
}

/** NodeFacts is what the explanation reads from one node at the time of the attempt. */
export interface NodeFacts {
  allocatable: Amounts;
  /** requested is the sum of the requests of the pods assigned to the node. */
  requested: Amounts;
  pods: number;
  /** untoleratedTaint is the first NoSchedule/NoExecute taint the pod does not tolerate (TaintToleration's own search). */
  untoleratedTaint?: Taint;
  unschedulable: boolean;
  /** missingLabels are the pod's nodeSelector pairs the node lacks, as `key=value`. */
  missingLabels: string[];
  /** unmatchedRequirements are the required node affinity expressions the node fails, as `key Operator [values]`. */
  unmatchedRequirements: string[];
}

/** SchedulingFacts are the pod's and the nodes' facts, nodes by name. */
export interface SchedulingFacts {
  pod: PodFacts;
  nodes: Record<string, NodeFacts>;
}

/** amountsOf turns a scheduler Resource into named amounts. */
export function amountsOf(r: Resource, withPods: boolean): Amounts {
  const out: Amounts = { [ResourceName.CPU]: r.milliCPU, [ResourceName.Memory]: r.memory, [ResourceName.EphemeralStorage]: r.ephemeralStorage };
  if (withPods) out[ResourceName.Pods] = r.allowedPodNumber;
  for (const [name, v] of r.scalar) out[name] = v;
  return out;
}

/** formatAmount prints an amount as a Kubernetes quantity: `3750m` or `4` cpu, `64Mi` memory, plain counts otherwise. */
export function formatAmount(resource: string, amount: number): string {
  if (resource === ResourceName.CPU) return fromMilli(amount).toString();
  if (resource === ResourceName.Memory || resource === ResourceName.EphemeralStorage || resource.startsWith('hugepages-')) return fromValue(amount, 'BinarySI').toString();
  return String(amount);
}

/** podFacts reads the pod's requests, selectors and scheduling fields. */
export function podFacts(pod: Pod): PodFacts {
  const spec = pod.spec;
  return {
    requests: amountsOf(computePodResourceRequest(pod), false),
    requestsField: resourcesFieldPath(pod),
    nodeSelector: { ...(spec?.nodeSelector ?? {}) },
    requiredAffinity: spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution !== undefined,
    schedulingGates: (spec?.schedulingGates ?? []).map((g) => g.name),
    schedulerName: spec?.schedulerName ?? 'default-scheduler',
  };
}

/** requirementText prints a node selector requirement as `key Operator [values]`. */
export function requirementText(r: NodeSelectorRequirement): string {
  return r.values && r.values.length > 0 ? `${r.key} ${r.operator} [${r.values.join(', ')}]` : `${r.key} ${r.operator}`;
}

function missingLabels(pod: Pod, node: Node): string[] {
  const selector = selectorFromSet(pod.spec?.nodeSelector ?? {});
  return selector.requirements.filter((r) => !requirementMatches(r, node.metadata?.labels)).map((r) => `${r.key}=${r.values[0] ?? ''}`);
}

function unmatchedRequirements(pod: Pod, node: Node): string[] {
  const terms = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  const out: string[] = [];
  for (const term of terms) {
    for (const expr of term.matchExpressions ?? []) {
      if (!matchNodeSelectorTerms(node, [{ matchExpressions: [expr] }]).matches) out.push(requirementText(expr));
    }
    for (const field of term.matchFields ?? []) {
      if (!matchNodeSelectorTerms(node, [{ matchFields: [field] }]).matches) out.push(requirementText(field));
    }
  }
  return out;
}

/**
 * schedulingFacts computes the facts of a pod on the cluster as `objects` hold it (the store at the attempt): the
 * scheduler's Snapshot of the nodes and their assigned pods, without the pod itself.
 */
export function schedulingFacts(pod: Pod, objects: readonly KubeObject[]): SchedulingFacts {
  const nodes = objects.filter((o) => o.kind === 'Node') as unknown as Node[];
  const uid = pod.metadata?.uid;
  const assigned = (objects.filter((o) => o.kind === 'Pod') as unknown as Pod[]).filter((p) => p.spec?.nodeName && (uid === undefined || p.metadata?.uid !== uid));
  const snapshot = Snapshot.build(nodes, assigned);
  const out: Record<string, NodeFacts> = {};
  for (const ni of snapshot.nodeInfoList) {
    const taint = findMatchingUntoleratedTaint(ni.node.spec?.taints, pod.spec?.tolerations, doNotScheduleTaint);
    out[ni.name] = {
      allocatable: amountsOf(ni.allocatable, true),
      requested: amountsOf(ni.requested, false),
      pods: ni.pods.length,
      ...(taint ? { untoleratedTaint: taint } : {}),
      unschedulable: ni.node.spec?.unschedulable === true,
      missingLabels: missingLabels(pod, ni.node),
      unmatchedRequirements: unmatchedRequirements(pod, ni.node),
    };
  }
  return { pod: podFacts(pod), nodes: out };
}
