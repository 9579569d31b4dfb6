// Why a container with a postStart hook keeps being killed: the hook failed. Read from the FailedPostStartHook and Killing
// events on the container, its waiting state (PostStartHookError carries the hook's error) and the engine's trace. Pure.
import type { LifecycleHandler } from '../api/types';
import { eventEvidence, fieldEvidence, traceEvidence, type Cause, type Evidence } from './cause';
import { containerFieldPath, formatSeconds, kubectlPod, onContainer, type ContainerView, type DiagnosisTraceEntry, type PodView } from './pod-view';

// pkg/kubelet/kuberuntime/kuberuntime_container.go startContainer (v1.36.3): a postStart handler that fails is a Warning
// FailedPostStartHook "PostStartHook failed" on the container's reference, without the handler's message ("so that
// secrets won't leak from the server"); then killContainer(..., "FailedPostStartHook", reasonFailedPostStartHook), whose
// Normal Killing event reads "FailedPostStartHook"; the start fails with ErrPostStartHook, "PostStartHookError", and the
// handler's message, which the status shows as the waiting reason and message until the next sync.
export const EVENT_FAILED_POST_START_HOOK = 'FailedPostStartHook';
export const POST_START_HOOK_ERROR = 'PostStartHookError';
const KILLING_MESSAGE = 'FailedPostStartHook';
const SOURCE = 'pkg/kubelet/kuberuntime/kuberuntime_container.go (startContainer), pkg/kubelet/lifecycle/handlers.go (Run)';

/** hookText says what a lifecycle handler runs: `exec [sh -c /bin/warmup]`, `httpGet /warm on port 8080`. */
export function hookText(h: LifecycleHandler): string {
  if (h.exec) return `exec [${(h.exec.command ?? []).join(' ')}]`;
  if (h.httpGet) return `httpGet ${h.httpGet.path ?? '/'} on port ${h.httpGet.port}${h.httpGet.host ? ` of ${h.httpGet.host}` : ''}`;
  if (h.sleep) return `sleep ${h.sleep.seconds}s`;
  if (h.tcpSocket) return `tcpSocket on port ${h.tcpSocket.port}`;
  return 'a handler the kubelet does not know';
}

/** hookSteps are the engine's steps on the container's postStart hook, in order. */
function hookSteps(view: PodView, c: ContainerView): DiagnosisTraceEntry[] {
  const field = `${c.field}.lifecycle.postStart`;
  return view.trace.filter((e) => e.field === field && e.step?.name === c.name && /^postStart hook (failed|completed)/.test(e.result));
}

/** hookError is the handler's message: the waiting message of PostStartHookError, else the last failed step's. */
function hookError(c: ContainerView, failed: DiagnosisTraceEntry | undefined): string | undefined {
  const waiting = c.status?.state?.waiting;
  if (waiting?.reason === POST_START_HOOK_ERROR && waiting.message) return waiting.message;
  const error = failed?.detail?.error;
  return typeof error === 'string' ? error : undefined;
}

/**
 * postStartCause says the container's postStart hook failed and got it killed: the exit code the container shows is the
 * kill's, not the application's. Undefined when the container has no postStart hook or its last hook run succeeded.
 */
