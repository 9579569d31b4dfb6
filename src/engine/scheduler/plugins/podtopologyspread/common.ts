// What PodTopologySpread's filtering and scoring share: the parsed constraints, the default ones, pod counting.
// See pkg/scheduler/framework/plugins/podtopologyspread/common.go.
import type { TopologySpreadConstraint } from 'kubernetes-types/core/v1';
import { labelSelectorAsSelector, selectorFromSet, selectorMatches, selectorToString, type Labels, type Selector } from '../../../api/labels';
import type { Node, Pod } from '../../../api/types';
import type { Listers } from '../../framework/listers';
import type { NodeInfo } from '../../framework/node-info';
import { doNotScheduleTaint, findMatchingUntoleratedTaint } from '../../framework/taints';
import { getRequiredNodeAffinity, matchRequired, type RequiredNodeAffinity } from '../nodeaffinity';
import { defaultSelector, isEmptySelector } from './default-selector';
import { BoundedCache } from '../../../runtime/bounded-cache';

/** NodeInclusionPolicy says whether a constraint counts only the nodes that pass the pod's node affinity or taints. */
export const NodeInclusionPolicy = {
  Honor: 'Honor',
  Ignore: 'Ignore',
} as const;

/** UnsatisfiableConstraintAction is whenUnsatisfiable: DoNotSchedule filters, ScheduleAnyway scores. */
export const UnsatisfiableConstraintAction = {
  DoNotSchedule: 'DoNotSchedule',
  ScheduleAnyway: 'ScheduleAnyway',
} as const;

/** SpreadConstraint is a topologySpreadConstraint with its selector parsed and its defaults applied. */
export interface SpreadConstraint {
  maxSkew: number;
  topologyKey: string;
  selector: Selector;
  minDomains: number;
  nodeAffinityPolicy: string;
  nodeTaintsPolicy: string;
}

/**
 * filterTopologySpreadConstraints keeps the constraints with this whenUnsatisfiable, parses their selectors (a bad one
 * throws SelectorError) and merges the matchLabelKeys' values of the pod's labels into them. Since 1.34 the API server
 * merges them at creation too; the scheduler still does, and the duplicate requirements change nothing.
 */
export function filterTopologySpreadConstraints(constraints: readonly TopologySpreadConstraint[], podLabels: Labels, action: string): SpreadConstraint[] {
  const result: SpreadConstraint[] = [];
  for (const c of constraints) {
    if (c.whenUnsatisfiable !== action) continue;
    let selector = labelSelectorAsSelector(c.labelSelector);
    if ((c.matchLabelKeys?.length ?? 0) > 0) {
      const matchLabels: Record<string, string> = {};
      for (const key of c.matchLabelKeys ?? []) {
        if (podLabels && Object.hasOwn(podLabels, key)) matchLabels[key] = podLabels[key]!;
      }
      if (Object.keys(matchLabels).length > 0) selector = mergeLabelSetWithSelector(matchLabels, selector);
    }
    result.push({
      maxSkew: c.maxSkew,
      topologyKey: c.topologyKey,
      selector,
      // Nil minDomains counts as 1, nil nodeAffinityPolicy as Honor, nil nodeTaintsPolicy as Ignore.
      minDomains: c.minDomains ?? 1,
      nodeAffinityPolicy: c.nodeAffinityPolicy ?? NodeInclusionPolicy.Honor,
      nodeTaintsPolicy: c.nodeTaintsPolicy ?? NodeInclusionPolicy.Ignore,
    });
  }
  return result;
}

/** mergeLabelSetWithSelector adds the selector's requirements to a selector of the label set; a Nothing selector stays Nothing. */
function mergeLabelSetWithSelector(matchLabels: Record<string, string>, s: Selector): Selector {
  if (s.nothing) return s;
  const merged = selectorFromSet(matchLabels);
  const requirements = [...merged.requirements, ...s.requirements].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { nothing: false, requirements };
}

/**
 * buildDefaultConstraints gives a pod without constraints of its own the default ones with this whenUnsatisfiable,
 * selecting the pods its Services, ReplicationController, ReplicaSet or StatefulSet select; none when nothing selects it.
 */
export function buildDefaultConstraints(pod: Pod, defaults: readonly TopologySpreadConstraint[], action: string, listers: Listers): SpreadConstraint[] {
  const constraints = filterTopologySpreadConstraints(defaults, pod.metadata?.labels, action);
  if (constraints.length === 0) return [];
  const selector = defaultSelector(pod, listers);
  if (isEmptySelector(selector)) return [];
  return constraints.map((c) => ({ ...c, selector }));
}

