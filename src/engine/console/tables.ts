// The columns `kubectl get` prints for each kind, as the server-side table printers define them.
// See pkg/printers/internalversion/printers.go (AddHandlers, printPod, printNode, printEvent, ...).
import type { KubeObject, Node, Pod } from '../api/types';
import { since } from './duration';
import type { CoreEvent } from './events';
import { podRow } from './pod-row';

/** Table is a header and rows of cells, before the tab writer aligns them. */
export interface Table {
  header: string[];
  rows: string[][];
}

type Printer = (objs: readonly KubeObject[], nowMs: number, wide: boolean) => Table;

const age = (o: KubeObject, nowMs: number) => since(o.metadata?.creationTimestamp, nowMs);
const get = (o: unknown, path: string): unknown => path.split('.').reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), o);
const num = (o: unknown, path: string): string => String(Number(get(o, path) ?? 0));

function printPods(objs: readonly KubeObject[], nowMs: number, wide: boolean): Table {
  const header = ['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE', ...(wide ? ['IP', 'NODE', 'NOMINATED NODE', 'READINESS GATES'] : [])];
  const rows = objs.map((o) => {
    const r = podRow(o as Pod, nowMs);
    return [r.name, r.ready, r.status, r.restarts, r.age, ...(wide ? [r.ip, r.node, r.nominatedNode, r.readinessGates] : [])];
  });
  return { header, rows };
}

/** nodeRoles are the roles of node-role.kubernetes.io/<role> labels and a kubernetes.io/role label, sorted. */
export function nodeRoles(node: Node): string[] {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(node.metadata?.labels ?? {})) {
    if (k.startsWith('node-role.kubernetes.io/') && k.length > 'node-role.kubernetes.io/'.length) roles.add(k.slice('node-role.kubernetes.io/'.length));
    else if (k === 'kubernetes.io/role' && v !== '') roles.add(v);
  }
  return [...roles].sort();
}

/** nodeStatus is printNode's STATUS: Ready or NotReady (Unknown without the condition), SchedulingDisabled when cordoned. */
export function nodeStatus(node: Node): string {
  const ready = node.status?.conditions?.find((c) => c.type === 'Ready');
  const status = [ready ? (ready.status === 'True' ? 'Ready' : 'NotReady') : 'Unknown'];
  if (node.spec?.unschedulable) status.push('SchedulingDisabled');
  return status.join(',');
}

function printNodes(objs: readonly KubeObject[], nowMs: number, wide: boolean): Table {
  const header = ['NAME', 'STATUS', 'ROLES', 'AGE', 'VERSION', ...(wide ? ['INTERNAL-IP', 'EXTERNAL-IP', 'OS-IMAGE', 'KERNEL-VERSION', 'CONTAINER-RUNTIME'] : [])];
  const rows = objs.map((o) => {
    const n = o as Node;
    const info = n.status?.nodeInfo;
    const address = (type: string) => n.status?.addresses?.find((a) => a.type === type)?.address ?? '<none>';
    const roles = nodeRoles(n).join(',') || '<none>';
    return [n.metadata?.name ?? '', nodeStatus(n), roles, age(o, nowMs), info?.kubeletVersion ?? '',
      ...(wide ? [address('InternalIP'), address('ExternalIP'), info?.osImage || '<unknown>', info?.kernelVersion || '<unknown>', info?.containerRuntimeVersion || '<unknown>'] : [])];
  });
  return { header, rows };
}

