// Why a container is not Ready or was restarted by its probes: a readiness probe that fails, a startup probe not yet
// passed, a liveness probe that kills it. Read from the Unhealthy and Killing events, the container's status and the
// probe's settings, as `kubectl describe pod` prints them. Pure.
import type { Probe } from '../api/types';
import { eventEvidence, fieldEvidence, traceEvidence, type Cause, type Evidence } from './cause';
import { formatSeconds, kubectlPod, onContainer, type ContainerView, type PodView } from './pod-view';

// pkg/apis/core/v1/defaults.go (SetDefaults_Probe): timeoutSeconds 1, periodSeconds 10, successThreshold 1, failureThreshold 3.
const PROBE_DEFAULTS = { timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 } as const;
// pkg/kubelet/prober/prober.go (probe → recordContainerEvent): Warning Unhealthy "%s probe failed: %s" with the output,
// or "%s probe errored and resulted in %s state: %s" when the probe could not run.
export const EVENT_UNHEALTHY = 'Unhealthy';
// pkg/kubelet/kuberuntime/kuberuntime_manager.go (computePodActions): Normal Killing
// "Container <name> failed <liveness|startup> probe, will be restarted" (without ", will be restarted" under restartPolicy Never).
export const PROBE_KILL = /^Container (\S+) failed (liveness|startup) probe/;

const PROBER_SOURCE = 'pkg/kubelet/prober/prober.go, pkg/kubelet/prober/worker.go';

export type ProbeType = 'liveness' | 'readiness' | 'startup';

function probeOf(c: ContainerView, type: ProbeType): Probe | undefined {
  return type === 'liveness' ? c.spec.livenessProbe : type === 'readiness' ? c.spec.readinessProbe : c.spec.startupProbe;
}

function handlerText(p: Probe): string {
  if (p.httpGet) return `http-get ${(p.httpGet.scheme ?? 'HTTP').toLowerCase()}://${p.httpGet.host ?? ''}:${p.httpGet.port}${p.httpGet.path ?? '/'}`;
  if (p.tcpSocket) return `tcp-socket ${p.tcpSocket.host ?? ''}:${p.tcpSocket.port}`;
  if (p.exec) return `exec [${(p.exec.command ?? []).join(' ')}]`;
  if (p.grpc) return `grpc <pod>:${p.grpc.port} ${p.grpc.service ?? ''}`.trimEnd();
  return 'unknown';
}

/** probeText prints a probe as `kubectl describe pod` does: `http-get http://:80/ delay=0s timeout=1s period=10s #success=1 #failure=3`. */
export function probeText(p: Probe): string {
  // staging/src/k8s.io/kubectl/pkg/describe/describe.go (DescribeProbe): "delay=%ds timeout=%ds period=%ds #success=%d #failure=%d".
  const v = { ...PROBE_DEFAULTS, ...p };
  return `${handlerText(p)} delay=${p.initialDelaySeconds ?? 0}s timeout=${v.timeoutSeconds}s period=${v.periodSeconds}s #success=${v.successThreshold} #failure=${v.failureThreshold}`;
}

/** failureWindow is how long a probe fails before it counts: failureThreshold × periodSeconds. */
function failureWindow(p: Probe): number {
  return (p.failureThreshold ?? PROBE_DEFAULTS.failureThreshold) * (p.periodSeconds ?? PROBE_DEFAULTS.periodSeconds);
}

/**
 * unhealthyEvents are the Unhealthy events of one probe type of the container, failed or errored: the message does not
 * name the container, the event's involvedObject.fieldPath does (prober.go recordContainerEvent, v1.36.3).
 */
export function unhealthyEvents(view: PodView, type: ProbeType, c: ContainerView): Evidence[] {
  const name = `${type[0]!.toUpperCase()}${type.slice(1)} probe`;
  return view.events.filter((e) => e.reason === EVENT_UNHEALTHY && onContainer(e, c) && (e.message.startsWith(`${name} failed:`) || e.message.startsWith(`${name} errored `))).map(eventEvidence);
}

/** probeKills are the Killing events that say a probe failure killed this container. */
export function probeKills(view: PodView, c: ContainerView, type: 'liveness' | 'startup'): Evidence[] {
  return view.events.filter((e) => {
    const m = PROBE_KILL.exec(e.message);
    return e.reason === 'Killing' && m?.[1] === c.name && m[2] === type;
  }).map(eventEvidence);
}

function probeEvidence(c: ContainerView, type: ProbeType): Evidence {
  const field = `${c.field}.${type}Probe`;
  return fieldEvidence(field, probeText(probeOf(c, type)!), undefined, field);
}

function probeChecks(view: PodView, c: ContainerView, p: Probe): string[] {
  const pod = kubectlPod(view);
  const out = [`kubectl describe pod ${pod}   # the probe's line and the Unhealthy events`];
  if (p.httpGet) out.push(`kubectl port-forward pod/${view.name} 8080:${p.httpGet.port}${view.namespace === 'default' ? '' : ` -n ${view.namespace}`}, then curl -i http://localhost:8080${p.httpGet.path ?? '/'}`);
  else if (p.exec?.command) out.push(`kubectl exec ${pod} -c ${c.name} -- ${p.exec.command.join(' ')}`);
  out.push(`kubectl get events --field-selector involvedObject.name=${view.name}${view.namespace === 'default' ? '' : ` -n ${view.namespace}`}`);
  return out;
}

