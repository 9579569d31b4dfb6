// The extension's entry point: wires the debugger, the commands and the language client to VS Code.
// Glue only — the rules live in src/engine, the debug session in src/debugger, the diagnostics in src/language.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { registerCommands } from './commands';
import { followManifests, kindOf } from './manifests';
import { StateTreePanel } from './webview/panel';
import { WorkloadTree } from './webview/tree';

/** AdapterModule is what dist/debugAdapter.js exports: the session, and the embedded cluster to parse ahead. */
type AdapterModule = typeof import('./debugger/main');

let adapterModule: AdapterModule | undefined;
let extensionPath = '';

/**
 * loadAdapter loads the debug adapter's bundle on first use: activation stays light, and the engine ships once for
 * the debugger instead of once more inside the extension's own bundle.
 */
function loadAdapter(): AdapterModule {
  adapterModule ??= require(path.join(extensionPath, 'dist', 'debugAdapter.js')) as AdapterModule;
  return adapterModule;
}

/** DEBUG_TYPE is the debugger type contributed in package.json. */
export const DEBUG_TYPE = 'pod-lifecycle';

let client: LanguageClient | undefined;

/** activate registers the debugger, the commands and the state tree, and starts the language server. */
export function activate(context: vscode.ExtensionContext): void {
  extensionPath = context.extensionPath;
  const provider = new PodLifecycleConfigurationProvider();
  context.subscriptions.push(
    vscode.debug.registerDebugConfigurationProvider(DEBUG_TYPE, provider),
    vscode.debug.registerDebugConfigurationProvider(
      DEBUG_TYPE,
      { provideDebugConfigurations: () => dynamicConfigurations() },
      vscode.DebugConfigurationProviderTriggerKind.Dynamic,
    ),
    vscode.debug.registerDebugAdapterDescriptorFactory(DEBUG_TYPE, new InlineDebugAdapterFactory()),
    vscode.commands.registerCommand('podLifecycle.debugFile', (resource?: vscode.Uri) => startOnFile(resource, false)),
    vscode.commands.registerCommand('podLifecycle.runFile', (resource?: vscode.Uri) => startOnFile(resource, true)),
    ...registerCommands(context),
    ...StateTreePanel.register(context, DEBUG_TYPE),
    ...WorkloadTree.register(DEBUG_TYPE),
  );
  client = startLanguageClient(context);
  context.subscriptions.push(...followManifests(client));
}

/** deactivate stops the language server. */
export async function deactivate(): Promise<void> {
  const running = client;
  client = undefined;
  // A client still starting cannot be stopped yet; the server process ends with the extension host anyway.
  if (running?.isRunning()) await running.stop();
}

/**
 * PodLifecycleConfigurationProvider fills in a launch configuration when there is no launch.json. A new launch.json
 * starts with package.json's initialConfigurations alone: VS Code adds what a provider's provideDebugConfigurations
 * returns to them, so providing the same configuration here too wrote it twice.
 */
export class PodLifecycleConfigurationProvider implements vscode.DebugConfigurationProvider {
  /** resolveDebugConfiguration turns F5 without launch.json into a launch of the active YAML file. */
  resolveDebugConfiguration(
    _folder: vscode.WorkspaceFolder | undefined,
    config: vscode.DebugConfiguration,
  ): vscode.ProviderResult<vscode.DebugConfiguration> {
    // Parse the embedded default cluster while VS Code starts the session, so the launch finds it ready.
    setImmediate(() => loadAdapter().embeddedCluster());
    if (!config.type && !config.request && !config.name) {
      const document = vscode.window.activeTextEditor?.document;
      if (document && isManifest(document)) {
        return launchConfiguration(vscode.l10n.t('Debug pod lifecycle'), document.uri.fsPath, false);
      }
    }
    if (!config.manifest && !config.kubectl) {
      // A launch.json configuration without a manifest (or a kubectl command line) debugs the manifest in the active editor.
      const document = vscode.window.activeTextEditor?.document;
      if (document && isManifest(document)) return { ...config, manifest: document.uri.fsPath };
      void vscode.window.showErrorMessage(vscode.l10n.t('Open a Kubernetes manifest (YAML) to debug its pod lifecycle.'));
      return undefined; // abort the launch
    }
    return config;
  }
}

