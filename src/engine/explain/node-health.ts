// Whether the pod's kubelet is there to act: the node's Ready condition and taints as the node lifecycle controller
// writes them, the NodeNotReady and TaintManagerEviction events, and — when the control plane has not noticed yet —
// a kubelet that has taken no step on the pod. Pure.
import type { Taint } from '../api/types';
import { eventEvidence, fieldEvidence, traceEvidence, type Cause, type Evidence } from './cause';
import { formatSeconds, kubectlPod, nodeReady, type PodView } from './pod-view';

// k8s.io/api/core/v1/well_known_taints.go (TaintNodeUnreachable, TaintNodeNotReady, TaintNodeOutOfService)
export const TAINT_UNREACHABLE = 'node.kubernetes.io/unreachable';
export const TAINT_NOT_READY = 'node.kubernetes.io/not-ready';
export const TAINT_OUT_OF_SERVICE = 'node.kubernetes.io/out-of-service';

// pkg/controller/nodelifecycle/node_lifecycle_controller.go (tryUpdateNodeHealth): Ready Unknown, reason
// NodeStatusUnknown, message "Kubelet stopped posting node status."
export const NODE_STATUS_UNKNOWN = 'NodeStatusUnknown';
// pkg/controller/util/node/controller_utils.go (MarkPodsNotReady): Warning NodeNotReady "Node is not ready" on each pod.
export const EVENT_NODE_NOT_READY = 'NodeNotReady';
// pkg/controller/tainteviction/taint_eviction.go: Normal TaintManagerEviction "Marking for deletion Pod <ns>/<name>".
export const EVENT_TAINT_EVICTION = 'TaintManagerEviction';

const NODE_SOURCE = 'pkg/controller/nodelifecycle/node_lifecycle_controller.go';

function taintText(t: Taint): string {
  return `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`;
}

/** nodeChecks are what a person runs to see a node's kubelet. */
function nodeChecks(node: string): string[] {
  return [`kubectl get node ${node}`, `kubectl describe node ${node}`, `systemctl status kubelet   # on ${node}`, `journalctl -u kubelet   # on ${node}`];
}

/** unhealthyNodeEvidence reads the node's Ready condition, its not-ready/unreachable taints and the node events. */
function unhealthyNodeEvidence(view: PodView): Evidence[] | undefined {
  const node = view.nodeName!;
  const ready = nodeReady(view.node);
  const taints = (view.node?.spec?.taints ?? []).filter((t) => t.key === TAINT_UNREACHABLE || t.key === TAINT_NOT_READY);
  if ((!ready || ready.status === 'True') && taints.length === 0) return undefined;
  const out: Evidence[] = [];
  if (ready && ready.status !== 'True') {
    const text = [`Ready ${ready.status}`, ready.reason, ready.message].filter(Boolean).join(', ');
    out.push(fieldEvidence(`Node/${node} status.conditions[Ready]`, text, view.seconds(ready.lastTransitionTime)));
  }
  if (taints.length > 0) out.push(fieldEvidence(`Node/${node} spec.taints`, taints.map(taintText).join(', ')));
  for (const e of view.events) if (e.reason === EVENT_NODE_NOT_READY || e.reason === EVENT_TAINT_EVICTION) out.push(eventEvidence(e));
  for (const e of view.nodeEvents) if (/NodeNotReady|NodeStatusUnknown/.test(e.message) || e.reason === EVENT_NODE_NOT_READY) out.push(eventEvidence(e));
  return out;
}

/** forceDeleteAdvice is how a pod on a dead node goes, and what it costs. */
function forceDeleteAdvice(view: PodView): Pick<Cause, 'fix' | 'caution'> {
  const node = view.nodeName!;
  return {
    fix: `bring the kubelet on ${node} back (systemctl restart kubelet) and it finishes the deletion itself. Otherwise only a force ` +
      `deletion (kubectl delete pod ${kubectlPod(view)} --grace-period=0 --force) or the node's removal (kubectl delete node ${node}, after which ` +
      `the pod garbage collector deletes its pods) ends it; for a node that is shut down, the taint ${TAINT_OUT_OF_SERVICE}=nodeshutdown:NoExecute ` +
      'lets the pod garbage collector force-delete its terminating pods',
    caution: 'a force deletion removes the object without the kubelet\'s confirmation that the containers stopped: they may keep running on the ' +
      'node, and a StatefulSet may start a replacement with the same identity while the old one still runs',
  };
}

