// The language server: wires the pure language service to the LSP connection — document sync, debounced validation
// per document in the diagnostics worker (see validation.ts), each file's kind (a manifest or not) for the client,
// hover, completion, quick fixes, outline, folding and the settings. Nothing here waits for a validation: requests read the document's own sections, parsed on demand.
import { isAbsolute, join } from 'node:path';
import {
  CodeActionKind, createConnection, DidChangeConfigurationNotification, ProposedFeatures, TextDocuments, TextDocumentSyncKind,
  type Diagnostic, type InitializeParams,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { withUri } from './diagnostics/index';
import { documentKind } from './document-kind';
import { DOCUMENT_KIND_NOTIFICATION, type DocumentKind, type DocumentKindParams } from './protocol';
import { fileName, LanguageService } from './service';
import { DEFAULT_SETTINGS, readSettings, type Settings } from './settings';
import { ValidationHost } from './validation';
import { diagnosticsOf, documentOf, positionOf } from './params';

/** VALIDATION_DELAY_MS is how long a document must stay unchanged before it is validated again. */
const VALIDATION_DELAY_MS = 200;

/** SETTINGS_SECTION is the configuration section the server reads. */
const SETTINGS_SECTION = 'podLifecycle';

const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);
/** service answers the requests; it never reads a cluster file: the worker validates. */
const service = new LanguageService(() => {
  throw new Error('the language service of the server thread reads no file');
});
const validation = new ValidationHost(
  ({ uri, version, diagnostics }) => {
    // A document closed or changed since its text went out gets nothing: its newer version's diagnostics will come.
    if (documents.get(uri)?.version !== version) return;
    service.setDiagnostics(uri, diagnostics);
    void connection.sendDiagnostics({ uri, version, diagnostics: withUri(diagnostics, uri) });
  },
  (message) => connection.console.error(message),
  () => {
    for (const document of documents.all()) schedule(document, 0);
  },
);
/** pending holds each document's scheduled validation. */
const pending = new Map<string, NodeJS.Timeout>();
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
  validation.configure(settings);
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
  if (!first) validation.cancel(document.uri);
  schedule(document, first ? 0 : VALIDATION_DELAY_MS);
});

documents.onDidClose(({ document }) => {
  opened.delete(document.uri);
  kinds.delete(document.uri);
  clearTimeout(pending.get(document.uri));
  pending.delete(document.uri);
  validation.close(document.uri);
  service.close(document.uri);
  void connection.sendDiagnostics({ uri: document.uri, diagnostics: [] });
});

/** schedule validates a document once it has stayed unchanged for a while; the newest text supersedes older work. */
function schedule(document: TextDocument, delay: number): void {
  clearTimeout(pending.get(document.uri));
  pending.set(document.uri, setTimeout(() => {
    pending.delete(document.uri);
    // The document may have closed or changed since: only what is open now is sent. The service here reads the
    // text when a request comes (see current).
    const current = documents.get(document.uri);
    if (!current) return;
    const text = current.getText();
    tellKind(current.uri, text);
    validation.validate(current.uri, current.version, text);
  }, delay));
}

/** kinds are the kinds the client was told of, by document: it hears again only when one changes. */
const kinds = new Map<string, DocumentKind>();

/** tellKind tells the client whether a document is a Kubernetes manifest, an input of a run, or other YAML. */
function tellKind(uri: string, text: string): void {
  const kind = documentKind(text);
  if (kinds.get(uri) === kind) return;
  kinds.set(uri, kind);
  void connection.sendNotification(DOCUMENT_KIND_NOTIFICATION, { uri, kind } satisfies DocumentKindParams);
}

/** current brings the service up to a document's latest text before a request reads it. */
function current(uri: string): boolean {
  const document = documents.get(uri);
  if (!document) return false;
  service.update(uri, document.version, document.getText());
  return true;
}

// Parameters are read through params.ts: a malformed request is answered InvalidParams, naming the field.
connection.onHover((params, token) => {
  const uri = documentOf('textDocument/hover', params);
  const position = positionOf('textDocument/hover', params);
  return token.isCancellationRequested || !current(uri) ? null : service.hover(uri, position);
});

connection.onCompletion((params, token) => {
  const uri = documentOf('textDocument/completion', params);
  const position = positionOf('textDocument/completion', params);
  return token.isCancellationRequested || !current(uri) ? [] : service.complete(uri, position);
});

connection.onCodeAction((params, token) => {
  const uri = documentOf('textDocument/codeAction', params);
  const diagnostics = diagnosticsOf<Diagnostic>('textDocument/codeAction', params);
  return token.isCancellationRequested ? [] : service.codeActions(uri, diagnostics);
});

/**
 * parsed brings a document's every section up to its latest text, parsed a slice at a time so that a hover is not
 * kept waiting (the outline and the folding ranges read them all); a change in between starts it over.
 */
async function parsed(uri: string, token: { isCancellationRequested: boolean }): Promise<boolean> {
  while (!token.isCancellationRequested && current(uri)) if (await service.parseAll(uri, token)) return true;
  return false;
}

connection.onDocumentSymbol(async (params, token) => {
  const uri = documentOf('textDocument/documentSymbol', params);
  return (await parsed(uri, token)) ? service.symbols(uri) : [];
});

connection.onFoldingRanges(async (params, token) => {
  const uri = documentOf('textDocument/foldingRange', params);
  return (await parsed(uri, token)) ? service.folding(uri) : [];
});

/** STATE_REQUEST asks what the server holds: its open documents, and where validation runs and what it holds. */
const STATE_REQUEST = 'podLifecycle/state';
connection.onRequest(STATE_REQUEST, async () => ({ documents: service.openCount, validation: await validation.state() }));

connection.onShutdown(() => validation.stop());

documents.listen(connection);
connection.listen();
