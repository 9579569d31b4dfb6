// `kubectl describe node`: describeNode's layout and the node's resource table.
// See staging/src/k8s.io/kubectl/pkg/describe/describe.go (describeNode, describeNodeLease, describeNodeResource).
import { fromMilli, parseQuantity, type QuantityFormat } from '../api/quantity';
import type { Node, Pod } from '../api/types';
import { podRequests } from '../scheduler/framework/pod-resources';
import type { Simulation } from '../simulation';
import { checkAccess, credentialsOf, requestUser } from './auth';
import { PrefixWriter, printAnnotationsMultiline, printLabelsMultiline, quantityString } from './describe-common';
import { rfc1123z, since } from './duration';
import { type CoreEvent, withEvents } from './events';
import { nodeRoles } from '../printers/core';

/** describeNode prints a node as kubectl describe node does, with the pods on it and its events. */
export function describeNode(sim: Simulation, node: Node, events: readonly CoreEvent[], nowMs: number): string {
  const w = new PrefixWriter();
  const status = node.status ?? {};
  const info = status.nodeInfo;
  w.write(0, `Name:\t${node.metadata?.name ?? ''}\n`);
  w.write(0, `Roles:\t${nodeRoles(node).join(',') || '<none>'}\n`);
  printLabelsMultiline(w, 'Labels', node.metadata?.labels);
  printAnnotationsMultiline(w, 'Annotations', node.metadata?.annotations);
  w.write(0, `CreationTimestamp:\t${rfc1123z(node.metadata?.creationTimestamp)}\n`);
  const taints = [...(node.spec?.taints ?? [])].sort((a, b) => (`${a.effect},${a.key}` < `${b.effect},${b.key}` ? -1 : 1));
  w.write(0, 'Taints:\t');
  if (taints.length === 0) w.writeLine('<none>');
  taints.forEach((t, i) => {
    if (i !== 0) w.write(0, '\t');
    // Taint.ToString: key=value:effect, key:effect without a value.
    w.write(0, `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}\n`);
  });
  w.write(0, `Unschedulable:\t${node.spec?.unschedulable === true}\n`);
  // The kubelet's lease in kube-node-lease: the simulated kubelet renews it with each heartbeat of its Ready condition.
  const heartbeat = status.conditions?.find((c) => c.type === 'Ready')?.lastHeartbeatTime;
  w.write(0, 'Lease:\n');
  w.write(1, `HolderIdentity:\t${node.metadata?.name ?? ''}\n`);
  w.write(1, 'AcquireTime:\t<unset>\n');
  w.write(1, `RenewTime:\t${heartbeat ? rfc1123z(heartbeat) : '<unset>'}\n`);
  if (status.conditions?.length) {
    w.write(0, 'Conditions:\n  Type\tStatus\tLastHeartbeatTime\tLastTransitionTime\tReason\tMessage\n');
    w.write(1, '----\t------\t-----------------\t------------------\t------\t-------\n');
    for (const c of status.conditions) {
      w.write(1, `${c.type} \t${c.status} \t${rfc1123z(c.lastHeartbeatTime)} \t${rfc1123z(c.lastTransitionTime)} \t${c.reason ?? ''} \t${c.message ?? ''}\n`);
    }
  }
  w.write(0, 'Addresses:\n');
  for (const a of status.addresses ?? []) w.write(1, `${a.type}:\t${a.address}\n`);
  for (const [title, list] of [['Capacity', status.capacity], ['Allocatable', status.allocatable]] as const) {
    const names = Object.keys(list ?? {}).sort();
    if (names.length === 0) continue;
    w.write(0, `${title}:\n`);
    for (const n of names) w.write(0, `  ${n}:\t${quantityString(list![n])}\n`);
  }
  w.write(0, 'System Info:\n');
  const sys: [string, string | undefined][] = [
    ['Machine ID', info?.machineID], ['System UUID', info?.systemUUID], ['Boot ID', info?.bootID], ['Kernel Version', info?.kernelVersion],
    ['OS Image', info?.osImage], ['Operating System', info?.operatingSystem], ['Architecture', info?.architecture],
    ['Container Runtime Version', info?.containerRuntimeVersion], ['Kubelet Version', info?.kubeletVersion], ['Kube-Proxy Version', info?.kubeProxyVersion],
  ];
  for (const [k, v] of sys) w.write(0, `  ${k}:\t${v ?? ''}\n`);
  if (node.spec?.podCIDR) w.write(0, `PodCIDR:\t${node.spec.podCIDR}\n`);
  if (node.spec?.podCIDRs?.length) w.write(0, `PodCIDRs:\t${node.spec.podCIDRs.join(',')}\n`);
  if (node.spec?.providerID) w.write(0, `ProviderID:\t${node.spec.providerID}\n`);
  const user = requestUser(sim, credentialsOf(sim));
  const canViewPods = !('status' in user) && !checkAccess(sim, user, 'list', { resource: 'pods', group: '' }, '');
  if (canViewPods) {
    const pods = sim.store.list<Pod>('Pod').filter((p) => p.spec?.nodeName === node.metadata?.name && p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed');
    describeNodeResource(w, pods, node, nowMs);
  } else {
    w.write(0, 'Pods:\tnot authorized\n');
  }
  return withEvents(w.toString(), events, nowMs);
}

type Totals = Map<string, { milli: number; format: QuantityFormat }>;

/** podLimits sums the containers' limits (and sidecars'), keeping each resource's first format; init containers' peak counts when higher. */
function podTotals(pod: Pod, which: 'limits' | 'requests'): Totals {
  const out: Totals = new Map();
  const add = (into: Totals, list: Record<string, unknown> | undefined) => {
    for (const [name, q] of Object.entries(list ?? {})) {
      const parsed = parseQuantity(q as string);
      const cur = into.get(name);
      into.set(name, { milli: (cur?.milli ?? 0) + parsed.milliValue(), format: cur?.format ?? parsed.format });
    }
  };
  for (const c of pod.spec?.containers ?? []) add(out, c.resources?.[which] as Record<string, unknown> | undefined);
  for (const c of pod.spec?.initContainers ?? []) {
    if (c.restartPolicy === 'Always') add(out, c.resources?.[which] as Record<string, unknown> | undefined);
    else {
      const one: Totals = new Map();
      add(one, c.resources?.[which] as Record<string, unknown> | undefined);
      for (const [n, v] of one) if ((out.get(n)?.milli ?? 0) < v.milli) out.set(n, v);
    }
  }
  if (which === 'requests') {
    // Requests come from the same computation the scheduler uses (PodRequests), overhead included.
    for (const [n, milli] of podRequests(pod)) out.set(n, { milli, format: out.get(n)?.format ?? (n === 'cpu' ? 'DecimalSI' : 'BinarySI') });
  }
  return out;
}

const show = (t: { milli: number; format: QuantityFormat } | undefined): string => (t ? fromMilli(t.milli, t.format).toString() : '0');
const pct = (part: number | undefined, whole: number): number => (whole ? Math.trunc(((part ?? 0) / whole) * 100) : 0);

function describeNodeResource(w: PrefixWriter, pods: readonly Pod[], node: Node, nowMs: number): void {
  w.write(0, `Non-terminated Pods:\t(${pods.length} in total)\n`);
  w.write(1, 'Namespace\tName\t\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\tAge\n');
  w.write(1, '---------\t----\t\t------------\t----------\t---------------\t-------------\t---\n');
  const allocatable = Object.keys(node.status?.allocatable ?? {}).length > 0 ? node.status!.allocatable! : node.status?.capacity ?? {};
  const alloc = (n: string) => (allocatable[n] !== undefined ? parseQuantity(allocatable[n] as string).milliValue() : 0);
  const totalReqs: Totals = new Map();
  const totalLimits: Totals = new Map();
  const sum = (into: Totals, from: Totals) => {
    for (const [n, v] of from) into.set(n, { milli: (into.get(n)?.milli ?? 0) + v.milli, format: into.get(n)?.format ?? v.format });
  };
  for (const pod of pods) {
    const req = podTotals(pod, 'requests');
    const lim = podTotals(pod, 'limits');
    sum(totalReqs, req);
    sum(totalLimits, lim);
    const cell = (t: Totals, n: string) => `${show(t.get(n))} (${pct(t.get(n)?.milli, alloc(n))}%)`;
    w.write(1, `${pod.metadata?.namespace ?? ''}\t${pod.metadata?.name ?? ''}\t\t${cell(req, 'cpu')}\t${cell(lim, 'cpu')}\t${cell(req, 'memory')}\t${cell(lim, 'memory')}\t${since(pod.metadata?.creationTimestamp, nowMs)}\n`);
  }
  w.write(0, 'Allocated resources:\n  (Total limits may be over 100 percent, i.e., overcommitted.)\n');
  w.write(1, 'Resource\tRequests\tLimits\n');
  w.write(1, '--------\t--------\t------\n');
  for (const n of ['cpu', 'memory', 'ephemeral-storage']) {
    w.write(1, `${n}\t${show(totalReqs.get(n))} (${pct(totalReqs.get(n)?.milli, alloc(n))}%)\t${show(totalLimits.get(n))} (${pct(totalLimits.get(n)?.milli, alloc(n))}%)\n`);
  }
  const names = Object.keys(allocatable);
  for (const n of names.filter((x) => x.startsWith('hugepages-')).sort()) {
    w.write(1, `${n}\t${show(totalReqs.get(n))} (${pct(totalReqs.get(n)?.milli, alloc(n))}%)\t${show(totalLimits.get(n))} (${pct(totalLimits.get(n)?.milli, alloc(n))}%)\n`);
  }
  const standard = new Set(['cpu', 'memory', 'ephemeral-storage', 'storage', 'pods']);
  for (const n of names.filter((x) => !x.startsWith('hugepages-') && !standard.has(x) && !x.startsWith('requests.') && !x.startsWith('limits.')).sort()) {
    w.write(1, `${n}\t${show(totalReqs.get(n))}\t${show(totalLimits.get(n))}\n`);
  }
}
