// Why a container does not run: an image that cannot be pulled, a config it cannot be created with, a process that
// exits (CrashLoopBackOff, OOMKilled, an init container that fails). Read from the container's state and lastState, the
// kubelet's events and the back-off the kubelet waits. Pure.
import { eventEvidence, fieldEvidence, traceEvidence, type Cause, type Evidence } from './cause';
import { formatSeconds, kubectlPod, onContainer, type ContainerView, type PodView } from './pod-view';
import { postStartCause } from './post-start';
import { livenessCause, probeKills } from './probes';

// pkg/kubelet/images/types.go: the waiting reasons of an image that cannot be had.
export const IMAGE_REASONS = new Set(['ErrImagePull', 'ImagePullBackOff', 'ErrImageNeverPull', 'InvalidImageName', 'ErrImageInspect', 'RegistryUnavailable', 'SignatureValidationFailed']);
// pkg/kubelet/kuberuntime/kuberuntime_container.go (startContainer): ErrCreateContainerConfig's reason.
export const CREATE_CONFIG_ERROR = 'CreateContainerConfigError';
// pkg/kubelet/kuberuntime/kuberuntime_manager.go (doBackOff): waiting reason CrashLoopBackOff, message
// "back-off <duration> restarting failed container=<name> pod=<name>_<namespace>(<uid>)".
export const CRASH_LOOP = 'CrashLoopBackOff';
const BACK_OFF_MESSAGE = /^back-off (\S+) restarting failed container=/;
// pkg/kubelet/kubelet.go: backOffPeriod 10s, MaxContainerBackOff 300s; the back-off resets once the container ran
// twice the maximum without a crash (staging/src/k8s.io/client-go/util/flowcontrol/backoff.go, hasExpired).
export const BACK_OFF_INITIAL_SECONDS = 10;
export const BACK_OFF_MAX_SECONDS = 300;

const RESTART_SOURCE = 'pkg/kubelet/kuberuntime/kuberuntime_manager.go (doBackOff), pkg/kubelet/kubelet.go (backOffPeriod, MaxContainerBackOff)';

/** exitMeaning says what an exit code usually means (a shell's and the kernel's conventions, not Kubernetes'). */
export function exitMeaning(code: number, reason: string | undefined): string {
  if (reason === 'OOMKilled') return 'killed by the kernel\'s OOM killer for going over its memory limit';
  if (code === 0) return 'it finished successfully';
  if (code === 126) return 'the command was found but could not be run (permissions, or not an executable)';
  if (code === 127) return 'the command was not found in the image';
  if (code === 137) return 'killed by SIGKILL (128 + 9): the OOM killer, a liveness or grace-period kill, or kill -9';
  if (code === 143) return 'stopped by SIGTERM (128 + 15)';
  if (code === 139) return 'a segmentation fault (SIGSEGV, 128 + 11)';
  if (code > 128 && code < 160) return `killed by signal ${code - 128}`;
  return 'the application exited with an error: its log says why';
}

function name(c: ContainerView): string {
  return `${c.init ? (c.sidecar ? 'sidecar container' : 'init container') : 'container'} ${c.name}`;
}

function logsCheck(view: PodView, c: ContainerView, previous: boolean): string {
  return `kubectl logs ${kubectlPod(view)} -c ${c.name}${previous ? ' --previous' : ''}`;
}

function describe(view: PodView): string {
  return `kubectl describe pod ${kubectlPod(view)}`;
}

function eventsCheck(view: PodView): string {
  return `kubectl get events --field-selector involvedObject.name=${view.name}${view.namespace === 'default' ? '' : ` -n ${view.namespace}`}`;
}

