// The state tree's model: what the panel shows at one moment of a run, built from the stored objects and the
// trace. Pure and JSON-safe, so the debug adapter can send it and the page can render it without the engine.
import type { KubeObject, Node, Pod, Taint } from '../engine/api/types';
import { refOf } from '../engine/api/types';
import type { KubeEvent, TraceEntry } from '../engine/runtime/recorder';
import { podStatusColumn } from '../engine/kubectl/printer';
import { jobColumns } from '../engine/kubectl/job-printer';
import { podRequests, resourceListOf } from '../engine/scheduler/framework/pod-resources';
import { watchesAt } from '../engine/report/watches';
import { type Decision, type DecisionCell, type NodeView, STATE_VIEW_VERSION, type StateView, type TimelineItem, type TreeItem } from './view';

export type { Decision, NodeView, StateView, TimelineItem, TreeItem, WatchesView } from './view';

/** StateInput is what a view is built from: the stored objects at that moment and the history up to it. */
export interface StateInput {
  objects: readonly KubeObject[];
  trace: readonly TraceEntry[];
  events: readonly KubeEvent[];
  /** statusOf prints a pod's STATUS column; by default as `kubectl get pods` prints it. */
  statusOf?: (pod: Pod) => string;
  /** timelineLimit keeps the last items of the timeline (default 200), so a long run stays light. */
  timelineLimit?: number;
  /** watches asks for the informers' watches at the end of `trace` (a run with --watches). */
  watches?: boolean;
}

const WORKLOAD_KINDS = ['Deployment', 'ReplicaSet', 'ReplicationController', 'Job', 'CronJob', 'StatefulSet', 'DaemonSet', 'Pod'];

/** buildStateView builds the view at the end of `trace`. */
export function buildStateView(input: StateInput): StateView {
  const last = input.trace.at(-1);
  const lastPhaseOf = new Map<string, string>();
  for (const t of input.trace) if (t.object) lastPhaseOf.set(t.object, t.phase);
  const statusOf = input.statusOf ?? podStatusColumn;
  const byUid = new Map<string, KubeObject>();
  for (const o of input.objects) if (WORKLOAD_KINDS.includes(String(o.kind)) && o.metadata?.uid) byUid.set(o.metadata.uid, o);
  const children = new Map<string, KubeObject[]>();
  const roots: KubeObject[] = [];
  for (const o of byUid.values()) {
    const owner = o.metadata?.ownerReferences?.find((r) => r.controller && byUid.has(r.uid));
    if (owner) children.set(owner.uid, [...(children.get(owner.uid) ?? []), o]);
    else roots.push(o);
  }
  // An autoscaler stands beside its target, as its first child.
  const autoscalers = new Map<string, KubeObject[]>();
  for (const o of input.objects) {
    if (o.kind !== 'HorizontalPodAutoscaler') continue;
    const target = (o['spec'] as { scaleTargetRef?: { kind?: string; name?: string } } | undefined)?.scaleTargetRef;
    const key = `${target?.kind}/${o.metadata?.namespace ?? 'default'}/${target?.name}`;
    autoscalers.set(key, [...(autoscalers.get(key) ?? []), o]);
  }
  const claims = new Map<string, KubeObject>();
  for (const o of input.objects) if (o.kind === 'PersistentVolumeClaim') claims.set(`${o.metadata?.namespace}/${o.metadata?.name}`, o);
  const item = (o: KubeObject): TreeItem => {
    const ref = refOf(o);
    const kids = [...(autoscalers.get(ref) ?? []).map(autoscalerItem), ...(children.get(o.metadata?.uid ?? '') ?? []).sort(byName).map(item)];
    if (o.kind === 'Pod') kids.push(...claimItems(o as Pod, claims), ...containerItems(o as Pod, ref));
    const { status, tone } = o.kind === 'Pod' ? podStatus(o as Pod, statusOf) : workloadStatus(o);
    const phase = lastPhaseOf.get(ref);
    return { id: ref, kind: String(o.kind), name: o.metadata?.name ?? '', ref, status, tone, ...(phase ? { phase } : {}), field: 'metadata.name', children: kids };
  };
  const view: StateView = {
    version: STATE_VIEW_VERSION,
    at: last?.at ?? 0,
    seq: last?.seq ?? 0,
    ...(last ? { phase: last.phase } : {}),
    ...(last?.object ? { current: last.object } : {}),
    workloads: roots.sort(byName).map(item),
    nodes: nodeViews(input.objects),
    timeline: timeline(input, input.timelineLimit ?? 200),
  };
  const decision = decisionOf(input.trace);
  if (decision) view.decision = decision;
  // The informers told anything; the quiet ones counted (a big cluster has three for each kubelet).
  const watches = input.watches ? watchesAt(input.trace, input.trace.length - 1, 'busy') : undefined;
  if (watches) view.watches = watches;
  return view;
}

