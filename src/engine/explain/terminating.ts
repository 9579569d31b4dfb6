// Why a pod is stuck Terminating, in the order the deletion goes: a kubelet that does not act, a preStop hook still
// running, a container that ignores SIGTERM until SIGKILL, a volume that will not unmount, a finalizer nobody removes.
// Pure: it reads the pod's view (metadata.deletionTimestamp, finalizers, container states, events, trace steps).
import { eventEvidence, fieldEvidence, traceEvidence, type Cause, type Evidence } from './cause';
import { kubeletSilentCause, nodeNotReadyCause } from './node-health';
import { formatSeconds, kubectlPod, type ContainerView, type DiagnosisTraceEntry, type PodView } from './pod-view';

// pkg/kubelet/kuberuntime/kuberuntime_container.go (killContainer): a container always gets at least this long after
// its preStop hook before SIGKILL — the "one-off 2 s extension" when the hook used up the grace period.
export const MINIMUM_GRACE_PERIOD_SECONDS = 2;
// pkg/kubelet/kuberuntime/kuberuntime_container.go (executePreStopHook): Warning FailedPreStopHook "PreStopHook failed".
export const EVENT_FAILED_PRESTOP_HOOK = 'FailedPreStopHook';
// pkg/kubelet/kuberuntime/kuberuntime_container.go (killContainer): Normal Killing "Stopping container <name>".
export const EVENT_KILLING = 'Killing';
// exit status of a process killed by SIGKILL: 128 + 9 (SIGTERM: 128 + 15).
export const EXIT_SIGKILL = 137;

const KILL_SOURCE = 'pkg/kubelet/kuberuntime/kuberuntime_container.go';

/** Deletion is when the pod was deleted and with what grace period. */
export interface Deletion {
  /** requestedAt is the virtual second of the delete request. */
  requestedAt: number;
  gracePeriodSeconds: number;
  /** deadline is metadata.deletionTimestamp in virtual seconds: the request plus the grace period. */
  deadline?: number;
  /** step is the apiserver.delete trace step. */
  step?: DiagnosisTraceEntry;
}

/** deletionOf reads the pod's deletion from its apiserver.delete step, or from metadata.deletionTimestamp. */
export function deletionOf(view: PodView): Deletion | undefined {
  const ts = view.pod.metadata?.deletionTimestamp;
  if (!ts) return undefined;
  const step = view.trace.filter((e) => e.phase === 'apiserver.delete').at(-1);
  const deadline = view.seconds(ts);
  const fromStep = step?.detail?.deletionGracePeriodSeconds;
  const grace = typeof fromStep === 'number' ? fromStep : view.pod.metadata?.deletionGracePeriodSeconds ?? view.pod.spec?.terminationGracePeriodSeconds ?? 30;
  const requestedAt = step?.at ?? (deadline !== undefined ? deadline - grace : view.now);
  return { requestedAt, gracePeriodSeconds: grace, ...(deadline !== undefined ? { deadline } : {}), ...(step ? { step } : {}) };
}

function containerSteps(view: PodView, c: ContainerView, phase: string, since: number): DiagnosisTraceEntry[] {
  return view.trace.filter((e) => e.phase === phase && e.step?.name === c.name && e.at >= since);
}

function isRunning(c: ContainerView): boolean {
  return c.status?.state?.running !== undefined;
}

/** exitedStep is a kubelet.terminate step that says the container is gone: it carries the exit code. */
function exitedStep(e: DiagnosisTraceEntry): boolean {
  return e.detail?.exitCode !== undefined;
}

/** sigtermStep is the kubelet.terminate step that sent SIGTERM. */
function sigtermStep(e: DiagnosisTraceEntry): boolean {
  return /SIGTERM/.test(e.result) && !exitedStep(e);
}

function preStopRunning(view: PodView, del: Deletion): Cause[] {
  const out: Cause[] = [];
  for (const c of view.containers) {
    if (!c.spec.lifecycle?.preStop || !isRunning(c)) continue;
    const hook = containerSteps(view, c, 'kubelet.preStop', del.requestedAt);
    const after = containerSteps(view, c, 'kubelet.terminate', del.requestedAt);
    const failed = hook.some((e) => e.outcome === 'failed');
    if (after.length > 0 || failed) continue;
    const startedAt = hook[0]?.at ?? del.requestedAt;
    const ran = view.now - startedAt;
    const grace = del.gracePeriodSeconds;
    const field = `${c.field}.lifecycle.preStop`;
    const evidence: Evidence[] = [fieldEvidence(field, JSON.stringify(c.spec.lifecycle.preStop), undefined, field)];
    if (del.step) evidence.push(traceEvidence(del.step));
    for (const e of hook) evidence.push(traceEvidence(e));
    evidence.push(...view.events.filter((e) => e.reason === EVENT_KILLING && e.message === `Stopping container ${c.name}`).map(eventEvidence));
    const past = ran >= grace;
    const timing = past
      ? `it has run ${formatSeconds(ran)}, past the grace period of ${grace}s: the kubelet stopped waiting for it and gives the container the one-off ` +
        `${MINIMUM_GRACE_PERIOD_SECONDS}s extension before SIGKILL`
      : `it has run ${formatSeconds(ran)} of the grace period of ${grace}s; the kubelet waits for it at most until the grace period ends, then sends SIGTERM ` +
        `with what is left of it, at least ${MINIMUM_GRACE_PERIOD_SECONDS}s (a one-off extension), and SIGKILL after that — the container is gone by about ` +
        `${formatSeconds(startedAt + grace + MINIMUM_GRACE_PERIOD_SECONDS)}`;
    out.push({
      kind: 'PreStopHookRunning', container: c.name,
      title: `the preStop hook of ${c.name} is still running (${hook.length > 0 ? 'since' : 'by the timing, since the deletion at'} ${formatSeconds(startedAt)})`,
      detail: `${timing}. SIGTERM reaches the container only once the hook returns`,
      evidence,
      checks: [`kubectl describe pod ${kubectlPod(view)}   # Events: Killing, FailedPreStopHook`, `kubectl get pod ${kubectlPod(view)} -o jsonpath='{.spec.containers[?(@.name=="${c.name}")].lifecycle.preStop}'`],
      fix: `make the hook return sooner, or raise spec.terminationGracePeriodSeconds (${grace}s) to cover it: the hook and the container's shutdown share the grace period`,
      source: KILL_SOURCE,
    });
  }
  return out;
}

