// The language server: wires the pure language service to the LSP connection — document sync, debounced and
// cancellable validation per document, hover, completion, quick fixes, outline, folding and the settings.
import { readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import {
  CodeActionKind, createConnection, type Diagnostic, DidChangeConfigurationNotification, ProposedFeatures, TextDocuments, TextDocumentSyncKind,
  type InitializeParams,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { fileName, LanguageService } from './service';
import { DEFAULT_SETTINGS, readSettings, type Settings } from './settings';

/** VALIDATION_DELAY_MS is how long a document must stay unchanged before it is validated again. */
const VALIDATION_DELAY_MS = 200;

/** SETTINGS_SECTION is the configuration section the server reads. */
const SETTINGS_SECTION = 'podLifecycle';

const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);
const service = new LanguageService((path) => readFileSync(path, 'utf8'));
/** pending holds each document's scheduled validation; running its validation in progress, cancelled by a newer one. */
const pending = new Map<string, NodeJS.Timeout>();
const running = new Map<string, { isCancellationRequested: boolean }>();
let workspaceRoot: string | undefined;
let pullsConfiguration = false;

connection.onInitialize((params: InitializeParams) => {
  const root = params.workspaceFolders?.[0]?.uri ?? params.rootUri ?? undefined;
  workspaceRoot = root ? fileName(root) : undefined;
  pullsConfiguration = params.capabilities.workspace?.configuration === true;
  const options = (params.initializationOptions as { settings?: unknown } | undefined)?.settings;
  if (options !== undefined) applySettings(options);
  return {
    capabilities: {
      // didSave tells when a cluster file changed on disk.
      textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
      hoverProvider: true,
      completionProvider: { triggerCharacters: [':', ' ', '-'] },
      codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
      documentSymbolProvider: true,
      foldingRangeProvider: true,
    },
  };
});

connection.onInitialized(() => {
  if (!pullsConfiguration) return;
  void connection.client.register(DidChangeConfigurationNotification.type, { section: SETTINGS_SECTION });
  void pullSettings();
});

connection.onDidChangeConfiguration((change) => {
  if (pullsConfiguration) void pullSettings();
  else applySettings((change.settings as Record<string, unknown> | undefined)?.[SETTINGS_SECTION]);
});

/** pullSettings asks the client for the section, then re-validates every open document. */
async function pullSettings(): Promise<void> {
  applySettings(await connection.workspace.getConfiguration(SETTINGS_SECTION));
}

/** settings are the settings in force, cluster files resolved. */
let settings: Settings = DEFAULT_SETTINGS;

/** applySettings reads the settings (cluster files relative to the workspace) and re-validates every open document. */
function applySettings(section: unknown): void {
  const read = readSettings(section);
  settings = { ...read, cluster: read.cluster.map((f) => (isAbsolute(f) || !workspaceRoot ? f : join(workspaceRoot, f))) };
  reload();
}

/** reload reads the cluster again and re-validates every open document. */
function reload(): void {
  service.configure(settings);
  for (const document of documents.all()) schedule(document, 0);
}

// A cluster file saved in the editor changes what the manifests are checked against.
documents.onDidSave(({ document }) => {
  if (settings.cluster.includes(fileName(document.uri))) reload();
});

/** opened are the documents seen since they opened: an opened document is validated at once, edits after a pause. */
const opened = new Set<string>();

documents.onDidChangeContent(({ document }) => {
  const first = !opened.has(document.uri);
  opened.add(document.uri);
  schedule(document, first ? 0 : VALIDATION_DELAY_MS);
});

documents.onDidClose(({ document }) => {
  opened.delete(document.uri);
  clearTimeout(pending.get(document.uri));
  pending.delete(document.uri);
  cancel(document.uri);
  service.close(document.uri);
  void connection.sendDiagnostics({ uri: document.uri, diagnostics: [] });
});

/** schedule validates a document once it has stayed unchanged for a while; a validation under way is cancelled. */
function schedule(document: TextDocument, delay: number): void {
  clearTimeout(pending.get(document.uri));
  cancel(document.uri);
  pending.set(document.uri, setTimeout(() => {
    pending.delete(document.uri);
    void publish(document);
  }, delay));
}

function cancel(uri: string): void {
  const token = running.get(uri);
  if (token) token.isCancellationRequested = true;
  running.delete(uri);
}

/** publish validates a document and sends its diagnostics; an engine failure is logged, never crashes the server. */
async function publish(document: TextDocument): Promise<void> {
  const token = { isCancellationRequested: false };
  running.set(document.uri, token);
  try {
    service.update(document.uri, document.version, document.getText());
    // What needs no run on the cluster goes out at once; the cluster's warnings follow in a second publish.
    const send = (diagnostics: Diagnostic[]): void => {
      if (!token.isCancellationRequested) void connection.sendDiagnostics({ uri: document.uri, version: document.version, diagnostics });
    };
    const diagnostics = await service.validateAsync(document.uri, token, send);
    if (diagnostics) send(diagnostics);
  } catch (error) {
    connection.console.error(`pod-lifecycle: cannot validate ${document.uri}: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
  } finally {
    if (running.get(document.uri) === token) running.delete(document.uri);
  }
}

/** current brings the service up to a document's latest text before a request reads it. */
function current(uri: string): boolean {
  const document = documents.get(uri);
  if (!document) return false;
  service.update(uri, document.version, document.getText());
  return true;
}

connection.onHover(({ textDocument, position }, token) => (token.isCancellationRequested || !current(textDocument.uri) ? null : service.hover(textDocument.uri, position)));

connection.onCompletion(({ textDocument, position }, token) => (token.isCancellationRequested || !current(textDocument.uri) ? [] : service.complete(textDocument.uri, position)));

connection.onCodeAction(({ textDocument, context }, token) => (token.isCancellationRequested ? [] : service.codeActions(textDocument.uri, context.diagnostics)));

connection.onDocumentSymbol(({ textDocument }, token) => (token.isCancellationRequested || !current(textDocument.uri) ? [] : service.symbols(textDocument.uri)));

connection.onFoldingRanges(({ textDocument }, token) => (token.isCancellationRequested || !current(textDocument.uri) ? [] : service.folding(textDocument.uri)));

documents.listen(connection);
connection.listen();