/**
 * autoscalerItem is a HorizontalPodAutoscaler under its target: its metrics against their targets and its replicas, as
 * `kubectl get hpa` shows TARGETS and REPLICAS (printers.go printHorizontalPodAutoscaler), warning when it cannot scale.
 */
function autoscalerItem(o: KubeObject): TreeItem {
  const ref = refOf(o);
  type Value = { value?: string; averageValue?: string; averageUtilization?: number };
  type Source = { name?: string; metric?: { name?: string }; target?: Value; current?: Value };
  // Each metric reads from its source's field: resource, containerResource, pods, object or external.
  const sourceOf = (m: Record<string, unknown> | undefined): Source | undefined => {
    const field = ({ Resource: 'resource', ContainerResource: 'containerResource', Pods: 'pods', Object: 'object', External: 'external' } as Record<string, string>)[String(m?.['type'] ?? 'Resource')];
    return field ? (m?.[field] as Source | undefined) : undefined;
  };
  const spec = (o['spec'] ?? {}) as { minReplicas?: number; maxReplicas?: number; metrics?: Record<string, unknown>[] };
  const status = (o['status'] ?? {}) as { currentReplicas?: number; currentMetrics?: Record<string, unknown>[]; conditions?: { type: string; status: string; reason?: string }[] };
  const targets = (spec.metrics ?? []).map((m, i) => {
    const source = sourceOf(m);
    const now = sourceOf(status.currentMetrics?.[i])?.current;
    const want = source?.target;
    const current = want?.averageUtilization !== undefined ? (now?.averageUtilization !== undefined ? `${now.averageUtilization}%` : '<unknown>') : now?.averageValue ?? now?.value ?? '<unknown>';
    return `${source?.name ?? source?.metric?.name ?? 'metric'}: ${current}/${want?.averageUtilization !== undefined ? `${want.averageUtilization}%` : want?.averageValue ?? want?.value ?? '?'}`;
  });
  const stuck = status.conditions?.find((c) => (c.type === 'ScalingActive' || c.type === 'AbleToScale') && c.status === 'False');
  const text = `${targets.join(', ')}${targets.length ? ', ' : ''}${status.currentReplicas ?? 0} replicas (${spec.minReplicas ?? 1}–${spec.maxReplicas ?? 0})${stuck ? `, ${stuck.reason}` : ''}`;
  return { id: ref, kind: 'HorizontalPodAutoscaler', name: o.metadata?.name ?? '', ref, status: text, tone: stuck ? 'warn' : 'ok', field: 'spec.metrics', children: [] };
}

/** byName orders by name with numbers as numbers: a StatefulSet's web-2 before web-10. */
function byName(a: KubeObject, b: KubeObject): number {
  return (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? '', 'en', { numeric: true });
}

/** claimItems are the PersistentVolumeClaims a pod mounts (a StatefulSet's from its claim templates), with their phase. */
function claimItems(pod: Pod, claims: ReadonlyMap<string, KubeObject>): TreeItem[] {
  return (pod.spec?.volumes ?? []).flatMap((v, i) => {
    const name = v.persistentVolumeClaim?.claimName;
    if (!name) return [];
    const claim = claims.get(`${pod.metadata?.namespace}/${name}`);
    const phase = (claim?.['status'] as { phase?: string } | undefined)?.phase ?? (claim ? 'Pending' : 'not found');
    const ref = claim ? refOf(claim) : refOf(pod);
    return [{ id: `${refOf(pod)}#claim:${name}`, kind: 'PersistentVolumeClaim', name, ref, status: phase, tone: phase === 'Bound' ? 'ok' : phase === 'Lost' || !claim ? 'error' : 'warn', field: `spec.volumes[${i}]`, children: [] } as TreeItem];
  });
}