function printEvents(objs: readonly KubeObject[], nowMs: number, wide: boolean): Table {
  const header = wide ? ['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'SUBOBJECT', 'SOURCE', 'MESSAGE', 'FIRST SEEN', 'COUNT', 'NAME'] : ['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE'];
  const rows = objs.map((o) => {
    const e = o as unknown as CoreEvent;
    const first = since(e.firstTimestamp, nowMs);
    const last = e.lastTimestamp ? since(e.lastTimestamp, nowMs) : first;
    const target = e.involvedObject.name ? `${e.involvedObject.kind.toLowerCase()}/${e.involvedObject.name}` : e.involvedObject.kind.toLowerCase();
    const source = e.source.host ? `${e.source.component}, ${e.source.host}` : e.source.component;
    // -o wide's SUBOBJECT is involvedObject.fieldPath (printers.go printEvent, v1.36.3); the default columns leave it out.
    return wide ? [last, e.type, e.reason, target, e.involvedObject.fieldPath ?? '', source, e.message.trim(), first, String(e.count || 1), e.metadata.name] : [last, e.type, e.reason, target, e.message.trim()];
  });
  return { header, rows };
}

const simple = (columns: string[], cells: (o: KubeObject, nowMs: number) => string[]): Printer => (objs, nowMs) => ({
  header: ['NAME', ...columns], rows: objs.map((o) => [o.metadata?.name ?? '', ...cells(o, nowMs)]),
});

const containerCells = (o: KubeObject): string[] => {
  const cs = (get(o, 'spec.template.spec.containers') as { name: string; image?: string }[] | undefined) ?? [];
  return [cs.map((c) => c.name).join(','), cs.map((c) => c.image ?? '').join(',')];
};

const selectorText = (sel: unknown): string => {
  const s = sel as { matchLabels?: Record<string, string>; matchExpressions?: { key: string; operator: string; values?: string[] }[] } | undefined;
  if (!s) return '<none>';
  const parts = Object.keys(s.matchLabels ?? {}).sort().map((k) => `${k}=${s.matchLabels![k]}`);
  for (const e of s.matchExpressions ?? []) {
    const vals = [...(e.values ?? [])].sort().join(',');
    parts.push(e.operator === 'In' ? `${e.key} in (${vals})` : e.operator === 'NotIn' ? `${e.key} notin (${vals})` : e.operator === 'Exists' ? e.key : `!${e.key}`);
  }
  return parts.length ? parts.join(',') : '<none>';
};

/** PRINTERS holds a table printer per kind; kinds without one print NAME and AGE. */
const PRINTERS: Readonly<Record<string, Printer>> = {
  Pod: printPods,
  Node: printNodes,
  Event: printEvents,
  Namespace: simple(['STATUS', 'AGE'], (o, now) => [String(get(o, 'status.phase') ?? ''), age(o, now)]),
  ServiceAccount: simple(['SECRETS', 'AGE'], (o, now) => [String((get(o, 'secrets') as unknown[] | undefined)?.length ?? 0), age(o, now)]),
  ConfigMap: simple(['DATA', 'AGE'], (o, now) => [String(Object.keys((get(o, 'data') as object | undefined) ?? {}).length + Object.keys((get(o, 'binaryData') as object | undefined) ?? {}).length), age(o, now)]),
  Secret: simple(['TYPE', 'DATA', 'AGE'], (o, now) => [String(get(o, 'type') ?? ''), String(Object.keys((get(o, 'data') as object | undefined) ?? {}).length), age(o, now)]),
  Service: (objs, now, wide) => ({
    header: ['NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE', ...(wide ? ['SELECTOR'] : [])],
    rows: objs.map((o) => {
      const ports = ((get(o, 'spec.ports') as { port: number; nodePort?: number; protocol?: string }[] | undefined) ?? []).map((p) => (p.nodePort ? `${p.port}:${p.nodePort}/${p.protocol ?? 'TCP'}` : `${p.port}/${p.protocol ?? 'TCP'}`)).join(',');
      const external = (get(o, 'spec.externalIPs') as string[] | undefined)?.join(',') || '<none>';
      const selector = Object.entries((get(o, 'spec.selector') as Record<string, string> | undefined) ?? {}).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => `${k}=${v}`).join(',') || '<none>';
      return [o.metadata?.name ?? '', String(get(o, 'spec.type') ?? 'ClusterIP'), String(get(o, 'spec.clusterIP') || '<none>'), external, ports || '<none>', age(o, now), ...(wide ? [selector] : [])];
    }),
  }),
  Deployment: (objs, now, wide) => ({
    header: ['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE', ...(wide ? ['CONTAINERS', 'IMAGES', 'SELECTOR'] : [])],
    rows: objs.map((o) => [o.metadata?.name ?? '', `${num(o, 'status.readyReplicas')}/${num(o, 'spec.replicas')}`, num(o, 'status.updatedReplicas'), num(o, 'status.availableReplicas'), age(o, now),
      ...(wide ? [...containerCells(o), selectorText(get(o, 'spec.selector'))] : [])]),
  }),
  ReplicaSet: (objs, now, wide) => ({
    header: ['NAME', 'DESIRED', 'CURRENT', 'READY', 'AGE', ...(wide ? ['CONTAINERS', 'IMAGES', 'SELECTOR'] : [])],
    rows: objs.map((o) => [o.metadata?.name ?? '', num(o, 'spec.replicas'), num(o, 'status.replicas'), num(o, 'status.readyReplicas'), age(o, now),
      ...(wide ? [...containerCells(o), selectorText(get(o, 'spec.selector'))] : [])]),
  }),
  Role: simple(['CREATED AT'], (o) => [String(o.metadata?.creationTimestamp ?? '')]),
  ClusterRole: simple(['CREATED AT'], (o) => [String(o.metadata?.creationTimestamp ?? '')]),
  RoleBinding: simple(['ROLE', 'AGE'], (o, now) => [`${get(o, 'roleRef.kind')}/${get(o, 'roleRef.name')}`, age(o, now)]),
  ClusterRoleBinding: simple(['ROLE', 'AGE'], (o, now) => [`${get(o, 'roleRef.kind')}/${get(o, 'roleRef.name')}`, age(o, now)]),
  // printPodDisruptionBudget: an IntOrString as its String(), N/A when unset.
  PodDisruptionBudget: simple(['MIN AVAILABLE', 'MAX UNAVAILABLE', 'ALLOWED DISRUPTIONS', 'AGE'], (o, now) => [
    String(get(o, 'spec.minAvailable') ?? 'N/A'), String(get(o, 'spec.maxUnavailable') ?? 'N/A'), num(o, 'status.disruptionsAllowed'), age(o, now),
  ]),
  PriorityClass: simple(['VALUE', 'GLOBAL-DEFAULT', 'AGE', 'PREEMPTIONPOLICY'], (o, now) => [num(o, 'value'), String(get(o, 'globalDefault') ?? false), age(o, now), String(get(o, 'preemptionPolicy') ?? 'PreemptLowerPriority')]),
};

/** printTable builds the table for objects of one kind. */
export function printTable(kind: string, objs: readonly KubeObject[], nowMs: number, wide: boolean): Table {
  return (PRINTERS[kind] ?? simple(['AGE'], (o, now) => [age(o, now)]))(objs, nowMs, wide);
}
