// The diagnostics service: for each Kubernetes document of a file, its YAML errors, what kube-apiserver would refuse
// (decoding, validation), what the cluster would refuse (admission, controllers, scheduling) and the hints. Results
// are kept per document, so an edit re-checks only the documents it changed.
import type { Diagnostic, Range } from 'vscode-languageserver-types';
import type { KubeObject } from '../../engine/api/types';
import type { SourceDocument } from '../../engine/cluster/inputs';
import type { ReadFile } from '../../engine/cluster/kubeconfig';
import type { ManifestSection } from '../documents';
import { rootTypeId } from '../schema';
import { RULES, type Rule, type Settings, DEFAULT_SETTINGS } from '../settings';
import { checkApiServer } from './api-server';
import { type CheckCluster, checkCluster, checkOnCluster, type LoadedCluster, loadCluster } from './cluster';
import { ADMISSION_CONFIG_KINDS, clusterContext, LIFECYCLE_KINDS, RUNTIME_KINDS } from './context';
import { DiagnosticSeverity, type Finding } from './finding';
import { checkHints } from './hints';
import { type Checked, flatten, type Share, shareOfSection, workloadKey } from './parts';

export { type Checked, flatten, mergeParts, type Share } from './parts';

/** DIAGNOSTIC_SOURCE names the product in the Problems view. */
export const DIAGNOSTIC_SOURCE = 'pod-lifecycle';

/** Cancellation is the part of a cancellation token the service reads. */
export interface Cancellation {
  readonly isCancellationRequested: boolean;
}

/**
 * SLICE_MS is how long a validation runs before it lets other work in (a request, a newer version that cancels it):
 * it pauses after each section it parses and each workload it runs on the cluster, and yields once this much time
 * has passed since it last did.
 */
const SLICE_MS = 10;

interface Cached {
  /** line is the first line of the document's section when the findings were placed. */
  line: number;
  findings: Finding[];
  key?: string;
  clean?: boolean;
  /** body is the object the checks on the cluster run for the document (see ApiServerCheck.body). */
  body?: KubeObject;
}

/** DiagnosticsService validates manifests with the engine; configure() sets the cluster and the rules. */
export class DiagnosticsService {
  private settings: Settings = DEFAULT_SETTINGS;
  private cluster: LoadedCluster | undefined;
  private clusterGeneration = 0;
  private readonly server = new WeakMap<SourceDocument, Cached>();
  private readonly onCluster = new WeakMap<SourceDocument, Cached>();
  /** seenElsewhere keeps, for each workload another share runs, the context it was last sent with (see run). */
  private readonly seenElsewhere = new WeakMap<SourceDocument, string>();
  /** checked is the cluster of the last file checked, with the key of its context. */
  private checked: { key: string; on: CheckCluster } | undefined;

  constructor(private readonly read: ReadFile) {}

  /** configure applies new settings; the cluster is read again on the next validation. */
  configure(settings: Settings): void {
    this.settings = settings;
    this.cluster = undefined;
    this.clusterGeneration++;
  }

  /** enabled tells whether a rule is switched on. */
  enabled(rule: Rule): boolean {
    return this.settings.rules[rule];
  }

  /** validate returns the diagnostics of a file's sections; undefined when cancelled part-way. */
  validate(sections: readonly ManifestSection[], token?: Cancellation): Diagnostic[] | undefined {
    const run = this.run(sections, token);
    for (let step = run.next(); ; step = run.next()) if (step.done) return step.value && flatten(step.value);
  }

  /**
   * validateAsync is validate in two stages: `early` gets the diagnostics that need no run on the cluster (YAML,
   * decoding, validation, hints, and the cluster's findings still valid from before) as soon as they are known; the
   * runs on the cluster follow, giving the event loop a turn now and then, so that a newer edit or a request is
   * served in between and cancels (through the token) a validation it made stale.
   */
  async validateAsync(sections: readonly ManifestSection[], token?: Cancellation, early?: (diagnostics: Diagnostic[]) => void): Promise<Diagnostic[] | undefined> {
    const checked = await this.validateParts(sections, token, undefined, early);
    return checked && flatten(checked);
  }

