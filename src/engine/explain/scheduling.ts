// What would make a pod schedule: kube-scheduler's filter reasons, each with the source that writes it and the change a
// person would make, read against the attempt's Decision tables and the facts of the nodes. Pure: no I/O, no clock.
import { formatAmount, type NodeFacts, type SchedulingFacts } from './facts';
import type { SchedulingAttempt } from './attempt';
import { ErrReasonConflict as NodeAffinityConflict, ErrReasonPod as NodeAffinityPod } from '../scheduler/plugins/nodeaffinity';
import { ErrReason as NodeNameReason } from '../scheduler/plugins/nodename';
import { ErrReason as NodePortsReason } from '../scheduler/plugins/nodeports';
import { Reason as FitReason } from '../scheduler/plugins/noderesources-fit';
import { ErrReasonUnschedulable } from '../scheduler/plugins/nodeunschedulable';
import { ErrReasonNotMatch as TaintReason } from '../scheduler/plugins/tainttoleration';
import { ERR_NO_NODES_AVAILABLE } from '../scheduler/framework/runner';
import { TAINT_NODE_UNSCHEDULABLE } from '../scheduler/framework/taints';

/** Advice is one change that would get the pod past one reason, with the source of the reason. */
export interface Advice {
  /** reason is the words of the rejection the advice answers. */
  reason: string;
  /** nodes are the nodes rejected for the reason (scheduling advice only). */
  nodes?: string[];
  text: string;
  /** source is the Kubernetes source that writes the reason. */
  source: string;
}

/** AdviceContext is what a rule reads: the reason as written, the nodes it rejected, the attempt and the facts. */
export interface AdviceContext {
  reason: string;
  /** match holds the groups of a pattern rule (`persistentvolumeclaim "(.+)" not found`). */
  match: RegExpMatchArray | null;
  nodes: string[];
  attempt: SchedulingAttempt;
  facts: SchedulingFacts;
}

/** ReasonRule is one row of the reason → advice table. */
export interface ReasonRule {
  /** reason is the plugin's reason string, or a pattern for reasons that carry a name or a resource. */
  reason: string | RegExp;
  plugin: string;
  /** source is where kube-scheduler writes the reason. */
  source: string;
  /** note says what the facts show of one node rejected for the reason (the why-not line). */
  note?: (node: NodeFacts, ctx: AdviceContext) => string | undefined;
  /** advise says the change a person would make. */
  advise: (ctx: AdviceContext) => string;
}

// Reasons of plugins that do not export them here yet (their simulation is being written), in Kubernetes' words.
/** INTER_POD_AFFINITY_REASONS are InterPodAffinity's Filter reasons (interpodaffinity/filtering.go). */
export const INTER_POD_AFFINITY_REASONS = {
  ExistingAntiAffinity: "node(s) didn't satisfy existing pods anti-affinity rules",
  Affinity: "node(s) didn't match pod affinity rules",
  AntiAffinity: "node(s) didn't match pod anti-affinity rules",
} as const;
/** VOLUME_BINDING_REASONS are VolumeBinding's reasons (volumebinding/binder.go and volume_binding.go). */
export const VOLUME_BINDING_REASONS = {
  BindConflict: "node(s) didn't find available persistent volumes to bind",
  NodeConflict: 'node(s) had volume node affinity conflict',
  NotEnoughSpace: 'node(s) did not have enough free storage',
  PVNotExist: 'node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)',
  UnboundImmediate: 'pod has unbound immediate PersistentVolumeClaims',
} as const;
/** TOPOLOGY_SPREAD_REASONS are PodTopologySpread's Filter reasons (podtopologyspread/filtering.go). */
export const TOPOLOGY_SPREAD_REASONS = {
  ConstraintsNotMatch: "node(s) didn't match pod topology spread constraints",
  NodeLabelNotMatch: "node(s) didn't match pod topology spread constraints (missing required label)",
} as const;

const PLUGINS = 'pkg/scheduler/framework/plugins';
const RESOURCE_NAMES: Record<string, string> = {
  [FitReason.InsufficientCPU]: 'cpu', [FitReason.InsufficientMemory]: 'memory', [FitReason.InsufficientEphemeralStorage]: 'ephemeral-storage',
};

