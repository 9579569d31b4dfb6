// Hover on a field of a manifest: its type, whether it is required, its values, the default the API server fills in
// (found by running the engine's defaulting without the field), the phases that read it (the map line breakpoints
// use), the API reference link, and the diagnostics on it; on a quantity under requests or limits, the amount.
import type { Diagnostic, Hover, Position } from 'vscode-languageserver-types';
import { MarkupKind } from 'vscode-languageserver-types';
import type { PathSegment } from '../engine/api/fieldpath';
import { formatFieldPath } from '../engine/api/fieldpath';
import { deepClone, type KubeObject } from '../engine/api/types';
import { applyDefaults } from '../engine/apiserver/defaulting';
import { locate } from './cursor';
import type { ManifestSection } from './documents';
import { contains, lookup } from './ranges';
import { readersOf } from '../engine/runtime/field-readers';
import { isQuantityPath, quantityHover } from './hover-quantity';
import { referenceLink } from './reference';
import { fieldAt, readableType, rootTypeId } from './schema';

/** sectionAt finds the section that holds a line. */
export function sectionAt(sections: readonly ManifestSection[], line: number): ManifestSection | undefined {
  return sections.find((s) => line >= s.startLine && line < Math.max(s.endLine, s.startLine + 1));
}

/** doHover describes the field under the cursor; null when the cursor is not on a field the schema knows. */
export function doHover(sections: readonly ManifestSection[], position: Position, diagnostics: readonly Diagnostic[]): Hover | null {
  const section = sectionAt(sections, position.line);
  if (!section?.kubernetes) return null;
  const lines = section.text.split('\n');
  const place = locate(lines, position.line - section.startLine, position.character);
  if (!place.key) return null;
  const path: PathSegment[] = [...place.path, place.key.name];
  const root = rootTypeId(section.kubernetes);
  const info = root ? fieldAt(root, path) : undefined;
  const quantity = !info && isQuantityPath(path);
  const here = diagnostics.filter((d) => contains(d.range, position.line, position.character));
  if (!info && !quantity && here.length === 0) return null;
  const parts: string[] = [];
  // The value written after the key's colon, wherever on the line the cursor is.
  if (quantity) parts.push(...quantityHover(path, (lines[position.line - section.startLine] ?? '').slice(place.key.end).replace(/^\s*:/, '')), ...readBy(path));
  if (info) {
    const [kind, version] = kindAndVersion(section.kubernetes);
    parts.push(`**${info.name}** \`${readableType(info.property.type, info.property)}\`${info.required ? ' — required' : ''}`);
    if (info.property.doc) parts.push(info.property.doc);
    if (info.property.enum) parts.push(`Values: ${info.property.enum.map((v) => `\`${v}\``).join(' | ')}`);
    if (info.property.type === 'boolean') parts.push('Values: `true` | `false`');
    const object = section.documents.find((d) => d.range.start.line <= position.line && position.line <= d.range.end.line)?.object ?? section.documents[0]?.object;
    const byDefault = object ? defaultOf(object, path) : undefined;
    if (byDefault !== undefined) parts.push(`Default: \`${JSON.stringify(byDefault)}\` (filled in by the API server when absent)`);
    parts.push(...readBy(path, kind));
    const link = referenceLink(info.parentId, kind, version);
    if (link) parts.push(`[${info.parent.go.replace(/^v1\./, '')} in the Kubernetes API reference](${link})`);
  }
  for (const d of here) parts.push(`---\n${d.severity === 1 ? 'Error' : d.severity === 2 ? 'Warning' : 'Note'}: ${d.message}`);
  const line = position.line;
  const range = place.onKey
    ? { start: { line, character: place.key.start }, end: { line, character: place.key.end } }
    : { start: { line, character: place.value?.start ?? place.key.start }, end: { line, character: place.value?.end ?? place.key.end } };
  return { contents: { kind: MarkupKind.Markdown, value: parts.join('\n\n') }, range };
}

/** readBy lists the phases that read a field, from the map line breakpoints stop by (src/engine/runtime/field-readers.ts). */
function readBy(path: readonly PathSegment[], kind?: string): string[] {
  const readers = readersOf(formatFieldPath([...path]), kind);
  return readers.length ? [`Read by:\n${readers.map((r) => `- \`${r.phase}\` — ${r.what}`).join('\n')}`] : [];
}

/** kindAndVersion splits `apps/v1/Deployment` into the kind and the version. */
function kindAndVersion(key: string): [string, string] {
  const parts = key.split('/');
  return [parts[parts.length - 1] ?? '', parts[parts.length - 2] ?? ''];
}

/**
 * defaultOf is what the engine's defaulting puts at a path when the field is left out of the object. A map or list
 * that is written is what it is: its "default" (requests copied from limits, say) would only mislead.
 */
function defaultOf(object: KubeObject, path: readonly PathSegment[]): unknown {
  try {
    const written = lookup(object, path);
    if (written !== null && typeof written === 'object' && Object.keys(written).length > 0) return undefined;
    const copy = deepClone(object);
    const parent = lookup(copy, path.slice(0, -1));
    const last = path[path.length - 1];
    if (parent === null || typeof parent !== 'object' || last === undefined) return undefined;
    delete (parent as Record<string | number, unknown>)[last];
    const value = lookup(applyDefaults(copy).object, path);
    return value === undefined || (typeof value === 'object' && value !== null && Object.keys(value).length === 0) ? undefined : value;
  } catch {
    return undefined;
  }
}
