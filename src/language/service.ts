// The language service: one facade over the pure services (documents, diagnostics, hover, completion, code actions,
// outline), keyed by document URI. The server wires it to the connection; tests call it directly.
import type { CodeAction, CompletionItem, Diagnostic, DocumentSymbol, FoldingRange, Hover, Position } from 'vscode-languageserver-types';
import type { ReadFile } from '../engine/cluster/kubeconfig';
import { codeActions } from './code-actions';
import { doComplete } from './completion';
import { type Cancellation, type Checked, DiagnosticsService, flatten, type Share } from './diagnostics';
import { type ManifestSection, SectionCache } from './documents';
import { doHover } from './hover';
import { documentSymbols, foldingRanges } from './outline';
import type { Settings } from './settings';

/** PARSE_SLICE_MS is how long parseAll parses before it lets a request in. */
const PARSE_SLICE_MS = 10;

interface OpenDocument {
  version: number;
  text: string;
  sections: ManifestSection[];
  diagnostics: Diagnostic[];
}

/** LanguageService holds each open document's parsed sections and last diagnostics. */
export class LanguageService {
  private readonly diagnosticsService: DiagnosticsService;
  private readonly caches = new Map<string, SectionCache>();
  private readonly open = new Map<string, OpenDocument>();
  /** published are the diagnostics last published for each document (see setDiagnostics). */
  private readonly published = new Map<string, Diagnostic[]>();

  constructor(read: ReadFile) {
    this.diagnosticsService = new DiagnosticsService(read);
  }

  /** configure applies the settings to every service. */
  configure(settings: Settings): void {
    this.diagnosticsService.configure(settings);
  }

  /** update takes a document's new text: split into sections, each parsed when first read (see documents.ts). */
  update(uri: string, version: number, text: string): void {
    const current = this.open.get(uri);
    if (current && current.version === version && current.text === text) return;
    let cache = this.caches.get(uri);
    if (!cache) {
      cache = new SectionCache();
      this.caches.set(uri, cache);
    }
    this.open.set(uri, { version, text, sections: cache.sections(text, fileName(uri)), diagnostics: current?.diagnostics ?? [] });
  }

  /** close forgets a document: its text, parsed sections and diagnostics. */
  close(uri: string): void {
    this.open.delete(uri);
    this.caches.delete(uri);
    this.published.delete(uri);
  }

  /** openCount is the number of documents the service holds. */
  get openCount(): number {
    return this.open.size;
  }

  /**
   * setDiagnostics keeps the diagnostics last published for a document (computed elsewhere), for hover to show; they
   * stand until newer ones come, as the editor shows them, whether or not the service has read the text yet.
   */
  setDiagnostics(uri: string, diagnostics: Diagnostic[]): void {
    this.published.set(uri, diagnostics);
  }

  /**
   * parseAll parses every section of a document a slice at a time, letting other work in between; false when the
   * document changed or closed, or the token was cancelled, before the end.
   */
  async parseAll(uri: string, token?: Cancellation): Promise<boolean> {
    const doc = this.open.get(uri);
    if (!doc) return false;
    let last = performance.now();
    for (const section of doc.sections) {
      if (section.parsed) continue;
      void section.documents;
      if (performance.now() - last < PARSE_SLICE_MS) continue;
      await new Promise((resolve) => setImmediate(resolve));
      if (token?.isCancellationRequested || this.open.get(uri) !== doc) return false;
      last = performance.now();
    }
    return true;
  }

  /** validate computes a document's diagnostics; undefined when cancelled or unknown. */
  validate(uri: string, token?: Cancellation): Diagnostic[] | undefined {
    const doc = this.open.get(uri);
    if (!doc) return undefined;
    const diagnostics = this.diagnosticsService.validate(doc.sections, token);
    if (diagnostics) doc.diagnostics = diagnostics;
    return diagnostics;
  }

  /** validateAsync is validate in two stages, letting other work in between (see DiagnosticsService.validateAsync). */
  async validateAsync(uri: string, token?: Cancellation, early?: (diagnostics: Diagnostic[]) => void): Promise<Diagnostic[] | undefined> {
    const checked = await this.validateParts(uri, token, undefined, early);
    return checked && flatten(checked);
  }

  /** validateParts is validateAsync in parts, of one share of the checks on the cluster (DiagnosticsService.validateParts). */
  async validateParts(uri: string, token?: Cancellation, share?: Share, early?: (diagnostics: Diagnostic[]) => void): Promise<Checked | undefined> {
    const doc = this.open.get(uri);
    if (!doc) return undefined;
    const checked = await this.diagnosticsService.validateParts(doc.sections, token, share, (partial) => {
      if (this.open.get(uri) === doc) doc.diagnostics = partial;
      early?.(partial);
    });
    // A share's parts are not the document's diagnostics: they are put together by whoever split the work.
    if (checked && !share && this.open.get(uri) === doc) doc.diagnostics = flatten(checked);
    return checked;
  }

  /** hover describes the field at a position. */
  hover(uri: string, position: Position): Hover | null {
    const doc = this.open.get(uri);
    return doc ? doHover(doc.sections, position, this.published.get(uri) ?? doc.diagnostics) : null;
  }

  /** complete lists the completions at a position. */
  complete(uri: string, position: Position): CompletionItem[] {
    const doc = this.open.get(uri);
    return doc ? doComplete(doc.sections, position) : [];
  }

  /** codeActions lists the quick fixes of the given diagnostics. */
  codeActions(uri: string, diagnostics: readonly Diagnostic[]): CodeAction[] {
    return codeActions(uri, diagnostics);
  }

  /** symbols is the outline of a document. */
  symbols(uri: string): DocumentSymbol[] {
    const doc = this.open.get(uri);
    return doc ? documentSymbols(doc.sections) : [];
  }

  /** folding lists a document's folding ranges. */
  folding(uri: string): FoldingRange[] {
    const doc = this.open.get(uri);
    return doc ? foldingRanges(doc.sections) : [];
  }
}

/** fileName is how messages name a document: its path for a file URI, else the URI. */
export function fileName(uri: string): string {
  if (!uri.startsWith('file://')) return uri;
  try {
    return decodeURIComponent(new URL(uri).pathname);
  } catch {
    return uri;
  }
}
