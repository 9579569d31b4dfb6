// The table printers of core/v1 kinds about pods, nodes and configuration: Pod, Node, Event, Namespace, ConfigMap,
// Secret, ServiceAccount, ResourceQuota. See pkg/printers/internalversion/printers.go (AddHandlers, printPod, ...).
import type { KubeObject, Node, Pod } from '../api/types';
import type { ConfigMap, Event, Namespace, ResourceQuota, Secret } from 'kubernetes-types/core/v1';
import { podColumns } from '../kubectl/printer';
import { quantityString, translateTimestampSince } from './format';
import { AGE_COLUMN, columns, NAME_COLUMN, type PrintHandler, type TableRowCondition } from './types';

const name = (o: KubeObject) => o.metadata?.name ?? '';
const age = (o: KubeObject, nowMs: number) => translateTimestampSince(o.metadata?.creationTimestamp, nowMs);

// podSuccessConditions and podFailedConditions (printers.go): the row condition of a pod in a terminal phase.
const POD_SUCCEEDED: TableRowCondition[] = [{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' }];
const POD_FAILED: TableRowCondition[] = [{ type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' }];

/**
 * printPod: READY, STATUS and RESTARTS are podColumns (kubectl/printer.ts); the wide cells are the first pod IP, the
 * node, the nominated node (`<none>` when empty) and READINESS GATES, the True conditions of the gates' types.
 */
const POD: PrintHandler = {
  columns: columns(
    NAME_COLUMN,
    { name: 'Ready', description: 'The aggregate readiness state of this pod for accepting traffic.' },
    { name: 'Status', description: 'The aggregate status of the containers in this pod.' },
    { name: 'Restarts', description: 'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.' },
    AGE_COLUMN,
    { name: 'IP', priority: 1, doc: 'corev1.PodStatus.podIP' },
    { name: 'Node', priority: 1, doc: 'corev1.PodSpec.nodeName' },
    { name: 'Nominated Node', priority: 1, doc: 'corev1.PodStatus.nominatedNodeName' },
    { name: 'Readiness Gates', priority: 1, doc: 'corev1.PodSpec.readinessGates' },
  ),
  print: (o, nowMs) => {
    const pod = o as Pod;
    const status = pod.status ?? {};
    const { ready, status: reason, restarts } = podColumns(pod, nowMs);
    let readinessGates = '<none>';
    const gates = pod.spec?.readinessGates ?? [];
    if (gates.length > 0) {
      const trueConditions = gates.filter((g) => (status.conditions ?? []).find((c) => c.type === g.conditionType)?.status === 'True').length;
      readinessGates = `${trueConditions}/${gates.length}`;
    }
    const conditions = status.phase === 'Succeeded' ? POD_SUCCEEDED : status.phase === 'Failed' ? POD_FAILED : undefined;
    return {
      cells: [name(o), ready, reason, restarts, age(o, nowMs), status.podIPs?.[0]?.ip || '<none>', pod.spec?.nodeName || '<none>', status.nominatedNodeName || '<none>', readinessGates],
      ...(conditions ? { conditions } : {}),
    };
  },
};

/** nodeRoles is findNodeRoles: the roles of node-role.kubernetes.io/<role> labels and a kubernetes.io/role label, sorted. */
export function nodeRoles(node: Node): string[] {
  const prefix = 'node-role.kubernetes.io/';
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(node.metadata?.labels ?? {})) {
    if (k.startsWith(prefix)) {
      if (k.length > prefix.length) roles.add(k.slice(prefix.length));
    } else if (k === 'kubernetes.io/role' && v !== '') roles.add(v);
  }
  return [...roles].sort();
}

/** nodeStatus is printNode's STATUS: Ready or NotReady (Unknown without the condition), SchedulingDisabled when cordoned. */
export function nodeStatus(node: Node): string {
  // conditionMap keeps the last condition of each type.
  const ready = (node.status?.conditions ?? []).filter((c) => c.type === 'Ready').at(-1);
  const status = [ready ? (ready.status === 'True' ? 'Ready' : 'NotReady') : 'Unknown'];
  if (node.spec?.unschedulable) status.push('SchedulingDisabled');
  return status.join(',');
}

/** printNode: the wide KERNEL-VERSION carries the architecture in parentheses when the node reports one. */
const NODE: PrintHandler = {
  columns: columns(
    NAME_COLUMN,
    { name: 'Status', description: 'The status of the node' },
    { name: 'Roles', description: 'The roles of the node' },
    AGE_COLUMN,
    { name: 'Version', doc: 'corev1.NodeSystemInfo.kubeletVersion' },
    { name: 'Internal-IP', priority: 1, doc: 'corev1.NodeStatus.addresses' },
    { name: 'External-IP', priority: 1, doc: 'corev1.NodeStatus.addresses' },
    { name: 'OS-Image', priority: 1, doc: 'corev1.NodeSystemInfo.osImage' },
    { name: 'Kernel-Version', priority: 1, doc: 'corev1.NodeSystemInfo.kernelVersion' },
    { name: 'Container-Runtime', priority: 1, doc: 'corev1.NodeSystemInfo.containerRuntimeVersion' },
  ),
  print: (o, nowMs) => {
    const node = o as Node;
    const info = node.status?.nodeInfo;
    const address = (type: string) => node.status?.addresses?.find((a) => a.type === type)?.address ?? '<none>';
    let kernelVersion = info?.kernelVersion || '<unknown>';
    if (info?.architecture) kernelVersion += ` (${info.architecture})`;
    return {
      cells: [name(o), nodeStatus(node), nodeRoles(node).join(',') || '<none>', age(o, nowMs), info?.kubeletVersion ?? '',
        address('InternalIP'), address('ExternalIP'), info?.osImage || '<unknown>', kernelVersion, info?.containerRuntimeVersion || '<unknown>'],
    };
  },
};

/**
 * printEvent: LAST SEEN is the last timestamp (the first when unset; a series' last observation), FIRST SEEN the
 * first timestamp (the eventTime when unset); COUNT the count (a series' count; 1 when unset); SOURCE the source or
 * the reporting controller and instance (formatEventSource).
 */
const EVENT: PrintHandler = {
  columns: columns(
    { name: 'Last Seen', doc: 'corev1.Event.lastTimestamp' },
    { name: 'Type', doc: 'corev1.Event.type' },
    { name: 'Reason', doc: 'corev1.Event.reason' },
    { name: 'Object', doc: 'corev1.Event.involvedObject' },
    { name: 'Subobject', priority: 1, doc: 'corev1.ObjectReference.fieldPath' },
    { name: 'Source', priority: 1, doc: 'corev1.Event.source' },
    { name: 'Message', doc: 'corev1.Event.message' },
    { name: 'First Seen', priority: 1, doc: 'corev1.Event.firstTimestamp' },
    { name: 'Count', priority: 1, doc: 'corev1.Event.count' },
    { ...NAME_COLUMN, priority: 1 },
  ),
  print: (o, nowMs) => {
    const e = o as unknown as Event;
    const firstTimestamp = e.firstTimestamp ? translateTimestampSince(e.firstTimestamp, nowMs) : translateTimestampSince(e.eventTime, nowMs);
    let lastTimestamp = e.lastTimestamp ? translateTimestampSince(e.lastTimestamp, nowMs) : firstTimestamp;
    let count = e.count ?? 0;
    if (e.series) {
      lastTimestamp = translateTimestampSince(e.series.lastObservedTime, nowMs);
      count = e.series.count ?? 0;
    } else if (count === 0) count = 1;
    const involved = e.involvedObject;
    const kind = (involved.kind ?? '').toLowerCase();
    const target = involved.name ? `${kind}/${involved.name}` : kind;
    const component = e.source?.component || e.reportingComponent || '';
    const instance = e.source?.host || e.reportingInstance || '';
    const source = instance ? `${component}, ${instance}` : component;
    return { cells: [lastTimestamp, e.type ?? '', e.reason ?? '', target, involved.fieldPath ?? '', source, (e.message ?? '').trim(), firstTimestamp, count, name(o)] };
  },
};

// printNamespace
const NAMESPACE: PrintHandler = {
  columns: columns(NAME_COLUMN, { name: 'Status', description: 'The status of the namespace' }, AGE_COLUMN),
  print: (o, nowMs) => ({ cells: [name(o), (o as Namespace).status?.phase ?? '', age(o, nowMs)] }),
};

// printConfigMap: DATA counts data and binaryData.
const CONFIG_MAP: PrintHandler = {
  columns: columns(NAME_COLUMN, { name: 'Data', doc: 'corev1.ConfigMap.data' }, AGE_COLUMN),
  print: (o, nowMs) => {
    const cm = o as unknown as ConfigMap;
    return { cells: [name(o), Object.keys(cm.data ?? {}).length + Object.keys(cm.binaryData ?? {}).length, age(o, nowMs)] };
  },
};

// printSecret
const SECRET: PrintHandler = {
  columns: columns(NAME_COLUMN, { name: 'Type', doc: 'corev1.Secret.type' }, { name: 'Data', doc: 'corev1.Secret.data' }, AGE_COLUMN),
  print: (o, nowMs) => {
    const s = o as unknown as Secret;
    return { cells: [name(o), s.type ?? '', Object.keys(s.data ?? {}).length, age(o, nowMs)] };
  },
};

// printServiceAccount: no SECRETS column.
const SERVICE_ACCOUNT: PrintHandler = {
  columns: columns(NAME_COLUMN, AGE_COLUMN),
  print: (o, nowMs) => ({ cells: [name(o), age(o, nowMs)] }),
};

/**
 * printResourceQuota: each hard resource in name order as `name: used/hard` (used "0" when unreported), `limits.*`
 * ones in LIMIT, the rest in REQUEST.
 */
const RESOURCE_QUOTA: PrintHandler = {
  columns: columns(
    NAME_COLUMN,
    { name: 'Request', description: 'Request represents a minimum amount of cpu/memory that a container may consume.' },
    { name: 'Limit', description: 'Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.' },
    AGE_COLUMN,
  ),
  print: (o, nowMs) => {
    const rq = o as unknown as ResourceQuota;
    const hard = rq.status?.hard ?? {};
    const request: string[] = [], limit: string[] = [];
    for (const resource of Object.keys(hard).sort()) {
      const pieces = resource.split('.');
      const w = pieces.length > 1 && pieces[0] === 'limits' ? limit : request;
      w.push(`${resource}: ${quantityString(rq.status?.used?.[resource])}/${quantityString(hard[resource])}`);
    }
    return { cells: [name(o), request.join(', '), limit.join(', '), age(o, nowMs)] };
  },
};

/** CORE_PRINTERS are this file's handlers by kind. */
export const CORE_PRINTERS: Readonly<Record<string, PrintHandler>> = {
  Pod: POD, Node: NODE, Event: EVENT, Namespace: NAMESPACE, ConfigMap: CONFIG_MAP, Secret: SECRET,
  ServiceAccount: SERVICE_ACCOUNT, ResourceQuota: RESOURCE_QUOTA,
};