/** nodeLabelsMatchSpreadConstraints tells whether the node has every constraint's topology key. */
export function nodeLabelsMatchSpreadConstraints(nodeLabels: Labels, constraints: readonly SpreadConstraint[]): boolean {
  return constraints.every((c) => nodeLabels != null && Object.hasOwn(nodeLabels, c.topologyKey));
}

/** matchNodeInclusionPolicies tells whether a node counts for a constraint: its node affinity and taints policies, when Honor. */
export function matchNodeInclusionPolicies(c: SpreadConstraint, pod: Pod, node: Node, required: RequiredNodeAffinity): boolean {
  // Parse errors of the pod's node affinity count as no match, as Go ignores them here.
  if (c.nodeAffinityPolicy === NodeInclusionPolicy.Honor && !matchRequired(required, node)) return false;
  if (c.nodeTaintsPolicy === NodeInclusionPolicy.Honor) {
    if (findMatchingUntoleratedTaint(node.spec?.taints, pod.spec?.tolerations, doNotScheduleTaint) !== undefined) return false;
  }
  return true;
}

/** EVERY_NODE is the inclusion of a pod whose constraints count every node. */
export const EVERY_NODE = (): boolean => true;

/**
 * nodeInclusion prepares matchNodeInclusionPolicies for one pod: a check per constraint that costs nothing when the
 * policies are Ignore or the pod has no node selector or required node affinity to honor.
 */
export function nodeInclusion(pod: Pod, constraints: readonly SpreadConstraint[]): (i: number, node: Node) => boolean {
  const required = getRequiredNodeAffinity(pod);
  const hasRequired = required.labelSelector !== undefined || required.terms !== undefined;
  const needed = constraints.map((c) => (hasRequired && c.nodeAffinityPolicy === NodeInclusionPolicy.Honor) || c.nodeTaintsPolicy === NodeInclusionPolicy.Honor);
  if (!needed.includes(true)) return EVERY_NODE;
  return (i, node) => !needed[i] || matchNodeInclusionPolicies(constraints[i]!, pod, node, required);
}

/** countPodsMatchSelector counts the node's pods of a namespace the selector matches, leaving out terminating ones (#87621). */
export function countPodsMatchSelector(nodeInfo: NodeInfo, selector: Selector, namespace: string): number {
  if (isEmptySelector(selector)) return 0;
  return countPodsForKey(nodeInfo, countKey(selector, namespace), selector, namespace);
}

/** countPodsForKey is countPodsMatchSelector for a non-empty selector whose count key the caller already has. */
export function countPodsForKey(nodeInfo: NodeInfo, key: string, selector: Selector, namespace: string): number {
  return nodeInfo.countedFor(key) ?? nodeInfo.keepCount(key, countMatching(nodeInfo, selector, namespace));
}

/** COUNT_KEYS keeps, per selector and namespace, the key its counts are kept under: made once, not once per node. */
const COUNT_KEYS = new WeakMap<Selector, Map<string, string>>();

export function countKey(selector: Selector, namespace: string): string {
  let keys = COUNT_KEYS.get(selector);
  if (!keys) COUNT_KEYS.set(selector, (keys = new Map()));
  let key = keys.get(namespace);
  if (key === undefined) keys.set(namespace, (key = internCountKey(`${namespace}\u0000${selectorToString(selector)}`)));
  return key;
}

/**
 * COUNT_KEY_TEXTS holds one string per distinct count key. The default constraints build a new selector each cycle, so
 * without it each cycle's key would be a new string, and comparing it with a node's kept key would compare every
 * character instead of one reference. Bounded: cleared when it grows past what a cluster's workloads need.
 */
const COUNT_KEY_TEXTS = new BoundedCache<string, string>(4096);

function internCountKey(text: string): string {
  return COUNT_KEY_TEXTS.get(text, sameText);
}

const sameText = (text: string): string => text;

function countMatching(nodeInfo: NodeInfo, selector: Selector, namespace: string): number {
  let count = 0;
  // Only the pods with the selector's label values can match: the node's label index finds them.
  for (const pi of nodeInfo.podsMatching(selector)) {
    const meta = pi.pod.metadata;
    if (meta?.deletionTimestamp || (meta?.namespace ?? '') !== namespace) continue;
    if (selectorMatches(selector, meta?.labels)) count++;
  }
  return count;
}

/** labelValue is a node's value of a label, undefined when the node does not have it. */
export function labelValue(node: Node, key: string): string | undefined {
  const labels = node.metadata?.labels;
  if (labels == null) return undefined;
  // A label's value is a string; what an object inherits (constructor, __proto__) is not, so this is Object.hasOwn.
  const value: unknown = labels[key];
  return typeof value === 'string' ? value : undefined;
}
