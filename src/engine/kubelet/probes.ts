// The probe workers: one per container and probe type, ticking every periodSeconds from when the pod
// worker added the pod, skipping until initialDelaySeconds after the container started, counting
// successThreshold / failureThreshold runs in a row before the result changes. A liveness or startup
// failure makes the pod worker kill the container; a readiness change updates the status.
// See pkg/kubelet/prober/worker.go (run, doProbe), prober.go (probe) and prober_manager.go (UpdatePodStatus).
import type { Container, Probe } from '../api/types';
import type { EngineContext } from '../context';
import { sleep, type Steps } from '../runtime/step';
import { goQuote } from '../apiserver/decode-go';
import { goDuration } from '../runtime/durations';
import { containerBehavior, fieldOf } from './containers';
import { httpGetURL, joinHostPort, resolveContainerPort } from './handler-target';
import type { Kubelet } from './kubelet';
import { containerRef, type ContainerRuntimeState, type PodRuntimeState } from './pod-state';
import { refreshProbeStatus, specOf } from './status';

/** ProbeType is a probe worker's kind. */
export type ProbeType = 'startup' | 'readiness' | 'liveness';

/** PROBE_TYPE_NAMES are the probe types as the kubelet prints them in events (probeType.String). */
export const PROBE_TYPE_NAMES: Record<ProbeType, string> = { startup: 'Startup', readiness: 'Readiness', liveness: 'Liveness' };

/** Probe defaults of the API (pkg/apis/core/v1/defaults.go SetDefaults_Probe). */
export const PROBE_DEFAULTS = { timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3, initialDelaySeconds: 0 };

/** probeTimings reads a probe's timing fields with their defaults. */
export function probeTimings(p: Probe): typeof PROBE_DEFAULTS {
  return {
    timeoutSeconds: p.timeoutSeconds ?? PROBE_DEFAULTS.timeoutSeconds,
    periodSeconds: p.periodSeconds ?? PROBE_DEFAULTS.periodSeconds,
    successThreshold: p.successThreshold ?? PROBE_DEFAULTS.successThreshold,
    failureThreshold: p.failureThreshold ?? PROBE_DEFAULTS.failureThreshold,
    initialDelaySeconds: p.initialDelaySeconds ?? PROBE_DEFAULTS.initialDelaySeconds,
  };
}

/** probeDescription prints a probe's handler the way kubectl describe does: `http-get http://:80/healthz`. */
export function probeDescription(p: Probe): string {
  if (p.httpGet) return `http-get ${(p.httpGet.scheme ?? 'HTTP').toLowerCase()}://${p.httpGet.host ?? ''}:${p.httpGet.port}${p.httpGet.path ?? '/'}`;
  if (p.tcpSocket) return `tcp-socket :${p.tcpSocket.port}`;
  if (p.exec) return `exec [${(p.exec.command ?? []).join(' ')}]`;
  if (p.grpc) return `grpc <pod>:${p.grpc.port} ${p.grpc.service ?? ''}`.trim();
  return 'unknown';
}

/**
 * probeFailure is a failing probe's output, by handler: the HTTP prober's "HTTP probe failed with statuscode: %d",
 * the TCP dialer's error, the gRPC prober's "service unhealthy (responded with %q)", and an exec command's combined
 * output (none here). See pkg/probe/http/http.go (DoHTTPProbe), pkg/probe/tcp/tcp.go (DoTCPProbe),
 * pkg/probe/grpc/grpc.go (Probe) and pkg/probe/exec/exec.go (Probe).
 */
export function probeFailure(p: Probe, podIP: string, spec: Container = { name: '' }): string {
  if (p.httpGet) return 'HTTP probe failed with statuscode: 500';
  if (p.tcpSocket) return `dial tcp ${tcpAddress(p, podIP, spec)}: connect: connection refused`;
  if (p.grpc) return 'service unhealthy (responded with "NOT_SERVING")';
  return '';
}

