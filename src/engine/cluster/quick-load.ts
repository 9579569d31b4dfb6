// Quick loading of big cluster files: the values from the plain-YAML reader, the source ranges from the full reader
// only when something first asks for them (a message that names a line, the debugger's source view).
import { isObject, type KubeObject } from '../api/types';
import { isList, kindProblems, listItemKind } from './document-shape';
import type { FieldRange, Range, SourceDocument } from './inputs';
import { readPlainYaml } from './plain-yaml';

/**
 * readQuickly reads a file in the plain subset; undefined when the full reader must do it (another construct, or any
 * problem the full reader has a message for). `full` reads the file with ranges; its documents come in the same order.
 */
export function readQuickly(text: string, file: string, full: () => SourceDocument[]): SourceDocument[] | undefined {
  const plain = readPlainYaml(text);
  if (!plain) return undefined;
  const objects: { index: number; object: KubeObject }[] = [];
  for (const { index, value } of plain) {
    if (!isObject(value)) return undefined;
    const object = value as KubeObject;
    if (kindProblems(object).length > 0) return undefined;
    if (!isList(object)) {
      objects.push({ index, object });
      continue;
    }
    const items = (object as Record<string, unknown>)['items'];
    if (items === undefined || items === null) continue;
    if (!Array.isArray(items)) return undefined;
    for (const item of items) {
      if (!isObject(item)) return undefined;
      listItemKind(item as KubeObject, object);
      if (kindProblems(item as KubeObject).length > 0) return undefined;
      objects.push({ index, object: item as KubeObject });
    }
  }
  let ranged: SourceDocument[] | undefined;
  const rangedDoc = (k: number): SourceDocument => (ranged ??= full())[k]!;
  return objects.map(({ index, object }, k) => lazyRanges({ file, index, object }, () => rangedDoc(k)));
}

/** lazyRanges completes a document with `range` and `fields` taken from its fully read twin on first use. */
function lazyRanges(doc: Pick<SourceDocument, 'file' | 'index' | 'object'>, twin: () => SourceDocument): SourceDocument {
  let range: Range | undefined;
  let fields: Map<string, FieldRange> | undefined;
  return Object.defineProperties(doc, {
    range: { get: () => (range ??= twin().range), set: (r: Range) => (range = r), enumerable: true, configurable: true },
    fields: { get: () => (fields ??= twin().fields), set: (f: Map<string, FieldRange>) => (fields = f), enumerable: true, configurable: true },
  }) as SourceDocument;
}
