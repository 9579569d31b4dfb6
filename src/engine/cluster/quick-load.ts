// Quick loading of big cluster files and of the language server's sections: the values from the plain-YAML reader,
// the source ranges from it too when asked and it can give them, else from the full reader only when something first
// asks for them (a message that names a line, the debugger's source view).
import { isObject, type KubeObject } from '../api/types';
import { isList, kindProblems, listItemKind, splitList } from './document-shape';
import type { FieldRange, Range, SourceDocument } from './inputs';
import { readPlainYaml } from './plain-yaml';

/**
 * QuickOptions are the loader's ParseOptions: `lazyRanges` reads ranges only when first asked for; `eagerRanges` has
 * the fast reader of the plain subset record them as it reads, when it can (else they are read lazily with
 * `lazyRanges`, at once without); `ranged` gets the documents once read with ranges.
 */
export interface QuickOptions {
  lazyRanges?: boolean;
  eagerRanges?: boolean;
  /**
   * ranged is called with the documents read with ranges (the quick ones' twins, or the documents themselves) when they
   * are read: a reader that keeps the documents at other lines than the text's moves their ranges there.
   */
  ranged?: (docs: SourceDocument[]) => void;
}

/**
 * readQuickly reads a file in the plain subset; undefined when the full reader must do it (another construct, or any
 * problem the full reader has a message for). `full` reads the file with ranges; its documents come in the same order.
 * With `eagerRanges` the plain reader's ranges are taken when it has them (and given to `ranged`); else, with
 * `lazyRanges`, they wait for the full reader; else the full reader must read the file.
 */
export function readQuickly(text: string, file: string, full: () => SourceDocument[], options: QuickOptions): SourceDocument[] | undefined {
  const plain = readPlainYaml(text, { ranges: options.eagerRanges });
  if (!plain) return undefined;
  const objects: { index: number; object: KubeObject }[] = [];
  const docs: SourceDocument[] = [];
  for (const { index, value, range, fields } of plain) {
    if (!isObject(value)) return undefined;
    const object = value as KubeObject;
    if (kindProblems(object).length > 0) return undefined;
    if (range && fields) docs.push({ file, index, object, range, fields });
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
  if (options.eagerRanges && docs.length === plain.length) {
    const eager = docs.flatMap((doc) => (isList(doc.object) ? splitList(doc) : [doc]));
    options.ranged?.(eager);
    return eager;
  }
  if (!options.lazyRanges) return undefined;
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