  /**
   * validateParts is validateAsync in parts: the diagnostics found without the cluster, then each workload's on the
   * cluster. With a share, only the workloads of that share are run on the cluster (the others' parts are null):
   * validators on several threads split a file's checks and their parts are put together (mergeParts).
   */
  async validateParts(sections: readonly ManifestSection[], token?: Cancellation, share?: Share, early?: (diagnostics: Diagnostic[]) => void): Promise<Checked | undefined> {
    const run = this.run(sections, token, share);
    let last = performance.now();
    for (let step = run.next(); ; step = run.next()) {
      if (step.done) return step.value;
      if (step.value) early?.(step.value);
      if (step.value || performance.now() - last >= SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        last = performance.now();
      }
    }
  }

  /**
   * run checks the sections. It pauses (yields nothing) after each section it parses and each workload's run on the
   * cluster, and yields the early diagnostics once (when runs on the cluster are still to come).
   */
  private *run(sections: readonly ManifestSection[], token?: Cancellation, share?: Share): Generator<Diagnostic[] | undefined, Checked | undefined> {
    const kube = sections.filter((s) => s.kubernetes !== undefined);
    const whole = share === undefined || share.index === 0;
    if (kube.length === 0) return { base: [], cluster: [], keys: [], whole };
    const out: Diagnostic[] = [];
    // runnable are the documents that decode, to check on the cluster as they would be stored (clean: without any
    // finding of the API server's; invalid: with validation errors, whose own refusal is not reported twice).
    const runnable: SourceDocument[] = [];
    const clean = new Set<SourceDocument>();
    const invalid = new Set<SourceDocument>();
    // Each runnable document's share (that of its section), its key in the parts and its section's first line (the
    // line its cached findings are kept at: reading the document's own range would read every field's).
    const placeOf = new Map<SourceDocument, { share: number; key: string; line: number }>();
    const sectionShare = this.sectionShares(sections, share);
    for (const section of sections) {
      const shareOfThis = sectionShare(section);
      // A later share reads only the sections it needs: its own workloads and the context (see sectionShares).
      if (shareOfThis === undefined) continue;
      if (!section.parsed) {
        yield undefined;
        if (token?.isCancellationRequested) return undefined;
      }
      // In a file of Kubernetes manifests, a section the loader cannot read is reported whatever it holds.
      if (section.kubernetes === undefined && !section.error) continue;
      if (section.error) {
        if (this.enabled(RULES.syntax)) {
          const { line, character, message } = section.error;
          const at = { line, character };
          const end = section.text.split('\n')[line - section.startLine]?.length ?? character;
          out.push(diagnostic({ rule: RULES.syntax, severity: DiagnosticSeverity.Error, message, range: { start: at, end: { line: at.line, character: Math.max(end, character) } } }));
        }
        continue;
      }
      for (const [index, doc] of section.documents.entries()) {
        const key = `${String(doc.object.apiVersion)}/${String(doc.object.kind)}`;
        if (!rootTypeId(key)) continue;
        const cached = this.serverCheck(doc, key, section.startLine);
        for (const f of cached.findings) if (this.enabled(f.rule)) out.push(diagnostic(f));
        if (!cached.body) continue;
        if (cached.body !== doc.object) originals.set(cached.body, doc);
        runnable.push(cached.body === doc.object ? doc : { ...doc, object: cached.body });
        placeOf.set(runnable[runnable.length - 1]!, { share: shareOfThis, key: workloadKey(section.index, index), line: section.startLine });
        if (cached.clean) clean.add(doc);
        if (cached.findings.some((f) => f.rule === RULES.validation)) invalid.add(runnable[runnable.length - 1]!);
      }
    }
    for (const doc of runnable) for (const f of checkHints(doc, (rule) => this.enabled(rule))) out.push(diagnostic(f));
    if (![RULES.admission, RULES.scheduling, RULES.controllers, RULES.validation].some((r) => this.enabled(r))) return { base: out, cluster: [], keys: [], whole };
    // Reading the cluster the first time takes a while: what is known goes out before.
    const workloads = runnable.filter((d) => LIFECYCLE_KINDS.has(String(d.object.kind)));
    let early = false;
    if (!this.cluster && workloads.length > 0) {
      early = true;
      yield [...out];
    }
    const cluster = this.loadedCluster();
    if ('error' in cluster) {
      out.push(diagnostic({ rule: RULES.admission, severity: DiagnosticSeverity.Warning, range: firstLine(kube[0]!), message: `the cluster cannot be read: ${cluster.error.message}` }));
      return { base: out, cluster: [], keys: [], whole };
    }
    // A document the API server would refuse is not in the cluster the others are checked on.
    const context = clusterContext(runnable.filter((d) => clean.has(d)), cluster.cluster);
    const contextKey = `${this.clusterGeneration}\n${context.map((d) => JSON.stringify(d.object)).join('\n')}`;
    // The cluster's findings follow the others in the order of the workloads, whether reused or run now.
    // A refusal the API server's own checks reported already (its validation) is not reported again from the run.
    const lineOf = (doc: SourceDocument): number => placeOf.get(doc)?.line ?? 0;
    const found = (cached: Cached | undefined, doc: SourceDocument): Diagnostic[] => (cached ? moved(cached, lineOf(doc)).filter((f) => this.enabled(f.rule) && !(invalid.has(doc) && f.phase === 'apiserver.validate')).map(diagnostic) : []);
    const results = workloads.map((doc) => {
      const cached = this.onCluster.get(keyOf(doc));
      return cached?.key === contextKey ? cached : undefined;
    });
    const mine = workloads.map((doc) => share === undefined || placeOf.get(doc)?.share === share.index);
    const stale = workloads.filter((_, i) => !results[i] && mine[i]);
    // Another share's workloads this validator has not seen with this context are being run there: the early
    // diagnostics go out first (the first share sends them), as they do for this share's own runs.
    const elsewhere = workloads.filter((doc, i) => !mine[i] && this.seenElsewhere.get(keyOf(doc)) !== contextKey);
    for (const doc of elsewhere) this.seenElsewhere.set(keyOf(doc), contextKey);
    if ((stale.length > 0 || elsewhere.length > 0) && !early) yield [...out, ...workloads.flatMap((doc, i) => found(results[i], doc))];
    if (stale.length > 0) {
      // The file's cluster is stored once for all its checks, and again only when the cluster or the context changed.
      if (this.checked?.key !== contextKey) this.checked = { key: contextKey, on: checkCluster(context, cluster) };
      const on = this.checked.on;
      for (const [i, doc] of workloads.entries()) {
        if (results[i] || !mine[i]) continue;
        if (token?.isCancellationRequested) return undefined;
        results[i] = { line: lineOf(doc), findings: structuredClone(checkOnCluster(doc, on)), key: contextKey };
        this.onCluster.set(keyOf(doc), results[i]);
        yield undefined;
      }
    }
    if (token?.isCancellationRequested) return undefined;
    return { base: out, cluster: workloads.map((doc, i) => (mine[i] ? found(results[i], doc) : null)), keys: workloads.map((doc) => placeOf.get(doc)?.key ?? ''), whole };
  }