/** InlineDebugAdapterFactory runs the debug session inside the extension host: no process to spawn. */
class InlineDebugAdapterFactory implements vscode.DebugAdapterDescriptorFactory {
  createDebugAdapterDescriptor(): vscode.ProviderResult<vscode.DebugAdapterDescriptor> {
    return new vscode.DebugAdapterInlineImplementation(new (loadAdapter().PodLifecycleSession)());
  }
}

/** dynamicConfigurations offers the active manifest, with and without deletion, in the Run and Debug view's list. */
function dynamicConfigurations(): vscode.DebugConfiguration[] {
  const document = vscode.window.activeTextEditor?.document;
  if (!document || !isManifest(document)) return [];
  const file = path.basename(document.uri.fsPath);
  return [
    launchConfiguration(vscode.l10n.t('Debug pod lifecycle of {0}', file), document.uri.fsPath, false),
    launchConfiguration(vscode.l10n.t('Debug pod lifecycle of {0} and delete', file), document.uri.fsPath, false, true),
  ];
}

/** startOnFile debugs (or runs without debugging) the given manifest, or the active editor's. */
async function startOnFile(resource: vscode.Uri | undefined, noDebug: boolean): Promise<boolean> {
  const document = vscode.window.activeTextEditor?.document;
  if (!resource && document?.uri.scheme === 'untitled' && document.languageId === 'yaml') return saveFirst(document);
  const target = resource ?? (document && isManifest(document) ? document.uri : undefined);
  if (!target) {
    void vscode.window.showErrorMessage(vscode.l10n.t('Open a Kubernetes manifest (YAML) to debug its pod lifecycle.'));
    return false;
  }
  const name = noDebug ? vscode.l10n.t('Run pod lifecycle') : vscode.l10n.t('Debug pod lifecycle');
  const config = launchConfiguration(name, target.fsPath, noDebug);
  // A run without debugging has no stop to bring the Debug view up: its report shows in the Debug Console, opened.
  if (noDebug) config.internalConsoleOptions = 'openOnSessionStart';
  return vscode.debug.startDebugging(undefined, config, { noDebug });
}

/** saveFirst asks for an untitled manifest to be saved: the run reads its files, and breakpoints need a path. */
async function saveFirst(document: vscode.TextDocument): Promise<boolean> {
  const save = vscode.l10n.t('Save As…');
  const answer = await vscode.window.showInformationMessage(vscode.l10n.t('Save the manifest to a file first: the lifecycle is run from its file.'), save);
  if (answer === save) await vscode.commands.executeCommand('workbench.action.files.saveAs', document.uri);
  return false;
}

/** launchConfiguration is a `pod-lifecycle` launch of one manifest; a run without debugging does not stop on entry. */
function launchConfiguration(name: string, manifest: string, noDebug: boolean, deleteAfter = false): vscode.DebugConfiguration {
  const config: vscode.DebugConfiguration = { type: DEBUG_TYPE, request: 'launch', name, manifest, stopOnEntry: !noDebug };
  if (deleteAfter) config.delete = true;
  return config;
}

/**
 * isManifest says whether a document is a Kubernetes manifest: YAML saved as a file, that the language server has
 * not found to be of another kind (a CI workflow, a Behavior); one it has not read yet is given the benefit of it.
 */
function isManifest(document: vscode.TextDocument): boolean {
  const kind = kindOf(document.uri);
  return document.languageId === 'yaml' && document.uri.scheme === 'file' && (kind === undefined || kind === 'manifest');
}

/** startLanguageClient starts dist/languageServer.js over IPC for YAML files, saved or not. */
function startLanguageClient(context: vscode.ExtensionContext): LanguageClient {
  const serverModule = context.asAbsolutePath(path.join('dist', 'languageServer.js'));
  const serverOptions: ServerOptions = {
    run: { module: serverModule, transport: TransportKind.ipc },
    debug: { module: serverModule, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6009'] } },
  };
  const clientOptions: LanguageClientOptions = {
    // Unsaved manifests are checked too; the server reads the `podLifecycle` settings from the client.
    documentSelector: [{ scheme: 'file', language: 'yaml' }, { scheme: 'untitled', language: 'yaml' }],
  };
  const languageClient = new LanguageClient('podLifecycle', vscode.l10n.t('Pod Lifecycle Language Server'), serverOptions, clientOptions);
  void languageClient.start();
  return languageClient;
}