/** imagePullCause says the container's image cannot be pulled, and why the registry said so. */
export function imagePullCause(view: PodView, c: ContainerView): Cause | undefined {
  const waiting = c.status?.state?.waiting;
  if (!waiting?.reason || !IMAGE_REASONS.has(waiting.reason)) return undefined;
  const image = c.spec.image ?? '';
  const message = waiting.message ?? '';
  const evidence: Evidence[] = [fieldEvidence(`${c.statusField}.state.waiting`, `${waiting.reason}: ${message}`, undefined, `${c.field}.image`)];
  // pkg/kubelet/images/image_manager.go (v1.36.3), on the container's reference: Failed "Failed to pull image \"<image>\":
  // <err>", Normal BackOff "Back-off pulling image \"<image>\"", InspectFailed "Failed to apply default image tag
  // \"<image>\": <err>", ErrImageNeverPull "Container image \"<image>\" is not present with pull policy of Never".
  const quoted = JSON.stringify(image);
  evidence.push(...view.events.filter((e) => e.message.includes(quoted) && onContainer(e, c) && /^(Failed|BackOff|ErrImageNeverPull|InspectFailed)$/.test(e.reason)).map(eventEvidence));
  let why: string;
  let fix: string;
  if (waiting.reason === 'ErrImageNeverPull') {
    why = 'imagePullPolicy is Never and the image is not on the node';
    fix = 'load the image onto the node, or set imagePullPolicy to IfNotPresent';
  } else if (waiting.reason === 'InvalidImageName') {
    // image_manager.go applyDefaultImageTag: github.com/distribution/reference ParseNormalizedNamed refused it; the API
    // server does not check the reference, so the pod was stored and waits on the node without any pull.
    why = `the kubelet cannot parse the image reference (${/couldn't parse image name "(?:[^"\\]|\\.)*": (.*)$/.exec(message)?.[1] ?? 'invalid reference format'}), so it never pulls it`;
    fix = 'correct the image reference ([registry[:port]/]repository[:tag][@sha256:digest], the repository in lower case)';
  } else if (/not found|manifest unknown|NotFound/i.test(message)) {
    why = 'the registry has no such image or tag';
    fix = 'correct the image name or tag; check it exists in the registry';
  } else if (/unauthorized|authentication required|pull access denied|denied|forbidden|401|403/i.test(message)) {
    why = 'the registry refused the pull: it needs credentials the pod does not give';
    fix = 'add an imagePullSecrets entry naming a docker-registry Secret with access to the registry (kubectl create secret docker-registry ...)';
  } else {
    why = 'the pull failed';
    fix = 'check the image reference and that the node can reach the registry';
  }
  const backOff = waiting.reason === 'ImagePullBackOff' ? '; the kubelet retries with a back-off that doubles from 10s up to 5m0s' : '';
  return {
    kind: 'ImagePull', container: c.name,
    title: `the image "${image}" of ${name(c)} cannot be pulled (${waiting.reason}): ${why}`,
    detail: `the container is not created while its image is missing${backOff}`,
    evidence,
    checks: [describe(view), `kubectl get pod ${kubectlPod(view)} -o jsonpath='{.spec.${c.init ? 'initContainers' : 'containers'}[?(@.name=="${c.name}")].image}'`, `crictl pull ${image}   # on ${view.nodeName ?? 'the node'}`],
    fix,
    source: 'pkg/kubelet/images/image_manager.go (EnsureImageExists), pkg/kubelet/images/types.go',
  };
}

