// The language service: one facade over the pure services (documents, diagnostics, hover, completion, code actions,
// outline), keyed by document URI. The server wires it to the connection; tests call it directly.
import type { CodeAction, CompletionItem, Diagnostic, DocumentSymbol, FoldingRange, Hover, Position } from 'vscode-languageserver-types';
import type { ReadFile } from '../engine/cluster/kubeconfig';
import { codeActions } from './code-actions';
import { doComplete } from './completion';
import { type Cancellation, DiagnosticsService } from './diagnostics';
import { type ManifestSection, SectionCache } from './documents';
import { doHover } from './hover';
import { documentSymbols, foldingRanges } from './outline';
import type { Settings } from './settings';

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

  constructor(read: ReadFile) {
    this.diagnosticsService = new DiagnosticsService(read);
  }

  /** configure applies the settings to every service. */
  configure(settings: Settings): void {
    this.diagnosticsService.configure(settings);
  }

  /** update parses a document's new text (only the sections that changed). */
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

  /** close forgets a document. */
  close(uri: string): void {
    this.open.delete(uri);
    this.caches.delete(uri);
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
    const doc = this.open.get(uri);
    if (!doc) return undefined;
    const diagnostics = await this.diagnosticsService.validateAsync(doc.sections, token, (partial) => {
      if (this.open.get(uri) === doc) doc.diagnostics = partial;
      early?.(partial);
    });
    if (diagnostics && this.open.get(uri) === doc) doc.diagnostics = diagnostics;
    return diagnostics;
  }

  /** hover describes the field at a position. */
  hover(uri: string, position: Position): Hover | null {
    const doc = this.open.get(uri);
    return doc ? doHover(doc.sections, position, doc.diagnostics) : null;
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
