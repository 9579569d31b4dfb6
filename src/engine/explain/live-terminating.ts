// What a live pod's state alone says of a deletion that does not end, where the simulation would read its trace: the
// grace period (metadata.deletionTimestamp) already past while containers still run. Pure.
import { fieldEvidence, eventEvidence, type Cause } from './cause';
import { formatSeconds, kubectlPod, type PodView } from './pod-view';
import { EVENT_KILLING } from './terminating';

/**
 * gracePassedCause says the grace period has ended and containers still run: the kubelet sends SIGKILL when it ends
 * (pkg/kubelet/kuberuntime/kuberuntime_container.go killContainer), so a container that outlives it means the kubelet or
 * the container runtime is not doing it.
 */
export function gracePassedCause(view: PodView): Cause | undefined {
  const ts = view.pod.metadata?.deletionTimestamp;
  const deadline = view.seconds(ts);
  const running = view.containers.filter((c) => c.status?.state?.running !== undefined).map((c) => c.name);
  if (deadline === undefined || deadline > view.now || running.length === 0) return undefined;
  const node = view.nodeName ?? 'the node';
  return {
    kind: 'KubeletNotResponding',
    title: `the grace period ended ${formatSeconds(view.now - deadline)} ago (metadata.deletionTimestamp ${ts}) and ${running.join(', ')} still ${running.length > 1 ? 'run' : 'runs'}`,
    detail: 'when the grace period runs out the kubelet kills what is left with SIGKILL and reports the containers terminated; containers reported running past it ' +
      `mean the kubelet on ${node} has not acted (or not reported), or the container runtime cannot kill them`,
    evidence: [
      fieldEvidence('metadata.deletionTimestamp', ts ?? '', deadline),
      ...view.containers.filter((c) => running.includes(c.name)).map((c) => fieldEvidence(`${c.statusField}.state.running`, `startedAt ${c.status?.state?.running?.startedAt ?? '?'}`, undefined, c.field)),
      ...view.events.filter((e) => e.reason === EVENT_KILLING).map(eventEvidence),
    ],
    checks: [`kubectl describe pod ${kubectlPod(view)}`, `journalctl -u kubelet | grep ${view.name}   # on ${node}`, `crictl ps --name <container>   # on ${node}`],
    fix: `restart the kubelet on ${node} (or the container runtime); a force deletion (kubectl delete pod ${kubectlPod(view)} --grace-period=0 --force) removes the object without them`,
    caution: 'a force deletion does not stop the containers: they may keep running on the node',
    source: 'pkg/kubelet/kuberuntime/kuberuntime_container.go (killContainer), pkg/kubelet/pod_workers.go',
  };
}
