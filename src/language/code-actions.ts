// Quick fixes: each diagnostic carries the fixes found with it (rename an unknown field, lowercase a name, add a
// required field, the restricted securityContext, resource requests); this turns them into code actions.
import type { CodeAction, Diagnostic } from 'vscode-languageserver-types';
import { CodeActionKind } from 'vscode-languageserver-types';
import type { QuickFix } from './diagnostics/finding';
import { DIAGNOSTIC_SOURCE } from './diagnostics';

/** codeActions lists the quick fixes of the diagnostics the client sends with the request. */
export function codeActions(uri: string, diagnostics: readonly Diagnostic[]): CodeAction[] {
  const actions: CodeAction[] = [];
  for (const diagnostic of diagnostics) {
    if (diagnostic.source !== DIAGNOSTIC_SOURCE) continue;
    const fixes = (diagnostic.data as { fixes?: QuickFix[] } | undefined)?.fixes ?? [];
    for (const fix of fixes) {
      actions.push({
        title: fix.title, kind: CodeActionKind.QuickFix, diagnostics: [diagnostic], isPreferred: fixes.length === 1,
        edit: { changes: { [uri]: [...fix.edits] } },
      });
    }
  }
  return actions;
}
