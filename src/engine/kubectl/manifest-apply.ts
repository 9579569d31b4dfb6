// The run's kubectl applies: the first one (the manifest, or the kubectl command line the run starts from, after
// kubectl.generate) and each later `kubectl apply -f FILE`, with what kubectl prints and, for the first, the refusal
// that is the run's rejection.
import type { KubeObject } from '../api/types';
import type { ApiServer } from '../apiserver/server';
import type { SimulationInputs, SourceDocument } from '../cluster/inputs';
import type { Rejection } from '../outcome';
import type { VirtualClock } from '../runtime/clock';
import type { Steps } from '../runtime/step';
import type { DeleteOptions } from '../apiserver/delete';
import type { DeleteTarget } from '../further-deletes';
import { apply, applyNothing, deleteRequest, noObjects } from './apply';
import { ApplyOutput } from './apply-output';
import type { Credentials, KubectlOutcome } from './kubectl-outcome';
import { kubectlGenerate, sendDocument } from './run-command';
import { newSession, type Session } from './discovery';
import { type AnswerCount, RequestLog, SITES } from './request-log';

/** ApplySession is what an apply reads and where it reports: the server, the identity, the clock, kubectl's output. */
export interface ApplySession {
  api: ApiServer;
  credentials: Credentials;
  clock: VirtualClock;
  /** print writes what kubectl prints. */
  print(text: string): void;
  /** printLog writes one line of kubectl's -v=N log (its stderr, apart from what it prints). */
  printLog?(line: string): void;
  /** kubeconfig is the file kubectl loads its configuration from, as its -v=6 log names it. */
  kubeconfig?: string;
  /** home is kubectl's HOME, under which its -v=10 log names the disk cache's files. */
  home?: string;
}

/** Stored is told of each object the server stored, with the document it came from. */
export type Stored = (obj: KubeObject, doc: SourceDocument) => void;

/**
 * applyManifest is the run's first kubectl command: kubectl.generate for a command line (its refusal is the run's),
 * kubectl's "no objects" for an empty file, then each document sent as the command sends it. kubectl prints nothing
 * more for the documents after one it could not read; apply's errors come last (ApplyOutput), run's and create's as
 * each request is answered. `reject` hears the refusals, the first of which is the run's rejection.
 */
export function* applyManifest(s: ApplySession, inputs: SimulationInputs, stored: Stored, reject: (r: Rejection) => void): Steps<void> {
  const kubectl = inputs.kubectl;
  const session = processFor(s, verbosityOf(inputs));
  if (kubectl) {
    const start = yield* kubectlGenerate(kubectl, inputs.manifest, s.clock);
    for (const line of start.printed) s.print(line);
    if (start.rejection) return reject(start.rejection);
  }
  if (inputs.manifest.length === 0) {
    // kubectl apply -f (or create -f) on a file with no object fails before any request: exit 1, as kubectl's.
    const verb = kubectl && 'command' in kubectl && kubectl.command.path === 'create' ? 'create' : 'apply';
    const out = yield* applyNothing(inputs.manifestFile, verb);
    s.print(out.printed);
    reject({ phase: 'kubectl.validate', code: 0, reason: out.clientError ?? 'NoObjects', message: noObjects(verb) });
  }
  const applying = !kubectl || !('command' in kubectl) || kubectl.command.path === 'apply';
  const printed = new ApplyOutput((text) => s.print(text));
  for (const [index, doc] of inputs.manifest.entries()) {
    const out = yield* sendDocument(s.api, session, kubectl, doc, index, s.credentials);
    if (applying) printed.add(out);
    else if (out.printed) s.print(out.printed);
    if (out.dryRun) continue;
    if (out.ok && out.object) stored(out.object, doc);
    else if (!out.ok) reject(rejectionOf(out, doc.object));
  }
  printed.finish();
  // apply.go Run: with no error, the post-processor (printing and pruning) runs, logged at -v=4.
  if (applying && inputs.manifest.length > 0 && !printed.failed) session.log?.infoln(4, SITES.applyPostProcessor, 'Running apply post-processor function');
}

