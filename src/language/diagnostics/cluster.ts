// What a given cluster would do with a workload, found by running it: the engine's own simulation takes the document
// through kubectl, kube-apiserver (authorization, admission), the controllers and kube-scheduler for a moment of
// virtual time, and whatever refuses it — the rejection, FailedCreate, FailedScheduling, an API warning — is placed
// on the document as a warning naming the phase.
import type { ClusterInput, Behavior, SourceDocument } from '../../engine/cluster/inputs';
import { InputError } from '../../engine/cluster/inputs';
import { type BootstrapImage, bootstrapImage } from '../../engine/cluster/bootstrap';
import { loadRunFiles } from '../../engine/cluster/files';
import type { ReadFile } from '../../engine/cluster/kubeconfig';
import { Simulation } from '../../engine/simulation';
import type { TraceEntry } from '../../engine/runtime/recorder';
import { lookup, rangeOfField } from '../ranges';
import { RULES, type Rule } from '../settings';
import { DiagnosticSeverity, type Finding, insertInto, type QuickFix } from './finding';

/** RUN_FOR_MS bounds a check's virtual time: enough for a webhook's longest timeout (30 s) before the create ends. */
const RUN_FOR_MS = 60_000;

/**
 * MAX_STEPS bounds one check: the trace entries a workload's run may record before it is cut short. A Deployment
 * reaches its first pod's scheduling in about 120; webhooks and retries add some. A count, not a time, so the
 * diagnostics are the same on any machine.
 */
export const MAX_STEPS = 1_500;

/**
 * runToScheduling steps a simulation until what a check reads is known: the create refused, a kubelet at work on a
 * pod (it was scheduled), or the first scheduling attempts over (time moves past the instant they happened at);
 * retries and the kubelet's work are left out. It returns false when MAX_STEPS cut the run short before that.
 */
function runToScheduling(sim: Simulation, maxSteps: number): boolean {
  let schedulingAt: number | undefined;
  let steps = 0;
  let known = false;
  sim.runUntil((entry) => {
    known = sim.rejection !== undefined || entry.phase.startsWith('kubelet.') || (schedulingAt !== undefined && entry.at > schedulingAt);
    if (entry.phase.startsWith('scheduler.')) schedulingAt ??= entry.at;
    return known || ++steps >= maxSteps;
  });
  return known || steps < maxSteps;
}

/** MAX_CHECKED_REPLICAS is how many replicas of a workload the check runs at most. */
export const MAX_CHECKED_REPLICAS = 10;

/**
 * firstPodOnly is the workload as the check runs it: a Deployment or ReplicaSet of many replicas with at most
 * MAX_CHECKED_REPLICAS, enough for a quota or a node that takes only the first few pods to show, without making
 * 100,000 pods for a diagnostic of `replicas: 100000`. The fields, and so the ranges, stay the document's own.
 */
export function firstPodOnly(doc: SourceDocument): SourceDocument {
  const spec = doc.object['spec'] as { replicas?: unknown } | undefined;
  if (doc.object.kind === 'Pod' || typeof spec?.replicas !== 'number' || spec.replicas <= MAX_CHECKED_REPLICAS) return doc;
  return { ...doc, object: { ...doc.object, spec: { ...spec, replicas: MAX_CHECKED_REPLICAS } } };
}

/** LoadedCluster is a cluster read from the settings' files (or the embedded one), or the error that stopped it. */
export type LoadedCluster = { cluster: ClusterInput; behavior: Behavior } | { error: InputError };

/** MANIFEST_PLACEHOLDER names the empty manifest the cluster is loaded with. */
const MANIFEST_PLACEHOLDER = '\0manifest';

/** loadCluster reads the cluster files as `pod-lifecycle run --cluster` does; none means the embedded cluster. */
export function loadCluster(files: readonly string[], read: ReadFile): LoadedCluster {
  try {
    const inputs = loadRunFiles({ manifest: MANIFEST_PLACEHOLDER, clusters: [...files], identity: { kind: 'default' } }, (path) => (path === MANIFEST_PLACEHOLDER ? '' : read(path)));
    return { cluster: inputs.cluster, behavior: inputs.behavior };
  } catch (err) {
    if (err instanceof InputError) return { error: err };
    throw err;
  }
}

/** PHASE_OF_EVENT is the phase that records each Warning event a check reports. */
const PHASE_OF_EVENT: Readonly<Record<string, { phase: string; rule: Rule }>> = {
  FailedScheduling: { phase: 'scheduler.filter', rule: RULES.scheduling },
  FailedCreate: { phase: 'controllers.replicaset', rule: RULES.controllers },
};

/**
 * CheckCluster is the cluster a file's workloads are checked on: the settings' cluster with the file's other documents
 * (`context`: namespaces, service accounts, priority classes...) in it, stored once for all of the file's checks.
 */
export interface CheckCluster {
  cluster: ClusterInput;
  behavior: Behavior;
  image: BootstrapImage;
}

