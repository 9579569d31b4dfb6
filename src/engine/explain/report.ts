// The explanation of a whole run: it drives the simulation to its end, keeps the pods the manifest made, and explains
// each from the engine's own trace; a refused request gets its advice. The shape of `pod-lifecycle explain --json`.
import { refOf, type KubeObject, type Pod } from '../api/types';
import type { Rejection } from '../outcome';
import type { TraceEntry } from '../runtime/recorder';
import type { Simulation, SimulationResult } from '../simulation';
import { readSchedulingTrace } from './attempt';
import { diagnosePod, type PodDiagnosis } from './diagnosis';
import { schedulingFacts } from './facts';
import { explainAttempt, explainUnattempted, type SchedulingExplanation } from './pod';
import { notCreated, type NotCreated } from './not-created';
import { adviseRejection, findRefusingEntry } from './rejection';
import { trafficOnDelete, type TrafficOnDelete } from './traffic';
import type { Advice } from './scheduling';
import { type AutoscalerReport, explainAutoscalers } from './autoscaler';
import { type DaemonSetReport, explainDaemonSets } from './daemonset';
import { explainCronJobs, type NoJobYet } from './cronjob';

/** PodReport is where one pod ended and how it was scheduled. */
export interface PodReport {
  /** pod is `namespace/name`. */
  pod: string;
  node?: string;
  phase: string;
  ip?: string;
  /** deleted tells that the pod is gone at the end of the run (after --delete); the rest is as last seen. */
  deleted?: boolean;
  /** last is the pod's last phase-level trace entry: where its road ended. */
  last?: { phase: string; result: string };
  scheduling: SchedulingExplanation;
  /** diagnosis answers why the pod is stuck Terminating, not Ready, restarting or Failed (absent once it is deleted). */
  diagnosis?: PodDiagnosis;
  /** traffic says, for a deleted pod a Service sent traffic to, whether new connections could reach it after SIGTERM. */
  traffic?: TrafficOnDelete;
}

/** ExplainReport is the explanation of a run. */
export interface ExplainReport {
  outcome: SimulationResult['outcome'];
  pods: PodReport[];
  /** rejection is the refusal of the manifest's request, with what kubectl printed. */
  rejection?: Rejection & { kubectl: string };
  /** refused are the pods a controller could not create (FailedCreate), one per distinct refusal. */
  refused?: Rejection[];
  /** notCreated are the pods a StatefulSet should have and does not, with its controller's reason. */
  notCreated?: NotCreated[];
  /** daemonSets say, node by node, which has its daemon pod and why the others have none. */
  daemonSets?: DaemonSetReport[];
  /** autoscalers explain each HorizontalPodAutoscaler: its metrics, its scalings, why it stands where it does. */
  autoscalers?: AutoscalerReport[];
  /** noJobYet are the CronJobs that made no Job in the run, with why. */
  noJobYet?: NoJobYet[];
  /** advice answers the rejection and the refusals. */
  advice: Advice[];
}

/**
 * runForExplanation runs the simulation to its end, keeping every pod of the workload as last seen (deleted ones too),
 * in the order the trace first names them.
 */
export function runForExplanation(sim: Simulation): { result: SimulationResult; pods: Pod[] } {
  const seen = new Map<string, Pod>();
  const keep = (): void => {
    for (const p of sim.pods()) seen.set(refOf(p), p);
  };
  for (let e = sim.step(); e; e = sim.step()) if (e.object?.startsWith('Pod/')) keep();
  keep();
  const result = sim.result();
  const first = new Map<string, number>();
  for (const e of result.trace) if (e.object && !first.has(e.object)) first.set(e.object, e.seq);
  const order = (p: Pod): number => first.get(refOf(p)) ?? Number.MAX_SAFE_INTEGER;
  return { result, pods: [...seen.values()].sort((a, b) => order(a) - order(b)) };
}

function objectsAt(sim: Simulation, seq: number, fallback: readonly KubeObject[]): readonly KubeObject[] {
  const objects = sim.snapshot(seq);
  return objects.length > 0 ? objects : fallback;
}

function lastEntry(trace: readonly TraceEntry[], ref: string): TraceEntry | undefined {
  for (let i = trace.length - 1; i >= 0; i--) if (trace[i]!.object === ref && !trace[i]!.step) return trace[i];
  return undefined;
}

/**
 * runEnd is the virtual second the run stopped at. With --for, virtual time runs that long from the stage's start (the
 * create, or the delete request) whether or not anything happens, so the clock may stand at the last step before it.
 */
export function runEnd(sim: Simulation, trace: readonly TraceEntry[]): number {
  const clock = sim.clock.seconds;
  const forMs = sim.options.forMs;
  if (forMs === undefined) return clock;
  const stageStart = sim.options.delete !== undefined ? trace.find((e) => e.phase === 'apiserver.delete')?.at : 0;
  return stageStart === undefined ? clock : Math.max(clock, stageStart + forMs / 1000);
}

