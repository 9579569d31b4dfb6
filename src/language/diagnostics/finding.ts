// A finding is one diagnostic before it goes out: its rule, words, range and the quick fix that goes with it.
import type { Range, TextEdit } from 'vscode-languageserver-types';
import { DiagnosticSeverity } from 'vscode-languageserver-types';
import type { SourceDocument } from '../../engine/cluster/inputs';
import type { Rule } from '../settings';

/** QuickFix is a code action carried with its diagnostic: its title and the edits it makes. */
export interface QuickFix {
  readonly title: string;
  readonly edits: readonly TextEdit[];
}

/** Finding is one problem in one document. */
export interface Finding {
  readonly rule: Rule;
  readonly severity: DiagnosticSeverity;
  readonly message: string;
  readonly range: Range;
  /** phase is the lifecycle phase that would refuse the object, when it is a cluster's. */
  readonly phase?: string;
  readonly fixes?: readonly QuickFix[];
  /** related are the other places of the document the same refusal reads (another plugin's field), with what it says there. */
  readonly related?: readonly { readonly range: Range; readonly message: string }[];
}

export { DiagnosticSeverity };

/** childIndent is the column of a mapping's keys, or undefined when none of its keys is in the text. */
export function childIndent(doc: SourceDocument, path: string): number | undefined {
  let column: number | undefined;
  const prefix = path === '' ? '' : `${path}.`;
  for (const [field, range] of doc.fields) {
    if (!field.startsWith(prefix) || !range.key) continue;
    const rest = field.slice(prefix.length);
    if (rest === '' || /[.[]/.test(rest)) continue;
    column = Math.min(column ?? Infinity, range.key.start.character);
  }
  return column;
}

/**
 * insertInto adds lines at the end of a block mapping (`spec.containers[0]`), indented as its keys are; lines
 * nested further carry their own extra spaces. Undefined when the mapping is not a block in the text.
 */
export function insertInto(doc: SourceDocument, path: string, lines: readonly string[]): TextEdit | undefined {
  const mapping = doc.fields.get(path);
  const indent = childIndent(doc, path);
  if (!mapping || indent === undefined) return undefined;
  const end = mapping.value.end;
  const pad = ' '.repeat(indent);
  return { range: { start: end, end }, newText: lines.map((l) => `\n${pad}${l}`).join('') };
}
