// From a field path of the engine (`spec.containers[0].image`) to the range of its key or value in the editor.
import type { Range } from 'vscode-languageserver-types';
import { parentPaths, type PathSegment } from '../engine/api/fieldpath';
import type { SourceDocument } from '../engine/cluster/inputs';

/** Part says which part of a field a diagnostic sits on: its key (a field that should not be there) or its value. */
export type Part = 'key' | 'value';

/**
 * rangeOfField is the range of a field's key or value; a field absent from the text (a required one) falls back to
 * the key of its nearest ancestor that is there, then to the document's first line.
 */
export function rangeOfField(doc: SourceDocument, path: string | undefined, part: Part): Range {
  if (path) {
    const own = doc.fields.get(path);
    if (own) return part === 'key' ? own.key ?? own.value : own.value;
    for (const parent of safeParents(path)) {
      const field = doc.fields.get(parent);
      if (field) return field.key ?? firstKeyOf(doc, parent) ?? field.value;
    }
  }
  const kind = doc.fields.get('kind');
  return kind?.key ?? { start: doc.range.start, end: { line: doc.range.start.line, character: doc.range.start.character } };
}

/** firstKeyOf is the first key inside a list item (its `name:`, usually), to stand for the item on one line. */
function firstKeyOf(doc: SourceDocument, item: string): Range | undefined {
  let first: Range | undefined;
  for (const [path, field] of doc.fields) {
    if (!path.startsWith(`${item}.`) || !field.key) continue;
    if (!first || field.key.start.line < first.start.line || (field.key.start.line === first.start.line && field.key.start.character < first.start.character)) first = field.key;
  }
  return first;
}

/** safeParents lists a path's ancestors; a path the engine wrote in another syntax has none. */
function safeParents(path: string): string[] {
  try {
    return parentPaths(path);
  } catch {
    return [];
  }
}

/** contains tells whether a position lies in a range (its end included, where the cursor sits after a word). */
export function contains(range: Range, line: number, character: number): boolean {
  if (line < range.start.line || line > range.end.line) return false;
  if (line === range.start.line && character < range.start.character) return false;
  if (line === range.end.line && character > range.end.character) return false;
  return true;
}

/** lookup reads the value at a path of an object (undefined where the path leads nowhere). */
export function lookup(value: unknown, path: readonly PathSegment[]): unknown {
  let v = value;
  for (const segment of path) v = v !== null && typeof v === 'object' ? (v as Record<string | number, unknown>)[segment] : undefined;
  return v;
}
