// Which open YAML files are Kubernetes manifests, as the language server reads them (src/language/document-kind.ts):
// the context keys that show the Debug and Run buttons and commands on manifests only, and that keep the debugger
// (F5's default, its breakpoints) off YAML files of other kinds, such as a CI workflow.
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { DOCUMENT_KIND_NOTIFICATION, type DocumentKind, type DocumentKindParams } from './language/protocol';

/** MANIFESTS_KEY lists the paths of the open Kubernetes manifests (`resourcePath in podLifecycle.manifests`). */
export const MANIFESTS_KEY = 'podLifecycle.manifests';
/** OTHER_YAML_KEY lists the paths of the open YAML files that are neither a manifest nor an input of a run. */
export const OTHER_YAML_KEY = 'podLifecycle.otherYaml';

const kinds = new Map<string, DocumentKind>();

/** kindOf is what the language server said a document is; undefined before it has said. */
export function kindOf(uri: vscode.Uri): DocumentKind | undefined {
  return kinds.get(uri.toString());
}

/** followManifests listens to the server's document kinds and keeps the context keys in step; returns its disposables. */
export function followManifests(client: LanguageClient): vscode.Disposable[] {
  void publish();
  return [
    client.onNotification(DOCUMENT_KIND_NOTIFICATION, (params: DocumentKindParams) => {
      if (typeof params?.uri !== 'string' || !['manifest', 'input', 'other'].includes(params.kind)) return;
      kinds.set(params.uri, params.kind);
      void publish();
    }),
    vscode.workspace.onDidCloseTextDocument((document) => {
      if (kinds.delete(document.uri.toString())) void publish();
    }),
  ];
}

/**
 * contextPath is a document as the workbench's `resourcePath` context key names it: the file's path on the machine
 * that holds it (in a remote window, the workbench's `vscode-remote:` URI and the extension host's `file:` URI of
 * the same file differ, their paths do not), the path of an untitled document.
 */
function contextPath(uri: string): string {
  const parsed = vscode.Uri.parse(uri);
  return parsed.scheme === 'file' ? parsed.fsPath : parsed.path;
}

/** publish sets the context keys from the kinds known now. */
async function publish(): Promise<void> {
  const of = (kind: DocumentKind) => [...kinds].filter(([, k]) => k === kind).map(([uri]) => contextPath(uri));
  await vscode.commands.executeCommand('setContext', MANIFESTS_KEY, of('manifest'));
  await vscode.commands.executeCommand('setContext', OTHER_YAML_KEY, of('other'));
}