/**
 * probeTimeout is a probe's output when the container does not answer within timeoutSeconds: the HTTP client's
 * url.Error for its Client.Timeout, the TCP dialer's i/o timeout, the gRPC prober's "timeout: health rpc did not
 * complete within %v", and for exec the CRI client's "%w: %q timed out after %s" (ErrCommandTimedOut, "command
 * timed out") that the exec prober turns into a failure with the error as its output.
 * See pkg/probe/http/http.go, pkg/probe/tcp/tcp.go, pkg/probe/grpc/grpc.go, pkg/probe/exec/exec.go and
 * staging/src/k8s.io/cri-client/pkg/remote_runtime.go (execSyncV1).
 */
export function probeTimeout(p: Probe, podIP: string, spec: Container = { name: '' }): string {
  const timeout = goDuration(probeTimings(p).timeoutSeconds * 1000);
  if (p.httpGet) {
    const target = httpGetURL(p.httpGet, spec, podIP);
    return target.ok ? `Get ${goQuote(target.url)}: context deadline exceeded (Client.Timeout exceeded while awaiting headers)` : target.error;
  }
  if (p.tcpSocket) return `dial tcp ${tcpAddress(p, podIP, spec)}: i/o timeout`;
  if (p.grpc) return `timeout: health rpc did not complete within ${timeout}`;
  if (p.exec) return `command timed out: ${goQuote((p.exec.command ?? []).join(' '))} timed out after ${timeout}`;
  return '';
}

/**
 * probeError is the error of a probe the kubelet cannot run at all: an httpGet or tcpSocket port it cannot resolve.
 * The prober then records "%s probe errored and resulted in %s state: %s" and the worker throws the result away.
 * See pkg/kubelet/prober/prober.go (probe, httpProberAction.Run, tcpProberAction.Run) and worker.go (doProbe).
 */
export function probeError(p: Probe, spec: Container): string | undefined {
  const port = p.httpGet ? p.httpGet.port : p.tcpSocket ? p.tcpSocket.port : undefined;
  if (port === undefined) return undefined;
  const resolved = resolveContainerPort(port, spec);
  return resolved.ok ? undefined : resolved.error;
}

/** tcpAddress is the address the TCP prober dials: the probe's host or the pod IP, and the resolved port. */
function tcpAddress(p: Probe, podIP: string, spec: Container): string {
  const resolved = resolveContainerPort(p.tcpSocket?.port, spec);
  return joinHostPort(p.tcpSocket?.host || podIP, resolved.ok ? resolved.port : 0);
}

interface ProbeWorker {
  type: ProbeType;
  c: ContainerRuntimeState;
  probe: Probe;
  containerID?: string;
  onHold: boolean;
  lastResult?: 'Success' | 'Failure';
  resultRun: number;
  stopped: boolean;
  lastManualAt?: number;
  /** busy is set while a probe waits for the container's answer. */
  busy?: boolean;
}

const workers = new WeakMap<PodRuntimeState, ProbeWorker[]>();

/** startProbeWorkers starts a worker for every probe of the pod's containers and sidecars; each probes at once, then every period. */
export function startProbeWorkers(ctx: EngineContext, kubelet: Kubelet, state: PodRuntimeState): void {
  const list: ProbeWorker[] = [];
  for (const c of state.containers) {
    if (c.init && !c.sidecar) continue;
    const spec = specOf(state.pod, c);
    for (const type of ['startup', 'readiness', 'liveness'] as const) {
      const probe = spec[`${type}Probe`];
      if (!probe) continue;
      const w: ProbeWorker = { type, c, probe, onHold: false, resultRun: 0, stopped: false };
      list.push(w);
      const period = probeTimings(probe).periodSeconds * 1000;
      // The ticker does not wait for a slow probe: the next tick is due one period after this one.
      const tick = function* (): Steps<void> {
        if (w.stopped) return;
        const next = ctx.schedule(period, `kubelet ${kubelet.name}: ${type} probe ${state.ref} ${c.name}`, tick);
        if (w.busy) return;
        if (!(yield* doProbe(ctx, kubelet, state, w))) { w.stopped = true; next.cancelled = true; }
      };
      ctx.schedule(0, `kubelet ${kubelet.name}: ${type} probe ${state.ref} ${c.name}`, tick);
    }
  }
  workers.set(state, list);
}