/** explainPod explains one pod: its end and its last scheduling attempt, on the cluster as that attempt saw it. */
export function explainPod(sim: Simulation, result: SimulationResult, pod: Pod): PodReport {
  const ref = refOf(pod);
  const live = result.objects.find((o) => o.kind === 'Pod' && refOf(o) === ref && o.metadata?.uid === pod.metadata?.uid) as Pod | undefined;
  const now = live ?? pod;
  const nodes = result.objects.filter((o) => o.kind === 'Node').map((o) => o.metadata?.name ?? '');
  const trace = readSchedulingTrace(result.trace, ref, nodes);
  const attempt = trace.attempts.at(-1);
  let scheduling: SchedulingExplanation;
  if (attempt) {
    const objects = objectsAt(sim, attempt.seq, result.objects);
    const atAttempt = (objects.find((o) => o.kind === 'Pod' && refOf(o) === ref) as Pod | undefined) ?? now;
    attempt.nodes = objects.filter((o) => o.kind === 'Node').map((o) => o.metadata?.name ?? '');
    scheduling = explainAttempt(attempt, trace.attempts.length, schedulingFacts(atAttempt, objects));
  } else {
    const condition = now.status?.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'False');
    scheduling = explainUnattempted(trace, now, condition?.message);
  }
  const last = lastEntry(result.trace, ref);
  const traffic = trafficOnDelete(result.trace, ref);
  const diagnosis = live ? diagnosePod({ objects: result.objects, events: result.events, trace: result.trace, now: runEnd(sim, result.trace), epoch: sim.clock.epoch }, live) : undefined;
  return {
    pod: `${now.metadata?.namespace ?? 'default'}/${now.metadata?.name ?? ''}`,
    ...(now.spec?.nodeName ? { node: now.spec.nodeName } : {}),
    phase: now.status?.phase ?? 'Pending',
    ...(now.status?.podIP ? { ip: now.status.podIP } : {}),
    ...(live ? {} : { deleted: true }),
    ...(last ? { last: { phase: last.phase, result: last.result } } : {}),
    scheduling,
    ...(diagnosis ? { diagnosis } : {}),
    ...(traffic ? { traffic } : {}),
  };
}

/** refusedPods finds the pod creations the API server refused to a controller, one per distinct message. */
export function refusedPods(trace: readonly TraceEntry[], known: ReadonlySet<string>): { rejection: Rejection; entry: TraceEntry }[] {
  const out = new Map<string, { rejection: Rejection; entry: TraceEntry }>();
  for (const e of trace) {
    if (e.outcome !== 'rejected' || !e.object?.startsWith('Pod/') || known.has(e.object) || !e.phase.startsWith('apiserver.')) continue;
    const status = (e.detail.status ?? {}) as { code?: number; reason?: string; message?: string };
    const message = status.message ?? e.result;
    const key = message.replace(/pods "[^"]*"/, 'pods');
    if (out.has(key)) continue;
    const [, , name] = e.object.split('/');
    out.set(key, { rejection: { phase: e.phase, code: status.code ?? 0, reason: status.reason ?? '', message, object: `Pod/${name}` }, entry: e });
  }
  return [...out.values()];
}

/** explainRun builds the report of a finished run from the pods runForExplanation kept. */
export function explainRun(sim: Simulation, result: SimulationResult, pods: readonly Pod[]): ExplainReport {
  const report: ExplainReport = { outcome: result.outcome, pods: pods.map((p) => explainPod(sim, result, p)), advice: [] };
  const known = new Set(pods.map(refOf));
  if (result.rejection) {
    const entry = findRefusingEntry(result.trace, result.rejection);
    if (entry?.object) known.add(entry.object);
    report.rejection = { ...result.rejection, kubectl: result.kubectl };
    report.advice.push(adviseRejection(result.rejection, entry));
  }
  const daemonSets = explainDaemonSets(result.objects);
  if (daemonSets.length > 0) report.daemonSets = daemonSets;
  const autoscalers = explainAutoscalers(result.objects, result.trace);
  if (autoscalers.length > 0) report.autoscalers = autoscalers;
  const missing = notCreated(result.objects, result.trace);
  if (missing.length > 0) report.notCreated = missing;
  const noJob = explainCronJobs(result.objects, result.trace, sim.clock.epoch.getTime() + sim.clock.now);
  if (noJob.length > 0) report.noJobYet = noJob;
  const refused = refusedPods(result.trace, known);
  if (refused.length > 0) {
    report.refused = refused.map((r) => r.rejection);
    for (const r of refused) report.advice.push(adviseRejection(r.rejection, r.entry));
  }
  return report;
}