/** configErrorCause says the container cannot be created from its config: a missing Secret, ConfigMap or key. */
export function configErrorCause(view: PodView, c: ContainerView): Cause | undefined {
  const waiting = c.status?.state?.waiting;
  if (waiting?.reason !== CREATE_CONFIG_ERROR) return undefined;
  const message = waiting.message ?? '';
  const evidence: Evidence[] = [fieldEvidence(`${c.statusField}.state.waiting`, `${waiting.reason}: ${message}`, undefined, c.field)];
  // pkg/kubelet/kuberuntime/kuberuntime_container.go (startContainer): Warning Failed "Error: <err>".
  evidence.push(...view.events.filter((e) => e.reason === 'Failed' && e.message === `Error: ${message}`).map(eventEvidence));
  const missing = /(secret|configmap) "([^"]+)" not found/i.exec(message) ?? /couldn't find key \S+ in (Secret|ConfigMap) [^/\s]+\/(\S+)/.exec(message);
  const checks = [describe(view)];
  if (missing) checks.push(`kubectl get ${missing[1]!.toLowerCase()} ${missing[2]} -n ${view.namespace}`);
  return {
    kind: 'CreateContainerConfigError', container: c.name,
    title: `${name(c)} cannot be created: ${message || 'its config refers to something missing'}`,
    detail: 'the kubelet builds the environment and mounts from Secrets and ConfigMaps before it creates the container, and retries while one is missing',
    evidence,
    checks,
    fix: missing ? `create the ${missing[1]} ${missing[2]} (with the key the pod asks for) in namespace ${view.namespace}, or mark the reference optional: true`
      : 'correct the env, envFrom or securityContext the message names',
    source: 'pkg/kubelet/kuberuntime/kuberuntime_container.go (startContainer), pkg/kubelet/kubelet_pods.go (makeEnvironmentVariables)',
  };
}

function lastTerminated(view: PodView, c: ContainerView): Evidence[] {
  const out: Evidence[] = [];
  const t = c.status?.lastState?.terminated ?? c.status?.state?.terminated;
  if (t) {
    const which = c.status?.lastState?.terminated ? 'lastState' : 'state';
    out.push(fieldEvidence(`${c.statusField}.${which}.terminated`, `exitCode ${t.exitCode}${t.reason ? `, reason ${t.reason}` : ''}${t.message ? `, message ${t.message}` : ''}`, view.seconds(t.finishedAt), c.field));
  }
  return out;
}

/** crashLoopCause says the container keeps exiting and the kubelet waits before each restart. */
export function crashLoopCause(view: PodView, c: ContainerView): Cause | undefined {
  const waiting = c.status?.state?.waiting;
  if (waiting?.reason !== CRASH_LOOP) return undefined;
  const t = c.status?.lastState?.terminated;
  const backOff = BACK_OFF_MESSAGE.exec(waiting.message ?? '')?.[1];
  const evidence: Evidence[] = [fieldEvidence(`${c.statusField}.state.waiting`, `${CRASH_LOOP}: ${waiting.message ?? ''}`), ...lastTerminated(view, c)];
  evidence.push(fieldEvidence(`${c.statusField}.restartCount`, String(c.status?.restartCount ?? 0)));
  // pkg/kubelet/kuberuntime/kuberuntime_manager.go (doBackOff): Warning BackOff "Back-off restarting failed container <name> in pod <pod>".
  evidence.push(...view.events.filter((e) => e.reason === 'BackOff' && e.message.startsWith(`Back-off restarting failed container ${c.name} in pod `)).map(eventEvidence));
  const step = view.trace.filter((e) => e.phase === 'kubelet.containers' && e.step?.name === c.name && /CrashLoopBackOff/.test(e.result)).at(-1);
  if (step) evidence.push(traceEvidence(step));
  const probe = probeKills(view, c, 'liveness').length > 0 ? 'liveness' : probeKills(view, c, 'startup').length > 0 ? 'startup' : undefined;
  const code = t ? ` (last exit code ${t.exitCode}${t.reason ? `, ${t.reason}` : ''})` : '';
  const exit = probe ? `keeps being killed on its failed ${probe} probe${code}`
    : t ? `exits with code ${t.exitCode}${t.reason ? ` (${t.reason})` : ''}: ${exitMeaning(t.exitCode, t.reason)}` : 'keeps exiting';
  const completed = t?.exitCode === 0;
  return {
    kind: c.init && !c.sidecar ? 'InitContainer' : 'CrashLoopBackOff', container: c.name,
    title: `${name(c)} ${exit}; the kubelet waits ${backOff ?? 'a back-off'} before restarting it (CrashLoopBackOff, ${c.status?.restartCount ?? 0} restarts)`,
    detail: `${c.init && !c.sidecar ? 'the app containers start only after every init container succeeds. ' : ''}the back-off starts at ${BACK_OFF_INITIAL_SECONDS}s and doubles after each crash up to ${formatSeconds(BACK_OFF_MAX_SECONDS)}; it resets once the container ` +
      `has run ${formatSeconds(2 * BACK_OFF_MAX_SECONDS)} without crashing${completed ? '. Exit code 0 under restartPolicy Always still restarts: a long-running pod\'s container must not exit; use a Job for work that completes' : ''}`,
    evidence,
    checks: [logsCheck(view, c, true), describe(view), eventsCheck(view)],
    fix: completed ? 'keep the process in the foreground, or run the work as a Job (restartPolicy OnFailure or Never)' : 'read the previous container\'s log and fix what makes the process exit',
    source: RESTART_SOURCE,
  };
}