/** kubeletSilentSince finds whether the kubelet has taken no step on the pod since a virtual time. */
function kubeletSilentSince(view: PodView, since: number): boolean {
  return !view.trace.some((e) => e.phase.startsWith('kubelet.') && e.at >= since);
}

/** nodeNotReadyCause says the pod's node is NotReady or unreachable, for a pod that is not Ready or is terminating. */
export function nodeNotReadyCause(view: PodView, terminating: boolean): Cause | undefined {
  if (!view.nodeName) return undefined;
  const evidence = unhealthyNodeEvidence(view);
  if (!evidence) return undefined;
  const node = view.nodeName;
  const ready = nodeReady(view.node);
  const unknown = ready?.status === 'Unknown' || ready?.reason === NODE_STATUS_UNKNOWN || view.node?.spec?.taints?.some((t) => t.key === TAINT_UNREACHABLE);
  const what = unknown ? `the kubelet on ${node} stopped posting node status: the node is unreachable` : `node ${node} is NotReady`;
  return {
    kind: terminating ? 'KubeletNotResponding' : 'NodeNotReady',
    title: terminating ? `${what}, so nothing stops the containers and confirms the deletion` : `${what}, so the pod is marked not Ready`,
    detail: terminating
      ? 'the API server waits for the kubelet to report the containers stopped before it removes the pod; a kubelet that cannot be reached never does'
      : `the node lifecycle controller marks every pod on a node it has not heard from not Ready, and taints the node so that pods without a toleration are evicted (after tolerationSeconds, 300s by default)`,
    evidence,
    checks: nodeChecks(node),
    ...(terminating ? forceDeleteAdvice(view) : { fix: `bring the kubelet on ${node} back; a pod of a Deployment or ReplicaSet is replaced on another node once the taint evicts it` }),
    source: NODE_SOURCE,
  };
}

/**
 * kubeletSilentCause says the pod's kubelet has not acted on it although the node still reads Ready: no trace step
 * since `since` (the binding or the deletion). The control plane notices a silent kubelet only after the node monitor
 * grace period; until then only the missing status and events show it.
 */
export function kubeletSilentCause(view: PodView, since: number, terminating: boolean): Cause | undefined {
  if (!view.nodeName || !kubeletSilentSince(view, since) || view.now < since) return undefined;
  const node = view.nodeName;
  // Only a trace that saw the binding or the deletion can tell that the kubelet did nothing since.
  const started = view.trace.filter((e) => e.at <= since && (e.phase === 'scheduler.bind' || e.phase === 'etcd.persist' || e.phase === 'apiserver.delete')).at(-1);
  if (!started) return undefined;
  const evidence: Evidence[] = [traceEvidence(started)];
  const ready = nodeReady(view.node);
  if (ready) evidence.push(fieldEvidence(`Node/${node} status.conditions[Ready]`, [`Ready ${ready.status}`, ready.reason, ready.message].filter(Boolean).join(', ')));
  const lastKubelet = [...view.trace].reverse().find((e) => e.phase.startsWith('kubelet.'));
  evidence.push(fieldEvidence(terminating ? 'events' : 'status.conditions',
    terminating ? `no Killing event and no kubelet step since ${formatSeconds(since)}` : `only PodScheduled: the kubelet on ${node} has reported no status for the pod`));
  if (lastKubelet) evidence.push(traceEvidence(lastKubelet));
  return {
    kind: terminating ? 'KubeletNotResponding' : 'NodeNotReady',
    title: terminating
      ? `the kubelet on ${node} has not acted on the deletion requested at ${formatSeconds(since)} (no step, no event from it since)`
      : `the kubelet on ${node} has not started the pod bound there at ${formatSeconds(since)} (no status, no event from it since)`,
    detail: `the node still reads Ready only because the node lifecycle controller marks it Unknown (taint ${TAINT_UNREACHABLE}:NoExecute) once no ` +
      'heartbeat came for the node monitor grace period; a kubelet that is down or cut off does nothing with its pods',
    evidence,
    checks: nodeChecks(node),
    ...(terminating ? forceDeleteAdvice(view) : { fix: `bring the kubelet on ${node} back; until the node is marked unreachable the scheduler keeps sending pods there` }),
    source: NODE_SOURCE,
  };
}