/**
 * triggerReadiness runs the readiness probe of every running, started container that is not ready
 * yet, at once: the probe manager does so whenever it fills in a pod status (UpdatePodStatus).
 */
export function triggerReadiness(ctx: EngineContext, kubelet: Kubelet, state: PodRuntimeState): void {
  for (const w of workers.get(state) ?? []) {
    if (w.type !== 'readiness' || w.stopped || w.c.state !== 'running' || w.c.ready || w.lastManualAt === ctx.clock.now) continue;
    w.lastManualAt = ctx.clock.now;
    ctx.schedule(0, `kubelet ${kubelet.name}: readiness probe ${state.ref} ${w.c.name} (status update)`, function* () {
      if (!w.stopped && !w.c.ready && !w.busy) yield* doProbe(ctx, kubelet, state, w);
    });
  }
}

/** probeResult is what the container answers at `now`, as its Behavior says. */
function probeResult(ctx: EngineContext, state: PodRuntimeState, w: ProbeWorker, now: number): 'Success' | 'Failure' {
  const b = containerBehavior(ctx, state.pod.metadata?.name ?? '', w.c.name);
  const startedAt = w.c.startedAt ?? now;
  if (w.type === 'liveness') return b.livenessFailsAfterSeconds !== undefined && now >= startedAt + b.livenessFailsAfterSeconds * 1000 ? 'Failure' : 'Success';
  return now >= startedAt + (b.readyAfterSeconds ?? 0) * 1000 ? 'Success' : 'Failure';
}