function failedPreStop(view: PodView): Cause[] {
  return view.events.filter((e) => e.reason === EVENT_FAILED_PRESTOP_HOOK).map((e) => ({
    kind: 'FailedPreStopHook' as const,
    title: 'a preStop hook failed (FailedPreStopHook); the kubelet went on to stop the container with SIGTERM',
    detail: 'the event does not carry the hook\'s output, so that secrets do not leak; the kubelet log on the node has it',
    evidence: [eventEvidence(e)],
    checks: [`kubectl describe pod ${kubectlPod(view)}`, `journalctl -u kubelet | grep -i prestop   # on ${view.nodeName ?? 'the node'}`],
    fix: 'check the hook\'s command or HTTP target exists in the container and returns success',
    source: KILL_SOURCE,
  }));
}

function sigtermIgnored(view: PodView, del: Deletion): Cause[] {
  const out: Cause[] = [];
  for (const c of view.containers) {
    if (!isRunning(c)) continue;
    const steps = containerSteps(view, c, 'kubelet.terminate', del.requestedAt);
    const sigterm = steps.find(sigtermStep);
    if (!sigterm || steps.some(exitedStep)) continue;
    const stepGrace = sigterm.detail?.gracePeriodSeconds;
    const grace = typeof stepGrace === 'number' ? stepGrace : del.gracePeriodSeconds;
    const killAt = sigterm.at + grace;
    const evidence: Evidence[] = [];
    if (del.step) evidence.push(traceEvidence(del.step));
    evidence.push(traceEvidence(sigterm));
    evidence.push(...view.events.filter((e) => e.reason === EVENT_KILLING && e.message === `Stopping container ${c.name}`).map(eventEvidence));
    evidence.push(fieldEvidence(`${c.statusField}.state`, `running since ${c.status?.state?.running?.startedAt ?? '?'}`, undefined, c.field));
    out.push({
      kind: 'SigtermIgnored', container: c.name,
      title: `${c.name} got SIGTERM at ${formatSeconds(sigterm.at)} and is still running at ${formatSeconds(view.now)}: it does not exit on SIGTERM`,
      detail: `the kubelet sends SIGKILL when the grace period of ${grace}s runs out, at about ${formatSeconds(killAt)}` +
        `${killAt > view.now ? ` (${formatSeconds(killAt - view.now)} from now)` : ''}; the container then ends with exit code ${EXIT_SIGKILL} (128 + SIGKILL 9)`,
      evidence,
      checks: [`kubectl logs ${kubectlPod(view)} -c ${c.name}   # does it log the SIGTERM?`, `kubectl get pod ${kubectlPod(view)} -o jsonpath='{.spec.containers[?(@.name=="${c.name}")].command}'`],
      fix: 'make the process exit on SIGTERM: run it as PID 1 in exec form (command: ["app"], not sh -c "app"), or `exec` it from the shell script, or ' +
        'handle the signal; a lower spec.terminationGracePeriodSeconds shortens the wait',
      source: KILL_SOURCE,
    });
  }
  return out;
}