const plural = (nodes: readonly string[], one: string, many: string): string => `${nodes.join(', ')} ${nodes.length === 1 ? one : many}`;
const free = (n: NodeFacts, r: string): number => (n.allocatable[r] ?? 0) - (n.requested[r] ?? 0);
const taintText = (t: { key: string; value?: string; effect: string }): string => `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`;

/** resourceOf names the resource of an `Insufficient <resource>` reason. */
function resourceOf(ctx: AdviceContext): string {
  return RESOURCE_NAMES[ctx.reason] ?? ctx.match?.[1] ?? ctx.reason.replace(/^Insufficient /, '');
}

function insufficientNote(n: NodeFacts, ctx: AdviceContext): string {
  const r = resourceOf(ctx);
  const f = (v: number): string => formatAmount(r, v);
  const held = heldFor(ctx.attempt, ctx.nodes[0] ?? '');
  return `${f(Math.max(0, free(n, r)))} of ${f(n.allocatable[r] ?? 0)} ${r} free, ${f(ctx.facts.pod.requests[r] ?? 0)} requested${held ? `; ${held}` : ''}`;
}

/**
 * heldFor says which nominated pods the filters counted on a node as if they ran there (RunFilterPluginsWithNominatedPods:
 * those of the pod's priority or higher), or undefined when none were.
 */
function heldFor(attempt: SchedulingAttempt, node: string): string | undefined {
  const pods = attempt.nominated?.[node];
  if (!pods?.length) return undefined;
  return `${pods.join(', ')} ${pods.length === 1 ? 'is' : 'are'} nominated to it with a priority as high or higher and counted as running there`;
}

/** adviseInsufficient names the request, the most free on a rejected node, and the two ways out. */
function adviseInsufficient(ctx: AdviceContext): string {
  const r = resourceOf(ctx);
  const f = (v: number): string => formatAmount(r, v);
  const want = ctx.facts.pod.requests[r] ?? 0;
  let best: { name: string; node: NodeFacts } | undefined;
  for (const name of ctx.nodes) {
    const node = ctx.facts.nodes[name];
    if (node && (!best || free(node, r) > free(best.node, r))) best = { name, node };
  }
  const asks = `the pod requests ${f(want)} ${r} (${ctx.facts.pod.requestsField})`;
  // Room a preemption made is held for the pods nominated to it until they are bound: lowering the request may not help.
  const held = ctx.nodes.filter((name) => ctx.attempt.nominated?.[name]?.length);
  if (held.length > 0) {
    const pods = [...new Set(held.flatMap((name) => ctx.attempt.nominated![name]!))];
    return `${asks}; the room on ${held.join(', ')} is held for ${pods.join(', ')}, nominated there (after a preemption) with a priority as high or higher: it counts as running there until it is bound. Wait for it, give this pod a higher priority, or add a node with ${f(want)} ${r} free`;
  }
  if (!best) return `${asks}: lower the request, or add a node with ${f(want)} ${r} free`;
  const most = Math.max(0, free(best.node, r));
  const where = `${best.name} (${f(best.node.allocatable[r] ?? 0)} allocatable, ${f(best.node.requested[r] ?? 0)} requested)`;
  if (most === 0) return `${asks}, and no node has any ${r} free (the most is on ${where}): add a node with ${f(want)} ${r} free, or remove pods`;
  return `${asks}; the most free on a node is ${f(most)} on ${where}. Lower the request to ${f(most)} or less, or add a node with ${f(want)} ${r} free`;
}