/** doProbe is one run of a worker; false stops the worker. See worker.go (doProbe). */
function* doProbe(ctx: EngineContext, kubelet: Kubelet, state: PodRuntimeState, w: ProbeWorker): Steps<boolean> {
  if (state.terminating || state.terminated || state.podTerminal) return false;
  const c = w.c;
  const now = ctx.clock.now;
  if (c.state !== 'running') {
    // A container that will not be restarted is not probed any more.
    return !(c.state === 'terminated' && state.pod.spec?.restartPolicy === 'Never' && !c.sidecar);
  }
  if (w.containerID !== c.containerID) {
    // A new container: its result starts at the initial value and probing resumes (the run count carries on).
    w.containerID = c.containerID;
    w.onHold = false;
  }
  if (w.onHold) return true;
  const t = probeTimings(w.probe);
  if (Math.trunc((now - (c.startedAt ?? now)) / 1000) < t.initialDelaySeconds) return true;
  refreshProbeStatus(state);
  // Startup probes stop once the container started; the others wait for it.
  if (c.started ? w.type === 'startup' : w.type !== 'startup') return true;
  const field = `${fieldOf(state, c)}.${w.type}Probe`;
  const spec = specOf(state.pod, c);
  const error = probeError(w.probe, spec);
  if (error !== undefined) {
    // prober.go probe: each of the 3 tries errs, so the result is Unknown with the error; worker.go doProbe throws
    // the result away: no run is counted and the container keeps its last result.
    // prober.go recordContainerEvent (v1.36.3): on the container's reference.
    kubelet.event(state, 'Warning', 'Unhealthy', `${PROBE_TYPE_NAMES[w.type]} probe errored and resulted in unknown state: ${error}`, containerRef(c));
    yield {
      phase: 'kubelet.probes', object: state.ref, field, step: { kind: 'container', name: c.name },
      result: `${w.type} probe errored (${error}): the kubelet cannot run it, and the result is thrown away`,
      detail: { probe: w.type, handler: probeDescription(w.probe), error }, outcome: 'failed',
    };
    return true;
  }
  // The probe waits for the container's answer, at most timeoutSeconds.
  const response = containerBehavior(ctx, state.pod.metadata?.name ?? '', c.name).probeResponseSeconds ?? 0;
  const timedOut = response > t.timeoutSeconds;
  const id = c.containerID;
  if (response > 0) {
    w.busy = true;
    yield* sleep(Math.min(response, t.timeoutSeconds) * 1000);
    w.busy = false;
    if (state.terminating || state.podTerminal || c.containerID !== id || c.state !== 'running') return true;
  }
  const result = timedOut ? 'Failure' : probeResult(ctx, state, w, now);
  if (w.lastResult === result) w.resultRun++;
  else { w.lastResult = result; w.resultRun = 1; }
  const threshold = result === 'Failure' ? t.failureThreshold : t.successThreshold;
  if (result === 'Failure') {
    const output = timedOut ? probeTimeout(w.probe, state.ip ?? '', spec) : probeFailure(w.probe, state.ip ?? '', spec);
    kubelet.event(state, 'Warning', 'Unhealthy', `${PROBE_TYPE_NAMES[w.type]} probe failed: ${output}`, containerRef(c));
    yield {
      phase: 'kubelet.probes', object: state.ref, field, step: { kind: 'container', name: c.name },
      result: `${w.type} probe failed (${Math.min(w.resultRun, threshold)}/${threshold} failures in a row): ${output || 'the command exited non-zero'}`,
      detail: { probe: w.type, handler: probeDescription(w.probe), failures: w.resultRun, failureThreshold: t.failureThreshold, periodSeconds: t.periodSeconds, timeoutSeconds: t.timeoutSeconds, initialDelaySeconds: t.initialDelaySeconds },
      outcome: 'failed',
    };
  }
  if (w.resultRun < threshold) {
    if (result === 'Success') {
      yield {
        phase: 'kubelet.probes', object: state.ref, field, step: { kind: 'container', name: c.name },
        result: `${w.type} probe succeeded (${w.resultRun}/${threshold} successes in a row needed)`, detail: { probe: w.type, successes: w.resultRun, successThreshold: t.successThreshold },
      };
    }
    return true;
  }
  const previous = c.probeResults[w.type];
  c.probeResults[w.type] = result;
  if (result === 'Failure' && w.type !== 'readiness') {
    // The container will be killed: probing waits for the next container. See worker.go (onHold).
    w.onHold = true;
    w.resultRun = 0;
  }
  // Readiness starts as Failure and liveness as Success (the workers' initialValue); only a change is reported.
  const initial = w.type === 'readiness' ? 'Failure' : w.type === 'liveness' ? 'Success' : undefined;
  const changed = (previous ?? initial) !== result;
  if (!changed) return true;
  if (result === 'Success') {
    yield {
      phase: 'kubelet.probes', object: state.ref, field, step: { kind: 'container', name: c.name },
      result: `${w.type} probe succeeded (${probeDescription(w.probe)})${w.type === 'startup' ? `: ${c.name} is started` : w.type === 'readiness' ? `: ${c.name} is ready` : ''}`,
      detail: { probe: w.type, handler: probeDescription(w.probe), successThreshold: t.successThreshold, periodSeconds: t.periodSeconds },
    };
  }
  if (w.type === 'readiness') yield* kubelet.writeStatus(state, `${c.name} ${result === 'Success' ? 'ready' : 'not ready'}`);
  else {
    if (w.type === 'startup' && result === 'Success') yield* kubelet.writeStatus(state, `${c.name} started`);
    kubelet.requestSync(state, `${w.type} probe ${result === 'Success' ? 'succeeded' : 'failed'} for ${c.name}`);
  }
  return true;
}
