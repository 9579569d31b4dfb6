// The language server: reports the engine's own parse errors on Kubernetes manifests as diagnostics.
// Minimal for now — validation, hover and completion services come later behind the same connection.
import { createConnection, DiagnosticSeverity, ProposedFeatures, TextDocuments, TextDocumentSyncKind } from 'vscode-languageserver/node';
import type { Diagnostic } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { parseDocuments } from '../engine/cluster/loader';
import { InputError } from '../engine/cluster/inputs';

/** DIAGNOSTIC_SOURCE names this extension in the Problems view. */
const DIAGNOSTIC_SOURCE = 'pod-lifecycle';

/** VALIDATION_DELAY_MS is how long a document must stay unchanged before it is validated again. */
const VALIDATION_DELAY_MS = 200;

/** KUBERNETES_LINE tells a Kubernetes manifest from other YAML: a top-level apiVersion or kind. */
const KUBERNETES_LINE = /^(apiVersion|kind):/m;

/** validateManifest returns the diagnostics of one document: none unless it is a manifest the engine cannot load. */
function validateManifest(text: string, uri: string): Diagnostic[] {
  if (!KUBERNETES_LINE.test(text)) return [];
  try {
    parseDocuments(text, uri);
    return [];
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    // InputError counts lines and columns from 1; LSP from 0. The range runs to the end of the line.
    const lines = text.split(/\r?\n/);
    const line = Math.min(Math.max(0, error.line - 1), lines.length - 1);
    const end = lines[line]?.length ?? 0;
    const character = error.column !== undefined ? Math.min(Math.max(0, error.column - 1), end) : 0;
    return [
      {
        severity: DiagnosticSeverity.Error,
        range: { start: { line, character }, end: { line, character: end } },
        message: error.problem,
        source: DIAGNOSTIC_SOURCE,
      },
    ];
  }
}

const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);
/** pending holds each document's scheduled validation, so typing validates once per pause. */
const pending = new Map<string, NodeJS.Timeout>();

connection.onInitialize(() => ({
  capabilities: { textDocumentSync: TextDocumentSyncKind.Incremental },
}));

documents.onDidChangeContent(({ document }) => {
  clearTimeout(pending.get(document.uri));
  pending.set(
    document.uri,
    setTimeout(() => {
      pending.delete(document.uri);
      publish(document);
    }, VALIDATION_DELAY_MS),
  );
});

documents.onDidClose(({ document }) => {
  clearTimeout(pending.get(document.uri));
  pending.delete(document.uri);
  void connection.sendDiagnostics({ uri: document.uri, diagnostics: [] });
});

/** publish sends a document's diagnostics; an unexpected engine failure is logged, never crashes the server. */
function publish(document: TextDocument): void {
  let diagnostics: Diagnostic[];
  try {
    diagnostics = validateManifest(document.getText(), document.uri);
  } catch (error) {
    connection.console.error(`pod-lifecycle: cannot validate ${document.uri}: ${String(error)}`);
    diagnostics = [];
  }
  void connection.sendDiagnostics({ uri: document.uri, version: document.version, diagnostics });
}

documents.listen(connection);
connection.listen();