/** checkCluster puts a file's context into the loaded cluster and stores it, ready for each workload's check. */
export function checkCluster(context: readonly SourceDocument[], loaded: { cluster: ClusterInput; behavior: Behavior }): CheckCluster {
  const cluster: ClusterInput = { ...loaded.cluster, objects: [...loaded.cluster.objects, ...context] };
  return { cluster, behavior: loaded.behavior, image: bootstrapImage(cluster, SEED) };
}

/** SEED is the random seed of every check, as of `pod-lifecycle run` without --seed. */
const SEED = 1;

/** checkOnCluster runs one workload document on the file's cluster and returns what would stop it. */
export function checkOnCluster(doc: SourceDocument, on: CheckCluster, maxSteps = MAX_STEPS): Finding[] {
  const run = firstPodOnly(doc);
  const sim = new Simulation({ manifest: [run], cluster: on.cluster, behavior: on.behavior, identity: { kind: 'default' } }, { forMs: RUN_FOR_MS, seed: SEED, bootstrapped: on.image, pastInvalid: true });
  const complete = runToScheduling(sim, maxSteps);
  // What the check reads of the run, without the outcome and the object list a report computes.
  const result = { rejection: sim.rejection, kubectl: sim.kubectlOutput.join('\n'), events: sim.events, trace: sim.trace };
  const findings: Finding[] = [];
  const place = (entry: TraceEntry | undefined): string | undefined => {
    if (!entry?.object || entry.field === undefined) return undefined;
    const source = sim.sourceOf(entry.object);
    return source?.doc === run ? `${source.prefix}${entry.field}` : undefined;
  };
  if (result.rejection) {
    const { phase, message } = result.rejection;
    const entry = [...result.trace].reverse().find((e) => e.outcome === 'rejected' && e.phase === phase && e.field !== undefined);
    findings.push(finding(doc, phase === 'apiserver.validate' ? RULES.validation : RULES.admission, message, phase, place(entry), ''));
  }
  for (const line of result.kubectl.split('\n')) {
    const warning = /^Warning: (.*)$/.exec(line)?.[1];
    if (warning) findings.push(finding(doc, RULES.admission, warning, 'apiserver.admit.validating', undefined, prefixOf(doc)));
  }
  const seen = new Set<string>();
  for (const event of result.events) {
    const known = PHASE_OF_EVENT[event.reason];
    // A controller retries a refused create under a new generated name, and the event correlator combines the 10th and
    // later refusals: one refusal is one finding, with the first message.
    const refusal = event.message.replace(/^\(combined from similar events\): /, '').replace(/pods "([a-z0-9.-]+)-[a-z0-9]{5}"/g, 'pods "$1-*"');
    if (event.type !== 'Warning' || !known || seen.has(refusal)) continue;
    seen.add(refusal);
    // The fields the refusing steps read (one per plugin that filtered nodes out), each as written in the document.
    const fields = new Map<string, string>();
    for (const entry of result.trace) {
      if (entry.object !== event.object || entry.phase !== known.phase || entry.outcome !== 'rejected') continue;
      const path = place(entry);
      if (path === undefined) continue;
      const written = writtenField(doc, path);
      if (!fields.has(written)) fields.set(written, entry.result);
    }
    // One refusal is one finding, never the same message twice (on `spec:` and on the container): on the first most
    // specific field it read (not one that holds another), the other fields beside it with what their step said.
    const all = [...fields.keys()];
    const first = all.find((f) => !all.some((g) => g !== f && (f === '' || g.startsWith(`${f}.`) || g.startsWith(`${f}[`))));
    const main = finding(doc, known.rule, event.message, known.phase, first || undefined, prefixOf(doc));
    const others = all.filter((f) => f !== first);
    findings.push(others.length ? { ...main, related: others.map((f) => ({ range: rangeOfField(doc, f, 'key'), message: fields.get(f)! })) } : main);
  }
  if (!complete) findings.push(cutShort(doc, maxSteps));
  return findings;
}

/** writtenField is the field a path names as the document writes it: the path, or its nearest ancestor written. */
function writtenField(doc: SourceDocument, path: string): string {
  for (let p = path; ; p = p.replace(/(?:\.[^.[\]]+|\[[^\]]*\])$/, '')) {
    if (p === '' || doc.fields.has(p)) return p;
    if (!/[.[]/.test(p)) return '';
  }
}

/** cutShort says that the check stopped after its steps before the first pod was scheduled or refused. */
function cutShort(doc: SourceDocument, steps: number): Finding {
  return {
    rule: RULES.scheduling, severity: DiagnosticSeverity.Information, range: rangeOfField(doc, 'metadata.name', 'value'),
    message: `The check on the cluster stopped after ${steps} steps, before the first pod was scheduled: nothing refused it so far. \`pod-lifecycle run\` on this file follows the whole lifecycle.`,
  };
}

/** prefixOf is where a document keeps its pod: `` for a Pod, `spec.template.` for a workload. */
function prefixOf(doc: SourceDocument): string {
  return doc.object.kind === 'Pod' ? '' : 'spec.template.';
}

