// Why a pod is not Ready or failed for a reason of the pod rather than one container: volumes that do not mount,
// readiness gates nobody sets, activeDeadlineSeconds, eviction. Read from the pod's conditions and status and the
// kubelet's events. Pure.
import { eventEvidence, fieldEvidence, traceEvidence, type Cause, type Evidence } from './cause';
import { condition, formatSeconds, kubectlPod, type PodView } from './pod-view';

// pkg/kubelet/volumemanager/volume_manager.go (WaitForAttachAndMount) and
// pkg/volume/util/operationexecutor/operation_generator.go: Warning FailedMount, "Unable to attach or mount volumes:
// unmounted volumes=[...], unattached volumes=[...]: ..." or "MountVolume.SetUp failed for volume "<name>" : <err>".
export const EVENT_FAILED_MOUNT = 'FailedMount';
const MOUNT_FAILED = /MountVolume\.\w+ failed for volume "([^"]+)" : (.*)$/;
const UNMOUNTED = /unmounted volumes=\[([^\]]*)\]/;
// pkg/kubelet/status/generate.go (GeneratePodReadyCondition): reason ReadinessGatesNotReady, messages
// `corresponding condition of pod readiness gate "<type>" does not exist.` and
// `the status of pod readiness gate "<type>" is not "True", but <status>`.
export const READINESS_GATES_NOT_READY = 'ReadinessGatesNotReady';
// pkg/kubelet/active_deadline.go: reason DeadlineExceeded, "Pod was active on the node longer than the specified deadline".
export const DEADLINE_EXCEEDED = 'DeadlineExceeded';
export const DEADLINE_MESSAGE = 'Pod was active on the node longer than the specified deadline';

/** failedMountCause says a volume of the pod does not mount, so no container starts. */
export function failedMountCause(view: PodView): Cause | undefined {
  const events = view.events.filter((e) => e.reason === EVENT_FAILED_MOUNT);
  const steps = view.trace.filter((e) => e.phase === 'kubelet.volumes' && (e.outcome === 'failed' || e.outcome === 'waiting') && e.step);
  if (events.length === 0 && steps.length === 0) return undefined;
  const names = new Set<string>();
  const errors = new Set<string>();
  for (const e of events) {
    const m = MOUNT_FAILED.exec(e.message);
    if (m) {
      names.add(m[1]!);
      errors.add(m[2]!);
    }
    for (const v of UNMOUNTED.exec(e.message)?.[1]?.split(/\s+/).filter(Boolean) ?? []) names.add(v);
  }
  for (const s of steps) if (s.step?.kind === 'volume') names.add(s.step.name);
  const volumes = [...names];
  const evidence: Evidence[] = [...events.map(eventEvidence), ...steps.slice(-3).map(traceEvidence)];
  for (const v of volumes) {
    const i = (view.pod.spec?.volumes ?? []).findIndex((x) => x.name === v);
    if (i >= 0) evidence.push(fieldEvidence(`spec.volumes[${i}]`, JSON.stringify(view.pod.spec!.volumes![i]), undefined, `spec.volumes[${i}]`));
  }
  const error = [...errors].join('; ');
  const missing = /(secret|configmap|persistentvolumeclaim) "([^"]+)" not found/i.exec(error);
  const checks = [`kubectl describe pod ${kubectlPod(view)}   # Events: FailedMount`];
  if (missing) checks.push(`kubectl get ${missing[1]!.toLowerCase()} ${missing[2]} -n ${view.namespace}`);
  checks.push(`kubectl get pvc -n ${view.namespace}`, `journalctl -u kubelet | grep -i mount   # on ${view.nodeName ?? 'the node'}`);
  return {
    kind: 'FailedMount',
    title: `${volumes.length > 0 ? `volume${volumes.length > 1 ? 's' : ''} ${volumes.join(', ')}` : 'a volume'} cannot be mounted${error ? `: ${error}` : ''}`,
    detail: 'the kubelet starts no container (the pod stays ContainerCreating) until every volume is mounted, and retries the mount',
    evidence,
    checks,
    fix: missing ? `create the ${missing[1]} ${missing[2]} in namespace ${view.namespace}` : 'make the volume\'s source exist and be reachable from the node (the PVC bound, the CSI driver running, the server answering)',
    source: 'pkg/kubelet/volumemanager/volume_manager.go (WaitForAttachAndMount), pkg/volume/util/operationexecutor/operation_generator.go',
  };
}