function containerItems(pod: Pod, ref: string): TreeItem[] {
  const statuses = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])];
  const specs = [
    ...(pod.spec?.initContainers ?? []).map((c, i) => ({ c, field: `spec.initContainers[${i}]`, kind: 'InitContainer' })),
    ...(pod.spec?.containers ?? []).map((c, i) => ({ c, field: `spec.containers[${i}]`, kind: 'Container' })),
  ];
  return specs.map(({ c, field, kind }) => {
    const s = statuses.find((x) => x.name === c.name);
    let status = 'Waiting';
    let tone: TreeItem['tone'] = 'warn';
    if (s?.state?.running) { status = s.ready ? 'Running, Ready' : 'Running'; tone = s.ready ? 'ok' : 'warn'; }
    else if (s?.state?.terminated) { status = `Terminated: ${s.state.terminated.reason ?? ''} (exit ${s.state.terminated.exitCode})`; tone = s.state.terminated.exitCode === 0 ? 'idle' : 'error'; }
    else if (s?.state?.waiting?.reason) { status = s.state.waiting.reason; tone = /Err|BackOff|Error/.test(status) ? 'error' : 'warn'; }
    if (s && s.restartCount > 0) status += `, ${s.restartCount} restart${s.restartCount === 1 ? '' : 's'}`;
    return { id: `${ref}#${c.name}`, kind, name: c.name, ref, status, tone, field, children: [] };
  });
}

function podStatus(pod: Pod, statusOf: (pod: Pod) => string): { status: string; tone: TreeItem['tone'] } {
  const status = statusOf(pod);
  const ready = pod.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True';
  if (pod.metadata?.deletionTimestamp) return { status, tone: 'idle' };
  if (pod.status?.phase === 'Failed' || /Err|BackOff|Error|OOM|Unknown/.test(status)) return { status, tone: 'error' };
  if (pod.status?.phase === 'Succeeded') return { status, tone: 'idle' };
  return { status, tone: pod.status?.phase === 'Running' && ready ? 'ok' : 'warn' };
}

function workloadStatus(o: KubeObject): { status: string; tone: TreeItem['tone'] } {
  const spec = (o['spec'] ?? {}) as { replicas?: number };
  const status = (o['status'] ?? {}) as { readyReplicas?: number };
  if (o.kind === 'Job') {
    // kubectl get jobs: STATUS and COMPLETIONS (printers.go printJob).
    const cols = jobColumns(o, 0);
    return { status: `${cols.status} ${cols.completions}`, tone: cols.status === 'Failed' || cols.status === 'FailureTarget' ? 'error' : cols.status === 'Complete' ? 'idle' : 'warn' };
  }
  if (o.kind === 'DaemonSet') {
    // One pod per node it fits: READY of DESIRED (printers.go printDaemonSet).
    const ds = (o['status'] ?? {}) as { desiredNumberScheduled?: number; numberReady?: number };
    const want = ds.desiredNumberScheduled ?? 0;
    const ready = ds.numberReady ?? 0;
    return { status: `${ready}/${want} ready`, tone: ready >= want ? 'ok' : 'warn' };
  }
  if (o.kind === 'CronJob') {
    // SUSPEND, ACTIVE and LAST SCHEDULE (printers.go printCronJob).
    const cj = (o['status'] ?? {}) as { active?: unknown[]; lastScheduleTime?: string };
    const suspended = (o['spec'] as { suspend?: boolean } | undefined)?.suspend === true;
    return { status: `${suspended ? 'suspended, ' : ''}${cj.active?.length ?? 0} active${cj.lastScheduleTime ? `, last scheduled ${cj.lastScheduleTime}` : ''}`, tone: suspended ? 'idle' : 'ok' };
  }
  const want = spec.replicas ?? 1;
  const ready = status.readyReplicas ?? 0;
  return { status: `${ready}/${want} ready`, tone: ready >= want ? 'ok' : 'warn' };
}

