// Completion in a manifest: the keys the schema allows at the cursor, enum values and booleans, apiVersion/kind pairs,
// and snippets for a container, probes, resources, lifecycle hooks, tolerations and affinity.
import type { CompletionItem, Position } from 'vscode-languageserver-types';
import { CompletionItemKind, InsertTextFormat, MarkupKind } from 'vscode-languageserver-types';
import type { PathSegment } from '../engine/api/fieldpath';
import { SCHEMA_TYPES } from '../engine/api/schema/schema.generated';
import { locate } from './cursor';
import type { ManifestSection } from './documents';
import { sectionAt } from './hover';
import { lookup } from './ranges';
import { apiVersionKinds, fieldAt, readableType, rootTypeId, structAt, typeAt } from './schema';
import { SNIPPETS_BY_TYPE, CONTAINER_SNIPPET } from './snippets';

/** doComplete lists what may be typed at the cursor. */
export function doComplete(sections: readonly ManifestSection[], position: Position): CompletionItem[] {
  const section = sectionAt(sections, position.line);
  const lines = section ? section.text.split('\n') : [''];
  const line = section ? position.line - section.startLine : 0;
  const place = locate(lines, line, position.character);
  const range = { start: { line: position.line, character: place.wordStart }, end: position };
  const root = section?.kubernetes ? rootTypeId(section.kubernetes) : undefined;
  if (place.onValue && place.key) return valueItems(section, root, [...place.path, place.key.name], range);
  if (!root) return place.path.length === 0 ? kindItems(range) : [];
  const listType = typeAt(root, place.path);
  if (listType === '[]#core.v1.Container' && !place.inListItem) return [snippetItem(CONTAINER_SNIPPET, range, '- ')];
  const struct = structAt(root, place.path);
  if (!struct) return [];
  const object = section?.documents[0]?.object;
  const present = object ? lookup(object, place.path) : undefined;
  const taken = new Set(present && typeof present === 'object' ? Object.keys(present) : []);
  const items: CompletionItem[] = Object.entries(struct.type.properties)
    .filter(([name]) => !taken.has(name) || name === place.word)
    .map(([name, prop]) => ({
      label: name, kind: CompletionItemKind.Property, detail: `${readableType(prop.type, prop)}${struct.type.required?.includes(name) ? ' (required)' : ''}`,
      ...(prop.doc ? { documentation: { kind: MarkupKind.Markdown, value: prop.doc } } : {}),
      textEdit: { range, newText: keySnippet(name, prop.type) }, insertTextFormat: InsertTextFormat.Snippet,
      sortText: `${struct.type.required?.includes(name) ? '0' : '1'}${name}`,
    }));
  for (const snippet of SNIPPETS_BY_TYPE[struct.id] ?? []) if (!taken.has(snippet.key)) items.push(snippetItem(snippet, range, ''));
  return items;
}

/** keySnippet writes a key with what its type needs after it: a value, a nested block, or a list item. */
function keySnippet(name: string, type: string): string {
  if (type.startsWith('[]#')) return `${name}:\n  - $0`;
  if (type.startsWith('#') || type.startsWith('{}')) return `${name}:\n  $0`;
  if (type.startsWith('[]')) return `${name}:\n  - $0`;
  return `${name}: $0`;
}

type EditRange = { start: Position; end: Position };

/** valueItems offers the values of a key: apiVersion and kind, enum values, booleans. */
function valueItems(section: ManifestSection | undefined, root: string | undefined, path: PathSegment[], range: EditRange): CompletionItem[] {
  if (path.length === 1 && (path[0] === 'apiVersion' || path[0] === 'kind')) {
    const kind = /^kind:[ \t]*(\S+)/m.exec(section?.text ?? '')?.[1];
    const apiVersion = /^apiVersion:[ \t]*(\S+)/m.exec(section?.text ?? '')?.[1];
    const pairs = apiVersionKinds();
    const values = path[0] === 'apiVersion'
      ? [...new Set(pairs.filter((p) => !kind || p.kind === kind).map((p) => p.apiVersion))]
      : [...new Set(pairs.filter((p) => !apiVersion || p.apiVersion === apiVersion).map((p) => p.kind))];
    return values.sort().map((v) => ({ label: v, kind: CompletionItemKind.Value, textEdit: { range, newText: v } }));
  }
  const info = root ? fieldAt(root, path) : undefined;
  if (!info) return [];
  const values = info.property.enum ?? (info.property.type === 'boolean' ? ['true', 'false'] : []);
  return values.map((v) => ({ label: v, kind: CompletionItemKind.EnumMember, textEdit: { range, newText: v } }));
}

/** kindItems offers every apiVersion and kind pair at the top of a new document. */
function kindItems(range: EditRange): CompletionItem[] {
  return apiVersionKinds().map(({ apiVersion, kind }) => ({
    label: `${kind} (${apiVersion})`, kind: CompletionItemKind.Module, detail: SCHEMA_TYPES[rootTypeId(`${apiVersion}/${kind}`) ?? '']?.doc ?? '',
    textEdit: { range, newText: `apiVersion: ${apiVersion}\nkind: ${kind}\nmetadata:\n  name: \${1:name}\n$0` }, insertTextFormat: InsertTextFormat.Snippet,
    filterText: `${kind} ${apiVersion}`,
  }));
}

/** snippetItem turns a snippet into a completion item, with a leading text (a list dash) when it opens an item. */
function snippetItem(snippet: { label: string; detail: string; body: string }, range: EditRange, lead: string): CompletionItem {
  const body = lead ? `${lead}${snippet.body.replace(/\n/g, `\n${' '.repeat(lead.length)}`)}` : snippet.body;
  return { label: snippet.label, kind: CompletionItemKind.Snippet, detail: snippet.detail, textEdit: { range, newText: body }, insertTextFormat: InsertTextFormat.Snippet, sortText: `2${snippet.label}` };
}