function volumesNotUnmounted(view: PodView, del: Deletion): Cause[] {
  if (view.containers.some(isRunning)) return [];
  const cleanup = view.trace.filter((e) => e.phase === 'kubelet.cleanup' && e.at >= del.requestedAt);
  const stuck = cleanup.filter((e) => e.outcome === 'waiting' || e.outcome === 'failed');
  const done = cleanup.some((e) => !e.step && e.outcome !== 'waiting' && e.outcome !== 'failed' && !stuck.some((s) => s.at > e.at));
  if (stuck.length === 0 || done) return [];
  const names = new Set<string>();
  for (const e of stuck) {
    if (e.step?.kind === 'volume') names.add(e.step.name);
    const vols = e.detail?.volumes;
    if (Array.isArray(vols)) for (const v of vols) if (typeof v === 'string') names.add(v);
  }
  const volumes = [...names];
  const fields = volumes.map((v) => (view.pod.spec?.volumes ?? []).findIndex((x) => x.name === v)).filter((i) => i >= 0).map((i) => `spec.volumes[${i}]`);
  const evidence: Evidence[] = stuck.map(traceEvidence);
  for (const f of fields) evidence.push(fieldEvidence(f, JSON.stringify(view.pod.spec?.volumes?.[Number(/\d+/.exec(f)![0])]), undefined, f));
  const uid = view.pod.metadata?.uid ?? '<pod uid>';
  return [{
    kind: 'VolumeNotUnmounted',
    title: `the containers have stopped but ${volumes.length > 0 ? `volume${volumes.length > 1 ? 's' : ''} ${volumes.join(', ')}` : 'a volume'} will not unmount`,
    detail: 'the kubelet confirms the deletion (and the API server removes the pod) only once the pod\'s volumes are unmounted and its sandbox removed',
    evidence,
    checks: [`kubectl describe pod ${kubectlPod(view)}`, `journalctl -u kubelet | grep -iE 'unmount|TearDown'   # on ${view.nodeName ?? 'the node'}`, `mount | grep ${uid}   # on ${view.nodeName ?? 'the node'}`],
    fix: 'make the storage answer again (the NFS server, the CSI driver\'s node plugin) so that the unmount succeeds; the kubelet retries it',
    caution: `a force deletion removes the API object but leaves the mount and /var/lib/kubelet/pods/${uid} on the node`,
    source: 'pkg/kubelet/kubelet_pods.go (podResourcesAreReclaimed), pkg/kubelet/status/status_manager.go (canBeDeleted)',
  }];
}

// Finalizers on pods that Kubernetes' own controllers add, and who removes them.
const KNOWN_FINALIZERS: Record<string, string> = {
  // pkg/controller/job/job_controller.go (batch.kubernetes.io/job-tracking)
  'batch.kubernetes.io/job-tracking': 'the Job controller of kube-controller-manager, once it has counted the pod',
};

function finalizers(view: PodView, del: Deletion): Cause[] {
  const list = view.pod.metadata?.finalizers ?? [];
  if (list.length === 0) return [];
  const evidence: Evidence[] = [fieldEvidence('metadata.finalizers', JSON.stringify(list), undefined, 'metadata.finalizers')];
  const finalize = view.trace.filter((e) => e.phase === 'apiserver.finalize' && e.at >= del.requestedAt);
  evidence.push(...finalize.map(traceEvidence));
  const kubeletDone = view.pod.metadata?.deletionGracePeriodSeconds === 0 && !view.containers.some(isRunning);
  if (kubeletDone) evidence.push(fieldEvidence('metadata.deletionGracePeriodSeconds', '0: the kubelet has stopped the containers and confirmed the deletion'));
  const owners = list.map((f) => `${f}: removed by ${KNOWN_FINALIZERS[f] ?? `the controller or operator that owns ${f.includes('/') ? f.split('/')[0] : f}`}`);
  const name = kubectlPod(view);
  return [{
    kind: 'Finalizer',
    title: `finalizer${list.length > 1 ? 's' : ''} ${list.join(', ')} ${list.length > 1 ? 'are' : 'is'} still on the pod: the API server keeps it until every finalizer is removed`,
    detail: `${kubeletDone ? 'the kubelet has done its part; ' : ''}${owners.join('; ')}`,
    evidence,
    checks: [`kubectl get pod ${name} -o jsonpath='{.metadata.finalizers}'`, 'kubectl get pods -A | grep -i <the controller that owns the finalizer>'],
    fix: `let the owning controller finish; by hand: kubectl patch pod ${name} -p '{"metadata":{"finalizers":null}}'`,
    caution: 'removing a finalizer by hand skips the cleanup its controller was to do (release an external resource, account for the pod): do it only ' +
      'when that controller is gone or will never finish',
    source: 'staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go (Delete: an object with finalizers stays until they are removed)',
  }];
}

/** terminatingSummary says when the pod was deleted and how long it has been Terminating. */
export function terminatingSummary(view: PodView, del: Deletion): string {
  const ts = view.pod.metadata?.deletionTimestamp ?? '';
  return `deleted at ${formatSeconds(del.requestedAt)} with a grace period of ${del.gracePeriodSeconds}s (metadata.deletionTimestamp ${ts}); ` +
    `still Terminating at ${formatSeconds(view.now)}`;
}

/** diagnoseTerminating lists why a pod with metadata.deletionTimestamp is still there, in the order the deletion goes. */
export function diagnoseTerminating(view: PodView, del: Deletion): Cause[] {
  const node = nodeNotReadyCause(view, true) ?? kubeletSilentCause(view, del.requestedAt, true);
  const out: Cause[] = node ? [node] : [];
  if (!node) out.push(...preStopRunning(view, del), ...failedPreStop(view), ...sigtermIgnored(view, del), ...volumesNotUnmounted(view, del));
  out.push(...finalizers(view, del));
  return out;
}
