// The YAML documents of an open file: split at `---`, each parsed by the engine's loader (with the range of every
// field) and kept by its text, so that a change re-parses only the documents it touched.
import { SCHEMA_KINDS } from '../engine/api/schema/schema.generated';
import { InputError, type SourceDocument } from '../engine/cluster/inputs';
import { parseDocuments } from '../engine/cluster/loader';

/** ManifestSection is one `---` section of a file: where it sits, its text, and what the loader made of it. */
export interface ManifestSection {
  /** index is the section's position in the file (0 for the first). */
  readonly index: number;
  /** startLine is the file line of the section's first line; endLine the line after its last. */
  readonly startLine: number;
  readonly endLine: number;
  readonly text: string;
  /** documents are the parsed objects (an item of a `kind: List` is its own), ranges in file lines. */
  readonly documents: readonly SourceDocument[];
  /** error is the loader's error on this section (a YAML syntax error, a document that is not an object), at its file line. */
  readonly error?: { line: number; character: number; message: string };
  /** kind is `apiVersion/kind` when the section declares a Kubernetes kind the schema knows. */
  readonly kubernetes: string | undefined;
}

/** DOCUMENT_MARKER is a line that starts or ends a YAML document. */
const DOCUMENT_MARKER = /^(---|\.\.\.)(\s|$)/;

/** splitSections cuts a file into its `---` sections: each with its first line and text (the marker line left out). */
export function splitSections(text: string): { startLine: number; endLine: number; text: string }[] {
  const lines = text.split('\n');
  const out: { startLine: number; endLine: number; text: string }[] = [];
  let start = 0;
  const flush = (end: number): void => {
    if (end > start || out.length === 0) out.push({ startLine: start, endLine: end, text: lines.slice(start, end).join('\n') });
  };
  for (let i = 0; i < lines.length; i++) {
    if (!DOCUMENT_MARKER.test(lines[i] ?? '')) continue;
    flush(i);
    start = i + 1;
  }
  flush(lines.length);
  return out.filter((s) => s.text.trim() !== '' || out.length === 1);
}

/** TOP_KEY reads a top-level `apiVersion:` or `kind:` line, to know a section's kind even when it does not parse. */
const TOP_KEY = /^(apiVersion|kind):[ \t]*["']?([^"'#\s]*)/gm;

/** kubernetesKind is `apiVersion/kind` when a section's top-level keys name a kind of the schema. */
export function kubernetesKind(text: string): string | undefined {
  let apiVersion = '';
  let kind = '';
  for (const m of text.matchAll(TOP_KEY)) {
    if (m[1] === 'apiVersion') apiVersion = m[2] ?? '';
    else kind = m[2] ?? '';
  }
  const key = `${apiVersion}/${kind}`;
  return SCHEMA_KINDS[key] ? key : undefined;
}

/** SectionCache parses sections once per text; sections unchanged by an edit are reused. */
export class SectionCache {
  private cache = new Map<string, Omit<ManifestSection, 'index' | 'startLine' | 'endLine'> & { parsedAt: number }>();

  /** sections splits and parses a file; `file` names it in the loader's messages. */
  sections(text: string, file: string): ManifestSection[] {
    const next = new Map<string, Omit<ManifestSection, 'index' | 'startLine' | 'endLine'> & { parsedAt: number }>();
    const out = splitSections(text).map((s, index) => {
      const key = s.text;
      // A text seen twice in one file gets its own copy: the ranges of a parsed section are moved in place.
      const reused = next.has(key) ? undefined : this.cache.get(key);
      const parsed = reused ?? { ...parseSection(s.text, file), parsedAt: 0 };
      if (!next.has(key)) next.set(key, parsed);
      return { index, startLine: s.startLine, endLine: s.endLine, ...shift(parsed, s.startLine - parsed.parsedAt, s.startLine) };
    });
    this.cache = next;
    return out;
  }
}

/** parseSection runs the loader on one section's text, lines counted from the section's start. */
function parseSection(text: string, file: string): Omit<ManifestSection, 'index' | 'startLine' | 'endLine'> {
  const kubernetes = kubernetesKind(text);
  try {
    return { text, documents: parseDocuments(text, file), kubernetes };
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    return { text, documents: [], error: { line: err.line - 1, character: (err.column ?? 1) - 1, message: err.problem }, kubernetes };
  }
}

/**
 * shift moves a parsed section to its place in the file. The cache keeps the lines of the place where it was last
 * used (`parsedAt`), and moves them when the section moved, so a reused section costs its field count, no parse.
 */
function shift<T extends Omit<ManifestSection, 'index' | 'startLine' | 'endLine'> & { parsedAt: number }>(parsed: T, by: number, at: number): T {
  if (by === 0) return parsed;
  // Positions are moved in place; a range is fresh from the loader but for an empty one, whose start is its end.
  const move = (r: SourceDocument['range']): void => {
    r.start.line += by;
    if (r.end !== r.start) r.end.line += by;
  };
  for (const doc of parsed.documents) {
    move(doc.range);
    for (const field of doc.fields.values()) {
      if (field.key) move(field.key);
      move(field.value);
    }
  }
  const error = parsed.error ? { ...parsed.error, line: parsed.error.line + by } : undefined;
  parsed.parsedAt = at;
  (parsed as { error?: ManifestSection['error'] }).error = error;
  return parsed;
}