function nodeViews(objects: readonly KubeObject[]): NodeView[] {
  const pods = objects.filter((o): o is KubeObject & Pod => o.kind === 'Pod') as Pod[];
  return objects.filter((o) => o.kind === 'Node').map((o) => {
    const node = o as Node;
    const name = node.metadata?.name ?? '';
    const mine = pods.filter((p) => p.spec?.nodeName === name && p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed');
    const requested = new Map<string, number>();
    for (const p of mine) for (const [k, v] of podRequests(p)) requested.set(k, (requested.get(k) ?? 0) + v);
    requested.set('pods', mine.length * 1000);
    const allocatable = resourceListOf(node.status?.allocatable as Record<string, string> | undefined);
    const resources = ['cpu', 'memory', 'pods'].map((r) => {
      const want = requested.get(r) ?? 0;
      const have = allocatable.get(r) ?? 0;
      return { name: r, requested: formatAmount(r, want), allocatable: formatAmount(r, have), percent: have > 0 ? Math.round((want / have) * 100) : 0 };
    });
    return {
      name, ref: refOf(node), ready: node.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True',
      taints: (node.spec?.taints ?? []).map(taintText), resources, pods: mine.map((p) => p.metadata?.name ?? '').sort(),
    };
  }).sort((a, b) => a.name.localeCompare(b.name));
}

/** taintText prints a taint as kubectl taint takes it: key=value:Effect. */
export function taintText(t: Taint): string {
  return `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`;
}

/** formatAmount prints a milli-valued amount: cpu in millicores, memory in Mi, counts as they are. */
function formatAmount(resource: string, milli: number): string {
  if (resource === 'cpu') return milli % 1000 === 0 ? String(milli / 1000) : `${milli}m`;
  if (resource === 'memory') return `${Math.round(milli / 1000 / 1024 / 1024)}Mi`;
  return String(Math.round(milli / 1000));
}

type NodeVerdicts = Record<string, { code?: string; reasons?: string[]; normalized?: number; weighted?: number }>;

/** decisionOf is the last scheduling cycle's table: its Score stage when it got there, else its Filter stage. */
function decisionOf(trace: readonly TraceEntry[]): Decision | undefined {
  let start = lastIndex(trace, (t) => t.phase === 'scheduler.filter' && !t.step);
  if (start < 0) start = lastIndex(trace, (t) => t.phase === 'scheduler.filter');
  if (start < 0) return undefined;
  const pod = trace[start]!.object ?? '';
  const cycle = trace.slice(start).filter((t) => t.object === pod && (t.phase === 'scheduler.filter' || t.phase === 'scheduler.score'));
  const scored = cycle.filter((t) => t.phase === 'scheduler.score' && t.step?.kind === 'plugin');
  const stage: Decision['stage'] = scored.length ? 'Score' : 'Filter';
  const rows = stage === 'Score' ? scored : cycle.filter((t) => t.phase === 'scheduler.filter' && t.step?.kind === 'plugin');
  const nodes = new Set<string>();
  const cells: Decision['cells'] = {};
  const plugins: string[] = [];
  for (const t of rows) {
    const plugin = t.step?.name ?? '';
    const verdicts = ((t.detail as { nodes?: NodeVerdicts } | undefined)?.nodes ?? {}) as NodeVerdicts;
    plugins.push(plugin);
    cells[plugin] = {};
    for (const [node, v] of Object.entries(verdicts)) {
      nodes.add(node);
      cells[plugin]![node] = stage === 'Score' ? { text: String(v.weighted ?? 0), tone: 'ok' } : filterCell(v);
    }
  }
  // A plugin whose PreScore or PreFilter skipped it has no per-node entries: every node shows it skipped.
  for (const t of rows) {
    const row = cells[t.step?.name ?? '']!;
    if (Object.keys(row).length === 0) for (const node of nodes) row[node] = { text: 'skip', tone: 'idle' };
  }
  const decision: Decision = { pod, stage, plugins, nodes: [...nodes].sort(), cells };
  const summary = cycle.find((t) => t.phase === 'scheduler.score' && !t.step)?.detail as { totals?: Record<string, number>; chosen?: string } | undefined;
  if (summary?.totals) decision.totals = summary.totals;
  if (summary?.chosen) decision.chosen = summary.chosen;
  return decision;
}

function lastIndex<T>(list: readonly T[], test: (item: T) => boolean): number {
  for (let i = list.length - 1; i >= 0; i--) if (test(list[i]!)) return i;
  return -1;
}

function filterCell(v: { code?: string; reasons?: string[] }): DecisionCell {
  switch (v.code) {
    case 'Success': return { text: 'pass', tone: 'ok' };
    case 'Skip': return { text: 'skip', tone: 'idle' };
    case 'NotRun': return { text: '—', tone: 'idle' };
    default: return { text: (v.reasons ?? []).join('; ') || v.code || '?', tone: 'error' };
  }
}

function timeline(input: StateInput, limit: number): TimelineItem[] {
  const items: TimelineItem[] = [];
  let previous = '';
  for (const t of input.trace) {
    // One row per phase an object enters; its sub-steps are in the debugger's stack.
    const key = `${t.phase} ${t.object ?? ''}`;
    if (key === previous) continue;
    previous = key;
    items.push({ at: t.at, seq: t.seq, kind: 'phase', label: t.phase, object: t.object ?? '', text: t.result, tone: t.outcome === 'failed' || t.outcome === 'rejected' ? 'error' : t.outcome === 'waiting' ? 'warn' : 'ok' });
  }
  const end = input.trace.at(-1)?.at ?? Infinity;
  for (const e of input.events) {
    if (e.at > end) continue;
    items.push({ at: e.at, kind: 'event', label: e.reason, object: e.object, text: e.message, tone: e.type === 'Warning' ? 'warn' : 'ok' });
  }
  items.sort((a, b) => a.at - b.at || (a.seq ?? Infinity) - (b.seq ?? Infinity));
  return items.slice(-limit);
}