function adviseTaints(ctx: AdviceContext): string {
  const byTaint = new Map<string, { taint: NonNullable<NodeFacts['untoleratedTaint']>; nodes: string[] }>();
  for (const name of ctx.nodes) {
    const taint = ctx.facts.nodes[name]?.untoleratedTaint;
    if (!taint) continue;
    const key = taintText(taint);
    (byTaint.get(key) ?? byTaint.set(key, { taint, nodes: [] }).get(key)!).nodes.push(name);
  }
  if (byTaint.size === 0) return `add to spec.tolerations a toleration for the taint of ${ctx.nodes.join(', ')} (kubectl describe node ${ctx.nodes[0] ?? ''})`;
  return [...byTaint.values()].map(({ taint, nodes }) => {
    const toleration = taint.value
      ? `{key: ${taint.key}, operator: Equal, value: ${taint.value}, effect: ${taint.effect}}`
      : `{key: ${taint.key}, operator: Exists, effect: ${taint.effect}}`;
    return `${plural(nodes, 'has', 'have')} the taint ${taintText(taint)}: to run there, add to spec.tolerations ${toleration}, or remove the taint (kubectl taint nodes ${nodes[0]} ${taint.key}:${taint.effect}-)`;
  }).join('; ');
}

function nodeAffinityNote(n: NodeFacts): string | undefined {
  const missing = [...n.missingLabels.map((l) => `no label ${l}`), ...n.unmatchedRequirements.map((r) => `fails ${r}`)];
  return missing.length ? missing.join(', ') : undefined;
}

/** adviseNodeAffinity names each label or requirement the rejected nodes lack, and whether any node has it. */
function adviseNodeAffinity(ctx: AdviceContext): string {
  const all = Object.entries(ctx.facts.nodes);
  const lacking = (pick: (n: NodeFacts) => string[]): string[] => [...new Set(ctx.nodes.flatMap((name) => (ctx.facts.nodes[name] ? pick(ctx.facts.nodes[name]!) : [])))];
  const holders = (pick: (n: NodeFacts) => string[], item: string): string[] => all.filter(([, n]) => !pick(n).includes(item)).map(([name]) => name);
  const parts: string[] = [];
  for (const label of lacking((n) => n.missingLabels)) {
    const has = holders((n) => n.missingLabels, label);
    parts.push(has.length === 0
      ? `no node has the label ${label} that spec.nodeSelector asks for: label a node (kubectl label node ${ctx.nodes[0]} ${label}) or remove it from spec.nodeSelector`
      : `spec.nodeSelector asks for ${label}, which only ${has.join(', ')} ${has.length === 1 ? 'has' : 'have'}: label another node or fix the other reasons of those`);
  }
  for (const req of lacking((n) => n.unmatchedRequirements)) {
    const has = holders((n) => n.unmatchedRequirements, req);
    const field = 'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution';
    parts.push(has.length === 0 ? `no node meets ${req} of ${field}: label a node to match, or relax the term` : `only ${has.join(', ')} ${has.length === 1 ? 'meets' : 'meet'} ${req} of ${field}`);
  }
  return parts.length ? parts.join('; ') : 'change spec.nodeSelector or the required node affinity to match the labels of a node (kubectl get nodes --show-labels)';
}

/**
 * REASON_RULES is the reason → advice table, in the plugins' order. A reason with no row gets a generic line naming
 * its plugin column in the filter table.
 */