/** oomCause says the container was killed for going over its memory limit. */
export function oomCause(view: PodView, c: ContainerView): Cause | undefined {
  const t = c.status?.lastState?.terminated?.reason === 'OOMKilled' ? c.status.lastState.terminated : c.status?.state?.terminated?.reason === 'OOMKilled' ? c.status.state.terminated : undefined;
  if (!t) return undefined;
  const limit = c.spec.resources?.limits?.memory;
  const evidence = lastTerminated(view, c);
  if (limit) evidence.push(fieldEvidence(`${c.field}.resources.limits.memory`, String(limit), undefined, `${c.field}.resources.limits.memory`));
  return {
    kind: 'OOMKilled', container: c.name,
    title: `${name(c)} was OOMKilled (exit code ${t.exitCode}): it went over its memory limit${limit ? ` of ${limit}` : ''}`,
    detail: 'the kernel kills the process when the container\'s cgroup reaches its memory limit; the kubelet then restarts it by restartPolicy',
    evidence,
    checks: [describe(view) + '   # Last State: Terminated, Reason: OOMKilled', `kubectl top pod ${kubectlPod(view)} --containers`, logsCheck(view, c, true)],
    fix: 'raise resources.limits.memory to what the process needs, or make it use less (heap settings such as -Xmx must fit under the limit)',
    source: 'pkg/kubelet/kuberuntime/kuberuntime_container.go (toKubeContainerStatus: the reason comes from the container runtime)',
  };
}

/** exitedCause says a container exited (and was restarted, or failed the pod) when no better cause explains it. */
export function exitedCause(view: PodView, c: ContainerView): Cause | undefined {
  const s = c.status;
  const t = s?.state?.terminated ?? s?.lastState?.terminated;
  if (!t || (t.exitCode === 0 && (s?.restartCount ?? 0) === 0)) return undefined;
  if (t.reason === 'OOMKilled' || probeKills(view, c, 'liveness').length > 0 || probeKills(view, c, 'startup').length > 0) return undefined;
  const restarts = s?.restartCount ?? 0;
  const running = s?.state?.running !== undefined;
  const policy = c.sidecar ? 'Always (sidecar)' : view.pod.spec?.restartPolicy ?? 'Always';
  const previous = running || s?.lastState?.terminated !== undefined;
  const title = c.init && !c.sidecar
    ? `${name(c)} exits with code ${t.exitCode}${t.reason ? ` (${t.reason})` : ''}: the app containers start only after every init container succeeds`
    : `${name(c)} exited with code ${t.exitCode}${t.reason ? ` (${t.reason})` : ''}${restarts > 0 ? ` and was restarted ${restarts} time${restarts > 1 ? 's' : ''}` : ''}`;
  return {
    kind: c.init && !c.sidecar ? 'InitContainer' : 'ContainerExited', container: c.name,
    title,
    detail: `${exitMeaning(t.exitCode, t.reason)}; restartPolicy ${policy}`,
    evidence: [...lastTerminated(view, c), fieldEvidence(`${c.statusField}.restartCount`, String(restarts))],
    checks: [logsCheck(view, c, previous && restarts > 0), describe(view), eventsCheck(view)],
    fix: 'read the container\'s log and fix what makes the process exit',
    source: c.init ? 'pkg/kubelet/kuberuntime/kuberuntime_manager.go (computeInitContainerActions)' : 'pkg/kubelet/kuberuntime/kuberuntime_manager.go (computePodActions)',
  };
}