/** finding words a cluster's refusal: the message as Kubernetes gives it, then the phase where it happens. */
function finding(doc: SourceDocument, rule: Rule, message: string, phase: string, path: string | undefined, podPrefix: string): Finding {
  const containers = containersNamed(doc, message, podPrefix);
  const range = path !== undefined ? rangeOfField(doc, path, 'key') : containers[0] ? rangeOfField(doc, containerKeyPath(doc, containers[0]), 'key') : rangeOfField(doc, 'metadata.name', 'value');
  return {
    rule, severity: DiagnosticSeverity.Warning, message: `${message}\n(${whatHappens(phase)} at ${phase})`, range, phase,
    fixes: clusterFixes(doc, message, containers),
  };
}

/** whatHappens says in a few words what the phase's refusal means for the workload. */
function whatHappens(phase: string): string {
  if (phase.startsWith('scheduler.')) return 'the pod would stay Pending: no node fits it';
  if (phase.startsWith('controllers.')) return 'the pods would not be created';
  return 'the create would be refused';
}

/** containersNamed finds the containers a message names (`container "app"`, `for: app`), as their field paths. */
function containersNamed(doc: SourceDocument, message: string, podPrefix: string): string[] {
  const names = new Set<string>();
  // PodSecurity names them `container "app"` or `containers "app", "side"` (pod-security-admission/policy/*.go).
  for (const m of message.matchAll(/containers? ((?:"[^"]+"(?:, | and )?)+)/g)) for (const q of (m[1] ?? '').matchAll(/"([^"]+)"/g)) names.add(q[1] ?? '');
  for (const m of message.matchAll(/ for: ([\w.-]+(?:,[\w.-]+)*)/g)) for (const n of (m[1] ?? '').split(',')) names.add(n);
  const out: string[] = [];
  for (const list of ['initContainers', 'containers']) {
    const items = lookup(doc.object, [...podPrefix.split('.').filter(Boolean), 'spec', list]);
    if (!Array.isArray(items)) continue;
    items.forEach((c: { name?: unknown }, i) => {
      if (typeof c?.name === 'string' && names.has(c.name)) out.push(`${podPrefix}spec.${list}[${i}]`);
    });
  }
  return out;
}

/** containerKeyPath is where a container's problem shows: its securityContext key when it has one, else its name. */
function containerKeyPath(doc: SourceDocument, container: string): string {
  return doc.fields.has(`${container}.securityContext`) ? `${container}.securityContext` : `${container}.name`;
}

/** RESTRICTED_FIELDS are the securityContext fields the restricted Pod Security Standard requires of every container. */
const RESTRICTED_FIELDS: readonly [string, readonly string[]][] = [
  ['allowPrivilegeEscalation', ['allowPrivilegeEscalation: false']],
  ['capabilities', ['capabilities:', '  drop: ["ALL"]']],
  ['runAsNonRoot', ['runAsNonRoot: true']],
  ['seccompProfile', ['seccompProfile:', '  type: RuntimeDefault']],
];

/**
 * clusterFixes offers, for a PodSecurity "restricted" refusal, the securityContext fields that level demands (see
 * https://kubernetes.io/docs/concepts/security/pod-security-standards/#restricted), and for a quota that demands
 * requests or limits, resources on the containers that have none.
 */
function clusterFixes(doc: SourceDocument, message: string, containers: readonly string[]): QuickFix[] {
  const fixes: QuickFix[] = [];
  if (/PodSecurity "restricted/.test(message)) {
    const edits = containers.flatMap((c) => {
      const context = `${c}.securityContext`;
      if (!doc.fields.has(context)) return [insertInto(doc, c, ['securityContext:', ...RESTRICTED_FIELDS.flatMap(([, lines]) => lines.map((l) => `  ${l}`))])];
      const missing = RESTRICTED_FIELDS.filter(([field]) => !doc.fields.has(`${context}.${field}`)).flatMap(([, lines]) => lines);
      return missing.length ? [insertInto(doc, context, missing)] : [];
    }).filter((e) => e !== undefined);
    if (edits.length) fixes.push({ title: 'Add the securityContext fields the restricted Pod Security Standard requires', edits });
  }
  if (/must specify (requests|limits)/.test(message)) {
    const edits = containers.filter((c) => !doc.fields.has(`${c}.resources`)).map((c) => addRequestsEdit(doc, c)).filter((e) => e !== undefined);
    if (edits.length) fixes.push({ title: 'Add resource requests and limits', edits });
  }
  return fixes;
}

/** addRequestsEdit adds requests (and the same limits) of a modest size to a container; the user tunes the numbers. */
export function addRequestsEdit(doc: SourceDocument, container: string): ReturnType<typeof insertInto> {
  return insertInto(doc, container, ['resources:', '  requests:', '    cpu: 100m', '    memory: 128Mi', '  limits:', '    cpu: 100m', '    memory: 128Mi']);
}