export const REASON_RULES: readonly ReasonRule[] = [
  { reason: ErrReasonUnschedulable, plugin: 'NodeUnschedulable', source: `${PLUGINS}/nodeunschedulable/node_unschedulable.go`,
    note: () => 'cordoned (spec.unschedulable)',
    advise: (c) => `${plural(c.nodes, 'is', 'are')} cordoned: kubectl uncordon ${c.nodes[0]}, or tolerate ${TAINT_NODE_UNSCHEDULABLE}:NoSchedule` },
  { reason: NodeNameReason, plugin: 'NodeName', source: `${PLUGINS}/nodename/node_name.go`,
    advise: () => 'spec.nodeName names another node: fix it, or remove it and let the scheduler choose' },
  { reason: TaintReason, plugin: 'TaintToleration', source: `${PLUGINS}/tainttoleration/taint_toleration.go`,
    note: (n) => (n.untoleratedTaint ? `taint ${taintText(n.untoleratedTaint)}` : undefined), advise: adviseTaints },
  { reason: NodeAffinityPod, plugin: 'NodeAffinity', source: `${PLUGINS}/nodeaffinity/node_affinity.go`, note: nodeAffinityNote, advise: adviseNodeAffinity },
  { reason: NodeAffinityConflict, plugin: 'NodeAffinity', source: `${PLUGINS}/nodeaffinity/node_affinity.go`,
    advise: () => 'the matchFields on metadata.name of the required node affinity terms name no node in common: fix spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution' },
  { reason: NodePortsReason, plugin: 'NodePorts', source: `${PLUGINS}/nodeports/node_ports.go`,
    advise: (c) => `the hostPort the pod asks for is taken on ${c.nodes.join(', ')}: drop hostPort and expose the pod with a Service, or choose a free port` },
  { reason: FitReason.TooManyPods, plugin: 'NodeResourcesFit', source: `${PLUGINS}/noderesources/fit.go`,
    note: (n) => `${n.pods} of ${n.allocatable.pods ?? 0} pods`,
    advise: (c) => `${plural(c.nodes, 'runs', 'run')} as many pods as their allocatable pods allows: add a node, or remove pods` },
  { reason: /^Insufficient (.+)$/, plugin: 'NodeResourcesFit', source: `${PLUGINS}/noderesources/fit.go`, note: insufficientNote, advise: adviseInsufficient },
  { reason: INTER_POD_AFFINITY_REASONS.AntiAffinity, plugin: 'InterPodAffinity', source: `${PLUGINS}/interpodaffinity/filtering.go`,
    advise: () => 'spec.affinity.podAntiAffinity keeps the pod away from every topology domain that already runs a matching pod: add nodes in new domains (topologyKey), run fewer replicas, or make the rule preferredDuringSchedulingIgnoredDuringExecution' },
  { reason: INTER_POD_AFFINITY_REASONS.Affinity, plugin: 'InterPodAffinity', source: `${PLUGINS}/interpodaffinity/filtering.go`,
    advise: () => 'no topology domain runs a pod that spec.affinity.podAffinity asks to be near: start that pod first, or fix the labelSelector, namespaces or topologyKey' },
  { reason: INTER_POD_AFFINITY_REASONS.ExistingAntiAffinity, plugin: 'InterPodAffinity', source: `${PLUGINS}/interpodaffinity/filtering.go`,
    advise: (c) => `pods already on ${c.nodes.join(', ')} have a required podAntiAffinity that matches this pod's labels: change the pod's labels, or those pods' rules` },
  { reason: TOPOLOGY_SPREAD_REASONS.NodeLabelNotMatch, plugin: 'PodTopologySpread', source: `${PLUGINS}/podtopologyspread/filtering.go`,
    advise: (c) => `${plural(c.nodes, 'lacks', 'lack')} the topologyKey label of spec.topologySpreadConstraints: label the nodes, or change the topologyKey` },
  { reason: TOPOLOGY_SPREAD_REASONS.ConstraintsNotMatch, plugin: 'PodTopologySpread', source: `${PLUGINS}/podtopologyspread/filtering.go`,
    advise: () => 'placing the pod there would exceed maxSkew of spec.topologySpreadConstraints: raise maxSkew, add nodes in the emptier domains, or set whenUnsatisfiable: ScheduleAnyway' },
  { reason: /^persistentvolumeclaim "(.+)" not found$/, plugin: 'VolumeBinding', source: `${PLUGINS}/volumebinding/volume_binding.go`,
    advise: (c) => `create the PersistentVolumeClaim "${c.match?.[1]}" in the pod's namespace (kubectl get pvc), or fix spec.volumes[].persistentVolumeClaim.claimName` },
  { reason: /^persistentvolumeclaim "(.+)" is being deleted$/, plugin: 'VolumeBinding', source: `${PLUGINS}/volumebinding/volume_binding.go`,
    advise: (c) => `the PersistentVolumeClaim "${c.match?.[1]}" is being deleted: recreate it once it is gone, or use another claim` },
  { reason: VOLUME_BINDING_REASONS.UnboundImmediate, plugin: 'VolumeBinding', source: `${PLUGINS}/volumebinding/volume_binding.go`,
    advise: () => 'a claim with volumeBindingMode Immediate is not bound: create a PersistentVolume that matches it, or give its StorageClass a provisioner' },
  { reason: VOLUME_BINDING_REASONS.BindConflict, plugin: 'VolumeBinding', source: `${PLUGINS}/volumebinding/binder.go`,
    advise: () => 'no PersistentVolume matches the claim on these nodes: create one (size, access modes, StorageClass, node affinity)' },
  { reason: VOLUME_BINDING_REASONS.NodeConflict, plugin: 'VolumeBinding', source: `${PLUGINS}/volumebinding/binder.go`,
    advise: (c) => `the bound PersistentVolume's nodeAffinity excludes ${c.nodes.join(', ')}: run the pod where the volume is, or use another volume` },
  { reason: VOLUME_BINDING_REASONS.NotEnoughSpace, plugin: 'VolumeBinding', source: `${PLUGINS}/volumebinding/binder.go`,
    advise: () => 'the storage capacity on these nodes is too small for the claim: ask for less, or add storage' },
  { reason: VOLUME_BINDING_REASONS.PVNotExist, plugin: 'VolumeBinding', source: `${PLUGINS}/volumebinding/binder.go`,
    advise: () => 'a claim is bound to a PersistentVolume that does not exist: recreate the volume, or the claim' },
  { reason: ERR_NO_NODES_AVAILABLE, plugin: '', source: 'pkg/scheduler/schedule_one.go',
    advise: () => 'the cluster has no nodes: add one (a Node in a --cluster file)' },
];