/** waitingCause reports any other waiting reason a container is held in (CreateContainerError, RunContainerError...). */
export function waitingCause(view: PodView, c: ContainerView): Cause | undefined {
  const w = c.status?.state?.waiting;
  if (!w?.reason || ['ContainerCreating', 'PodInitializing', CRASH_LOOP, CREATE_CONFIG_ERROR].includes(w.reason) || IMAGE_REASONS.has(w.reason)) return undefined;
  return {
    kind: 'ContainerWaiting', container: c.name,
    title: `${name(c)} is waiting: ${w.reason}${w.message ? `: ${w.message}` : ''}`,
    evidence: [fieldEvidence(`${c.statusField}.state.waiting`, `${w.reason}: ${w.message ?? ''}`, undefined, c.field)],
    checks: [describe(view), eventsCheck(view)],
    source: 'pkg/kubelet/kuberuntime/kuberuntime_container.go (startContainer)',
  };
}

/** initRunningCause says a (non-sidecar) init container is still running, so the app containers have not started. */
export function initRunningCause(view: PodView, c: ContainerView): Cause | undefined {
  const since = c.status?.state?.running?.startedAt;
  if (!c.init || c.sidecar || !since) return undefined;
  const at = view.seconds(since);
  // pkg/kubelet/status/generate.go (GeneratePodInitializedCondition): Initialized False, ContainersNotInitialized,
  // "containers with incomplete status: [<names>]".
  const initialized = view.pod.status?.conditions?.find((x) => x.type === 'Initialized');
  const evidence: Evidence[] = [fieldEvidence(`${c.statusField}.state.running`, `startedAt ${since}`, at, c.field)];
  if (initialized && initialized.status !== 'True') evidence.push(fieldEvidence('status.conditions[Initialized]', [initialized.status, initialized.reason, initialized.message].filter(Boolean).join(', ')));
  return {
    kind: 'InitContainer', container: c.name,
    title: `${name(c)} is still running${at !== undefined ? ` (since ${formatSeconds(at)}, ${formatSeconds(view.now - at)} so far)` : ''}: the app containers start only after it exits with 0`,
    detail: 'init containers run one at a time, each to completion; one that waits for something (a service, a file) holds the pod in Init',
    evidence,
    checks: [logsCheck(view, c, false), describe(view)],
    fix: 'make what the init container waits for available, or give it a timeout so that it fails visibly',
    source: 'pkg/kubelet/kuberuntime/kuberuntime_manager.go (computeInitContainerActions)',
  };
}

/** containerCauses lists the causes of one container, the most specific first. */
export function containerCauses(view: PodView, c: ContainerView): Cause[] {
  const out: Cause[] = [];
  // A failed postStart hook explains the kills, the exit code and the back-off: it replaces the generic causes.
  const postStart = postStartCause(view, c);
  const causes = postStart ? [imagePullCause, configErrorCause, oomCause, livenessCause, initRunningCause]
    : [imagePullCause, configErrorCause, waitingCause, oomCause, livenessCause, crashLoopCause, initRunningCause];
  if (postStart) out.push(postStart);
  for (const f of causes) {
    const cause = f(view, c);
    if (cause) out.push(cause);
  }
  // An exit no other cause explains.
  const exited = postStart || c.status?.state?.waiting?.reason === CRASH_LOOP ? undefined : exitedCause(view, c);
  if (exited) out.push(exited);
  return out;
}