/** verbosityOf is the -v of the run's kubectl command line, 0 without one: every kubectl of the run logs at it. */
export function verbosityOf(inputs: SimulationInputs): number {
  const kubectl = inputs.kubectl;
  return kubectl && 'command' in kubectl ? kubectl.command.verbosity : 0;
}

/**
 * processFor starts one kubectl process of the run: its own memory, the run's disk cache, and at -v=N its log, which
 * opens with the kubeconfig it loaded. See staging/src/k8s.io/client-go/transport/round_trippers.go (DebugWrappers:
 * nothing is logged below -v=6) at v0.36.3.
 */
function processFor(s: ApplySession, verbosity: number): Session {
  if (verbosity <= 0 || !s.printLog) return newSession(s.clock);
  const log = new RequestLog(verbosity, s.clock, s.printLog, answersOf(s.api));
  if (s.kubeconfig !== undefined) log.configLoaded(s.kubeconfig);
  log.featureGates();
  return newSession(s.clock, log, s.home);
}

const answerCounts = new WeakMap<ApiServer, AnswerCount>();

/** answersOf is the count of the answers the run's kubectl logs have numbered, one per server. */
function answersOf(api: ApiServer): AnswerCount {
  let count = answerCounts.get(api);
  if (!count) answerCounts.set(api, (count = { count: 0 }));
  return count;
}

/**
 * deleteTargets is one `kubectl delete` of its targets, one request after the other (kubectl waits for each answer,
 * so the controllers' reactions to one come before the next): `print` hears each line, `reject` each refusal.
 */
export function* deleteTargets(s: ApplySession, targets: readonly DeleteTarget[], flags: DeleteOptions & { force?: boolean }, print: (line: string) => void, reject: (r: Rejection) => void): Steps<void> {
  let first = true;
  for (const { object: obj, source } of targets) {
    if (!first) yield { sleep: 0 };
    first = false;
    const out = yield* deleteRequest(s.api, obj, s.credentials, flags, source);
    print(out.printed);
    if (!out.ok) reject(rejectionOf(out, obj));
  }
}

/** rejectionOf is a refused request as the run's rejection: the API server's own Status (kubectl's wording is in what it printed), or kubectl's own error. */
function rejectionOf(out: KubectlOutcome, obj: KubeObject): Rejection {
  const failed = out.outcome && !out.outcome.ok ? out.outcome : undefined;
  const status = failed?.error.status;
  return {
    phase: failed?.phase ?? 'kubectl.validate', code: status?.code ?? 0,
    // A Status without a reason has StatusReasonUnknown, "" (staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/types.go).
    reason: status ? status.reason ?? '' : out.clientError ?? 'Unknown',
    message: status?.message ?? out.printed, ...(obj.metadata?.name ? { object: `${obj.kind}/${obj.metadata.name}` } : {}),
  };
}

/**
 * applyFile is a later `kubectl apply -f FILE`, with the -v of the run's kubectl command line (0 without one): what it
 * prints joins kubectl's output, its log kubectl's log; a refusal is no rejection.
 */
export function* applyFile(s: ApplySession, docs: readonly SourceDocument[], file: string | undefined, stored: Stored, verbosity = 0): Steps<void> {
  if (docs.length === 0) {
    const out = yield* applyNothing(file);
    s.print(out.printed);
  }
  const printed = new ApplyOutput((text) => s.print(text));
  // A later kubectl is a process of its own: it reads discovery from the disk cache and the OpenAPI documents through
  // the HTTP cache (the hashed ones with no request).
  const session = processFor(s, verbosity);
  for (const doc of docs) {
    const out = yield* apply(s.api, session, doc, s.credentials, 'default');
    printed.add(out);
    if (out.ok && out.object) stored(out.object, doc);
  }
  printed.finish();
  if (docs.length > 0 && !printed.failed) session.log?.infoln(4, SITES.applyPostProcessor, 'Running apply post-processor function');
}
