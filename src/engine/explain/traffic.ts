// Whether a deleted pod could still be sent requests after it began to shut down: the race between kube-proxy on the
// nodes dropping its endpoint and the kubelet's SIGTERM. Read from the trace: the pod's apiserver.delete step, its
// first SIGTERM (kubelet.terminate StopContainer, after any preStop hook), and the kubeproxy.sync steps that added and
// dropped its endpoint. See pkg/proxy/topology.go (CategorizeEndpoints: serving terminating endpoints take the
// traffic only when none is ready), pkg/proxy/iptables/proxier.go (syncProxyRules) and
// pkg/kubelet/kuberuntime/kuberuntime_container.go (killContainer: the preStop hook runs before SIGTERM), v1.36.3.
import type { DiagnosisTraceEntry } from './pod-view';

/** TrafficOnDelete says when the nodes stopped sending a deleted pod new connections, next to its SIGTERM. */
export interface TrafficOnDelete {
  /** deletedAt is the virtual second of the delete request. */
  deletedAt: number;
  /** sigtermAt is when its first container got SIGTERM; absent when none did (killed at once, or not yet). */
  sigtermAt?: number;
  /** stoppedAt is when kube-proxy dropped its endpoint on the nodes; absent when the run ended first. */
  stoppedAt?: number;
  /** fallback: no other endpoint was ready, so kube-proxy kept sending it new connections while it terminated. */
  fallback: boolean;
  /** exposed: new connections could reach it after SIGTERM. */
  exposed: boolean;
  summary: string;
  advice?: string;
  source: string;
}

const SOURCE = 'pkg/proxy/topology.go (CategorizeEndpoints), pkg/proxy/iptables/proxier.go (syncProxyRules), pkg/kubelet/kuberuntime/kuberuntime_container.go (killContainer)';
const ADVICE = 'a preStop hook that waits a few seconds (lifecycle.preStop.sleep.seconds: 5, or an exec sleep) keeps the container serving until every node has dropped it: the kubelet sends SIGTERM only after the hook, while the EndpointSlice change travels to each node\'s kube-proxy (a watch away) and is applied within its minSyncPeriod of 1 s';

const FALLBACK_ADVICE = 'every endpoint of the Service was terminating, so kube-proxy sent them new connections until they left the EndpointSlice: keep other pods ready while these stop (a rolling update, maxUnavailable 0), and give the stopping ones a preStop hook that waits so they still answer meanwhile';

const seconds = (at: number) => `${Math.round(at * 1000) / 1000}s`;

/** trafficOnDelete reads the race from the trace entries of the pod (`ref`), or undefined when no Service sent it traffic. */
export function trafficOnDelete(trace: readonly DiagnosisTraceEntry[], ref: string): TrafficOnDelete | undefined {
  const mine = trace.filter((e) => e.object === ref);
  const deleted = mine.find((e) => e.phase === 'apiserver.delete');
  if (!deleted) return undefined;
  const sent = mine.find((e) => e.phase === 'kubeproxy.sync' && / sends /.test(e.result) && !e.result.includes('no longer'));
  if (!sent) return undefined;
  const endpoint = typeof sent.detail?.['endpoint'] === 'string' ? sent.detail['endpoint'] : undefined;
  const deletedAt = deleted.at;
  const sigterm = mine.find((e) => e.phase === 'kubelet.terminate' && e.at >= deletedAt && /SIGTERM/.test(e.result) && e.result.startsWith('StopContainer'));
  const stopped = mine.find((e) => e.phase === 'kubeproxy.sync' && e.at >= deletedAt && e.result.includes('no longer sends new connections'));
  const fallback = trace.some((e) => e.phase === 'kubeproxy.sync' && e.at >= deletedAt && (stopped === undefined || e.at <= stopped.at) && e.detail?.['terminatingFallback'] === true
    && Array.isArray(e.detail['endpoints']) && endpoint !== undefined && (e.detail['endpoints'] as unknown[]).includes(endpoint));
  const sigtermAt = sigterm?.at;
  const stoppedAt = stopped?.at;
  const exposed = sigtermAt !== undefined && (stoppedAt === undefined || stoppedAt > sigtermAt || (stoppedAt === sigtermAt && fallback));
  const parts: string[] = [];
  if (stoppedAt === undefined) parts.push(`the nodes still sent it new connections when the run ended (kube-proxy had not dropped ${endpoint ?? 'its endpoint'})`);
  else parts.push(`kube-proxy on the nodes stopped sending it new connections at ${seconds(stoppedAt)}, ${seconds(stoppedAt - deletedAt)} after the delete`);
  if (sigtermAt === undefined) parts.push('no container got SIGTERM');
  else if (stoppedAt !== undefined && stoppedAt <= sigtermAt && !exposed) parts.push(`its containers got SIGTERM at ${seconds(sigtermAt)}, ${seconds(sigtermAt - stoppedAt)} later: no new connection reached a process shutting down`);
  else parts.push(`its containers got SIGTERM at ${seconds(sigtermAt)}${stoppedAt !== undefined ? `, ${seconds(stoppedAt - sigtermAt)} earlier` : ''}: a request sent in between reached a process that was shutting down`);
  if (fallback) parts.push('no other endpoint of the Service was ready, so kube-proxy kept sending it new connections while it terminated (serving terminating endpoints take the traffic only then)');
  return {
    deletedAt, ...(sigtermAt !== undefined ? { sigtermAt } : {}), ...(stoppedAt !== undefined ? { stoppedAt } : {}), fallback, exposed,
    summary: parts.join('; '), ...(exposed ? { advice: fallback ? FALLBACK_ADVICE : ADVICE } : {}), source: SOURCE,
  };
}
