// Showing an object's field in the file that declares it, for the state tree panel and the Workloads view: the
// session says where the field is written (SOURCE_REQUEST); an object the controllers made has no file.
import * as vscode from 'vscode';
import { SOURCE_REQUEST } from './view';

/** SourceAnswer is the adapter's answer to SOURCE_REQUEST: the file and the range of the field (zero-based). */
interface SourceAnswer {
  path?: string;
  range?: { start: { line: number; character: number }; end: { line: number; character: number } };
}

/** revealField opens the file that declares the object and selects the field, or says the controllers made it. */
export async function revealField(session: vscode.DebugSession, ref: string, field: string): Promise<void> {
  const answer = (await session.customRequest(SOURCE_REQUEST, { ref, field })) as SourceAnswer | undefined;
  if (!answer?.path) {
    void vscode.window.showInformationMessage(vscode.l10n.t('{0} was not created from a file: the controllers made it.', ref));
    return;
  }
  const document = await vscode.workspace.openTextDocument(vscode.Uri.file(answer.path));
  const range = answer.range ? new vscode.Range(answer.range.start.line, answer.range.start.character, answer.range.end.line, answer.range.end.character) : undefined;
  await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.One, ...(range ? { selection: range } : {}) });
}