  /**
   * sectionShares returns, for each section, the share that runs its workloads, or undefined for a section this
   * validator does not read. Without shares every section is read. The first share reads every section (its base
   * diagnostics are the file's); a later one skips the other shares' workload sections and the data only a running
   * workload reads (RUNTIME_KINDS, not in the context then; whatever workload such a section holds is the first
   * share's). Where admission that may read any object is configured (in the file or the cluster), every such section
   * is in the context and read by every share. A section is told by its top-level kind, read without parsing it.
   */
  private sectionShares(sections: readonly ManifestSection[], share: Share | undefined): (section: ManifestSection) => number | undefined {
    if (share === undefined) return () => 0;
    const kindOf = (section: ManifestSection): string => section.kubernetes?.slice(section.kubernetes.lastIndexOf('/') + 1) ?? '';
    const ownerOf = (section: ManifestSection, kind: string): number => (RUNTIME_KINDS.has(kind) ? 0 : shareOfSection(section.text, share.of));
    if (share.index === 0) return (section) => ownerOf(section, kindOf(section));
    const loaded = this.loadedCluster();
    const admission = sections.some((s) => ADMISSION_CONFIG_KINDS.has(kindOf(s)))
      || ('error' in loaded ? false : loaded.cluster.objects.some((d) => ADMISSION_CONFIG_KINDS.has(String(d.object.kind))));
    return (section) => {
      const kind = kindOf(section);
      const owner = ownerOf(section, kind);
      if ((!admission && RUNTIME_KINDS.has(kind)) || (LIFECYCLE_KINDS.has(kind) && owner !== share.index)) return undefined;
      return owner;
    };
  }

