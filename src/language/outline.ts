// The outline of a manifest file: one symbol per Kubernetes document with its containers below it, and folding
// ranges for each document and each block that spans lines.
import type { DocumentSymbol, FoldingRange } from 'vscode-languageserver-types';
import { SymbolKind } from 'vscode-languageserver-types';
import type { SourceDocument } from '../engine/cluster/inputs';
import { podPathOf } from './diagnostics/hints';
import type { ManifestSection } from './documents';
import { lookup, rangeOfField } from './ranges';

/** documentSymbols lists each Kubernetes document (`Deployment web`) with its containers as children. */
export function documentSymbols(sections: readonly ManifestSection[]): DocumentSymbol[] {
  return sections.filter((s) => s.kubernetes).flatMap((s) => s.documents.map(symbolOf));
}

function symbolOf(doc: SourceDocument): DocumentSymbol {
  const kind = String(doc.object.kind ?? '');
  const name = doc.object.metadata?.name ?? doc.object.metadata?.generateName ?? '';
  const children: DocumentSymbol[] = [];
  const podPath = podPathOf(kind);
  for (const list of podPath ? ['initContainers', 'containers'] : []) {
    const items = lookup(doc.object, [...(podPath ?? '').split('.'), list]);
    if (!Array.isArray(items)) continue;
    items.forEach((c: { name?: unknown; image?: unknown } | null, i) => {
      const path = `${podPath}.${list}[${i}]`;
      const range = doc.fields.get(path)?.value;
      if (!range) return;
      children.push({
        name: typeof c?.name === 'string' ? c.name : `#${i}`, detail: `${list === 'initContainers' ? 'init container' : 'container'}${typeof c?.image === 'string' ? ` ${c.image}` : ''}`,
        kind: SymbolKind.Object, range, selectionRange: rangeOfField(doc, `${path}.name`, 'value'),
      });
    });
  }
  return {
    name: name ? `${kind} ${name}` : kind, detail: String(doc.object.apiVersion ?? ''), kind: SymbolKind.Class,
    range: doc.range, selectionRange: rangeOfField(doc, 'metadata.name', 'value'), children,
  };
}

/** foldingRanges folds each document and each key whose value spans more than its line. */
export function foldingRanges(sections: readonly ManifestSection[]): FoldingRange[] {
  const out: FoldingRange[] = [];
  for (const section of sections) {
    if (!section.kubernetes) continue;
    const last = section.startLine + section.text.replace(/\s+$/, '').split('\n').length - 1;
    if (last > section.startLine) out.push({ startLine: section.startLine, endLine: last });
    for (const doc of section.documents) {
      for (const field of doc.fields.values()) {
        const start = field.key?.start.line ?? field.value.start.line;
        if (field.value.end.line > start) out.push({ startLine: start, endLine: field.value.end.line });
      }
    }
  }
  return out;
}