/** livenessCause says a failing liveness probe killed the container. */
export function livenessCause(view: PodView, c: ContainerView): Cause | undefined {
  const kills = probeKills(view, c, 'liveness');
  if (kills.length === 0) return undefined;
  const p = c.spec.livenessProbe;
  const count = kills.reduce((n, e) => n + (e.count ?? 1), 0);
  const evidence = [...unhealthyEvents(view, 'liveness', c), ...kills];
  if (p) evidence.unshift(probeEvidence(c, 'liveness'));
  const last = c.status?.lastState?.terminated;
  if (last) evidence.push(fieldEvidence(`${c.statusField}.lastState.terminated`, `exitCode ${last.exitCode}${last.reason ? `, reason ${last.reason}` : ''}`, view.seconds(last.finishedAt)));
  return {
    kind: 'LivenessProbe', container: c.name,
    title: `the liveness probe of ${c.name} failed and the kubelet killed the container ${count} time${count > 1 ? 's' : ''} ("failed liveness probe, will be restarted")`,
    detail: `${p ? `after ${p.failureThreshold ?? 3} failures in a row (about ${failureWindow(p)}s at period ${p.periodSeconds ?? 10}s) ` : ''}the kubelet stops the container ` +
      'with SIGTERM and the pod\'s grace period and restarts it; restarts that keep failing go into CrashLoopBackOff',
    evidence,
    checks: [...probeChecks(view, c, p ?? {}), `kubectl logs ${kubectlPod(view)} -c ${c.name} --previous`],
    fix: 'make the probe\'s target answer within timeoutSeconds; for an application slow to start, add a startupProbe instead of raising initialDelaySeconds; ' +
      'a liveness probe should not depend on other services',
    source: `pkg/kubelet/kuberuntime/kuberuntime_manager.go (computePodActions), ${PROBER_SOURCE}`,
  };
}

/** startupCause says the startup probe has not passed yet, or killed the container. */
export function startupCause(view: PodView, c: ContainerView): Cause | undefined {
  const p = c.spec.startupProbe;
  const kills = probeKills(view, c, 'startup');
  const waiting = p !== undefined && c.status?.state?.running !== undefined && c.status.started !== true;
  if (!waiting && kills.length === 0) return undefined;
  const evidence: Evidence[] = [];
  if (p) evidence.push(probeEvidence(c, 'startup'));
  if (waiting) evidence.push(fieldEvidence(`${c.statusField}.started`, 'false', view.seconds(c.status?.state?.running?.startedAt)));
  evidence.push(...unhealthyEvents(view, 'startup', c), ...kills);
  const window = p ? (p.initialDelaySeconds ?? 0) + failureWindow(p) : undefined;
  return {
    kind: 'StartupProbe', container: c.name,
    title: kills.length > 0 ? `the startup probe of ${c.name} did not pass in time and the kubelet killed the container` : `the startup probe of ${c.name} has not passed yet`,
    detail: `until it passes, the liveness and readiness probes do not run and the container is not Ready${window !== undefined ? `; after about ${window}s ` +
      '(initialDelaySeconds + failureThreshold × periodSeconds) of failures the kubelet kills the container and restarts it' : ''}`,
    evidence,
    checks: probeChecks(view, c, p ?? {}),
    fix: 'give the application the time it needs to start: raise the startup probe\'s failureThreshold × periodSeconds, or check that its target exists',
    source: PROBER_SOURCE,
  };
}

/** readinessCause says the readiness probe of a running container has not succeeded. */
export function readinessCause(view: PodView, c: ContainerView): Cause | undefined {
  const p = c.spec.readinessProbe;
  const s = c.status;
  if (!p || s?.state?.running === undefined || s.ready || s.started === false) return undefined;
  const startedAt = view.seconds(s.state.running.startedAt);
  const evidence: Evidence[] = [probeEvidence(c, 'readiness'), fieldEvidence(`${c.statusField}.ready`, 'false', startedAt)];
  const failures = unhealthyEvents(view, 'readiness', c);
  evidence.push(...failures);
  const steps = view.trace.filter((e) => e.phase === 'kubelet.probes' && (e.step?.name === c.name || e.detail?.container === c.name) && (startedAt === undefined || e.at >= startedAt));
  evidence.push(...steps.slice(-2).map(traceEvidence));
  const since = startedAt !== undefined ? ` for ${formatSeconds(view.now - startedAt)} since the container started at ${formatSeconds(startedAt)}` : '';
  return {
    kind: 'ReadinessProbe', container: c.name,
    title: failures.length > 0 ? `the readiness probe of ${c.name} fails${since}` : `the readiness probe of ${c.name} has not succeeded yet${since}`,
    detail: `${probeText(p)}: the container is Ready after ${p.successThreshold ?? 1} success; until then the pod is kept out of its Services' endpoints. ` +
      'A failing readiness probe does not restart the container',
    evidence,
    checks: [...probeChecks(view, c, p), 'kubectl get endpointslices -l kubernetes.io/service-name=<service>'],
    fix: 'check that the probe\'s target exists and answers within timeoutSeconds once the application is up; a slow start needs only time (or a startupProbe)',
    source: `${PROBER_SOURCE}, pkg/kubelet/status/generate.go (GenerateContainersReadyCondition)`,
  };
}