  /** serverCheck runs (or reuses) the API server's checks of one document, in a section that starts at `line`. */
  private serverCheck(doc: SourceDocument, key: string, line: number): { findings: Finding[]; clean: boolean; body?: KubeObject } {
    let cached = this.server.get(doc);
    if (!cached) {
      // Kept as a copy: the document's own ranges move in place when its section moves (see documents.ts).
      const check = checkApiServer(doc, key);
      const findings = structuredClone(check.findings);
      cached = { line, findings, clean: findings.length === 0, ...(check.body ? { body: check.body } : {}) };
      this.server.set(doc, cached);
    }
    return { findings: moved(cached, line), clean: cached.clean ?? false, ...(cached.body ? { body: cached.body } : {}) };
  }

  private loadedCluster(): LoadedCluster {
    this.cluster ??= loadCluster(this.settings.cluster, this.read);
    return this.cluster;
  }
}

/**
 * originals maps the body run for a document with unknown fields (its copy without them) back to the document: the
 * findings on the cluster are kept by the document as parsed, which outlives the copies made at each validation.
 */
const originals = new WeakMap<KubeObject, SourceDocument>();

/** keyOf is the document the cluster's findings of a run document are kept by. */
function keyOf(doc: SourceDocument): SourceDocument {
  return originals.get(doc.object) ?? doc;
}

/** moved returns cached findings at the lines of their section's current first line (it may have moved since). */
function moved(cached: Cached, line: number): Finding[] {
  const by = line - cached.line;
  if (by === 0) return cached.findings;
  const shift = (r: Range): Range => ({ start: { line: r.start.line + by, character: r.start.character }, end: { line: r.end.line + by, character: r.end.character } });
  cached.findings = cached.findings.map((f) => ({
    ...f, range: shift(f.range),
    ...(f.fixes ? { fixes: f.fixes.map((x) => ({ ...x, edits: x.edits.map((e) => ({ ...e, range: shift(e.range) })) })) } : {}),
  }));
  cached.line = line;
  return cached.findings;
}

function firstLine(section: ManifestSection): Range {
  return { start: { line: section.startLine, character: 0 }, end: { line: section.startLine, character: section.text.split('\n', 1)[0]?.length ?? 0 } };
}

/**
 * diagnostic turns a finding into an LSP diagnostic: its rule as the code, its quick fixes in `data`, the other places
 * it reads as related information (in the same document: withUri names it when it goes out).
 */
function diagnostic(f: Finding): Diagnostic {
  return {
    range: f.range, severity: f.severity, message: f.message, source: DIAGNOSTIC_SOURCE, code: f.rule,
    ...(f.fixes?.length ? { data: { fixes: f.fixes } } : {}),
    ...(f.related?.length ? { relatedInformation: f.related.map((r) => ({ location: { uri: '', range: r.range }, message: r.message })) } : {}),
  };
}

/** withUri names the document of the related information the service leaves unnamed (it knows sections, not files). */
export function withUri(diagnostics: readonly Diagnostic[], uri: string): Diagnostic[] {
  return diagnostics.map((d) => (d.relatedInformation ? { ...d, relatedInformation: d.relatedInformation.map((r) => (r.location.uri ? r : { ...r, location: { ...r.location, uri } })) } : d));
}