/** readinessGatesCause says the containers are ready but a readiness gate's condition is missing or not True. */
export function readinessGatesCause(view: PodView): Cause | undefined {
  const gates = view.pod.spec?.readinessGates ?? [];
  const ready = condition(view.pod, 'Ready');
  const containersReady = condition(view.pod, 'ContainersReady')?.status === 'True';
  const open = gates.filter((g) => condition(view.pod, g.conditionType)?.status !== 'True');
  if (ready?.reason !== READINESS_GATES_NOT_READY && !(containersReady && open.length > 0 && ready?.status !== 'True')) return undefined;
  const evidence: Evidence[] = [fieldEvidence('spec.readinessGates', JSON.stringify(gates), undefined, 'spec.readinessGates')];
  if (ready) evidence.push(fieldEvidence('status.conditions[Ready]', [ready.status, ready.reason, ready.message].filter(Boolean).join(', '), view.seconds(ready.lastTransitionTime)));
  const types = open.map((g) => g.conditionType);
  return {
    kind: 'ReadinessGates',
    title: `the containers are ready, but readiness gate${types.length > 1 ? 's' : ''} ${types.join(', ')} ${types.length > 1 ? 'are' : 'is'} not True`,
    detail: 'the kubelet reports the pod Ready only when every readiness gate has a status.conditions entry of its type with status True; ' +
      'the kubelet never sets these: the controller that owns the gate does (a load balancer controller, for one)',
    evidence,
    checks: [`kubectl get pod ${kubectlPod(view)} -o jsonpath='{.status.conditions}'`, `kubectl get pods -A | grep <the controller that owns ${types[0] ?? 'the gate'}>`],
    fix: 'run the controller that owns the gate, or remove the readiness gate from the pod spec',
    source: 'pkg/kubelet/status/generate.go (GeneratePodReadyCondition)',
  };
}

/** deadlineCause says the pod outlived spec.activeDeadlineSeconds and the kubelet failed it. */
export function deadlineCause(view: PodView): Cause | undefined {
  const status = view.pod.status;
  const events = view.events.filter((e) => e.reason === DEADLINE_EXCEEDED);
  if (status?.reason !== DEADLINE_EXCEEDED && events.length === 0) return undefined;
  const deadline = view.pod.spec?.activeDeadlineSeconds;
  const started = view.seconds(status?.startTime);
  const evidence: Evidence[] = [];
  if (status?.reason) evidence.push(fieldEvidence('status.reason', `${status.reason}: ${status.message ?? ''}`));
  if (deadline !== undefined) evidence.push(fieldEvidence('spec.activeDeadlineSeconds', String(deadline), undefined, 'spec.activeDeadlineSeconds'));
  if (status?.startTime) evidence.push(fieldEvidence('status.startTime', status.startTime, started));
  evidence.push(...events.map(eventEvidence));
  return {
    kind: 'DeadlineExceeded',
    title: `the pod ran longer than spec.activeDeadlineSeconds${deadline !== undefined ? ` (${deadline}s)` : ''}: the kubelet stopped its containers and failed it (DeadlineExceeded)`,
    detail: `the deadline counts from status.startTime${started !== undefined ? ` (${formatSeconds(started)})` : ''}, image pulls and restarts included; a failed pod is not restarted`,
    evidence,
    checks: [`kubectl describe pod ${kubectlPod(view)}`, `kubectl get pod ${kubectlPod(view)} -o jsonpath='{.spec.activeDeadlineSeconds}'`],
    fix: 'raise spec.activeDeadlineSeconds to cover the work (pulls and restarts included), or remove it',
    source: 'pkg/kubelet/active_deadline.go',
  };
}

/** failedSource is where the kubelet writes a failed pod's status.reason. */
function failedSource(reason: string): string {
  if (reason === 'Evicted') return 'pkg/kubelet/eviction/eviction_manager.go';
  // pkg/kubelet/lifecycle/predicate.go: admission refusals (OutOfcpu, OutOfmemory, NodeAffinity, ...) fail the pod.
  if (/^(OutOf|NodeAffinity|NodeName|Taint|UnexpectedAdmissionError)/.test(reason)) return 'pkg/kubelet/lifecycle/predicate.go';
  return 'pkg/kubelet/status/status_manager.go';
}

/** podFailedCause says the kubelet failed the pod with a status.reason: Evicted, an admission refusal, or another. */
export function podFailedCause(view: PodView): Cause | undefined {
  const status = view.pod.status;
  if (status?.phase !== 'Failed' || !status.reason || status.reason === DEADLINE_EXCEEDED) return undefined;
  return {
    kind: 'PodFailed',
    title: `the pod failed with reason ${status.reason}${status.message ? `: ${status.message}` : ''}`,
    evidence: [fieldEvidence('status.reason', `${status.reason}: ${status.message ?? ''}`)],
    checks: [`kubectl describe pod ${kubectlPod(view)}`, `kubectl describe node ${view.nodeName ?? '<node>'}   # Conditions: MemoryPressure, DiskPressure; Allocated resources`],
    ...(status.reason === 'Evicted' ? { fix: 'give the pod requests that match its use, or free the node\'s memory or disk; its controller (if any) makes a new pod' } : {}),
    source: failedSource(status.reason),
  };
}