export function postStartCause(view: PodView, c: ContainerView): Cause | undefined {
  const hook = c.spec.lifecycle?.postStart;
  if (!hook) return undefined;
  const steps = hookSteps(view, c);
  const last = steps.at(-1);
  const failedEvents = view.events.filter((e) => e.reason === EVENT_FAILED_POST_START_HOOK && onContainer(e, c));
  const waiting = c.status?.state?.waiting;
  // The last run of the hook decides; without the engine's trace, the event and the waiting state do.
  const failed = last ? /^postStart hook failed/.test(last.result)
    : failedEvents.length > 0 && (waiting?.reason === POST_START_HOOK_ERROR || waiting?.reason === 'CrashLoopBackOff');
  if (!failed) return undefined;
  const error = hookError(c, last);
  const t = c.status?.lastState?.terminated ?? c.status?.state?.terminated;
  const evidence: Evidence[] = [fieldEvidence(`${c.field}.lifecycle.postStart`, hookText(hook), undefined, `${c.field}.lifecycle.postStart`)];
  if (waiting?.reason) evidence.push(fieldEvidence(`${c.statusField}.state.waiting`, `${waiting.reason}: ${waiting.message ?? ''}`, undefined, c.field));
  if (t) {
    const which = c.status?.lastState?.terminated ? 'lastState' : 'state';
    evidence.push(fieldEvidence(`${c.statusField}.${which}.terminated`, `exitCode ${t.exitCode}${t.reason ? `, reason ${t.reason}` : ''}`, view.seconds(t.finishedAt), c.field));
  }
  evidence.push(...failedEvents.map(eventEvidence));
  evidence.push(...view.events.filter((e) => e.reason === 'Killing' && e.message === KILLING_MESSAGE && onContainer(e, c)).map(eventEvidence));
  if (last) evidence.push(traceEvidence(last));
  const restarts = c.status?.restartCount ?? 0;
  const backOff = waiting?.reason === 'CrashLoopBackOff' ? /^back-off (\S+) /.exec(waiting.message ?? '')?.[1] : undefined;
  const policy = c.sidecar ? 'Always' : view.pod.spec?.restartPolicy ?? 'Always';
  const then = policy === 'Never' ? ', which is not restarted (restartPolicy Never)'
    : backOff ? ` and waits ${backOff} before restarting it (CrashLoopBackOff, ${restarts} restart${restarts === 1 ? '' : 's'})`
      : ` and restarts it (${restarts} restart${restarts === 1 ? '' : 's'} so far)`;
  const kind = c.init ? (c.sidecar ? 'sidecar container' : 'init container') : 'container';
  const exit = t ? `; its exit code ${t.exitCode} is the kill's (${t.exitCode === 137 ? 'SIGKILL' : t.exitCode === 143 ? 'SIGTERM' : 'the signal'}), not the application's` : '';
  const ns = view.namespace === 'default' ? '' : ` -n ${view.namespace}`;
  const list = c.init ? 'initContainers' : 'containers';
  const checks = [
    `kubectl describe pod ${kubectlPod(view)}   # Events: FailedPostStartHook, Killing`,
    `kubectl get pod ${kubectlPod(view)} -o jsonpath='{.spec.${list}[?(@.name=="${c.name}")].lifecycle.postStart}'`,
    `kubectl get events --field-selector 'involvedObject.name=${view.name},involvedObject.fieldPath=${containerFieldPath(c)}'${ns}`,
  ];
  if (hook.exec?.command) checks.push(`kubectl exec ${kubectlPod(view)} -c ${c.name} -- ${hook.exec.command.join(' ')}   # while the container runs`);
  // The trace has every failure; the event's last time stops once the spam filter holds it back.
  const at = last?.at ?? failedEvents.at(-1)?.at;
  return {
    kind: 'PostStartHook', container: c.name,
    title: `the postStart hook of ${kind} ${c.name} failed (${hookText(hook)}): the kubelet killed the container${then}`,
    detail: `${error ? `the hook's error: ${error}. ` : ''}The kubelet runs the hook right after the container starts and reports the container running only once it returns; ` +
      `when it fails, the Warning FailedPostStartHook event leaves the error out (so that secrets do not leak) and the container is killed with the Killing message "FailedPostStartHook"${exit}` +
      `${at !== undefined ? `; last failure at ${formatSeconds(at)}` : ''}`,
    evidence,
    checks,
    // handlers.go runHTTPHandler (v1.36.3): only an error of the request fails the hook; any HTTP status passes.
    fix: hook.httpGet ? 'make the hook\'s request reach the container: the port it names must be one the container listens on right after it starts (any HTTP answer passes; only a request that gets none fails)'
      : 'make the hook\'s command succeed (it runs beside the entrypoint, with no guarantee it runs first), or remove the hook',
    source: SOURCE,
  };
}