/** ruleFor finds the row of a reason: exact strings first, then patterns. */
export function ruleFor(reason: string): { rule: ReasonRule; match: RegExpMatchArray | null } | undefined {
  const exact = REASON_RULES.find((r) => r.reason === reason);
  if (exact) return { rule: exact, match: null };
  for (const rule of REASON_RULES) {
    const match = typeof rule.reason === 'string' ? null : reason.match(rule.reason);
    if (match) return { rule, match };
  }
  return undefined;
}

/** FAILED_CODES are the filter codes that reject a node. */
const FAILED_CODES: ReadonlySet<string> = new Set(['Unschedulable', 'UnschedulableAndUnresolvable', 'Pending', 'Error']);

/** firstFailure is a node's first rejecting filter plugin and its reasons, in the profile's order. */
export function firstFailure(attempt: SchedulingAttempt, node: string): { plugin: string; code: string; reasons: string[] } | undefined {
  const row = attempt.filter[node] ?? {};
  for (const plugin of attempt.filterPlugins) {
    const cell = row[plugin];
    if (cell && FAILED_CODES.has(cell.code)) return { plugin, code: cell.code, reasons: cell.reasons };
  }
  return undefined;
}

/** rejections groups the reasons of an attempt with the nodes they rejected, in order of first appearance. */
export function rejections(attempt: SchedulingAttempt): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const row of attempt.preFilter) if (FAILED_CODES.has(row.code)) for (const r of row.reasons) out.set(r, []);
  for (const node of attempt.nodes) {
    for (const r of firstFailure(attempt, node)?.reasons ?? []) (out.get(r) ?? out.set(r, []).get(r)!).push(node);
  }
  if (out.size === 0 && attempt.message === ERR_NO_NODES_AVAILABLE) out.set(ERR_NO_NODES_AVAILABLE, []);
  return out;
}

/** noteFor is what the facts add to one node's reason in the why-not line, if the reason's row says anything. */
export function noteFor(reason: string, node: string, attempt: SchedulingAttempt, facts: SchedulingFacts): string | undefined {
  const found = ruleFor(reason);
  const n = facts.nodes[node];
  if (!found?.rule.note || !n) return undefined;
  return found.rule.note(n, { reason, match: found.match, nodes: [node], attempt, facts });
}

/** adviseScheduling gives one Advice per distinct reason of the attempt, from the table. */
export function adviseScheduling(attempt: SchedulingAttempt, facts: SchedulingFacts): Advice[] {
  return [...rejections(attempt)].map(([reason, nodes]) => {
    const found = ruleFor(reason);
    if (!found) {
      return { reason, nodes, text: 'no advice is known for this reason: see its plugin column in the filter table', source: 'pkg/scheduler/framework/plugins' };
    }
    const text = found.rule.advise({ reason, match: found.match, nodes, attempt, facts });
    return { reason, nodes, text, source: found.rule.source };
  });
}
